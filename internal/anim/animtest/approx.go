package animtest

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// ApproxEqual reports whether a and b are within epsilon of each other.
func ApproxEqual(a, b, epsilon float32) bool {
	return float32(math.Abs(float64(a-b))) <= epsilon
}

// VecApprox reports whether every component of a is within epsilon of b's.
func VecApprox(a, b mgl32.Vec3, epsilon float32) bool {
	return ApproxEqual(a[0], b[0], epsilon) && ApproxEqual(a[1], b[1], epsilon) && ApproxEqual(a[2], b[2], epsilon)
}

// QuatApprox compares rotations component by component, q and −q being
// the same rotation: every component within epsilon of b's or of −b's.
// Unlike a test on |a·b|, which passes half a degree of error at 1e-5, it
// tells slerp from nlerp and a unit quaternion from an unnormalized one.
func QuatApprox(a, b mgl32.Quat, epsilon float32) bool {
	same := func(s float32) bool {
		return ApproxEqual(a.W, s*b.W, epsilon) && ApproxEqual(a.V[0], s*b.V[0], epsilon) &&
			ApproxEqual(a.V[1], s*b.V[1], epsilon) && ApproxEqual(a.V[2], s*b.V[2], epsilon)
	}
	return same(1) || same(-1)
}

// PosesEqual reports whether a and b hold the same transforms, bit for bit.
func PosesEqual(a, b []anim.Transform) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FromSoA is the pose p as transforms, a new slice of p.Len().
func FromSoA(p *anim.SoAPose) []anim.Transform {
	out := make([]anim.Transform, p.Len())
	p.ToTransforms(out)
	return out
}
