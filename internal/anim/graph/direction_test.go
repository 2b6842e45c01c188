package graph

import (
	"testing"

	"github.com/skinview/skinview/internal/anim/animtest"
)

// TestBackward: the way the timeline's time runs. A (2 s) in
// ping-pong goes forwards for its first 2 s of play and back for the next
// 2 s; a negative speed turns each leg round.
func TestBackward(t *testing.T) {
	spec, err := ParseSpec([]byte(`{"tree": {"type": "clip", "clip": "A", "loop": "pingpong"}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(1), nodeClips())
	for _, step := range []struct {
		dt, speed float32
		back      bool
	}{{0.5, 1, false}, {2, 1, true}, {0, -1, false}, {2, 1, false}, {0, -1, true}} {
		c.SetSpeed(step.speed)
		c.Update(step.dt)
		if back := c.Backward(); back != step.back {
			t.Fatalf("after %v s at speed %v: backward %v, want %v", step.dt, step.speed, back, step.back)
		}
	}
}
