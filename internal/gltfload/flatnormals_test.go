package gltfload

import (
	"math"
	"reflect"
	"testing"
)

// TestFlatNormalsAreUnitFaceNormals: a primitive without normals is drawn
// with its faces' (glTF 2.0 §3.7.2.1: "client implementations MUST
// calculate flat normals"). The triangle (0, 0, 0), (3, −2, 0),
// (0, 6, −3) has edges e1 = (3, −2, 0) and e2 = (0, 6, −3), whose cross
// product is (6, 9, 18) = 3·(2, 3, 6): its unit normal, on each of its
// three vertices, is (2, 3, 6) / 7. A triangle whose corners lie on one
// line has no direction; it gets +Y rather than no normal at all.
func TestFlatNormalsAreUnitFaceNormals(t *testing.T) {
	p := Primitive{
		Positions: []float32{0, 0, 0, 3, -2, 0, 0, 6, -3, 1, 1, 1, 2, 2, 2, 4, 4, 4},
		Indices:   []uint32{0, 1, 2, 3, 4, 5},
	}
	q := p.WithFlatNormals()
	want := [][3]float32{{2.0 / 7, 3.0 / 7, 6.0 / 7}, {0, 1, 0}}
	if len(q.Normals) != 18 {
		t.Fatalf("%d normal floats for 6 unshared vertices; want 18", len(q.Normals))
	}
	for v := range 6 {
		w := want[v/3]
		for k := range 3 {
			if got := q.Normals[v*3+k]; !(math.Abs(float64(got-w[k])) <= 1e-6) { // NaN too
				t.Errorf("vertex %d's normal %v; want %v", v, q.Normals[v*3:v*3+3], w)
				break
			}
		}
	}
}

// TestFlatNormalsCarryEveryAttribute: the unshared copy takes each
// corner's texture coordinates (both sets), colour, joints and weights
// from the vertex its index names, in index order: triangle 2 0 1 of
// three vertices whose attributes are numbered by vertex.
func TestFlatNormalsCarryEveryAttribute(t *testing.T) {
	p := Primitive{
		Positions: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0},
		UV0:       []float32{0, 0.1, 1, 1.1, 2, 2.1},
		UV1:       []float32{10, 10.1, 11, 11.1, 12, 12.1},
		Colors:    []float32{0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 1},
		Joints:    []uint16{0, 1, 0, 0, 1, 2, 0, 0, 2, 3, 0, 0},
		Weights:   []float32{1, 0, 0, 0, 0.5, 0.5, 0, 0, 0.25, 0.75, 0, 0},
		Indices:   []uint32{2, 0, 1},
		Targets:   []MorphTarget{{Positions: []float32{0, 0, 1, 0, 0, 2, 0, 0, 3}}, {Normals: []float32{1, 0, 0, 1, 0, 0, 1, 0, 0}}},
	}
	q := p.WithFlatNormals()
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"uv0", q.UV0, []float32{2, 2.1, 0, 0.1, 1, 1.1}},
		{"uv1", q.UV1, []float32{12, 12.1, 10, 10.1, 11, 11.1}},
		{"colours", q.Colors, []float32{2, 2, 2, 1, 0, 0, 0, 1, 1, 1, 1, 1}},
		{"joints", q.Joints, []uint16{2, 3, 0, 0, 0, 1, 0, 0, 1, 2, 0, 0}},
		{"weights", q.Weights, []float32{0.25, 0.75, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0}},
		{"indices", q.Indices, []uint32{0, 1, 2}},
		// The target's positions by corner; its normals, which the face
		// normals replace, left out.
		{"targets", q.Targets, []MorphTarget{{Positions: []float32{0, 0, 3, 0, 0, 1, 0, 0, 2}}, {}}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	bare := Primitive{Positions: p.Positions, Indices: p.Indices}
	if r := bare.WithFlatNormals(); r.UV0 != nil || r.UV1 != nil || r.Colors != nil || r.Joints != nil || r.Weights != nil {
		t.Errorf("a primitive of positions alone gained attributes: %+v", r)
	}
}
