package ibl

import (
	"math"
	"testing"
)

// A constant environment stays constant at every roughness: every texel
// of every level within 1 %.
func TestPrefilterConstant(t *testing.T) {
	L := [3]float64{0.5, 1, 2}
	env := envOf(128, 64, func(x, y, z float64) [3]float64 { return L })
	c := Prefilter(env, 32, 6, 64)
	if c.Size != 32 || c.Levels != 6 || len(c.Faces) != 6 {
		t.Fatalf("got size %d, %d levels (%d), want 32 and 6", c.Size, c.Levels, len(c.Faces))
	}
	for k := 0; k < c.Levels; k++ {
		n := 32 >> k
		for f := 0; f < 6; f++ {
			p := c.Faces[k][f]
			if len(p) != 3*n*n {
				t.Fatalf("level %d face %d has %d values, want %d", k, f, len(p), 3*n*n)
			}
			for i := 0; i < len(p); i++ {
				if !near(float64(p[i]), L[i%3], 0.01*L[i%3]) {
					t.Fatalf("level %d face %d value %d = %v, want %v ± 1 %%", k, f, i, p[i], L[i%3])
				}
			}
		}
	}
}

// cubeEnergy is the solid-angle-weighted sum of level k's first channel.
func cubeEnergy(c *Cube, k int) (sum, peak float64, peakShare float64) {
	n := c.Size >> k
	for f := 0; f < 6; f++ {
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				v := float64(c.Faces[k][f][3*(j*n+i)])
				e := v * TexelSolidAngle(n, i, j)
				sum += e
				peak = max(peak, v)
				peakShare = max(peakShare, e)
			}
		}
	}
	return sum, peak, peakShare / sum
}

// A small bright spot on black: level 0 keeps it sharp, the roughest
// level spreads it over the sphere, and every level holds the source's
// energy ∫L dω within 3 % (the GGX lobe depends on R·L only, so the
// normalised convolution conserves it).
func TestPrefilterSpotEnergy(t *testing.T) {
	const w, h, spot = 256, 128, 1000.0
	// A 3×3 pixel spot at u ≈ 0.75, v ≈ 0.5: +Z, the centre of a face.
	env := &Equirect{W: w, H: h, Pix: make([]float32, 3*w*h)}
	src := 0.0
	for j := 63; j <= 65; j++ {
		// A pixel row's solid angle: (2π/W)·(cos θ0 − cos θ1).
		omega := 2 * math.Pi / w * (math.Cos(math.Pi*float64(j)/h) - math.Cos(math.Pi*float64(j+1)/h))
		for i := 191; i <= 193; i++ {
			env.Pix[3*(j*w+i)] = spot
			src += spot * omega
		}
	}
	c := Prefilter(env, 64, 6, 128)
	for k := 0; k < c.Levels; k++ {
		e, peak, share := cubeEnergy(c, k)
		t.Logf("level %d: energy %.4f (source %.4f), peak %.1f, brightest texel's share %.3f", k, e, src, peak, share)
		if !near(e, src, 0.03*src) {
			t.Errorf("level %d: energy %v, want the source's %v ± 3 %%", k, e, src)
		}
	}
	// The spot is 4.2° across, a level-0 texel at a face centre 1.8°.
	if _, peak, share := cubeEnergy(c, 0); peak < 0.3*spot || share < 0.1 {
		t.Errorf("level 0 peak %v, brightest texel's share %v: want ≥ %v and ≥ 0.1 (sharp)", peak, share, 0.3*spot)
	}
	// Roughness 1 spreads it over a hemisphere: no texel of the 2×2
	// faces holds more than a quarter of it, none is brighter than 1 %.
	if _, peak, share := cubeEnergy(c, c.Levels-1); peak > 0.01*spot || share > 0.25 {
		t.Errorf("top level peak %v, brightest texel's share %v: want ≤ %v and ≤ 0.25 (spread)", peak, share, 0.01*spot)
	}
}

// Level k is GGX at roughness k/(levels−1): rougher levels spread the spot
// further, so the peak falls level by level.
func TestPrefilterPeakFalls(t *testing.T) {
	env := envOf(256, 128, func(x, y, z float64) [3]float64 {
		if x > 0.995 {
			return [3]float64{100, 100, 100}
		}
		return [3]float64{}
	})
	c := Prefilter(env, 64, 5, 64)
	prev := math.Inf(1)
	for k := 0; k < c.Levels; k++ {
		_, peak, _ := cubeEnergy(c, k)
		if peak >= prev {
			t.Errorf("level %d peak %v, not below level %d's %v", k, peak, k-1, prev)
		}
		prev = peak
	}
}

func TestPrefilterClamps(t *testing.T) {
	env := envOf(8, 4, func(x, y, z float64) [3]float64 { return [3]float64{1, 1, 1} })
	c := Prefilter(env, 8, 10, 0)
	if c.Levels != 4 || len(c.Faces) != 4 || len(c.Faces[3][0]) != 3 {
		t.Errorf("size 8, 10 levels: got %d levels, want 4 (8, 4, 2, 1)", c.Levels)
	}
	c = Prefilter(env, 4, 1, 8)
	if c.Levels != 1 || len(c.Faces[0][5]) != 3*16 {
		t.Errorf("one level: got %d", c.Levels)
	}
}

// The viewer's default call, on the default environment.
func BenchmarkPrefilterDefault(b *testing.B) {
	env := Studio(512, 256)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Prefilter(env, 128, 6, 128)
	}
}

func BenchmarkStudio(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Studio(512, 256)
	}
}

// Filtered importance sampling: at every rough level the spot of
// TestPrefilterSpotEnergy lights a smooth lobe, not a few sparkling texels
// where a sample happened to land. Along the +Z face's middle row the
// values rise to one peak and fall, each within a factor 3 of its
// neighbours (a GGX lobe over a texel apart changes by far less).
func TestPrefilterNoSparkle(t *testing.T) {
	const w, h = 256, 128
	env := &Equirect{W: w, H: h, Pix: make([]float32, 3*w*h)}
	for j := 63; j <= 65; j++ {
		for i := 191; i <= 193; i++ {
			env.Pix[3*(j*w+i)] = 1000
		}
	}
	c := Prefilter(env, 64, 6, 32)
	for k := 2; k < c.Levels-1; k++ {
		n := 64 >> k
		row := c.Faces[k][FacePosZ][3*(n/2)*n : 3*(n/2+1)*n]
		rising := true
		for i := 1; i < n; i++ {
			a, b := float64(row[3*(i-1)]), float64(row[3*i])
			if a <= 0 || b <= 0 || a > 3*b || b > 3*a {
				t.Errorf("level %d: texels %d and %d of the +Z face's middle row are %v and %v", k, i-1, i, a, b)
			}
			if b < a {
				rising = false
			} else if !rising && b > a*1.001 {
				t.Errorf("level %d: a second rise at texel %d: %v", k, i, row)
				break
			}
		}
	}
}
