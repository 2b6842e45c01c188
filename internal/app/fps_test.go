package app

import "testing"

// TestCountFrameSkipsFirst: the window's first dt runs from just before
// its loop to the first frame, a fraction of a microsecond, not a frame's
// interval. Counted, it seeded the smoothed rate with millions of fps,
// which at a crowd's 12 frames a second the HUD still showed seconds
// later ("57722 fps" under a 78 ms render).
func TestCountFrameSkipsFirst(t *testing.T) {
	var a App
	a.CountFrame(1e-7)
	for range 5 {
		a.CountFrame(0.08)
	}
	if got := a.Timing.FPS; got < 12 || got > 13 {
		t.Fatalf("FPS after five 80 ms frames = %g, want 12.5", got)
	}
}
