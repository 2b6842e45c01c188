package ibl

import "math"

// SH9 is an environment's radiance projected on the nine real spherical
// harmonics of bands 0–2, one RGB triple each: SH9[i] = ∫ L(ω) Y_i(ω) dω.
//
// The basis, for a unit direction (x, y, z) in the package's frame (+Y
// up), in this order:
//
//	Y0 = 0.282095                    (1/2·√(1/π))
//	Y1 = 0.488603 · y                (√(3/4π))
//	Y2 = 0.488603 · z
//	Y3 = 0.488603 · x
//	Y4 = 1.092548 · x·y              (½·√(15/π))
//	Y5 = 1.092548 · y·z
//	Y6 = 0.315392 · (3z² − 1)        (¼·√(5/π))
//	Y7 = 1.092548 · x·z
//	Y8 = 0.546274 · (x² − y²)        (¼·√(15/π))
//
// Irradiance (Ramamoorthi & Hanrahan 2001) is the clamped-cosine
// convolution, band l scaled by Â0 = π, Â1 = 2π/3, Â2 = π/4:
//
//	E(n) = π·Y0·SH9[0] + 2π/3·Σ_{i=1..3} Y_i(n)·SH9[i] + π/4·Σ_{i=4..8} Y_i(n)·SH9[i]
//
// A GLSL twin is that sum over vec3 coefficients with the constants above.
type SH9 [9][3]float32

// The basis constants and band convolution weights of SH9.
const (
	shC0 = 0.282094791773878 // 1/2·√(1/π)
	shC1 = 0.488602511902920 // √(3/(4π))
	shC2 = 1.092548430592079 // ½·√(15/π)
	shC3 = 0.315391565252520 // ¼·√(5/π)
	shC4 = 0.546274215296040 // ¼·√(15/π)
	shA0 = math.Pi           // Â0
	shA1 = 2 * math.Pi / 3   // Â1
	shA2 = math.Pi / 4       // Â2
)

// shBasis fills the nine basis values of SH9's order at a unit direction.
func shBasis(x, y, z float64) [9]float64 {
	return [9]float64{
		shC0,
		shC1 * y, shC1 * z, shC1 * x,
		shC2 * x * y, shC2 * y * z, shC3 * (3*z*z - 1), shC2 * x * z, shC4 * (x*x - y*y),
	}
}

// Irradiance projects level 0 of c on SH9, each texel weighted by its
// exact solid angle (TexelSolidAngle), so a constant environment L
// projects to SH9[0] = 4π·Y0·L and evaluates to E = π·L.
func Irradiance(c *Cube) SH9 {
	var acc [9][3]float64
	n := c.Size
	for f := 0; f < 6; f++ {
		p := c.Faces[0][f]
		for j := 0; j < n; j++ {
			t := (float64(j) + 0.5) / float64(n)
			for i := 0; i < n; i++ {
				x, y, z := cubeDir(f, (float64(i)+0.5)/float64(n), t)
				w := TexelSolidAngle(n, i, j)
				y9 := shBasis(x, y, z)
				k := 3 * (j*n + i)
				r, g, b := float64(p[k])*w, float64(p[k+1])*w, float64(p[k+2])*w
				for m := range y9 {
					acc[m][0] += r * y9[m]
					acc[m][1] += g * y9[m]
					acc[m][2] += b * y9[m]
				}
			}
		}
	}
	var sh SH9
	for m := range acc {
		for ch := 0; ch < 3; ch++ {
			sh[m][ch] = float32(acc[m][ch])
		}
	}
	return sh
}

// Eval is the irradiance E(n) = ∫ L(ω) max(n·ω, 0) dω for a unit normal n,
// by the formula on SH9. Divide by π for the Lambertian radiance of a
// white surface.
func (sh SH9) Eval(n [3]float32) [3]float32 {
	y9 := shBasis(float64(n[0]), float64(n[1]), float64(n[2]))
	var e [3]float32
	for ch := 0; ch < 3; ch++ {
		s := 0.0
		for m := range y9 {
			a := shA2
			switch {
			case m == 0:
				a = shA0
			case m <= 3:
				a = shA1
			}
			s += a * y9[m] * float64(sh[m][ch])
		}
		e[ch] = float32(s)
	}
	return e
}
