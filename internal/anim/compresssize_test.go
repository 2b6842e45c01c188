package anim_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

// Tests of the encoders' arithmetic in compresssize.go: exponential-Golomb
// lengths, mantissa cuts and time grids.

// The exponential-Golomb code writes n+1 in binary after as many zeros
// as it has digits less one: 0 is "1", 1 is "010", 3 is "00100", 83 is
// 84 = 1010100 after six zeros.
func TestExpGolombBits(t *testing.T) {
	for n, want := range map[int]int{0: 1, 1: 3, 2: 3, 3: 5, 6: 5, 7: 7, 83: 13, 254: 15, 255: 17} {
		if got := anim.ExpGolombBits(n); got != want {
			t.Errorf("expGolombBits(%d) = %d; want %d", n, got, want)
		}
	}
}

// cutMantissaToward keeps m mantissa bits and rounds the way it is told,
// by less than one unit of the kept bits.
func TestCutMantissaToward(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for range 10000 {
		v := float32(rng.NormFloat64() * math.Pow(10, rng.Float64()*8-4))
		m := uint8(rng.IntN(24))
		for _, up := range []bool{false, true} {
			r := anim.CutMantissaToward(v, m, up)
			if low := math.Float32bits(r) & (1<<(23-uint32(m)) - 1); m < 23 && low != 0 {
				t.Fatalf("cut(%g, %d) = %g keeps more than %d mantissa bits", v, m, r, m)
			}
			if (up && r < v) || (!up && r > v) {
				t.Fatalf("cut(%g, %d, up %v) = %g, on the wrong side", v, m, up, r)
			}
			if d := math.Abs(float64(r - v)); d > math.Abs(float64(v))*math.Pow(2, -float64(m)) {
				t.Fatalf("cut(%g, %d, up %v) = %g, %g away", v, m, up, r, d)
			}
		}
	}
}

// Times baked at a frame rate but rounded one by one lie on a grid of a
// few numbers; so do the times key reduction keeps of them, two times, a
// clip whose second half starts 0.8 frames late (a grid of fifths of a
// frame), and times whose closest two are whole seconds apart but lie on
// the source's 1/24 s grid (the hint). One time off the grid keeps the
// table as it is.
func TestGridTimes(t *testing.T) {
	frames := func(rate float64, at ...float64) []float32 {
		var out []float32
		for _, f := range at {
			out = append(out, float32(f/rate))
		}
		return out
	}
	var baked []float32
	for k := range 61 {
		baked = append(baked, float32(0.1+float64(k)/30))
	}
	var late []float64
	for k := range 17 {
		late = append(late, float64(k))
	}
	for k := range 8 {
		late = append(late, 20.8+float64(k))
	}
	for _, c := range []struct {
		name   string
		times  []float32
		hint   float64
		step   float64 // 0: no grid
		points int
	}{
		{"k/30 s + 0.1 s", baked, 0, 1.0 / 30, 61},
		{"0, 1, 2, 3 s", []float32{0, 1, 2, 3}, 0, 1, 4},
		{"0 and 1.25 s", []float32{0, 1.25}, 0, 1.25, 2},
		{"frames 0, 1, 2, 5, 9, 10 at 30 Hz", frames(30, 0, 1, 2, 5, 9, 10), 0, 1.0 / 30, 11},
		{"frames 0-16, then 20.8-27.8 at 24 Hz", frames(24, late...), 0, 1.0 / 120, 140},
		{"frames 1, 25, 50 at 24 Hz", frames(24, 1, 25, 50), 0, 0, 0},
		{"frames 1, 25, 50 at 24 Hz, hint 1/24 s", frames(24, 1, 25, 50), 1.0 / 24, 1.0 / 24, 50},
	} {
		got, step, _, points := anim.GridTimes(c.times, c.hint)
		if c.step == 0 {
			if step != 0 || !slices.Equal(got, c.times) {
				t.Errorf("%s: step %v; want no grid, the times as they are", c.name, step)
			}
			continue
		}
		if math.Abs(float64(step)-c.step) > 1e-6*c.step || points != c.points {
			t.Errorf("%s: step %v, %d points; want %v, %d", c.name, step, points, c.step, c.points)
			continue
		}
		for i := range got {
			// A time may move by rounding, no more: a few units of the
			// last place (2⁻²¹ of it), and lies on the grid as float32
			// arithmetic rebuilds it.
			i0 := math.Round(float64(got[i]-got[0]) / c.step)
			if d := math.Abs(float64(got[i] - c.times[i])); d > math.Max(math.Abs(float64(c.times[i])), c.step)*0x1p-21 || got[i] != got[0]+float32(i0)*step {
				t.Fatalf("%s: time %d: %v for %v", c.name, i, got[i], c.times[i])
			}
		}
	}
	// Whole seconds need no mantissa bits.
	if got, step, mant, _ := anim.GridTimes([]float32{0, 1, 2, 3}, 0); step != 1 || mant != 0 || !slices.Equal(got, []float32{0, 1, 2, 3}) {
		t.Errorf("0, 1, 2, 3 s: %v, step %v, %d mantissa bits; want them as they are, step 1, none", got, step, mant)
	}
	off := slices.Clone(baked)
	off[30] += 0.01 / 30
	if got, step, _, _ := anim.GridTimes(off, 0); step != 0 || !slices.Equal(got, off) {
		t.Errorf("a time a hundredth of a frame off the grid: step %v; want the table kept", step)
	}
}
