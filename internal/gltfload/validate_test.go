package gltfload

import (
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// Each case breaks skinnedDoc in one way the glTF specification forbids
// and names the glTF-Validator issue code and JSON pointer the report must
// hold for it (codes and pointers as glTF-Validator's ISSUES.md and its
// test suite give them). Every error in the report must be one of those
// named: a check that fires on valid parts fails here too.
func TestValidationReport(t *testing.T) {
	type want struct{ code, ptr string }
	unusedImage := func(mime string, data []byte) func(t testing.TB, d jdoc) {
		return func(t testing.TB, d jdoc) {
			d.add(t, "images", fmt.Sprintf(`{"uri": "data:%s;base64,%s"}`, mime, base64.StdEncoding.EncodeToString(data)))
		}
	}
	// bufferURI replaces old with new in buffers[0]'s data URI.
	bufferURI := func(old, new string) func(t testing.TB, d jdoc) {
		return func(t testing.TB, d jdoc) {
			b := d["buffers"].([]any)[0].(map[string]any)
			b["uri"] = strings.Replace(b["uri"].(string), old, new, 1)
		}
	}
	cases := []struct {
		name string
		edit func(t testing.TB, d jdoc)
		want []want
	}{
		// The positions are (0,0,0), (1,0,0), (0,1,0): max is (1, 1, 0).
		{"max above the data", func(t testing.TB, d jdoc) { d.raw(t, "accessors/0/max", `[1, 1, 0.5]`) },
			[]want{{"ACCESSOR_MAX_MISMATCH", "/accessors/0/max/2"}}},
		{"data above max", func(t testing.TB, d jdoc) { d.raw(t, "accessors/0/max", `[1, 0.5, 0]`) },
			[]want{{"ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", "/accessors/0"}, {"ACCESSOR_MAX_MISMATCH", "/accessors/0/max/1"}}},
		{"data below min", func(t testing.TB, d jdoc) { d.raw(t, "accessors/0/min", `[0, 0.5, 0]`) },
			[]want{{"ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", "/accessors/0"}, {"ACCESSOR_MIN_MISMATCH", "/accessors/0/min/1"}}},
		{"max given as a double of the float32 data", func(t testing.TB, d jdoc) {
			d.patch(t, 0, []float32{0, 0, 0, 0.1, 0, 0, 0, 1, 0})
			d.raw(t, "accessors/0/max", `[0.10000000149011612, 1, 0]`)
		}, nil},
		// Bounds of float data are float32 values, written here in the
		// shortest decimal that reads back as that float32.
		{"max given as the float32's shortest decimal", func(t testing.TB, d jdoc) {
			d.patch(t, 0, []float32{0, 0, 0, 0.1, 0, 0, 0, 1, 0})
			d.raw(t, "accessors/0/max", `[0.1, 1, 0]`)
		}, nil},
		{"NaN in data no mesh uses", func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, []float32{0, float32(math.NaN())}))
			d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 2, "type": "SCALAR"}`, v))
		}, []want{{"ACCESSOR_INVALID_FLOAT", "/accessors/10"}}},
		{"attribute name outside glTF", func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/FOO", 2) },
			[]want{{"MESH_PRIMITIVE_INVALID_ATTRIBUTE", "/meshes/0/primitives/0/attributes/FOO"}}},
		{"application-specific attribute", func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/_FOO", 2) }, nil},
		{"set 1 without set 0", func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/COLOR_1", 1) },
			[]want{{"MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY", "/meshes/0/primitives/0/attributes"}}},
		{"positions without bounds", func(t testing.TB, d jdoc) { d.del(t, "accessors/0/min"); d.del(t, "accessors/0/max") },
			[]want{{"MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", "/meshes/0/primitives/0/attributes/POSITION"}}},
		{"morph target without a base attribute", func(t testing.TB, d jdoc) { d.raw(t, "meshes/0/primitives/0/targets", `[{"TANGENT": 1}]`) },
			[]want{{"MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR", "/meshes/0/primitives/0/targets/0/TANGENT"}}},
		{"mesh weights for no targets", func(t testing.TB, d jdoc) { d.raw(t, "meshes/0/weights", `[0.5]`) },
			[]want{{"MESH_INVALID_WEIGHTS_COUNT", "/meshes/0/weights"}}},
		{"tangent w neither 1 nor -1", func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, []float32{1, 0, 0, 1, 1, 0, 0, 0.5, 1, 0, 0, -1}))
			a := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "VEC4"}`, v))
			d.set(t, "meshes/0/primitives/0/attributes/TANGENT", a)
		}, []want{{"ACCESSOR_INVALID_SIGN", "/meshes/0/primitives/0/attributes/TANGENT"}}},
		{"tangent not of unit length", func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, []float32{1, 0, 0, 1, 2, 0, 0, 1, 1, 0, 0, -1}))
			a := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "VEC4"}`, v))
			d.set(t, "meshes/0/primitives/0/attributes/TANGENT", a)
		}, []want{{"ACCESSOR_VECTOR3_NON_UNIT", "/meshes/0/primitives/0/attributes/TANGENT"}}},
		{"float colour above 1", func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, []float32{1, 0, 0, 0, 2, 0, 0, 0, 1}))
			a := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "VEC3"}`, v))
			d.set(t, "meshes/0/primitives/0/attributes/COLOR_0", a)
		}, []want{{"ACCESSOR_NON_CLAMPED", "/meshes/0/primitives/0/attributes/COLOR_0"}}},
		{"skin on a node without a mesh", func(t testing.TB, d jdoc) { d.set(t, "nodes/2/skin", 0) },
			[]want{{"UNSATISFIED_DEPENDENCY", "/nodes/2/skin"}}},
		{"morph weights on a node without a mesh", func(t testing.TB, d jdoc) { d.raw(t, "nodes/2/weights", `[1]`) },
			[]want{{"UNSATISFIED_DEPENDENCY", "/nodes/2/weights"}}},
		{"node weights for no targets", func(t testing.TB, d jdoc) { d.raw(t, "nodes/0/weights", `[0.5]`) },
			[]want{{"NODE_WEIGHTS_INVALID", "/nodes/0/weights"}}},
		{"a child listed as a scene root", func(t testing.TB, d jdoc) { d.raw(t, "scenes/0/nodes", `[0, 1, 2]`) },
			[]want{{"SCENE_NON_ROOT_NODE", "/scenes/0/nodes/2"}}},
		{"a scene root listed twice", func(t testing.TB, d jdoc) { d.raw(t, "scenes/0/nodes", `[0, 1, 1]`) },
			[]want{{"DUPLICATE_ELEMENTS", "/scenes/0/nodes/2"}}},
		{"joints in two trees", func(t testing.TB, d jdoc) {
			n := d.add(t, "nodes", `{"name": "other"}`)
			d.add(t, "scenes/0/nodes", itoa(n))
			d.raw(t, "skins/0/joints", fmt.Sprintf("[1, %d]", n))
		}, []want{{"SKIN_NO_COMMON_ROOT", "/skins/0/joints"}}},
		{"skeleton below a joint", func(t testing.TB, d jdoc) { d.set(t, "skins/0/skeleton", 2) },
			[]want{{"SKIN_SKELETON_INVALID", "/skins/0/skeleton"}}},
		{"inverse bind matrix with a projective row", func(t testing.TB, d jdoc) {
			// Column-major: component 3 is row 3 of column 0.
			d.patch(t, 6, []float32{1, 0, 0, 0.5})
		}, []want{{"ACCESSOR_INVALID_IBM", "/accessors/6"}}},
		{"key times without bounds", func(t testing.TB, d jdoc) { d.del(t, "accessors/7/min"); d.del(t, "accessors/7/max") },
			[]want{{"ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", "/animations/0/samplers/0/input"}, {"ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", "/animations/0/samplers/1/input"}}},
		{"animated node given by a matrix", func(t testing.TB, d jdoc) {
			d.del(t, "nodes/2/translation")
			d.raw(t, "nodes/2/matrix", `[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1]`)
		}, []want{{"ANIMATION_CHANNEL_TARGET_NODE_MATRIX", "/animations/0/channels/1/target/node"}}},
		{"perspective far before near", func(t testing.TB, d jdoc) {
			d.raw(t, "cameras", `[{"type": "perspective", "perspective": {"yfov": 1, "znear": 1, "zfar": 0.5}}]`)
		}, []want{{"CAMERA_ZFAR_LEQUAL_ZNEAR", "/cameras/0/perspective/zfar"}}},
		{"orthographic without magnification", func(t testing.TB, d jdoc) {
			d.raw(t, "cameras", `[{"type": "orthographic", "orthographic": {"xmag": 0, "ymag": 1, "znear": 0, "zfar": 1}}]`)
		}, []want{{"CAMERA_XMAG_YMAG_ZERO", "/cameras/0/orthographic"}}},
		{"empty top-level array", func(t testing.TB, d jdoc) { d.raw(t, "cameras", `[]`) },
			[]want{{"EMPTY_ENTITY", "/cameras"}}},
		{"empty children", func(t testing.TB, d jdoc) { d.raw(t, "nodes/0/children", `[]`) },
			[]want{{"EMPTY_ENTITY", "/nodes/0/children"}}},
		{"extension not declared", func(t testing.TB, d jdoc) { d.raw(t, "nodes/2/extensions", `{"EXT_foo": {}}`) },
			[]want{{"UNDECLARED_EXTENSION", "/nodes/2/extensions/EXT_foo"}}},
		{"material extension on a node", func(t testing.TB, d jdoc) {
			d.raw(t, "extensionsUsed", `["KHR_materials_unlit"]`)
			d.raw(t, "nodes/2/extensions", `{"KHR_materials_unlit": {}}`)
		}, []want{{"UNEXPECTED_EXTENSION_OBJECT", "/nodes/2/extensions/KHR_materials_unlit"}}},
		{"material extension on a material", func(t testing.TB, d jdoc) {
			d.raw(t, "extensionsUsed", `["KHR_materials_unlit"]`)
			d.raw(t, "materials/0/extensions", `{"KHR_materials_unlit": {}}`)
		}, nil},
		{"required but not used", func(t testing.TB, d jdoc) { d.raw(t, "extensionsRequired", `["KHR_materials_unlit"]`) },
			[]want{{"UNUSED_EXTENSION_REQUIRED", "/extensionsRequired/0"}}},
		{"quantization used but not required", func(t testing.TB, d jdoc) { d.raw(t, "extensionsUsed", `["KHR_mesh_quantization"]`) },
			[]want{{"NON_REQUIRED_EXTENSION", "/extensionsUsed"}}},
		{"animation pointer that names a node too", func(t testing.TB, d jdoc) {
			d.raw(t, "extensionsUsed", `["KHR_animation_pointer"]`)
			d.add(t, "animations/0/channels", `{"sampler": 0, "target": {"node": 1, "path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/nodes/1/rotation"}}}}`)
		}, []want{{"KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", "/animations/0/channels/2/target/extensions/KHR_animation_pointer"}}},
		{"animation pointer that is not a JSON pointer", func(t testing.TB, d jdoc) {
			d.raw(t, "extensionsUsed", `["KHR_animation_pointer"]`)
			d.add(t, "animations/0/channels", `{"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "nodes/1/rotation"}}}}`)
		}, []want{{"PATTERN_MISMATCH", "/animations/0/channels/2/target/extensions/KHR_animation_pointer/pointer"}}},
		{"WebP image without EXT_texture_webp", unusedImage("image/webp", []byte("RIFF")),
			[]want{{"IMAGE_NON_ENABLED_MIME_TYPE", "/images/1"}}},
		{"buffer data URI of another media type", bufferURI("application/octet-stream", "text/plain"), []want{{"BUFFER_DATA_URI_MIME_TYPE_INVALID", "/buffers/0/uri"}}},
		{"buffer data URI with an empty parameter", bufferURI(";base64", ";;base64"), []want{{"INVALID_URI", "/buffers/0/uri"}}},
		{"buffer data URI without a media type", bufferURI("application/octet-stream", ""), []want{{"BUFFER_DATA_URI_MIME_TYPE_INVALID", "/buffers/0/uri"}}},
		{"buffer data URI media type without a subtype", bufferURI("application/octet-stream", "application"), []want{{"INVALID_URI", "/buffers/0/uri"}}},
		{"buffer data URI parameter without a name", bufferURI(";base64", ";=x;base64"), []want{{"INVALID_URI", "/buffers/0/uri"}}},
		{"buffer data URI with a named parameter", bufferURI(";base64", ";name=x;base64"), nil},
		// A stride may equal the view's length (one element); not exceed it,
		// and a view of indices has none.
		{"stride equal to the view's length", func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 12, le(t, []float32{1, 2, 3}))
			d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 1, "type": "VEC3"}`, v))
		}, nil},
		{"stride past the view's length", func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 16, le(t, []float32{1, 2, 3}))
			d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 1, "type": "VEC3"}`, v))
		}, []want{{"BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", "/bufferViews/10/byteStride"}}},
		{"stride on a view of indices", func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 4, le(t, []uint16{0, 1, 2, 0}))
			d.set(t, fmt.Sprintf("bufferViews/%d/target", v), 34963)
		}, []want{{"BUFFER_VIEW_INVALID_BYTE_STRIDE", "/bufferViews/10/byteStride"}}},
		// An accessor without a bufferView is zeros; a byteOffset needs one.
		{"accessor of zeros", func(t testing.TB, d jdoc) {
			d.add(t, "accessors", `{"componentType": 5126, "count": 2, "type": "SCALAR"}`)
		}, nil},
		{"accessor of zeros with a byteOffset", func(t testing.TB, d jdoc) {
			d.add(t, "accessors", `{"componentType": 5126, "count": 2, "type": "SCALAR", "byteOffset": 4}`)
		}, []want{{"UNSATISFIED_DEPENDENCY", "/accessors/10/byteOffset"}}},
		// glTF-Validator asks for a bufferView wherever byteOffset is
		// written, 0 included.
		{"accessor of zeros with a byteOffset of 0", func(t testing.TB, d jdoc) {
			d.add(t, "accessors", `{"componentType": 5126, "count": 2, "type": "SCALAR", "byteOffset": 0}`)
		}, []want{{"UNSATISFIED_DEPENDENCY", "/accessors/10/byteOffset"}}},
		// Identical objects are not duplicates: only arrays of indices and
		// names must hold unique items.
		{"two identical nodes", func(t testing.TB, d jdoc) {
			d.add(t, "nodes", `{"name": "leaf"}`)
			d.add(t, "nodes", `{"name": "leaf"}`)
			d.raw(t, "nodes/2/children", `[3, 4]`)
		}, nil},
		{"image declared JPEG holding PNG", func(t testing.TB, d jdoc) { d.set(t, "images/0/mimeType", "image/jpeg") },
			[]want{{"IMAGE_MIME_TYPE_INVALID", "/images/0/mimeType"}}},
		{"unused image of no known format", unusedImage("image/png", []byte("GIF89a")),
			[]want{{"IMAGE_UNRECOGNIZED_FORMAT", "/images/1"}}},
		{"unused image cut short", unusedImage("image/png", tinyPNG(4, 4)[:40]),
			[]want{{"IMAGE_UNEXPECTED_EOS", "/images/1"}}},
		{"unused JPEG with a broken marker", unusedImage("image/jpeg", []byte{0xFF, 0xD8, 0xFF, 0x00, 0, 0, 0, 0}),
			[]want{{"IMAGE_DATA_INVALID", "/images/1"}}},
		{"unused image in a strided view without a media type", func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 4, tinyPNG(2, 2))
			d.add(t, "images", fmt.Sprintf(`{"bufferView": %d}`, v))
		}, []want{{"UNSATISFIED_DEPENDENCY", "/images/1/bufferView"}, {"IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", "/images/1/bufferView"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := decodeEdited(t, tc.edit)
			var got []want
			for _, i := range m.Report.Issues {
				got = append(got, want{i.Code, i.Pointer})
				if i.Severity == Error && !slices.Contains(tc.want, want{i.Code, i.Pointer}) {
					t.Errorf("unexpected error %s", i)
				}
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("no %s at %s; the report: %q", w.code, w.ptr, m.Report.Lines(Hint, 0))
				}
			}
		})
	}
}

// A vertex whose weights are all zero keeps them: the skinning paths
// leave it at its bind position. The warning counts it.
func TestWeightlessVertex(t *testing.T) {
	d := skinnedDoc(t)
	d.patch(t, 4, []float32{1, 0, 0, 0, 0, 0, 0, 0})
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	p := &m.Meshes[0].Primitives[0]
	if w := p.Weights[4:8]; !slices.Equal(w, []float32{0, 0, 0, 0}) {
		t.Fatalf("weightless vertex 1 has weights %v; want all zero", w)
	}
	if len(m.Report.Issues) != 1 || m.Report.Issues[0].Code != "ACCESSOR_WEIGHTS_NON_NORMALIZED" || m.Report.Issues[0].Severity != Warning ||
		!strings.Contains(m.Report.Issues[0].Message, "1 vertices have no weight") {
		t.Fatalf("report %q; want one ACCESSOR_WEIGHTS_NON_NORMALIZED warning counting the vertex", m.Report.Lines(Hint, 0))
	}
}

// TestSkinnedMeshWithoutSkin is glTF-Validator's
// test/base/data/node/node_skinned_mesh_without_skin.gltf: a node whose
// mesh has JOINTS_0 and WEIGHTS_0 but which has no skin. Its report holds
// one warning, NODE_SKINNED_MESH_WITHOUT_SKIN at /nodes/0.
func TestSkinnedMeshWithoutSkin(t *testing.T) {
	doc := `{
	  "asset": {"version": "2.0"},
	  "nodes": [{"mesh": 0}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
	  "accessors": [
	    {"type": "VEC3", "componentType": 5126, "count": 3, "min": [0, 0, 0], "max": [1, 1, 1]},
	    {"type": "VEC4", "componentType": 5123, "count": 3},
	    {"type": "VEC4", "componentType": 5126, "count": 3}
	  ]
	}`
	m, err := Decode([]byte(doc), nil, "node_skinned_mesh_without_skin.gltf")
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	found := false
	for _, i := range m.Report.Issues {
		if i.Code == "NODE_SKINNED_MESH_WITHOUT_SKIN" {
			found = true
			if i.Pointer != "/nodes/0" || i.Severity != Warning {
				t.Errorf("%s: at %s, severity %v; want a warning at /nodes/0", i.Code, i.Pointer, i.Severity)
			}
		}
		if i.Severity == Error {
			t.Errorf("unexpected error %s", i)
		}
	}
	if !found {
		t.Errorf("no NODE_SKINNED_MESH_WITHOUT_SKIN; the report: %q", m.Report.Lines(Hint, 0))
	}
}

// TestSchemaHelpersAtTheirEdges: integer literals (digits, one leading
// minus, nothing else), values quoted in messages cut past 40 bytes to 37
// and "...", and line and column of offsets before, in and past the text.
func TestSchemaHelpersAtTheirEdges(t *testing.T) {
	for s, want := range map[string]bool{"0": true, "9": true, "-12": true, "": false, "-": false, "1.5": false, "/": false, ":": false, "1e3": false} {
		if got := isIntegerLiteral(s); got != want {
			t.Errorf("isIntegerLiteral(%q) = %v, want %v", s, got, want)
		}
	}
	forty := strings.Repeat("x", 40)
	if got := clip(forty); got != forty {
		t.Errorf("clip of 40 bytes: %q, want it whole", got)
	}
	if got := clip(forty + "y"); got != strings.Repeat("x", 37)+"..." {
		t.Errorf("clip of 41 bytes: %q, want 37 and ...", got)
	}
	text := []byte("ab\ncd")
	for _, tc := range []struct {
		off       int64
		line, col int
	}{{-3, 1, 1}, {0, 1, 1}, {4, 2, 2}, {99, 2, 3}} {
		if l, c := lineCol(text, tc.off); l != tc.line || c != tc.col {
			t.Errorf("lineCol(%d) = %d, %d; want %d, %d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

// decodeEdited is skinnedDoc with edit made to it, decoded; a refusal
// fails the test.
func decodeEdited(t *testing.T, edit func(t testing.TB, d jdoc)) *Model {
	t.Helper()
	d := skinnedDoc(t)
	edit(t, d)
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	return m
}

// TestValidationLinesExactly: each case's lines of one code, word for
// word, or none. Where data breaks a rule at several elements, the report
// names the first (glTF-Validator names each; the first is the one to look
// at), counted after sparse substitution; checks that apply to one
// semantic leave the others alone; each check's bound is tested on both
// sides. The first primitive's target count is the one the others must
// match (refused).
func TestValidationLinesExactly(t *testing.T) {
	sparse := func(t testing.TB, d jdoc, sparseVals []float32) {
		base := d.addBuffer(t, 0, le(t, []float32{0, 0, 5, 5, 0, 0}))
		idx := d.addBuffer(t, 0, []byte{1, 2})
		vals := d.addBuffer(t, 0, le(t, sparseVals))
		d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "VEC2", "min": [0, 0], "max": [1, 1],
		  "sparse": {"count": 2, "indices": {"bufferView": %d, "componentType": 5121}, "values": {"bufferView": %d}}}`, base, idx, vals))
	}
	tangents := func(data ...float32) func(t testing.TB, d jdoc) {
		return func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, data))
			a := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "VEC4"}`, v))
			d.set(t, "meshes/0/primitives/0/attributes/TANGENT", a)
		}
	}
	cameras := func(js string) func(t testing.TB, d jdoc) {
		return func(t testing.TB, d jdoc) { d.raw(t, "cameras", `[`+js+`]`) }
	}
	ortho := func(xmag, ymag, znear, zfar string) func(t testing.TB, d jdoc) {
		return cameras(`{"type": "orthographic", "orthographic": {"xmag": ` + xmag + `, "ymag": ` + ymag + `, "znear": ` + znear + `, "zfar": ` + zfar + `}}`)
	}
	persp := func(yfov, znear, zfar string) func(t testing.TB, d jdoc) {
		return cameras(`{"type": "perspective", "perspective": {"yfov": ` + yfov + `, "znear": ` + znear + `, "zfar": ` + zfar + `}}`)
	}
	// sampler adds animations[0].samplers[2] with keys at times (accessor
	// 10) and VEC3 values, three a key for CUBICSPLINE.
	sampler := func(interp string, times ...float32) func(t testing.TB, d jdoc) {
		return func(t testing.TB, d jdoc) {
			tv := d.addBuffer(t, 0, le(t, times))
			in := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": %d, "type": "SCALAR", "min": [%v], "max": [%v]}`,
				tv, len(times), times[0], times[len(times)-1]))
			n := len(times)
			if interp == "CUBICSPLINE" {
				n *= 3
			}
			ov := d.addBuffer(t, 0, le(t, make([]float32, 3*n)))
			out := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": %d, "type": "VEC3"}`, ov, n))
			d.add(t, "animations/0/samplers", fmt.Sprintf(`{"input": %d, "output": %d, "interpolation": %q}`, in, out, interp))
			d.add(t, "animations/0/channels", `{"sampler": 2, "target": {"node": 1, "path": "scale"}}`)
		}
	}
	prims := func(targets ...string) func(t testing.TB, d jdoc) {
		return func(t testing.TB, d jdoc) {
			var ps []string
			for _, tg := range targets {
				if tg != "" {
					tg = `, "targets": [` + tg + `]`
				}
				ps = append(ps, `{"attributes": {"POSITION": 0, "NORMAL": 1}`+tg+`}`)
			}
			d.raw(t, "meshes", `[{"primitives": [`+strings.Join(ps, ", ")+`]}]`)
			// accessors[10]: three displacements, no min or max.
			v := d.addBuffer(t, 0, le(t, make([]float32, 9)))
			d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "VEC3"}`, v))
			d.del(t, "nodes/0/skin")
		}
	}
	cases := []struct {
		name string
		edit func(t testing.TB, d jdoc)
		code string   // the code the case is about
		want []string // its lines, in order (none: the code must not appear)
	}{
		{"NaN at elements 0 and 2", func(t testing.TB, d jdoc) {
			v := d.addBuffer(t, 0, le(t, []float32{float32(math.NaN()), 1, float32(math.Inf(1))}))
			d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "SCALAR"}`, v))
		}, "ACCESSOR_INVALID_FLOAT", []string{"accessors[10]: element 0 is not a finite number"}},
		// Element 1's base value 5 is replaced by 1: within the bounds.
		{"sparse values within the bounds", func(t testing.TB, d jdoc) { sparse(t, d, []float32{1, 1, 0, 1}) },
			"ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", nil},
		{"sparse value above max", func(t testing.TB, d jdoc) { sparse(t, d, []float32{1, 1, 0, 3}) },
			"ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", []string{"accessors[10]: element 2 component 1 is above max[1] 1"}},
		{"sparse value above max, the mismatch", func(t testing.TB, d jdoc) { sparse(t, d, []float32{1, 1, 0, 3}) },
			"ACCESSOR_MAX_MISMATCH", []string{"accessors[10].max[1]: declared 1, the data's largest is 3"}},
		{"colour from accessor 0", func(t testing.TB, d jdoc) {
			d.patch(t, 0, []float32{0, 0, 0, 2, 0, 0, 0, 1, 0})
			d.raw(t, "accessors/0/max", `[2, 1, 0]`)
			d.set(t, "meshes/0/primitives/0/attributes/COLOR_0", 0)
		}, "ACCESSOR_NON_CLAMPED", []string{"meshes[0].primitives[0].attributes.COLOR_0: colour 1 is outside [0, 1]"}},
		{"tangents of zeros the file never wrote", func(t testing.TB, d jdoc) {
			a := d.add(t, "accessors", `{"componentType": 5126, "count": 3, "type": "VEC4"}`)
			d.set(t, "meshes/0/primitives/0/attributes/TANGENT", a)
		}, "ACCESSOR_INVALID_SIGN", nil},
		// 256 vertices, so that the restart value of byte indices, 255,
		// is a vertex; it is at elements 0 and 3.
		{"byte indices at the restart value", func(t testing.TB, d jdoc) {
			pos := make([]float32, 3*256)
			for v := range 256 {
				pos[3*v], pos[3*v+1] = float32(v%16), float32(v/16)
			}
			pv := d.addBuffer(t, 0, le(t, pos))
			a := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 256, "type": "VEC3", "min": [0, 0, 0], "max": [15, 15, 0]}`, pv))
			iv := d.addBuffer(t, 0, []byte{255, 1, 2, 255, 4, 5})
			b := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5121, "count": 6, "type": "SCALAR"}`, iv))
			d.raw(t, "meshes", fmt.Sprintf(`[{"primitives": [{"attributes": {"POSITION": %d}, "indices": %d}]}]`, a, b))
			d.del(t, "nodes/0/skin")
		}, "ACCESSOR_INDEX_PRIMITIVE_RESTART", []string{"meshes[0].primitives[0].indices: index 0 is 255, the primitive restart value, which glTF does not allow"}},
		{"tangents long along y, then z", tangents(1, 0, 0, 1, 0, 2, 0, 1, 0, 0, 2, 1),
			"ACCESSOR_VECTOR3_NON_UNIT", []string{"meshes[0].primitives[0].attributes.TANGENT: tangent 1 is not of unit length"}},
		{"tangents long along z, then y", tangents(1, 0, 0, 1, 0, 0, 2, 1, 0, 2, 0, 1),
			"ACCESSOR_VECTOR3_NON_UNIT", []string{"meshes[0].primitives[0].attributes.TANGENT: tangent 1 is not of unit length"}},
		{"tangents long at 0 and 2", tangents(2, 0, 0, 1, 1, 0, 0, 1, 0, 0, 2, 1),
			"ACCESSOR_VECTOR3_NON_UNIT", []string{"meshes[0].primitives[0].attributes.TANGENT: tangent 0 is not of unit length"}},
		{"orthographic of magnification 1", ortho("1", "1", "0", "1"), "CAMERA_XMAG_YMAG_NEGATIVE", nil},
		{"orthographic of magnification 1, the depth range", ortho("1", "1", "0", "1"), "CAMERA_ZFAR_LEQUAL_ZNEAR", nil},
		{"orthographic of no ymag", ortho("1", "0", "0", "1"), "CAMERA_XMAG_YMAG_ZERO", []string{"cameras[0].orthographic: xmag and ymag must not be zero"}},
		{"orthographic of negative xmag", ortho("-1", "1", "0", "1"), "CAMERA_XMAG_YMAG_NEGATIVE", []string{"cameras[0].orthographic: xmag or ymag is negative: the image is flipped"}},
		{"orthographic of negative ymag", ortho("1", "-1", "0", "1"), "CAMERA_XMAG_YMAG_NEGATIVE", []string{"cameras[0].orthographic: xmag or ymag is negative: the image is flipped"}},
		{"orthographic far at near", ortho("1", "1", "1", "1"), "CAMERA_ZFAR_LEQUAL_ZNEAR", []string{"cameras[0].orthographic.zfar: 1 is not beyond znear 1"}},
		{"perspective far at near", persp("1", "1", "1"), "CAMERA_ZFAR_LEQUAL_ZNEAR", []string{"cameras[0].perspective.zfar: 1 is not beyond znear 1"}},
		{"perspective of a field of view of π", persp("3.141592653589793", "1", "2"), "CAMERA_YFOV_GEQUAL_PI",
			[]string{"cameras[0].perspective.yfov: 3.141592653589793 radians is half a turn or more"}},
		{"perspective of a field of view of 1", persp("1", "1", "2"), "CAMERA_YFOV_GEQUAL_PI", nil},
		{"spline of one key", sampler("CUBICSPLINE", 0), "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS",
			[]string{"animations[0].samplers[2].input: 1 key for CUBICSPLINE, which needs at least 2"}},
		{"spline of two keys", sampler("CUBICSPLINE", 0, 1), "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", nil},
		{"linear sampler of one key", sampler("LINEAR", 0), "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", nil},
		{"a skinned node whose joints are in no scene with it", func(t testing.TB, d jdoc) { d.raw(t, "scenes/0/nodes", `[0]`) },
			"NODE_SKIN_NO_SCENE", []string{"nodes[0]: in scenes[0], but joint nodes[1] of its skin is not"}},
		{"a skinned node in no scene", func(t testing.TB, d jdoc) { d.raw(t, "scenes/0/nodes", `[1]`) }, "NODE_SKIN_NO_SCENE", nil},
		{"joints in two trees, the first rooted at node 0", func(t testing.TB, d jdoc) { d.raw(t, "skins/0/joints", `[0, 1]`) },
			"SKIN_NO_COMMON_ROOT", []string{"skins[0].joints: nodes[0] and nodes[1] are in different trees; a skin's joints have one common root"}},
		{"two inverse bind matrices with a projective row", func(t testing.TB, d jdoc) {
			d.patch(t, 6, []float32{1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0.5})
		}, "ACCESSOR_INVALID_IBM", []string{"accessors[6]: inverse bind matrix 0 does not end in the row 0 0 0 1"}},
		{"a target's normals without bounds", prims(`{"NORMAL": 10}`), "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", nil},
		{"a target's positions without bounds", prims(`{"POSITION": 10}`),
			"MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", []string{"meshes[0].primitives[0].targets[0].POSITION: accessors[10] has no min and max, which glTF requires of positions"}},
	}
	d := skinnedDoc(t)
	prims("", `{"POSITION": 10}`, "")(t, d)
	_, err := Decode(d.bytes(t), nil, "t.gltf")
	const targets = "meshes[0].primitives[1].targets: 1 morph targets, but primitives[0] has 0; every primitive of a mesh has the same number"
	if err == nil || !strings.HasSuffix(err.Error(), targets) || RefusalCode(err) != "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT" {
		t.Errorf("targets 0, 1, 0: refusal %v, code %s; want %q, MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", err, RefusalCode(err), targets)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := decodeEdited(t, tc.edit)
			var got []string
			for _, i := range m.Report.Issues {
				if i.Code == tc.code {
					got = append(got, i.Message)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: %q, want %q; the report: %q", tc.code, got, tc.want, m.Report.Lines(Hint, 0))
			}
		})
	}
}
