package character

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/gltfload"
)

// morphGLTF is assettest.TwoJointGLTF with morph targets on its mesh: target 0
// ("stretch") moves vertex 1 by (1,0,0), target 1 ("lift", a sparse
// accessor) moves every vertex by (0,0,1); mesh.weights (0.5, 0). The
// skinned node 2 animates its weights linearly from (0,0) at 0 s to
// (1,0.5) at 1 s beside the tip's bend; node 3 ("statue") draws the same
// mesh rigidly at (5,0,0) with node.weights (1, 0).
func morphGLTF(t *testing.T) []byte {
	t.Helper()
	bin := assettest.TwoJointBin(t,
		[]float32{0, 0, 0, 1, 0, 0, 0, 0, 0}, // target 0: 264..300
		[]uint8{0, 1, 2, 0},                  // sparse indices: 300..304
		[]float32{0, 0, 1, 0, 0, 1, 0, 0, 1}, // sparse values: 304..340
		[]float32{0, 0, 1, 0.5})              // weight keys: 340..356
	doc := fmt.Sprintf(`{
  "asset": {"version": "2.0"},
  "scene": 0, "scenes": [{"nodes": [0, 2, 3]}],
  "nodes": [
    {"name": "root", "translation": [0, 1, 0], "children": [1]},
    {"name": "tip", "translation": [0, 1, 0]},
    {"name": "body", "mesh": 0, "skin": 0, "translation": [5, 0, 0]},
    {"name": "statue", "mesh": 0, "translation": [5, 0, 0], "weights": [1, 0]}
  ],
  "skins": [{"joints": [0, 1], "inverseBindMatrices": 3}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2},
                              "targets": [{"POSITION": 6}, {"POSITION": 7}]}],
              "weights": [0.5, 0], "extras": {"targetNames": ["stretch", "lift"]}}],
  "animations": [{"name": "bend", "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                                               {"sampler": 1, "target": {"node": 2, "path": "weights"}}],
                  "samplers": [{"input": 4, "output": 5}, {"input": 4, "output": 8}]}],
  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [
%s,
    {"buffer": 0, "byteOffset": 264, "byteLength": 36},
    {"buffer": 0, "byteOffset": 300, "byteLength": 4},
    {"buffer": 0, "byteOffset": 304, "byteLength": 36},
    {"buffer": 0, "byteOffset": 340, "byteLength": 16}
  ],
  "accessors": [
%s,
    {"bufferView": 6, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 0, 0]},
    {"componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 1], "max": [0, 0, 1],
     "sparse": {"count": 3, "indices": {"bufferView": 7, "componentType": 5121}, "values": {"bufferView": 8}}},
    {"bufferView": 9, "componentType": 5126, "count": 4, "type": "SCALAR"}
  ]
}`, bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes()), assettest.TwoJointViews, assettest.TwoJointAccessors)
	return []byte(doc)
}

type morphDump struct {
	Nodes []struct {
		Index   int       `json:"index"`
		Weights []float64 `json:"weights"`
	} `json:"nodes"`
	Primitives []struct {
		Node      int       `json:"node"`
		Positions []float64 `json:"positions"`
	} `json:"primitives"`
}

// TestDumpPoseMorphTargets checks the loader's reading of the targets and
// the pose dump's weights and morphed-then-skinned positions against the
// values worked out by hand in the cases.
func TestDumpPoseMorphTargets(t *testing.T) {
	m, err := gltfload.Decode(morphGLTF(t), nil, "morph.gltf")
	if err != nil {
		t.Fatal(err)
	}
	// The statue instances the skinned mesh without a skin: glTF-Validator
	// warns of that (NODE_SKINNED_MESH_WITHOUT_SKIN), and of nothing else.
	if is := m.Report.Issues; len(is) != 1 || is[0].Code != "NODE_SKINNED_MESH_WITHOUT_SKIN" || is[0].Pointer != "/nodes/3" {
		t.Errorf("issues: %v; want the one warning of nodes[3]", is)
	}
	if mesh := m.Meshes[0]; mesh.Targets != 2 || mesh.TargetNames[0] != "stretch" || mesh.TargetNames[1] != "lift" {
		t.Fatalf("mesh targets %d named %q", mesh.Targets, mesh.TargetNames)
	}
	if got := m.Skeleton.MorphRest; len(got) != 4 || got[0] != 0.5 || got[1] != 0 || got[2] != 1 || got[3] != 0 {
		t.Fatalf("rest weights %v, want mesh.weights (0.5, 0) for node 2, node.weights (1, 0) for node 3", got)
	}
	c, err := New(m, nil, nil, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := math.Sqrt2 / 4 // half of cos 45°
	cases := []struct {
		time         float32
		weights      []float64
		body, statue []float64
	}{
		// Weights (0, 0): the base shape, unbent.
		{0, []float64{0, 0}, []float64{0, 1, 0, 0, 2, 0, 0, 3, 0}, []float64{5, 1, 0, 6, 2, 0, 5, 3, 0}},
		// Weights (0.5, 0.25): vertex 1 at (0.5, 2, 0.25) before the 45°
		// bend about (0, 2, 0) turns its (0.5, 0, 0.25) offset to
		// (r, r, 0.25); vertex 2 at (0, 3, 0.25) is half unbent, half
		// turned to (−2r, 2 + 2r, 0.25).
		{0.5, []float64{0.5, 0.25}, []float64{0, 1, 0.25, r, 2 + r, 0.25, -r, 3 - 0.5 + r, 0.25}, []float64{5, 1, 0, 6, 2, 0, 5, 3, 0}},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		if err := c.DumpPose(&out, tc.time, false); err != nil {
			t.Fatal(err)
		}
		var d morphDump
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		if len(d.Nodes) != 4 || d.Nodes[2].Index != 2 || d.Nodes[3].Index != 3 || d.Nodes[0].Weights != nil {
			t.Fatalf("t=%v: nodes %+v; want the joints 0, 1 and the morph nodes 2, 3, weights on the latter only", tc.time, d.Nodes)
		}
		approxSlice(t, fmt.Sprintf("t=%v body weights", tc.time), d.Nodes[2].Weights, tc.weights)
		approxSlice(t, fmt.Sprintf("t=%v statue weights", tc.time), d.Nodes[3].Weights, []float64{1, 0})
		if len(d.Primitives) != 2 || d.Primitives[0].Node != 2 || d.Primitives[1].Node != 3 {
			t.Fatalf("t=%v: primitives %+v, want the skinned body and the rigid statue", tc.time, d.Primitives)
		}
		approxSlice(t, fmt.Sprintf("t=%v body", tc.time), d.Primitives[0].Positions, tc.body)
		approxSlice(t, fmt.Sprintf("t=%v statue", tc.time), d.Primitives[1].Positions, tc.statue)
	}
}

// TestMorphBadInput: each broken morph part is one line naming where it
// is; a file that loads nonetheless poses without crashing.
func TestMorphBadInput(t *testing.T) {
	good := string(morphGLTF(t))
	cases := []struct {
		name, from, to string
		refused        bool
		want           string
	}{
		{"more mesh weights than targets", `"weights": [0.5, 0]`, `"weights": [0.5, 0, 1]`, false,
			"meshes[0].weights: 3 weights for 2 morph targets"},
		{"node weights of the wrong length", `"weights": [1, 0]}`, `"weights": [1]}`, false,
			"nodes[3].weights: 1 weights for the 2 morph targets of meshes[0]"},
		{"target count differs from the base", `{"bufferView": 6, "componentType": 5126, "count": 3`, `{"bufferView": 6, "componentType": 5126, "count": 2`, true,
			"meshes[0].primitives[0].targets[0].POSITION: accessors[6] has 2 elements, POSITION has 3"},
		{"weights channel with the wrong key count", `{"input": 4, "output": 8}`, `{"input": 4, "output": 4}`, true,
			"animations[0].samplers[1].output: accessors[4] has 2 values for 2 key times; want 4"},
	}
	for _, tc := range cases {
		doc := strings.Replace(good, tc.from, tc.to, 1)
		if doc == good {
			t.Fatalf("%s: the edit did not apply", tc.name)
		}
		m, err := gltfload.Decode([]byte(doc), nil, "morph.gltf")
		if tc.refused {
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Count(err.Error(), "\n") != 0 {
				t.Errorf("%s: %v, want one line with %q", tc.name, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: refused: %v", tc.name, err)
			continue
		}
		if lines := strings.Join(m.Report.Lines(0, 10), "\n"); !strings.Contains(lines, tc.want) {
			t.Errorf("%s: report %q lacks %q", tc.name, lines, tc.want)
		}
		c, err := New(m, nil, nil, -1, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := c.DumpPose(&out, 0.5, false); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
