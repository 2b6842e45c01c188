package render

import (
	"testing"

	"github.com/skinview/skinview/internal/debugview"
)

// GPUMillis reports nothing before a Draw, and after one and Finish a
// positive time.
func TestGPUTimer(t *testing.T) {
	drawSceneThen(t, debugview.Shaded, func(r *Renderer) ([]DrawItem, error) {
		if _, ok := r.GPUMillis(); ok {
			t.Error("a time before any Draw")
		}
		id, err := r.AddMesh(quad(0))
		return []DrawItem{{Mesh: id, Material: Material{BaseColor: [4]float32{1, 1, 1, 1}, Texture: NoTexture}, Palette: identityRows, WeightJoint: -1}}, err
	}, OwnLighting, func(r *Renderer) {
		r.Finish()
		if ms, ok := r.GPUMillis(); !ok || !(ms > 0 && ms < 10000) {
			t.Errorf("GPUMillis after a Draw: %v ms, %v; want a positive time", ms, ok)
		}
	})
}
