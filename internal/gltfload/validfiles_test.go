package gltfload

import (
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// Files glTF-Validator reports without errors load: what the viewer cannot
// draw is named in the report, with the validator's code where it has one.

// quadDoc is a document of one mesh whose primitives are extra (JSON of
// primitive objects), over buffer 0 (a data URI of data) and the buffers,
// views and accessors given, with one node and one scene.
func quadDoc(data []byte, buffers, views, accessors, prims string) []byte {
	uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(data)
	return fmt.Appendf(nil, `{"asset": {"version": "2.0"},
	 "buffers": [{"uri": %q, "byteLength": %d}%s],
	 "bufferViews": [%s], "accessors": [%s],
	 "meshes": [{"primitives": [%s]}], "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}`,
		uri, len(data), buffers, views, accessors, prims)
}

// fourVertices are positions (0,0,0) (1,0,0) (0,1,0) (1,1,0), 48 bytes.
func fourVertices(t testing.TB) []byte {
	return le(t, []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0})
}

const posAccessor = `{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}`

func issueAt(m *Model, code, pointer string) bool {
	for _, i := range m.Report.Issues {
		if i.Code == code && i.Pointer == pointer {
			return true
		}
	}
	return false
}

func TestValidatorValidFilesLoad(t *testing.T) {
	cases := []struct {
		name  string
		doc   func(t testing.TB) []byte
		code  string // the report line the file must carry
		where string // its JSON pointer
		check func(t *testing.T, m *Model)
	}{
		{name: "buffer without uri that nothing reads",
			doc: func(testing.TB) []byte {
				return []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 74}]}`)
			},
			code: "VIEWER_NOTE", where: "/buffers/0"},
		{name: "http buffer that nothing reads",
			doc: func(testing.TB) []byte {
				return []byte(`{"asset": {"version": "2.0"}, "buffers": [{"uri": "http://example.com/buffer.bin", "byteLength": 2}]}`)
			},
			code: "NON_RELATIVE_URI", where: "/buffers/0/uri"},
		{name: "primitive reading an http buffer is not drawn, the others are",
			doc: func(t testing.TB) []byte {
				return quadDoc(fourVertices(t), `, {"uri": "https://example.com/more.bin", "byteLength": 48}`,
					`{"buffer": 0, "byteLength": 48}, {"buffer": 1, "byteLength": 48}`,
					posAccessor+`, {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]}`,
					`{"attributes": {"POSITION": 0}}, {"attributes": {"POSITION": 1}}`)
			},
			code: "VIEWER_NOT_DRAWN", where: "/meshes/0/primitives/1",
			check: func(t *testing.T, m *Model) {
				if len(m.Meshes[0].Primitives) != 1 || m.Meshes[0].Primitives[0].NumVertices() != 4 {
					t.Fatalf("want primitive 0 alone (4 vertices), got %d primitives", len(m.Meshes[0].Primitives))
				}
			}},
		{name: "empty scene",
			doc: func(testing.TB) []byte {
				return []byte(`{"asset": {"version": "2.0"}, "scenes": [{"extras": 1}], "scene": 0}`)
			},
			code: "VIEWER_NOTE", where: "/scenes/0",
			check: func(t *testing.T, m *Model) {
				if len(m.Instances) != 0 {
					t.Fatalf("%d instances in an empty scene", len(m.Instances))
				}
			}},
		{name: "minVersion 2.1",
			doc:  func(testing.TB) []byte { return []byte(`{"asset": {"version": "2.1", "minVersion": "2.1"}}`) },
			code: "UNKNOWN_ASSET_MINOR_VERSION", where: "/asset/version",
			check: func(t *testing.T, m *Model) {
				if !issueAt(m, "VIEWER_NOTE", "/asset/minVersion") {
					t.Fatalf("no note on minVersion: %q", m.Report.Lines(Hint, 0))
				}
			}},
		{name: "minVersion 2.1 above version 2.0",
			doc:  func(testing.TB) []byte { return []byte(`{"asset": {"version": "2.0", "minVersion": "2.1"}}`) },
			code: "ASSET_MIN_VERSION_GREATER_THAN_VERSION", where: "/asset/minVersion"},
		{name: "four vertices as triangles: the fourth is ignored",
			doc: func(t testing.TB) []byte {
				return quadDoc(fourVertices(t), "", `{"buffer": 0, "byteLength": 48}`, posAccessor, `{"attributes": {"POSITION": 0}}`)
			},
			code: "MESH_PRIMITIVE_INCOMPATIBLE_MODE", where: "/meshes/0/primitives/0",
			check: func(t *testing.T, m *Model) {
				// Non-indexed, vertices 0 1 2 make the one whole triangle.
				if got := m.Meshes[0].Primitives[0].Indices; !slices.Equal(got, []uint32{0, 1, 2}) {
					t.Fatalf("indices %v, want [0 1 2]", got)
				}
			}},
		{name: "zero normal",
			doc: func(t testing.TB) []byte {
				data := append(fourVertices(t), le(t, []float32{0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 1})...)
				return quadDoc(data, "", `{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 48}`,
					posAccessor+`, {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"}`,
					`{"attributes": {"POSITION": 0, "NORMAL": 1}, "mode": 5}`)
			},
			code: "ACCESSOR_VECTOR3_NON_UNIT", where: "/meshes/0/primitives/0/attributes/NORMAL",
			check: func(t *testing.T, m *Model) {
				// The zero stays zero (the shader faces it to the camera);
				// (0, 0, 2) has length 2 and becomes (0, 0, 1).
				want := []float32{0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1}
				if got := m.Meshes[0].Primitives[0].Normals; !slices.Equal(got, want) {
					t.Fatalf("normals %v, want %v", got, want)
				}
			}},
		{name: "repeated key times make a step",
			doc: func(t testing.TB) []byte {
				data := append(fourVertices(t), le(t, []float32{0, 1, 1, 2}, []float32{0, 0, 0, 1, 0, 0, 5, 0, 0, 6, 0, 0})...)
				js := quadDoc(data, "", `{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 16}, {"buffer": 0, "byteOffset": 64, "byteLength": 48}`,
					posAccessor+`, {"bufferView": 1, "componentType": 5126, "count": 4, "type": "SCALAR", "min": [0], "max": [2]}, {"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC3"}`,
					`{"attributes": {"POSITION": 0}, "mode": 5}`)
				return append(js[:len(js)-1], `, "animations": [{"samplers": [{"input": 1, "output": 2}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]}`...)
			},
			code: "ACCESSOR_ANIMATION_INPUT_NON_INCREASING", where: "/animations/0/samplers/0/input",
			check: func(t *testing.T, m *Model) {
				c := m.Clips[0]
				if err := c.Validate(m.Skeleton.NumJoints()); err != nil {
					t.Fatal(err)
				}
				tr := c.Tracks[0]
				// The later key (x = 5) holds from t = 1 on; the earlier
				// (x = 1) is reached within a millionth of a second before.
				if tr.Times[0] != 0 || tr.Times[2] != 1 || tr.Times[3] != 2 || !(tr.Times[1] < 1 && tr.Times[1] >= 1-2e-6) {
					t.Fatalf("times %v, want [0, just under 1, 1, 2]", tr.Times)
				}
				if tr.Values[3] != 1 || tr.Values[6] != 5 {
					t.Fatalf("values %v: keys 1 and 2 hold x = 1 and x = 5", tr.Values)
				}
			}},
		{name: "texture on a coordinate set the primitive lacks",
			doc: func(t testing.TB) []byte {
				js := quadDoc(fourVertices(t), "", `{"buffer": 0, "byteLength": 48}`, posAccessor, `{"attributes": {"POSITION": 0}, "material": 0, "mode": 5}`)
				return append(js[:len(js)-1], `, "materials": [{"emissiveTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"texCoord": 2}}}}],
				 "textures": [{}], "extensionsUsed": ["KHR_texture_transform"]}`...)
			},
			code: "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", where: "/meshes/0/primitives/0/material"},
		{name: "texture on coordinate set 65536, which the primitive lacks",
			doc: func(t testing.TB) []byte {
				js := quadDoc(fourVertices(t), "", `{"buffer": 0, "byteLength": 48}`, posAccessor, `{"attributes": {"POSITION": 0}, "material": 0, "mode": 5}`)
				return append(js[:len(js)-1], `, "materials": [{"emissiveTexture": {"index": 0, "texCoord": 65536}}], "textures": [{}]}`...)
			},
			code: "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", where: "/meshes/0/primitives/0/material",
			check: func(t *testing.T, m *Model) {
				if found := messagesWith(m, "TEXCOORD_65536"); len(found) != 1 {
					t.Fatalf("want one line naming TEXCOORD_65536, got %q", m.Report.Lines(Hint, 0))
				}
			}},
		{name: "primitive without POSITION, its other attributes of any count, is not drawn",
			doc: func(t testing.TB) []byte {
				return quadDoc(le(t, []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}), "", `{"buffer": 0, "byteLength": 48}`,
					`{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"}`, `{"attributes": {"NORMAL": 0}}`)
			},
			code: "MESH_PRIMITIVE_NO_POSITION", where: "/meshes/0/primitives/0"},
		{name: "texture on TEXCOORD_0, which the primitive lacks",
			doc: func(t testing.TB) []byte {
				js := quadDoc(fourVertices(t), "", `{"buffer": 0, "byteLength": 48}`, posAccessor, `{"attributes": {"POSITION": 0}, "material": 0, "mode": 5}`)
				return append(js[:len(js)-1], `, "materials": [{"emissiveTexture": {"index": 0}}], "textures": [{}]}`...)
			},
			code: "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", where: "/meshes/0/primitives/0/material"},
		// glTF-Validator: a vertex attribute's accessor.byteOffset is a
		// multiple of 4; here it is 1, on a view at byte 49.
		{name: "vertex colours at byte 50 of the buffer",
			doc: func(t testing.TB) []byte {
				data := append(fourVertices(t), make([]byte, 2+16)...)
				return quadDoc(data, "", `{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 49, "byteLength": 17}`,
					posAccessor+`, {"bufferView": 1, "byteOffset": 1, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC4"}`,
					`{"attributes": {"POSITION": 0, "COLOR_0": 1}, "mode": 5}`)
			},
			code: "MESH_PRIMITIVE_ACCESSOR_UNALIGNED", where: "/meshes/0/primitives/0/attributes/COLOR_0"},
		{name: "one accessor as POSITION and NORMAL: the normals are normalized, the positions stay",
			doc: func(t testing.TB) []byte {
				return quadDoc(le(t, []float32{2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 4}), "", `{"buffer": 0, "byteLength": 48}`,
					`{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [2, 2, 4]}`,
					`{"attributes": {"POSITION": 0, "NORMAL": 0}, "mode": 5}`)
			},
			code: "ACCESSOR_VECTOR3_NON_UNIT", where: "/meshes/0/primitives/0/attributes/NORMAL",
			check: func(t *testing.T, m *Model) {
				if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 1 {
					t.Fatalf("%d meshes, want 1 of 1 primitive", len(m.Meshes))
				}
				p := m.Meshes[0].Primitives[0]
				if want := []float32{2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 4}; !slices.Equal(p.Positions, want) {
					t.Errorf("positions %v, want %v", p.Positions, want)
				}
				if want := []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1}; !slices.Equal(p.Normals, want) {
					t.Errorf("normals %v, want %v", p.Normals, want)
				}
			}},
		{name: "two zero normals in a bufferView: the first is named, both stay zero",
			doc: func(t testing.TB) []byte {
				data := append(fourVertices(t), le(t, []float32{0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1})...)
				return quadDoc(data, "", `{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 48}`,
					posAccessor+`, {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"}`,
					`{"attributes": {"POSITION": 0, "NORMAL": 1}, "mode": 5}`)
			},
			code: "ACCESSOR_VECTOR3_NON_UNIT", where: "/meshes/0/primitives/0/attributes/NORMAL",
			check: func(t *testing.T, m *Model) {
				if found := messagesWith(m, "has no direction"); len(found) != 1 || !strings.Contains(found[0], "vertex 1 has normal (0, 0, 0)") {
					t.Errorf("want one line naming vertex 1's normal, got %q", m.Report.Lines(Hint, 0))
				}
				if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 1 {
					t.Fatalf("%d meshes, want 1 of 1 primitive", len(m.Meshes))
				}
				if got, want := m.Meshes[0].Primitives[0].Normals, []float32{0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1}; !slices.Equal(got, want) {
					t.Errorf("normals %v, want %v", got, want)
				}
			}},
		{name: "primitive reading a buffer without uri is not drawn",
			doc: func(testing.TB) []byte {
				return []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 48}], "bufferViews": [{"buffer": 0, "byteLength": 48}],
				 "accessors": [` + posAccessor + `], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}`)
			},
			code: "VIEWER_NOT_DRAWN", where: "/meshes/0/primitives/0",
			check: func(t *testing.T, m *Model) {
				if len(m.Meshes[0].Primitives) != 0 {
					t.Fatalf("%d primitives drawn from a buffer without bytes", len(m.Meshes[0].Primitives))
				}
			}},
		// glTF-Validator judges the layout of data it cannot read; so does
		// the loader, for primitives it does not draw.
		{name: "undrawn primitive with a view whose target is for indices",
			doc: func(testing.TB) []byte {
				return []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 48}], "bufferViews": [{"buffer": 0, "byteLength": 48, "target": 34963}],
				 "accessors": [` + posAccessor + `], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}]}`)
			},
			code: "BUFFER_VIEW_TARGET_OVERRIDE", where: "/meshes/0/primitives/0/attributes/POSITION"},
		{name: "undrawn primitive with two attributes in a view without byteStride",
			doc: func(testing.TB) []byte {
				return []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 96}], "bufferViews": [{"buffer": 0, "byteLength": 96}],
				 "accessors": [` + posAccessor + `, {"bufferView": 0, "byteOffset": 48, "componentType": 5126, "count": 4, "type": "VEC3"}],
				 "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}}]}]}`)
			},
			code: "MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", where: "/bufferViews/0"},
		{name: "animation channel reading an http buffer is not played",
			doc: func(t testing.TB) []byte {
				js := quadDoc(fourVertices(t), `, {"uri": "http://example.com/anim.bin", "byteLength": 32}`,
					`{"buffer": 0, "byteLength": 48}, {"buffer": 1, "byteLength": 8}, {"buffer": 1, "byteOffset": 8, "byteLength": 24}`,
					posAccessor+`, {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]}, {"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"}`,
					`{"attributes": {"POSITION": 0}, "mode": 5}`)
				return append(js[:len(js)-1], `, "animations": [{"samplers": [{"input": 1, "output": 2}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]}`...)
			},
			code: "VIEWER_NOT_DRAWN", where: "/animations/0/channels/0",
			check: func(t *testing.T, m *Model) {
				if len(m.Clips) != 1 || len(m.Clips[0].Tracks) != 0 || len(m.Meshes[0].Primitives) != 1 {
					t.Fatalf("%d clips, %d primitives: want the clip without its track and the square drawn", len(m.Clips), len(m.Meshes[0].Primitives))
				}
			}},
		{name: "unknown accessor type that nothing reads",
			doc: func(testing.TB) []byte {
				return []byte(`{"asset": {"version": "2.0"}, "accessors": [{"componentType": 5126, "count": 24, "type": "NotaVEC3"}]}`)
			},
			code: "VALUE_NOT_IN_LIST", where: "/accessors/0/type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode(tc.doc(t), nil, "t.gltf")
			if err != nil {
				t.Fatal(err)
			}
			if !issueAt(m, tc.code, tc.where) {
				t.Fatalf("no %s at %s in the report: %q", tc.code, tc.where, m.Report.Lines(Hint, 0))
			}
			if tc.check != nil {
				tc.check(t, m)
			}
		})
	}
}

// A matrix's last column ends without its padding (glTF §3.6.2.4): two
// MAT2 of bytes are 4+2 bytes for the last and 8 before it, 14 in all.
func TestMatrixViewEndsAtItsLastColumn(t *testing.T) {
	data := make([]byte, 14+16+23+1+46)
	uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(data)
	js := fmt.Sprintf(`{"asset": {"version": "2.0"}, "buffers": [{"uri": %q, "byteLength": %d}],
	 "bufferViews": [{"buffer": 0, "byteLength": 14}, {"buffer": 0, "byteOffset": 14, "byteLength": 16},
	   {"buffer": 0, "byteOffset": 30, "byteLength": 23}, {"buffer": 0, "byteOffset": 54, "byteLength": 46}],
	 "accessors": [{"type": "MAT2", "componentType": 5120, "count": 2, "bufferView": 0},
	   {"type": "MAT2", "componentType": 5122, "count": 2, "bufferView": 1},
	   {"type": "MAT3", "componentType": 5121, "count": 2, "bufferView": 2},
	   {"type": "MAT3", "componentType": 5123, "count": 2, "bufferView": 3}]}`, uri, len(data))
	// By hand: MAT2 short 8+8; MAT3 ubyte 12 + (4+4+3) = 23; MAT3 ushort
	// 24 + (8+8+6) = 46.
	if _, err := Decode([]byte(js), nil, "t.gltf"); err != nil {
		t.Fatal(err)
	}
	short := []byte(strings.Replace(js, `"byteLength": 14}`, `"byteLength": 13}`, 1))
	if _, err := Decode(short, nil, "t.gltf"); err == nil {
		t.Fatal("a view one byte short of the last column's data loaded")
	}
}

// What cannot be read safely stays a refusal that names it.
func TestUnreadableDataStaysRefused(t *testing.T) {
	cases := []struct{ name, doc, want string }{
		{name: "primitive reading an accessor of unknown type",
			doc: `{"asset": {"version": "2.0"}, "accessors": [{"componentType": 5126, "count": 3, "type": "VEC5"}],
			 "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}]}`,
			want: `gltfload: t.gltf: meshes[0].primitives[0].attributes.POSITION: accessors[0].type: "VEC5" is not one of SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3, MAT4`},
		{name: "view outside the declared length of an http buffer",
			doc:  `{"asset": {"version": "2.0"}, "buffers": [{"uri": "http://example.com/a.bin", "byteLength": 8}], "bufferViews": [{"buffer": 0, "byteLength": 48}]}`,
			want: "gltfload: t.gltf: bufferViews[0]: bytes [0, 48) lie outside buffers[0], which has 8 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.doc), nil, "t.gltf")
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v\nwant %s", err, tc.want)
			}
		})
	}
}

// Unit vectors are unit to within glTF-Validator's tolerance, which is
// slightly more than signed 8-bit quantization's error (0.00674 for
// normals and tangents, 0.00769 for rotation keys): normals written as
// KHR_mesh_quantization bytes, as glTF-Transform's quantize writes them,
// carry no error, and lengths past the tolerance still do.
func TestUnitVectorsWithinValidatorTolerance(t *testing.T) {
	// (0, 90, 90)/127 has length 1.00222: within a byte's precision of 1.
	byteNormals := le(t, []int8{0, 0, 127, 0, 0, 90, 90, 0, 127, 0, 0, 0, 0, -127, 0, 0})
	quantized := func(t testing.TB) []byte {
		js := quadDoc(append(fourVertices(t), byteNormals...), "",
			`{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 16, "byteStride": 4}`,
			posAccessor+`, {"bufferView": 1, "componentType": 5120, "normalized": true, "count": 4, "type": "VEC3"}`,
			`{"attributes": {"POSITION": 0, "NORMAL": 1}, "mode": 5}`)
		return append(js[:len(js)-1], `, "extensionsUsed": ["KHR_mesh_quantization"], "extensionsRequired": ["KHR_mesh_quantization"]}`...)
	}
	floatNormals := func(length float32) func(t testing.TB) []byte {
		return func(t testing.TB) []byte {
			data := append(fourVertices(t), le(t, []float32{0, 0, 1, 0, 0, length, 0, 0, 1, 0, 0, 1})...)
			return quadDoc(data, "", `{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 48}`,
				posAccessor+`, {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"}`,
				`{"attributes": {"POSITION": 0, "NORMAL": 1}, "mode": 5}`)
		}
	}
	rotationKeys := func(length float32) func(t testing.TB) []byte {
		return func(t testing.TB) []byte {
			data := append(fourVertices(t), le(t, []float32{0, 1, 0, 0, 0, 1, 0, 0, 0, length})...)
			js := quadDoc(data, "", `{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 8}, {"buffer": 0, "byteOffset": 56, "byteLength": 32}`,
				posAccessor+`, {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]}, {"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC4"}`,
				`{"attributes": {"POSITION": 0}, "mode": 5}`)
			return append(js[:len(js)-1], `, "animations": [{"samplers": [{"input": 1, "output": 2}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}]}]}`...)
		}
	}
	const normal, keys = "/meshes/0/primitives/0/attributes/NORMAL", "/animations/0/samplers/0/output"
	cases := []struct {
		name      string
		doc       func(t testing.TB) []byte
		code, at  string
		wantIssue bool
	}{
		{"byte normals one quantization step from unit", quantized, "ACCESSOR_VECTOR3_NON_UNIT", normal, false},
		{"float normal 0.005 from unit", floatNormals(1.005), "ACCESSOR_VECTOR3_NON_UNIT", normal, false},
		{"float normal 0.01 from unit", floatNormals(1.01), "ACCESSOR_VECTOR3_NON_UNIT", normal, true},
		{"rotation key 0.007 from unit", rotationKeys(1.007), "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", keys, false},
		{"rotation key 0.01 from unit", rotationKeys(1.01), "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", keys, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode(tc.doc(t), nil, "t.gltf")
			if err != nil {
				t.Fatal(err)
			}
			if got := issueAt(m, tc.code, tc.at); got != tc.wantIssue {
				t.Fatalf("%s at %s reported: %v, want %v: %q", tc.code, tc.at, got, tc.wantIssue, m.Report.Lines(Hint, 0))
			}
			if n := m.Meshes[0].Primitives[0].Normals; len(n) == 12 {
				for v := range 4 {
					x, y, z := float64(n[3*v]), float64(n[3*v+1]), float64(n[3*v+2])
					if l := math.Sqrt(x*x + y*y + z*z); math.Abs(l-1) > 1e-6 {
						t.Errorf("normal %d has length %v, want it normalized", v, l)
					}
				}
			}
		})
	}
}

// A file that names no scene leaves the choice to the viewer (glTF
// §3.6): it shows the first scene with nodes, not an empty scenes[0]
// before the one that holds the model; a file that names its scene gets
// it, empty or not.
func TestSceneShownWithoutSceneField(t *testing.T) {
	cases := []struct {
		name, scenes string
		drawn        int
	}{
		{"first scene holds the model", `"scenes": [{"nodes": [0]}, {}]`, 1},
		{"empty first scene, no scene field", `"scenes": [{}, {"nodes": [0]}]`, 1},
		{"empty first scene named by the file", `"scenes": [{}, {"nodes": [0]}], "scene": 0`, 0},
		{"only empty scenes", `"scenes": [{}, {}]`, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := quadDoc(fourVertices(t), "", `{"buffer": 0, "byteLength": 48}`, posAccessor, `{"attributes": {"POSITION": 0}, "mode": 5}`)
			doc = []byte(strings.Replace(string(doc), `"scenes": [{"nodes": [0]}], "scene": 0`, tc.scenes, 1))
			m, err := Decode(doc, nil, "t.gltf")
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Instances) != tc.drawn {
				t.Errorf("%d drawn instances, want %d; report %q", len(m.Instances), tc.drawn, m.Report.Lines(Hint, 0))
			}
		})
	}
}

// TestStrideWarnedOnTheFirstView: a byteStride on a view of indices is
// named (glTF allows it only for vertex attributes) where that view and
// its accessor are the file's first (index 0), and the indices are read
// with the stride: u16 0, 1, 2 every 4 bytes.
func TestStrideWarnedOnTheFirstView(t *testing.T) {
	data := append(le(t, []uint16{0, 0xffff, 1, 0xffff, 2, 0xffff}), fourVertices(t)...)
	js := quadDoc(data, "", `{"buffer": 0, "byteLength": 12, "byteStride": 4}, {"buffer": 0, "byteOffset": 12, "byteLength": 48}`,
		`{"bufferView": 0, "componentType": 5123, "count": 3, "type": "SCALAR"},
		 {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}`,
		`{"attributes": {"POSITION": 1}, "indices": 0}`)
	m, err := Decode(js, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if !issueAt(m, "MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE", "/bufferViews/0/byteStride") {
		t.Errorf("no stride warning on bufferViews[0]: %q", m.Report.Lines(Hint, 0))
	}
	if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 1 {
		t.Fatalf("%d meshes; want one of one primitive", len(m.Meshes))
	}
	if got := m.Meshes[0].Primitives[0].Indices; !slices.Equal(got, []uint32{0, 1, 2}) {
		t.Errorf("indices %v, want [0 1 2]", got)
	}
}

// TestPartialPrimitivesNamed: vertices or indices that do not fill the
// primitive's last line are named as what they are: 3 vertices of mode
// LINES, 3 indices of mode LINES.
func TestPartialPrimitivesNamed(t *testing.T) {
	for _, tc := range []struct{ prim, want string }{
		{`{"attributes": {"POSITION": 0}, "mode": 1}`, "MESH_PRIMITIVE_INCOMPATIBLE_MODE meshes[0].primitives[0]: 3 vertices do not make whole lines (mode LINES); the last is ignored"},
		{`{"attributes": {"POSITION": 0}, "indices": 1, "mode": 1}`, "MESH_PRIMITIVE_INCOMPATIBLE_MODE meshes[0].primitives[0]: 3 indices do not make whole lines (mode LINES); the last is ignored"},
	} {
		data := append(le(t, []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}), le(t, []uint16{0, 1, 2, 0})...)
		js := quadDoc(data, "", `{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 8}`,
			`{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
			 {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}`, tc.prim)
		m, err := Decode(js, nil, "t.gltf")
		if err != nil {
			t.Fatal(err)
		}
		if lines := issueLines(m); !slices.Contains(lines, tc.want) {
			t.Errorf("report %q; want %q", lines, tc.want)
		}
	}
	// Two indices make a whole line: nothing to name.
	data := append(le(t, []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}), le(t, []uint16{0, 1})...)
	js := quadDoc(data, "", `{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 4}`,
		`{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
		 {"bufferView": 1, "componentType": 5123, "count": 2, "type": "SCALAR"}`, `{"attributes": {"POSITION": 0}, "indices": 1, "mode": 1}`)
	m, err := Decode(js, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range issueLines(m) {
		if strings.Contains(line, "MESH_PRIMITIVE_INCOMPATIBLE_MODE") {
			t.Errorf("two indices of mode LINES: %q", line)
		}
	}
}

// TestTargetNamesCounted: extras.targetNames are the morph targets'
// names; more names than targets are named in the report and the extra
// ones left out, as many are read as they are.
func TestTargetNamesCounted(t *testing.T) {
	for _, tc := range []struct {
		names string
		want  []string
		note  bool
	}{
		{`["smile"]`, []string{"smile"}, false},
		{`["smile", "frown"]`, []string{"smile"}, true},
	} {
		d := skinnedDoc(t)
		d.raw(t, "meshes/0/primitives/0/targets", `[{"POSITION": 1}]`)
		d.raw(t, "meshes/0/extras", `{"targetNames": `+tc.names+`}`)
		m, err := Decode(d.bytes(t), nil, "t.gltf")
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Meshes) != 1 {
			t.Fatalf("%s: %d meshes, want 1", tc.names, len(m.Meshes))
		}
		if got := m.Meshes[0].TargetNames; !slices.Equal(got, tc.want) {
			t.Errorf("%s: names %v; want %v", tc.names, got, tc.want)
		}
		if got := issueAt(m, "VIEWER_NOTE", "/meshes/0/extras/targetNames"); got != tc.note {
			t.Errorf("%s: a note on the names %v, want %v: %q", tc.names, got, tc.note, m.Report.Lines(Hint, 0))
		}
	}
}

// TestNodeMeshAndMorphDefaults: NodeMesh and NodeMorph are -1 for nodes
// without a mesh or without morph targets; a node's own weights, one per
// target, override the mesh's as the rest weights (glTF §3.7.2.2).
func TestNodeMeshAndMorphDefaults(t *testing.T) {
	d := skinnedDoc(t)
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.NodeMesh, []int{0, -1, -1}) || !slices.Equal(m.NodeMorph, []int{-1, -1, -1}) {
		t.Errorf("node meshes %v, morph channels %v; want [0 -1 -1] and [-1 -1 -1]", m.NodeMesh, m.NodeMorph)
	}
	d.raw(t, "meshes/0/primitives/0/targets", `[{"POSITION": 1}]`)
	d.raw(t, "meshes/0/weights", `[0.25]`)
	d.raw(t, "nodes/0/weights", `[0.75]`)
	if m, err = Decode(d.bytes(t), nil, "t.gltf"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.NodeMorph, []int{0, -1, -1}) || !slices.Equal(m.Skeleton.MorphRest, []float32{0.75}) {
		t.Errorf("morph channels %v, rest weights %v; want [0 -1 -1] and the node's [0.75]", m.NodeMorph, m.Skeleton.MorphRest)
	}
}

// TestFinite32AtItsBound: the largest float32 is finite in single
// precision; the next value up is not.
func TestFinite32AtItsBound(t *testing.T) {
	if !finite32(math.MaxFloat32, -math.MaxFloat32) {
		t.Error("±MaxFloat32 read as not finite")
	}
	if finite32(math.MaxFloat32 * (1 + 1e-7)) {
		t.Error("past MaxFloat32 read as finite")
	}
}

// TestNodesAndSkinsByHand: an unnamed node's joint is named "node<index>";
// a non-unit rotation is normalized component by component ((0.4, 0.8,
// 0.8, 1.6) has length 2); the second inverse bind matrix is the second
// sixteen floats (the knee's, a translation by −1 in y); a skin without
// "skeleton" has no root (-1); a node matrix of scale 1000 and a turn is
// a TRS (no NODE_MATRIX_NON_TRS line for float rounding at that scale).
func TestNodesAndSkinsByHand(t *testing.T) {
	d := skinnedDoc(t)
	d.add(t, "nodes", `{}`)
	d.raw(t, "scenes/0/nodes", `[0, 1, 3]`)
	d.raw(t, "nodes/1/rotation", `[0.4, 0.8, 0.8, 1.6]`)
	d.patch(t, 6, []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1})
	d.del(t, "skins/0/skeleton")
	c, s := float32(math.Cos(0.5)), float32(math.Sin(0.5))
	d.raw(t, "nodes/3/matrix", fmt.Sprint(`[`, 1000*c, `, `, 1000*s, `, 0, 0, `, -1000*s, `, `, 1000*c, `, 0, 0, 0, 0, 1000, 0, 12.5, -3, 7, 1]`))
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	sk := &m.Skeleton
	if j := m.JointOfNode[3]; j < 0 || sk.Names[j] != "node3" {
		t.Errorf("the unnamed node's joint %d is named %q, want node3", j, sk.Names[max(j, 0)])
	}
	if r := sk.Rest[m.JointOfNode[1]].Rotation; !approxEqual(r.V[0], 0.2, 1e-6) || !approxEqual(r.V[1], 0.4, 1e-6) || !approxEqual(r.V[2], 0.4, 1e-6) || !approxEqual(r.W, 0.8, 1e-6) {
		t.Errorf("rotation (0.4, 0.8, 0.8, 1.6) normalized to %v, want (0.2, 0.4, 0.4, 0.8)", r)
	}
	if len(m.Skins) != 1 || m.Skins[0].InverseBind[1][13] != -1 || m.Skins[0].InverseBind[0][13] != 0 {
		t.Errorf("inverse binds %v; want the identity, then a translation by -1 in y", m.Skins)
	}
	if !slices.Equal(m.SkinRoots, []int{-1}) {
		t.Errorf("skin roots %v, want [-1] without a skeleton property", m.SkinRoots)
	}
	if issueAt(m, "NODE_MATRIX_NON_TRS", "/nodes/3/matrix") {
		t.Errorf("a scaled, turned matrix called not TRS: %q", m.Report.Lines(Hint, 0))
	}
}

// TestSceneChoiceNotes: what is shown without a "scene" field, and what
// the report says of it, exactly: scenes[1] after an empty scenes[0] (one
// note, naming scenes[1] alone); with no scenes at all, every root and
// its subtree (a root and its child both drawn) and one note; with no
// scenes and no nodes, no note that roots are shown.
func TestSceneChoiceNotes(t *testing.T) {
	data := fourVertices(t)
	doc := func(rest string) []byte {
		uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(data)
		return fmt.Appendf(nil, `{"asset": {"version": "2.0"}, "buffers": [{"uri": %q, "byteLength": 48}],
		  "bufferViews": [{"buffer": 0, "byteLength": 48}], "accessors": [%s],
		  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}]%s}`, uri, posAccessor, rest)
	}
	for _, tc := range []struct {
		name, rest string
		drawn      int
		notes      []string
	}{
		{"empty scenes[0]", `, "nodes": [{"mesh": 0}], "scenes": [{"nodes": []}, {"nodes": [0]}]`, 1,
			[]string{"VIEWER_NOTE scenes[1]: the file names no scene and scenes[0] has no nodes: this one, the first with nodes, is shown"}},
		{"no scenes", `, "nodes": [{"mesh": 0, "children": [1]}, {"mesh": 0}]`, 2,
			[]string{"VIEWER_NOTE the file names no scene; every root node is shown"}},
		{"no scenes, no nodes", ``, 0, nil},
	} {
		m, err := Decode(doc(tc.rest), nil, "t.gltf")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var notes []string
		for _, l := range issueLines(m) {
			if strings.HasPrefix(l, "VIEWER_NOTE") {
				notes = append(notes, l)
			}
		}
		if len(m.Instances) != tc.drawn || !slices.Equal(notes, tc.notes) {
			t.Errorf("%s: %d drawn, notes %q; want %d and %q", tc.name, len(m.Instances), notes, tc.drawn, tc.notes)
		}
	}
}

// TestReportLinesAtMost: Lines gives at most max messages, errors first,
// then one line counting the rest; 0 gives them all.
func TestReportLinesAtMost(t *testing.T) {
	r := Report{Issues: []Issue{{Message: "w1", Severity: Warning}, {Message: "e1", Severity: Error}, {Message: "w2", Severity: Warning}}}
	for _, tc := range []struct {
		max  int
		want []string
	}{
		{1, []string{"e1", "... and 2 more"}},
		{2, []string{"e1", "w1", "... and 1 more"}},
		{3, []string{"e1", "w1", "w2"}},
		{0, []string{"e1", "w1", "w2"}},
	} {
		if got := r.Lines(Warning, tc.max); !slices.Equal(got, tc.want) {
			t.Errorf("Lines(Warning, %d) = %q, want %q", tc.max, got, tc.want)
		}
	}
}

// TestSingleJointSkin: a skin of one joint whose vertices all weigh on
// joint 0 loads cleanly (the highest joint a mesh uses starts below 0).
func TestSingleJointSkin(t *testing.T) {
	d := skinnedDoc(t)
	d.patch(t, 3, []uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	d.patch(t, 4, []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	d.raw(t, "skins/0/joints", `[1]`)
	d.raw(t, "animations/0/channels", `[{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]`)
	d.raw(t, "animations/0/samplers", `[{"input": 7, "output": 8}]`)
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Skins) != 1 || len(m.Report.Issues) != 0 {
		t.Errorf("%d skins, report %q; want one and no issue", len(m.Skins), m.Report.Lines(Hint, 0))
	}
}

// TestVectorChecksNameTheFirst: the report names the first tangent whose w
// is not ±1, the first not of unit length and the first colour outside
// [0, 1], element 0 here, though element 2 breaks the same rules.
func TestVectorChecksNameTheFirst(t *testing.T) {
	d := skinnedDoc(t)
	tv := d.addBuffer(t, 0, le(t, []float32{2, 0, 0, 0.5, 1, 0, 0, 1, 2, 0, 0, 0.5}))
	tan := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "VEC4"}`, tv))
	cv := d.addBuffer(t, 0, le(t, []float32{1.5, 0, 0, 1, 0.5, 0.5, 0.5, 1, -1, 0, 0, 1}))
	col := d.add(t, "accessors", fmt.Sprintf(`{"bufferView": %d, "componentType": 5126, "count": 3, "type": "VEC4"}`, cv))
	d.set(t, "meshes/0/primitives/0/attributes/TANGENT", tan)
	d.set(t, "meshes/0/primitives/0/attributes/COLOR_0", col)
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	lines := issueLines(m)
	for _, want := range []string{
		"ACCESSOR_INVALID_SIGN meshes[0].primitives[0].attributes.TANGENT: tangent 0 has w other than 1 or -1",
		"ACCESSOR_VECTOR3_NON_UNIT meshes[0].primitives[0].attributes.TANGENT: tangent 0 is not of unit length",
		"ACCESSOR_NON_CLAMPED meshes[0].primitives[0].attributes.COLOR_0: colour 0 is outside [0, 1]",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("report %q lacks %q", lines, want)
		}
	}
}

// TestSceneNonRootUnderNodeZero: a scene listing a child of nodes[0] is
// named (the parent's index 0 is a parent like any other).
func TestSceneNonRootUnderNodeZero(t *testing.T) {
	d := skinnedDoc(t)
	d.add(t, "nodes", `{"name": "tip"}`)
	d.raw(t, "nodes/0/children", `[3]`)
	d.raw(t, "scenes/0/nodes", `[0, 1, 3]`)
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	want := "SCENE_NON_ROOT_NODE scenes[0].nodes[2]: nodes[3] is a child of nodes[0]; a scene lists root nodes only"
	if lines := issueLines(m); !slices.Contains(lines, want) {
		t.Errorf("report %q lacks %q", lines, want)
	}
}
