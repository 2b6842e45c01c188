package scene

import (
	"testing"

	"github.com/skinview/skinview/internal/gltest"
)

// TestViewDestroyFreesItsObjects: a view that drew offscreen, destroyed,
// leaves as many GL objects alive as there were before it: its renderer's,
// its meshes' and textures', its HUD's and its target's.
func TestViewDestroyFreesItsObjects(t *testing.T) {
	_, c := twoJoint(t, "leak.gltf", 0)
	// drawn makes a view, draws it with its overlay and destroys it.
	drawn := func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU, Skeleton: true}, 64, 64)
		if err != nil {
			return err
		}
		defer v.Destroy()
		v.Joint = 1
		return v.Draw()
	}
	onGL(t, func() error {
		// The first view loads GL's functions.
		if err := drawn(); err != nil {
			return err
		}
		before := gltest.LiveObjects(4096)
		if err := drawn(); err != nil {
			return err
		}
		if after := gltest.LiveObjects(4096); after != before {
			t.Errorf("%d GL objects alive after a view was made, drawn and destroyed; %d before", after, before)
		}
		return nil
	})
}
