package main

import (
	"math"
	"sort"

	"github.com/go-gl/mathgl/mgl64"
)

// Edge-case files for the loader tests: small .gltf documents with their
// buffer embedded as a data URI, each exercising one corner of the skinning
// part of the specification. Every one is a valid glTF 2.0 file; see each
// generator's comment for what it tests and what a correct loader shows.

type edgeCase struct {
	name     string
	generate func() ([]byte, error)
}

func edgeCases() []edgeCase {
	return []edgeCase{
		{"two_skins.gltf", edgeTwoSkins},
		{"joints_outside.gltf", edgeJointsOutside},
		{"no_ibm.gltf", edgeNoIBM},
		{"eight_influences.gltf", edgeEightInfluences},
		{"normalized_weights.gltf", edgeNormalizedWeights},
		{"cubic_step.gltf", edgeCubicStep},
		{"morph_creature.gltf", edgeMorphCreature},
		{"root_walk.gltf", edgeRootWalk},
		{"alpha_blend.gltf", edgeAlphaBlend},
		{"alpha_mask.gltf", edgeAlphaMask},
		{"material_maps.gltf", edgeMaterialMaps},
	}
}

// edgeDoc builds one edge-case document.
type edgeDoc struct {
	doc *gltfDoc
	b   *bufferBuilder
}

func newEdgeDoc() *edgeDoc {
	doc := &gltfDoc{Asset: gltfAsset{Version: "2.0", Generator: generatorName}}
	return &edgeDoc{doc: doc, b: &bufferBuilder{doc: doc}}
}

func (e *edgeDoc) node(n gltfNode) int {
	e.doc.Nodes = append(e.doc.Nodes, n)
	return len(e.doc.Nodes) - 1
}

func (e *edgeDoc) scene(roots ...int) {
	e.doc.Scenes = []gltfScene{{Name: "Scene", Nodes: roots}}
}

func (e *edgeDoc) encode() ([]byte, error) { return encodeGLTF(e.doc, e.b.bin.Bytes()) }

// material adds the one material of an edge file: double-sided so the
// ribbons read from behind too, with a colour that tells the files apart.
func (e *edgeDoc) material(r, g, b float64) int {
	e.doc.Materials = append(e.doc.Materials, gltfMaterial{
		Name: "Edge", DoubleSided: true,
		PBR: gltfPBR{BaseColorFactor: [4]float64{r, g, b, 1}, MetallicFactor: 0, RoughnessFactor: 0.7},
	})
	return len(e.doc.Materials) - 1
}

// jointNodes adds a chain or tree of joints; parents are indices into js
// (-1: a child of parent). It returns the node index of each joint.
func (e *edgeDoc) jointNodes(js []joint, parent int) []int {
	nodes := make([]int, len(js))
	for i, j := range js {
		o := localOffset(js, i)
		nodes[i] = e.node(gltfNode{Name: j.name, Translation: &[3]float64{o.X(), o.Y(), o.Z()}})
		p := parent
		if j.parent >= 0 {
			p = nodes[j.parent]
		}
		if p >= 0 {
			e.doc.Nodes[p].Children = append(e.doc.Nodes[p].Children, nodes[i])
		}
	}
	return nodes
}

// ibms writes inverse bind matrices as a MAT4 accessor.
func (e *edgeDoc) ibms(ms []mgl64.Mat4) int {
	vals := make([]float32, 0, 16*len(ms))
	for _, m := range ms {
		for _, v := range m {
			vals = append(vals, float32(v))
		}
	}
	return e.b.accessor(float32s(vals), 0, compFloat, len(ms), "MAT4", nil, nil)
}

// ribbon is the mesh of the edge files: an open tube along an axis, with
// each vertex's coordinate s along it for the weights.
type ribbon struct {
	pos, nrm []mgl64.Vec3
	s        []float64
	idx      []uint16
}

func makeTube(origin, axis mgl64.Vec3, length, radius float64, rings, sides int) ribbon {
	side1, side2 := frame(axis)
	var r ribbon
	for k := 0; k <= rings; k++ {
		s := length * float64(k) / float64(rings)
		c := origin.Add(axis.Mul(s))
		for i := 0; i < sides; i++ {
			th := 2 * math.Pi * float64(i) / float64(sides)
			n := side1.Mul(math.Cos(th)).Add(side2.Mul(math.Sin(th)))
			r.pos = append(r.pos, c.Add(n.Mul(radius)))
			r.nrm = append(r.nrm, n)
			r.s = append(r.s, s)
		}
	}
	for k := 0; k < rings; k++ {
		for i := 0; i < sides; i++ {
			a, b := k*sides+i, k*sides+(i+1)%sides
			c, d := a+sides, b+sides
			r.idx = append(r.idx, uint16(a), uint16(b), uint16(d), uint16(a), uint16(d), uint16(c))
		}
	}
	return r
}

// geometry writes POSITION (with exact bounds), NORMAL and the indices.
func (e *edgeDoc) geometry(r ribbon) (map[string]int, int) {
	pos := flattenVec3(r.pos)
	lo, hi := boundsOf(pos, 3)
	attr := map[string]int{
		attrPosition: e.b.accessor(float32s(pos), targetArrayBuffer, compFloat, len(r.pos), "VEC3", lo, hi),
		attrNormal:   e.b.accessor(float32s(flattenVec3(r.nrm)), targetArrayBuffer, compFloat, len(r.nrm), "VEC3", nil, nil),
	}
	idx := e.b.accessor(uint16s(r.idx), targetElementArrayBuffer, compUnsignedShort, len(r.idx), "SCALAR", nil, nil)
	return attr, idx
}

// skinAttributes writes JOINTS_n/WEIGHTS_n for up to four influences per
// set, as UNSIGNED_SHORT joints and FLOAT weights.
func (e *edgeDoc) skinAttributes(attr map[string]int, per [][]influence, sets int) {
	n := len(per)
	for set := 0; set < sets; set++ {
		joints := make([]uint16, 0, 4*n)
		weights := make([]float32, 0, 4*n)
		for _, in := range per {
			for k := 4 * set; k < 4*set+4; k++ {
				if k < len(in) {
					joints = append(joints, uint16(in[k].joint))
					weights = append(weights, float32(in[k].w))
				} else {
					joints = append(joints, 0)
					weights = append(weights, 0)
				}
			}
		}
		js, ws := attrJoints0, attrWeights0
		if set == 1 {
			js, ws = attrJoints1, attrWeights1
		}
		attr[js] = e.b.accessor(uint16s(joints), targetArrayBuffer, compUnsignedShort, n, "VEC4", nil, nil)
		attr[ws] = e.b.accessor(float32s(weights), targetArrayBuffer, compFloat, n, "VEC4", nil, nil)
	}
}

// normalizeInfluences sorts influences heaviest first, drops those under
// minW, keeps at most max, and rescales them so their float32 values sum to
// one (the heaviest absorbs the rounding).
func normalizeInfluences(in []influence, minW float64, max int) []influence {
	var out []influence
	for _, x := range in {
		if x.w >= minW {
			out = append(out, x)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].w > out[b].w })
	if len(out) > max {
		out = out[:max]
	}
	total := 0.0
	for _, x := range out {
		total += x.w
	}
	sum := 0.0
	for i := range out {
		out[i].w = float64(float32(out[i].w / total))
		sum += out[i].w
	}
	out[0].w = float64(float32(out[0].w + 1 - sum))
	return out
}

// mesh adds a mesh with one primitive per (attributes, indices) pair.
func (e *edgeDoc) mesh(name string, mat int, prims ...gltfPrimitive) int {
	for i := range prims {
		prims[i].Material = intPtr(mat)
		prims[i].Mode = modeTriangles
	}
	e.doc.Meshes = append(e.doc.Meshes, gltfMesh{Name: name, Primitives: prims})
	return len(e.doc.Meshes) - 1
}

func (e *edgeDoc) skin(name string, ibm *int, skeleton *int, joints []int) int {
	e.doc.Skins = append(e.doc.Skins, gltfSkin{Name: name, InverseBindMatrices: ibm, Skeleton: skeleton, Joints: joints})
	return len(e.doc.Skins) - 1
}

// edgeChannel is one animated property: times, interpolation and the
// flattened output values (for CUBICSPLINE: in-tangent, value, out-tangent
// per key).
type edgeChannel struct {
	node   int
	path   string
	interp string
	times  []float64
	values []float64
}

func (e *edgeDoc) animation(name string, chans ...edgeChannel) {
	a := gltfAnimation{Name: name}
	comps := map[string]int{"translation": 3, "rotation": 4, "scale": 3, "weights": 1}
	types := map[int]string{1: "SCALAR", 3: "VEC3", 4: "VEC4"}
	for _, c := range chans {
		times := make([]float32, len(c.times))
		for i, t := range c.times {
			times[i] = float32(t)
		}
		lo, hi := boundsOf(times, 1)
		in := e.b.accessor(float32s(times), 0, compFloat, len(times), "SCALAR", lo, hi)
		vals := make([]float32, len(c.values))
		for i, v := range c.values {
			vals[i] = float32(v)
		}
		n := comps[c.path]
		out := e.b.accessor(float32s(vals), 0, compFloat, len(vals)/n, types[n], nil, nil)
		a.Samplers = append(a.Samplers, gltfAnimSampler{Input: in, Interpolation: c.interp, Output: out})
		a.Channels = append(a.Channels, gltfChannel{Sampler: len(a.Samplers) - 1, Target: gltfTarget{Node: c.node, Path: c.path}})
	}
	e.doc.Animations = append(e.doc.Animations, a)
}

// rotationKeys flattens quaternions rotating about axis by the given angles
// (degrees), keeping consecutive keys in one hemisphere.
func rotationKeys(axis mgl64.Vec3, degrees ...float64) []float64 {
	var out []float64
	for _, d := range degrees {
		q := axisAngle(axis, d)
		out = append(out, q.X(), q.Y(), q.Z(), q.W)
	}
	return out
}

// chainJoints is a straight chain of n joints along dir, spacing apart,
// starting at origin.
func chainJoints(prefix string, n int, origin, dir mgl64.Vec3, spacing float64) []joint {
	js := make([]joint, n)
	for i := range js {
		js[i] = joint{name: prefix + string(rune('0'+i)), parent: i - 1, pos: origin.Add(dir.Mul(spacing * float64(i)))}
	}
	snapJoints(js)
	return js
}

// restIBMs are the inverse bind matrices of joints with identity rest
// rotations under an identity parent: translations by minus the position.
func restIBMs(js []joint) []mgl64.Mat4 {
	out := make([]mgl64.Mat4, len(js))
	for i, j := range js {
		out[i] = mgl64.Translate3D(j.pos.Mul(-1).Elem())
	}
	return out
}

// skinAlong writes JOINTS_0/WEIGHTS_0 for a tube skinned to a chain of
// joints: joint k sits at from + k*spacing along the tube (see
// chainInfluences).
func (e *edgeDoc) skinAlong(attr map[string]int, r ribbon, from, spacing, radius float64, joints []int) {
	in := make([][]influence, len(r.s))
	for i, s := range r.s {
		in[i] = chainInfluences(s-from, spacing, radius, joints)
	}
	e.skinAttributes(attr, in, 1)
}

// chainInfluences skins s along a chain whose joint k sits at k*spacing,
// blending over ±radius around each inner joint.
func chainInfluences(s, spacing, radius float64, joints []int) []influence {
	var bs []boundary
	for k := 1; k < len(joints); k++ {
		bs = append(bs, boundary{float64(k) * spacing, radius})
	}
	return normalizeInfluences(chainWeights(joints, bs)(s), 1e-4, 4)
}

// edgeTwoSkins: two skinned meshes with different skins that share joints.
// One armature (root, a, b, c up +Y) drives a tube on the left through skin
// 0 (joints root, a, b) and a tube on the right through skin 1, which lists
// c, b, a: the shared joints a and b sit at different indices in the two
// skins, so JOINTS_0 must be resolved per skin. Clip "Bend" turns a, b and c.
func edgeTwoSkins() ([]byte, error) {
	e := newEdgeDoc()
	js := chainJoints("j", 4, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, 0.5)
	js[0].name, js[1].name, js[2].name, js[3].name = "root", "a", "b", "c"
	arm := e.node(gltfNode{Name: "Armature"})
	nodes := e.jointNodes(js, arm)
	mat := e.material(0.9, 0.6, 0.2)

	left := makeTube(mgl64.Vec3{-0.3, 0, 0}, mgl64.Vec3{0, 1, 0}, 1.5, 0.1, 12, 8)
	attrL, idxL := e.geometry(left)
	e.skinAlong(attrL, left, 0, 0.5, 0.1, []int{0, 1, 2})

	right := makeTube(mgl64.Vec3{0.3, 0.5, 0}, mgl64.Vec3{0, 1, 0}, 1.5, 0.1, 12, 8)
	attrR, idxR := e.geometry(right)
	// Skin 1 lists c, b, a: joint a is index 2, b is 1 and c is 0.
	e.skinAlong(attrR, right, 0, 0.5, 0.1, []int{2, 1, 0})

	all := restIBMs(js)
	s0 := e.skin("Skin0", intPtr(e.ibms(all[:3])), intPtr(nodes[0]), []int{nodes[0], nodes[1], nodes[2]})
	s1 := e.skin("Skin1", intPtr(e.ibms([]mgl64.Mat4{all[3], all[2], all[1]})), intPtr(nodes[1]), []int{nodes[3], nodes[2], nodes[1]})
	mL := e.mesh("Left", mat, gltfPrimitive{Attributes: attrL, Indices: intPtr(idxL)})
	mR := e.mesh("Right", mat, gltfPrimitive{Attributes: attrR, Indices: intPtr(idxR)})
	nL := e.node(gltfNode{Name: "LeftMesh", Mesh: intPtr(mL), Skin: intPtr(s0)})
	nR := e.node(gltfNode{Name: "RightMesh", Mesh: intPtr(mR), Skin: intPtr(s1)})
	e.scene(arm, nL, nR)
	times := []float64{0, 1, 2}
	z := mgl64.Vec3{0, 0, 1}
	e.animation("Bend",
		edgeChannel{nodes[1], "rotation", "LINEAR", times, rotationKeys(z, 0, 30, 0)},
		edgeChannel{nodes[2], "rotation", "LINEAR", times, rotationKeys(z, 0, 30, 0)},
		edgeChannel{nodes[3], "rotation", "LINEAR", times, rotationKeys(z, 0, -45, 0)},
	)
	return e.encode()
}

// edgeJointsOutside: the skin's joints live under their own scene root,
// "Rig", which is not a joint and has a transform of its own (moved 1 m
// along +X and turned 90 degrees about +Y), while the skinned mesh node is
// a separate root with no transform. The inverse bind matrices include
// Rig's transform, so at rest the mesh is where the file's positions put it
// (a tube along +Y at x = 1); a loader that skips non-joint ancestors when
// it computes joint matrices shows it displaced.
func edgeJointsOutside() ([]byte, error) {
	e := newEdgeDoc()
	rigT := mgl64.Vec3{1, 0, 0}
	rigR := rotY(90)
	rig := e.node(gltfNode{Name: "Rig", Translation: &[3]float64{rigT.X(), rigT.Y(), rigT.Z()},
		Rotation: &[4]float64{rigR.X(), rigR.Y(), rigR.Z(), rigR.W}})
	js := chainJoints("bone", 3, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, 0.6)
	nodes := e.jointNodes(js, rig)
	mat := e.material(0.3, 0.7, 0.9)
	rigM := mgl64.Translate3D(rigT.Elem()).Mul4(rigR.Mat4())
	var ibm []mgl64.Mat4
	for _, j := range js {
		// Joint world = Rig × translation(rest); the mesh is authored in
		// world space, so the IBM is the inverse of that.
		ibm = append(ibm, rigidInverse(rigM.Mul4(mgl64.Translate3D(j.pos.Elem()))))
	}
	tube := makeTube(mgl64.TransformCoordinate(js[0].pos, rigM), mgl64.Vec3{0, 1, 0}, 1.2, 0.1, 12, 8)
	attr, idx := e.geometry(tube)
	e.skinAlong(attr, tube, 0, 0.6, 0.12, []int{0, 1, 2})
	sk := e.skin("OutsideSkin", intPtr(e.ibms(ibm)), intPtr(nodes[0]), nodes)
	m := e.mesh("Tube", mat, gltfPrimitive{Attributes: attr, Indices: intPtr(idx)})
	mesh := e.node(gltfNode{Name: "Mesh", Mesh: intPtr(m), Skin: intPtr(sk)})
	e.scene(mesh, rig)
	e.animation("Sway",
		edgeChannel{nodes[1], "rotation", "LINEAR", []float64{0, 1, 2}, rotationKeys(mgl64.Vec3{1, 0, 0}, 0, 40, 0)},
		edgeChannel{nodes[2], "rotation", "LINEAR", []float64{0, 1, 2}, rotationKeys(mgl64.Vec3{1, 0, 0}, 0, 40, 0)},
	)
	return e.encode()
}

// edgeNoIBM: a skin without inverseBindMatrices, so every inverse bind
// matrix is the identity. The mesh is built for that: three rigid pieces,
// each weighted to one joint of the chain root → mid → tip (1 m apart up
// +Y) and authored in that joint's local space, so all three pieces start
// at y = 0 in the file and stack into one 2.5 m column once the joints are
// applied. A loader that computes inverse bind matrices from the rest pose
// instead draws the three pieces on top of each other.
func edgeNoIBM() ([]byte, error) {
	e := newEdgeDoc()
	js := chainJoints("j", 3, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, 1)
	js[0].name, js[1].name, js[2].name = "root", "mid", "tip"
	nodes := e.jointNodes(js, -1)
	mat := e.material(0.5, 0.8, 0.4)
	var r ribbon
	var in [][]influence
	for k, length := range []float64{1, 1, 0.5} {
		piece := makeTube(mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, length, 0.12-0.02*float64(k), 4, 8)
		base := uint16(len(r.pos))
		r.pos = append(r.pos, piece.pos...)
		r.nrm = append(r.nrm, piece.nrm...)
		for _, i := range piece.idx {
			r.idx = append(r.idx, base+i)
		}
		for range piece.pos {
			in = append(in, []influence{{k, 1}})
		}
	}
	attr, idx := e.geometry(r)
	e.skinAttributes(attr, in, 1)
	sk := e.skin("NoIBMSkin", nil, intPtr(nodes[0]), nodes)
	m := e.mesh("Column", mat, gltfPrimitive{Attributes: attr, Indices: intPtr(idx)})
	mesh := e.node(gltfNode{Name: "Mesh", Mesh: intPtr(m), Skin: intPtr(sk)})
	e.scene(nodes[0], mesh)
	e.animation("Nod",
		edgeChannel{nodes[1], "rotation", "LINEAR", []float64{0, 1, 2}, rotationKeys(mgl64.Vec3{0, 0, 1}, 0, 30, 0)},
		edgeChannel{nodes[2], "rotation", "LINEAR", []float64{0, 1, 2}, rotationKeys(mgl64.Vec3{0, 0, 1}, 0, -60, 0)},
	)
	return e.encode()
}

// edgeEightInfluences: a tube along +X over a chain of eight joints 0.25 m
// apart, each vertex weighted to every joint within reach by a wide
// Gaussian: up to eight non-zero influences, the four heaviest in
// JOINTS_0/WEIGHTS_0 and the rest in JOINTS_1/WEIGHTS_1 (unused slots are
// joint 0 with weight 0). A loader that reads only the first set loses up
// to a third of some vertices' weight.
func edgeEightInfluences() ([]byte, error) {
	e := newEdgeDoc()
	const n, spacing = 8, 0.25
	js := chainJoints("j", n, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{1, 0, 0}, spacing)
	nodes := e.jointNodes(js, -1)
	mat := e.material(0.8, 0.3, 0.6)
	tube := makeTube(mgl64.Vec3{-0.1, 0, 0}, mgl64.Vec3{1, 0, 0}, spacing*(n-1)+0.2, 0.08, 24, 8)
	attr, idx := e.geometry(tube)
	var in [][]influence
	for _, s := range tube.s {
		x := s - 0.1
		var raw []influence
		for k := 0; k < n; k++ {
			d := (x - spacing*float64(k)) / 0.45
			raw = append(raw, influence{k, math.Exp(-d * d)})
		}
		in = append(in, normalizeInfluences(raw, 0.005, 8))
	}
	e.skinAttributes(attr, in, 2)
	sk := e.skin("EightSkin", intPtr(e.ibms(restIBMs(js))), intPtr(nodes[0]), nodes)
	m := e.mesh("Tube", mat, gltfPrimitive{Attributes: attr, Indices: intPtr(idx)})
	mesh := e.node(gltfNode{Name: "Mesh", Mesh: intPtr(m), Skin: intPtr(sk)})
	e.scene(nodes[0], mesh)
	var chans []edgeChannel
	for k := 1; k < n; k++ {
		chans = append(chans, edgeChannel{nodes[k], "rotation", "LINEAR", []float64{0, 1, 2}, rotationKeys(mgl64.Vec3{0, 0, 1}, 0, 12, 0)})
	}
	e.animation("Curl", chans...)
	return e.encode()
}

// edgeNormalizedWeights: one mesh, two primitives on one skin (a chain of
// three joints up +Y). The left primitive stores JOINTS_0 as UNSIGNED_BYTE
// and WEIGHTS_0 as normalized UNSIGNED_BYTE (weights sum to exactly 255);
// the right one stores both as UNSIGNED_SHORT, the weights normalized
// (summing to exactly 65535). Read correctly, the two tubes bend into the
// same shape side by side.
func edgeNormalizedWeights() ([]byte, error) {
	e := newEdgeDoc()
	js := chainJoints("j", 3, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, 0.7)
	nodes := e.jointNodes(js, -1)
	mat := e.material(0.9, 0.9, 0.3)
	var prims []gltfPrimitive
	for _, bits := range []int{8, 16} {
		x := -0.25
		if bits == 16 {
			x = 0.25
		}
		tube := makeTube(mgl64.Vec3{x, 0, 0}, mgl64.Vec3{0, 1, 0}, 1.4, 0.1, 14, 8)
		attr, idx := e.geometry(tube)
		full := 255.0
		if bits == 16 {
			full = 65535
		}
		var joints []uint16
		var weights []uint16
		for _, s := range tube.s {
			in := chainInfluences(s, 0.7, 0.2, []int{0, 1, 2})
			// Quantize, then give the rounding to the heaviest so the sum
			// is exactly full scale.
			var q [4]uint16
			var jj [4]uint16
			sum := 0
			for k, x := range in {
				q[k] = uint16(math.Round(x.w * full))
				jj[k] = uint16(x.joint)
				sum += int(q[k])
			}
			q[0] = uint16(int(q[0]) + int(full) - sum)
			for k := range q {
				if q[k] == 0 {
					jj[k] = 0
				}
			}
			joints = append(joints, jj[:]...)
			weights = append(weights, q[:]...)
		}
		nv := len(tube.pos)
		if bits == 8 {
			j8 := make([]uint8, len(joints))
			w8 := make([]uint8, len(weights))
			for i := range joints {
				j8[i], w8[i] = uint8(joints[i]), uint8(weights[i])
			}
			attr[attrJoints0] = e.b.accessor(uint8s(j8), targetArrayBuffer, compUnsignedByte, nv, "VEC4", nil, nil)
			attr[attrWeights0] = e.b.accessor(uint8s(w8), targetArrayBuffer, compUnsignedByte, nv, "VEC4", nil, nil)
		} else {
			attr[attrJoints0] = e.b.accessor(uint16s(joints), targetArrayBuffer, compUnsignedShort, nv, "VEC4", nil, nil)
			attr[attrWeights0] = e.b.accessor(uint16s(weights), targetArrayBuffer, compUnsignedShort, nv, "VEC4", nil, nil)
		}
		e.doc.Accessors[attr[attrWeights0]].Normalized = true
		prims = append(prims, gltfPrimitive{Attributes: attr, Indices: intPtr(idx)})
	}
	sk := e.skin("QuantizedSkin", intPtr(e.ibms(restIBMs(js))), intPtr(nodes[0]), nodes)
	m := e.mesh("Pair", mat, prims...)
	mesh := e.node(gltfNode{Name: "Mesh", Mesh: intPtr(m), Skin: intPtr(sk)})
	e.scene(nodes[0], mesh)
	// The bend is about +X, the axis the two tubes sit along, so both
	// bend into the same shape.
	e.animation("Bend",
		edgeChannel{nodes[1], "rotation", "LINEAR", []float64{0, 1, 2}, rotationKeys(mgl64.Vec3{1, 0, 0}, 0, 50, 0)},
		edgeChannel{nodes[2], "rotation", "LINEAR", []float64{0, 1, 2}, rotationKeys(mgl64.Vec3{1, 0, 0}, 0, 50, 0)},
	)
	return e.encode()
}

// edgeCubicStep: a chain of three joints up +Y under a tube, animated by
// two clips. "CubicSpline" drives j1's translation and rotation and j2's
// scale with CUBICSPLINE samplers whose tangents are non-zero (so a loader
// that treats them as LINEAR, or ignores the tangents, visibly differs
// between keys); the rotation tangents are not unit quaternions, as the
// specification allows. "Step" drives the same three properties with STEP
// samplers: values jump at each key and hold until the next.
//
// For a CUBICSPLINE key k with time t_k, output element 3k is the
// in-tangent, 3k+1 the value and 3k+2 the out-tangent; between keys the
// value is the cubic Hermite spline with tangents scaled by the key
// interval.
func edgeCubicStep() ([]byte, error) {
	e := newEdgeDoc()
	js := chainJoints("j", 3, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, 0.6)
	nodes := e.jointNodes(js, -1)
	mat := e.material(0.4, 0.9, 0.8)
	tube := makeTube(mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, 1.2, 0.1, 12, 8)
	attr, idx := e.geometry(tube)
	e.skinAlong(attr, tube, 0, 0.6, 0.12, []int{0, 1, 2})
	sk := e.skin("Skin", intPtr(e.ibms(restIBMs(js))), intPtr(nodes[0]), nodes)
	m := e.mesh("Tube", mat, gltfPrimitive{Attributes: attr, Indices: intPtr(idx)})
	mesh := e.node(gltfNode{Name: "Mesh", Mesh: intPtr(m), Skin: intPtr(sk)})
	e.scene(nodes[0], mesh)

	times := []float64{0, 0.5, 1.5, 2}
	rest := js[1].pos.Sub(js[0].pos)
	// Translation: the value, then tangents in metres per second.
	var tr []float64
	for k, dx := range []float64{0, 0.2, -0.2, 0} {
		v := []float64{rest.X() + dx, rest.Y(), rest.Z()}
		tan := []float64{0.6 * math.Cos(float64(k)), 0.3, 0}
		tr = append(tr, tan[0], tan[1], tan[2], v[0], v[1], v[2], tan[0], -tan[1], tan[2])
	}
	var rot []float64
	angles := []float64{0, 40, -30, 0}
	for k, a := range angles {
		q := axisAngle(mgl64.Vec3{0, 0, 1}, a)
		// A tangent of about 60 degrees per second about Z, plus a small
		// non-zero X part so every component is exercised.
		tan := []float64{0.05, 0, 0.5 * math.Cos(mgl64.DegToRad(a)) * float64(1-2*(k%2)), -0.1}
		rot = append(rot, tan[0], tan[1], tan[2], tan[3], q.X(), q.Y(), q.Z(), q.W, tan[0], tan[1], tan[2], tan[3])
	}
	var sc []float64
	for k, s := range []float64{1, 1.4, 0.7, 1} {
		tan := 0.8 * float64(1-2*(k%2))
		sc = append(sc, tan, tan, tan, s, s, s, -tan, -tan, -tan)
	}
	e.animation("CubicSpline",
		edgeChannel{nodes[1], "translation", "CUBICSPLINE", times, tr},
		edgeChannel{nodes[1], "rotation", "CUBICSPLINE", times, rot},
		edgeChannel{nodes[2], "scale", "CUBICSPLINE", times, sc},
	)

	stepT := []float64{rest.X(), rest.Y(), rest.Z(), rest.X() + 0.25, rest.Y(), rest.Z(), rest.X() - 0.25, rest.Y(), rest.Z(), rest.X(), rest.Y(), rest.Z()}
	e.animation("Step",
		edgeChannel{nodes[1], "translation", "STEP", times, stepT},
		edgeChannel{nodes[1], "rotation", "STEP", times, rotationKeys(mgl64.Vec3{0, 0, 1}, 0, 35, -35, 0)},
		edgeChannel{nodes[2], "scale", "STEP", times, []float64{1, 1, 1, 1.5, 1.5, 1.5, 0.6, 0.6, 0.6, 1, 1, 1}},
	)
	return e.encode()
}
