package anim_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// TestClipMotionBetweenLaterKeys takes root motion from a root track of
// three keys, z = 0, 1, 5 at 0, 0.5, 2.5 s, over spans inside the second
// pair and across both: linear z is 2t in the first pair and 1 + 2(t −
// 0.5) in the second, so 1.25 → 1.75 s travels 1 and 0.25 → 1.5 s 2.5,
// worked out by hand; and the same from a STEP track, which holds each
// key.
func TestClipMotionBetweenLaterKeys(t *testing.T) {
	sk := animtest.Chain(2)
	rm, err := anim.NewRootMotion(sk, 0, anim.RootXZ)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		interp  anim.Interpolation
		e0, adv float32
		want    float32
	}{
		{anim.Linear, 1.25, 0.5, 1},
		{anim.Linear, 0.25, 1.25, 2.5},
		{anim.Linear, 1.75, -0.5, -1},
		{anim.Step, 0.25, 1.25, 1},
		{anim.Step, 1.25, 0.5, 0},
	} {
		clip := anim.Clip{Name: "walk", Duration: 2.5, Tracks: []anim.Track{{Joint: 0, Path: anim.Translation, Interp: c.interp,
			Times: []float32{0, 0.5, 2.5}, Values: []float32{0, 0, 0, 0, 0, 1, 0, 0, 5}}}}
		rc, err := anim.NewRuntimeClip(&clip, sk)
		if err != nil {
			t.Fatal(err)
		}
		clock := anim.ClipClock{Duration: 2.5, Rate: 1, Mode: anim.Once}
		m := rm.ClipMotion(rc, clock, c.e0, c.adv)
		if want := (mgl32.Vec3{0, 0, c.want}); !animtest.VecApprox(m.Translation, want, 1e-5) || math.Abs(float64(m.Rotation.W)) < 1-1e-6 {
			t.Errorf("%v from %v by %v: motion %v; want %v and no turn", c.interp, c.e0, c.adv, m, want)
		}
	}
}
