package gltfload

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	ct "github.com/skinview/skinview/internal/gltfload/internal/compresstest"
)

// meshoptGLB rewrites a GLB so that every bufferView it can is
// EXT_meshopt_compression data (index views in mode INDICES, the rest in
// mode ATTRIBUTES at their element stride, animation keys included) over a
// fallback buffer that has no bytes. No filter: the result decodes to the
// same bytes.
func meshoptGLB(t *testing.T, data []byte) []byte {
	t.Helper()
	js, bin, _, err := (&loader{model: &Model{}}).splitGLB(data)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	num := func(v any) int { f, _ := v.(float64); return int(f) }
	views := doc["bufferViews"].([]any)
	// The element stride and use of each view, from its accessors.
	elem := make([]int, len(views))
	isIndex := make([]bool, len(views))
	for _, a := range doc["accessors"].([]any) {
		a := a.(map[string]any)
		if a["bufferView"] == nil {
			continue
		}
		size := map[int]int{5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}[num(a["componentType"])]
		comps := map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[a["type"].(string)]
		elem[num(a["bufferView"])] = size * comps
	}
	for _, m := range doc["meshes"].([]any) {
		for _, p := range m.(map[string]any)["primitives"].([]any) {
			if i, ok := p.(map[string]any)["indices"]; ok {
				a := doc["accessors"].([]any)[num(i)].(map[string]any)
				isIndex[num(a["bufferView"])] = true
			}
		}
	}
	var out []byte
	compressed := 0
	for v, vv := range views {
		bv := vv.(map[string]any)
		off, n := num(bv["byteOffset"]), num(bv["byteLength"])
		src := bin[off : off+n]
		stride := elem[v]
		if s := num(bv["byteStride"]); s > 0 {
			stride = s
		}
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
		var enc []byte
		mode := "ATTRIBUTES"
		switch {
		case isIndex[v] && (stride == 2 || stride == 4) && n%stride == 0:
			idx := make([]uint32, n/stride)
			for k := range idx {
				if stride == 2 {
					idx[k] = uint32(binary.LittleEndian.Uint16(src[k*2:]))
				} else {
					idx[k] = binary.LittleEndian.Uint32(src[k*4:])
				}
			}
			mode, enc = "INDICES", ct.MeshoptSequence(idx, int(slices.Max(idx))+1)
		case !isIndex[v] && stride > 0 && stride%4 == 0 && n%stride == 0:
			enc = ct.MeshoptVertices(src, n/stride, stride)
		default:
			bv["byteOffset"], bv["buffer"] = len(out), 0
			out = append(out, src...)
			continue
		}
		bv["buffer"] = 1
		bv["extensions"] = map[string]any{"EXT_meshopt_compression": map[string]any{
			"buffer": 0, "byteOffset": len(out), "byteLength": len(enc), "byteStride": stride, "count": n / stride, "mode": mode}}
		out = append(out, enc...)
		compressed++
	}
	if compressed < 4 {
		t.Fatalf("only %d views compressed", compressed)
	}
	for len(out)%4 != 0 {
		out = append(out, 0)
	}
	doc["buffers"] = []any{
		map[string]any{"byteLength": len(out)},
		map[string]any{"byteLength": len(bin), "extensions": map[string]any{"EXT_meshopt_compression": map[string]any{"fallback": true}}},
	}
	for _, k := range []string{"extensionsUsed", "extensionsRequired"} {
		list, _ := doc[k].([]any)
		doc[k] = append(list, "EXT_meshopt_compression")
	}
	njs, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return glbChunks(njs, out)
}

// TestMeshoptCharacterPosesAsTheOriginal compresses the project's skinned,
// animated character with meshopt, its animation views included, and
// loads both: without filters the codec is lossless, so every array the
// pose is computed from (vertices, influences, indices, inverse binds, key
// times and values) must be bit for bit the original's.
func TestMeshoptCharacterPosesAsTheOriginal(t *testing.T) {
	orig := characterGLB(t)
	want, err := decode(orig, nil, "character.glb")
	if err != nil {
		t.Fatal(err)
	}
	got, err := decode(meshoptGLB(t, orig), nil, "character-meshopt.glb")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Compression) != 1 || got.Compression[0].Decoded == 0 {
		t.Fatalf("compression %+v, want EXT_meshopt_compression views", got.Compression)
	}
	t.Logf("%d of the views compressed, %d bytes decoded", got.Compression[0].Objects, got.Compression[0].Decoded)
	same := func(what string, a, b any) {
		t.Helper()
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("%s differs from the original", what)
		}
	}
	for mi, m := range want.Meshes {
		for pi, p := range m.Primitives {
			q := got.Meshes[mi].Primitives[pi]
			w := fmt.Sprintf("meshes[%d].primitives[%d]", mi, pi)
			same(w+" positions", p.Positions, q.Positions)
			same(w+" normals", p.Normals, q.Normals)
			same(w+" uv", p.UV0, q.UV0)
			same(w+" joints", p.AllJoints, q.AllJoints)
			same(w+" weights", p.AllWeights, q.AllWeights)
			same(w+" indices", p.Indices, q.Indices)
		}
	}
	same("skins", want.Skins, got.Skins)
	if len(want.Clips) == 0 {
		t.Fatal("the character has no clips")
	}
	for ci, c := range want.Clips {
		for k, tr := range c.Tracks {
			same(fmt.Sprintf("clip %d track %d times", ci, k), tr.Times, got.Clips[ci].Tracks[k].Times)
			same(fmt.Sprintf("clip %d track %d values", ci, k), tr.Values, got.Clips[ci].Tracks[k].Values)
		}
	}
}
