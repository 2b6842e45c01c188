package anim_test

import (
	"math"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

func TestClipClock(t *testing.T) {
	cases := []struct {
		name    string
		mode    anim.LoopMode
		loops   int
		rate    float32
		advance float32
		want    float32
	}{
		{"loop wraps", anim.Loop, 0, 1, 2.5, 0.5},
		{"loop backwards wraps to the end", anim.Loop, 0, -1, 0.5, 1.5},
		{"once holds the end", anim.Once, 0, 1, 7, 2},
		{"once backwards holds the start", anim.Once, 0, -1, 1, 0},
		{"half rate", anim.Loop, 0, 0.5, 3, 1.5},
		{"ping-pong forward leg", anim.PingPong, 0, 1, 1.5, 1.5},
		{"ping-pong backward leg", anim.PingPong, 0, 1, 2.5, 1.5},
		{"ping-pong second cycle", anim.PingPong, 0, 1, 4.25, 0.25},
		{"repeat inside the loops", anim.Repeat, 3, 1, 5, 1},
		{"repeat after N loops holds the end", anim.Repeat, 3, 1, 6.5, 2},
		{"double rate", anim.Once, 0, 2, 0.75, 1.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := anim.ClipClock{Duration: 2, Rate: tc.rate, Mode: tc.mode, Loops: tc.loops}
			// Several small steps must agree with the closed form.
			for i := 0; i < 4; i++ {
				c.Advance(tc.advance / 4)
			}
			if got := c.Local(); !animtest.ApproxEqual(got, tc.want, 1e-5) {
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
		clock anim.ClipClock
		steps []step
	}{
		{"once", anim.NewClipClock(1, anim.Once), []step{
			{0.5, false, "finished halfway"},
			{0.6, true, "not finished past the end"},
		}},
		{"repeat x2", anim.ClipClock{Duration: 1, Rate: 1, Mode: anim.Repeat, Loops: 2}, []step{
			{1.5, false, "repeat x2 finished after 1.5 loops"},
			{0.5, true, "repeat x2 not finished after 2 loops"},
		}},
		{"loop", anim.NewClipClock(1, anim.Loop), []step{
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
	step := func(c *anim.ClipClock, rate, dt float32) {
		c.Rate = rate
		c.Advance(dt)
		c.Rewind()
	}
	once := anim.NewClipClock(1, anim.Once)
	step(&once, 1, 3)
	step(&once, -1, 0.25)
	rep := anim.ClipClock{Duration: 1, Rate: 1, Mode: anim.Repeat, Loops: 2}
	step(&rep, 1, 5)
	step(&rep, -1, 0.25)
	back := anim.NewClipClock(1, anim.Once)
	step(&back, -1, 2)
	step(&back, 1, 0.25)
	for _, tc := range []struct {
		name string
		c    anim.ClipClock
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
	c := anim.ClipClock{Duration: 1, Rate: 1, Mode: anim.Loop, Elapsed: 0.5}
	c.Advance(0.5)
	c.Rewind()
	if c.Elapsed != 0 || c.Local() != 0 {
		t.Fatalf("loop moved onto its end: elapsed %v local %v, want the next loop's start", c.Elapsed, c.Local())
	}
	c = anim.ClipClock{Duration: 1, Rate: 1, Mode: anim.PingPong, Elapsed: 1.5}
	c.Advance(0.5)
	c.Rewind()
	if c.Elapsed != 0 || c.Local() != 0 {
		t.Fatalf("ping-pong moved onto its period: elapsed %v local %v, want 0", c.Elapsed, c.Local())
	}
	c = anim.ClipClock{Duration: 0, Rate: 1, Mode: anim.Loop}
	c.Advance(0.25)
	c.Rewind()
	if c.Local() != 0 || math.IsNaN(float64(c.Elapsed)) {
		t.Fatalf("a zero-length loop: elapsed %v local %v, want local 0", c.Elapsed, c.Local())
	}
	for _, f := range []struct {
		mode          anim.LoopMode
		rate, elapsed float32
		finished      bool
	}{
		{anim.Once, 1, 1, true}, {anim.Once, 1, 0.5, false}, {anim.Once, 0, 1, true}, // paused on the end
		{anim.Once, -1, 0, true}, {anim.Once, -1, 0.5, false},
		{anim.Repeat, 1, 2, true}, {anim.Repeat, 1, 1.5, false}, {anim.Repeat, 0, 2, true},
		{anim.Repeat, -1, 0, true}, {anim.Repeat, -1, 0.5, false}, {anim.Loop, 1, 7, false},
	} {
		c := anim.ClipClock{Duration: 1, Rate: f.rate, Mode: f.mode, Loops: 2, Elapsed: f.elapsed}
		if c.Finished() != f.finished {
			t.Errorf("%v ×2 at rate %v, %v s: finished %v, want %v", f.mode, f.rate, f.elapsed, c.Finished(), f.finished)
		}
	}
	clip := anim.Clip{Tracks: []anim.Track{{Times: []float32{0, 1.5}}, {}, {Times: []float32{0.5, 2.5}}, {Times: []float32{1}}}}
	if d := clip.ComputeDuration(); d != 2.5 {
		t.Fatalf("duration %v, want 2.5, the latest key", d)
	}
}

// TestClockRewindEdges: Rewind keeps a Repeat clock's time up to Loops ×
// Duration (Duration not 1, so that the product shows); it wraps a loop
// clock played back before its start into its last cycle; a time a
// hair below 0 (−1e-9, which wraps to Duration in float32) is the
// start; a Repeat clock exactly one Duration in is at its second loop's
// start, t = clamp(τ·R, 0, N·T) mod T = 0.
func TestClockRewindEdges(t *testing.T) {
	rep := anim.ClipClock{Duration: 2, Rate: 1, Mode: anim.Repeat, Loops: 3, Elapsed: 5}
	rep.Rewind()
	if rep.Elapsed != 5 || rep.Local() != 1 {
		t.Errorf("repeat ×3 of 2 s at 5 s: elapsed %v, local %v after Rewind, want 5 and 1", rep.Elapsed, rep.Local())
	}
	rep.Elapsed = 7
	rep.Rewind()
	if rep.Elapsed != 6 || rep.Local() != 2 {
		t.Errorf("repeat ×3 of 2 s at 7 s: elapsed %v, local %v after Rewind, want 6 and 2 (the end held)", rep.Elapsed, rep.Local())
	}
	for _, c := range []struct {
		mode          anim.LoopMode
		elapsed, want float32 // Elapsed before Rewind, Elapsed after
	}{
		{anim.Loop, -0.5, 1.5}, {anim.Loop, -2.5, 1.5}, {anim.Loop, -1e-9, 0}, {anim.Loop, 2, 0},
		{anim.PingPong, -0.5, 3.5}, {anim.PingPong, -1e-9, 0},
	} {
		clock := anim.ClipClock{Duration: 2, Rate: 1, Mode: c.mode, Elapsed: c.elapsed}
		clock.Rewind()
		if clock.Elapsed != c.want {
			t.Errorf("%v of 2 s at %v s: elapsed %v after Rewind, want %v", c.mode, c.elapsed, clock.Elapsed, c.want)
		}
		if l := clock.Local(); l < 0 || l > 2 {
			t.Errorf("%v of 2 s at %v s: local %v outside [0, 2]", c.mode, c.elapsed, l)
		}
	}
	for _, c := range []struct {
		mode  anim.LoopMode
		loops int
		want  float32
	}{{anim.Repeat, 2, 0}, {anim.Repeat, 1, 2}, {anim.Once, 1, 2}, {anim.Loop, 1, 2}, {anim.PingPong, 1, 2}} {
		clock := anim.ClipClock{Duration: 2, Rate: 1, Mode: c.mode, Loops: c.loops, Elapsed: 2}
		if l := clock.Local(); l != c.want {
			t.Errorf("%v ×%d of 2 s at 2 s: local %v, want %v", c.mode, c.loops, l, c.want)
		}
	}
}

// A clip's runtime duration is its Duration where that is positive, else
// its last key's time.
func TestRuntimeClipDuration(t *testing.T) {
	sk := &anim.Skeleton{Names: []string{"root"}, Parents: []int{-1}, Rest: []anim.Transform{anim.IdentityTransform}}
	for _, c := range []struct{ set, want float32 }{{3, 3}, {1, 1}, {0, 2}, {-1, 2}} {
		clip := &anim.Clip{Duration: c.set, Tracks: []anim.Track{{Path: anim.Translation, Times: []float32{0, 2}, Values: make([]float32, 6)}}}
		rc, err := anim.NewRuntimeClip(clip, sk)
		if err != nil {
			t.Fatalf("duration %v: %v", c.set, err)
		}
		if d := rc.Duration(); d != c.want {
			t.Errorf("Duration %v, keys to 2: runtime duration %v, want %v", c.set, d, c.want)
		}
	}
}

// TestClockFinishedEdges: a paused clock at its start has not finished
// (it plays forwards once resumed); Repeat finishes at Loops × Duration
// (Duration 2, so that the product shows), and a Repeat clock exactly
// there holds the end, not the start.
func TestClockFinishedEdges(t *testing.T) {
	for _, c := range []struct {
		mode          anim.LoopMode
		rate, elapsed float32
		finished      bool
	}{
		{anim.Once, 0, 0, false}, {anim.Repeat, 0, 0, false},
		{anim.Repeat, 1, 3, false}, {anim.Repeat, 1, 4, true}, {anim.Once, 1, 2, true}, {anim.Once, 1, 1.5, false},
	} {
		clock := anim.ClipClock{Duration: 2, Rate: c.rate, Mode: c.mode, Loops: 2, Elapsed: c.elapsed}
		if clock.Finished() != c.finished {
			t.Errorf("%v ×2 of 2 s at rate %v, %v s: finished %v, want %v", c.mode, c.rate, c.elapsed, clock.Finished(), c.finished)
		}
	}
	end := anim.ClipClock{Duration: 2, Rate: 1, Mode: anim.Repeat, Loops: 2, Elapsed: 4}
	if l := end.Local(); l != 2 {
		t.Errorf("repeat ×2 of 2 s at 4 s: local %v, want 2 (the last loop's end)", l)
	}
}

// TestClockReturning: a ping-pong clock of 2 s is on its way back in the
// second half of each 4 s cycle, from its turn at 2 s (included) up to 4 s
// (excluded), before 0 as after; other modes and no duration never are.
func TestClockReturning(t *testing.T) {
	for _, c := range []struct {
		mode anim.LoopMode
		d, e float32
		back bool
	}{
		{anim.PingPong, 2, 0, false}, {anim.PingPong, 2, 1.999, false}, {anim.PingPong, 2, 2, true},
		{anim.PingPong, 2, 3.999, true}, {anim.PingPong, 2, 4, false}, {anim.PingPong, 2, 6, true},
		{anim.PingPong, 2, -0.5, true}, {anim.PingPong, 2, -2, true}, {anim.PingPong, 2, -2.5, false},
		{anim.Loop, 2, 3, false}, {anim.Once, 2, 3, false}, {anim.Repeat, 2, 3, false}, {anim.PingPong, 0, 3, false},
	} {
		clock := anim.ClipClock{Duration: c.d, Rate: 1, Mode: c.mode, Elapsed: c.e}
		if got := clock.Returning(); got != c.back {
			t.Errorf("%v clock of %v s at %v: returning %v, want %v", c.mode, c.d, c.e, got, c.back)
		}
	}
}
