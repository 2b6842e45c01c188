package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/skinview/skinview/internal/gltfload"
)

// twoJointBin is the two-joint file's buffer (264 bytes: positions,
// joints, weights, inverse binds, key times, rotation keys), then extra.
func twoJointBin(t *testing.T, extra ...any) *bytes.Buffer {
	t.Helper()
	var bin bytes.Buffer
	w := func(v ...any) {
		for _, x := range v {
			if err := binary.Write(&bin, binary.LittleEndian, x); err != nil {
				t.Fatal(err)
			}
		}
	}
	w([]float32{0, 1, 0, 0, 2, 0, 0, 3, 0})        // positions: 0..36
	w([]uint8{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}) // joints: 36..48
	w([]float32{1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0})
	// weights: 48..96; inverse binds (column-major T(0,-1,0), T(0,-2,0)): 96..224
	w([]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1})
	w([]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1})
	w([]float32{0, 1}) // times: 224..232
	s := float32(math.Sqrt2 / 2)
	w([]float32{0, 0, 0, 1, 0, 0, s, s}) // rotations: 232..264
	w(extra...)
	return &bin
}

// twoJointViews and twoJointAccessors describe twoJointBin's data.
const (
	twoJointViews = `    {"buffer": 0, "byteOffset": 0, "byteLength": 36},
    {"buffer": 0, "byteOffset": 36, "byteLength": 12},
    {"buffer": 0, "byteOffset": 48, "byteLength": 48},
    {"buffer": 0, "byteOffset": 96, "byteLength": 128},
    {"buffer": 0, "byteOffset": 224, "byteLength": 8},
    {"buffer": 0, "byteOffset": 232, "byteLength": 32}`
	twoJointAccessors = `    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 1, 0], "max": [0, 3, 0]},
    {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
    {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
    {"bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4"},
    {"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
    {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC4"}`
)

// twoJointGLTF is a hand-built file: joint "root" at (0,1,0) with child
// "tip" one unit above it; "tip" turns 90° about +Z over one second. The
// skinned mesh node carries a translation of (5,0,0), which glTF §3.7.3 says
// skinning ignores. Three vertices: (0,1,0) on root, (0,2,0) on tip, and
// (0,3,0) half on each.
func twoJointGLTF(t *testing.T) []byte {
	t.Helper()
	bin := twoJointBin(t)
	doc := fmt.Sprintf(`{
  "asset": {"version": "2.0"},
  "scene": 0, "scenes": [{"nodes": [0, 2]}],
  "nodes": [
    {"name": "root", "translation": [0, 1, 0], "children": [1]},
    {"name": "tip", "translation": [0, 1, 0]},
    {"name": "body", "mesh": 0, "skin": 0, "translation": [5, 0, 0]}
  ],
  "skins": [{"joints": [0, 1], "inverseBindMatrices": 3}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
  "animations": [{"name": "bend", "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}],
                  "samplers": [{"input": 4, "output": 5}]}],
  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [
%s
  ],
  "accessors": [
%s
  ]
}`, bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes()), twoJointViews, twoJointAccessors)
	return []byte(doc)
}

type poseDump struct {
	Clip  *string `json:"clip"`
	Time  float64 `json:"time"`
	Nodes []struct {
		Index int       `json:"index"`
		Name  string    `json:"name"`
		World []float64 `json:"world"`
	} `json:"nodes"`
	Primitives []struct {
		Mesh      int       `json:"mesh"`
		Primitive int       `json:"primitive"`
		Node      int       `json:"node"`
		Positions []float64 `json:"positions"`
	} `json:"primitives"`
}

func TestDumpPoseTwoJoints(t *testing.T) {
	m, err := gltfload.Decode(twoJointGLTF(t), nil, "two-joint.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCharacter(m, nil, nil, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := math.Sqrt2 / 2
	cases := []struct {
		name      string
		time      float32
		tipWorld  []float64
		positions []float64
	}{
		{
			name:      "rest",
			time:      0,
			tipWorld:  []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1},
			positions: []float64{0, 1, 0, 0, 2, 0, 0, 3, 0},
		},
		{
			// tip = T(0,1,0)·T(0,1,0)·Rz(90°); vertex 2 on tip: (0,1,0) about
			// the joint turns to (-1,0,0), so (-1,2,0); half of (0,3,0): (-0.5,2.5,0).
			name:      "bent 90°",
			time:      1,
			tipWorld:  []float64{0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1},
			positions: []float64{0, 1, 0, 0, 2, 0, -0.5, 2.5, 0},
		},
		{
			// Halfway the slerp gives 45°: vertex 2 on tip at (-r, 2+r, 0).
			name:      "bent 45°",
			time:      0.5,
			tipWorld:  []float64{r, r, 0, 0, -r, r, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1},
			positions: []float64{0, 1, 0, 0, 2, 0, -r / 2, (2 + r + 3) / 2, 0},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := c.DumpPose(&out, tc.time, false); err != nil {
				t.Fatal(err)
			}
			var d poseDump
			if err := json.Unmarshal(out.Bytes(), &d); err != nil {
				t.Fatalf("dump is not JSON: %v\n%s", err, out.String())
			}
			if d.Clip == nil || *d.Clip != "bend" || d.Time != float64(tc.time) {
				t.Fatalf("clip/time = %v/%v, want bend/%v", d.Clip, d.Time, tc.time)
			}
			if len(d.Nodes) != 2 || d.Nodes[0].Index != 0 || d.Nodes[1].Index != 1 || d.Nodes[1].Name != "tip" {
				t.Fatalf("nodes = %+v, want the two joints 0 root and 1 tip", d.Nodes)
			}
			wantRoot := []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1}
			approxSlice(t, "root world", d.Nodes[0].World, wantRoot)
			approxSlice(t, "tip world", d.Nodes[1].World, tc.tipWorld)
			if len(d.Primitives) != 1 || d.Primitives[0].Node != 2 || d.Primitives[0].Mesh != 0 || d.Primitives[0].Primitive != 0 {
				t.Fatalf("primitives = %+v, want mesh 0 primitive 0 on node 2", d.Primitives)
			}
			approxSlice(t, "positions", d.Primitives[0].Positions, tc.positions)
		})
	}
}

func approxSlice(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-5 {
			t.Fatalf("%s[%d] = %v, want %v\ngot  %v\nwant %v", what, i, got[i], want[i], got, want)
		}
	}
}

func TestDumpPoseAllNodes(t *testing.T) {
	m, err := gltfload.Decode(twoJointGLTF(t), nil, "two-joint.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewCharacter(m, nil, nil, -1, 0)
	var out bytes.Buffer
	if err := c.DumpPose(&out, 0, true); err != nil {
		t.Fatal(err)
	}
	var d poseDump
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Nodes) != 3 || d.Nodes[2].Index != 2 {
		t.Fatalf("-all-nodes listed %+v, want nodes 0, 1, 2", d.Nodes)
	}
	// The mesh node's own world matrix is its translation (5,0,0).
	approxSlice(t, "body world", d.Nodes[2].World, []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1})
}
