package graph

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim/animtest"
)

func TestTriangulate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	square := []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	random := append([]mgl32.Vec2(nil), square...)
	for i := 0; i < 12; i++ {
		random = append(random, mgl32.Vec2{0.05 + 0.9*rng.Float32(), 0.05 + 0.9*rng.Float32()})
	}
	cases := []struct {
		name string
		pts  []mgl32.Vec2
	}{
		{"triangle", []mgl32.Vec2{{0, 0}, {2, 0}, {0, 2}}},
		{"square and centre", append(append([]mgl32.Vec2(nil), square...), mgl32.Vec2{0.5, 0.5})},
		{"square and 12 random inside", random},
		{"large coordinates", []mgl32.Vec2{{-300, -300}, {300, -300}, {-300, 300}, {300, 300}, {10, 20}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tris, err := triangulate(tc.pts)
			if err != nil {
				t.Fatal(err)
			}
			hull := convexHullArea(tc.pts)
			h := hullCount(tc.pts)
			// Euler: a triangulation of n points, h of them on the hull,
			// has 2n − h − 2 triangles.
			if want := 2*len(tc.pts) - h - 2; len(tris) != want {
				t.Fatalf("%d triangles, want %d", len(tris), want)
			}
			var area float64
			for _, tr := range tris {
				a, b, c := tc.pts[tr[0]], tc.pts[tr[1]], tc.pts[tr[2]]
				signed := 0.5 * float64((b[0]-a[0])*(c[1]-a[1])-(b[1]-a[1])*(c[0]-a[0]))
				if signed <= 0 {
					t.Fatalf("triangle %v is not counter-clockwise", tr)
				}
				area += signed
				// Empty circumcircle, checked with the circumcentre formula.
				cx, cy, r2 := circumcircle(a, b, c)
				for i, p := range tc.pts {
					if i == tr[0] || i == tr[1] || i == tr[2] {
						continue
					}
					dx, dy := float64(p[0])-cx, float64(p[1])-cy
					if dx*dx+dy*dy < r2*(1-1e-6) {
						t.Fatalf("point %d %v inside the circumcircle of %v", i, p, tr)
					}
				}
			}
			if math.Abs(area-hull) > 1e-6*hull {
				t.Fatalf("triangles cover %v, hull area %v", area, hull)
			}
		})
	}
}

func TestTriangulateRejects(t *testing.T) {
	cases := []struct {
		name string
		pts  []mgl32.Vec2
	}{
		{"two points", []mgl32.Vec2{{0, 0}, {1, 0}}},
		{"collinear", []mgl32.Vec2{{0, 0}, {1, 1}, {2, 2}, {3, 3}}},
		{"duplicate", []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}, {1, 0}}},
	}
	for _, tc := range cases {
		if _, err := triangulate(tc.pts); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

func TestTriangleWeights(t *testing.T) {
	pts := []mgl32.Vec2{{0, 0}, {2, 0}, {0, 2}, {2, 2}, {0.7, 1.1}}
	tris, err := triangulate(pts)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float32, len(pts))
	cases := []struct {
		name string
		p    mgl32.Vec2
		want mgl32.Vec2 // where the weights put the blended point
	}{
		{"inside reproduces the point", mgl32.Vec2{1.3, 0.4}, mgl32.Vec2{1.3, 0.4}},
		{"on a sample", mgl32.Vec2{0.7, 1.1}, mgl32.Vec2{0.7, 1.1}},
		{"outside projects onto the hull", mgl32.Vec2{3, 1}, mgl32.Vec2{2, 1}},
		{"outside a corner is the corner", mgl32.Vec2{-1, -1}, mgl32.Vec2{0, 0}},
	}
	for _, tc := range cases {
		triangleWeights(pts, tris, tc.p, w)
		// Barycentric weights have linear precision: Σ wᵢ·pᵢ = p.
		var got mgl32.Vec2
		var sum float32
		for i, x := range w {
			if x < 0 {
				t.Fatalf("%s: negative weight %v", tc.name, w)
			}
			got = got.Add(pts[i].Mul(x))
			sum += x
		}
		if !animtest.ApproxEqual(sum, 1, 1e-6) || !animtest.ApproxEqual(got[0], tc.want[0], 1e-5) || !animtest.ApproxEqual(got[1], tc.want[1], 1e-5) {
			t.Errorf("%s: weights %v sum %v place the point at %v, want %v", tc.name, w, sum, got, tc.want)
		}
	}
	triangleWeights(pts, tris, pts[4], w)
	if w[4] != 1 {
		t.Errorf("a sample point must weigh exactly 1, got %v", w)
	}
}

// circumcircle returns the centre and squared radius of abc.
func circumcircle(a, b, c mgl32.Vec2) (x, y, r2 float64) {
	ax, ay := float64(a[0]), float64(a[1])
	bx, by := float64(b[0]), float64(b[1])
	cx, cy := float64(c[0]), float64(c[1])
	d := 2 * (ax*(by-cy) + bx*(cy-ay) + cx*(ay-by))
	x = ((ax*ax+ay*ay)*(by-cy) + (bx*bx+by*by)*(cy-ay) + (cx*cx+cy*cy)*(ay-by)) / d
	y = ((ax*ax+ay*ay)*(cx-bx) + (bx*bx+by*by)*(ax-cx) + (cx*cx+cy*cy)*(bx-ax)) / d
	return x, y, (ax-x)*(ax-x) + (ay-y)*(ay-y)
}

// hull returns the convex hull, counter-clockwise (Andrew's monotone
// chain), without collinear points.
func hull(pts []mgl32.Vec2) []mgl32.Vec2 {
	p := append([]mgl32.Vec2(nil), pts...)
	for i := 1; i < len(p); i++ { // insertion sort by x, then y
		for j := i; j > 0 && (p[j][0] < p[j-1][0] || (p[j][0] == p[j-1][0] && p[j][1] < p[j-1][1])); j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	cross := func(o, a, b mgl32.Vec2) float64 {
		return float64(a[0]-o[0])*float64(b[1]-o[1]) - float64(a[1]-o[1])*float64(b[0]-o[0])
	}
	var h []mgl32.Vec2
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, q := range p {
			for len(h) >= start+2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
	}
	return h
}

func hullCount(pts []mgl32.Vec2) int { return len(hull(pts)) }

func convexHullArea(pts []mgl32.Vec2) float64 {
	h := hull(pts)
	var a float64
	for i := range h {
		j := (i + 1) % len(h)
		a += float64(h[i][0])*float64(h[j][1]) - float64(h[j][0])*float64(h[i][1])
	}
	return a / 2
}

// barycentric on a triangle away from the origin: points built from known
// coordinates come back with them, inside or out, and a flat triangle has
// none.
func TestBarycentricExact(t *testing.T) {
	a, b, c := mgl32.Vec2{1, 2}, mgl32.Vec2{5, 3}, mgl32.Vec2{2, 7}
	for _, w := range [][3]float32{{0.2, 0.3, 0.5}, {0.6, 0.1, 0.3}, {0.5, 0.5, 0}, {1, 0, 0}, {-0.2, 0.7, 0.5}, {0.4, -0.1, 0.7}, {0.3, 0.9, -0.2}} {
		p := a.Mul(w[0]).Add(b.Mul(w[1])).Add(c.Mul(w[2]))
		u, v, s, ok := barycentric(a, b, c, p)
		if !animtest.ApproxEqual(u, w[0], 1e-5) || !animtest.ApproxEqual(v, w[1], 1e-5) || !animtest.ApproxEqual(s, w[2], 1e-5) {
			t.Errorf("barycentric of %v = (%v, %v, %v), want %v", p, u, v, s, w)
		}
		if inside := w[0] >= 0 && w[1] >= 0 && w[2] >= 0; ok != inside {
			t.Errorf("barycentric of %v (coordinates %v) says inside = %v", p, w, ok)
		}
	}
	if _, _, _, ok := barycentric(a, b, b.Mul(2).Sub(a), b); ok {
		t.Error("a flat triangle contains a point")
	}
}

// rectWeights on a rectangle away from the origin, by hand: p = (2, 3.5)
// in [1, 5]×[2, 4] is u = 0.25, v = 0.75 of the way, so the corners weigh
// (1−u)(1−v), u(1−v), (1−u)v, uv; outside, p clamps to the rectangle.
func TestRectWeightsByHand(t *testing.T) {
	lo, hi := mgl32.Vec2{1, 2}, mgl32.Vec2{5, 4}
	corner := [4]int{2, 0, 3, 1} // samples in another order than the corners
	w := make([]float32, 4)
	rectWeights(lo, hi, corner, mgl32.Vec2{2, 3.5}, w)
	want := []float32{0.0625, 0.1875, 0.1875, 0.5625} // by sample: corner 1, 3, 0, 2
	for i := range w {
		if !animtest.ApproxEqual(w[i], want[i], 1e-6) {
			t.Fatalf("weights %v, want %v", w, want)
		}
	}
	rectWeights(lo, hi, corner, mgl32.Vec2{6, 1}, w) // clamps to (5, 2): corner 1 alone
	if w[0] != 1 || w[1] != 0 || w[2] != 0 || w[3] != 0 {
		t.Fatalf("outside weights %v, want all on sample 0", w)
	}
}

// snapWeights drops weights below weightSnap (keeping one equal to it) and
// scales the rest to sum 1; weights that are all dropped stay zero.
func TestSnapWeights(t *testing.T) {
	w := []float32{0.5, weightSnap / 2, 0.25, weightSnap}
	snapWeights(w)
	sum := float32(0.75 + weightSnap)
	if want := []float32{0.5 / sum, 0, 0.25 / sum, weightSnap / sum}; !animtest.ApproxEqual(w[0], want[0], 1e-7) || w[1] != 0 || !animtest.ApproxEqual(w[2], want[2], 1e-7) || !animtest.ApproxEqual(w[3], want[3], 1e-7) {
		t.Fatalf("snapped %v, want %v", w, want)
	}
	w = []float32{weightSnap / 2, 0}
	snapWeights(w)
	if w[0] != 0 || w[1] != 0 {
		t.Fatalf("all-small weights snapped to %v, want zeros", w)
	}
}
