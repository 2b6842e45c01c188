package graph

import (
	"fmt"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// evalOrPanic evaluates c into a fresh pose and reports a panic of the
// evaluation as an error instead of letting it end the test binary.
func evalOrPanic(c *Controller) (pose []anim.Transform, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("Evaluate panicked: %v", r)
		}
	}()
	return evalPose(c), nil
}

// TestScratchPosesForNestedTrees: a layer at weight ½ (blended over the
// rest pose from a buffer of its own) in the middle of a transition into
// a state whose tree nests a lerp under a mask node's overlay. Every pose
// that evaluation holds at once needs a buffer of its own: the layer's
// output, the destination state beside the source, the mask node's
// overlay beside its base and the lerp's second child beside its first.
// One buffer too few makes two of them share one, and the sum is wrong.
//
// Joint 0's x, by hand: A = 2; B = the mask node's base Bb = 10 blended
// at ½ (the mask covers joint 0 in full) towards the lerp of B1 = 4 and
// B2 = 8 at ½ (6), so 8. Half-way through the linear transition (0.5 s
// after the update that starts it) the layer holds ½·2 + ½·8 = 5, and at
// layer weight ½ over the rest pose (x 0) joint 0 is at 2.5.
func TestScratchPosesForNestedTrees(t *testing.T) {
	c := requested(t, `{"layers": [{"weight": 0.5,
	  "states": [
	    {"name": "a", "tree": "A"},
	    {"name": "b", "tree": {"type": "mask", "base": "Bb", "weight": 0.5, "mask": {"joints": ["j0"]},
	      "overlay": {"type": "lerp", "weight": 0.5, "children": ["B1", "B2"]}}}
	  ],
	  "transitions": [{"from": "a", "to": "b", "duration": 1, "ease": "linear"}]}]}`, []anim.Clip{
		animtest.ConstClip("A", 1, 0, 2, 0, 0),
		animtest.ConstClip("Bb", 1, 0, 10, 0, 0),
		animtest.ConstClip("B1", 1, 0, 4, 0, 0),
		animtest.ConstClip("B2", 1, 0, 8, 0, 0),
	}, "b")
	c.Update(0.5)
	pose, err := evalOrPanic(c)
	if err != nil {
		t.Fatal(err)
	}
	if x := pose[0].Translation[0]; !animtest.ApproxEqual(x, 2.5, 1e-5) {
		t.Fatalf("joint 0 x = %v half-way into the nested state at layer weight ½, want 2.5", x)
	}
	// Settled in b: ½·8 = 4.
	c.Update(1)
	if pose, err = evalOrPanic(c); err != nil {
		t.Fatal(err)
	}
	if x := pose[0].Translation[0]; !animtest.ApproxEqual(x, 4, 1e-5) {
		t.Fatalf("joint 0 x = %v settled in the nested state at layer weight ½, want 4", x)
	}
}
