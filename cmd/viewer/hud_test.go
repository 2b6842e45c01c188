package main

import (
	"image"
	"testing"

	"github.com/skinview/skinview/internal/golden"
	"github.com/skinview/skinview/internal/ui"
)

// TestHUDStates renders the viewer with its HUD in the states people look
// at most, driven through the key map as a user would, and compares each
// with a golden.
func TestHUDStates(t *testing.T) {
	cases := []struct {
		name string
		opt  options
		// keys are pressed one per 1/30 s frame; then frames more pass.
		keys   string
		frames int
		spots  []golden.Spot
	}{
		{name: "paused_mid_clip", opt: options{clip: "Walk"}, keys: "right*8",
			spots: []golden.Spot{{Name: "pause sign shown", X: 20, Y: 65, Want: ui.TextColor, Tolerance: 0.2}}},
		{name: "crossfade", opt: options{clip: "Idle", fade: 0.5}, keys: "],enter", frames: 5},
		{name: "slider_selected", opt: options{}, keys: "tab,up*4"},
		{name: "help", opt: options{clip: "Walk"}, keys: "h"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opt := tc.opt
			opt.skinning, opt.view, opt.width, opt.height, opt.hud = skinGPU, viewShaded, 640, 480, true
			m, err := loadModel("")
			if err != nil {
				t.Fatal(err)
			}
			c, err := characterFor(m, &opt)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := ui.ParseKeys(tc.keys)
			if err != nil {
				t.Fatal(err)
			}
			var img, again *image.NRGBA
			onGL(t, func() error {
				a, err := newApp(&opt, c, opt.width, opt.height)
				if err != nil {
					return err
				}
				defer a.destroy()
				if err := a.runKeys(evs); err != nil {
					return err
				}
				for i := 0; i < tc.frames; i++ {
					if err := a.update(frameStep); err != nil {
						return err
					}
				}
				if err := a.draw(); err != nil {
					return err
				}
				img = a.v.target.ReadImage()
				// Drawn again with nothing changed: the same picture.
				if err := a.draw(); err != nil {
					return err
				}
				again = a.v.target.ReadImage()
				return nil
			})
			golden.Check(t, "TestHUDStates/"+tc.name, img, golden.Options{})
			golden.CheckSpots(t, img, tc.spots)
			if r := golden.Compare(again, img, golden.Options{Threshold: 1e-9, MaxBadPixels: -1}); !r.OK() {
				t.Errorf("second draw differs in %d pixels (worst %v): state leaks between frames", r.BadPixels, r.Worst)
			}
		})
	}
}
