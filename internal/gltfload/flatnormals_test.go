package gltfload

import (
	"math"
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
