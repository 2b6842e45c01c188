package main

import "fmt"

// Node layout: the Character root, the joints in skin order right after it
// (so joint i is node i+1), and the skinned Body node last.
const (
	nodeCharacter  = 0
	firstJointNode = 1
	nodeBody       = firstJointNode + jointCount
)

func jointNode(j int) int { return firstJointNode + j }

// generate builds the complete character.glb in memory.
func generate() ([]byte, error) {
	js := skeleton()
	body, err := buildBody(js)
	if err != nil {
		return nil, fmt.Errorf("building mesh: %w", err)
	}
	png, err := buildTexture()
	if err != nil {
		return nil, fmt.Errorf("encoding texture: %w", err)
	}

	doc := &gltfDoc{
		Asset: gltfAsset{Version: "2.0", Generator: "skinview assetgen"},
		Scene: 0,
		// The skinned Body is a scene root beside Character rather than its
		// child: the Khronos validator warns about skinned meshes with a
		// parent (NODE_SKINNED_MESH_NON_ROOT) since parent transforms do not
		// apply to them.
		Scenes: []gltfScene{{Name: "Scene", Nodes: []int{nodeCharacter, nodeBody}}},
	}
	b := &bufferBuilder{doc: doc}
	addNodes(doc, js)
	addMesh(b, body)
	addSkin(b, js)
	addMaterial(b, png)
	for _, c := range clips() {
		addAnimation(b, sampleClip(js, c))
	}
	return encodeGLB(doc, b.bin.Bytes())
}

func intPtr(i int) *int { return &i }

func addNodes(doc *gltfDoc, js []joint) {
	doc.Nodes = make([]gltfNode, nodeBody+1)
	doc.Nodes[nodeCharacter] = gltfNode{Name: "Character", Children: []int{jointNode(jHips)}}
	for i, j := range js {
		o := localOffset(js, i)
		// The identity rotation is written out, not left to the default, so
		// every joint visibly carries the channels its animations drive.
		n := gltfNode{Name: j.name, Translation: &[3]float64{o.X, o.Y, o.Z}, Rotation: &[4]float64{0, 0, 0, 1}}
		for c, cj := range js {
			if cj.parent == i {
				n.Children = append(n.Children, jointNode(c))
			}
		}
		doc.Nodes[jointNode(i)] = n
	}
	doc.Nodes[nodeBody] = gltfNode{Name: "Body", Mesh: intPtr(0), Skin: intPtr(0)}
}

func addMesh(b *bufferBuilder, m *meshData) {
	n := m.vertexCount()
	pos := flattenVec3(m.pos)
	lo, hi := boundsOf(pos, 3)
	var attr gltfAttributes
	attr.Position = b.accessor(float32s(pos), targetArrayBuffer, compFloat, n, "VEC3", lo, hi)
	attr.Normal = b.accessor(float32s(flattenVec3(m.nrm)), targetArrayBuffer, compFloat, n, "VEC3", nil, nil)

	uv := make([]float32, 0, 2*n)
	for _, t := range m.uv {
		uv = append(uv, float32(t[0]), float32(t[1]))
	}
	attr.TexCoord0 = b.accessor(float32s(uv), targetArrayBuffer, compFloat, n, "VEC2", nil, nil)

	joints := make([]uint16, 0, 4*n)
	weights := make([]float32, 0, 4*n)
	for i := range m.joints {
		joints = append(joints, m.joints[i][:]...)
		weights = append(weights, m.weights[i][:]...)
	}
	attr.Joints0 = b.accessor(uint16s(joints), targetArrayBuffer, compUnsignedShort, n, "VEC4", nil, nil)
	attr.Weights0 = b.accessor(float32s(weights), targetArrayBuffer, compFloat, n, "VEC4", nil, nil)

	idx := b.accessor(uint16s(m.indices), targetElementArrayBuffer, compUnsignedShort, len(m.indices), "SCALAR", nil, nil)
	b.doc.Meshes = []gltfMesh{{
		Name: "Body",
		Primitives: []gltfPrimitive{{
			Attributes: attr, Indices: idx, Material: 0, Mode: modeTriangles,
		}},
	}}
}

// addSkin writes the inverse bind matrices. Rest rotations are identity, so
// each is a pure translation by minus the joint's rest position; that keeps
// the last row exactly 0 0 0 1.
func addSkin(b *bufferBuilder, js []joint) {
	ibm := make([]float32, 0, 16*len(js))
	nodes := make([]int, len(js))
	for i, j := range js {
		p := j.pos
		ibm = append(ibm,
			1, 0, 0, 0,
			0, 1, 0, 0,
			0, 0, 1, 0,
			float32(-p.X), float32(-p.Y), float32(-p.Z), 1)
		nodes[i] = jointNode(i)
	}
	acc := b.accessor(float32s(ibm), 0, compFloat, len(js), "MAT4", nil, nil)
	b.doc.Skins = []gltfSkin{{
		Name: "Armature", InverseBindMatrices: acc, Skeleton: jointNode(jHips), Joints: nodes,
	}}
}

func addMaterial(b *bufferBuilder, png []byte) {
	img := b.view(png, 0)
	b.doc.Images = []gltfImage{{Name: "atlas", BufferView: img, MimeType: "image/png"}}
	b.doc.Samplers = []gltfSampler{{
		MagFilter: filterLinear, MinFilter: filterLinearMipmapLinear, WrapS: wrapRepeat, WrapT: wrapRepeat,
	}}
	b.doc.Textures = []gltfTexture{{Sampler: 0, Source: 0}}
	b.doc.Materials = []gltfMaterial{{
		Name: "Outfit",
		PBR: gltfPBR{
			// A warm tint rather than white, so a viewer that ignores the
			// factor is noticeably different from one that applies it.
			BaseColorFactor:  [4]float64{1, 0.95, 0.9, 1},
			BaseColorTexture: gltfTextureInfo{Index: 0},
			MetallicFactor:   0,
			RoughnessFactor:  0.8,
		},
	}}
}

// addAnimation writes one clip. All its samplers share one input accessor,
// since every channel is keyed at the same times.
func addAnimation(b *bufferBuilder, c sampledClip) {
	times := make([]float32, len(c.times))
	for i, t := range c.times {
		times[i] = float32(t)
	}
	lo, hi := boundsOf(times, 1)
	input := b.accessor(float32s(times), 0, compFloat, len(times), "SCALAR", lo, hi)

	anim := gltfAnimation{Name: c.name}
	channel := func(output, node int, path string) {
		anim.Samplers = append(anim.Samplers, gltfAnimSampler{Input: input, Interpolation: "LINEAR", Output: output})
		anim.Channels = append(anim.Channels, gltfChannel{
			Sampler: len(anim.Samplers) - 1, Target: gltfTarget{Node: node, Path: path},
		})
	}
	if c.hips != nil {
		out := b.accessor(float32s(flattenVec3(c.hips)), 0, compFloat, len(c.hips), "VEC3", nil, nil)
		channel(out, jointNode(jHips), "translation")
	}
	for k, j := range c.rotJoint {
		vals := make([]float32, 0, 4*len(c.rots[k]))
		for _, q := range c.rots[k] {
			vals = append(vals, float32(q.X), float32(q.Y), float32(q.Z), float32(q.W))
		}
		out := b.accessor(float32s(vals), 0, compFloat, len(c.rots[k]), "VEC4", nil, nil)
		channel(out, jointNode(j), "rotation")
	}
	b.doc.Animations = append(b.doc.Animations, anim)
}
