package anim_test

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

// arrivals is the reference for Crossings with markers anywhere in [0, d],
// the ends included. It cuts the elapsed interval [e0, e0+a] at every
// multiple of d, so that in each piece the clip-local time moves one way
// (or holds), computes that local time from the mode's definition, and
// fires each marker the path arrives at: one a piece reaches, not the one
// it leaves; where a Loop or Repeat clock wraps, the end the time jumps to.
func arrivals(ms []anim.Marker, d float32, mode anim.LoopMode, loops int, e0, a float32) []string {
	D := float64(d)
	start, end := float64(e0), float64(e0)+float64(a)
	n := float64(max(loops, 1))
	// local is the clip-local time at elapsed e inside cycle k.
	local := func(e float64, k float64) float64 {
		var u float64
		switch mode {
		case anim.Once:
			u = min(max(e, 0), D)
		case anim.Repeat:
			switch {
			case e <= 0:
				u = 0
			case e >= n*D:
				u = D
			default:
				u = e - min(max(k, 0), n-1)*D
			}
		case anim.PingPong:
			if math.Mod(math.Abs(k), 2) == 1 {
				u = (k+1)*D - e
			} else {
				u = e - k*D
			}
		default:
			u = e - k*D
		}
		// k·d − (k−1)·d need not round to d.
		if math.Abs(u-D) < 1e-9 {
			u = D
		}
		if math.Abs(u) < 1e-9 {
			u = 0
		}
		return u
	}
	points := []float64{start}
	for k := math.Floor(min(start, end) / D); k <= math.Ceil(max(start, end)/D); k++ {
		if c := k * D; c > min(start, end) && c < max(start, end) {
			points = append(points, c)
		}
	}
	if end < start {
		slices.Reverse(points[1:])
	}
	points = append(points, end)
	var out []string
	fire := func(lo, hi float64, up bool) { // markers in (lo, hi] going up, [lo, hi) going down
		for i := range ms {
			if !up {
				i = len(ms) - 1 - i
			}
			m := float64(ms[i].Time)
			if (up && m > lo && m <= hi) || (!up && m >= lo && m < hi) {
				out = append(out, ms[i].Name)
			}
		}
	}
	prevEnd := math.NaN()
	for i := 0; i+1 < len(points); i++ {
		p, q := points[i], points[i+1]
		k := math.Floor((p + q) / 2 / D)
		u0, u1 := local(p, k), local(q, k)
		if i > 0 && u0 != prevEnd {
			// A wrap: the time jumps to the other end and arrives there.
			for _, m := range ms {
				if float64(m.Time) == u0 {
					out = append(out, m.Name)
				}
			}
		}
		switch {
		case u1 > u0:
			fire(u0, u1, true)
		case u1 < u0:
			fire(u1, u0, false)
		}
		prevEnd = u1
	}
	return out
}

// TestCrossingsAtTheEnds: markers at 0 and at the duration, beside random
// ones, in every mode, both directions, across wraps and turns, against
// the path the clock's local time takes; a third of the trials start on a
// marker. A stopping clock (Once, Repeat) starts within its ends, where
// its Elapsed is kept.
func TestCrossingsAtTheEnds(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := range 2000 {
		d := 0.5 + 2*rng.Float32()
		ms := append(append([]anim.Marker{{0, "start"}}, innerMarkers(rng, d, rng.Intn(3))...), anim.Marker{d, "end"})
		mode, loops := loopModes[trial%4], 1+rng.Intn(3)
		e0 := d * (4*rng.Float32() - 1)
		switch mode {
		case anim.Once:
			e0 = d * rng.Float32()
		case anim.Repeat:
			e0 = d * float32(loops) * rng.Float32()
		}
		if trial%3 == 0 {
			e0 = ms[rng.Intn(len(ms))].Time // starting on a marker fires it not
		}
		checkCrossings(t, trial, arrivals, ms, d, mode, loops, e0, d*(6*rng.Float32()-3))
	}
}

// TestArrivalsByHand checks the reference itself on paths worked out by
// hand (d = 1, markers at 0, 0.5 and 1).
func TestArrivalsByHand(t *testing.T) {
	ms := []anim.Marker{{0, "s"}, {0.5, "m"}, {1, "e"}}
	for _, c := range []struct {
		mode   anim.LoopMode
		loops  int
		e0, a  float32
		expect []string
	}{
		{anim.Loop, 1, 0.75, 0.5, []string{"e", "s"}},                   // forward across the wrap
		{anim.Loop, 1, 0.25, -0.5, []string{"s", "e"}},                  // backward across it
		{anim.Loop, 1, 0.25, 2, []string{"m", "e", "s", "m", "e", "s"}}, // two wraps, ends at 2.25
		{anim.PingPong, 1, 0.75, 0.5, []string{"e"}},                    // the turn fires once
		{anim.PingPong, 1, 1.25, 1, []string{"m", "s"}},                 // back down to 0 at 2, up to 0.25
		{anim.PingPong, 1, 0.25, -0.5, []string{"s"}},                   // backward through 0: 0.25 → 0 → 0.25
		{anim.Once, 1, 0.25, 5, []string{"m", "e"}},                     // held at the end
		{anim.Once, 1, 1, -2, []string{"m", "s"}},                       // leaving the end fires nothing there
		{anim.Repeat, 2, 0.25, 5, []string{"m", "e", "s", "m", "e"}},    // wraps once, holds after 2
		{anim.Repeat, 2, 2, -1.25, []string{"m", "s", "e"}},             // from the held end back to 0.75
	} {
		if got := arrivals(ms, 1, c.mode, c.loops, c.e0, c.a); !slices.Equal(got, c.expect) {
			t.Errorf("%v (loops %d) from %v by %v: reference fires %v, by hand %v", c.mode, c.loops, c.e0, c.a, got, c.expect)
		}
	}
}
