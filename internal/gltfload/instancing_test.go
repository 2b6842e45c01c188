package gltfload

import (
	"fmt"
	"math"
	"slices"
	"strings"
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

// instancingDoc is one node "row" drawing mesh 0 (a triangle, or with a
// morph target) at n instances moved along x, the instance translations
// in the file's first accessor (index 0), the positions after it; nodes
// more rows like it, each with its own translations.
func instancingDoc(t *testing.T, n, rows int, morph bool) []byte {
	t.Helper()
	b := &docBuilder{}
	var trs []int
	for range rows {
		tr := make([]float32, 3*n)
		for k := range n {
			tr[3*k] = float32(k)
		}
		trs = append(trs, b.floatAcc(t, "VEC3", tr))
	}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	targets := ""
	if morph {
		targets = fmt.Sprintf(`, "targets": [{"POSITION": %d}]`, b.floatAcc(t, "VEC3", []float32{0, 0, 1, 0, 0, 1, 0, 0, 1}))
	}
	var nodes, roots []string
	for r, tr := range trs {
		nodes = append(nodes, fmt.Sprintf(`{"name": "row%d", "mesh": 0, "extensions": {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": %d}}}}`, r, tr))
		roots = append(roots, fmt.Sprint(r))
	}
	return b.json(fmt.Sprintf(`"extensionsUsed": ["EXT_mesh_gpu_instancing"], "scene": 0, "scenes": [{"nodes": [%s]}],
	  "nodes": [%s], "meshes": [{"primitives": [{"attributes": {"POSITION": %d}%s}]}]`,
		strings.Join(roots, ", "), strings.Join(nodes, ", "), pos, targets))
}

// TestInstancingAtItsEdges: instance translations in accessors[0] are
// drawn; a mesh 0 with morph targets is drawn once, at the node, and
// named; rows of instances are drawn up to 10,000 added nodes in all, the
// row that would pass it named and drawn once: two rows of 4,999 make
// 9,998 (both drawn), three rows 14,997 (the third not).
func TestInstancingAtItsEdges(t *testing.T) {
	m, err := Decode(instancingDoc(t, 3, 1, false), nil, "inst.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Instances) != 3 {
		t.Errorf("translations in accessors[0]: %d instances drawn, want 3", len(m.Instances))
	}
	// One past the last accessor: named, drawn once.
	past := strings.Replace(string(instancingDoc(t, 3, 1, false)), `"TRANSLATION": 0`, `"TRANSLATION": 2`, 1)
	m, err = Decode([]byte(past), nil, "past.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if lines := issueLines(m); len(m.Instances) != 1 || len(lines) != 1 || lines[0] != "VIEWER_NOT_DRAWN nodes[0].extensions.EXT_mesh_gpu_instancing: nodes[0].extensions.EXT_mesh_gpu_instancing.attributes.TRANSLATION: accessors[2] does not exist (2 accessors); the mesh is drawn once, at the node" {
		t.Errorf("translations past the last accessor: %d instances drawn, report %q; want the node's one and a line", len(m.Instances), lines)
	}
	m, err = Decode(instancingDoc(t, 3, 1, true), nil, "morph.gltf")
	if err != nil {
		t.Fatal(err)
	}
	lines := issueLines(m)
	if len(m.Instances) != 1 || len(lines) != 1 || lines[0] != "VIEWER_NOT_DRAWN nodes[0].extensions.EXT_mesh_gpu_instancing: 3 instances of a mesh with morph targets are not drawn; the mesh is drawn once, at the node" {
		t.Errorf("morphed mesh 0: %d instances drawn, report %q; want the node's one and a line naming the instances", len(m.Instances), lines)
	}
	m, err = Decode(instancingDoc(t, 4999, 2, false), nil, "two.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Instances) != 9998 {
		t.Errorf("two rows of 4,999: %d instances drawn, want 9,998", len(m.Instances))
	}
	m, err = Decode(instancingDoc(t, 4999, 3, false), nil, "three.gltf")
	if err != nil {
		t.Fatal(err)
	}
	lines = issueLines(m)
	if len(m.Instances) != 9999 || !slices.Contains(lines, "VIEWER_NOT_DRAWN nodes[2].extensions.EXT_mesh_gpu_instancing: 14997 instances are more than the 10000 drawn in all; the mesh is drawn once, at the node") {
		t.Errorf("three rows of 4,999: %d instances drawn, report %q; want 9,998 and the third row's node, and a line naming it", len(m.Instances), lines)
	}
}
