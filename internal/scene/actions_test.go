package scene

import (
	"math"
	"testing"
)

func TestClipFrameRate(t *testing.T) {
	seq := func(n int, step float32) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(i) * step
		}
		return out
	}
	cases := []struct {
		name  string
		times []float32
		want  float32
	}{
		{"24 fps", seq(49, 1.0/24), 24},
		{"60 fps", seq(121, 1.0/60), 60},
		{"uneven keys", []float32{0, 0.1, 0.15, 1}, 30},
		{"one key", []float32{0}, 30},
		// A key a hair after another would give a huge rate from the
		// smallest interval; uneven, it falls back to 30.
		{"near-duplicate key", []float32{0, 1e-5, 1.0 / 30, 2.0 / 30}, 30},
	}
	for _, tc := range cases {
		if got := ClipFrameRate(tc.times); math.Abs(float64(got-tc.want)) > 1e-3 {
			t.Errorf("%s: %v fps, want %v", tc.name, got, tc.want)
		}
	}
}
