package codec

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	ct "github.com/skinview/skinview/internal/gltfload/internal/compresstest"
)

// seedMesh is a small strip of triangles with positions and a generic
// attribute, the shape of what files carry.
func seedMesh() (n int, faces []uint32, pos []float32, gen []uint8) {
	n = 12
	for v := range n {
		pos = append(pos, float32(v%6), float32(v/6), float32(v%3)*0.5)
		gen = append(gen, uint8(v), uint8(2*v), 0, 255)
	}
	for v := 0; v+7 < n; v++ {
		faces = append(faces, uint32(v), uint32(v+1), uint32(v+6))
	}
	return
}

func le(v any) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, v)
	return b.Bytes()
}

func dracoSeeds(t testing.TB) [][]byte {
	n, faces, pos, gen := seedMesh()
	attrs := []ct.DracoAttr{
		{Kind: ct.Position, DT: ct.Float32, Comps: 3, QuantBits: 11, Data: le(pos)},
		{Kind: ct.Generic, DT: ct.Uint8, Comps: 4, Data: le(gen)},
	}
	var out [][]byte
	for _, seq := range []bool{false, true} {
		enc, _ := ct.Draco(n, faces, attrs, 5, seq)
		if enc == nil {
			t.Fatal("libdraco refused to encode the seed")
		}
		out = append(out, enc)
	}
	return out
}

// decodeDracoAny decodes data as a loader would: attributes 0 and 1 as
// the seed declares them, sized by what was decoded, and the indices.
func decodeDracoAny(data []byte, limit int) {
	m, err := DecodeDraco(data)
	if err != nil {
		return
	}
	defer m.Close()
	n, f := m.NumPoints(), m.NumFaces()
	if n > limit || f > limit {
		return // a loader refuses counts its accessors do not declare
	}
	m.Attribute(0, compFloat, 3, false, make([]byte, n*12))
	m.Attribute(1, compUbyte, 4, true, make([]byte, n*4))
	m.Attribute(1, compFloat, 4, false, make([]byte, n*16))
	m.Attribute(7, compShort, 2, true, make([]byte, n*4))
	m.Indices(make([]byte, f*3*2), compUshort)
	m.Indices(make([]byte, f*3*4), compUint)
}

// FuzzDraco feeds arbitrary bytes to libdraco through DecodeDraco: no
// input may crash the process.
func FuzzDraco(f *testing.F) {
	for _, s := range dracoSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { decodeDracoAny(data, 1<<16) })
}

func meshoptSeeds() []meshoptCase {
	n, faces, pos, gen := seedMesh()
	return []meshoptCase{
		{ct.MeshoptVertices(le(pos), n, 12), n, 12, "ATTRIBUTES", "NONE"},
		{ct.MeshoptVertices(le(gen), n, 4), n, 4, "ATTRIBUTES", "OCTAHEDRAL"},
		{ct.MeshoptVertices(append(le(gen), le(gen)...), n, 8), n, 8, "ATTRIBUTES", "QUATERNION"},
		{ct.MeshoptVertices(le(pos), n, 12), n, 12, "ATTRIBUTES", "EXPONENTIAL"},
		{ct.MeshoptTriangles(faces, n), len(faces), 4, "TRIANGLES", "NONE"},
		{ct.MeshoptSequence(faces, n), len(faces), 2, "INDICES", "NONE"},
	}
}

type meshoptCase struct {
	src           []byte
	count, stride int
	mode, filter  string
}

var modes = []string{"ATTRIBUTES", "TRIANGLES", "INDICES", "STRIPS"}
var filters = []string{"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", "BOGUS"}

// FuzzMeshopt decodes arbitrary bytes with every mode and filter and
// arbitrary sizes: Meshopt refuses or decodes, and never crashes.
func FuzzMeshopt(f *testing.F) {
	for _, s := range meshoptSeeds() {
		mi, fi := 0, 0
		for k, m := range modes {
			if m == s.mode {
				mi = k
			}
		}
		for k, x := range filters {
			if x == s.filter {
				fi = k
			}
		}
		f.Add(s.src, uint16(s.count), uint16(s.stride), uint8(mi), uint8(fi))
	}
	f.Fuzz(func(t *testing.T, src []byte, count, stride uint16, mode, filter uint8) {
		c, s := int(count), int(stride)
		if c*s > 1<<22 || c < 1 || s < 1 {
			return // the loader bounds these by the view's byteLength
		}
		Meshopt(make([]byte, c*s), src, c, s, modes[int(mode)%len(modes)], filters[int(filter)%len(filters)])
	})
}

// TestDecodersSurviveDamage runs the fuzz bodies a few hundred times on
// damaged seeds (truncated, bytes flipped) as part of the normal tests.
func TestDecodersSurviveDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	damage := func(s []byte) []byte {
		d := append([]byte(nil), s[:rng.IntN(len(s)+1)]...)
		for range rng.IntN(4) {
			if len(d) > 0 {
				d[rng.IntN(len(d))] ^= byte(1 << rng.IntN(8))
			}
		}
		return d
	}
	for _, s := range dracoSeeds(t) {
		for range 300 {
			decodeDracoAny(damage(s), 1<<16)
		}
	}
	for _, s := range meshoptSeeds() {
		for range 300 {
			d := damage(s.src)
			if len(d) > 0 {
				Meshopt(make([]byte, s.count*s.stride), d, s.count, s.stride, s.mode, s.filter)
			}
		}
		// The undamaged seed decodes.
		if err := Meshopt(make([]byte, s.count*s.stride), s.src, s.count, s.stride, s.mode, s.filter); err != nil {
			t.Fatalf("%s %s: %v", s.mode, s.filter, err)
		}
	}
}
