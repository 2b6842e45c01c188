package render

import (
	"math"
	"testing"
)

// TestGridFollows: a grid of lines every 0.5 crossing at (0.2, -0.1),
// 2 either side of its centre, moved under a point 10.3 away in x and
// -3.9 in z (20.6 and -7.8 steps) is centred on the crossing nearest
// it, 21 and -8 steps off: (10.7, -4.1); its
// lines still lie on the same crossings (x = 0.2 + 0.5k) and it needs no
// new buffer. A point within half a step of the centre moves nothing.
func TestGridFollows(t *testing.T) {
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-4 }
	onLine := func(v, origin float32) bool {
		k := (v - origin) / 0.5
		return near(k, float32(math.Round(float64(k))))
	}
	g := MakeGrid(0.2, -0.1, 0, 0.5, 2)
	if n := len(g.Segments); n != 9*2*6 {
		t.Fatalf("%d floats; want 9 lines each way, 6 floats a line", n)
	}
	first := &g.Segments[0]
	g.Follow(0.4, 0.1) // within a quarter step: stays
	if x, z := g.Centre(); x != 0.2 || z != -0.1 || g.Segments[0] != 0.2-2 {
		t.Errorf("a point 0.2 off the centre moved the grid to (%v, %v)", x, z)
	}
	g.Follow(10.5, -4)
	if x, z := g.Centre(); !near(x, 10.7) || !near(z, -4.1) {
		t.Errorf("under (10.5, -4) the grid's centre is (%v, %v); want (10.7, -4.1)", x, z)
	}
	if &g.Segments[0] != first {
		t.Error("following the camera made a new buffer")
	}
	for i := 0; i < len(g.Segments); i += 12 {
		s := g.Segments[i : i+12]
		// s[0:6] runs along z at x = s[0]; s[6:12] along x at z = s[8].
		if !onLine(s[0], 0.2) || !onLine(s[8], -0.1) {
			t.Fatalf("line at x %v, z %v is off the crossings of x = 0.2 + 0.5k, z = -0.1 + 0.5k", s[0], s[8])
		}
		if !near(s[2], -4.1-2) || !near(s[5], -4.1+2) || !near(s[6], 10.7-2) || !near(s[9], 10.7+2) {
			t.Fatalf("segments %v do not span 2 either side of (10.7, -4.1)", s)
		}
	}
}
