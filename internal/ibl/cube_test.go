package ibl

import (
	"math"
	"testing"
)

// The OpenGL specification's face selection table, applied by hand.
func TestCubeFaceTable(t *testing.T) {
	cases := []struct {
		d    [3]float32
		face int
		s, t float32
	}{
		{[3]float32{1, 0, 0}, FacePosX, 0.5, 0.5},
		{[3]float32{-1, 0, 0}, FaceNegX, 0.5, 0.5},
		{[3]float32{0, 1, 0}, FacePosY, 0.5, 0.5},
		{[3]float32{0, -1, 0}, FaceNegY, 0.5, 0.5},
		{[3]float32{0, 0, 1}, FacePosZ, 0.5, 0.5},
		{[3]float32{0, 0, -1}, FaceNegZ, 0.5, 0.5},
		// +X: sc = −z = −0.25, tc = −y = −0.5.
		{[3]float32{1, 0.5, 0.25}, FacePosX, 0.375, 0.25},
		// −X: sc = +z = 0.8, tc = −y = −0.4.
		{[3]float32{-1, 0.4, 0.8}, FaceNegX, 0.9, 0.3},
		// +Y: sc = +x = 0.2, tc = +z = −0.4.
		{[3]float32{0.2, 1, -0.4}, FacePosY, 0.6, 0.3},
		// −Y (|ma| = 2): sc = +x = 0.6 → 0.3, tc = −z = −1.2 → −0.6.
		{[3]float32{0.6, -2, 1.2}, FaceNegY, 0.65, 0.2},
		// +Z: sc = +x = 0.6, tc = −y = 0.2.
		{[3]float32{0.6, -0.2, 1}, FacePosZ, 0.8, 0.6},
		// −Z: sc = −x = 0.5, tc = −y = −0.2.
		{[3]float32{-0.5, 0.2, -1}, FaceNegZ, 0.75, 0.4},
	}
	for _, tc := range cases {
		f, s, tt := CubeFace(tc.d)
		if f != tc.face || !near(float64(s), float64(tc.s), 1e-6) || !near(float64(tt), float64(tc.t), 1e-6) {
			t.Errorf("CubeFace(%v) = %d (%v, %v), want %d (%v, %v)", tc.d, f, s, tt, tc.face, tc.s, tc.t)
		}
		d := CubeDir(tc.face, tc.s, tc.t)
		l := math.Sqrt(float64(tc.d[0]*tc.d[0] + tc.d[1]*tc.d[1] + tc.d[2]*tc.d[2]))
		for k := 0; k < 3; k++ {
			if !near(float64(d[k]), float64(tc.d[k])/l, 1e-6) {
				t.Errorf("CubeDir(%d, %v, %v) = %v, want %v normalised", tc.face, tc.s, tc.t, d, tc.d)
				break
			}
		}
	}
}

// A cube texel's solid angles add up to the sphere; one texel a face is
// a sixth of it.
func TestTexelSolidAngle(t *testing.T) {
	if got := TexelSolidAngle(1, 0, 0); !near(got, 4*math.Pi/6, 1e-12) {
		t.Errorf("one-texel face: %v, want 4π/6", got)
	}
	sum := 0.0
	for j := 0; j < 7; j++ {
		for i := 0; i < 7; i++ {
			sum += TexelSolidAngle(7, i, j)
		}
	}
	if !near(6*sum, 4*math.Pi, 1e-9) {
		t.Errorf("six faces of 7×7 sum to %v, want 4π", 6*sum)
	}
	// The centre texel of a large face is nearly flat: (2/n)² steradians.
	if got := TexelSolidAngle(101, 50, 50); !near(got, 4.0/(101*101), 1e-7) {
		t.Errorf("centre texel %v, want (2/101)²", got)
	}
}

// The package comment's mapping: u = 0.5 at +X, 0.75 at +Z, 0.25 at −Z,
// 1 (= 0) at −X; v = 0 at +Y, 0.5 at the horizon, 1 at −Y.
func TestEquirectMapping(t *testing.T) {
	cases := []struct {
		d    [3]float32
		u, v float32
	}{
		{[3]float32{1, 0, 0}, 0.5, 0.5},
		{[3]float32{0, 0, 1}, 0.75, 0.5},
		{[3]float32{0, 0, -1}, 0.25, 0.5},
		{[3]float32{-1, 0, 0}, 1, 0.5},
		{[3]float32{0, 1, 0}, 0.5, 0},
		{[3]float32{0, -1, 0}, 0.5, 1},
		// 45° up between +X and +Z: u = 0.5 + (π/4)/2π, v = (π/4)/π.
		{[3]float32{0.5, float32(math.Sqrt2 / 2), 0.5}, 0.625, 0.25},
	}
	for _, tc := range cases {
		u, v := EquirectUV(tc.d)
		if !near(float64(u), float64(tc.u), 1e-6) || !near(float64(v), float64(tc.v), 1e-6) {
			t.Errorf("EquirectUV(%v) = (%v, %v), want (%v, %v)", tc.d, u, v, tc.u, tc.v)
		}
		d := EquirectDir(tc.u, tc.v)
		for k := 0; k < 3; k++ {
			if !near(float64(d[k]), float64(tc.d[k]), 1e-6) {
				t.Errorf("EquirectDir(%v, %v) = %v, want %v", tc.u, tc.v, d, tc.d)
				break
			}
		}
	}
}

// testDir is the direction of equirect pixel (i, j), written from the
// package comment: φ = (u − ½)·2π from +X towards +Z, θ = v·π from +Y.
func testDir(i, j, w, h int) (x, y, z float64) {
	phi := ((float64(i)+0.5)/float64(w) - 0.5) * 2 * math.Pi
	theta := (float64(j) + 0.5) / float64(h) * math.Pi
	return math.Sin(theta) * math.Cos(phi), math.Cos(theta), math.Sin(theta) * math.Sin(phi)
}

func envOf(w, h int, f func(x, y, z float64) [3]float64) *Equirect {
	e := &Equirect{W: w, H: h, Pix: make([]float32, 3*w*h)}
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			x, y, z := testDir(i, j, w, h)
			c := f(x, y, z)
			for k := 0; k < 3; k++ {
				e.Pix[3*(j*w+i)+k] = float32(c[k])
			}
		}
	}
	return e
}

// An environment whose colour is the positive part of its direction
// (red = max(x,0), green = max(y,0), blue = max(z,0)) resampled into a
// cube: each face's texels hold the positive part of the direction the GL
// table gives for them, so a shader reading texture(cube, d) gets the
// environment's value for d.
func TestPrefilterLevel0Orientation(t *testing.T) {
	env := envOf(512, 256, func(x, y, z float64) [3]float64 {
		return [3]float64{max(x, 0), max(y, 0), max(z, 0)}
	})
	const n = 32
	c := Prefilter(env, n, 1, 16)
	texel := func(f, i, j int) [3]float64 {
		p := c.Faces[0][f][3*(j*n+i):]
		return [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	}
	// Face centres (texels 15/16 straddle the centre: average the four;
	// their directions are 1.8° off the axis, so a zero channel reads up
	// to sin 1.8° ≈ 0.03).
	centre := func(f int) [3]float64 {
		var s [3]float64
		for _, ij := range [][2]int{{15, 15}, {16, 15}, {15, 16}, {16, 16}} {
			v := texel(f, ij[0], ij[1])
			for k := range s {
				s[k] += v[k] / 4
			}
		}
		return s
	}
	wantCentre := [6][3]float64{{1, 0, 0}, {0, 0, 0}, {0, 1, 0}, {0, 0, 0}, {0, 0, 1}, {0, 0, 0}}
	for f := 0; f < 6; f++ {
		got := centre(f)
		for k := 0; k < 3; k++ {
			if !near(got[k], wantCentre[f][k], 0.03) {
				t.Errorf("face %d centre = %v, want %v", f, got, wantCentre[f])
				break
			}
		}
	}
	// Off-centre texels, their directions from the GL table by hand:
	// +X texel (4, 20): s = 4.5/32, t = 20.5/32, sc = −0.71875, tc = 0.28125
	// → (1, −tc, −sc) = (1, −0.28125, 0.71875).
	// +Y texel (28, 3): s = 28.5/32, t = 3.5/32 → sc = 0.78125, tc = −0.78125
	// → (sc, 1, tc) = (0.78125, 1, −0.78125).
	// −Z texel (2, 30): sc = −0.84375, tc = 0.90625 → (−sc, −tc, −1) = (0.84375, −0.90625, −1).
	cases := []struct {
		f, i, j int
		d       [3]float64
	}{
		{FacePosX, 4, 20, [3]float64{1, -0.28125, 0.71875}},
		{FacePosY, 28, 3, [3]float64{0.78125, 1, -0.78125}},
		{FaceNegZ, 2, 30, [3]float64{0.84375, -0.90625, -1}},
	}
	for _, tc := range cases {
		l := math.Sqrt(tc.d[0]*tc.d[0] + tc.d[1]*tc.d[1] + tc.d[2]*tc.d[2])
		got := texel(tc.f, tc.i, tc.j)
		for k := 0; k < 3; k++ {
			if want := max(tc.d[k]/l, 0); !near(got[k], want, 0.02) {
				t.Errorf("face %d texel (%d,%d) = %v, want the positive part of %v/%.4f", tc.f, tc.i, tc.j, got, tc.d, l)
				break
			}
		}
	}
}
