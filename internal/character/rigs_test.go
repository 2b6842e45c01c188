package character

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/gltfload"
)

// Two small humanoid rigs with the same joint names and different joint
// axes, written as glTF and read back through the loader, for the
// retargeting tests.
//
// Rig A is Y-up in metres with every rest rotation the identity. Rig B
// stands 1.2 times taller; it is authored Z-up in centimetres under an
// "Armature" node turned −90° about X and scaled 0.01 (as three.js'
// Soldier and FBX exports are), and each of its joints rests turned by
// its own 90° (or 180°) rotation about an axis of its own, so that no two
// neighbours share axes. B has a forearm twist joint that A lacks; A has a
// toe that B lacks.

// rigJoint is a joint of the rigs: its name, its parent's index in
// rigJoints (−1 for the hips), its offset from the parent in rig A (m) and
// its world rest rotation in rig B.
type rigJoint struct {
	name   string
	parent int
	offset mgl32.Vec3
	restB  mgl32.Quat
	onlyA  bool
	onlyB  bool
}

func rot(deg float64, x, y, z float32) mgl32.Quat {
	return mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{x, y, z})
}

var rigJoints = []rigJoint{
	{name: "hips", parent: -1, offset: mgl32.Vec3{0, 1, 0}, restB: rot(90, 0, 0, 1)},
	{name: "spine", parent: 0, offset: mgl32.Vec3{0, 0.15, 0}, restB: rot(90, 1, 0, 0)},
	{name: "chest", parent: 1, offset: mgl32.Vec3{0, 0.2, 0}, restB: rot(90, 0, 1, 0)},
	{name: "head", parent: 2, offset: mgl32.Vec3{0, 0.3, 0}, restB: rot(-90, 1, 0, 0)},
	{name: "upperarm.L", parent: 2, offset: mgl32.Vec3{0.2, 0.15, 0}, restB: rot(-90, 0, 0, 1)},
	{name: "forearm.L", parent: 4, offset: mgl32.Vec3{0.3, 0, 0}, restB: rot(90, 0, 1, 0)},
	{name: "forearm_twist.L", parent: 5, offset: mgl32.Vec3{0.12, 0, 0}, restB: rot(-90, 1, 0, 0), onlyB: true},
	{name: "hand.L", parent: 6, offset: mgl32.Vec3{0.13, 0, 0}, restB: rot(90, 1, 0, 0)},
	{name: "thigh.L", parent: 0, offset: mgl32.Vec3{0.1, -0.05, 0}, restB: rot(180, 0, 1, 0)},
	{name: "shin.L", parent: 8, offset: mgl32.Vec3{0, -0.45, 0}, restB: rot(90, 1, 0, 0)},
	{name: "foot.L", parent: 9, offset: mgl32.Vec3{0, -0.45, 0}, restB: rot(90, 0, 0, 1)},
	{name: "toe.L", parent: 10, offset: mgl32.Vec3{0, -0.05, 0.12}, onlyA: true},
}

// rigHipHeight is each rig's hips height at rest; their ratio, B's over
// A's, is 1.2.
const (
	rigHipHeightA = 1.0
	rigHipHeightB = 1.2
)

// rigClipKey is one key of the source clip on rig A: each joint's local
// rotation (A's rests are the identity, so a product of these down the
// chain is the world rotation) and the hips' translation.
type rigClipKey struct {
	time float32
	rot  map[string]mgl32.Quat
	hips mgl32.Vec3
}

// rigWalk is the clip on rig A. At 1 s the hips have turned 90° about Y,
// the upper arm 90° about Z (straight up before the hips' turn) and the
// thigh −90° about X, every other joint at rest but the shin, which the
// thigh's change covers.
var rigWalk = []rigClipKey{
	{0, map[string]mgl32.Quat{"shin.L": rot(10, 1, 0, 0), "toe.L": rot(0, 1, 0, 0)}, mgl32.Vec3{0, 1, 0}},
	{1, map[string]mgl32.Quat{"hips": rot(90, 0, 1, 0), "upperarm.L": rot(90, 0, 0, 1), "thigh.L": rot(-90, 1, 0, 0), "shin.L": rot(60, 1, 0, 0), "toe.L": rot(30, 1, 0, 0)}, mgl32.Vec3{0.3, 0.9, 0.5}},
	{2, map[string]mgl32.Quat{"hips": rot(-30, 0, 1, 0), "spine": rot(25, 1, 0, 0), "chest": rot(-15, 0, 0, 1), "head": rot(40, 0, 1, 0), "upperarm.L": rot(45, 0, 0, 1), "forearm.L": rot(-70, 0, 1, 0), "hand.L": rot(20, 1, 0, 0), "thigh.L": rot(30, 1, 0, 0), "foot.L": rot(-25, 1, 0, 0), "toe.L": rot(-30, 1, 0, 0)}, mgl32.Vec3{0.6, 1.05, 1.0}},
}

// rigGLTF writes rig A (b false) or B as a glTF file, A with rigWalk.
func rigGLTF(t testing.TB, b bool) []byte {
	t.Helper()
	type node struct {
		Name        string      `json:"name"`
		Children    []int       `json:"children,omitempty"`
		Translation *[3]float32 `json:"translation,omitempty"`
		Rotation    *[4]float32 `json:"rotation,omitempty"`
		Scale       *[3]float32 `json:"scale,omitempty"`
	}
	var nodes []node
	index := map[int]int{} // rigJoints index → node index
	var joints []int
	// World rest position (A) and, in B, world rotation and scale of
	// each rig joint, to express B's locals.
	posA := make([]mgl32.Vec3, len(rigJoints))
	for i, j := range rigJoints {
		posA[i] = j.offset
		if j.parent >= 0 {
			posA[i] = posA[j.parent].Add(j.offset)
		}
	}
	armature := mgl32.QuatRotate(-math.Pi/2, mgl32.Vec3{1, 0, 0})
	if b {
		nodes = append(nodes, node{Name: "Armature", Rotation: quat4(armature), Scale: &[3]float32{0.01, 0.01, 0.01}})
	}
	for i, j := range rigJoints {
		if (b && j.onlyA) || (!b && j.onlyB) {
			continue
		}
		index[i] = len(nodes)
		n := node{Name: j.name}
		if !b {
			off := j.offset
			if j.parent >= 0 && rigJoints[j.parent].onlyB {
				off = off.Add(rigJoints[j.parent].offset)
			}
			n.Translation = &[3]float32{off[0], off[1], off[2]}
		} else {
			// Local = parent world⁻¹ · world, with the armature's 0.01
			// scale under every joint.
			pr, pp := armature, mgl32.Vec3{}
			if j.parent >= 0 {
				pr, pp = rigJoints[j.parent].restB, posA[j.parent].Mul(rigHipHeightB/rigHipHeightA)
			}
			off := pr.Inverse().Rotate(posA[i].Mul(rigHipHeightB / rigHipHeightA).Sub(pp)).Mul(100)
			n.Translation = &[3]float32{off[0], off[1], off[2]}
			n.Rotation = quat4(pr.Inverse().Mul(j.restB))
		}
		p := j.parent
		if !b && p >= 0 && rigJoints[p].onlyB {
			p = rigJoints[p].parent
		}
		switch {
		case p >= 0:
			nodes[index[p]].Children = append(nodes[index[p]].Children, len(nodes))
		case b:
			nodes[0].Children = append(nodes[0].Children, len(nodes))
		}
		joints = append(joints, len(nodes))
		nodes = append(nodes, n)
	}
	doc := map[string]any{
		"asset":  map[string]any{"version": "2.0"},
		"scene":  0,
		"scenes": []any{map[string]any{"nodes": []int{0}}},
		"nodes":  nodes,
		"skins":  []any{map[string]any{"joints": joints}},
	}
	if !b {
		var buf bytes.Buffer
		var views, accessors, samplers, channels []any
		add := func(vals []float32, typ string, minMax bool) int {
			acc := map[string]any{"bufferView": len(views), "componentType": 5126, "type": typ}
			n := map[string]int{"SCALAR": 1, "VEC3": 3, "VEC4": 4}[typ]
			acc["count"] = len(vals) / n
			if minMax {
				acc["min"], acc["max"] = []float32{vals[0]}, []float32{vals[len(vals)-1]}
			}
			views = append(views, map[string]any{"buffer": 0, "byteOffset": buf.Len(), "byteLength": 4 * len(vals)})
			binary.Write(&buf, binary.LittleEndian, vals)
			accessors = append(accessors, acc)
			return len(accessors) - 1
		}
		var times []float32
		for _, k := range rigWalk {
			times = append(times, k.time)
		}
		in := add(times, "SCALAR", true)
		for i, j := range rigJoints {
			if j.onlyB {
				continue
			}
			var vals []float32
			for _, k := range rigWalk {
				q, ok := k.rot[j.name]
				if !ok {
					q = mgl32.QuatIdent()
				}
				vals = append(vals, q.V[0], q.V[1], q.V[2], q.W)
			}
			samplers = append(samplers, map[string]any{"input": in, "output": add(vals, "VEC4", false)})
			channels = append(channels, map[string]any{"sampler": len(samplers) - 1, "target": map[string]any{"node": index[i], "path": "rotation"}})
		}
		var hips []float32
		for _, k := range rigWalk {
			hips = append(hips, k.hips[:]...)
		}
		samplers = append(samplers, map[string]any{"input": in, "output": add(hips, "VEC3", false)})
		channels = append(channels, map[string]any{"sampler": len(samplers) - 1, "target": map[string]any{"node": index[0], "path": "translation"}})
		doc["buffers"] = []any{map[string]any{"byteLength": buf.Len(), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}}
		doc["bufferViews"] = views
		doc["accessors"] = accessors
		doc["animations"] = []any{map[string]any{"name": "walk", "samplers": samplers, "channels": channels}}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func quat4(q mgl32.Quat) *[4]float32 { return &[4]float32{q.V[0], q.V[1], q.V[2], q.W} }

// rig decodes rig A or B afresh, named a.gltf and b.gltf.
func rig(t testing.TB, b bool) *gltfload.Model {
	t.Helper()
	name := "a.gltf"
	if b {
		name = "b.gltf"
	}
	m, err := gltfload.Decode(rigGLTF(t, b), nil, name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
