package character

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/asset/assettest"
)

// TestTrailAndGhosts: the motion trail of a joint is its position at every
// frame of the clip, and an onion ghost is the pose frames away, each as a
// second character posed at that time (Evaluate) shows it; neither moves
// the character's own clock or pose.
func TestTrailAndGhosts(t *testing.T) {
	walkOf := func() *Character {
		m := assettest.Character(t)
		walk, err := asset.FindClip(m, "Walk")
		if err != nil {
			t.Fatal(err)
		}
		c, err := New(m, nil, nil, walk, 0)
		if err != nil {
			t.Fatal(err)
		}
		c.Ctl.SetLoopMode(anim.Loop)
		return c
	}
	c, ref := walkOf(), walkOf()
	j := c.Model.Skeleton.JointIndex("hand.L")
	if j < 0 {
		t.Fatal("no hand.L")
	}
	c.Ctl.Update(0.37)
	c.PoseNow()
	before := c.JointWorld(j)
	at := func(tm float32) mgl32.Vec3 {
		ref.Evaluate(tm)
		return ref.JointWorld(j).Col(3).Vec3()
	}
	pts := c.Trail(j)
	if len(pts) != 31 { // Walk: 1 s keyed at 30 fps, both ends
		t.Fatalf("%d trail points, want 31", len(pts))
	}
	for k, p := range pts {
		if want := at(float32(k) / 30); !mgl32.Vec3(p).ApproxEqualThreshold(want, 1e-4) {
			t.Errorf("trail point %d: %v, want %v", k, p, want)
		}
	}
	for _, frames := range []float32{-2, 1, 4} {
		dt := frames / 30
		c.poseShifted(dt)
		if got, want := mgl32.Vec3(JointAt(c.ghost.models, j)), at(0.37+dt); !got.ApproxEqualThreshold(want, 1e-4) {
			t.Errorf("ghost %v frames away: %v, want %v", frames, got, want)
		}
	}
	if tm := c.Ctl.Timeline().Time; tm != 0.37 {
		t.Errorf("the clock moved to %v", tm)
	}
	c.PoseNow()
	if after := c.JointWorld(j); after != before {
		t.Errorf("the pose moved: %v, was %v", after, before)
	}
	if n := testing.AllocsPerRun(5, func() { c.Trail(j) }); n != 0 {
		t.Errorf("Trail allocates %v times", n)
	}
	if c.Trail(-1) != nil {
		t.Error("a trail without a selected joint")
	}
}
