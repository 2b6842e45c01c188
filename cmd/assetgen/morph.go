package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// morphSet is the morph targets of a generated mesh: a name and the
// position displacements of every vertex per target, and the weights each
// clip gives them over time (nil for a clip that leaves them at 0).
type morphSet struct {
	names   []string
	deltas  [][]mgl64.Vec3
	weights func(clip string, t float64) []float64
}

// write adds the targets to the mesh's one primitive, with exact bounds,
// and their names to the mesh's extras.
func (ms *morphSet) write(b *bufferBuilder, m *gltfMesh) {
	for _, d := range ms.deltas {
		flat := flattenVec3(d)
		lo, hi := boundsOf(flat, 3)
		// Sparse: only the vertices a target moves are stored.
		var idx []uint32
		var vals []float32
		for v, x := range d {
			if x != (mgl64.Vec3{}) {
				idx = append(idx, uint32(v))
				vals = append(vals, flat[3*v:3*v+3]...)
			}
		}
		var acc int
		if len(idx) > 0 && len(idx) < len(d)/2 {
			acc = b.sparseVec3(len(d), idx, vals, lo, hi)
		} else {
			acc = b.accessor(float32s(flat), targetArrayBuffer, compFloat, len(d), "VEC3", lo, hi)
		}
		m.Primitives[0].Targets = append(m.Primitives[0].Targets, map[string]int{attrPosition: acc})
	}
	m.Extras = &gltfMeshExtras{TargetNames: ms.names}
}

// keys are the weights of every target at each time of a clip, target
// after target per key, or nil when the clip does not animate them.
func (ms *morphSet) keys(clip string, times []float64) []float32 {
	if ms.weights(clip, times[0]) == nil {
		return nil
	}
	out := make([]float32, 0, len(times)*len(ms.names))
	for _, t := range times {
		for _, w := range ms.weights(clip, t) {
			out = append(out, float32(w))
		}
	}
	return out
}

// millipedeMorph gives the millipede one target per body segment that
// swells its ring, and a wave of swelling that runs down the body in the
// Crawl clip: 48 targets, about six of them weighted at any time.
func millipedeMorph(m *meshData) *morphSet {
	ms := &morphSet{}
	for i := range mpSegments {
		d := make([]mgl64.Vec3, m.vertexCount())
		for v := range d {
			for k, j := range m.joints[v] {
				if int(j) == i && m.weights[v][k] > 0 {
					d[v] = m.nrm[v].Mul(0.025 * float64(m.weights[v][k]))
				}
			}
		}
		ms.deltas = append(ms.deltas, d)
		ms.names = append(ms.names, "swell_"+twoDigits(i))
	}
	ms.weights = func(clip string, t float64) []float64 {
		if clip != "Crawl" {
			return nil
		}
		w := make([]float64, mpSegments)
		for i := range w {
			// Crests 12 segments apart, two passes a loop: the loop's ends
			// give the same weights.
			ph := 2 * math.Pi * (math.Mod(2*t/mpPeriod, 1) - float64(i)/12)
			w[i] = math.Max(0, math.Sin(ph))
		}
		return w
	}
	return ms
}

func twoDigits(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }

// edgeMorphCreature: a skinned, three-jointed trunk with three morph
// targets, the cast's morph character. "bulge" swells the middle, "squash"
// lowers and widens the top, "lean" bends the top towards +X as a shape
// (not a joint). Clips: "Breathe" (2 s, LINEAR) bends the middle joint
// ±20° while bulge, squash and lean come and go; "Pulse" (1 s, STEP) holds
// bulge at 0 then 1; "Swell" (1 s, CUBICSPLINE) eases bulge from 0 to 1
// and squash from 0 to 0.5 with zero tangents. mesh.weights is (0, 0.2,
// 0): the rest shape is a little squashed.
func edgeMorphCreature() ([]byte, error) {
	e := newEdgeDoc()
	const length, radius = 1.5, 0.25
	js := chainJoints("spine", 3, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, length/2)
	arm := e.node(gltfNode{Name: "Rig"})
	nodes := e.jointNodes(js, arm)
	mat := e.material(0.35, 0.7, 0.45)
	tube := makeTube(mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, length, radius, 24, 16)
	attr, idx := e.geometry(tube)
	e.skinAlong(attr, tube, 0, length/2, 0.2, []int{0, 1, 2})
	names := []string{"bulge", "squash", "lean"}
	deltas := make([][]float32, 3)
	for v := range tube.pos {
		u := tube.s[v] / length
		radial := tube.nrm[v]
		d := [3]mgl64.Vec3{
			radial.Mul(0.15 * math.Sin(math.Pi*u)),
			mgl64.Vec3{0, -0.3 * u * u, 0}.Add(radial.Mul(0.12 * u)),
			mgl64.Vec3{0.35 * u * u, 0, 0},
		}
		for k := range d {
			deltas[k] = append(deltas[k], float32(d[k].X()), float32(d[k].Y()), float32(d[k].Z()))
		}
	}
	var targets []map[string]int
	for _, d := range deltas {
		lo, hi := boundsOf(d, 3)
		targets = append(targets, map[string]int{attrPosition: e.b.accessor(float32s(d), targetArrayBuffer, compFloat, len(d)/3, "VEC3", lo, hi)})
	}
	mesh := e.mesh("Trunk", mat, gltfPrimitive{Attributes: attr, Indices: intPtr(idx), Targets: targets})
	e.doc.Meshes[mesh].Weights = []float64{0, 0.2, 0}
	e.doc.Meshes[mesh].Extras = &gltfMeshExtras{TargetNames: names}
	ibm := e.ibms(restIBMs(js))
	sk := e.skin("TrunkSkin", intPtr(ibm), intPtr(nodes[0]), nodes)
	body := e.node(gltfNode{Name: "Trunk", Mesh: intPtr(mesh), Skin: intPtr(sk)})
	e.scene(arm, body)
	e.animation("Breathe",
		edgeChannel{node: nodes[1], path: "rotation", interp: "LINEAR", times: []float64{0, 0.5, 1, 1.5, 2},
			values: rotationKeys(mgl64.Vec3{0, 0, 1}, 0, 20, 0, -20, 0)},
		edgeChannel{node: body, path: "weights", interp: "LINEAR", times: []float64{0, 0.5, 1, 1.5, 2},
			values: []float64{0, 0, 0, 1, 0, 0.5, 0, 0.8, 1, 1, 0, 0.5, 0, 0, 0}})
	e.animation("Pulse",
		edgeChannel{node: body, path: "weights", interp: "STEP", times: []float64{0, 0.5, 1},
			values: []float64{0, 0, 0, 1, 0, 0, 1, 0, 0}})
	e.animation("Swell",
		edgeChannel{node: body, path: "weights", interp: "CUBICSPLINE", times: []float64{0, 1},
			// per key: in-tangents, values, out-tangents, three each
			values: []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 0}})
	return e.encode()
}
