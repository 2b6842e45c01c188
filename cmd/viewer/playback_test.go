package main

import "testing"

func TestPlaybackKeys(t *testing.T) {
	p := newPlayback(2, 0.5)
	p.advance(0.25)
	if got := p.time(); got != 0.75 {
		t.Fatalf("after 0.25 s of play: %v, want 0.75", got)
	}
	p.step(+1, false)
	if p.playing {
		t.Fatal("stepping must pause")
	}
	if got, want := p.time(), float32(0.75+1.0/30); got != want {
		t.Fatalf("one frame on: %v, want %v", got, want)
	}
	p.advance(10)
	if got, want := p.time(), float32(0.75+1.0/30); got != want {
		t.Fatalf("paused clock moved to %v", got)
	}
	p.step(-1, true) // one second back from 0.783 wraps to 1.783
	if got, want := p.time(), float32(0.75+1.0/30-1+2); got-want > 1e-5 || want-got > 1e-5 {
		t.Fatalf("one second back: %v, want %v", got, want)
	}
}
