package main

import "math"

// vec3 and quat are kept in float64 so the whole model is designed and
// blended at full precision; values are rounded to float32 only when they are
// written into the binary buffer.
type vec3 struct{ X, Y, Z float64 }

func v3(x, y, z float64) vec3 { return vec3{x, y, z} }

func (a vec3) add(b vec3) vec3      { return vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }
func (a vec3) sub(b vec3) vec3      { return vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }
func (a vec3) scale(s float64) vec3 { return vec3{a.X * s, a.Y * s, a.Z * s} }
func (a vec3) dot(b vec3) float64   { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }
func (a vec3) length() float64      { return math.Sqrt(a.dot(a)) }
func (a vec3) neg() vec3            { return vec3{-a.X, -a.Y, -a.Z} }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

func (a vec3) normalize() vec3 {
	l := a.length()
	if l == 0 {
		return a
	}
	return a.scale(1 / l)
}

// quat is a rotation quaternion in glTF component order (x, y, z, w).
type quat struct{ X, Y, Z, W float64 }

var identityQuat = quat{0, 0, 0, 1}

func axisAngle(axis vec3, degrees float64) quat {
	half := degrees * math.Pi / 360
	a := axis.normalize().scale(math.Sin(half))
	return quat{a.X, a.Y, a.Z, math.Cos(half)}
}

func rotX(degrees float64) quat { return axisAngle(v3(1, 0, 0), degrees) }
func rotY(degrees float64) quat { return axisAngle(v3(0, 1, 0), degrees) }
func rotZ(degrees float64) quat { return axisAngle(v3(0, 0, 1), degrees) }

// mul returns q*r: the rotation r is applied first, then q.
func (q quat) mul(r quat) quat {
	return quat{
		q.W*r.X + q.X*r.W + q.Y*r.Z - q.Z*r.Y,
		q.W*r.Y - q.X*r.Z + q.Y*r.W + q.Z*r.X,
		q.W*r.Z + q.X*r.Y - q.Y*r.X + q.Z*r.W,
		q.W*r.W - q.X*r.X - q.Y*r.Y - q.Z*r.Z,
	}
}

func (q quat) dot(r quat) float64 { return q.X*r.X + q.Y*r.Y + q.Z*r.Z + q.W*r.W }

func (q quat) normalize() quat {
	l := math.Sqrt(q.dot(q))
	return quat{q.X / l, q.Y / l, q.Z / l, q.W / l}
}

func (q quat) neg() quat { return quat{-q.X, -q.Y, -q.Z, -q.W} }

// chain composes rotations left to right in the order they are applied, which
// reads more naturally in the animation code than nested mul calls.
func chain(rs ...quat) quat {
	q := identityQuat
	for _, r := range rs {
		q = r.mul(q)
	}
	return q
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// smoothstep has zero slope at both ends, so blends built from it (skin
// weights, animation envelopes) have no visible kinks.
func smoothstep(edge0, edge1, x float64) float64 {
	t := clamp01((x - edge0) / (edge1 - edge0))
	return t * t * (3 - 2*t)
}

func lerp(a, b, t float64) float64 { return a + (b-a)*t }

// roundTo keeps the JSON free of float noise such as 0.16999999999999993.
func roundTo(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func (q quat) conj() quat { return quat{-q.X, -q.Y, -q.Z, q.W} }

// rotate applies q to v.
func (q quat) rotate(v vec3) vec3 {
	u := v3(q.X, q.Y, q.Z)
	t := u.cross(v).scale(2)
	return v.add(t.scale(q.W)).add(u.cross(t))
}

// nlerp blends two rotations along the short way; the clips use it to mix
// authored poses, where the angles involved are small enough that it is
// indistinguishable from slerp.
func nlerp(a, b quat, t float64) quat {
	if a.dot(b) < 0 {
		b = b.neg()
	}
	return quat{lerp(a.X, b.X, t), lerp(a.Y, b.Y, t), lerp(a.Z, b.Z, t), lerp(a.W, b.W, t)}.normalize()
}

// quatFromMatrix converts the rotation matrix with rows m[0..2] (Shepperd's
// method, which picks the numerically largest component first).
func quatFromMatrix(m [3][3]float64) quat {
	tr := m[0][0] + m[1][1] + m[2][2]
	var q quat
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(tr+1)
		q = quat{(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, s / 4}
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := 2 * math.Sqrt(1+m[0][0]-m[1][1]-m[2][2])
		q = quat{s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s}
	case m[1][1] > m[2][2]:
		s := 2 * math.Sqrt(1+m[1][1]-m[0][0]-m[2][2])
		q = quat{(m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s}
	default:
		s := 2 * math.Sqrt(1+m[2][2]-m[0][0]-m[1][1])
		q = quat{(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4, (m[1][0] - m[0][1]) / s}
	}
	return q.normalize()
}

// basisRotation is the rotation that takes the orthonormal frame (a0, b0,
// a0×b0) onto (a1, b1, a1×b1).
func basisRotation(a0, b0, a1, b1 vec3) quat {
	c0, c1 := a0.cross(b0), a1.cross(b1)
	src := [3]vec3{a0, b0, c0}
	dst := [3]vec3{a1, b1, c1}
	comp := func(v vec3, i int) float64 { return [3]float64{v.X, v.Y, v.Z}[i] }
	var m [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				m[i][j] += comp(dst[k], i) * comp(src[k], j)
			}
		}
	}
	return quatFromMatrix(m)
}

// perpendicular returns the unit part of v orthogonal to the unit vector n,
// or fallback's when v is (nearly) parallel to n.
func perpendicular(v, n, fallback vec3) vec3 {
	p := v.sub(n.scale(v.dot(n)))
	if p.length() < 1e-9 {
		p = fallback.sub(n.scale(fallback.dot(n)))
	}
	return p.normalize()
}

func frac(x float64) float64 { return x - math.Floor(x) }

func rad(d float64) float64 { return d * math.Pi / 180 }

func abs(x float64) float64  { return math.Abs(x) }
func sqrt(x float64) float64 { return math.Sqrt(x) }
