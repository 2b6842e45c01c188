package graph

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// TestHeldCharacterClaims runs the character spec's layers (a blend, an
// additive and a masked layer, transitions) for 400 frames: every claim
// on its output, scratch and layer poses holds after each frame, and the
// output claims the rest pose's translations, which none of its clips
// keys.
func TestHeldCharacterClaims(t *testing.T) {
	c, sk := characterController(t)
	if err := c.SetParam("speed", 0.5); err != nil {
		t.Fatal(err)
	}
	out := anim.NewPose(sk)
	for i := range 400 {
		if i%120 == 0 {
			_ = c.Request("greet")
		}
		c.Update(1.0 / 60)
		c.Evaluate(out)
		if err := out.CheckHeld(); err != nil {
			t.Errorf("output: %v", err)
		}
		for _, s := range c.ctx.stack {
			if err := s.CheckHeld(); err != nil {
				t.Errorf("scratch or layer: %v", err)
			}
		}
	}
	if !out.HeldAs(c.ctx.rest, anim.Translation) {
		t.Error("the output does not claim the rest pose's translations")
	}
}

// TestCrowdLayersMatchControllers runs the character spec's controllers
// (three layers, post-processing) in a crowd on two workers, each
// character with its own parameters and clock, and the same set-up alone,
// frame by frame: the palettes agree bit for bit. The crowd lends each
// character its worker's layer poses, which keep another character's
// held stripes (SoAPose.HeldAs) from the character before.
func TestCrowdLayersMatchControllers(t *testing.T) {
	const chars = 13
	params := []map[string]float32{
		{"speed": 0.5, "look_weight": 1, "ik_weight": 1},
		{"speed": 1, "sway": 0, "gesture": 0.5},
		{"speed": 0, "sway": 1, "look_weight": 0.4},
		{"speed": 0.2, "gesture": 0},
	}
	spec, sk := characterSpec(t), animtest.Humanoid()
	clips := animtest.HumanoidClips(sk)
	set := func() []*Controller {
		var ctls []*Controller
		for i := range chars {
			c := build(t, spec, sk, clips)
			for name, v := range params[i%len(params)] {
				if err := c.SetParam(name, v); err != nil {
					t.Fatal(err)
				}
			}
			c.SetTime(float32(i) * 0.23)
			ctls = append(ctls, c)
		}
		return ctls
	}
	ctls, alone := set(), set()
	n := sk.NumJoints()
	skin := anim.Skin{Joints: make([]int, n), InverseBind: make([]mgl32.Mat4, n)}
	for i := range n {
		skin.Joints[i], skin.InverseBind[i] = i, mgl32.Translate3D(0, -0.1*float32(i), 0)
	}
	crowd, err := NewCrowd(sk, []anim.Skin{skin}, ctls)
	if err != nil {
		t.Fatal(err)
	}
	defer crowd.Close()
	pose := anim.NewPose(sk)
	mp := anim.ModelPaletteJob{Skeleton: sk, Skin: &skin, Input: pose, Models: make([]float32, anim.PaletteFloats*n), Output: make([]float32, anim.PaletteFloats*n)}
	for frame := range 90 {
		if frame%30 == 0 {
			for i := range chars {
				if i%3 == 0 {
					_ = ctls[i].Request("greet")
					_ = alone[i].Request("greet")
				}
			}
		}
		crowd.Evaluate(1.0/60, 2)
		for i, c := range alone {
			c.Update(1.0 / 60)
			c.Evaluate(pose)
			mp.Run()
			for k, want := range mp.Output {
				if got := crowd.Palette(i, 0)[k]; got != want {
					t.Fatalf("frame %d, character %d: palette float %d is %v in the crowd, %v alone", frame, i, k, got, want)
				}
			}
		}
	}
}
