package gltfload

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// addBuffer appends a data-URI buffer holding data with one view over
// all of it (stride 0 for none) and returns the view's index.
func (d jdoc) addBuffer(t testing.TB, stride int, data []byte) int {
	t.Helper()
	b := d.add(t, "buffers", fmt.Sprintf(`{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}`, len(data), base64.StdEncoding.EncodeToString(data)))
	v := fmt.Sprintf(`{"buffer": %d, "byteLength": %d`, b, len(data))
	if stride > 0 {
		v += fmt.Sprintf(`, "byteStride": %d`, stride)
	}
	return d.add(t, "bufferViews", v+"}")
}

func le(t testing.TB, data ...any) []byte {
	var b bytes.Buffer
	for _, x := range data {
		if err := binary.Write(&b, binary.LittleEndian, x); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// pngClaiming is a PNG signature and header chunk claiming w×h pixels,
// with no pixel data: what a hostile file needs to ask for a huge canvas.
func pngClaiming(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8-bit RGBA
	chunk := append([]byte("IHDR"), ihdr...)
	out := []byte("\x89PNG\r\n\x1a\n")
	out = binary.BigEndian.AppendUint32(out, uint32(len(ihdr)))
	out = append(out, chunk...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
}

// Where the specification allows recovery, or a violation is harmless to
// this loader, the model loads and a warning says what was done.
func TestLenientDocumentsWarn(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(t testing.TB, d jdoc)
		build func(t testing.TB) []byte
		fsys  fs.FS
		want  []string
	}{
		{name: "byteStride on animation input (Fox)", edit: func(t testing.TB, d jdoc) { d.set(t, "bufferViews/7/byteStride", 4) },
			want: []string{"ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE bufferViews[7].byteStride: 4 is only allowed for vertex attributes, but accessors[7] uses it for animation input; read with the stride"}},
		{name: "weights not summing to 1", edit: func(t testing.TB, d jdoc) { d.patch(t, 4, []float32{0.5, 0, 0, 0, 1, 0, 0, 0, 0.25, 0.5}) },
			want: []string{"ACCESSOR_WEIGHTS_NON_NORMALIZED meshes[0].primitives[0].attributes.WEIGHTS_0: weights of 2 vertices do not sum to 1 (worst: vertex 0 sums to 0.5); normalized"}},
		// Off by as much each way: the first is the worst named.
		{name: "weights off by the same amount", edit: func(t testing.TB, d jdoc) { d.patch(t, 4, []float32{0.5, 0, 0, 0, 1, 0.5, 0, 0}) },
			want: []string{"ACCESSOR_WEIGHTS_NON_NORMALIZED meshes[0].primitives[0].attributes.WEIGHTS_0: weights of 2 vertices do not sum to 1 (worst: vertex 0 sums to 0.5); normalized"}},
		{name: "non-unit node rotation", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/1/rotation", `[0, 0, 0, 2]`) },
			want: []string{"ROTATION_NON_UNIT nodes[1].rotation: length 2, normalized"}},
		// 0.005 off: more than float rounding, reported too.
		{name: "node rotation 0.005 from unit", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/1/rotation", `[0, 0, 0, 1.005]`) },
			want: []string{"ROTATION_NON_UNIT nodes[1].rotation: length 1.005, normalized"}},
		{name: "non-unit rotation keys", edit: func(t testing.TB, d jdoc) { d.patch(t, 8, []float32{0, 0, 0, 2}) },
			want: []string{"ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION animations[0].samplers[0].output: rotation keys up to 1 away from unit length; normalized"}},
		{name: "alphaCutoff without alphaMode", edit: func(t testing.TB, d jdoc) { d.raw(t, "materials/0/alphaCutoff", `0.3`) },
			want: []string{"MATERIAL_ALPHA_CUTOFF_INVALID_MODE materials[0].alphaCutoff: without alphaMode MASK (OPAQUE by default) it is ignored"}},
		// The positions are (0,0,0), (1,0,0), (0,1,0): the first element
		// past a bound is named, and the bound's mismatch.
		{name: "data above max", edit: func(t testing.TB, d jdoc) { d.raw(t, "accessors/0/max", `[1, 0.5, 0]`) },
			want: []string{"ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND accessors[0]: element 2 component 1 is above max[1] 0.5",
				"ACCESSOR_MAX_MISMATCH accessors[0].max[1]: declared 0.5, the data's largest is 1"}},
		{name: "data above max from the first element", edit: func(t testing.TB, d jdoc) { d.raw(t, "accessors/0/max", `[1, 1, -0.5]`) },
			want: []string{"ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND accessors[0]: element 0 component 2 is above max[2] -0.5",
				"ACCESSOR_MAX_MISMATCH accessors[0].max[2]: declared -0.5, the data's largest is 0"}},
		{name: "data below min", edit: func(t testing.TB, d jdoc) { d.raw(t, "accessors/0/min", `[0, 0.5, 0]`) },
			want: []string{"ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND accessors[0]: element 0 component 1 is below min[1] 0.5",
				"ACCESSOR_MIN_MISMATCH accessors[0].min[1]: declared 0.5, the data's smallest is 0"}},
		{name: "NaN in the first element of data no mesh uses", edit: func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, []float32{nan32(), 0}))
			d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 2, "type": "SCALAR"}`, v))
		}, want: []string{"ACCESSOR_INVALID_FLOAT accessors[10]: element 0 is not a finite number"}},
		{name: "normalized FLOAT", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/normalized", true) },
			want: []string{"ACCESSOR_NORMALIZED_INVALID accessors[0].normalized: set on FLOAT components, where glTF forbids it; ignored"}},
		{name: "quantized positions without the extension", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/componentType", 5123) },
			want: []string{
				"MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT meshes[0].primitives[0].attributes.POSITION: accessors[0] has UNSIGNED_SHORT components, which need KHR_mesh_quantization in extensionsUsed; read anyway",
				"ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND accessors[0]: element 2 component 1 is above max[1] 1",
				"ACCESSOR_MAX_MISMATCH accessors[0].max[0]: declared 1, the data's largest is 0"}},
		{name: "UNSIGNED_INT joints", edit: func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, []uint32{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}))
			d.set(t, "accessors/3/bufferView", v)
			d.set(t, "accessors/3/componentType", 5125)
		}, want: []string{"MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT meshes[0].primitives[0].attributes.JOINTS_0: accessors[3] has UNSIGNED_INT components, which glTF does not allow here; read anyway"}},
		{name: "byteStride not a multiple of 4", edit: func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 6, le(t, []uint8{0, 0, 0, 0, 9, 9, 1, 0, 0, 0, 9, 9, 1, 0, 0, 0}))
			d.set(t, "accessors/3/bufferView", v)
		}, want: []string{"VALUE_MULTIPLE_OF bufferViews[10].byteStride: 6 is not a multiple of 4 in [4, 252]; read anyway"}},
		{name: "accessor not aligned", edit: func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, []uint16{0}, []float32{0, 0, 1, 0, 0, 1}))
			d.set(t, "accessors/2/bufferView", v)
			d.set(t, "accessors/2/byteOffset", 2)
		}, want: []string{
			"ACCESSOR_OFFSET_ALIGNMENT accessors[2].byteOffset: 2 is not a multiple of its 4-byte components; read anyway",
			"MESH_PRIMITIVE_ACCESSOR_UNALIGNED meshes[0].primitives[0].attributes.TEXCOORD_0: accessors[2] starts at byte 2 of its buffer, not a multiple of 4 as glTF asks of vertex attributes; read anyway"}},
		{name: "duplicate channel target", edit: func(t testing.TB, d jdoc) {
			d.add(t, "animations/0/channels", `{"sampler": 1, "target": {"node": 2, "path": "translation"}}`)
		}, want: []string{"ANIMATION_DUPLICATE_TARGETS animations[0].channels[2].target: nodes[2] translation is already animated by channels[1]; the later channel wins"}},
		{name: "duplicate skin joint", edit: func(t testing.TB, d jdoc) { d.raw(t, "skins/0/joints", `[1, 1]`) },
			want: []string{"DUPLICATE_ELEMENTS skins[0].joints[1]: nodes[1] is already joint 0; joints must be unique, the duplicate is kept"}},
		{name: "unknown required extension", edit: func(t testing.TB, d jdoc) { d.raw(t, "extensionsRequired", `["EXT_foo"]`) },
			want: []string{
				"UNSUPPORTED_EXTENSION extensionsRequired[0]: EXT_foo is not supported; the model is shown without it",
				"UNUSED_EXTENSION_REQUIRED extensionsRequired[0]: EXT_foo is not in extensionsUsed"}},
		{name: "GPU instancing of a skinned mesh", edit: func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, []float32{0, 0, 0, 2, 0, 0, 4, 0, 0}))
			a := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "VEC3"}`, v))
			d.raw(t, "extensionsUsed", `["EXT_mesh_gpu_instancing"]`)
			d.raw(t, "nodes/0/extensions", fmt.Sprintf(`{"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": %d}}}`, a))
		}, want: []string{"VIEWER_NOT_DRAWN nodes[0].extensions.EXT_mesh_gpu_instancing: 3 instances of a skinned mesh are not drawn; the mesh is drawn once, at the node"}},
		{name: "unknown animation path", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/channels/1/target/path", "pointer") },
			want: []string{"VIEWER_NOT_DRAWN animations[0].channels[1].target.path: \"pointer\" is not supported; ignored"}},
		{name: "morph weights for a node without targets", edit: func(t testing.TB, d jdoc) {
			d.add(t, "animations/0/channels", `{"sampler": 0, "target": {"node": 2, "path": "weights"}}`)
		}, want: []string{"ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS animations[0].channels[2].target: nodes[2] has no morph targets to weight; ignored"}},
		{name: "morph weights are read without an issue", edit: func(t testing.TB, d jdoc) {
			d.raw(t, "meshes/0/primitives/0/targets", `[{"POSITION": 0}]`)
			d.add(t, "animations/0/samplers", `{"input": 7, "output": 7}`)
			d.add(t, "animations/0/channels", `{"sampler": 2, "target": {"node": 0, "path": "weights"}}`)
		}, want: nil},
		{name: "skinned node whose mesh has no joints", edit: func(t testing.TB, d jdoc) {
			d.del(t, "meshes/0/primitives/0/attributes/JOINTS_0")
			d.del(t, "meshes/0/primitives/0/attributes/WEIGHTS_0")
		}, want: []string{"NODE_SKIN_WITH_NON_SKINNED_MESH nodes[0]: has skins[0] but meshes[0] has no JOINTS_0/WEIGHTS_0; drawn rigidly"}},
		{name: "negative key time", edit: func(t testing.TB, d jdoc) { d.patch(t, 7, []float32{-1, 1}) },
			want: []string{
				"ACCESSOR_ANIMATION_INPUT_NEGATIVE animations[0].samplers[0].input: accessors[7] starts at -1 s; glTF key times are not negative",
				"ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND accessors[7]: element 0 component 0 is below min[0] 0",
				"ACCESSOR_MIN_MISMATCH accessors[7].min[0]: declared 0, the data's smallest is -1"}},
		{name: "matrix not affine", edit: func(t testing.TB, d jdoc) {
			d.raw(t, "nodes/1/matrix", `[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1]`)
		}, want: []string{
			"NODE_MATRIX_NON_TRS nodes[1].matrix: not affine (last row 0 0 1 1); the last row is ignored",
			"ANIMATION_CHANNEL_TARGET_NODE_MATRIX animations[0].channels[0].target.node: nodes[1] has a matrix; glTF animates only nodes given as translation, rotation and scale"}},
		{name: "matrix with shear", edit: func(t testing.TB, d jdoc) {
			d.raw(t, "nodes/1/matrix", `[1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]`)
		}, want: []string{
			"NODE_MATRIX_NON_TRS nodes[1].matrix: not a translation, rotation and scale (shear or a singular rotation); approximated",
			"ANIMATION_CHANNEL_TARGET_NODE_MATRIX animations[0].channels[0].target.node: nodes[1] has a matrix; glTF animates only nodes given as translation, rotation and scale"}},
		{name: "property differing only in case", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/Count", 999) },
			want: []string{"UNEXPECTED_PROPERTY accessors[0].Count: unknown property ignored (glTF property names are case-sensitive)"}},
		{name: "names on every kind of object", edit: func(t testing.TB, d jdoc) {
			for _, p := range []string{"scenes/0", "nodes/0", "skins/0", "meshes/0", "materials/0", "textures/0", "samplers/0",
				"images/0", "accessors/0", "bufferViews/0", "buffers/0", "animations/0"} {
				d.set(t, p+"/name", "named")
			}
		}, want: nil},
		{name: "a name written Name", edit: func(t testing.TB, d jdoc) {
			d.set(t, "nodes/1/Name", "hip")
			d.set(t, "materials/0/Name", "skin")
		}, want: []string{"UNEXPECTED_PROPERTY materials[0].Name: unknown property ignored (glTF property names are case-sensitive)",
			"UNEXPECTED_PROPERTY nodes[1].Name: unknown property ignored (glTF property names are case-sensitive)"}},
		// The root and the asset have no name to mistype (glTF's schema).
		{name: "Name on the root and on the asset", edit: func(t testing.TB, d jdoc) {
			d.set(t, "Name", "root")
			d.set(t, "asset/Name", "asset")
		}, want: nil},
		{name: "integer written as a float", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/count", json.Number("3.0")) },
			want: []string{"VIEWER_NOTE accessors[0].count: integer written as 3.0; read as 3"}},
		{name: "unpadded base64", edit: func(t testing.TB, d jdoc) {
			d.set(t, "buffers/0/uri", strings.TrimRight(d["buffers"].([]any)[0].(map[string]any)["uri"].(string), "="))
		}, want: []string{"INVALID_URI buffers[0]: the data URI is not in standard padded base64; decoded anyway"}},
		{name: "image that does not decode", edit: func(t testing.TB, d jdoc) { d.set(t, "images/0/uri", "data:image/png;base64,AAAA") },
			want: []string{"IMAGE_UNRECOGNIZED_FORMAT images[0]: cannot decode: image: unknown format; drawn untextured"}},
		{name: "image file missing", edit: func(t testing.TB, d jdoc) { d.set(t, "images/0/uri", "skin.png") }, fsys: fstest.MapFS{},
			want: []string{"IO_ERROR images[0]: uri \"skin.png\": file does not exist; drawn untextured"}},
		{name: "image file outside the folder", edit: func(t testing.TB, d jdoc) { d.set(t, "images/0/uri", "../skin.png") }, fsys: fstest.MapFS{},
			want: []string{"VIEWER_NOT_DRAWN images[0]: uri \"../skin.png\" leaves the model's folder; drawn untextured"}},
		{name: "image claiming a huge canvas", edit: func(t testing.TB, d jdoc) {
			d.set(t, "images/0/uri", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(pngClaiming(8192, 8192)))
		}, want: []string{"IMAGE_DATA_INVALID images[0]: 8192x8192 pixels from 33 bytes of image data is not plausible; drawn untextured"}},
		{name: "image beyond the size limit", edit: func(t testing.TB, d jdoc) {
			d.set(t, "images/0/uri", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(pngClaiming(100000, 100000)))
		}, want: []string{"VIEWER_NOT_DRAWN images[0]: 100000x100000 pixels is outside the supported size (at most 67108864 pixels); drawn untextured"}},
		{name: "byte order mark", build: func(t testing.TB) []byte { return append([]byte("\xef\xbb\xbf"), skinnedDoc(t).bytes(t)...) },
			want: []string{"INVALID_JSON the JSON starts with a byte order mark, which glTF forbids; skipped"}},
		{name: "GLB JSON padded with NUL", build: func(t testing.TB) []byte {
			g := glbOf(t, skinnedDoc(t))
			jsLen := binary.LittleEndian.Uint32(g[12:])
			js := append(bytes.TrimRight(g[20:20+jsLen], " "), 0, 0, 0, 0)
			return glbChunks(js[:len(js)/4*4], g[28+jsLen:])
		}, want: []string{"INVALID_JSON glb: the JSON chunk is padded with NUL bytes instead of spaces"}},
		{name: "GLB with bytes after its length", build: func(t testing.TB) []byte { return append(glbOf(t, skinnedDoc(t)), 0, 0, 0, 0) },
			want: []string{"GLB_EXTRA_DATA glb: 4 bytes after the length the header gives (2492) are ignored"}},
		{name: "GLB BIN chunk longer than the buffer", build: func(t testing.TB) []byte {
			d := skinnedDoc(t)
			g := glbOf(t, d)
			jsLen := binary.LittleEndian.Uint32(g[12:])
			return glbChunks(g[20:20+jsLen], append(g[28+jsLen:], make([]byte, 16)...))
		}, want: []string{"BUFFER_GLB_CHUNK_TOO_BIG buffers[0]: the GLB BIN chunk has 372 bytes, more than byteLength 356 and padding; the rest is ignored"}},
		{name: "unused data", edit: func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, make([]byte, 64))
			d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 2, "type": "VEC3"}`, v))
			d.add(t, "materials", `{"name": "unused"}`)
		}, want: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var data []byte
			if tc.build != nil {
				data = tc.build(t)
			} else {
				d := skinnedDoc(t)
				tc.edit(t, d)
				data = d.bytes(t)
			}
			m, err := Decode(data, tc.fsys, "t.gltf")
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			got := issueLines(m)
			if len(got) != len(tc.want) {
				t.Fatalf("issues %q, want %q", got, tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Fatalf("issue %d is\n%s\nwant\n%s", i, got[i], w)
				}
			}
		})
	}
}

// issueLines is the report as "CODE message" lines, in report order.
func issueLines(m *Model) []string {
	var out []string
	for _, i := range m.Report.Issues {
		out = append(out, i.Code+" "+i.Message)
	}
	return out
}

// The report keeps 1,000 issues in all: 21 codes of 50 objects each fill
// it with the first 20 codes' (the 1,000th kept, the 1,001st counted),
// and the last code's 50 are counted by severity.
func TestIssuesAreCappedInAll(t *testing.T) {
	var codes []string
	for c, sev := range severities {
		if sev == Warning && len(codes) < 21 {
			codes = append(codes, c)
		}
	}
	if len(codes) != 21 {
		t.Fatalf("%d warning codes; the test needs 21", len(codes))
	}
	l := &loader{model: &Model{}}
	for _, c := range codes {
		for i := range maxIssuesPerCode {
			l.issue(c, fmt.Sprintf("nodes[%d]", i), "the %s of node %d", c, i)
		}
	}
	r := &l.model.Report
	if len(r.Issues) != 1000 || r.Omitted[Warning] != 50 || r.Count(Warning) != 1050 {
		t.Fatalf("%d issues, %d warnings omitted, %d counted; want 1000, 50 and 1050", len(r.Issues), r.Omitted[Warning], r.Count(Warning))
	}
	if last := r.Issues[999]; last.Code != codes[19] || last.Pointer != "/nodes/49" {
		t.Fatalf("the 1000th issue %+v; want %s at /nodes/49", last, codes[19])
	}
}

// A file can hold one problem per object: the report keeps 50 of each
// code and counts the rest by severity.
func TestIssuesAreCapped(t *testing.T) {
	d := skinnedDoc(t)
	for range 150 {
		d.add(t, "animations/0/channels", `{"sampler": 0, "target": {"node": 1, "path": "pointer"}}`)
	}
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	r := &m.Report
	if len(r.Issues) != maxIssuesPerCode || r.Omitted[Warning] != 100 || r.Count(Warning) != 150 {
		t.Fatalf("%d issues, %d warnings omitted, %d counted; want %d, 100 and 150", len(r.Issues), r.Omitted[Warning], r.Count(Warning), maxIssuesPerCode)
	}
	lines := r.Lines(Warning, 10)
	if len(lines) != 11 || lines[10] != "... and 140 more" {
		t.Fatalf("Lines(Warning, 10) = %q; want 10 lines and \"... and 140 more\"", lines)
	}
	if lines := r.Lines(Error, 0); len(lines) != 0 {
		t.Fatalf("Lines(Error, 0) = %q; the report has no errors", lines)
	}
	if s := r.Summary(); s != "0 errors, 150 warnings" {
		t.Fatalf("summary %q", s)
	}
}

// The same problem on several objects is one issue each, with its own
// pointer.
func TestRepeatedIssuesNameEachObject(t *testing.T) {
	d := skinnedDoc(t)
	for i := 0; i < 3; i++ {
		d.raw(t, fmt.Sprintf("nodes/%d/rotation", i), `[0, 0, 0, 2]`)
	}
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	var ptrs []string
	for _, i := range m.Report.Issues {
		if i.Code != "ROTATION_NON_UNIT" || i.Severity != Error {
			t.Fatalf("issue %v, want only ROTATION_NON_UNIT errors", i)
		}
		ptrs = append(ptrs, i.Pointer)
	}
	if want := []string{"/nodes/0/rotation", "/nodes/1/rotation", "/nodes/2/rotation"}; !slices.Equal(ptrs, want) {
		t.Fatalf("pointers %q, want %q", ptrs, want)
	}
}

// Messages print as one line whatever the file name or the file's
// strings hold.
func TestErrorsAreOneLine(t *testing.T) {
	d := skinnedDoc(t)
	d.set(t, "meshes/0/primitives/0/attributes/EVIL\nNAME", 99)
	_, err := Decode(d.bytes(t), nil, "bad\nname.gltf")
	want := `gltfload: bad\nname.gltf: meshes[0].primitives[0].attributes.EVIL\nNAME: accessors[99] does not exist (10 accessors)`
	if err == nil || err.Error() != want {
		t.Fatalf("error %q, want %q", err, want)
	}
}

// Every issue code the loader reports has its severity in the table, and
// the table holds no code the loader never reports.
func TestEveryCodeHasASeverity(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	re := regexp.MustCompile(`(?:issue|withCode)\("([A-Z0-9_]+)"|"((?:[A-Z0-9]+_)+[A-Z0-9]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "report.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			code := m[1] + m[2]
			if _, ok := severities[code]; ok || m[1] != "" {
				used[code] = true
			}
		}
	}
	for code := range used {
		if _, ok := severities[code]; !ok {
			t.Errorf("issue code %s has no severity", code)
		}
	}
	for code := range severities {
		if !used[code] {
			t.Errorf("severity table lists %s, which is never reported", code)
		}
	}
}

// TestSplineRotationKeysNormalized: a CUBICSPLINE rotation's values are
// made unit, its tangents (derivatives, not rotations) are kept as they
// are; and key times repeated at the very start make a step like any
// other repeat (the earlier key moved a millionth of a second back).
func TestSplineRotationKeysNormalized(t *testing.T) {
	d := skinnedDoc(t)
	sampler := func(times, values []float32, interp string) {
		tv := d.addBuffer(t, 0, le(t, times))
		in := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": %d, "type": "SCALAR", "min": [%v], "max": [%v]}`, tv, len(times), times[0], times[len(times)-1]))
		ov := d.addBuffer(t, 0, le(t, values))
		out := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": %d, "type": "VEC4"}`, ov, len(values)/4))
		d.add(t, "animations", fmt.Sprintf(`{"samplers": [{"input": %d, "output": %d, "interpolation": %q}], "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}`, in, out, interp))
	}
	// In-tangent, value, out-tangent a key.
	sampler([]float32{0, 1}, []float32{0, 0, 0, 3, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 3, 0, 0, 0}, "CUBICSPLINE")
	sampler([]float32{0.5, 0.5, 1}, []float32{0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0}, "LINEAR")
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Clips) != 3 || len(m.Clips[1].Tracks) != 1 || len(m.Clips[2].Tracks) != 1 {
		t.Fatalf("%d clips; want the skinned one and two of one track", len(m.Clips))
	}
	want := []float32{0, 0, 0, 3, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 3, 0, 0, 0}
	if got := m.Clips[1].Tracks[0].Values; !slices.Equal(got, want) {
		t.Errorf("spline keys %v; want the values unit and the tangents as they were, %v", got, want)
	}
	if got := m.Clips[2].Tracks[0].Times; len(got) != 3 || got[1] != 0.5 || got[2] != 1 || !(got[0] < 0.5 && got[0] >= 0.5-2e-6) {
		t.Errorf("times %v; want [just under 0.5, 0.5, 1]", got)
	}
}
