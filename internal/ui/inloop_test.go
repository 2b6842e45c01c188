package ui

import (
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

// playRegion is a state playing the region [in, out] of the fake's 2 s
// clip in mode, backwards if reverse, its play head given to InLoop at
// each of ts in turn.
func playRegion(in, out float32, mode anim.LoopMode, reverse bool, ts ...float32) (*State, *fakeViewer) {
	f, s := newFake(), NewState()
	s.LoopIn, s.LoopOut, s.Loop, s.Reverse = in, out, mode, reverse
	playOn(&s, f, ts...)
	return &s, f
}

// playOn gives InLoop the play head at each of ts in turn, as frames
// playing through those times would.
func playOn(s *State, f *fakeViewer, ts ...float32) {
	for _, t := range ts {
		f.t = t
		s.InLoop(f)
	}
}

// TestInLoop: the region [0.5, 1.2] (0.7 s) in each loop mode. Looping,
// past the out point by 0.05 s goes on 0.05 s after the in point (and
// backwards likewise), so a cycle keeps the region's length; ping-pong
// turns round 0.05 s inside; once stops at the end and pauses. Before the
// region the play head goes to its start; paused, or without a region,
// nothing moves.
func TestInLoop(t *testing.T) {
	for _, tc := range []struct {
		mode        anim.LoopMode
		t, want     float32
		reverse     bool
		wantReverse bool
		wantPlaying bool
	}{
		{anim.Loop, 1.25, 0.55, false, false, true}, {anim.Loop, 0.8, 0.8, false, false, true}, {anim.Loop, 0.2, 0.5, false, false, true},
		{anim.Loop, 0.45, 1.15, true, true, true}, {anim.Loop, 0.9, 0.9, true, true, true},
		{anim.PingPong, 1.25, 1.15, false, true, true}, {anim.PingPong, 0.45, 0.55, true, false, true},
		{anim.Once, 1.25, 1.2, false, false, false}, {anim.Once, 0.45, 0.5, true, true, false},
		// Exactly on the end it plays towards: a loop goes on from the
		// other end, ping-pong turns round, once stops.
		{anim.Loop, 1.2, 0.5, false, false, true}, {anim.Loop, 0.5, 1.2, true, true, true},
		{anim.PingPong, 1.2, 1.2, false, true, true}, {anim.PingPong, 0.5, 0.5, true, false, true},
		{anim.Once, 1.2, 1.2, false, false, false}, {anim.Once, 0.5, 0.5, true, true, false},
	} {
		s, f := playRegion(0.5, 1.2, tc.mode, tc.reverse, tc.t)
		if !near(f.t, tc.want) || s.back() != tc.wantReverse || s.Playing != tc.wantPlaying {
			t.Errorf("%s at %v (reverse %v): %v (reverse %v, playing %v), want %v (reverse %v, playing %v)",
				tc.mode, tc.t, tc.reverse, f.t, s.back(), s.Playing, tc.want, tc.wantReverse, tc.wantPlaying)
		}
	}
	s, f := playRegion(0.5, 1.2, anim.Loop, false)
	s.Playing = false
	if playOn(s, f, 1.5); f.t != 1.5 {
		t.Error("paused, the play head moved")
	}

	// A region ending at the clip's end (2 s): played on from inside it,
	// the clip's own loop wraps 2.05 to 0.05, which is past the out point
	// by 0.05 s, not before the in point. Started before the region, the
	// play head goes to its start.
	if _, f := playRegion(1.5, 2, anim.Loop, false, 1.9, 0.05); !near(f.t, 1.55) {
		t.Errorf("wrapped by the clip past a region at its end: %v, want 1.55", f.t)
	}
	if _, f := playRegion(1.5, 2, anim.Loop, false, 0.05); !near(f.t, 1.5) {
		t.Errorf("playing from before the region: %v, want its start 1.5", f.t)
	}

	// Played once, the region stops at its out point; Space plays it
	// again from its in point.
	s, f = playRegion(0.5, 1.2, anim.Once, false, 1.25)
	s.Handle(Event{Key: KeySpace}, f)
	if s.InLoop(f); !s.Playing || !near(f.t, 0.5) {
		t.Errorf("Space on a once region at its end: playing %v at %v, want playing from 0.5", s.Playing, f.t)
	}
}

// TestInLoopEdges: the region [0.5, 1.2] (0.7 s): a play head more than
// its length past either end was moved there (a seek) and starts at the
// end it plays from; within that, past the out point it carries on by
// the time it went past; backwards past the out point it comes back to
// it. Paused, the clip's wrap is not taken for the region's.
func TestInLoopEdges(t *testing.T) {
	for _, tc := range []struct {
		t, want float32
		reverse bool
	}{
		{1.95, 0.5, false}, {1.85, 1.15, false}, {-0.25, 0.5, false},
		{1.95, 1.2, true}, {1.3, 1.2, true}, {-0.25, 1.2, true}, {-0.15, 0.55, true},
	} {
		if _, f := playRegion(0.5, 1.2, anim.Loop, tc.reverse, tc.t); !near(f.t, tc.want) {
			t.Errorf("at %v (reverse %v): %v, want %v", tc.t, tc.reverse, f.t, tc.want)
		}
	}
	// Backwards through a region at the clip's start: the clip wraps 0 −
	// 0.05 to 1.95, which is 0.05 s past the in point.
	if _, f := playRegion(0, 0.5, anim.Loop, true, 0.1, 1.95); !near(f.t, 0.45) {
		t.Errorf("wrapped backwards past a region at the start: %v, want 0.45", f.t)
	}
	// Paused in between: the wrap is a seek, to the region's start.
	s, f := playRegion(1.5, 2, anim.Loop, false, 1.9)
	s.Playing = false
	s.InLoop(f)
	s.Playing = true
	if playOn(s, f, 0.05); !near(f.t, 1.5) {
		t.Errorf("played again from 0.05 after a pause: %v, want the region's start 1.5", f.t)
	}
	// Ping-pong turns round at both ends.
	if s, f := playRegion(0.5, 1.2, anim.PingPong, false, 1.25, 0.45); !near(f.t, 0.55) || s.back() {
		t.Errorf("ping-pong back past the in point: %v (back %v), want 0.55 forwards", f.t, s.back())
	}
}

// TestInLoopExactEdges: the region [0.5, 1.25] (0.75 s, exact in
// binary): exactly its length past an end is not yet far (a seek), so
// the play head carries on by the full length, landing on the other end.
// In [0.01, 0.08] the play head at 0.15 is that too in decimals, but
// 0.15 − 0.08 rounds to a hair over 0.08 − 0.01 in float32: it still
// lands on the out point, never past the region. In a region longer than
// half the clip a play head on an end, having played on from inside
// towards the other end, is inside, not wrapped.
func TestInLoopExactEdges(t *testing.T) {
	for _, tc := range []struct {
		in, out float32
		ts      []float32
		want    float32
		reverse bool
	}{
		{0.5, 1.25, []float32{2}, 1.25, false}, {0.5, 1.25, []float32{-0.25}, 0.5, true},
		{0.01, 0.08, []float32{0.15}, 0.08, false},
		{0.5, 1.8, []float32{1, 0.5}, 0.5, false}, {0.25, 1.5, []float32{1, 1.5}, 1.5, true},
	} {
		if _, f := playRegion(tc.in, tc.out, anim.Loop, tc.reverse, tc.ts...); f.t != tc.want {
			t.Errorf("[%v, %v] at %v (reverse %v): %v, want %v", tc.in, tc.out, tc.ts, tc.reverse, f.t, tc.want)
		}
	}
}
