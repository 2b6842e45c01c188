package anim

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// rootClip moves joint 0 from p0 to p1 and turns it about Y from 0 to
// yaw degrees over 1 s.
func rootClip(p0, p1 mgl32.Vec3, yaw float64) Clip {
	q := mgl32.QuatRotate(float32(yaw*math.Pi/180), mgl32.Vec3{0, 1, 0})
	return Clip{Name: "R", Duration: 1, Tracks: []Track{
		{Joint: 0, Path: Translation, Interp: Linear, Times: []float32{0, 1}, Values: []float32{p0[0], p0[1], p0[2], p1[0], p1[1], p1[2]}},
		{Joint: 0, Path: Rotation, Interp: Linear, Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, q.V[0], q.V[1], q.V[2], q.W}},
	}}
}

// play runs frames of 1/30 s at speed and composes their root motion
// onto w, checking that the root keeps only its height and that no frame
// jumps by more than step.
func play(t *testing.T, c *Controller, w Transform, frames int, speed float32, step float32) Transform {
	t.Helper()
	c.SetSpeed(speed)
	out := NewSoAPose(c.NumJoints())
	for f := range frames {
		c.Update(1.0 / 30)
		c.Evaluate(out)
		m := c.Motion()
		if l := m.Translation.Len(); l > step*1.001 {
			t.Fatalf("frame %d moved %v, more than a frame's %v", f, l, step)
		}
		w = then(w, m)
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
	c := build(t, treeSpec(clipNodeSpec("R")), chain(2), []Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 2}, 0)})
	if err := c.SetRootMotion(0, RootXZ); err != nil {
		t.Fatal(err)
	}
	w := play(t, c, identityMotion, 75, 1, 2.0/30)
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
	c := build(t, treeSpec(clipNodeSpec("R")), chain(2), []Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 1, 0}, 90)})
	if err := c.SetRootMotion(0, RootXZ); err != nil {
		t.Fatal(err)
	}
	w := identityMotion
	c.SetSpeed(1)
	out := NewSoAPose(c.NumJoints())
	for range 60 {
		c.Update(1.0 / 30)
		c.Evaluate(out)
		w = then(w, c.Motion())
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
	c := build(t, treeSpec(clipNodeSpec("R")), chain(2), []Clip{rootClip(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 2}, 30)})
	c.SetRootMotion(0, RootXZ)
	out := NewSoAPose(c.NumJoints())
	if n := testing.AllocsPerRun(100, func() { c.Update(0.07); c.Evaluate(out) }); n != 0 {
		t.Fatalf("a frame allocates %v times", n)
	}
}
