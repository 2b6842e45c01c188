package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// v3 and quat are the post-processing jobs' vectors and rotations. They
// are structs of four scalars or fewer, which Go passes and keeps in
// registers; mgl32's Vec3 and Quat are arrays, which it keeps in memory,
// so that every call stored them and read them back whole, a load the CPU
// cannot forward from the narrower stores, and the jobs ran slower on
// them (docs/performance.md).
type v3 struct{ x, y, z float32 }

type quat struct{ x, y, z, w float32 }

func vec(v mgl32.Vec3) v3 { return v3{v[0], v[1], v[2]} }

func (a v3) add(b v3) v3        { return v3{a.x + b.x, a.y + b.y, a.z + b.z} }
func (a v3) sub(b v3) v3        { return v3{a.x - b.x, a.y - b.y, a.z - b.z} }
func (a v3) scale(s float32) v3 { return v3{a.x * s, a.y * s, a.z * s} }
func (a v3) dot(b v3) float32   { return a.x*b.x + a.y*b.y + a.z*b.z }
func (a v3) len() float32       { return float32(math.Sqrt(float64(a.dot(a)))) }
func (a v3) cross(b v3) v3      { return v3{a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x} }
func (q quat) conj() quat       { return quat{-q.x, -q.y, -q.z, q.w} }

// mul is the product a·b.
func (a quat) mul(b quat) quat {
	x, y, z, w := qmul(a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w)
	return quat{x, y, z, w}
}

// slerpQ is slerpPoly on quat values.
func slerpQ(a, b quat, u float32) quat {
	x, y, z, w := slerpPoly(a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, u)
	return quat{x, y, z, w}
}

// unit returns v normalized and its length; the zero vector stays zero.
func (a v3) unit() (v3, float32) {
	l := a.len()
	if l == 0 {
		return a, 0
	}
	return a.scale(1 / l), l
}

// normalize returns q with unit length, or the identity for a zero (or
// NaN) quaternion, as normalizeQuat does. It does not inline; the helpers
// the jobs call every frame write quatOf(normQ(…)), which does, so that
// they call nothing on their usual path (a call spills every float).
func (q quat) normalize() quat { return quatOf(normQ(q.x, q.y, q.z, q.w)) }

func quatOf(x, y, z, w float32) quat { return quat{x, y, z, w} }

// rotate turns v by the unit quaternion q: v + 2w(u×v) + 2u×(u×v), with u
// q's vector part.
func (q quat) rotate(v v3) v3 {
	u := v3{q.x, q.y, q.z}
	c := u.cross(v).scale(2)
	return v.add(c.scale(q.w)).add(u.cross(c))
}

// rot3 is a rotation as a 3×3 matrix, in rows: applying it is nine
// products in line, where a quaternion's rotate is a call, which spills
// the caller's floats.
type rot3 struct{ xx, xy, xz, yx, yy, yz, zx, zy, zz float32 }

// set makes m the unit quaternion q as a matrix.
func (m *rot3) set(q quat) {
	x2, y2, z2 := q.x+q.x, q.y+q.y, q.z+q.z
	xx, yy, zz := q.x*x2, q.y*y2, q.z*z2
	xy, xz, yz := q.x*y2, q.x*z2, q.y*z2
	wx, wy, wz := q.w*x2, q.w*y2, q.w*z2
	m.xx, m.xy, m.xz = 1-(yy+zz), xy-wz, xz+wy
	m.yx, m.yy, m.yz = xy+wz, 1-(xx+zz), yz-wx
	m.zx, m.zy, m.zz = xz-wy, yz+wx, 1-(xx+yy)
}

// apply is m·v.
func (m *rot3) apply(v v3) v3 {
	return v3{m.xx*v.x + m.xy*v.y + m.xz*v.z, m.yx*v.x + m.yy*v.y + m.yz*v.z, m.zx*v.x + m.zy*v.y + m.zz*v.z}
}

// applyT is mᵀ·v, the inverse rotation.
func (m *rot3) applyT(v v3) v3 {
	return v3{m.xx*v.x + m.yx*v.y + m.zx*v.z, m.xy*v.x + m.yy*v.y + m.zy*v.z, m.xz*v.x + m.yz*v.y + m.zz*v.z}
}

// turnAbout is the rotation about unit axis by the angle φ whose cosine
// and sine are c and s scaled alike by any factor r > 0 (r cos φ, r sin φ),
// built without a trigonometric function from the half-angle forms
// (sin φ/2, cos φ/2) ∝ (s, r + c) ∝ (r − c, s): the first where cos φ ≥ 0,
// the second (negated where s < 0, the same rotation) where the
// first would cancel, so that turns near half a turn keep their precision
// too. Either way w ≥ 0. c = s = 0 is no turn.
//
// The quaternion's squared length is known without summing its
// components: s² + (r + c)² = 2r(r + c) in the first form, (r − c)² + s² =
// 2r(r − c) in the second, neither of which cancels.
func turnAbout(axis v3, c, s float32) quat {
	r := float32(math.Sqrt(float64(c*c + s*s)))
	if r == 0 {
		return quat{w: 1}
	}
	if c >= 0 {
		k := r + c
		inv := 1 / float32(math.Sqrt(float64(2*r*k)))
		s *= inv
		return quat{axis.x * s, axis.y * s, axis.z * s, k * inv}
	}
	k := r - c
	inv := 1 / float32(math.Sqrt(float64(2*r*k)))
	if s < 0 {
		inv = -inv
	}
	k *= inv
	return quat{axis.x * k, axis.y * k, axis.z * k, s * inv}
}

// modelRows is joint i's model matrix in ModelPaletteJob.Models' layout.
func modelRows(models []float32, i int) *[12]float32 {
	return (*[12]float32)(models[i*12 : i*12+12])
}

// position is the translation column of an affine matrix in row layout.
func position(r *[12]float32) v3 { return v3{r[3], r[7], r[11]} }

// transformPoint is the affine matrix r (row layout) applied to point p.
func transformPoint(r *[12]float32, p v3) v3 {
	return v3{
		r[0]*p.x + r[1]*p.y + r[2]*p.z + r[3],
		r[4]*p.x + r[5]*p.y + r[6]*p.z + r[7],
		r[8]*p.x + r[9]*p.y + r[10]*p.z + r[11],
	}
}

// parentFrame is the rotation of an affine matrix in row layout, as its
// three unit columns, with the matrix's scale divided out of the columns.
// A column scaled flat (a joint scaled to zero on one axis, as a part is
// hidden) is rebuilt from the other two, as the cross product that a
// rotation's columns keep; with two or three flat there is no rotation to
// read, and ok is false. A mirrored matrix gives the rotation of its
// negation: conjugating a turn by it is conjugating by the mirror.
func parentFrame(r *[12]float32) (c0, c1, c2 v3, ok bool) {
	c0, c1, c2 = v3{r[0], r[4], r[8]}, v3{r[1], r[5], r[9]}, v3{r[2], r[6], r[10]}
	l0, l1, l2 := c0.dot(c0), c1.dot(c1), c2.dot(c2)
	c0 = c0.scale(1 / float32(math.Sqrt(float64(l0))))
	c1 = c1.scale(1 / float32(math.Sqrt(float64(l1))))
	c2 = c2.scale(1 / float32(math.Sqrt(float64(l2))))
	if flat0, flat1, flat2 := flat(l0, l1, l2), flat(l1, l0, l2), flat(l2, l0, l1); flat0 || flat1 || flat2 {
		switch {
		case flat0 && !flat1 && !flat2:
			c0 = c1.cross(c2)
		case flat1 && !flat0 && !flat2:
			c1 = c2.cross(c0)
		case flat2 && !flat0 && !flat1:
			c2 = c0.cross(c1)
		default:
			return c0, c1, c2, false
		}
	}
	if c0.dot(c1.cross(c2)) < 0 {
		c0, c1, c2 = c0.scale(-1), c1.scale(-1), c2.scale(-1)
	}
	return c0, c1, c2, true
}

// flat reports whether a column of squared length l is flat beside two of
// squared lengths a and b (flatColumn); NaN lengths are flat.
func flat(l, a, b float32) bool { return !(l > flatColumn*a+flatColumn*b) }

// flatColumn is the squared length, relative to the other two columns',
// below which parentFrame rebuilds a column from them: a scale a million
// times smaller than the others', which the cross product gives as well.
const flatColumn = 1e-12

// perpendicular returns some vector perpendicular to v, built from the axis
// v is least aligned with.
func perpendicular(v v3) v3 {
	x, y, z := math.Abs(float64(v.x)), math.Abs(float64(v.y)), math.Abs(float64(v.z))
	switch {
	case x <= y && x <= z:
		return v.cross(v3{1, 0, 0})
	case y <= z:
		return v.cross(v3{0, 1, 0})
	}
	return v.cross(v3{0, 0, 1})
}

// fromTo is the shortest rotation taking unit vector u to unit vector v;
// for opposite vectors it turns half a turn about some perpendicular axis.
func fromTo(u, v v3) quat { return arc(u, v, 1) }

// arc is the shortest rotation taking unit vector u to the direction of
// w, whose length is l > 0 (fromTo for l = 1); for opposite directions it
// turns half a turn about some perpendicular axis. The half-angle
// quaternion is (u × w, l + u·w) over its length, √(2l(l + u·w)), at hand
// before the cross product; towards opposite directions l + u·w cancels,
// and the components' sum keeps the precision. Taking w as it is saves
// the look-at normalizing its aim first, a divide between two roots on
// its chain of dependent operations.
func arc(u, w v3, l float32) quat {
	d := u.dot(w)
	if d < (-1+1e-6)*l {
		axis, _ := perpendicular(u).unit()
		return quat{axis.x, axis.y, axis.z, 0}
	}
	c := u.cross(w)
	k := l + d
	if d > -0.5*l {
		inv := 1 / float32(math.Sqrt(float64(2*l*k)))
		return quat{c.x * inv, c.y * inv, c.z * inv, k * inv}
	}
	return quatOf(normQ(c.x, c.y, c.z, k))
}

// frameTurn is the rotation that takes the orthonormal pair (x0, y0) to
// (x1, y1), and so x0 × y0 to x1 × y1: the matrix R = x1 x0ᵀ + y1 y0ᵀ + z1
// z0ᵀ as a quaternion, by Shepperd's method (the largest of 1 + trace and
// the diagonal's 1 + 2Rᵢᵢ − trace under the root, so that no component is
// found by a cancelling difference alone).
func frameTurn(x0, y0, x1, y1 v3) quat {
	z0, z1 := x0.cross(y0), x1.cross(y1)
	m00 := x1.x*x0.x + y1.x*y0.x + z1.x*z0.x
	m01 := x1.x*x0.y + y1.x*y0.y + z1.x*z0.y
	m02 := x1.x*x0.z + y1.x*y0.z + z1.x*z0.z
	m10 := x1.y*x0.x + y1.y*y0.x + z1.y*z0.x
	m11 := x1.y*x0.y + y1.y*y0.y + z1.y*z0.y
	m12 := x1.y*x0.z + y1.y*y0.z + z1.y*z0.z
	m20 := x1.z*x0.x + y1.z*y0.x + z1.z*z0.x
	m21 := x1.z*x0.y + y1.z*y0.y + z1.z*z0.y
	m22 := x1.z*x0.z + y1.z*y0.z + z1.z*z0.z
	switch tr := m00 + m11 + m22; {
	case tr > 0:
		s := 2 * float32(math.Sqrt(float64(1+tr)))
		inv := 1 / s
		return quat{(m21 - m12) * inv, (m02 - m20) * inv, (m10 - m01) * inv, 0.25 * s}
	case m00 > m11 && m00 > m22:
		s := 2 * float32(math.Sqrt(float64(1+m00-m11-m22)))
		inv := 1 / s
		return quat{0.25 * s, (m01 + m10) * inv, (m02 + m20) * inv, (m21 - m12) * inv}
	case m11 > m22:
		s := 2 * float32(math.Sqrt(float64(1+m11-m00-m22)))
		inv := 1 / s
		return quat{(m01 + m10) * inv, 0.25 * s, (m12 + m21) * inv, (m02 - m20) * inv}
	default:
		s := 2 * float32(math.Sqrt(float64(1+m22-m00-m11)))
		inv := 1 / s
		return quat{(m02 + m20) * inv, (m12 + m21) * inv, 0.25 * s, (m10 - m01) * inv}
	}
}

// clampUnit clamps a cosine computed in floating point to [-1, 1].
func clampUnit(x float32) float32 { return max(-1, min(1, x)) }

func acos32(x float32) float32 {
	return float32(math.Acos(float64(clampUnit(x))))
}
