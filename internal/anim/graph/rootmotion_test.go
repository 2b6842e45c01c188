package graph

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// rootClip moves joint 0 from p0 to p1 and turns it about Y from 0 to
// yaw degrees over 1 s.
func rootClip(p0, p1 mgl32.Vec3, yaw float64) anim.Clip {
	q := mgl32.QuatRotate(float32(yaw*math.Pi/180), mgl32.Vec3{0, 1, 0})
	return anim.Clip{Name: "R", Duration: 1, Tracks: []anim.Track{
		{Joint: 0, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{p0[0], p0[1], p0[2], p1[0], p1[1], p1[2]}},
		{Joint: 0, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, q.V[0], q.V[1], q.V[2], q.W}},
	}}
}

// play runs frames of 1/30 s at speed and composes their root motion
// onto w, checking that the root keeps only its height and that no frame
// jumps by more than step.
func play(t *testing.T, c *Controller, w anim.Transform, frames int, speed float32, step float32) anim.Transform {
	t.Helper()
	c.SetSpeed(speed)
	out := anim.NewSoAPose(c.NumJoints())
	for f := range frames {
		c.Update(1.0 / 30)
		c.Evaluate(out)
		m := c.Motion()
		if l := m.Translation.Len(); l > step*1.001 {
			t.Fatalf("frame %d moved %v, more than a frame's %v", f, l, step)
		}
		w = anim.Then(w, m)
		if r := out.At(0); math.Abs(float64(r.Translation[0])) > 1e-5 || math.Abs(float64(r.Translation[2])) > 1e-5 || math.Abs(float64(r.Translation[1]-1)) > 1e-5 {
			t.Fatalf("frame %d: the root kept %v; want only its height 1", f, r.Translation)
		}
	}
	return w
}

// TestRootMotionWalks: a root that travels 2 m along Z per 1 s loop walks
// 5 m in 2.5 s, every frame 2/30 m, the wraps included, and walks back
// the same way reversed.
func TestRootMotionWalks(t *testing.T) {
	c := build(t, treeSpec(clipNodeSpec("R")), animtest.Chain(2), []anim.Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 2}, 0)})
	if err := c.SetRootMotion(0, anim.RootXZ); err != nil {
		t.Fatal(err)
	}
	w := play(t, c, anim.IdentityTransform, 75, 1, 2.0/30)
	if !nearVec(w.Translation, mgl32.Vec3{0, 0, 5}, 1e-3) {
		t.Fatalf("after 2.5 s: %v, want (0, 0, 5)", w.Translation)
	}
	w = play(t, c, w, 75, -1, 2.0/30)
	if !nearVec(w.Translation, mgl32.Vec3{}, 1e-3) {
		t.Fatalf("walked back to %v, want the start", w.Translation)
	}
}

// TestRootMotionTurns: a loop that moves 1 m along X while turning 90°
// about Y, twice: (1,0,0), then (1,0,0) turned by 90° (to (0,0,−1)), so
// the character ends at (1, 0, −1) facing 180° round.
func TestRootMotionTurns(t *testing.T) {
	c := build(t, treeSpec(clipNodeSpec("R")), animtest.Chain(2), []anim.Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 1, 0}, 90)})
	if err := c.SetRootMotion(0, anim.RootXZ); err != nil {
		t.Fatal(err)
	}
	w := anim.IdentityTransform
	c.SetSpeed(1)
	out := anim.NewSoAPose(c.NumJoints())
	for range 60 {
		c.Update(1.0 / 30)
		c.Evaluate(out)
		w = anim.Then(w, c.Motion())
	}
	if !nearVec(w.Translation, mgl32.Vec3{1, 0, -1}, 1e-4) {
		t.Fatalf("after two loops: %v, want about (1, 0, -1)", w.Translation)
	}
	if f := w.Rotation.Rotate(mgl32.Vec3{1, 0, 0}); !nearVec(f, mgl32.Vec3{-1, 0, 0}, 1e-3) {
		t.Fatalf("facing %v, want turned 180°", f)
	}
	// The pose keeps no turn: the root's rotation is the identity.
	if r := out.At(0).Rotation; math.Abs(float64(r.W)) < 1-1e-5 {
		t.Fatalf("root rotation %v left in the pose", r)
	}
}

// nearVec compares vectors component by component, absolutely.
func nearVec(a, b mgl32.Vec3, eps float32) bool {
	for i := range 3 {
		if d := a[i] - b[i]; d > eps || d < -eps {
			return false
		}
	}
	return true
}

// TestRootMotionAllocatesNothing: a frame with root motion on, across a
// loop's wrap, allocates nothing.
func TestRootMotionAllocatesNothing(t *testing.T) {
	c := build(t, treeSpec(clipNodeSpec("R")), animtest.Chain(2), []anim.Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 2}, 30)})
	c.SetRootMotion(0, anim.RootXZ)
	out := anim.NewSoAPose(c.NumJoints())
	if n := testing.AllocsPerRun(100, func() { c.Update(0.07); c.Evaluate(out) }); n != 0 {
		t.Fatalf("a frame allocates %v times", n)
	}
}

// travel plays frames of dt and returns how far root motion carried the
// character.
func travel(c *Controller, frames int, dt float32) anim.Transform {
	w := anim.IdentityTransform
	out := anim.NewPose(c.sk)
	for range frames {
		c.Update(dt)
		c.Evaluate(out)
		w = anim.Then(w, c.Motion())
	}
	return w
}

// TestRootMotionSyncedBlend: A (1 s, 1 m) and B (2 s, 4 m) synced half
// and half share a 1.5 s cycle in which each plays once: 2.5 m a cycle.
func TestRootMotionSyncedBlend(t *testing.T) {
	a, b := rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 1}, 0), rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 4}, 0)
	a.Name, b.Name = "A", "B"
	b.Duration = 2
	b.Tracks[0].Times, b.Tracks[1].Times = []float32{0, 2}, []float32{0, 2}
	spec := treeSpec(NodeSpec{Type: NodeLerp, Weight: inPtr(Const(0.5)), Sync: true, Children: []NodeSpec{clipNodeSpec("A"), clipNodeSpec("B")}})
	c := build(t, spec, animtest.Chain(2), []anim.Clip{a, b})
	c.SetRootMotion(0, anim.RootXZ)
	if w := travel(c, 90, 1.0/30); !nearVec(w.Translation, mgl32.Vec3{0, 0, 5}, 1e-3) {
		t.Fatalf("two synced cycles travelled %v, want (0, 0, 5)", w.Translation)
	}
}

// TestRootMotionRepeatBackwards: a clip that repeats twice, played back
// from 0.1 s for 2 s, goes back 0.1 s (0.2 m) and then holds its start.
func TestRootMotionRepeatBackwards(t *testing.T) {
	spec := treeSpec(NodeSpec{Type: NodeClip, Clip: ClipNamed("R"), Loop: anim.Repeat, Loops: 2})
	c := build(t, spec, animtest.Chain(2), []anim.Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 2}, 0)})
	c.SetRootMotion(0, anim.RootXZ)
	c.SetTime(0.1)
	c.SetSpeed(-1)
	if w := travel(c, 60, 1.0/30); !nearVec(w.Translation, mgl32.Vec3{0, 0, -0.2}, 1e-4) {
		t.Fatalf("travelled %v, want (0, 0, -0.2)", w.Translation)
	}
}

// TestRootMotionLongUpdate: one update of 100 s of a 1 s loop travelling
// 2 m goes 200 m.
func TestRootMotionLongUpdate(t *testing.T) {
	c := build(t, treeSpec(clipNodeSpec("R")), animtest.Chain(2), []anim.Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 2}, 0)})
	c.SetRootMotion(0, anim.RootXZ)
	c.SetTime(0.3)
	if w := travel(c, 1, 100); !nearVec(w.Translation, mgl32.Vec3{0, 0, 200}, 1e-2) {
		t.Fatalf("travelled %v, want (0, 0, 200)", w.Translation)
	}
}

// TestShiftedEvaluationKeepsMotion: an onion skin's evaluation leaves the
// motion and the extracted root of the last Evaluate alone.
func TestShiftedEvaluationKeepsMotion(t *testing.T) {
	c := build(t, treeSpec(clipNodeSpec("R")), animtest.Chain(2), []anim.Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 2}, 0)})
	c.SetRootMotion(0, anim.RootXZ)
	out := anim.NewPose(c.sk)
	c.Update(0.1)
	c.Evaluate(out)
	m, e := c.Motion(), c.Extracted()
	c.EvaluateShifted(0.5, out)
	if c.Motion() != m || c.Extracted() != e {
		t.Fatalf("after a shifted evaluation: motion %v extracted %v, were %v %v", c.Motion(), c.Extracted(), m, e)
	}
}

// TestRootMotionLongUpdateTurning: a loop that moves 1 m along X while
// turning 90° about Y, played over whole loops and more in one update,
// forwards and backwards from 0.3 s, carries the character as the same
// span played frame by frame does (where no frame spans a loop): the
// motion of a whole loop from 0.3 s is the rest of the loop, then its
// start, in that order; with a turn the two orders differ.
//
// By hand, with T(s) the root at s (at (s, 0, 0), turned 90°·s; R(θ)
// turns (1, 0, 0) to (cos θ, 0, −sin θ)): a loop forwards from 0.3 s is
// T(0.3)⁻¹·T(1)·T(0.3), which takes the origin to R(−27°)·(0.7, 0, −0.3)
// = (0.7599, 0, 0.0505); backwards, T(0.3)⁻¹·T(1)⁻¹·T(0.3), to
// R(−27°)·(−0.3, 0, −0.7) = (0.0505, 0, −0.7599).
func TestRootMotionLongUpdateTurning(t *testing.T) {
	byHand := map[float32]mgl32.Vec3{1: {0.7599, 0, 0.0505}, -1: {0.0505, 0, -0.7599}}
	for _, span := range []float32{1, -1, 2.5, -2.5} {
		clips := []anim.Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 1, 0}, 90)}
		one := build(t, treeSpec(clipNodeSpec("R")), animtest.Chain(2), clips)
		frames := build(t, treeSpec(clipNodeSpec("R")), animtest.Chain(2), clips)
		for _, c := range []*Controller{one, frames} {
			c.SetRootMotion(0, anim.RootXZ)
			c.SetTime(0.3)
			c.SetSpeed(1)
			if span < 0 {
				c.SetSpeed(-1)
			}
		}
		n := int(math.Round(math.Abs(float64(span)) * 30))
		a := travel(one, 1, float32(n)/30)
		b := travel(frames, n, 1.0/30)
		if want, ok := byHand[span]; ok && !nearVec(a.Translation, want, 1e-4) {
			t.Errorf("%v s from 0.3 s: at %v; want %v", span, a.Translation, want)
		}
		if !nearVec(a.Translation, b.Translation, 1e-4) || !nearVec(a.Rotation.Rotate(mgl32.Vec3{1, 0, 0}), b.Rotation.Rotate(mgl32.Vec3{1, 0, 0}), 1e-4) {
			t.Errorf("%v s from 0.3 s in one update: at %v facing %v; frame by frame at %v facing %v", span, a.Translation, a.Rotation.Rotate(mgl32.Vec3{1, 0, 0}), b.Translation, b.Rotation.Rotate(mgl32.Vec3{1, 0, 0}))
		}
	}
}

// TestFrozenTransitionTravel: walking at 2 m/s for 0.5 s (1 m), then a
// frozen transition to standing. The update that takes it advances the
// walk to 0.625 s, which the snapshot shows: that 0.25 m is travelled;
// held, the snapshot travels no further while standing blends in, so the
// character stops at 1.25 m.
func TestFrozenTransitionTravel(t *testing.T) {
	walk := rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 2}, 0)
	walk.Name = "W"
	still := rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 0}, 0)
	still.Name = "S"
	spec, err := ParseSpec([]byte(`{"states": [{"name": "walk", "tree": "W"}, {"name": "stand", "tree": "S"}],
	  "transitions": [{"from": "walk", "to": "stand", "type": "frozen", "duration": 0.5, "ease": "linear"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), []anim.Clip{walk, still})
	if err := c.SetRootMotion(0, anim.RootXZ); err != nil {
		t.Fatal(err)
	}
	w := travel(c, 4, 0.125)
	if err := c.Request("stand"); err != nil {
		t.Fatal(err)
	}
	for f, want := range []float32{1.25, 1.25, 1.25, 1.25, 1.25, 1.25} {
		w = anim.Then(w, travel(c, 1, 0.125))
		if !nearVec(w.Translation, mgl32.Vec3{0, 0, want}, 1e-5) {
			t.Fatalf("frame %d after the request: at %v, want (0, 0, %v)", f, w.Translation, want)
		}
	}
}

// TestRootMotionTurnIsTheTwistAboutY: a root that turns 90° about Y and
// tilts 30° about its own X (Ry(90°)·Rx(30°) at its end), played once to
// its end, carries the character round by the turn alone, the twist of
// the root's rotation about the vertical: it faces 90° round, along +X.
// The pose keeps the rest: Ry(90°)⁻¹·Ry(90°)·Rx(30°) leaves the root
// tilted 30° about X, its up (0, cos 30°, sin 30°), and its scale, 1.5,
// exactly.
func TestRootMotionTurnIsTheTwistAboutY(t *testing.T) {
	end := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0}).Mul(mgl32.QuatRotate(math.Pi/6, mgl32.Vec3{1, 0, 0}))
	clip := anim.Clip{Name: "R", Duration: 1, Tracks: []anim.Track{
		{Joint: 0, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0, 1, 0, 0, 1, 0}},
		{Joint: 0, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, end.V[0], end.V[1], end.V[2], end.W}},
		{Joint: 0, Path: anim.Scale, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{1.5, 1.5, 1.5, 1.5, 1.5, 1.5}},
	}}
	spec := treeSpec(NodeSpec{Type: NodeClip, Clip: ClipNamed("R"), Loop: anim.Once})
	c := build(t, spec, animtest.Chain(2), []anim.Clip{clip})
	if err := c.SetRootMotion(0, anim.RootXZ); err != nil {
		t.Fatal(err)
	}
	out := anim.NewSoAPose(c.NumJoints())
	w := anim.IdentityTransform
	for range 40 { // past the end, where the clip holds
		c.Update(1.0 / 30)
		c.Evaluate(out)
		w = anim.Then(w, c.Motion())
	}
	if f := w.Rotation.Rotate(mgl32.Vec3{0, 0, 1}); !nearVec(f, mgl32.Vec3{1, 0, 0}, 1e-4) {
		t.Errorf("facing %v after the clip; want (1, 0, 0), turned 90° about Y", f)
	}
	root := out.At(0)
	tilted := mgl32.Vec3{0, float32(math.Cos(math.Pi / 6)), float32(math.Sin(math.Pi / 6))}
	if up := root.Rotation.Rotate(mgl32.Vec3{0, 1, 0}); !nearVec(up, tilted, 1e-4) {
		t.Errorf("root's up %v; want it tilted 30° about X, %v", up, tilted)
	}
	if want := (mgl32.Vec3{1.5, 1.5, 1.5}); root.Scale != want {
		t.Errorf("root's scale %v; want %v exactly", root.Scale, want)
	}
}

// TestRootMotionBlendsTurns: half of a clip that turns 90° a loop and half
// of one that walks straight turn 45° a loop between them (the motions'
// turns slerped, not the first one's taken).
func TestRootMotionBlendsTurns(t *testing.T) {
	a, b := rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 0}, 90), rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 1}, 0)
	a.Name, b.Name = "A", "B"
	spec := treeSpec(NodeSpec{Type: NodeLerp, Weight: inPtr(Const(0.5)), Children: []NodeSpec{clipNodeSpec("A"), clipNodeSpec("B")}})
	c := build(t, spec, animtest.Chain(2), []anim.Clip{a, b})
	c.SetRootMotion(0, anim.RootXZ)
	w := travel(c, 15, 1.0/30) // half a loop: 22.5°
	want := mgl32.Vec3{float32(math.Sin(math.Pi / 8)), 0, float32(math.Cos(math.Pi / 8))}
	if f := w.Rotation.Rotate(mgl32.Vec3{0, 0, 1}); !nearVec(f, want, 1e-3) {
		t.Errorf("facing %v after half a loop; want %v (22.5° about Y)", f, want)
	}
}
