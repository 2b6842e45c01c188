package gltfload

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestInstancingDrawsEveryInstance: EXT_mesh_gpu_instancing's instances
// become children of their node, after the file's nodes, each drawing the
// mesh at node × T × R × S; an instance scaled to zero draws nothing.
// The expected corners are worked by hand: vertex (1, 0, 0) of instance
// 1 is scaled to (2, 0, 0), turned 90° about z to (0, 2, 0), moved by
// (2, 0, 0) and by the node's (0, 0, 5): (2, 2, 5).
func TestInstancingDrawsEveryInstance(t *testing.T) {
	b := &docBuilder{}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	s := float32(math.Sqrt(0.5))
	tr := b.floatAcc(t, "VEC3", []float32{1, 0, 0, 2, 0, 0, 3, 0, 0, 9, 9, 9})
	rot := b.floatAcc(t, "VEC4", []float32{0, 0, 0, 1, 0, 0, s, s, 0, 0, 0, 1, 0, 0, 0, 1})
	sc := b.floatAcc(t, "VEC3", []float32{1, 1, 1, 2, 2, 2, 1, 1, 1, 0, 0, 0})
	js := b.json(fmt.Sprintf(`"extensionsUsed": ["EXT_mesh_gpu_instancing"], "scene": 0, "scenes": [{"nodes": [0, 1]}],
	  "nodes": [{"name": "row", "mesh": 0, "translation": [0, 0, 5],
	    "extensions": {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": %d, "ROTATION": %d, "SCALE": %d}}}},
	    {"name": "other"}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": %d}}]}]`, tr, rot, sc, pos))
	m, err := Decode(js, nil, "inst.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.NodeNames) != 5 || m.NodeNames[1] != "other" || m.NodeNames[2] != "row#0" || m.NodeNames[4] != "row#2" {
		t.Fatalf("nodes %q, want the file's two, then row#0 to row#2", m.NodeNames)
	}
	want := map[int]mgl32.Vec3{2: {2, 0, 5}, 3: {2, 2, 5}, 4: {4, 0, 5}}
	if len(m.Instances) != len(want) {
		t.Fatalf("%d drawn instances %+v, want 3 (none on the instanced node itself)", len(m.Instances), m.Instances)
	}
	for _, in := range m.Instances {
		w, ok := want[in.Node]
		if !ok || in.Mesh != 0 || in.Skin != -1 {
			t.Fatalf("instance %+v, want mesh 0 rigid on nodes 2 to 4", in)
		}
		got := m.Skeleton.RestModel(m.JointOfNode[in.Node]).Mul4x1(mgl32.Vec4{1, 0, 0, 1}).Vec3()
		if !got.ApproxEqualThreshold(w, 1e-5) {
			t.Fatalf("nodes[%d] puts vertex (1, 0, 0) at %v, want %v", in.Node, got, w)
		}
		if p := m.Skeleton.Parents[m.JointOfNode[in.Node]]; p != m.JointOfNode[0] {
			t.Fatalf("nodes[%d]'s parent joint is %d, want node 0's %d", in.Node, p, m.JointOfNode[0])
		}
	}
	lines := issueLines(m)
	if len(lines) != 1 || lines[0] != "VIEWER_NOTE nodes[0].extensions.EXT_mesh_gpu_instancing: 4 instances drawn as nodes[2] to nodes[4], children of the node" {
		t.Fatalf("report %q, want one note naming the added nodes", lines)
	}
}
