package gltfload

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// invalidCase breaks one rule of the skinned document (edit) or builds
// its own bytes (build), and names the exact refusal.
type invalidCase struct {
	name  string
	edit  func(t testing.TB, d jdoc)
	build func(t testing.TB) []byte
	fsys  fs.FS
	// want is the whole message after "gltfload: t.gltf: ".
	want string
	// wantf computes want where it depends on the document's size.
	wantf func(data []byte) string
}

func nan32() float32 { return float32(math.NaN()) }

// The view layout of skinnedDoc, by hand: sizes 36 36 24 12 48 8 128 8 32
// 24, each starting on a 4-byte boundary, 356 bytes in all.
const skinnedBufferBytes = 356

var invalidCases = []invalidCase{
	// JSON and container.
	{name: "JSON syntax error with line and column",
		build: func(testing.TB) []byte { return []byte("{\"asset\": {\"version\": \"2.0\"},\n \"nodes\": [}") },
		want:  "JSON syntax error at line 2, column 12: invalid character '}' looking for beginning of value"},
	{name: "JSON truncated",
		build: func(testing.TB) []byte { return []byte("{\"asset\": {\"version\": \"2.0\"},\n \"nodes\": [") },
		want:  "JSON syntax error at line 2, column 12: unexpected end of the document"},
	{name: "JSON data after the document",
		build: func(testing.TB) []byte { return []byte(`{"asset": {"version": "2.0"}} x`) },
		want:  "JSON syntax error at line 1, column 31: data after the end of the document"},
	{name: "neither GLB nor JSON",
		build: func(testing.TB) []byte { return []byte("\x89PNG\r\n\x1a\n") },
		want:  `not a glTF file: it starts with neither "glTF" (binary glTF) nor "{" (JSON)`},
	{name: "empty file",
		build: func(testing.TB) []byte { return nil },
		want:  `not a glTF file: it starts with neither "glTF" (binary glTF) nor "{" (JSON)`},
	{name: "deeply nested JSON",
		build: func(testing.TB) []byte {
			return []byte(`{"asset": {"version": "2.0"}, "extras": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}")
		},
		want: "JSON syntax error at line 1, column 10040: invalid character '[' exceeded max depth"},
	{name: "too many nodes",
		build: func(testing.TB) []byte {
			return []byte(`{"asset": {"version": "2.0"}, "nodes": [` + strings.Repeat("{}, ", 1<<16) + `{}]}`)
		},
		want: "nodes: 65537 objects, more than the 65536 a model here may have"},
	{name: "asset missing",
		build: func(testing.TB) []byte { return []byte(`{"nodes": []}`) },
		want:  "document: asset is required"},
	{name: "asset.version missing", edit: func(t testing.TB, d jdoc) { d.del(t, "asset/version") },
		want: "asset: version is required"},
	{name: "asset.version empty", edit: func(t testing.TB, d jdoc) { d.set(t, "asset/version", "") },
		want: `asset.version: empty; want a glTF version such as "2.0"`},
	{name: "glTF 1.0", edit: func(t testing.TB, d jdoc) { d.set(t, "asset/version", "1.0") },
		want: `asset.version "1.0": only glTF 2.x is supported`},

	// GLB container.
	{name: "GLB shorter than its header",
		build: func(testing.TB) []byte { return []byte("glTF\x02\x00\x00\x00") },
		want:  "glb: 8 bytes is shorter than the 12-byte header and one chunk header"},
	{name: "GLB version 1",
		build: func(t testing.TB) []byte { g := glbOf(t, skinnedDoc(t)); g[4] = 1; return g },
		want:  "glb: container version 1, want 2"},
	{name: "GLB header length beyond the file",
		build: func(t testing.TB) []byte {
			g := glbOf(t, skinnedDoc(t))
			binary.LittleEndian.PutUint32(g[8:], uint32(len(g)+4))
			return g
		},
		wantf: func(g []byte) string {
			return fmt.Sprintf("glb: header length %d but the file has %d bytes", len(g)+4, len(g))
		}},
	{name: "GLB chunk claiming 4 GB",
		build: func(t testing.TB) []byte {
			g := glbOf(t, skinnedDoc(t))
			binary.LittleEndian.PutUint32(g[12:], 0xFFFFFFFF)
			return g
		},
		wantf: func(g []byte) string {
			return fmt.Sprintf("glb: chunk 0 length 4294967295 runs past the end of the file (%d bytes)", len(g))
		}},
	{name: "GLB truncated in the BIN chunk",
		build: func(t testing.TB) []byte {
			g := glbOf(t, skinnedDoc(t))
			g = g[:len(g)-100]
			binary.LittleEndian.PutUint32(g[8:], uint32(len(g)))
			return g
		},
		wantf: func(g []byte) string {
			return fmt.Sprintf("glb: chunk 1 length %d runs past the end of the file (%d bytes)", skinnedBufferBytes, len(g))
		}},
	{name: "GLB chunk header cut short",
		build: func(t testing.TB) []byte {
			g := append(glbOf(t, skinnedDoc(t)), 1, 2, 3, 4)
			binary.LittleEndian.PutUint32(g[8:], uint32(len(g)))
			return g
		},
		wantf: func(g []byte) string {
			return fmt.Sprintf("glb: chunk 2 header at byte %d runs past the end of the file (%d bytes)", len(g)-4, len(g))
		}},
	{name: "GLB of its magic alone",
		build: func(testing.TB) []byte { return []byte("glTF") },
		want:  "glb: 4 bytes is shorter than the 12-byte header and one chunk header"},
	{name: "GLB of the header and one empty chunk (20 bytes)",
		build: func(testing.TB) []byte {
			g := []byte("glTF\x02\x00\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00JSON")
			return g
		},
		want: "glb: the JSON chunk does not hold a JSON object"},
	{name: "GLB chunk 4 bytes past the end",
		build: func(t testing.TB) []byte {
			g := glbOf(t, skinnedDoc(t))
			bin := 20 + binary.LittleEndian.Uint32(g[12:]) // the BIN chunk's header
			binary.LittleEndian.PutUint32(g[bin:], binary.LittleEndian.Uint32(g[bin:])+4)
			return g
		},
		wantf: func(g []byte) string {
			return fmt.Sprintf("glb: chunk 1 length %d runs past the end of the file (%d bytes)", skinnedBufferBytes+4, len(g))
		}},
	{name: "GLB first chunk not JSON",
		build: func(t testing.TB) []byte {
			g := glbOf(t, skinnedDoc(t))
			binary.LittleEndian.PutUint32(g[16:], glbChunkBIN)
			return g
		},
		want: "glb: chunk 0 has type 0x004e4942, want JSON (0x4e4f534a)"},
	{name: "GLB JSON chunk not an object",
		build: func(testing.TB) []byte { return glbChunks([]byte(`[1, 2]`), nil) },
		want:  "glb: the JSON chunk does not hold a JSON object"},
	{name: "GLB without BIN chunk",
		build: func(t testing.TB) []byte {
			d := skinnedDoc(t)
			d.del(t, "buffers/0/uri")
			return glbChunks(d.bytes(t), nil)
		},
		want: "buffers[0]: no uri, and the GLB has no BIN chunk"},
	{name: "GLB BIN chunk shorter than buffers[0].byteLength",
		build: func(t testing.TB) []byte {
			d := skinnedDoc(t)
			d.set(t, "buffers/0/byteLength", 1000)
			return glbOf(t, d)
		},
		want: "buffers[0]: byteLength is 1000 but only 356 bytes are there"},

	// JSON types, required properties, ranges and enumerations.
	{name: "wrong JSON type", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/count", "3") },
		want: "accessors[0].count: JSON value is string, want integer"},
	{name: "wrong JSON type for an object", edit: func(t testing.TB, d jdoc) { d.raw(t, "materials/0/pbrMetallicRoughness", `[]`) },
		want: "materials[0].pbrMetallicRoughness: JSON value is array, want object"},
	{name: "wrong JSON type for a top-level array", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes", `{}`) },
		want: "nodes: JSON value is object, want array"},
	{name: "null object", edit: func(t testing.TB, d jdoc) { d.set(t, "nodes/1", nil) },
		want: "nodes[1]: JSON value is null, want object"},
	{name: "integer with a fraction", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/count", json.Number("1.5")) },
		want: "accessors[0].count: 1.5 is not an integer"},
	{name: "integer with a fraction in a map's last member", edit: func(t testing.TB, d jdoc) {
		d.set(t, "meshes/0/primitives/0/attributes/WEIGHTS_0", json.Number("4.5"))
	}, want: "meshes[0].primitives[0].attributes.WEIGHTS_0: 4.5 is not an integer"},
	{name: "integer at 2^53 - 1", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/byteOffset", json.Number("9007199254740991")) },
		want: "accessors[0]: 3 elements from byteOffset 9007199254740991 (stride 12) need 9007199254741027 bytes; bufferViews[0] has 36"},
	{name: "integer at 2^53 - 1 written as a float", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/byteOffset", json.Number("9007199254740991.0")) },
		want: "accessors[0]: 3 elements from byteOffset 9007199254740991 (stride 12) need 9007199254741027 bytes; bufferViews[0] has 36"},
	{name: "integer at 2^53 written as a float", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/byteOffset", json.Number("9007199254740992.0")) },
		want: "accessors[0].byteOffset: 9007199254740992.0 is out of range"},
	{name: "channel sampler one past the last", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/channels/1/sampler", 2) },
		want: "animations[0].channels[1].sampler: samplers[2] does not exist (2 samplers in this animation)"},
	{name: "integer beyond 2^53", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/byteOffset", json.Number("9007199254740993")) },
		want: "accessors[0].byteOffset: 9007199254740993 is more than the maximum 9007199254740991"},
	{name: "integer beyond 64 bits", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/byteOffset", json.Number("99999999999999999999")) },
		want: "accessors[0].byteOffset: 99999999999999999999 is out of range"},
	{name: "number beyond float64", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/2/translation", `[0, 1e400, 0]`) },
		want: "nodes[2].translation[1]: number 1e400 is out of range"},
	{name: "count below 1", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/count", 0) },
		want: "accessors[0].count: 0 is less than the minimum 1"},
	{name: "accessor.count missing", edit: func(t testing.TB, d jdoc) { d.del(t, "accessors/3/count") },
		want: "accessors[3]: count is required"},
	{name: "accessor.componentType missing", edit: func(t testing.TB, d jdoc) { d.del(t, "accessors/0/componentType") },
		want: "accessors[0]: componentType is required"},
	{name: "accessor.type missing", edit: func(t testing.TB, d jdoc) { d.del(t, "accessors/0/type") },
		want: "accessors[0]: type is required"},
	{name: "unknown componentType", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/componentType", 5127) },
		want: "accessors[0].componentType: 5127 is not one of 5120, 5121, 5122, 5123, 5125, 5126"},
	{name: "unknown accessor type", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/type", "VEC5") },
		want: `meshes[0].primitives[0].attributes.POSITION: accessors[0].type: "VEC5" is not one of SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3, MAT4`},
	{name: "unknown primitive mode", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/mode", 7) },
		want: "meshes[0].primitives[0].mode: 7 is not one of 0, 1, 2, 3, 4, 5, 6"},
	{name: "unknown interpolation", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/samplers/0/interpolation", "SMOOTH") },
		want: `animations[0].samplers[0].interpolation: "SMOOTH" is not one of LINEAR, STEP, CUBICSPLINE`},
	{name: "unknown alphaMode", edit: func(t testing.TB, d jdoc) { d.set(t, "materials/0/alphaMode", "GLOW") },
		want: `materials[0].alphaMode: "GLOW" is not one of OPAQUE, MASK, BLEND`},
	{name: "unknown sampler filter", edit: func(t testing.TB, d jdoc) { d.set(t, "samplers/0/magFilter", 9999) },
		want: "samplers[0].magFilter: 9999 is not one of 9728, 9729"},
	{name: "skin.joints missing", edit: func(t testing.TB, d jdoc) { d.del(t, "skins/0/joints") },
		want: "skins[0]: joints is required"},
	{name: "skin.joints empty", edit: func(t testing.TB, d jdoc) { d.raw(t, "skins/0/joints", `[]`) },
		want: "skins[0].joints: 0 items, want at least 1"},
	{name: "mesh.primitives missing", edit: func(t testing.TB, d jdoc) { d.del(t, "meshes/0/primitives") },
		want: "meshes[0]: primitives is required"},
	{name: "mesh.primitives empty", edit: func(t testing.TB, d jdoc) { d.raw(t, "meshes/0/primitives", `[]`) },
		want: "meshes[0].primitives: 0 items, want at least 1"},
	{name: "primitive.attributes empty", edit: func(t testing.TB, d jdoc) { d.raw(t, "meshes/0/primitives/0/attributes", `{}`) },
		want: "meshes[0].primitives[0].attributes: empty; at least 1 member is required"},
	{name: "buffer.byteLength missing", edit: func(t testing.TB, d jdoc) { d.del(t, "buffers/0/byteLength") },
		want: "buffers[0]: byteLength is required"},
	{name: "bufferView.buffer missing", edit: func(t testing.TB, d jdoc) { d.del(t, "bufferViews/2/buffer") },
		want: "bufferViews[2]: buffer is required"},
	{name: "animation.channels missing", edit: func(t testing.TB, d jdoc) { d.del(t, "animations/0/channels") },
		want: "animations[0]: channels is required"},
	{name: "channel target path missing", edit: func(t testing.TB, d jdoc) { d.del(t, "animations/0/channels/1/target/path") },
		want: "animations[0].channels[1].target: path is required"},
	{name: "animation sampler input missing", edit: func(t testing.TB, d jdoc) { d.del(t, "animations/0/samplers/1/input") },
		want: "animations[0].samplers[1]: input is required"},
	{name: "texture info index missing", edit: func(t testing.TB, d jdoc) { d.del(t, "materials/0/pbrMetallicRoughness/baseColorTexture/index") },
		want: "materials[0].pbrMetallicRoughness.baseColorTexture: index is required"},
	{name: "node with matrix and TRS", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "nodes/2/matrix", `[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]`)
	}, want: "nodes[2]: has both matrix and translation; a node has one or the other"},
	{name: "rotation of three numbers", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/1/rotation", `[0, 0, 0]`) },
		want: "nodes[1].rotation: 3 items, want 4"},
	{name: "camera without its projection", edit: func(t testing.TB, d jdoc) { d.raw(t, "cameras", `[{"type": "perspective"}]`) },
		want: "cameras[0]: type perspective needs a perspective object"},
	{name: "extensions not an object", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/0/extensions", `[]`) },
		want: "nodes[0].extensions: must be a JSON object"},
	{name: "extension not an object", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/0/extensions", `{"EXT_x": 1}`) },
		want: "nodes[0].extensions.EXT_x: must be a JSON object"},
	{name: "byteStride above 252", edit: func(t testing.TB, d jdoc) { d.set(t, "bufferViews/0/byteStride", 256) },
		want: "bufferViews[0].byteStride: 256 is more than the maximum 252"},

	// Every kind of index in range.
	{name: "index of a buffer", edit: func(t testing.TB, d jdoc) { d.set(t, "bufferViews/0/buffer", 5) },
		want: "bufferViews[0].buffer: buffers[5] does not exist (1 buffers)"},
	{name: "index of a bufferView", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/bufferView", 99) },
		want: "accessors[0].bufferView: bufferViews[99] does not exist (10 bufferViews)"},
	{name: "index of an attribute accessor", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/POSITION", 99) },
		want: "meshes[0].primitives[0].attributes.POSITION: accessors[99] does not exist (10 accessors)"},
	{name: "index of an indices accessor", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/indices", 10) },
		want: "meshes[0].primitives[0].indices: accessors[10] does not exist (10 accessors)"},
	{name: "index of a material", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/material", 3) },
		want: "meshes[0].primitives[0].material: materials[3] does not exist (1 materials)"},
	{name: "index of a mesh", edit: func(t testing.TB, d jdoc) { d.set(t, "nodes/0/mesh", 4) },
		want: "nodes[0].mesh: meshes[4] does not exist (1 meshes)"},
	{name: "index of a skin", edit: func(t testing.TB, d jdoc) { d.set(t, "nodes/0/skin", 2) },
		want: "nodes[0].skin: skins[2] does not exist (1 skins)"},
	{name: "index of a camera", edit: func(t testing.TB, d jdoc) { d.set(t, "nodes/0/camera", 0) },
		want: "nodes[0].camera: cameras[0] does not exist (0 cameras)"},
	{name: "index of a child node", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/1/children", `[9]`) },
		want: "nodes[1].children[0]: nodes[9] does not exist (3 nodes)"},
	{name: "skin joint not a node", edit: func(t testing.TB, d jdoc) { d.raw(t, "skins/0/joints", `[1, 5]`) },
		want: "skins[0].joints[1]: nodes[5] does not exist (3 nodes)"},
	{name: "index of a skeleton root", edit: func(t testing.TB, d jdoc) { d.set(t, "skins/0/skeleton", 7) },
		want: "skins[0].skeleton: nodes[7] does not exist (3 nodes)"},
	{name: "index of inverse bind matrices", edit: func(t testing.TB, d jdoc) { d.set(t, "skins/0/inverseBindMatrices", 42) },
		want: "skins[0].inverseBindMatrices: accessors[42] does not exist (10 accessors)"},
	{name: "index of an image", edit: func(t testing.TB, d jdoc) { d.set(t, "textures/0/source", 3) },
		want: "textures[0].source: images[3] does not exist (1 images)"},
	{name: "index of a sampler", edit: func(t testing.TB, d jdoc) { d.set(t, "textures/0/sampler", 3) },
		want: "textures[0].sampler: samplers[3] does not exist (1 samplers)"},
	{name: "index of a texture", edit: func(t testing.TB, d jdoc) { d.set(t, "materials/0/pbrMetallicRoughness/baseColorTexture/index", 2) },
		want: "materials[0].pbrMetallicRoughness.baseColorTexture.index: textures[2] does not exist (1 textures)"},
	{name: "index of a scene node", edit: func(t testing.TB, d jdoc) { d.raw(t, "scenes/0/nodes", `[0, 8]`) },
		want: "scenes[0].nodes[1]: nodes[8] does not exist (3 nodes)"},
	{name: "index of the scene", edit: func(t testing.TB, d jdoc) { d.set(t, "scene", 1) },
		want: "scene: scenes[1] does not exist (1 scenes)"},
	{name: "index of an animation sampler", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/channels/0/sampler", 5) },
		want: "animations[0].channels[0].sampler: samplers[5] does not exist (2 samplers in this animation)"},
	{name: "index of a channel's node", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/channels/1/target/node", 9) },
		want: "animations[0].channels[1].target.node: nodes[9] does not exist (3 nodes)"},
	{name: "index of a sampler output", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/samplers/0/output", 50) },
		want: "animations[0].samplers[0].output: accessors[50] does not exist (10 accessors)"},
	{name: "index of an image bufferView", edit: func(t testing.TB, d jdoc) { d.set(t, "images/0/bufferView", 30) },
		want: "images[0].bufferView: bufferViews[30] does not exist (10 bufferViews)"},
	{name: "index of a sparse bufferView", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "accessors/0/sparse", `{"count": 2, "indices": {"bufferView": 30, "componentType": 5123}, "values": {"bufferView": 0}}`)
	}, want: "accessors[0].sparse.indices.bufferView: bufferViews[30] does not exist (10 bufferViews)"},
	{name: "negative index", edit: func(t testing.TB, d jdoc) { d.set(t, "nodes/0/mesh", -1) },
		want: "nodes[0].mesh: index -1 is negative"},

	// Buffers and URIs.
	{name: "data URI that does not decode", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "data:application/octet-stream;base64,@@@@") },
		want: "buffers[0]: data URI does not decode: illegal base64 data at input byte 0"},
	{name: "data URI without data", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "data:application/octet-stream;base64") },
		want: "buffers[0]: data URI has no ',' before its data"},
	{name: "data URI shorter than byteLength", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/byteLength", 1<<30) },
		want: "buffers[0]: byteLength is 1073741824 but only 356 bytes are there"},
	{name: "byteLength beyond the file limit", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/byteLength", 1<<31) },
		want: "buffers[0]: byteLength 2147483648 is outside [1, 1073741824]"},
	{name: "skin reading a buffer without uri outside a GLB", edit: func(t testing.TB, d jdoc) { d.del(t, "buffers/0/uri") },
		want: "skins[0].inverseBindMatrices: accessors[6]: bufferViews[6]: buffers[0] has no uri (only the first buffer of a GLB may omit it): no bytes to read"},
	{name: "external file missing", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "missing.bin") },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "missing.bin": file does not exist`},
	{name: "external file shorter than byteLength", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "short.bin") },
		fsys: fstest.MapFS{"short.bin": {Data: make([]byte, 100)}}, want: "buffers[0]: byteLength is 356 but only 100 bytes are there"},
	{name: "external path is a folder", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "dir") },
		fsys: fstest.MapFS{"dir/a.bin": {Data: make([]byte, 400)}}, want: `buffers[0]: uri "dir" is not a regular file`},
	{name: "path escape with ..", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "../secret.bin") },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "../secret.bin" leaves the model's folder`},
	{name: "path escape inside a path", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "data/../../secret.bin") },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "data/../../secret.bin" leaves the model's folder`},
	{name: "percent-encoded path escape", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "%2e%2e/secret.bin") },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "%2e%2e/secret.bin" leaves the model's folder`},
	{name: "absolute path", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "/etc/passwd") },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "/etc/passwd" is an absolute path; only paths relative to the model's folder are read`},
	{name: "absolute path on drive a:", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "a:/m.bin") },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "a:/m.bin" is an absolute path; only paths relative to the model's folder are read`},
	{name: "absolute path on drive Z:", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "Z:/m.bin") },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "Z:/m.bin" is an absolute path; only paths relative to the model's folder are read`},
	{name: "a drive alone", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "C:") },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "C:" is an absolute path; only paths relative to the model's folder are read`},
	{name: "absolute Windows path", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", `C:\model\a.bin`) },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "C:\\model\\a.bin" is an absolute path; only paths relative to the model's folder are read`},
	{name: "skin reading an http URL", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "http://example.com/a.bin") },
		fsys: fstest.MapFS{}, want: `skins[0].inverseBindMatrices: accessors[6]: bufferViews[6]: buffers[0] is not fetched (uri "http://example.com/a.bin"): no bytes to read`},
	{name: "file URL", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "file:///etc/passwd") },
		fsys: fstest.MapFS{}, want: `buffers[0]: uri "file:///etc/passwd": only relative file paths and data URIs are read, not file: URLs`},
	{name: "external file without a folder", edit: func(t testing.TB, d jdoc) { d.set(t, "buffers/0/uri", "a.bin") },
		want: `buffers[0]: uri "a.bin": external files cannot be read here`},

	// Views and accessors against their bytes.
	{name: "bufferView outside its buffer", edit: func(t testing.TB, d jdoc) { d.set(t, "bufferViews/9/byteLength", 1<<31) },
		want: "bufferViews[9]: bytes [332, 2147483980) lie outside buffers[0], which has 356 bytes"},
	{name: "bufferView one byte past its buffer's end", edit: func(t testing.TB, d jdoc) { d.set(t, "bufferViews/9/byteLength", 25) },
		want: "bufferViews[9]: bytes [332, 357) lie outside buffers[0], which has 356 bytes"},
	{name: "accessor outside its bufferView", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/count", 4) },
		want: "accessors[0]: 4 elements from byteOffset 0 (stride 12) need 48 bytes; bufferViews[0] has 36"},
	{name: "accessor offset outside its bufferView", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/9/byteOffset", 4) },
		want: "accessors[9]: 2 elements from byteOffset 4 (stride 12) need 28 bytes; bufferViews[9] has 24"},
	{name: "byteStride smaller than an element", edit: func(t testing.TB, d jdoc) { d.set(t, "bufferViews/0/byteStride", 8) },
		want: "accessors[0]: bufferViews[0].byteStride 8 is smaller than one element (12 bytes)"},
	{name: "count above the element cap", edit: func(t testing.TB, d jdoc) { d.del(t, "accessors/0/bufferView"); d.set(t, "accessors/0/count", 1<<24+1) },
		want: "accessors[0]: count 16777217 is outside [1, 16777216]"},
	{name: "count without data beyond the budget", edit: func(t testing.TB, d jdoc) { d.del(t, "accessors/0/bufferView"); d.set(t, "accessors/0/count", 1<<24) },
		wantf: func(data []byte) string {
			return fmt.Sprintf("accessors[0]: count 16777216 without a bufferView declares 201326592 bytes of data, more than this file can justify (%d bytes)", 64*len(data)+1<<20)
		}},
	{name: "normalized UNSIGNED_INT", edit: func(t testing.TB, d jdoc) {
		d.set(t, "accessors/5/componentType", 5125)
		d.set(t, "accessors/5/normalized", true)
	},
		want: "accessors[5]: normalized UNSIGNED_INT is not allowed"},
	{name: "sparse count above the accessor's", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "accessors/0/sparse", `{"count": 4, "indices": {"bufferView": 5, "componentType": 5123}, "values": {"bufferView": 0}}`)
	}, want: "accessors[0].sparse: count 4 is outside [1, 3] (the accessor's count)"},
	{name: "sparse indices not increasing", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "accessors/0/sparse", `{"count": 3, "indices": {"bufferView": 5, "byteOffset": 2, "componentType": 5123}, "values": {"bufferView": 0}}`)
	}, want: "accessors[0].sparse: indices[2] is 0 after 2; sparse indices must strictly increase"},
	{name: "sparse index beyond the count", edit: func(t testing.TB, d jdoc) {
		d.patch(t, 5, []uint16{0, 1, 7})
		d.raw(t, "accessors/0/sparse", `{"count": 3, "indices": {"bufferView": 5, "componentType": 5123}, "values": {"bufferView": 0}}`)
	}, want: "accessors[0].sparse: indices[2] is 7; the accessor has 3 elements"},
	{name: "sparse indices of a float type", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "accessors/0/sparse", `{"count": 2, "indices": {"bufferView": 5, "componentType": 5126}, "values": {"bufferView": 0}}`)
	}, want: "accessors[0].sparse.indices.componentType: 5126 is not one of 5121, 5123, 5125"},
	{name: "sparse indices overrun their view", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "accessors/0/sparse", `{"count": 3, "indices": {"bufferView": 5, "byteOffset": 4, "componentType": 5123}, "values": {"bufferView": 0}}`)
	}, want: "accessors[0].sparse: indices: 3 indices from byteOffset 4 overrun bufferViews[5] (8 bytes)"},
	// Boundaries: one past the last, equal neighbours.
	{name: "sparse index equal to the one before", edit: func(t testing.TB, d jdoc) {
		d.patch(t, 5, []uint16{0, 1, 1})
		d.raw(t, "accessors/0/sparse", `{"count": 3, "indices": {"bufferView": 5, "componentType": 5123}, "values": {"bufferView": 0}}`)
	}, want: "accessors[0].sparse: indices[2] is 1 after 1; sparse indices must strictly increase"},
	{name: "sparse index equal to the count", edit: func(t testing.TB, d jdoc) {
		d.patch(t, 5, []uint16{0, 1, 3})
		d.raw(t, "accessors/0/sparse", `{"count": 3, "indices": {"bufferView": 5, "componentType": 5123}, "values": {"bufferView": 0}}`)
	}, want: "accessors[0].sparse: indices[2] is 3; the accessor has 3 elements"},
	{name: "index equal to the vertex count", edit: func(t testing.TB, d jdoc) { d.patch(t, 5, []uint16{0, 1, 3}) },
		want: "meshes[0].primitives[0].indices: index 2 is 3 but there are 3 vertices"},
	{name: "child one past the last node", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/1/children", `[3]`) },
		want: "nodes[1].children[0]: nodes[3] does not exist (3 nodes)"},
	{name: "bufferView naming the buffer one past the last", edit: func(t testing.TB, d jdoc) { d.set(t, "bufferViews/0/buffer", 1) },
		want: "bufferViews[0].buffer: buffers[1] does not exist (1 buffers)"},
	{name: "accessor one past the last", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/POSITION", 10) },
		want: "meshes[0].primitives[0].attributes.POSITION: accessors[10] does not exist (10 accessors)"},
	{name: "accessor byteOffset at the largest JSON integer", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/byteOffset", maxJSONInt) },
		want: "accessors[0]: 3 elements from byteOffset 9007199254740991 (stride 12) need 9007199254741027 bytes; bufferViews[0] has 36"},
	{name: "sparse values overrun their view", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "accessors/0/sparse", `{"count": 2, "indices": {"bufferView": 5, "componentType": 5123}, "values": {"bufferView": 0, "byteOffset": 32}}`)
	}, want: "accessors[0].sparse: values: 2 elements from byteOffset 32 overrun bufferViews[0] (36 bytes)"},
	{name: "sparse count missing", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "accessors/0/sparse", `{"indices": {"bufferView": 5, "componentType": 5123}, "values": {"bufferView": 0}}`)
	}, want: "accessors[0].sparse: count is required"},

	// Component type and count per semantic.
	{name: "POSITION not VEC3", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/type", "VEC2") },
		want: "meshes[0].primitives[0].attributes.POSITION: accessors[0] is VEC2, want VEC3"},
	{name: "POSITION of UNSIGNED_INT", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/0/componentType", 5125) },
		want: "meshes[0].primitives[0].attributes.POSITION: accessors[0] has UNSIGNED_INT components, want FLOAT"},
	{name: "NORMAL count differs from POSITION", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/1/count", 2) },
		want: "meshes[0].primitives[0].attributes.NORMAL: accessors[1] has 2 elements, POSITION has 3; every attribute has one per vertex"},
	{name: "NORMAL not VEC3", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/NORMAL", 4) },
		want: "meshes[0].primitives[0].attributes.NORMAL: accessors[4] is VEC4, want VEC3"},
	{name: "TEXCOORD not VEC2", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/2/type", "SCALAR") },
		want: "meshes[0].primitives[0].attributes.TEXCOORD_0: accessors[2] is SCALAR, want VEC2"},
	{name: "unread TEXCOORD_1 of the wrong type", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/TEXCOORD_1", 0) },
		want: "meshes[0].primitives[0].attributes.TEXCOORD_1: accessors[0] is VEC3, want VEC2"},
	{name: "JOINTS of FLOAT", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/JOINTS_0", 4) },
		want: "meshes[0].primitives[0].attributes.JOINTS_0: accessors[4] has FLOAT components, want UNSIGNED_BYTE or UNSIGNED_SHORT"},
	{name: "JOINTS normalized", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/3/normalized", true) },
		want: "meshes[0].primitives[0].attributes.JOINTS_0: accessors[3] has normalized UNSIGNED_BYTE components, want UNSIGNED_BYTE or UNSIGNED_SHORT"},
	{name: "WEIGHTS of unnormalized bytes", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/WEIGHTS_0", 3) },
		want: "meshes[0].primitives[0].attributes.WEIGHTS_0: accessors[3] has UNSIGNED_BYTE components, want FLOAT, normalized UNSIGNED_BYTE or normalized UNSIGNED_SHORT"},
	{name: "WEIGHTS not VEC4", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/attributes/WEIGHTS_0", 0) },
		want: "meshes[0].primitives[0].attributes.WEIGHTS_0: accessors[0] is VEC3, want VEC4"},
	{name: "negative weight", edit: func(t testing.TB, d jdoc) { d.patch(t, 4, []float32{-1, 2, 0, 0}) },
		want: "meshes[0].primitives[0].attributes.WEIGHTS_0: accessors[4] vertex 0 weight 0 is -1; weights must be finite and not negative"},
	{name: "NaN weight", edit: func(t testing.TB, d jdoc) { d.patch(t, 4, []float32{1, 0, 0, 0, nan32()}) },
		want: "meshes[0].primitives[0].attributes.WEIGHTS_0: accessors[4] vertex 1 weight 0 is NaN; weights must be finite and not negative"},
	{name: "JOINTS without WEIGHTS", edit: func(t testing.TB, d jdoc) { d.del(t, "meshes/0/primitives/0/attributes/WEIGHTS_0") },
		want: "meshes[0].primitives[0].attributes: JOINTS_0 and WEIGHTS_0 must come together"},
	{name: "joint index beyond the skin's joints", edit: func(t testing.TB, d jdoc) { d.raw(t, "skins/0/joints", `[1]`) },
		want: "meshes[0].primitives[0]: joint index 1 is beyond the 1 joints of skins[0] (used by nodes[0])"},
	{name: "indices of FLOAT", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/indices", 7) },
		want: "meshes[0].primitives[0].indices: accessors[7] has FLOAT components, want UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT"},
	{name: "indices not SCALAR", edit: func(t testing.TB, d jdoc) { d.set(t, "meshes/0/primitives/0/indices", 3) },
		want: "meshes[0].primitives[0].indices: accessors[3] is VEC4, want SCALAR"},
	{name: "index beyond the vertices", edit: func(t testing.TB, d jdoc) { d.patch(t, 5, []uint16{0, 1, 5}) },
		want: "meshes[0].primitives[0].indices: index 2 is 5 but there are 3 vertices"},
	{name: "POSITION not finite", edit: func(t testing.TB, d jdoc) { d.patch(t, 0, []float32{float32(math.Inf(1))}) },
		want: "meshes[0].primitives[0].attributes.POSITION: accessors[0] vertex 0 is not finite"},
	{name: "POSITION of the last vertex not finite", edit: func(t testing.TB, d jdoc) { d.patch(t, 0, []float32{0, 0, 0, 1, 0, 0, 0, nan32(), 0}) },
		want: "meshes[0].primitives[0].attributes.POSITION: accessors[0] vertex 2 is not finite"},
	{name: "normal not finite", edit: func(t testing.TB, d jdoc) { d.patch(t, 1, []float32{nan32(), 0, 0}) },
		want: "meshes[0].primitives[0].attributes.NORMAL: accessors[1] value 0 is not finite"},
	{name: "texture coordinates missing for the material", edit: func(t testing.TB, d jdoc) { d.del(t, "meshes/0/primitives/0/attributes/TEXCOORD_0") },
		want: "meshes[0].primitives[0]: materials[0] samples TEXCOORD_0, which the primitive does not have"},
	{name: "morph target count differs from POSITION", edit: func(t testing.TB, d jdoc) { d.raw(t, "meshes/0/primitives/0/targets", `[{"POSITION": 9}]`) },
		want: "meshes[0].primitives[0].targets[0].POSITION: accessors[9] has 2 elements, POSITION has 3"},
	{name: "morph target not VEC3", edit: func(t testing.TB, d jdoc) { d.raw(t, "meshes/0/primitives/0/targets", `[{"NORMAL": 4}]`) },
		want: "meshes[0].primitives[0].targets[0].NORMAL: accessors[4] is VEC4, want VEC3"},
	{name: "primitives with different morph target counts", edit: func(t testing.TB, d jdoc) {
		d.add(t, "meshes/0/primitives", `{"attributes": {"POSITION": 0}, "targets": [{"POSITION": 0}]}`)
	}, want: "meshes[0].primitives[1].targets: 1 morph targets, but primitives[0] has 0; every primitive of a mesh has the same number"},
	{name: "inverse binds not MAT4", edit: func(t testing.TB, d jdoc) { d.set(t, "skins/0/inverseBindMatrices", 8) },
		want: "skins[0].inverseBindMatrices: accessors[8] is VEC4, want MAT4"},
	{name: "fewer inverse binds than joints", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/6/count", 1) },
		want: "skins[0].inverseBindMatrices: accessors[6] has 1 matrices for 2 joints; want one per joint"},
	{name: "inverse bind not finite", edit: func(t testing.TB, d jdoc) { d.patch(t, 6, []float32{nan32()}) },
		want: "skins[0].inverseBindMatrices: accessors[6] matrix 0 is not finite"},

	// Node graph.
	{name: "node cycle", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/2/children", `[1]`) },
		want: "nodes[1]: the node hierarchy has a cycle through this node"},
	{name: "node with two parents", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/0/children", `[2]`) },
		want: "nodes[1].children[0]: nodes[2] already has parent nodes[0]; a node has one parent"},
	{name: "node its own child", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/2/children", `[2]`) },
		want: "nodes[2].children[0]: a node cannot be its own child"},
	{name: "translation beyond single precision", edit: func(t testing.TB, d jdoc) { d.raw(t, "nodes/2/translation", `[0, 1e300, 0]`) },
		want: "nodes[2]: translation, rotation or scale is not finite in single precision"},
	{name: "matrix beyond single precision", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "nodes/1/matrix", `[1e39, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]`)
	}, want: "nodes[1].matrix: not finite in single precision"},

	// Animations.
	{name: "key times decreasing", edit: func(t testing.TB, d jdoc) { d.patch(t, 7, []float32{1, 0.5}) },
		want: "animations[0].samplers[0].input: accessors[7] key times must increase: key 1 is 0.5 after 1"},
	{name: "key time not finite", edit: func(t testing.TB, d jdoc) { d.patch(t, 7, []float32{0, nan32()}) },
		want: "animations[0].samplers[0].input: accessors[7] key 1 time is NaN"},
	{name: "NaN in the second key of a VEC4 output", edit: func(t testing.TB, d jdoc) {
		d.patch(t, 8, []float32{0, 0, 0, 1, 0, nan32(), 0.7071068, 0.7071068})
	}, want: "animations[0].samplers[0].output: accessors[8] value 1 is NaN"},
	{name: "key times not FLOAT", edit: func(t testing.TB, d jdoc) { d.set(t, "accessors/7/componentType", 5121) },
		want: "animations[0].samplers[0].input: accessors[7] has UNSIGNED_BYTE components, want FLOAT"},
	{name: "key times not SCALAR", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/samplers/0/input", 2) },
		want: "animations[0].samplers[0].input: accessors[2] is VEC2, want SCALAR"},
	{name: "output count differs from input count", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/samplers/1/output", 0) },
		want: "animations[0].samplers[1].output: accessors[0] has 3 values for 2 key times; want 2"},
	{name: "CUBICSPLINE output not three per key", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/samplers/1/interpolation", "CUBICSPLINE") },
		want: "animations[0].samplers[1].output: accessors[9] has 2 values for 2 key times; want 6"},
	{name: "key value not finite", edit: func(t testing.TB, d jdoc) { d.patch(t, 9, []float32{float32(math.Inf(-1))}) },
		want: "animations[0].samplers[1].output: accessors[9] value 0 is -Inf"},
	{name: "translation output not VEC3", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/samplers/1/output", 8) },
		want: "animations[0].samplers[1].output: accessors[8] is VEC4, want VEC3"},
	{name: "rotation output of unnormalized bytes", edit: func(t testing.TB, d jdoc) { d.set(t, "animations/0/samplers/0/output", 3) },
		want: "animations[0].samplers[0].output: accessors[3] has UNSIGNED_BYTE components, want FLOAT, normalized BYTE, normalized UNSIGNED_BYTE, normalized SHORT or normalized UNSIGNED_SHORT"},
	{name: "morph weight output count", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "meshes/0/primitives/0/targets", `[{"POSITION": 0}, {"POSITION": 0}]`)
		d.add(t, "animations/0/samplers", `{"input": 7, "output": 7}`)
		d.add(t, "animations/0/channels", `{"sampler": 2, "target": {"node": 0, "path": "weights"}}`)
	}, want: "animations[0].samplers[2].output: accessors[7] has 2 values for 2 key times; want 4"},

	// Materials and scenes.
	{name: "base colour beyond single precision", edit: func(t testing.TB, d jdoc) {
		d.raw(t, "materials/0/pbrMetallicRoughness/baseColorFactor", `[1e300, 1, 1, 1]`)
	}, want: "materials[0].pbrMetallicRoughness.baseColorFactor: not finite in single precision"},
}

func TestInvalidDocuments(t *testing.T) {
	for _, tc := range invalidCases {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.data(t)
			_, err := Decode(data, tc.fsys, "t.gltf")
			want := tc.want
			if tc.wantf != nil {
				want = tc.wantf(data)
			}
			want = "gltfload: t.gltf: " + want
			if err == nil {
				t.Fatalf("loaded; want the error\n%s", want)
			}
			if err.Error() != want {
				t.Fatalf("error\n%s\nwant\n%s", err, want)
			}
		})
	}
}

func (tc invalidCase) data(t testing.TB) []byte {
	if tc.build != nil {
		return tc.build(t)
	}
	d := skinnedDoc(t)
	tc.edit(t, d)
	return d.bytes(t)
}

// TestBoundariesLoadCleanly: valid documents at the edges of the byte
// range checks load with no issue: an accessor at a non-zero byteOffset
// that is a multiple of its component size (the indices, u16, from byte
// 2 of their 8-byte view: triangle 1 2 0), and a bufferView that spans its
// whole buffer (bytes [0, 356), which its accessor reads the first 36 of,
// as before), and a buffer of one byte (byteLength's least).
func TestBoundariesLoadCleanly(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edit    func(t testing.TB, d jdoc)
		indices []uint32
	}{
		{"indices from byte 2", func(t testing.TB, d jdoc) { d.set(t, "accessors/5/byteOffset", 2) }, []uint32{1, 2, 0}},
		{"a view of the whole buffer", func(t testing.TB, d jdoc) { d.set(t, "bufferViews/0/byteLength", skinnedBufferBytes) }, []uint32{0, 1, 2}},
		{"a buffer of one byte", func(t testing.TB, d jdoc) {
			d.add(t, "buffers", `{"byteLength": 1, "uri": "data:application/octet-stream;base64,AA=="}`)
		}, []uint32{0, 1, 2}},
	} {
		d := skinnedDoc(t)
		tc.edit(t, d)
		m, err := Decode(d.bytes(t), nil, "t.gltf")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(m.Report.Issues) != 0 {
			t.Errorf("%s: issues on a valid document: %q", tc.name, m.Report.Lines(Hint, 0))
		}
		if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 1 {
			t.Errorf("%s: %d meshes; want one of one primitive", tc.name, len(m.Meshes))
		} else if got := m.Meshes[0].Primitives[0].Indices; !slices.Equal(got, tc.indices) {
			t.Errorf("%s: indices %v, want %v", tc.name, got, tc.indices)
		}
	}
}

func TestSkinnedDocLoadsCleanly(t *testing.T) {
	d := skinnedDoc(t)
	for _, data := range [][]byte{d.bytes(t), glbOf(t, d)} {
		m, err := Decode(data, nil, "t.gltf")
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Report.Issues) != 0 {
			t.Fatalf("issues on a valid document: %q", m.Report.Lines(Hint, 0))
		}
		if len(m.Clips) != 1 || len(m.Clips[0].Tracks) != 2 || len(m.Instances) != 1 || m.Textures[0] == nil {
			t.Fatalf("clips %d, instances %d, texture %v: want one clip of two tracks, one instance and a texture", len(m.Clips), len(m.Instances), m.Textures[0] != nil)
		}
		// The clip's keys as float32 in the file: accessors 7 (2 times),
		// 8 (2 VEC4) and 9 (2 VEC3), the shared input once: 8 + 32 + 24.
		if got := m.Clips[0].SourceBytes; got != 64 {
			t.Errorf("clip source bytes %d, want 64", got)
		}
	}
}

// The object cap is inclusive: 65,536 objects in an array load (one more
// is refused: "too many nodes" above).
func TestObjectCapIsInclusive(t *testing.T) {
	js := []byte(`{"asset": {"version": "2.0"}, "samplers": [` + strings.Repeat("{}, ", 1<<16-1) + `{}]}`)
	if _, err := Decode(js, nil, "t.gltf"); err != nil {
		t.Fatalf("65536 samplers refused: %v", err)
	}
}
