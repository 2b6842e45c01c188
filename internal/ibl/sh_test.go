package ibl

import (
	"math"
	"testing"
)

// irradianceOf projects an environment through level 0 of a cube of side n.
func irradianceOf(env *Equirect, n int) SH9 {
	return Irradiance(Prefilter(env, n, 1, 1))
}

// A constant environment L: SH9[0] = ∫ L·Y0 dω = 4π·Y0·L, every other
// coefficient 0, and E(n) = π·Y0·SH9[0] = 4π²·Y0²·L = π·L (Y0² = 1/4π).
func TestIrradianceConstant(t *testing.T) {
	L := [3]float64{0.5, 1, 2}
	sh := irradianceOf(envOf(64, 32, func(x, y, z float64) [3]float64 { return L }), 16)
	y0 := 0.5 / math.Sqrt(math.Pi)
	for c := 0; c < 3; c++ {
		if want := 4 * math.Pi * y0 * L[c]; !near(float64(sh[0][c]), want, 1e-3*want) {
			t.Errorf("SH9[0][%d] = %v, want %v", c, sh[0][c], want)
		}
		for m := 1; m < 9; m++ {
			if math.Abs(float64(sh[m][c])) > 1e-3 {
				t.Errorf("SH9[%d][%d] = %v, want 0", m, c, sh[m][c])
			}
		}
	}
	for _, n := range [][3]float32{{0, 1, 0}, {0, -1, 0}, {1, 0, 0}, {0.6, 0, -0.8}, {0.48, 0.6, 0.64}} {
		e := sh.Eval(n)
		for c := 0; c < 3; c++ {
			if want := math.Pi * L[c]; !near(float64(e[c]), want, 0.005*want) {
				t.Errorf("E(%v) = %v, want π·L = %v", n, e, want)
				break
			}
		}
	}
}

// White (1) above the horizon, black below. By hand, with θ from +Y and
// μ = cos θ, the projection onto the harmonics zonal about +Y:
//
//	band 0: ∫ Y0 dω over the upper hemisphere = 2π·Y0
//	band 1: ∫ √(3/4π)·μ dω = √(3/4π)·2π·∫₀¹ μ dμ = π·√(3/4π)   (on y, Y1)
//	band 2: ∫ ¼√(5/π)·(3μ²−1) dω = ¼√(5/π)·2π·∫₀¹ (3μ²−1) dμ = 0
//
// and the non-zonal ones vanish by symmetry about +Y. So
// E(θ) = π·(2π·Y0²) + (2π/3)·π·(3/4π)·cos θ = π/2·(1 + cos θ):
// π up, π/2 at the horizon, 0 down. The exact irradiance of a uniform
// upper hemisphere is the same π/2·(1 + cos θ) (the other bands of a step
// are odd, l ≥ 3, where Â_l = 0), so the SH9 value and the exact one
// coincide, and the tolerance (1 % of π) is all discretisation.
func TestIrradianceHemisphere(t *testing.T) {
	env := envOf(256, 128, func(x, y, z float64) [3]float64 {
		if y > 0 {
			return [3]float64{1, 1, 1}
		}
		return [3]float64{}
	})
	sh := irradianceOf(env, 32)
	y0, y1 := 0.5/math.Sqrt(math.Pi), math.Sqrt(3/(4*math.Pi))
	want := [9]float64{2 * math.Pi * y0, math.Pi * y1}
	for m := 0; m < 9; m++ {
		if !near(float64(sh[m][0]), want[m], 0.01) {
			t.Errorf("SH9[%d] = %v, want %v ± 0.01", m, sh[m][0], want[m])
		}
	}
	tol := 0.01 * math.Pi
	cases := []struct {
		n [3]float32
		e float64
	}{
		{[3]float32{0, 1, 0}, math.Pi},
		{[3]float32{1, 0, 0}, math.Pi / 2},
		{[3]float32{0, 0, -1}, math.Pi / 2},
		{[3]float32{0, -1, 0}, 0},
		{[3]float32{0, 0.5, float32(math.Sqrt(3) / 2)}, 0.75 * math.Pi}, // θ = 60°
	}
	for _, tc := range cases {
		if e := sh.Eval(tc.n); !near(float64(e[0]), tc.e, tol) {
			t.Errorf("E(%v) = %v, want %v ± %v", tc.n, e[0], tc.e, tol)
		}
	}
}

// The basis constants of the doc comment, in closed form.
var (
	c0 = 0.5 / math.Sqrt(math.Pi)
	c1 = math.Sqrt(3 / (4 * math.Pi))
	c2 = 0.5 * math.Sqrt(15/math.Pi)
	c3 = 0.25 * math.Sqrt(5/math.Pi)
	c4 = 0.25 * math.Sqrt(15/math.Pi)
)

// Eval on one coefficient at a time, at the unit normal n = (2, 3, 6)/7
// (three different components, so a basis function on the wrong axis
// shows): E = Â_l · Y_i(n), with the doc comment's basis by hand.
func TestEvalBasis(t *testing.T) {
	a0, a1, a2 := math.Pi, 2*math.Pi/3, math.Pi/4
	want := [9]float64{
		a0 * c0,
		a1 * c1 * 3 / 7,   // y
		a1 * c1 * 6 / 7,   // z
		a1 * c1 * 2 / 7,   // x
		a2 * c2 * 6 / 49,  // x·y
		a2 * c2 * 18 / 49, // y·z
		a2 * c3 * 59 / 49, // 3z² − 1 = 108/49 − 1
		a2 * c2 * 12 / 49, // x·z
		-a2 * c4 * 5 / 49, // x² − y² = 4/49 − 9/49
	}
	n := [3]float32{2.0 / 7, 3.0 / 7, 6.0 / 7}
	for m := 0; m < 9; m++ {
		var sh SH9
		sh[m] = [3]float32{1, 2, 3}
		e := sh.Eval(n)
		for c := 0; c < 3; c++ {
			if !near(float64(e[c]), float64(c+1)*want[m], 1e-5) {
				t.Errorf("SH9[%d] alone: E = %v, want %v × (1, 2, 3)", m, e, want[m])
				break
			}
		}
	}
}

// L = 1 + x·y + z² projects, by hand (∫ over the sphere: x²y² → 4π/15,
// z² → 4π/3, z⁴ → 4π/5), to
//
//	SH9[0] = c0·(4π + 4π/3)
//	SH9[4] = c2·∫x²y² = c2·4π/15
//	SH9[6] = c3·∫z²(3z² − 1) = c3·(12π/5 − 4π/3) = c3·16π/15
//
// and 0 elsewhere.
func TestIrradianceProjection(t *testing.T) {
	env := envOf(512, 256, func(x, y, z float64) [3]float64 {
		v := 1 + x*y + z*z
		return [3]float64{v, v, v}
	})
	sh := irradianceOf(env, 64)
	want := [9]float64{0: c0 * (4*math.Pi + 4*math.Pi/3), 4: c2 * 4 * math.Pi / 15, 6: c3 * 16 * math.Pi / 15}
	for m := 0; m < 9; m++ {
		if !near(float64(sh[m][0]), want[m], 0.002) {
			t.Errorf("SH9[%d] = %v, want %v ± 0.002", m, sh[m][0], want[m])
		}
	}
}

// The band-1 term of the studio's irradiance points roughly at the key.
// By hand, a softbox of full angles A×B subtends 4·atan(ab/√(1+a²+b²)),
// a = tan(A/2), b = tan(B/2), and adds radiance × that solid angle along
// its centre: key 9 × 0.299 sr at (−0.542, 0.643, 0.542), fill 2.5 ×
// 0.299 sr at (0.740, 0.259, 0.621), overhead 4.5 × 0.240 sr at +Y, and
// the room ∫(0.35 + 0.25y)·y over the upper hemisphere plus ∫(0.35 +
// 0.15y)·y below = 0.4·2π/3 along +Y. The sum (−0.90, 3.84, 1.92) is 24°
// from the key, 70° from the fill, in the front-left quadrant.
func TestStudioKeyDirection(t *testing.T) {
	env := Studio(512, 256)
	sh := irradianceOf(env, 64)
	b := [3]float64{float64(sh[3][0]), float64(sh[1][0]), float64(sh[2][0])} // (x, y, z)
	l := math.Sqrt(b[0]*b[0] + b[1]*b[1] + b[2]*b[2])
	angle := func(az, el float64) float64 {
		a, e := az*math.Pi/180, el*math.Pi/180
		d := [3]float64{math.Cos(e) * math.Sin(a), math.Sin(e), math.Cos(e) * math.Cos(a)}
		return math.Acos((b[0]*d[0]+b[1]*d[1]+b[2]*d[2])/l) * 180 / math.Pi
	}
	key, fill := angle(-45, 40), angle(50, 15)
	t.Logf("band 1 = %.3f, %.1f° from the key, %.1f° from the fill", b, key, fill)
	if key > 30 || key >= fill || b[0] >= 0 || b[2] <= 0 {
		t.Errorf("band 1 %v is %.1f° from the key and %.1f° from the fill: want within 30° of the key (24° by hand), nearer it than the fill, front-left", b, key, fill)
	}
	// Grey: R = G = B everywhere.
	for m := range sh {
		if sh[m][0] != sh[m][1] || sh[m][1] != sh[m][2] {
			t.Errorf("SH9[%d] = %v is tinted", m, sh[m])
		}
	}
}

// The room's radiance: 0.6 straight up, 0.35 at the horizon, 0.2 down,
// away from the softboxes; the key's centre about 9 above the room.
func TestStudioRoom(t *testing.T) {
	const w, h = 512, 256
	env := Studio(w, h)
	at := func(i, j int) float64 { return float64(env.Pix[3*(j*w+i)]) }
	// Row 255 is 0.35° from straight down, row 128 just below the horizon.
	if v := at(0, h-1); !near(v, 0.2, 0.001) {
		t.Errorf("floor = %v, want 0.2", v)
	}
	// u = 0.25 is −Z (behind): no softbox there.
	if v := at(w/4, h/2); !near(v, 0.35, 0.005) {
		t.Errorf("horizon behind = %v, want 0.35", v)
	}
	// The key: azimuth −45° from +Z towards +X is φ = atan2(z, x) = 135°,
	// u = 0.5 + 135/360 = 0.875; elevation 40° is v = 50/180.
	i, j := 448, 71 // 0.875·512; 50/180·256 = 71.1
	if v := at(i, j); !near(v, 9+0.35+0.25*math.Sin(40*math.Pi/180), 0.05) {
		t.Errorf("key centre = %v, want about 9.5", v)
	}
}
