package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Vectors, quaternions and matrices are mgl64's, in float64 so the whole
// model is designed and blended at full precision; values are rounded to
// float32 only when they are written into the binary buffer. This file
// holds what mgl64 lacks, and the few operations whose mgl64 versions
// evaluate in another order: the committed assets are checked byte for
// byte, so those keep the order they were generated with.

// axisAngle is a rotation by degrees about axis, which need not be unit
// length; mgl64.QuatRotate takes radians and a unit axis.
func axisAngle(axis mgl64.Vec3, degrees float64) mgl64.Quat {
	return mgl64.QuatRotate(mgl64.DegToRad(degrees), axis.Normalize())
}

// rotX, rotY and rotZ rotate by degrees about a model axis; mgl64 has no
// quaternion form of these.
func rotX(degrees float64) mgl64.Quat { return axisAngle(mgl64.Vec3{1, 0, 0}, degrees) }
func rotY(degrees float64) mgl64.Quat { return axisAngle(mgl64.Vec3{0, 1, 0}, degrees) }
func rotZ(degrees float64) mgl64.Quat { return axisAngle(mgl64.Vec3{0, 0, 1}, degrees) }

// quatMul returns q*r: the rotation r is applied first, then q. It is
// mgl64.Quat.Mul with the terms in another order (Mul sums w·w - v·v and
// v×v + w·v + w·v); the assets' bytes depend on this order.
func quatMul(q, r mgl64.Quat) mgl64.Quat {
	return mgl64.Quat{
		W: q.W*r.W - q.V[0]*r.V[0] - q.V[1]*r.V[1] - q.V[2]*r.V[2],
		V: mgl64.Vec3{
			q.W*r.V[0] + q.V[0]*r.W + q.V[1]*r.V[2] - q.V[2]*r.V[1],
			q.W*r.V[1] - q.V[0]*r.V[2] + q.V[1]*r.W + q.V[2]*r.V[0],
			q.W*r.V[2] + q.V[0]*r.V[1] - q.V[1]*r.V[0] + q.V[2]*r.W,
		},
	}
}

// quatNormalize divides q by its length. mgl64.Quat.Normalize multiplies by
// the reciprocal, sums w first and leaves q as it is within 1e-10 of unit
// length; the assets' bytes depend on this version.
func quatNormalize(q mgl64.Quat) mgl64.Quat {
	l := math.Sqrt(q.V.Dot(q.V) + q.W*q.W)
	return mgl64.Quat{W: q.W / l, V: mgl64.Vec3{q.V[0] / l, q.V[1] / l, q.V[2] / l}}
}

// chain composes rotations left to right in the order they are applied, which
// reads more naturally in the animation code than nested products; mgl64
// has no such function.
func chain(rs ...mgl64.Quat) mgl64.Quat {
	q := mgl64.QuatIdent()
	for _, r := range rs {
		q = quatMul(r, q)
	}
	return q
}

// nlerp blends two rotations along the short way; the clips use it to mix
// authored poses, where the angles involved are small enough that it is
// indistinguishable from slerp. mgl64.QuatNlerp does not take the short way
// and normalizes as mgl64.Quat.Normalize does (see quatNormalize).
func nlerp(a, b mgl64.Quat, t float64) mgl64.Quat {
	if a.Dot(b) < 0 {
		b = b.Scale(-1)
	}
	return quatNormalize(mgl64.QuatLerp(a, b, t))
}

// smoothstep has zero slope at both ends, so blends built from it (skin
// weights, animation envelopes) have no visible kinks; mgl64 has no such
// function.
func smoothstep(edge0, edge1, x float64) float64 {
	t := mgl64.Clamp((x-edge0)/(edge1-edge0), 0, 1)
	return t * t * (3 - 2*t)
}

// lerp interpolates scalars; mgl64 has no such function.
func lerp(a, b, t float64) float64 { return a + (b-a)*t }

// frac is the fractional part of x; mgl64 has no such function.
func frac(x float64) float64 { return x - math.Floor(x) }

// quatFromMatrix converts a rotation matrix (Shepperd's method, which picks
// the numerically largest component first). mgl64.Mat4ToQuat computes the
// positive-trace case with 0.5/√(tr+1) as a multiplier, and does not
// normalize; the assets' bytes depend on this version.
func quatFromMatrix(m mgl64.Mat3) mgl64.Quat {
	at := m.At
	tr := at(0, 0) + at(1, 1) + at(2, 2)
	var x, y, z, w float64
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(tr+1)
		x, y, z, w = (at(2, 1)-at(1, 2))/s, (at(0, 2)-at(2, 0))/s, (at(1, 0)-at(0, 1))/s, s/4
	case at(0, 0) > at(1, 1) && at(0, 0) > at(2, 2):
		s := 2 * math.Sqrt(1+at(0, 0)-at(1, 1)-at(2, 2))
		x, y, z, w = s/4, (at(0, 1)+at(1, 0))/s, (at(0, 2)+at(2, 0))/s, (at(2, 1)-at(1, 2))/s
	case at(1, 1) > at(2, 2):
		s := 2 * math.Sqrt(1+at(1, 1)-at(0, 0)-at(2, 2))
		x, y, z, w = (at(0, 1)+at(1, 0))/s, s/4, (at(1, 2)+at(2, 1))/s, (at(0, 2)-at(2, 0))/s
	default:
		s := 2 * math.Sqrt(1+at(2, 2)-at(0, 0)-at(1, 1))
		x, y, z, w = (at(0, 2)+at(2, 0))/s, (at(1, 2)+at(2, 1))/s, s/4, (at(1, 0)-at(0, 1))/s
	}
	return quatNormalize(mgl64.Quat{W: w, V: mgl64.Vec3{x, y, z}})
}

// basisRotation is the rotation that takes the orthonormal frame (a0, b0,
// a0×b0) onto (a1, b1, a1×b1); mgl64 has no such function.
func basisRotation(a0, b0, a1, b1 mgl64.Vec3) mgl64.Quat {
	src := mgl64.Mat3FromCols(a0, b0, a0.Cross(b0))
	dst := mgl64.Mat3FromCols(a1, b1, a1.Cross(b1))
	return quatFromMatrix(dst.Mul3(src.Transpose()))
}

// perpendicular returns the unit part of v orthogonal to the unit vector n,
// or fallback's when v is (nearly) parallel to n; mgl64 has no such
// function.
func perpendicular(v, n, fallback mgl64.Vec3) mgl64.Vec3 {
	p := v.Sub(n.Mul(v.Dot(n)))
	if p.Len() < 1e-9 {
		p = fallback.Sub(n.Mul(fallback.Dot(n)))
	}
	return p.Normalize()
}

// rigidInverse inverts a rotation-plus-translation matrix: the transposed
// rotation and the translation carried back through it, so the last row
// stays exactly 0 0 0 1. mgl64.Mat4.Inv, a general inverse, changes the
// bytes of edge/joints_outside.gltf.
func rigidInverse(a mgl64.Mat4) mgl64.Mat4 {
	rt := a.Mat3().Transpose()
	m := rt.Mat4()
	m.SetCol(3, rt.Mul3x1(a.Col(3).Vec3()).Mul(-1).Vec4(1))
	return m
}
