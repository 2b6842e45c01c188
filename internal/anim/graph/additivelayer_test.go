package graph

import (
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// TestAdditiveLayerOverItsReference: an additive layer adds its state's
// difference against the layer's reference (x 0 here, not the state's
// first frame, which would make the difference 0), times the layer's
// weight, times the part of the layer its states fill: fading in from an
// empty state, half of it half-way through. A negative weight takes the
// difference away.
//
// Joint 0's x, by hand: the base layer holds 1 and Up adds 3 − 0 = 3.
// Half-way through the linear fade from the empty state the layer adds
// 1·½·3, so 2.5; settled, 1 + 3 = 4; at weight −1, 1 − 3 = −2.
func TestAdditiveLayerOverItsReference(t *testing.T) {
	c := requested(t, `{"params": [{"name": "g", "min": -1, "max": 1, "default": 1}],
	  "layers": [
	    {"states": [{"name": "base", "tree": "Base"}]},
	    {"name": "add", "mode": "additive", "weight": "g", "reference": {"clip": "Zero"}, "initial": "none",
	     "states": [{"name": "none"}, {"name": "up", "tree": "Up"}],
	     "transitions": [{"from": "none", "to": "up", "duration": 1, "ease": "linear"}]}
	  ]}`, []anim.Clip{
		animtest.ConstClip("Base", 1, 0, 1, 0, 0),
		animtest.ConstClip("Up", 1, 0, 3, 0, 0),
		animtest.ConstClip("Zero", 1, 0, 0, 0, 0),
	}, "add/up")
	for _, st := range []struct {
		what  string
		dt, g float32
		want  float32
	}{
		{"half-way into the fade", 0.5, 1, 2.5},
		{"settled", 1, 1, 4},
		{"settled at weight −1", 0, -1, -2},
	} {
		if err := c.SetParam("g", st.g); err != nil {
			t.Fatal(err)
		}
		c.Update(st.dt)
		if x := evalPose(c)[0].Translation[0]; !animtest.ApproxEqual(x, st.want, 1e-5) {
			t.Errorf("%s: joint 0 x = %v, want %v (status %+v)", st.what, x, st.want, c.Status().Layers[1])
		}
	}
}
