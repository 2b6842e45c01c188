package codec

import (
	"slices"
	"testing"

	ct "github.com/skinview/skinview/internal/gltfload/internal/compresstest"
)

// TestDracoScalarAttribute: an attribute of one component per vertex (a
// SCALAR accessor, as Cesium's _BATCHID is) decodes, exact where it is not
// quantized: the seed mesh's twelve vertices carry 0.5, 1.5, … 11.5.
func TestDracoScalarAttribute(t *testing.T) {
	n, faces, pos, _ := seedMesh()
	scalar := make([]float32, n)
	for v := range scalar {
		scalar[v] = float32(v) + 0.5
	}
	enc, ids := ct.Draco(n, faces, []ct.DracoAttr{
		{Kind: ct.Position, DT: ct.Float32, Comps: 3, Data: le(pos)},
		{Kind: ct.Generic, DT: ct.Float32, Comps: 1, Data: le(scalar)},
	}, 5, true)
	if enc == nil {
		t.Fatal("libdraco did not encode the mesh")
	}
	m, err := DecodeDraco(enc)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.NumPoints() != n {
		t.Fatalf("%d points decoded, want %d", m.NumPoints(), n)
	}
	dst := make([]byte, 4*n)
	if err := m.Attribute(ids[1], compFloat, 1, false, dst); err != nil {
		t.Fatalf("the scalar attribute: %v", err)
	}
	if got := le(scalar); !slices.Equal(dst, got) {
		t.Errorf("decoded %v, want the bytes of %v", dst, scalar)
	}
}
