package character

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
		if got := ClipFrameRate([][]float32{tc.times}); math.Abs(float64(got-tc.want)) > 1e-3 {
			t.Errorf("%s: %v fps, want %v", tc.name, got, tc.want)
		}
	}
}

// TestClipFrameRateFromSpacing: the key rate is the most common spacing
// between distinct consecutive keys of each channel, whatever holds
// there are; a clip with no common spacing, or whose channels have two
// keys each (an interpolation's ends), reads DefaultFPS.
func TestClipFrameRateFromSpacing(t *testing.T) {
	span := func(from, to int, rate float64) []float32 { // keys from/rate … to/rate
		var out []float32
		for k := from; k <= to; k++ {
			out = append(out, float32(float64(k)/rate))
		}
		return out
	}
	// 37.5 Hz over 34.9 s (1309 keys) on two channels.
	brain := [][]float32{span(0, 1308, 37.5), span(0, 1308, 37.5)}
	// 24 fps keys with one long hold: keys 0…24, nothing until 72, then
	// 72…96 (2 s held), and a channel keyed only at both ends.
	hold := [][]float32{append(span(0, 24, 24), span(72, 96, 24)...), {0, 4}}
	// Few keys over a long clip: every channel keyed at 0 and 1.25 s.
	few := [][]float32{{0, 1.25}, {0, 1.25}, {0, 1.25}}
	for _, tc := range []struct {
		name   string
		tracks [][]float32
		want   float32
	}{
		{"37.5 Hz over 34.9 s", brain, 37.5},
		{"24 fps with a hold", hold, 24},
		{"few keys", few, DefaultFPS},
		{"uneven keys", [][]float32{{0, 0.1, 0.15, 1}}, DefaultFPS},
		{"near-duplicate key", [][]float32{{0, 1e-5, 1.0 / 30, 2.0 / 30}}, 30},
	} {
		if got := ClipFrameRate(tc.tracks); math.Abs(float64(got-tc.want)) > 1e-3 {
			t.Errorf("%s: %v fps, want %v", tc.name, got, tc.want)
		}
	}
}
