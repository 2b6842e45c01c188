package gltfload

import (
	"maps"
	"testing"
)

// charges decodes data and returns what it charged to the file's budget,
// by what, summed.
func charges(t *testing.T, data []byte) map[string]int64 {
	t.Helper()
	got := map[string]int64{}
	chargeSeen = func(what string, n, _ int64) { got[what] += n }
	defer func() { chargeSeen = nil }()
	if _, err := Decode(data, nil, "t.gltf"); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestChargesByHand: every array the loader makes is charged to the
// file's budget at its size before it is allocated, worked out by hand:
// 4 bytes a component of each accessor read (the skinned document's three
// vertices, two inverse binds, two keys), 48 bytes a vertex and influence
// set for the skinning arrays (4 × 6 per set and 4 × 6 for the four
// influences drawn: 3 × 48 = 144); for a non-indexed triangle strip of
// four vertices with VEC3 colours, 16 bytes a vertex for the colours as
// RGBA, 4 a vertex for the vertex order and 12 a triangle (two).
func TestChargesByHand(t *testing.T) {
	m := "meshes[0].primitives[0]"
	want := map[string]int64{
		m + ".attributes.POSITION: accessors[0]": 3 * 3 * 4, m + ".attributes.NORMAL: accessors[1]": 3 * 3 * 4,
		m + ".attributes.TEXCOORD_0: accessors[2]": 3 * 2 * 4, m + ".attributes.JOINTS_0: accessors[3]": 3 * 4 * 4,
		m + ".attributes.WEIGHTS_0: accessors[4]": 3 * 4 * 4, m + ".indices: accessors[5]": 3 * 4,
		"skins[0].inverseBindMatrices: accessors[6]": 2 * 16 * 4, "animations[0].samplers[0].input: accessors[7]": 2 * 4,
		"animations[0].samplers[0].output: accessors[8]": 2 * 4 * 4, "animations[0].samplers[1].output: accessors[9]": 2 * 3 * 4,
		m + ": skin influences": 3*1*4*6 + 3*4*6,
	}
	if got := charges(t, skinnedDoc(t).bytes(t)); !maps.Equal(got, want) {
		t.Errorf("the skinned document charged\n%v\nwant\n%v", got, want)
	}
	data := append(fourVertices(t), le(t, []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1})...)
	strip := quadDoc(data, "", `{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 48}`,
		posAccessor+`, {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"}`,
		`{"attributes": {"POSITION": 0, "COLOR_0": 1}, "mode": 5}`)
	want = map[string]int64{
		m + ".attributes.POSITION: accessors[0]": 4 * 3 * 4, m + ".attributes.COLOR_0: accessors[1]": 4 * 3 * 4,
		m + ".attributes.COLOR_0": 4 * 16, m + ": vertex order": 4 * 4, m + ": triangles": 2 * 12,
	}
	if got := charges(t, strip); !maps.Equal(got, want) {
		t.Errorf("the strip charged\n%v\nwant\n%v", got, want)
	}
}
