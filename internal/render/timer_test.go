package render

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/gltest"
)

// GPUMillis reports nothing before a Draw, and after Draws and Finish a
// positive time for the newest one.
func TestGPUTimer(t *testing.T) {
	gltest.Do(t, func() error {
		r, err := New()
		if err != nil {
			return err
		}
		defer r.Destroy()
		tg, err := NewTarget(64, 64, 1)
		if err != nil {
			return err
		}
		defer tg.Destroy()
		if _, ok := r.GPUMillis(); ok {
			t.Error("a time before any Draw")
		}
		id, err := r.AddMesh(quad(0))
		if err != nil {
			return err
		}
		f := &Frame{Target: tg, Width: 64, Height: 64, View: debugview.Shaded,
			Camera: Camera{Distance: 2, FovY: mgl32.DegToRad(90), Near: 0.1, Far: 10},
			Items:  []DrawItem{{Mesh: id, Material: Material{BaseColor: [4]float32{1, 1, 1, 1}, Texture: NoTexture}, Palette: identityRows, WeightJoint: -1}}}
		for range 3 {
			if err := r.Draw(f); err != nil {
				return err
			}
		}
		r.Finish()
		if ms, ok := r.GPUMillis(); !ok || !(ms > 0 && ms < 10000) {
			t.Errorf("GPUMillis after three Draws: %v ms, %v; want a positive time", ms, ok)
		}
		return nil
	})
}
