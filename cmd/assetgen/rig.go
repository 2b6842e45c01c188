package main

import (
	"fmt"
	"image"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// joint is one bone of a generated skeleton. Rest rotations are identity in
// every asset, so a joint's frame is aligned with the model axes and its
// inverse bind matrix is a pure translation by minus its rest position.
type joint struct {
	name   string
	parent int // -1 for the skeleton root
	pos    mgl64.Vec3
}

// snapJoints moves every joint onto its parent plus the rounded local offset
// that is written into the node, so that node translations, inverse bind
// matrices and the mesh agree exactly. js must list parents first.
func snapJoints(js []joint) {
	for i := range js {
		if p := js[i].parent; p >= 0 {
			js[i].pos = js[p].pos.Add(localOffset(js, i))
		} else {
			js[i].pos = localOffset(js, i)
		}
	}
}

// localOffset is the joint's translation relative to its parent, as written
// into the node: rounded to 1e-6, which keeps the JSON free of float noise
// such as 0.16999999999999993.
func localOffset(js []joint, i int) mgl64.Vec3 {
	o := js[i].pos
	if p := js[i].parent; p >= 0 {
		o = o.Sub(js[p].pos)
	}
	return mgl64.Vec3{mgl64.Round(o.X(), 6), mgl64.Round(o.Y(), 6), mgl64.Round(o.Z(), 6)}
}

// pose is the animated state of a skeleton at one instant: a local rotation
// per joint plus the root's translation (the only offset that moves).
type pose struct {
	rot  []mgl64.Quat
	root mgl64.Vec3
	// missed counts inverse-kinematics targets that were out of reach while
	// the pose was built; the tests require none for planted feet.
	missed int
}

func restPose(js []joint) pose {
	p := pose{rot: make([]mgl64.Quat, len(js)), root: js[0].pos}
	for i := range p.rot {
		p.rot[i] = mgl64.QuatIdent()
	}
	return p
}

func (p pose) clone() pose {
	return pose{rot: append([]mgl64.Quat(nil), p.rot...), root: p.root, missed: p.missed}
}

// modelPose is a pose in model space: each joint's accumulated rotation and
// its position.
type modelPose struct {
	rot []mgl64.Quat
	pos []mgl64.Vec3
}

// forward computes model-space joint transforms from local rotations (local
// to model, parents first).
func forward(js []joint, p *pose) modelPose {
	m := modelPose{rot: make([]mgl64.Quat, len(js)), pos: make([]mgl64.Vec3, len(js))}
	for i := range js {
		par := js[i].parent
		if par < 0 {
			m.rot[i] = p.rot[i]
			m.pos[i] = p.root
			continue
		}
		m.rot[i] = quatMul(m.rot[par], p.rot[i])
		m.pos[i] = m.pos[par].Add(m.rot[par].Rotate(localOffset(js, i)))
	}
	return m
}

// setModelRot gives joint j the model-space rotation r, given the model
// rotation of its parent.
func setModelRot(p *pose, j int, parentModel, r mgl64.Quat) {
	p.rot[j] = quatMul(parentModel.Conjugate(), r)
}

// clip describes an animation as a function of time; it is sampled into
// LINEAR keys at keyRate when the file is written.
type clip struct {
	name string
	// duration in seconds; 0 makes a single-frame clip with one key.
	duration float64
	loop     bool // the last key repeats the first exactly
	sample   func(p *pose, t float64)
}

const keyRate = 30 // keys per second

// sampledClip holds the keys of one clip: times, and per animated joint the
// rotations (and the root translations if they move).
type sampledClip struct {
	name     string
	times    []float64
	rotJoint []int
	rots     [][]mgl64.Quat
	root     []mgl64.Vec3 // nil when the root does not translate
}

// sampleClip evaluates c at keyRate, including both ends, and keeps only the
// channels that leave the rest pose, so the file has no dead data.
func sampleClip(js []joint, c clip) sampledClip {
	n := int(math.Round(c.duration*keyRate)) + 1
	rest := restPose(js)
	out := sampledClip{name: c.name, times: make([]float64, n)}
	poses := make([]pose, n)
	for i := range poses {
		out.times[i] = float64(i) / keyRate
		poses[i] = rest.clone()
		c.sample(&poses[i], out.times[i])
	}
	if c.loop {
		poses[n-1] = poses[0]
	}

	for j := range js {
		keys := make([]mgl64.Quat, n)
		moves := false
		for i := range poses {
			q := quatNormalize(poses[i].rot[j])
			// Keep consecutive keys in the same hemisphere so LINEAR
			// interpolation takes the short way round; the first key has a
			// non-negative w so poses of different clips are comparable.
			if (i > 0 && q.Dot(keys[i-1]) < 0) || (i == 0 && q.W < 0) {
				q = q.Scale(-1)
			}
			keys[i] = q
			if 1-math.Abs(q.W) > 1e-9 {
				moves = true
			}
		}
		if moves {
			out.rotJoint = append(out.rotJoint, j)
			out.rots = append(out.rots, keys)
		}
	}
	for i := range poses {
		if poses[i].root != rest.root {
			out.root = make([]mgl64.Vec3, n)
			for k := range poses {
				out.root[k] = poses[k].root
			}
			break
		}
	}
	return out
}

// skinnedAsset is one generated model: a root node holding a skeleton, a
// single skinned, textured primitive as a separate scene root, and clips.
type skinnedAsset struct {
	rootName string // the node that holds the skeleton
	meshName string
	skinName string
	joints   []joint
	mesh     *meshData
	material gltfMaterial // texture, if set, is its base colour texture
	texture  image.Image  // written as PNG
	sampler  gltfSampler
	clips    []clip    // sampled when the file is written
	morph    *morphSet // morph targets of the mesh, or nil
}

// Node layout: the root, the joints in skin order right after it (so joint i
// is node i+1), and the skinned mesh node last.
const firstJointNode = 1

func jointNode(j int) int { return firstJointNode + j }

// encode writes the asset as GLB.
func (a *skinnedAsset) encode() ([]byte, error) {
	clips, err := sampleAll(a.joints, a.clips)
	if err != nil {
		return nil, err
	}
	meshNode := jointNode(len(a.joints))
	doc := &gltfDoc{
		Asset: gltfAsset{Version: "2.0", Generator: generatorName},
		Scene: 0,
		// The skinned mesh is a scene root beside the skeleton's root rather
		// than its child: the Khronos validator warns about skinned meshes
		// with a parent (NODE_SKINNED_MESH_NON_ROOT) since parent transforms
		// do not apply to them.
		Scenes: []gltfScene{{Name: "Scene", Nodes: []int{0, meshNode}}},
	}
	b := &bufferBuilder{doc: doc}
	a.addNodes(doc, meshNode)
	a.addMesh(b)
	a.addSkin(b)
	if err := a.addMaterial(b); err != nil {
		return nil, err
	}
	for _, c := range clips {
		addAnimation(b, c, a.morph, meshNode)
	}
	return encodeGLB(doc, b.bin.Bytes())
}

// generatorName is asset.generator in every file.
const generatorName = "skinview assetgen"

func (a *skinnedAsset) addNodes(doc *gltfDoc, meshNode int) {
	js := a.joints
	doc.Nodes = make([]gltfNode, meshNode+1)
	doc.Nodes[0] = gltfNode{Name: a.rootName, Children: []int{jointNode(0)}}
	children := make([][]int, len(js))
	for i, j := range js {
		if j.parent >= 0 {
			children[j.parent] = append(children[j.parent], jointNode(i))
		}
	}
	for i, j := range js {
		o := localOffset(js, i)
		// The identity rotation is written out, not left to the default, so
		// every joint visibly carries the channels its animations drive.
		doc.Nodes[jointNode(i)] = gltfNode{
			Name: j.name, Children: children[i],
			Translation: &[3]float64{o.X(), o.Y(), o.Z()}, Rotation: &[4]float64{0, 0, 0, 1},
		}
	}
	doc.Nodes[meshNode] = gltfNode{Name: a.meshName, Mesh: intPtr(0), Skin: intPtr(0)}
}

func (a *skinnedAsset) addMesh(b *bufferBuilder) {
	m := a.mesh
	n := m.vertexCount()
	pos := flattenVec3(m.pos)
	lo, hi := boundsOf(pos, 3)
	attr := map[string]int{}
	attr[attrPosition] = b.accessor(float32s(pos), targetArrayBuffer, compFloat, n, "VEC3", lo, hi)
	attr[attrNormal] = b.accessor(float32s(flattenVec3(m.nrm)), targetArrayBuffer, compFloat, n, "VEC3", nil, nil)

	uv := make([]float32, 0, 2*n)
	for _, t := range m.uv {
		uv = append(uv, float32(t[0]), float32(t[1]))
	}
	attr[attrTexCoord0] = b.accessor(float32s(uv), targetArrayBuffer, compFloat, n, "VEC2", nil, nil)

	joints := make([]uint16, 0, 4*n)
	weights := make([]float32, 0, 4*n)
	for i := range m.joints {
		joints = append(joints, m.joints[i][:]...)
		weights = append(weights, m.weights[i][:]...)
	}
	attr[attrJoints0] = b.accessor(uint16s(joints), targetArrayBuffer, compUnsignedShort, n, "VEC4", nil, nil)
	attr[attrWeights0] = b.accessor(float32s(weights), targetArrayBuffer, compFloat, n, "VEC4", nil, nil)

	idx := b.accessor(uint16s(m.indices), targetElementArrayBuffer, compUnsignedShort, len(m.indices), "SCALAR", nil, nil)
	b.doc.Meshes = []gltfMesh{{
		Name: a.meshName,
		Primitives: []gltfPrimitive{{
			Attributes: attr, Indices: intPtr(idx), Material: intPtr(0), Mode: modeTriangles,
		}},
	}}
	if a.morph != nil {
		a.morph.write(b, &b.doc.Meshes[0])
	}
}

// addSkin writes the inverse bind matrices. Rest rotations are identity, so
// each is a pure translation by minus the joint's rest position; that keeps
// the last row exactly 0 0 0 1.
func (a *skinnedAsset) addSkin(b *bufferBuilder) {
	js := a.joints
	ibm := make([]float32, 0, 16*len(js))
	nodes := make([]int, len(js))
	for i, j := range js {
		p := j.pos
		ibm = append(ibm,
			1, 0, 0, 0,
			0, 1, 0, 0,
			0, 0, 1, 0,
			float32(-p.X()), float32(-p.Y()), float32(-p.Z()), 1)
		nodes[i] = jointNode(i)
	}
	acc := b.accessor(float32s(ibm), 0, compFloat, len(js), "MAT4", nil, nil)
	b.doc.Skins = []gltfSkin{{
		Name: a.skinName, InverseBindMatrices: intPtr(acc), Skeleton: intPtr(jointNode(0)), Joints: nodes,
	}}
}

func (a *skinnedAsset) addMaterial(b *bufferBuilder) error {
	mat := a.material
	if a.texture != nil {
		png, err := encodePNG(a.texture)
		if err != nil {
			return fmt.Errorf("encoding texture: %w", err)
		}
		img := b.view(png, 0)
		b.doc.Images = []gltfImage{{Name: mat.Name, BufferView: img, MimeType: "image/png"}}
		b.doc.Samplers = []gltfSampler{a.sampler}
		b.doc.Textures = []gltfTexture{{Sampler: 0, Source: 0}}
		mat.PBR.BaseColorTexture = &gltfTextureInfo{Index: 0}
	}
	b.doc.Materials = []gltfMaterial{mat}
	return nil
}

// mipmappedRepeat is the sampler of the textured assets.
var mipmappedRepeat = gltfSampler{
	MagFilter: filterLinear, MinFilter: filterLinearMipmapLinear, WrapS: wrapRepeat, WrapT: wrapRepeat,
}

// addAnimation writes one clip. All its samplers share one input accessor,
// since every channel is keyed at the same times.
// addAnimation writes a sampled clip, with the morph weights of the mesh
// on meshNode when morph animates them in this clip.
func addAnimation(b *bufferBuilder, c sampledClip, morph *morphSet, meshNode int) {
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
	if c.root != nil {
		out := b.accessor(float32s(flattenVec3(c.root)), 0, compFloat, len(c.root), "VEC3", nil, nil)
		channel(out, jointNode(0), "translation")
	}
	for k, j := range c.rotJoint {
		out := b.accessor(float32s(flattenQuats(c.rots[k])), 0, compFloat, len(c.rots[k]), "VEC4", nil, nil)
		channel(out, jointNode(j), "rotation")
	}
	if morph != nil && morph.weights != nil {
		if vals := morph.keys(c.name, c.times); vals != nil {
			channel(b.accessor(float32s(vals), 0, compFloat, len(vals), "SCALAR", nil, nil), meshNode, "weights")
		}
	}
	b.doc.Animations = append(b.doc.Animations, anim)
}

// flattenQuats rounds quaternions to float32; unit quaternions stay unit
// length to well within 1e-6.
func flattenQuats(qs []mgl64.Quat) []float32 {
	out := make([]float32, 0, 4*len(qs))
	for _, q := range qs {
		out = append(out, float32(q.X()), float32(q.Y()), float32(q.Z()), float32(q.W))
	}
	return out
}

// sampleAll samples every clip, failing on duplicate names.
func sampleAll(js []joint, cs []clip) ([]sampledClip, error) {
	seen := map[string]bool{}
	out := make([]sampledClip, 0, len(cs))
	for _, c := range cs {
		if seen[c.name] {
			return nil, fmt.Errorf("clip %q defined twice", c.name)
		}
		seen[c.name] = true
		out = append(out, sampleClip(js, c))
	}
	return out, nil
}
