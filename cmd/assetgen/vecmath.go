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
