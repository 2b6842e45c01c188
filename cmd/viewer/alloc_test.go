package main

import (
	"errors"
	"testing"

	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/scene"
)

// TestFrameAnimationAllocatesNothing: the per-frame animation path of the
// viewer (clock, controller update and evaluation, palettes, partition
// gathers, CPU skinning buffers) allocates nothing, for each skinning mode
// and for the built-in character's blend tree as for the clip browser.
func TestFrameAnimationAllocatesNothing(t *testing.T) {
	cases := []struct {
		name string
		opt  options
	}{
		{"blend tree, GPU", options{skinning: scene.SkinGPU}},
		{"clip browser, partitions", options{clip: "Walk", skinning: scene.SkinGPU, paletteLimit: 12}},
		{"dual quaternions", options{clip: "Run", skinning: scene.SkinDQ}},
		{"CPU skinning", options{clip: "Walk", skinning: scene.SkinCPU}},
		{"crowd of 8", options{skinning: scene.SkinGPU, crowd: 8}},
		{"compressed crowd of 8", options{skinning: scene.SkinGPU, crowd: 8, compress: 0.01}},
		{"crowd of 8, each member drawn", options{skinning: scene.SkinGPU, crowd: 8, crowdDraw: "members"}},
		{"crowd of 8, no level of detail", options{skinning: scene.SkinGPU, crowd: 8, lod: "off"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var allocs float64
			withApp(t, tc.opt, func(a *app.App) error {
				var uerr error
				allocs = testing.AllocsPerRun(50, func() {
					if err := a.Update(1.0 / 60); err != nil {
						uerr = err
					}
				})
				return uerr
			})
			if allocs != 0 {
				t.Fatalf("one frame of animation allocates %v times", allocs)
			}
		})
	}
}

// TestWholeFrameAllocatesNothing: a whole frame of the window's loop,
// engine update, HUD layout, the skeleton overlay with the inspector's
// axes and motion trail, and the draw, allocates nothing: under the
// built-in character's spec with its parameters, state machine and blend
// space visible, and in the clip browser with a blend of clips, the clip
// list, the onion skin and the timeline's hover tag.
func TestWholeFrameAllocatesNothing(t *testing.T) {
	cases := []struct {
		name string
		opt  options
		prep func(a *app.App) error
	}{
		{"spec", options{width: 800, height: 600}, func(a *app.App) error {
			if a.Info().Space == nil || len(a.Info().Params) == 0 {
				return errors.New("the built-in character's HUD shows no blend space or parameters")
			}
			return nil
		}},
		{"clip browser", options{clip: "Walk", width: 800, height: 600, onion: 2}, func(a *app.App) error {
			if err := a.SetBlendWeight(3, 0.5); err != nil {
				return err
			}
			if err := a.Update(0); err != nil { // takes the transition
				return err
			}
			r := a.UI.Timeline
			a.UI.Hover(r.X+r.W/2, r.Y+r.H/2)
			if !a.Char.InBlend() || len(a.Info().Clips) == 0 || !a.UI.Onion {
				return errors.New("no blend, clip list or onion skin")
			}
			return nil
		}},
		// A crowd drawn instanced, level of detail on: members take turns
		// to update, the instance records are rebuilt every frame.
		{"crowd", options{clip: "Walk", width: 800, height: 600, crowd: 50, lod: "on", crowdDraw: "instanced"}, func(a *app.App) error {
			if a.Crowd == nil || a.Crowd.Len() != 50 {
				return errors.New("no crowd of 50")
			}
			return nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var allocs float64
			withApp(t, tc.opt, func(a *app.App) error {
				a.UI.HUD, a.UI.Skeleton, a.UI.Grid = true, true, true
				a.UI.Joint = a.Char.Model.Skeleton.JointIndex("head") // the inspector open
				frame, err := frameOf(a)
				frame() // the grid and the HUD's buffers are laid out once
				if err := tc.prep(a); err != nil {
					return err
				}
				frame()
				allocs = testing.AllocsPerRun(20, frame)
				return *err
			})
			if allocs != 0 {
				t.Fatalf("a whole frame allocates %v times; want 0", allocs)
			}
		})
	}
}

// frameOf is one whole frame of a (Update by 1/60 s, then Draw) as a
// func for testing.AllocsPerRun, and where it leaves its last error.
func frameOf(a *app.App) (frame func(), err *error) {
	err = new(error)
	return func() {
		if e := a.Update(1.0 / 60); e != nil {
			*err = e
		}
		if e := a.Draw(); e != nil {
			*err = e
		}
	}, err
}
