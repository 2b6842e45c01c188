package gltfload

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

const eps = 1e-5

func approxEqual(a, b, epsilon float32) bool {
	return float32(math.Abs(float64(a-b))) <= epsilon
}

// worlds computes every node's global matrix in the rest pose.
func worlds(t *testing.T, m *Model) []mgl32.Mat4 {
	t.Helper()
	n := m.Skeleton.NumJoints()
	pose := anim.NewSoAPose(n)
	pose.FromTransforms(m.Skeleton.Rest)
	job := anim.ModelPaletteJob{Skeleton: &m.Skeleton, Input: pose, Models: make([]float32, anim.PaletteFloats*n)}
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	job.Run()
	byNode := make([]mgl32.Mat4, n)
	for j, node := range m.NodeOfJoint {
		byNode[node] = anim.ModelMat4(job.Models, j)
	}
	return byNode
}

func wantMat(t *testing.T, what string, got, want mgl32.Mat4) {
	t.Helper()
	for i := range got {
		if !approxEqual(got[i], want[i], eps) {
			t.Fatalf("%s = %v, want %v", what, got, want)
		}
	}
}

// triangle is one skinned triangle; it returns the mesh JSON member.
func triangle(t *testing.T, b *docBuilder) string {
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	jv := b.view(t, 0, []uint8{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	j := b.acc(`"bufferView": ` + itoa(jv) + `, "componentType": 5121, "count": 3, "type": "VEC4"`)
	w := b.floatAcc(t, "VEC4", []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	return `"meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `, "JOINTS_0": ` + itoa(j) + `, "WEIGHTS_0": ` + itoa(w) + `}}]}]`
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestNodeMatrixAndTRSAgree(t *testing.T) {
	b := &docBuilder{}
	// Node 0: TRS; node 1: the same transform as a matrix (T(1,2,3)·Rz(90°)·S(2)).
	doc := b.json(`"nodes": [
	  {"translation": [1, 2, 3], "rotation": [0, 0, 0.7071068, 0.7071068], "scale": [2, 2, 2]},
	  {"matrix": [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1]}],
	  "scenes": [{"nodes": [0, 1]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	w := worlds(t, m)
	wantMat(t, "matrix node", w[1], w[0])
	wantMat(t, "TRS node", w[0], mgl32.Mat4{0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1})
}

func TestJointWorldIncludesNonJointNodes(t *testing.T) {
	b := &docBuilder{}
	mesh := triangle(t, b)
	// joint 0 (node 1) → helper node 2 (not a joint, translated) → joint 1 (node 3).
	doc := b.json(`"nodes": [
	  {"mesh": 0, "skin": 0},
	  {"children": [2], "translation": [0, 1, 0]},
	  {"children": [3], "translation": [5, 0, 0]},
	  {"translation": [0, 0, 2]}],
	  "skins": [{"joints": [1, 3]}],
	  "scenes": [{"nodes": [0, 1]}], ` + mesh)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	w := worlds(t, m)
	wantMat(t, "joint 1 world", w[3], mgl32.Translate3D(5, 1, 2))
	if got := m.Skins[0].InverseBind[1]; got != mgl32.Ident4() {
		t.Fatalf("missing inverseBindMatrices: got %v, want identity", got)
	}
	if m.NodeOfJoint[m.Skins[0].Joints[1]] != 3 {
		t.Fatalf("skin joint 1 maps to node %d, want 3", m.NodeOfJoint[m.Skins[0].Joints[1]])
	}
}

func TestGLBMatchesGLTF(t *testing.T) {
	b := &docBuilder{}
	mesh := triangle(t, b)
	rest := `"nodes": [{"mesh": 0, "skin": 0}, {"translation": [0, 1, 0]}, {}], "skins": [{"joints": [1, 2]}], "scenes": [{"nodes": [0, 1, 2]}], ` + mesh
	a, err := Decode(b.json(rest), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Decode(b.glb(t, rest), nil, "t.glb")
	if err != nil {
		t.Fatal(err)
	}
	pa, pg := a.Meshes[0].Primitives[0], g.Meshes[0].Primitives[0]
	for i := range pa.Positions {
		if pa.Positions[i] != pg.Positions[i] {
			t.Fatalf("positions differ: gltf %v, glb %v", pa.Positions, pg.Positions)
		}
	}
}

// pointsDoc is a document drawing count points (VEC3 floats, bounds min
// and max) from the external buffer at uri.
func pointsDoc(uri string, count int, min, max string) []byte {
	n := strconv.Itoa(12 * count)
	return []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": ` + n + `, "uri": "` + uri + `"}],
	  "bufferViews": [{"buffer": 0, "byteLength": ` + n + `}],
	  "accessors": [{"bufferView": 0, "componentType": 5126, "count": ` + strconv.Itoa(count) + `, "type": "VEC3", "min": [` + min + `], "max": [` + max + `]}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "mode": 0}]}],
	  "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}`)
}

func TestExternalBufferAndPathEscape(t *testing.T) {
	bin := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	doc := func(uri string) []byte { return pointsDoc(uri, 1, "0,0,0", "0,0,0") }
	fsys := fstest.MapFS{"models/a.gltf": {Data: doc("data/a.bin")}, "models/data/a.bin": {Data: bin}, "secret.bin": {Data: bin}}
	if _, err := LoadFS(fsys, "models/a.gltf"); err != nil {
		t.Fatalf("external buffer: %v", err)
	}
	fsys["models/b.gltf"] = &fstest.MapFile{Data: doc("../secret.bin")}
	_, err := LoadFS(fsys, "models/b.gltf")
	if err == nil || !strings.Contains(err.Error(), "buffers[0]") || !strings.Contains(err.Error(), "leaves the model's folder") {
		t.Fatalf("path escape: got %v, want buffers[0] refused for leaving the folder", err)
	}
}

// TestLoadReadsBesideTheFolder: a file read from disk may name a buffer
// in a sibling folder ("../shared/a.bin", the layout of models that share
// data), as glTF's relative URIs allow; its bytes are the ones read. An
// absolute path is still refused, and LoadFS still keeps to its folder
// (TestExternalBufferAndPathEscape).
func TestLoadReadsBesideTheFolder(t *testing.T) {
	dir := t.TempDir()
	// Three points whose x coordinates say which file was read: 1, 2, 3.
	bin := make([]byte, 36)
	for i, x := range []float32{1, 2, 3} {
		binary.LittleEndian.PutUint32(bin[12*i:], math.Float32bits(x))
	}
	doc := func(uri string) []byte { return pointsDoc(uri, 3, "1,0,0", "3,0,0") }
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"shared/a.bin", bin},
		{"models/up.gltf", doc("../shared/a.bin")},
		{"models/deep/up2.gltf", doc("..%2F..%2Fshared/a.bin")},
		{"models/abs.gltf", doc(filepath.ToSlash(filepath.Join(dir, "shared", "a.bin")))},
		{"models/gone.gltf", doc("../shared/none.bin")},
	} {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"models/up.gltf", "models/deep/up2.gltf"} {
		m, err := Load(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 1 {
			t.Errorf("%s: %d meshes, want one of one primitive", name, len(m.Meshes))
			continue
		}
		pos := m.Meshes[0].Primitives[0].Positions
		if len(pos) != 9 || pos[0] != 1 || pos[3] != 2 || pos[6] != 3 {
			t.Errorf("%s: positions %v, want x = 1, 2, 3 from ../shared/a.bin", name, pos)
		}
	}
	for name, want := range map[string]string{
		"models/abs.gltf":  "is an absolute path",
		"models/gone.gltf": `uri "../shared/none.bin"`,
	} {
		_, err := Load(filepath.Join(dir, filepath.FromSlash(name)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, want)
		}
	}
}

func TestInfluences(t *testing.T) {
	b := &docBuilder{}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	// Vertex 0: six influences over two sets; the four largest are kept.
	// Vertex 1: normalized UNSIGNED_BYTE weights 255 → 1.0.
	// Vertex 2: weights summing to 0.5, renormalized to 1.
	j0 := b.view(t, 0, []uint16{0, 1, 2, 3, 0, 0, 0, 0, 1, 0, 0, 0})
	j1 := b.view(t, 0, []uint16{4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	w0 := b.view(t, 0, []uint8{77, 51, 26, 26, 255, 0, 0, 0, 64, 64, 0, 0})
	w1 := b.view(t, 0, []uint8{51, 26, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	ja := b.acc(`"bufferView": ` + itoa(j0) + `, "componentType": 5123, "count": 3, "type": "VEC4"`)
	jb := b.acc(`"bufferView": ` + itoa(j1) + `, "componentType": 5123, "count": 3, "type": "VEC4"`)
	wa := b.acc(`"bufferView": ` + itoa(w0) + `, "componentType": 5121, "normalized": true, "count": 3, "type": "VEC4"`)
	wb := b.acc(`"bufferView": ` + itoa(w1) + `, "componentType": 5121, "normalized": true, "count": 3, "type": "VEC4"`)
	doc := b.json(`"nodes": [{"mesh": 0, "skin": 0}, {}, {}, {}, {}, {}, {}],
	  "skins": [{"joints": [1, 2, 3, 4, 5, 6]}], "scenes": [{"nodes": [0, 1, 2, 3, 4, 5, 6]}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `, "JOINTS_0": ` + itoa(ja) + `, "WEIGHTS_0": ` + itoa(wa) +
		`, "JOINTS_1": ` + itoa(jb) + `, "WEIGHTS_1": ` + itoa(wb) + `}}]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	p := m.Meshes[0].Primitives[0]
	// Vertex 0 raw weights /255: 77 51 26 26 | 51 26 → joints 0,1,4 then a
	// tie at 26 between 2, 3, 5: the first met (2) wins. Kept 77+51+51+26 = 205
	// of 257, so 52/257 is dropped.
	wantJ := []uint16{0, 1, 4, 2}
	wantW := []float32{77.0 / 205, 51.0 / 205, 51.0 / 205, 26.0 / 205}
	for k := 0; k < 4; k++ {
		if p.Joints[k] != wantJ[k] || !approxEqual(p.Weights[k], wantW[k], 1e-6) {
			t.Fatalf("vertex 0 top four = %v %v, want %v %v", p.Joints[:4], p.Weights[:4], wantJ, wantW)
		}
	}
	if !approxEqual(p.DroppedMax, 52.0/257, 1e-6) {
		t.Fatalf("dropped max = %v, want %v", p.DroppedMax, 52.0/257)
	}
	// Vertices 1 and 2 keep all they have: the mean over three vertices
	// is vertex 0's share, a third.
	if !approxEqual(p.DroppedMean, 52.0/257/3, 1e-6) {
		t.Fatalf("dropped mean = %v, want %v", p.DroppedMean, 52.0/257/3)
	}
	if p.Weights[4] != 1 || p.Joints[4] != 0 {
		t.Fatalf("vertex 1 = joint %d weight %v, want joint 0 weight 1", p.Joints[4], p.Weights[4])
	}
	if !approxEqual(p.Weights[8], 0.5, 1e-6) || !approxEqual(p.Weights[9], 0.5, 1e-6) {
		t.Fatalf("vertex 2 weights = %v, want renormalized 0.5 0.5", p.Weights[8:12])
	}
	if p.Sets != 2 || len(p.AllWeights) != 3*8 || !approxEqual(p.AllWeights[0], 77.0/255, 1e-6) {
		t.Fatalf("all influences: %d sets, %d weights, first %v", p.Sets, len(p.AllWeights), p.AllWeights[0])
	}
}

// Weights that sum to 1 drop nothing, whatever order they are summed in:
// float32 0.07+0.27+0.66 summed largest first comes out a rounding above
// the same sum in file order, which once printed as "mean -0.000000".
func TestNothingDroppedIsZero(t *testing.T) {
	b := &docBuilder{}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	jv := b.view(t, 0, []uint16{0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0})
	ja := b.acc(`"bufferView": ` + itoa(jv) + `, "componentType": 5123, "count": 3, "type": "VEC4"`)
	wa := b.floatAcc(t, "VEC4", []float32{0.07, 0.27, 0.66, 0, 0.07, 0.27, 0.66, 0, 0.07, 0.27, 0.66, 0})
	doc := b.json(`"nodes": [{"mesh": 0, "skin": 0}, {}, {}, {}], "skins": [{"joints": [1, 2, 3]}], "scenes": [{"nodes": [0, 1, 2, 3]}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `, "JOINTS_0": ` + itoa(ja) + `, "WEIGHTS_0": ` + itoa(wa) + `}}]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	p := m.Meshes[0].Primitives[0]
	if p.DroppedMax != 0 || p.DroppedMean != 0 || math.Signbit(float64(p.DroppedMean)) {
		t.Fatalf("dropped max %g mean %g, want 0 and 0", p.DroppedMax, p.DroppedMean)
	}
}

func TestSparseAndInterleavedAccessors(t *testing.T) {
	b := &docBuilder{}
	// Interleaved: position (3 floats) then a 4-byte pad, stride 16.
	inter := b.view(t, 16, []float32{0, 0, 0, 9, 1, 0, 0, 9, 0, 1, 0, 9})
	pos := b.acc(`"bufferView": ` + itoa(inter) + `, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0,0,0], "max": [1,1,0]`)
	// Sparse over no bufferView: zeros except element 2 = (0, 0, 7).
	idx := b.view(t, 0, []uint16{2, 0})
	val := b.view(t, 0, []float32{0, 0, 7})
	sp := b.acc(`"componentType": 5126, "count": 3, "type": "VEC3", "sparse": {"count": 1,
	  "indices": {"bufferView": ` + itoa(idx) + `, "componentType": 5123}, "values": {"bufferView": ` + itoa(val) + `}}`)
	doc := b.json(`"nodes": [{"mesh": 0}, {"mesh": 1}], "scenes": [{"nodes": [0, 1]}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `}}]}, {"primitives": [{"attributes": {"POSITION": ` + itoa(sp) + `}}]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	got := m.Meshes[0].Primitives[0].Positions
	want := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("interleaved positions = %v, want %v", got, want)
		}
	}
	got = m.Meshes[1].Primitives[0].Positions
	want = []float32{0, 0, 0, 0, 0, 0, 0, 0, 7}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("sparse positions = %v, want %v", got, want)
		}
	}
}

// TestWidestByteStride: 252 is the largest byteStride glTF allows
// (§5.11, bufferView.byteStride in [4, 252]): positions 252 bytes apart,
// with junk between them, load as the three vertices.
func TestWidestByteStride(t *testing.T) {
	b := &docBuilder{}
	data := make([]float32, 2*63+3) // the last vertex ends without padding
	for i := range data {
		data[i] = 9
	}
	copy(data[0:], []float32{0, 0, 0})
	copy(data[63:], []float32{1, 0, 0})
	copy(data[126:], []float32{0, 1, 0})
	v := b.view(t, 252, data)
	pos := b.acc(`"bufferView": ` + itoa(v) + `, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0,0,0], "max": [1,1,0]`)
	doc := b.json(`"nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `}}]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatalf("byteStride 252: %v", err)
	}
	if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 1 {
		t.Fatalf("%d meshes, want 1 of 1 primitive", len(m.Meshes))
	}
	if got, want := m.Meshes[0].Primitives[0].Positions, []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}; !slices.Equal(got, want) {
		t.Fatalf("positions %v, want %v", got, want)
	}
	if lines := m.Report.Lines(Hint, 0); len(lines) != 0 {
		t.Errorf("a valid stride is reported: %q", lines)
	}
}

func TestQuantizedPositionsAndNormalizedRotation(t *testing.T) {
	b := &docBuilder{}
	// KHR_mesh_quantization: SHORT positions, normalized (32767 → 1).
	pv := b.view(t, 0, []int16{0, 0, 0, 0, 32767, 0, -32767, 0, 0, 0, 0, 0})
	pos := b.acc(`"bufferView": ` + itoa(pv) + `, "componentType": 5122, "normalized": true, "count": 3, "type": "VEC3", "min": [-1,0,0], "max": [0,1,0]`)
	times := b.floatAcc(t, "SCALAR", []float32{0, 1})
	// Rotation keys of length 2: normalized on load.
	rot := b.floatAcc(t, "VEC4", []float32{0, 0, 0, 2, 0, 0, 2, 0})
	doc := b.json(`"extensionsUsed": ["KHR_mesh_quantization"], "extensionsRequired": ["KHR_mesh_quantization"],
	  "nodes": [{"mesh": 0, "rotation": [0, 0, 0, 3]}], "scenes": [{"nodes": [0]}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `}}]}],
	  "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}], "samplers": [{"input": ` + itoa(times) + `, "output": ` + itoa(rot) + `}]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	p := m.Meshes[0].Primitives[0].Positions
	if p[4] != 1 || p[6] != -1 {
		t.Fatalf("dequantized positions = %v, want y=1 for vertex 1 and x=-1 for vertex 2", p)
	}
	v := m.Clips[0].Tracks[0].Values
	if v[3] != 1 || v[6] != 1 {
		t.Fatalf("rotation keys = %v, want unit quaternions", v)
	}
	if r := m.Skeleton.Rest[0].Rotation; r.W != 1 {
		t.Fatalf("node rotation = %v, want normalized to identity", r)
	}
	if len(m.Report.Issues) == 0 {
		t.Fatal("non-unit quaternions were normalized without a warning")
	}
}

func TestDefaultSceneIsShown(t *testing.T) {
	b := &docBuilder{}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	doc := b.json(`"scene": 1, "scenes": [{"nodes": [0]}, {"nodes": [1]}],
	  "nodes": [{"mesh": 0}, {"mesh": 0, "camera": 0}], "cameras": [{"type": "perspective", "perspective": {"yfov": 1, "znear": 0.1}}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `}}]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Instances) != 1 || m.Instances[0].Node != 1 {
		t.Fatalf("instances = %+v, want only node 1 from scene 1", m.Instances)
	}
}

func TestRefusals(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		want string
	}{
		{"cycle", `{"asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {"children": [0]}]}`, "nodes[0]: the node hierarchy has a cycle"},
		{"two parents", `{"asset": {"version": "2.0"}, "nodes": [{"children": [2]}, {"children": [2]}, {}]}`, "nodes[1].children[0]: nodes[2] already has parent nodes[0]"},
		{"child out of range", `{"asset": {"version": "2.0"}, "nodes": [{"children": [7]}]}`, "nodes[0].children[0]: nodes[7] does not exist (1 nodes)"},
		{"skin joint not a node", `{"asset": {"version": "2.0"}, "nodes": [{}], "skins": [{"joints": [3]}]}`, "skins[0].joints[0]: nodes[3] does not exist (1 nodes)"},
		{"JSON syntax", "{\"asset\": {\"version\": \"2.0\"},\n \"nodes\": [}", "line 2, column"},
		{"accessor outside buffer", `{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "data:application/octet-stream;base64,AAAAAA=="}],
		  "bufferViews": [{"buffer": 0, "byteLength": 4}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
		  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}`, "accessors[0]: 3 elements from byteOffset 0 (stride 12) need 36 bytes; bufferViews[0] has 4"},
		{"bad data URI", `{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "data:application/octet-stream;base64,@@@"}]}`, "buffers[0]: data URI does not decode"},
		{"GLB chunk past the end", "glTF\x02\x00\x00\x00\x16\x00\x00\x00\xff\x00\x00\x00JSON{}", "glb: chunk 0 length 255 runs past the end"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.doc), nil, "t.gltf")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestMeshWeightsAndTargetNames: mesh.weights holds one default weight per
// morph target (glTF 2.0 §3.7.2.2); another count is reported
// (MESH_INVALID_WEIGHTS_COUNT) and the weights start at 0. The targets'
// names come from extras.targetNames.
func TestMeshWeightsAndTargetNames(t *testing.T) {
	b := &docBuilder{}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	up := b.floatAcc(t, "VEC3", []float32{0, 0, 1, 0, 0, 1, 0, 0, 1})
	side := b.floatAcc(t, "VEC3", []float32{1, 0, 0, 1, 0, 0, 1, 0, 0})
	prim := `{"attributes": {"POSITION": ` + itoa(pos) + `}, "targets": [{"POSITION": ` + itoa(up) + `}, {"POSITION": ` + itoa(side) + `}]}`
	doc := b.json(`"nodes": [{"mesh": 0}, {"mesh": 1}], "scenes": [{"nodes": [0, 1]}],
	  "meshes": [{"primitives": [` + prim + `], "weights": [0.25, 0.5], "extras": {"targetNames": ["smile", "blink"]}},
	    {"primitives": [` + prim + `], "weights": [0.25, 0.5, 1]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Meshes) != 2 {
		t.Fatalf("%d meshes, want 2", len(m.Meshes))
	}
	if g := m.Meshes[0]; g.Targets != 2 || !slices.Equal(g.Weights, []float32{0.25, 0.5}) || !slices.Equal(g.TargetNames, []string{"smile", "blink"}) {
		t.Errorf("mesh 0: %d targets named %q, weights %v; want 2 named smile and blink, weights [0.25 0.5]", g.Targets, g.TargetNames, g.Weights)
	}
	if issueAt(m, "MESH_INVALID_WEIGHTS_COUNT", "/meshes/0/weights") {
		t.Errorf("mesh 0's two weights for two targets are reported: %q", m.Report.Lines(Hint, 0))
	}
	if g := m.Meshes[1]; g.Targets != 2 || slices.ContainsFunc(g.Weights, func(w float32) bool { return w != 0 }) {
		t.Errorf("mesh 1: %d targets, weights %v; want 2 targets starting at weight 0", g.Targets, g.Weights)
	}
	if !issueAt(m, "MESH_INVALID_WEIGHTS_COUNT", "/meshes/1/weights") {
		t.Errorf("mesh 1's three weights for two targets are not reported: %q", m.Report.Lines(Hint, 0))
	}
}

// TestVec3ColorsGetOpaqueAlpha: COLOR_0 may be VEC3 (RGB) or VEC4 (RGBA)
// (glTF 2.0 §3.7.2.1); RGB colours are read as RGBA with alpha 1.
func TestVec3ColorsGetOpaqueAlpha(t *testing.T) {
	b := &docBuilder{}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	col := b.floatAcc(t, "VEC3", []float32{1, 0, 0, 0, 0.5, 0, 0, 0, 0.25})
	doc := b.json(`"nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `, "COLOR_0": ` + itoa(col) + `}}]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 1 {
		t.Fatalf("%d meshes, want 1 of 1 primitive", len(m.Meshes))
	}
	if got, want := m.Meshes[0].Primitives[0].Colors, []float32{1, 0, 0, 1, 0, 0.5, 0, 1, 0, 0, 0.25, 1}; !slices.Equal(got, want) {
		t.Fatalf("colours %v, want %v", got, want)
	}
}

// TestWeightSumTolerance: glTF-Validator lets normalized bytes round each
// of four weights by up to 1/510, so a vertex of unsigned-byte weights may
// sum to within 4/510 (0.00784) of 1 without a warning; float weights get
// 2e-3. Byte sums 252/255 (0.0118 off) and 254/255 (0.0039 off) fall on
// either side of the first; float sums 0.995 and 0.999 of the second.
func TestWeightSumTolerance(t *testing.T) {
	for _, c := range []struct {
		name  string
		bytes []uint8   // one vertex's four weights, when unsigned bytes
		float []float32 // or floats
		warn  bool
	}{
		{"bytes 254/255", []uint8{200, 54, 0, 0}, nil, false},
		{"bytes 252/255", []uint8{200, 52, 0, 0}, nil, true},
		{"floats 0.999", nil, []float32{0.6, 0.399, 0, 0}, false},
		{"floats 0.995", nil, []float32{0.6, 0.395, 0, 0}, true},
	} {
		b := &docBuilder{}
		pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0})
		jv := b.view(t, 0, []uint16{0, 1, 0, 0})
		ja := b.acc(`"bufferView": ` + itoa(jv) + `, "componentType": 5123, "count": 1, "type": "VEC4"`)
		var wa int
		if c.bytes != nil {
			wv := b.view(t, 0, c.bytes)
			wa = b.acc(`"bufferView": ` + itoa(wv) + `, "componentType": 5121, "normalized": true, "count": 1, "type": "VEC4"`)
		} else {
			wa = b.floatAcc(t, "VEC4", c.float)
		}
		doc := b.json(`"nodes": [{"mesh": 0, "skin": 0}, {}, {}], "skins": [{"joints": [1, 2]}], "scenes": [{"nodes": [0, 1, 2]}],
		  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `, "JOINTS_0": ` + itoa(ja) + `, "WEIGHTS_0": ` + itoa(wa) + `}, "mode": 0}]}]`)
		m, err := Decode(doc, nil, "t.gltf")
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		warned := slices.ContainsFunc(m.Report.Issues, func(is Issue) bool { return is.Code == "ACCESSOR_WEIGHTS_NON_NORMALIZED" })
		if warned != c.warn {
			t.Errorf("%s: ACCESSOR_WEIGHTS_NON_NORMALIZED %v, want %v; the report: %q", c.name, warned, c.warn, m.Report.Lines(Hint, 0))
		}
	}
}

// TestInfluencesPerPrimitive: two primitives with JOINTS/WEIGHTS of their
// own each get their own influences (the second is not the first's,
// remembered for primitives that share the accessors).
func TestInfluencesPerPrimitive(t *testing.T) {
	b := &docBuilder{}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0})
	jv0 := b.view(t, 0, []uint16{0, 0, 0, 0})
	jv1 := b.view(t, 0, []uint16{1, 0, 0, 0})
	j0 := b.acc(`"bufferView": ` + itoa(jv0) + `, "componentType": 5123, "count": 1, "type": "VEC4"`)
	j1 := b.acc(`"bufferView": ` + itoa(jv1) + `, "componentType": 5123, "count": 1, "type": "VEC4"`)
	w := b.floatAcc(t, "VEC4", []float32{1, 0, 0, 0})
	prim := func(j int) string {
		return `{"attributes": {"POSITION": ` + itoa(pos) + `, "JOINTS_0": ` + itoa(j) + `, "WEIGHTS_0": ` + itoa(w) + `}, "mode": 0}`
	}
	doc := b.json(`"nodes": [{"mesh": 0, "skin": 0}, {}, {}], "skins": [{"joints": [1, 2]}], "scenes": [{"nodes": [0, 1, 2]}],
	  "meshes": [{"primitives": [` + prim(j0) + `, ` + prim(j1) + `]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 2 {
		t.Fatalf("%d meshes, want one of two primitives", len(m.Meshes))
	}
	for k, want := range []uint16{0, 1} {
		p := m.Meshes[0].Primitives[k]
		if len(p.Joints) < 1 || p.Joints[0] != want || p.Weights[0] != 1 {
			t.Errorf("primitive %d: joints %v weights %v, want joint %d at weight 1", k, p.Joints, p.Weights, want)
		}
	}
}

// TestLargestJointIndex: JOINTS_0 of UNSIGNED_SHORT may hold 65535, the
// largest; with no weight on it the vertex loads, that influence read as
// joint 0 (it moves nothing), and nothing is reported.
func TestLargestJointIndex(t *testing.T) {
	d := skinnedDoc(t)
	v := d.addBuffer(t, 0, le(t, []uint16{0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 65535, 0}))
	a := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5123, "count": 3, "type": "VEC4"}`, v))
	d.set(t, "meshes/0/primitives/0/attributes/JOINTS_0", a)
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if j := m.Meshes[0].Primitives[0].Joints; !slices.Equal(j, []uint16{0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}) {
		t.Errorf("joints %v, want vertex 2's unweighted 65535 read as 0", j)
	}
	if lines := m.Report.Lines(Hint, 0); len(lines) != 0 {
		t.Errorf("report %q, want none", lines)
	}
}

// TestStripAndFanTriangles: five vertices drawn as a strip and as a fan
// make the triangles glTF §3.7.2.1 lists, their winding kept: a strip's
// triangle i is (i, i+1, i+2), with the first two swapped for odd i; a
// fan's is (0, i+1, i+2).
func TestStripAndFanTriangles(t *testing.T) {
	b := &docBuilder{}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0})
	doc := b.json(`"nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `}, "mode": 5}, {"attributes": {"POSITION": ` + itoa(pos) + `}, "mode": 6}]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 2 {
		t.Fatalf("%d meshes; want one of two primitives", len(m.Meshes))
	}
	for i, want := range [][]uint32{{0, 1, 2, 2, 1, 3, 2, 3, 4}, {0, 1, 2, 0, 2, 3, 0, 3, 4}} {
		if got := m.Meshes[0].Primitives[i].Indices; !slices.Equal(got, want) {
			t.Errorf("%s: triangles %v; want %v", []string{"strip", "fan"}[i], got, want)
		}
	}
}

// TestInfluencesMergeAndUnweighted: a joint named twice counts once, with
// both weights, before the four largest are kept (joint 0 at 0.15 + 0.15
// outweighs joints 1 and 2 at 0.2; joints 4 and 5 tie at 0.1, the first
// met kept; 0.2 of 1 dropped); a vertex with no weight drops nothing, and
// counts in the mean: 0.2 / 2.
func TestInfluencesMergeAndUnweighted(t *testing.T) {
	b := &docBuilder{}
	pos := b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0})
	j0 := b.view(t, 0, []uint16{0, 1, 0, 2, 0, 0, 0, 0})
	j1 := b.view(t, 0, []uint16{4, 5, 6, 7, 0, 0, 0, 0})
	ja := b.acc(`"bufferView": ` + itoa(j0) + `, "componentType": 5123, "count": 2, "type": "VEC4"`)
	jb := b.acc(`"bufferView": ` + itoa(j1) + `, "componentType": 5123, "count": 2, "type": "VEC4"`)
	wa := b.floatAcc(t, "VEC4", []float32{0.15, 0.2, 0.15, 0.2, 0, 0, 0, 0})
	wb := b.floatAcc(t, "VEC4", []float32{0.1, 0.1, 0.05, 0.05, 0, 0, 0, 0})
	doc := b.json(`"nodes": [{"mesh": 0, "skin": 0}, {}, {}, {}, {}, {}, {}, {}, {}],
	  "skins": [{"joints": [1, 2, 3, 4, 5, 6, 7, 8]}], "scenes": [{"nodes": [0, 1, 2, 3, 4, 5, 6, 7, 8]}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": ` + itoa(pos) + `, "JOINTS_0": ` + itoa(ja) + `, "WEIGHTS_0": ` + itoa(wa) +
		`, "JOINTS_1": ` + itoa(jb) + `, "WEIGHTS_1": ` + itoa(wb) + `}, "mode": 0}]}]`)
	m, err := Decode(doc, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	p := m.Meshes[0].Primitives[0]
	wantJ, wantW := []uint16{0, 1, 2, 4}, []float32{0.3 / 0.8, 0.2 / 0.8, 0.2 / 0.8, 0.1 / 0.8}
	for k := range 4 {
		if p.Joints[k] != wantJ[k] || !approxEqual(p.Weights[k], wantW[k], 1e-6) {
			t.Fatalf("vertex 0: joints %v weights %v; want %v %v", p.Joints[:4], p.Weights[:4], wantJ, wantW)
		}
	}
	if !approxEqual(p.DroppedMax, 0.2, 1e-6) || !approxEqual(p.DroppedMean, 0.1, 1e-6) {
		t.Fatalf("dropped max %v mean %v; want 0.2 and 0.1", p.DroppedMax, p.DroppedMean)
	}
	// Charged for the skinning arrays: 4 × 6 bytes a vertex and influence
	// set (two sets) and 4 × 6 a vertex for the four drawn: 2 × 2 × 24 +
	// 2 × 24.
	if got := charges(t, doc)["meshes[0].primitives[0]: skin influences"]; got != 2*2*24+2*24 {
		t.Errorf("charged %d bytes for the skin influences; want %d", got, 2*2*24+2*24)
	}
}
