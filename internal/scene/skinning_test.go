package scene

import (
	"image"
	"testing"

	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/golden"
)

// testModels are the assets every skinning proof runs on.
func testModels(t *testing.T) map[string]*gltfload.Model {
	t.Helper()
	def := assettest.Character(t)
	two, err := gltfload.Decode(assettest.TwoJointGLTF(t), nil, "two-joint.gltf")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*gltfload.Model{"character": def, "two-joint": two}
}

// TestSkinningModesAgree renders each model skinned on the GPU with the
// driver's palette, on the CPU, and with partitions forced by small palette
// limits: the pictures must agree within a tight tolerance.
func TestSkinningModesAgree(t *testing.T) {
	variants := []struct {
		name string
		opt  ViewOptions
	}{
		{"cpu", ViewOptions{Skinning: SkinCPU}},
		{"limit12", ViewOptions{Skinning: SkinGPU, PaletteLimit: 12}},
		{"limit16", ViewOptions{Skinning: SkinGPU, PaletteLimit: 16}},
		{"limit32", ViewOptions{Skinning: SkinGPU, PaletteLimit: 32}},
	}
	for name, m := range testModels(t) {
		t.Run(name, func(t *testing.T) {
			c, err := character.New(m, nil, nil, -1, 0)
			if err != nil {
				t.Fatal(err)
			}
			tm := c.Span() * 0.4
			var ref *image.NRGBA
			imgs := make([]*image.NRGBA, len(variants))
			onGL(t, func() (err error) {
				if ref, err = RenderImage(c, ViewOptions{Skinning: SkinGPU}, tm, 240, 300); err != nil {
					return err
				}
				for i, v := range variants {
					if imgs[i], err = RenderImage(c, v.opt, tm, 240, 300); err != nil {
						return err
					}
				}
				return nil
			})
			for i, v := range variants {
				r := golden.Compare(imgs[i], ref, golden.Options{Threshold: 0.05, MaxBadFraction: 0.0005})
				if !r.OK() {
					t.Errorf("%s differs from GPU skinning: %d bad pixels (budget %d), max delta %.3f, worst region %v", v.name, r.BadPixels, r.Budget, r.MaxDelta, r.Worst)
				}
			}
		})
	}
}
