package gltfload

import (
	"slices"
	"testing"

	"github.com/qmuntal/gltf"
)

// TestAccessorReadsOddLayouts pins the layouts where qmuntal/gltf's
// modeler.ReadAccessor would read differently from glTF or not at all,
// which is why rawAccessor walks accessors itself (see its comment).
func TestAccessorReadsOddLayouts(t *testing.T) {
	le16 := func(v ...int16) (b []byte) {
		for _, x := range v {
			b = append(b, byte(x), byte(uint16(x)>>8))
		}
		return b
	}
	le32 := func(v ...uint32) (b []byte) {
		for _, x := range v {
			b = append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
		}
		return b
	}
	one := func(x int) *int { return &x }
	cases := []struct {
		name      string
		views     [][]byte // one buffer and view each
		strides   []int
		acc       gltf.Accessor
		normalize bool
		want      []float64
	}{
		{name: "normalized SHORT VEC3 with byteStride 6 (modeler refuses it), -32768 clamped to -1",
			views: [][]byte{le16(-32768, 0, 32767, 16384, -16384, 1)}, strides: []int{6},
			acc:       gltf.Accessor{BufferView: one(0), ComponentType: gltf.ComponentShort, Normalized: true, Type: gltf.AccessorVec3, Count: 2},
			normalize: true, want: []float64{-1, 0, 1, 16384.0 / 32767, -16384.0 / 32767, 1.0 / 32767}},
		{name: "sparse on views with a byteStride (glTF packs sparse arrays tightly; modeler would apply it)",
			views: [][]byte{le16(1, 3), le32(0x40a00000, 0x40e00000)}, strides: []int{4, 8},
			acc: gltf.Accessor{ComponentType: gltf.ComponentFloat, Type: gltf.AccessorScalar, Count: 4, Sparse: &gltf.Sparse{Count: 2,
				Indices: gltf.SparseIndices{BufferView: 0, ComponentType: gltf.ComponentUshort}, Values: gltf.SparseValues{BufferView: 1}}},
			want: []float64{0, 5, 0, 7}},
		{name: "sparse UNSIGNED_INT MAT3 (modeler panics on it)",
			views: [][]byte{le32(1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0), {0}, le32(9, 8, 7, 6, 5, 4, 3, 2, 1)}, strides: []int{0, 0, 0},
			acc: gltf.Accessor{BufferView: one(0), ComponentType: gltf.ComponentUint, Type: gltf.AccessorMat3, Count: 2, Sparse: &gltf.Sparse{Count: 1,
				Indices: gltf.SparseIndices{BufferView: 1, ComponentType: gltf.ComponentUbyte}, Values: gltf.SparseValues{BufferView: 2}}},
			want: []float64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
		{name: "UNSIGNED_BYTE MAT2, columns padded to 4 bytes, in column order (modeler gives [row][col])",
			views: [][]byte{{1, 2, 99, 99, 3, 4, 99, 99}}, strides: []int{0},
			acc:  gltf.Accessor{BufferView: one(0), ComponentType: gltf.ComponentUbyte, Type: gltf.AccessorMat2, Count: 1},
			want: []float64{1, 2, 3, 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := &gltf.Document{Accessors: []*gltf.Accessor{&tc.acc}}
			for k, data := range tc.views {
				doc.Buffers = append(doc.Buffers, &gltf.Buffer{ByteLength: len(data), Data: data})
				doc.BufferViews = append(doc.BufferViews, &gltf.BufferView{Buffer: k, ByteLength: len(data), ByteStride: tc.strides[k]})
			}
			l := &loader{doc: doc, model: &Model{}}
			l.setBudget(1 << 10)
			l.accChecked = make([]bool, 1)
			n := tc.acc.Type.Components()
			got := make([]float64, tc.acc.Count*n)
			if err := l.rawAccessor(0, tc.normalize, func(e, c int, v float64) { got[e*n+c] = v }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("read %v, want %v", got, tc.want)
			}
		})
	}
}

// TestComponentTypes pins each component type's name, number and size to
// the specification's table of accessor component types (§3.6.2.2), and
// which of them a sparse index may have (§5.1.3: unsigned only).
func TestComponentTypes(t *testing.T) {
	for _, c := range []struct {
		ct          gltf.ComponentType
		name        string
		gl, size    int
		sparseIndex bool
	}{
		{gltf.ComponentByte, "BYTE", 5120, 1, false},
		{gltf.ComponentUbyte, "UNSIGNED_BYTE", 5121, 1, true},
		{gltf.ComponentShort, "SHORT", 5122, 2, false},
		{gltf.ComponentUshort, "UNSIGNED_SHORT", 5123, 2, true},
		{gltf.ComponentUint, "UNSIGNED_INT", 5125, 4, true},
		{gltf.ComponentFloat, "FLOAT", 5126, 4, false},
	} {
		lay, err := layoutOf(&gltf.Accessor{ComponentType: c.ct, Type: gltf.AccessorScalar})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		wantSparse := 0
		if c.sparseIndex {
			wantSparse = c.size
		}
		if got := componentName(c.ct); got != c.name {
			t.Errorf("componentName(%d) = %q, want %q", c.ct, got, c.name)
		}
		if got := glComponent(c.ct); got != c.gl {
			t.Errorf("%s: glComponent = %d, want %d", c.name, got, c.gl)
		}
		if lay.compSize != c.size {
			t.Errorf("%s: component size %d, want %d", c.name, lay.compSize, c.size)
		}
		if got := sparseIndexSize(c.ct); got != wantSparse {
			t.Errorf("%s: sparse index size %d, want %d", c.name, got, wantSparse)
		}
	}
	if _, err := layoutOf(&gltf.Accessor{ComponentType: gltf.ComponentUint + 1, Type: gltf.AccessorScalar}); err == nil {
		t.Errorf("an unknown component type has a layout")
	}
	if got := componentName(gltf.ComponentUint + 1); got != "componentType(6)" {
		t.Errorf("componentName of an unknown type = %q", got)
	}
}

// TestSetIndex: the set index of an attribute semantic "NAME_n" is n, a
// decimal number without leading zeros (glTF §3.7.2.1: TEXCOORD_0,
// TEXCOORD_1, …), of at most six digits here; anything else is no set.
func TestSetIndex(t *testing.T) {
	for _, tc := range []struct {
		sem  string
		want int
	}{
		{"TEXCOORD_0", 0}, {"TEXCOORD_9", 9}, {"JOINTS_12", 12}, {"COLOR_305", 305},
		{"TEXCOORD_999999", 999999}, {"TEXCOORD_1000000", -1}, // six digits, seven
		{"TEXCOORD_01", -1}, {"TEXCOORD_00", -1}, // leading zeros
		{"TEXCOORD_", -1}, {"TEXCOORD", -1}, {"TEXCOORD_1a", -1},
		{"TEXCOORD_/", -1}, {"TEXCOORD_:", -1}, // the bytes either side of '0'…'9'
	} {
		if got := setIndex(tc.sem); got != tc.want {
			t.Errorf("setIndex(%q) = %d, want %d", tc.sem, got, tc.want)
		}
	}
}
