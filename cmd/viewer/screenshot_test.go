package main

import (
	"image"
	"image/color"
	"testing"

	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/golden"
	"github.com/skinview/skinview/internal/scene"
)

func TestScreenshotDefaultCharacter(t *testing.T) {
	m, err := asset.Load("")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		clip  string
		time  float32
		spots []golden.Spot
	}{
		{"walk_0.5", "Walk", 0.5, []golden.Spot{
			{Name: "chest is drawn", X: 165, Y: 150, Want: scene.Background, Not: true, Tolerance: 0.02},
			{Name: "no hand above the head", X: 140, Y: 45, Want: scene.Background},
		}},
		{"wave_1.0", "Wave", 1.0, []golden.Spot{
			{Name: "chest is drawn", X: 190, Y: 160, Want: scene.Background, Not: true, Tolerance: 0.02},
			{Name: "hand is raised above the head", X: 140, Y: 45, Want: scene.Background, Not: true, Tolerance: 0.02},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clip, err := asset.FindClip(m, tc.clip)
			if err != nil {
				t.Fatal(err)
			}
			c, err := character.New(m, nil, nil, clip, 0)
			if err != nil {
				t.Fatal(err)
			}
			var img, again *image.NRGBA
			// Drawn a second time in the same context, a frame must come out
			// the same: anything else is GL state leaking between frames.
			onGL(t, func() (err error) {
				if img, err = scene.RenderImage(c, scene.ViewOptions{Skinning: scene.SkinGPU}, tc.time, 320, 400); err != nil {
					return err
				}
				again, err = scene.RenderImage(c, scene.ViewOptions{Skinning: scene.SkinGPU}, tc.time, 320, 400)
				return err
			})
			golden.Check(t, "TestScreenshotDefaultCharacter/"+tc.name, img, golden.Options{})
			golden.CheckSpots(t, img, append(tc.spots, golden.Spot{Name: "corner is background", X: 2, Y: 2, Want: scene.Background}))
			if r := golden.Compare(again, img, golden.Options{Threshold: 1e-9, MaxBadPixels: -1}); !r.OK() {
				t.Errorf("second draw differs from the first in %d pixels (worst region %v)", r.BadPixels, r.Worst)
			}
		})
	}
}

// TestScreenshotIsLitAndTextured checks, without a golden, what the
// foundation promises: shading varies across the body (lit) and there are
// more colours than one lit material could make (textured).
func TestScreenshotIsLitAndTextured(t *testing.T) {
	m, err := asset.Load("")
	if err != nil {
		t.Fatal(err)
	}
	c, err := character.New(m, nil, nil, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var img *image.NRGBA
	onGL(t, func() (err error) {
		img, err = scene.RenderImage(c, scene.ViewOptions{Skinning: scene.SkinGPU}, 0.5, 320, 400)
		return err
	})
	colours := map[color.NRGBA]int{}
	covered := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			p := img.NRGBAAt(x, y)
			if p != scene.Background {
				covered++
				colours[quantize(p)]++
			}
		}
	}
	if frac := float64(covered) / float64(b.Dx()*b.Dy()); frac < 0.05 || frac > 0.8 {
		t.Errorf("character covers %.1f%% of the frame; framing should make it clearly visible but not fill it", 100*frac)
	}
	if len(colours) < 20 {
		t.Errorf("only %d distinct colours on the character; want lighting and texture variation", len(colours))
	}
}

func quantize(p color.NRGBA) color.NRGBA {
	return color.NRGBA{p.R &^ 7, p.G &^ 7, p.B &^ 7, 255}
}
