package character

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/gltfload"
)

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
	m, err := gltfload.Decode(assettest.TwoJointGLTF(t), nil, "two-joint.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, nil, nil, -1, 0)
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
	m, err := gltfload.Decode(assettest.TwoJointGLTF(t), nil, "two-joint.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := New(m, nil, nil, -1, 0)
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
