package graph

import (
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

func TestMorphWeightsThroughTheController(t *testing.T) {
	sk := animtest.MorphSkeleton()
	avg := NodeSpec{Type: NodeAverage, Children: []NodeSpec{clipNodeSpec("M"), clipNodeSpec("N"), clipNodeSpec("C")},
		Weights: []Input{Const(1), Const(1), Const(2)}}
	c := build(t, treeSpec(avg), sk, animtest.MorphClips())
	c.Update(0.25)
	out := anim.NewPose(sk)
	c.Evaluate(out)
	// (M + N + 2·C)/4 with M = (0.25, 0.75, 0.5), N = (0.1, 0.2, 0.2),
	// C = (0.15625, 0.5, 0.5).
	for k, want := range []float32{0.165625, 0.4875, 0.425} {
		if !animtest.ApproxEqual(out.W[k], want, 1e-6) {
			t.Errorf("average: weights %v, want %v at %d", out.W, want, k)
		}
	}
	if n := testing.AllocsPerRun(10, func() { c.Update(0.01); c.Evaluate(out) }); n != 0 {
		t.Errorf("a frame with morph weights allocates %v times", n)
	}
}
