package anim

import (
	"math"
	"testing"
)

func TestClipClock(t *testing.T) {
	cases := []struct {
		name    string
		mode    LoopMode
		loops   int
		rate    float32
		advance float32
		want    float32
	}{
		{"loop wraps", Loop, 0, 1, 2.5, 0.5},
		{"loop backwards wraps to the end", Loop, 0, -1, 0.5, 1.5},
		{"once holds the end", Once, 0, 1, 7, 2},
		{"once backwards holds the start", Once, 0, -1, 1, 0},
		{"half rate", Loop, 0, 0.5, 3, 1.5},
		{"ping-pong forward leg", PingPong, 0, 1, 1.5, 1.5},
		{"ping-pong backward leg", PingPong, 0, 1, 2.5, 1.5},
		{"ping-pong second cycle", PingPong, 0, 1, 4.25, 0.25},
		{"repeat inside the loops", Repeat, 3, 1, 5, 1},
		{"repeat after N loops holds the end", Repeat, 3, 1, 6.5, 2},
		{"double rate", Once, 0, 2, 0.75, 1.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ClipClock{Duration: 2, Rate: tc.rate, Mode: tc.mode, Loops: tc.loops}
			// Several small steps must agree with the closed form.
			for i := 0; i < 4; i++ {
				c.Advance(tc.advance / 4)
			}
			if got := c.Local(); !approxEqual(got, tc.want, 1e-5) {
				t.Fatalf("Local() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestClipClockFinished(t *testing.T) {
	// step advances the clock, then checks Finished against finished.
	type step struct {
		advance  float32
		finished bool
		why      string // what a wrong Finished means
	}
	cases := []struct {
		name  string
		clock ClipClock
		steps []step
	}{
		{"once", NewClipClock(1, Once), []step{
			{0.5, false, "finished halfway"},
			{0.6, true, "not finished past the end"},
		}},
		{"repeat x2", ClipClock{Duration: 1, Rate: 1, Mode: Repeat, Loops: 2}, []step{
			{1.5, false, "repeat x2 finished after 1.5 loops"},
			{0.5, true, "repeat x2 not finished after 2 loops"},
		}},
		{"loop", NewClipClock(1, Loop), []step{
			{100, false, "a looping clock never finishes"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.clock
			for _, s := range tc.steps {
				c.Advance(s.advance)
				if c.Finished() != s.finished {
					t.Fatal(s.why)
				}
			}
		})
	}
}

// A clock that stops holds at its ends: played on past the end (or back
// past the start), it turns round at once instead of first playing back
// through the time it overshot (a once-clip that sat at its end for 3 s
// stood still for 3 s after R reversed it).
func TestClipClockStopsHoldAtTheirEnds(t *testing.T) {
	step := func(c *ClipClock, rate, dt float32) {
		c.Rate = rate
		c.Advance(dt)
		c.Rewind()
	}
	once := NewClipClock(1, Once)
	step(&once, 1, 3)
	step(&once, -1, 0.25)
	rep := ClipClock{Duration: 1, Rate: 1, Mode: Repeat, Loops: 2}
	step(&rep, 1, 5)
	step(&rep, -1, 0.25)
	back := NewClipClock(1, Once)
	step(&back, -1, 2)
	step(&back, 1, 0.25)
	for _, tc := range []struct {
		name string
		c    ClipClock
		want float32
	}{{"once, back from past the end", once, 0.75}, {"repeat ×2, back from past the end", rep, 0.75}, {"once, on from before the start", back, 0.25}} {
		if got := tc.c.Local(); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("%s: local %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestClockEdges: a loop clock that moves onto its end starts the next
// loop; one of no length stays at 0; a clip lasts until its latest key.
func TestClockEdges(t *testing.T) {
	c := ClipClock{Duration: 1, Rate: 1, Mode: Loop, Elapsed: 0.5}
	c.Advance(0.5)
	c.Rewind()
	if c.Elapsed != 0 || c.Local() != 0 {
		t.Fatalf("loop moved onto its end: elapsed %v local %v, want the next loop's start", c.Elapsed, c.Local())
	}
	c = ClipClock{Duration: 1, Rate: 1, Mode: PingPong, Elapsed: 1.5}
	c.Advance(0.5)
	c.Rewind()
	if c.Elapsed != 0 || c.Local() != 0 {
		t.Fatalf("ping-pong moved onto its period: elapsed %v local %v, want 0", c.Elapsed, c.Local())
	}
	c = ClipClock{Duration: 0, Rate: 1, Mode: Loop}
	c.Advance(0.25)
	c.Rewind()
	if c.Local() != 0 || math.IsNaN(float64(c.Elapsed)) {
		t.Fatalf("a zero-length loop: elapsed %v local %v, want local 0", c.Elapsed, c.Local())
	}
	for _, f := range []struct {
		mode          LoopMode
		rate, elapsed float32
		finished      bool
	}{
		{Once, 1, 1, true}, {Once, 1, 0.5, false}, {Once, 0, 1, true}, // paused on the end
		{Once, -1, 0, true}, {Once, -1, 0.5, false},
		{Repeat, 1, 2, true}, {Repeat, 1, 1.5, false}, {Repeat, 0, 2, true},
		{Repeat, -1, 0, true}, {Repeat, -1, 0.5, false}, {Loop, 1, 7, false},
	} {
		c := ClipClock{Duration: 1, Rate: f.rate, Mode: f.mode, Loops: 2, Elapsed: f.elapsed}
		if c.Finished() != f.finished {
			t.Errorf("%v ×2 at rate %v, %v s: finished %v, want %v", f.mode, f.rate, f.elapsed, c.Finished(), f.finished)
		}
	}
	clip := Clip{Tracks: []Track{{Times: []float32{0, 1.5}}, {}, {Times: []float32{0.5, 2.5}}, {Times: []float32{1}}}}
	if d := clip.ComputeDuration(); d != 2.5 {
		t.Fatalf("duration %v, want 2.5, the latest key", d)
	}
}
