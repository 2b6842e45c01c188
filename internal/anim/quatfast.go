package anim

import "math"

// Scalar quaternion kernels of the fast pipeline, on components rather
// than mgl32.Quat: the loops that call them read and write SoA stripes.

// nlerpQ is Nlerp: the shortest-arc normalized lerp from a (u = 0) to b
// (u = 1), identity for a degenerate (zero or NaN) result.
func nlerpQ(ax, ay, az, aw, bx, by, bz, bw, u float32) (x, y, z, w float32) {
	v := 1 - u
	if ax*bx+ay*by+az*bz+aw*bw < 0 {
		u = -u
	}
	x, y, z, w = v*ax+u*bx, v*ay+u*by, v*az+u*bz, v*aw+u*bw
	return normQ(x, y, z, w)
}

// normQ scales a quaternion to unit length; zero or NaN gives identity, as
// normalizeQuat does.
func normQ(x, y, z, w float32) (float32, float32, float32, float32) {
	l := float32(math.Sqrt(float64(x*x + y*y + z*z + w*w)))
	if !(l > 0) {
		return 0, 0, 0, 1
	}
	inv := 1 / l
	return x * inv, y * inv, z * inv, w * inv
}

// Coefficients of slerpPoly, after D. Eberly, "A Fast and Accurate
// Algorithm for Computing SLERP" (2011): with x = cos θ, sin(uθ)/sin θ is
// the series Σ bᵢ(u)(x−1)ⁱ, b₀ = u, bᵢ = bᵢ₋₁·(u² − i²)/(i(2i+1)), so
// bᵢ/bᵢ₋₁ = (Uᵢu² − Vᵢ)(x−1) with Uᵢ = 1/(i(2i+1)), Vᵢ = i/(2i+1). The
// series converges slowly towards x = 0, so slerpPoly halves arcs wider
// than x = 1/2 first; on x ∈ [1/2, 1] seven terms, the last scaled by
// 1+μ to stand for the tail (μ fitted for that interval), stay within
// 1e-7 of the definition.
const slerpOnePlusMu = 1.293

// Arcs near a key pair's, x close to 1, need fewer terms: dropped past the
// second where x ≥ 0.99 (a turn within 16°), past the third where x ≥ 0.95
// (36°) and past the fourth where x ≥ 0.9 (52°), the series stays within
// 6e-8 (half a float32 ulp of 1) of its sum, whatever u.
const slerpShort2, slerpShort3, slerpShort4 = 0.99, 0.95, 0.9

const (
	slerpU1, slerpV1 = 1.0 / (1 * 3), 1.0 / 3
	slerpU2, slerpV2 = 1.0 / (2 * 5), 2.0 / 5
	slerpU3, slerpV3 = 1.0 / (3 * 7), 3.0 / 7
	slerpU4, slerpV4 = 1.0 / (4 * 9), 4.0 / 9
	slerpU5, slerpV5 = 1.0 / (5 * 11), 5.0 / 11
	slerpU6, slerpV6 = 1.0 / (6 * 13), 6.0 / 13
	slerpU7, slerpV7 = slerpOnePlusMu / (7 * 15), slerpOnePlusMu * 7 / 15
)

// slerpPoly is Slerp without trigonometry: the same shortest-arc spherical
// interpolation, through Eberly's series. It needs unit inputs and stays
// within about 1e-6 of the definition (float32 rounding included). An arc
// wider than 120° of rotation (x < 1/2) is first cut at its midpoint
// normalize(a+b), and u rescaled onto the half that holds it. At u = 0
// the result is a exactly.
func slerpPoly(ax, ay, az, aw, bx, by, bz, bw, u float32) (x, y, z, w float32) {
	if u == 0 { // a exactly, whatever it is (constant tracks have u = 0)
		return ax, ay, az, aw
	}
	d := ax*bx + ay*by + az*bz + aw*bw
	if d < 0 {
		d, bx, by, bz, bw = -d, -bx, -by, -bz, -bw
	}
	if d < 0.5 {
		mx, my, mz, mw := ax+bx, ay+by, az+bz, aw+bw
		l := float32(math.Sqrt(float64(mx*mx + my*my + mz*mz + mw*mw)))
		if !(l > 0) { // zero keys: no arc to halve
			return 0, 0, 0, 0
		}
		inv := 1 / l
		mx, my, mz, mw = mx*inv, my*inv, mz*inv, mw*inv
		d = (1 + d) * inv // a·m = m·b for unit a, b
		if u < 0.5 {
			bx, by, bz, bw, u = mx, my, mz, mw, 2*u
		} else {
			ax, ay, az, aw, u = mx, my, mz, mw, 2*u-1
		}
	}
	xm1 := d - 1
	v := 1 - u
	uu, vv := u*u, v*v
	// Horner from the last term down, both weights side by side; as many
	// terms as the arc needs (slerpShort2).
	cu, cv := float32(1), float32(1)
	if d < slerpShort2 {
		if d < slerpShort3 {
			if d < slerpShort4 {
				cu, cv = slerpTerm(cu, cv, uu, vv, xm1, slerpU7, slerpV7)
				cu, cv = slerpTerm(cu, cv, uu, vv, xm1, slerpU6, slerpV6)
				cu, cv = slerpTerm(cu, cv, uu, vv, xm1, slerpU5, slerpV5)
			}
			cu, cv = slerpTerm(cu, cv, uu, vv, xm1, slerpU4, slerpV4)
		}
		cu, cv = slerpTerm(cu, cv, uu, vv, xm1, slerpU3, slerpV3)
	}
	cu, cv = slerpTerm(cu, cv, uu, vv, xm1, slerpU2, slerpV2)
	cu, cv = slerpTerm(cu, cv, uu, vv, xm1, slerpU1, slerpV1)
	cu *= u
	cv *= v
	return cv*ax + cu*bx, cv*ay + cu*by, cv*az + cu*bz, cv*aw + cu*bw
}

// slerpTerm is one Horner step of slerpPoly's series, for both weights.
func slerpTerm(cu, cv, uu, vv, xm1, U, V float32) (float32, float32) {
	return 1 + (U*uu-V)*xm1*cu, 1 + (U*vv-V)*xm1*cv
}
