package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Transform is a joint's local pose: scale, then rotation, then translation
// (the glTF and GEA §12.3 convention, M = T·R·S).
type Transform struct {
	Translation mgl32.Vec3 // metres (model units), relative to the parent joint
	Rotation    mgl32.Quat // unit quaternion
	Scale       mgl32.Vec3 // per-axis factor, 1 = unscaled
}

// IdentityTransform is the rest transform of a joint that has none: no
// translation, no rotation, unit scale.
var IdentityTransform = Transform{Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}

// Mat4 returns T·R·S as a column-major matrix. It is written out rather than
// built from three matrix products because it runs once per joint per frame.
func (t Transform) Mat4() mgl32.Mat4 {
	x, y, z, w := t.Rotation.V[0], t.Rotation.V[1], t.Rotation.V[2], t.Rotation.W
	xx, yy, zz := x*x, y*y, z*z
	xy, xz, yz := x*y, x*z, y*z
	wx, wy, wz := w*x, w*y, w*z
	sx, sy, sz := t.Scale[0], t.Scale[1], t.Scale[2]
	return mgl32.Mat4{
		(1 - 2*(yy+zz)) * sx, 2 * (xy + wz) * sx, 2 * (xz - wy) * sx, 0,
		2 * (xy - wz) * sy, (1 - 2*(xx+zz)) * sy, 2 * (yz + wx) * sy, 0,
		2 * (xz + wy) * sz, 2 * (yz - wx) * sz, (1 - 2*(xx+yy)) * sz, 0,
		t.Translation[0], t.Translation[1], t.Translation[2], 1,
	}
}

// DecomposeMat4 splits an affine matrix into translation, rotation and scale.
// A negative determinant is carried by a negative X scale. Shear, which glTF
// forbids in node matrices, is lost.
func DecomposeMat4(m mgl32.Mat4) Transform {
	c0 := mgl32.Vec3{m[0], m[1], m[2]}
	c1 := mgl32.Vec3{m[4], m[5], m[6]}
	c2 := mgl32.Vec3{m[8], m[9], m[10]}
	sx, sy, sz := c0.Len(), c1.Len(), c2.Len()
	if c0.Cross(c1).Dot(c2) < 0 {
		sx = -sx
	}
	t := Transform{Translation: mgl32.Vec3{m[12], m[13], m[14]}, Scale: mgl32.Vec3{sx, sy, sz}, Rotation: mgl32.QuatIdent()}
	if sx == 0 || sy == 0 || sz == 0 {
		return t
	}
	r := mgl32.Mat4{
		m[0] / sx, m[1] / sx, m[2] / sx, 0,
		m[4] / sy, m[5] / sy, m[6] / sy, 0,
		m[8] / sz, m[9] / sz, m[10] / sz, 0,
		0, 0, 0, 1,
	}
	t.Rotation = mgl32.Mat4ToQuat(r).Normalize()
	return t
}

// Slerp interpolates two unit quaternions along the shortest arc: when their
// dot product is negative, b is negated first (q and -q are the same
// rotation). mathgl's QuatSlerp does not do this and would take the long way.
func Slerp(a, b mgl32.Quat, u float32) mgl32.Quat {
	d := a.Dot(b)
	if d < 0 {
		b = mgl32.Quat{W: -b.W, V: b.V.Mul(-1)}
		d = -d
	}
	// Close rotations: sin(θ) is tiny, so the normalized lerp is both exact
	// to float32 precision and safe from the division.
	if d > 0.9995 {
		return nlerp(a, b, u)
	}
	theta := math.Acos(float64(d))
	s := math.Sin(theta)
	wa := float32(math.Sin((1-float64(u))*theta) / s)
	wb := float32(math.Sin(float64(u)*theta) / s)
	return mgl32.Quat{
		W: wa*a.W + wb*b.W,
		V: mgl32.Vec3{wa*a.V[0] + wb*b.V[0], wa*a.V[1] + wb*b.V[1], wa*a.V[2] + wb*b.V[2]},
	}
}

// Nlerp is the cheaper normalized linear interpolation along the shortest
// arc. Its angular speed is not constant, which is invisible for close keys.
func Nlerp(a, b mgl32.Quat, u float32) mgl32.Quat {
	if a.Dot(b) < 0 {
		b = mgl32.Quat{W: -b.W, V: b.V.Mul(-1)}
	}
	return nlerp(a, b, u)
}

func nlerp(a, b mgl32.Quat, u float32) mgl32.Quat {
	v := 1 - u
	q := mgl32.Quat{
		W: v*a.W + u*b.W,
		V: mgl32.Vec3{v*a.V[0] + u*b.V[0], v*a.V[1] + u*b.V[1], v*a.V[2] + u*b.V[2]},
	}
	return normalizeQuat(q)
}

// normalizeQuat returns q with unit length, or identity for a zero quaternion
// (a degenerate key must not turn into NaN that spreads through the pose).
func normalizeQuat(q mgl32.Quat) mgl32.Quat {
	l := float32(math.Sqrt(float64(q.W*q.W + q.V[0]*q.V[0] + q.V[1]*q.V[1] + q.V[2]*q.V[2])))
	if l == 0 || l != l {
		return mgl32.QuatIdent()
	}
	inv := 1 / l
	return mgl32.Quat{W: q.W * inv, V: mgl32.Vec3{q.V[0] * inv, q.V[1] * inv, q.V[2] * inv}}
}

// NormalizeQuat is normalizeQuat for callers outside the package: loaders
// normalize quaternions read from files.
func NormalizeQuat(q mgl32.Quat) mgl32.Quat { return normalizeQuat(q) }
