package graph

import (
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// triangle holds three point indices in counter-clockwise order.
type triangle [3]int

// triangulate returns the Delaunay triangulation of a 2D blend space's
// sample points (Bowyer–Watson, GEA §12.6.3.1 "generalized 2D blending").
// It runs once, when a blend tree is built, so it favours clarity over
// speed: O(n²) for the handful of points a blend space has. Duplicate
// points and sets with no area (fewer than three points, or all on a line)
// are errors.
func triangulate(pts []mgl32.Vec2) ([]triangle, error) {
	n := len(pts)
	if n < 3 {
		return nil, fmt.Errorf("%d points cannot be triangulated; want at least 3", n)
	}
	// Work in float64 on points scaled into the unit square, so the
	// tolerances below do not depend on the units of the parameters.
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, float64(p[0])), math.Max(maxX, float64(p[0]))
		minY, maxY = math.Min(minY, float64(p[1])), math.Max(maxY, float64(p[1]))
	}
	span := math.Max(maxX-minX, maxY-minY)
	if !(span > 0) || math.IsInf(span, 0) {
		return nil, errors.New("points have no extent")
	}
	v := make([][2]float64, n, n+3)
	for i, p := range pts {
		v[i] = [2]float64{(float64(p[0]) - minX) / span, (float64(p[1]) - minY) / span}
		for k := 0; k < i; k++ {
			if v[k] == v[i] {
				return nil, fmt.Errorf("points %d and %d are both at (%g, %g)", k, i, p[0], p[1])
			}
		}
	}
	collinear := true
	for i := 2; i < n && collinear; i++ {
		collinear = math.Abs(orient(v[0], v[1], v[i])) < 1e-12
	}
	if collinear {
		return nil, errors.New("all points lie on one line")
	}

	// A super-triangle far outside the unit square contains every point.
	const big = 1e4
	v = append(v, [2]float64{-big, -big}, [2]float64{big, -big}, [2]float64{0, big})
	tris := []triangle{{n, n + 1, n + 2}}
	type edge struct{ a, b int }
	var bad []int
	var hole []edge
	for i := 0; i < n; i++ {
		bad, hole = bad[:0], hole[:0]
		for t, tr := range tris {
			if inCircumcircle(v[tr[0]], v[tr[1]], v[tr[2]], v[i]) {
				bad = append(bad, t)
			}
		}
		// The hole's boundary is the edges that belong to exactly one bad
		// triangle; shared edges are interior to the hole.
		for _, t := range bad {
			tr := tris[t]
			for e := 0; e < 3; e++ {
				a, b := tr[e], tr[(e+1)%3]
				shared := false
				for _, u := range bad {
					if u != t && hasEdge(tris[u], a, b) {
						shared = true
						break
					}
				}
				if !shared {
					hole = append(hole, edge{a, b})
				}
			}
		}
		kept := tris[:0]
		for t, tr := range tris {
			if !containsInt(bad, t) {
				kept = append(kept, tr)
			}
		}
		tris = kept
		for _, e := range hole {
			tris = append(tris, ccw(v, triangle{e.a, e.b, i}))
		}
	}
	out := tris[:0]
	for _, tr := range tris {
		if tr[0] < n && tr[1] < n && tr[2] < n {
			out = append(out, tr)
		}
	}
	return out, nil
}

// orient is twice the signed area of abc: positive when counter-clockwise.
func orient(a, b, c [2]float64) float64 {
	return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
}

// inCircumcircle reports whether p lies strictly inside the circle through
// a, b, c (the classic 3×3 determinant, sign-corrected for orientation).
func inCircumcircle(a, b, c, p [2]float64) bool {
	ax, ay := a[0]-p[0], a[1]-p[1]
	bx, by := b[0]-p[0], b[1]-p[1]
	cx, cy := c[0]-p[0], c[1]-p[1]
	det := (ax*ax+ay*ay)*(bx*cy-cx*by) - (bx*bx+by*by)*(ax*cy-cx*ay) + (cx*cx+cy*cy)*(ax*by-bx*ay)
	if orient(a, b, c) < 0 {
		det = -det
	}
	return det > 1e-12
}

func hasEdge(t triangle, a, b int) bool {
	for e := 0; e < 3; e++ {
		x, y := t[e], t[(e+1)%3]
		if (x == a && y == b) || (x == b && y == a) {
			return true
		}
	}
	return false
}

func containsInt(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func ccw(v [][2]float64, t triangle) triangle {
	if orient(v[t[0]], v[t[1]], v[t[2]]) < 0 {
		t[1], t[2] = t[2], t[1]
	}
	return t
}

// weightSnap is the blend weight below which a sample is dropped: a
// parameter on a sample point or an edge then samples one or two clips, and
// reproduces a sample point's clip exactly rather than within rounding.
const weightSnap = 1e-5

// triangleWeights writes the blend weights of p over the triangulated
// samples pts into w (len(w) == len(pts)): barycentric coordinates in the
// triangle that contains p, or, outside the convex hull, the weights of the
// nearest point on the hull's boundary. It allocates nothing.
func triangleWeights(pts []mgl32.Vec2, tris []triangle, p mgl32.Vec2, w []float32) {
	clear(w)
	for _, t := range tris {
		a, b, c := pts[t[0]], pts[t[1]], pts[t[2]]
		u, v, s, ok := barycentric(a, b, c, p)
		if ok {
			w[t[0]], w[t[1]], w[t[2]] = u, v, s
			snapWeights(w)
			return
		}
	}
	// Outside every triangle: the nearest point on any edge is on the hull.
	best := float32(math.Inf(1))
	bi, bj, bt := 0, 0, float32(0)
	for _, t := range tris {
		for e := 0; e < 3; e++ {
			i, j := t[e], t[(e+1)%3]
			a, b := pts[i], pts[j]
			ab := b.Sub(a)
			tt := float32(0)
			if l2 := ab.Dot(ab); l2 > 0 {
				tt = anim.Clamp01(p.Sub(a).Dot(ab) / l2)
			}
			d := a.Add(ab.Mul(tt)).Sub(p)
			if d2 := d.Dot(d); d2 < best {
				best, bi, bj, bt = d2, i, j, tt
			}
		}
	}
	w[bi], w[bj] = 1-bt, bt
	snapWeights(w)
}

// barycentric returns p's barycentric coordinates in triangle abc and
// whether p lies inside it (within a small tolerance on the edges).
func barycentric(a, b, c, p mgl32.Vec2) (float32, float32, float32, bool) {
	v0, v1, v2 := b.Sub(a), c.Sub(a), p.Sub(a)
	den := v0[0]*v1[1] - v1[0]*v0[1]
	if den == 0 {
		return 0, 0, 0, false
	}
	v := (v2[0]*v1[1] - v1[0]*v2[1]) / den
	s := (v0[0]*v2[1] - v2[0]*v0[1]) / den
	u := 1 - v - s
	const tol = -1e-6
	return u, v, s, u >= tol && v >= tol && s >= tol
}

// rectWeights writes the bilinear weights of p over four samples at the
// corners of an axis-aligned rectangle; corner[k] is the sample index at
// (x0, y0), (x1, y0), (x0, y1), (x1, y1) for k = 0…3. p is clamped to the
// rectangle.
func rectWeights(lo, hi mgl32.Vec2, corner [4]int, p mgl32.Vec2, w []float32) {
	clear(w)
	u := anim.Clamp01((p[0] - lo[0]) / (hi[0] - lo[0]))
	v := anim.Clamp01((p[1] - lo[1]) / (hi[1] - lo[1]))
	w[corner[0]] = (1 - u) * (1 - v)
	w[corner[1]] = u * (1 - v)
	w[corner[2]] = (1 - u) * v
	w[corner[3]] = u * v
	snapWeights(w)
}

// Bilinear reports whether a blend2d node with these points and mode
// weighs them bilinearly (four corners of an axis-aligned rectangle, and
// not forced to triangulate) rather than by triangles.
func Bilinear(points []mgl32.Vec2, mode Blend2DMode) bool {
	if mode == Blend2DTriangulate {
		return false
	}
	_, _, _, ok := rectCorners(points)
	return ok
}

// rectCorners recognises four points at the corners of an axis-aligned
// rectangle and returns the bounds and the corner order rectWeights wants.
func rectCorners(pts []mgl32.Vec2) (lo, hi mgl32.Vec2, corner [4]int, ok bool) {
	if len(pts) != 4 {
		return lo, hi, corner, false
	}
	lo, hi = pts[0], pts[0]
	for _, p := range pts[1:] {
		lo = mgl32.Vec2{min(lo[0], p[0]), min(lo[1], p[1])}
		hi = mgl32.Vec2{max(hi[0], p[0]), max(hi[1], p[1])}
	}
	if lo[0] == hi[0] || lo[1] == hi[1] {
		return lo, hi, corner, false
	}
	seen := 0
	for i, p := range pts {
		k := 0
		switch {
		case p[0] == lo[0]:
		case p[0] == hi[0]:
			k |= 1
		default:
			return lo, hi, corner, false
		}
		switch {
		case p[1] == lo[1]:
		case p[1] == hi[1]:
			k |= 2
		default:
			return lo, hi, corner, false
		}
		if seen&(1<<k) != 0 {
			return lo, hi, corner, false
		}
		seen |= 1 << k
		corner[k] = i
	}
	return lo, hi, corner, true
}

// snapWeights drops weights below weightSnap and renormalizes the rest to
// sum to 1 (where they sum to 1 already, as a blend's two neighbours
// do, dividing by it would change nothing).
func snapWeights(w []float32) {
	var sum float32
	for i, x := range w {
		if x < weightSnap {
			w[i] = 0
			continue
		}
		sum += x
	}
	if sum <= 0 || sum == 1 {
		return
	}
	for i := range w {
		w[i] /= sum
	}
}

// Triangulate returns the Delaunay triangles of a 2D blend space's sample
// points (index triples, counter-clockwise): what a NodeBlend2D in
// triangulating mode blends within, for display.
func Triangulate(pts []mgl32.Vec2) ([][3]int, error) {
	tris, err := triangulate(pts)
	if err != nil {
		return nil, err
	}
	out := make([][3]int, len(tris))
	for i, t := range tris {
		out[i] = [3]int(t)
	}
	return out, nil
}
