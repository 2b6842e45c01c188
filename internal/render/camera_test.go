package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestFrameBoundsFitsEveryCorner projects the box's corners with the
// camera's own matrices: all must land inside the clip volume, and at
// least one near its edge (the framing is tight, not just safe).
func TestFrameBoundsFitsEveryCorner(t *testing.T) {
	cases := []struct {
		name     string
		min, max mgl32.Vec3
		aspect   float32
	}{
		{"standing character, landscape", mgl32.Vec3{-0.4, 0, -0.2}, mgl32.Vec3{0.4, 1.8, 0.2}, 4.0 / 3},
		{"standing character, portrait", mgl32.Vec3{-0.4, 0, -0.2}, mgl32.Vec3{0.4, 1.8, 0.2}, 0.8},
		{"long animal in centimetres", mgl32.Vec3{-12, 0, -83}, mgl32.Vec3{22, 77, 64}, 1},
		{"flat box off the origin", mgl32.Vec3{100, 5, 100}, mgl32.Vec3{101, 5, 102}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := FrameBounds(tc.min, tc.max, tc.aspect)
			vp := c.Proj(tc.aspect).Mul4(c.View())
			edge := 0.0
			for i := 0; i < 8; i++ {
				p := mgl32.Vec3{tc.min[0], tc.min[1], tc.min[2]}
				if i&1 != 0 {
					p[0] = tc.max[0]
				}
				if i&2 != 0 {
					p[1] = tc.max[1]
				}
				if i&4 != 0 {
					p[2] = tc.max[2]
				}
				q := vp.Mul4x1(p.Vec4(1))
				x, y, z := q[0]/q[3], q[1]/q[3], q[2]/q[3]
				if q[3] <= 0 || math.Abs(float64(x)) > 1 || math.Abs(float64(y)) > 1 || math.Abs(float64(z)) > 1 {
					t.Fatalf("corner %v projects to (%.3f, %.3f, %.3f) w=%.3f: outside the view", p, x, y, z, q[3])
				}
				edge = math.Max(edge, math.Max(math.Abs(float64(x)), math.Abs(float64(y))))
			}
			if edge < 0.8 {
				t.Fatalf("farthest corner reaches only %.2f of the half-view; framing is loose", edge)
			}
		})
	}
}

func TestProjectCentreAndBehind(t *testing.T) {
	c := FrameBounds(mgl32.Vec3{-1, -1, -1}, mgl32.Vec3{1, 1, 1}, 1)
	x, y, ok := c.Project(c.Target, 200, 100)
	if !ok || math.Abs(float64(x-100)) > 1e-3 || math.Abs(float64(y-50)) > 1e-3 {
		t.Fatalf("the target projects to (%v, %v, %v), want the viewport centre (100, 50)", x, y, ok)
	}
	behind := c.Eye().Add(c.Eye().Sub(c.Target))
	if _, _, ok := c.Project(behind, 200, 100); ok {
		t.Fatal("a point behind the camera projected as visible")
	}
}
