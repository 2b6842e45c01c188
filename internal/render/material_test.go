package render

import (
	"image"
	"image/color"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/gltest"
)

// Materials in the base colour view, read back from an offscreen target:
// expected bytes are worked out by hand from the sRGB transfer function,
// glTF's alpha modes and KHR_texture_transform.

// quad is a square in the plane z from (−1, −1) to (1, 1), facing +Z,
// with glTF texture coordinates: (0, 0) at its top-left corner.
func quad(z float32) MeshData {
	return MeshData{
		Positions: []float32{-1, 1, z, -1, -1, z, 1, 1, z, 1, -1, z},
		Normals:   []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1},
		UV:        []float32{0, 0, 0, 1, 1, 0, 1, 1},
		Indices:   []uint32{0, 1, 2, 2, 1, 3},
	}
}

var identityRows = []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}

// drawScene draws in view (lit as lighting says, if given), into a 64×64 target seen from +Z with a 90°
// field of view at distance 2 (a quad at z = 0 covers the middle half of
// the picture), the items setup uploads and returns, and reads the
// picture back.
func drawScene(t *testing.T, view debugview.Mode, setup func(r *Renderer) ([]DrawItem, error), lighting ...Lighting) *image.NRGBA {
	t.Helper()
	l := OwnLighting
	if len(lighting) > 0 {
		l = lighting[0]
	}
	return drawSceneThen(t, view, setup, l, nil)
}

// drawSceneThen is drawScene, lit by lighting, calling after (when not
// nil) with the renderer once the frame is drawn.
func drawSceneThen(t *testing.T, view debugview.Mode, setup func(r *Renderer) ([]DrawItem, error), lighting Lighting, after func(r *Renderer)) *image.NRGBA {
	t.Helper()
	var out *image.NRGBA
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
		f := &Frame{Target: tg, Width: 64, Height: 64, View: view,
			Camera: Camera{Distance: 2, FovY: mgl32.DegToRad(90), Near: 0.1, Far: 10}}
		f.Lighting = lighting
		if f.Items, err = setup(r); err != nil {
			return err
		}
		if err := r.Draw(f); err != nil {
			return err
		}
		out = tg.ReadImage()
		if after != nil {
			after(r)
		}
		return nil
	})
	return out
}

// drawQuads draws one quad per material (the i-th at z of zs[i], Center
// at its middle) in the base colour view, over the colour textures
// images sampled by samplers.
func drawQuads(t *testing.T, zs []float32, mats []Material, images []*image.NRGBA, samplers []Sampler) *image.NRGBA {
	t.Helper()
	return drawScene(t, debugview.BaseColor, func(r *Renderer) ([]DrawItem, error) {
		for i, img := range images {
			r.AddTexture(img, samplers[i], true)
		}
		var items []DrawItem
		for i, z := range zs {
			id, err := r.AddMesh(quad(z))
			if err != nil {
				return nil, err
			}
			items = append(items, DrawItem{Mesh: id, Material: mats[i], Palette: identityRows, WeightJoint: -1, Center: [3]float32{0, 0, z}})
		}
		return items, nil
	})
}

func near(got, want color.NRGBA, tol int) bool {
	d := func(a, b uint8) bool { return int(a)-int(b) <= tol && int(b)-int(a) <= tol }
	return d(got.R, want.R) && d(got.G, want.G) && d(got.B, want.B) && got.A == want.A
}

func checkPixels(t *testing.T, img *image.NRGBA, tol int, want map[image.Point]color.NRGBA) {
	t.Helper()
	for p, w := range want {
		if got := img.NRGBAAt(p.X, p.Y); !near(got, w, tol) {
			t.Errorf("pixel %v: %v, want %v (±%d)", p, got, w, tol)
		}
	}
}

func TestBaseColorViewEncodesSRGB(t *testing.T) {
	// sRGB(0.5) = 1.055·0.5^(1/2.4) − 0.055 = 0.7354 → 187.5; sRGB(0.25)
	// = 0.5371 → 137.0; sRGB(1) = 255. Outside the quad: the clear colour.
	img := drawQuads(t, []float32{0}, []Material{{BaseColor: [4]float32{0.5, 0.25, 1, 1}, Texture: NoTexture}}, nil, nil)
	checkPixels(t, img, 1, map[image.Point]color.NRGBA{
		{32, 32}: {188, 137, 255, 255}, {20, 44}: {188, 137, 255, 255}, {4, 4}: {0, 0, 0, 255},
	})
}

// fourTexels is red, green / blue, white; the quad's quarters show them
// where its UVs are untransformed.
func fourTexels() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	img.SetNRGBA(1, 0, color.NRGBA{0, 255, 0, 255})
	img.SetNRGBA(0, 1, color.NRGBA{0, 0, 255, 255})
	img.SetNRGBA(1, 1, color.NRGBA{255, 255, 255, 255})
	return img
}

var nearestClamp = Sampler{MagFilter: 9728, MinFilter: 9728, WrapS: 33071, WrapT: 33071}

func TestTextureTransformAndSampler(t *testing.T) {
	white := [4]float32{1, 1, 1, 1}
	red, green, blue, wht := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 255, 0, 255}, color.NRGBA{0, 0, 255, 255}, color.NRGBA{255, 255, 255, 255}
	// Untransformed, the quarters (the quad spans pixels 16 to 48).
	img := drawQuads(t, []float32{0}, []Material{{BaseColor: white, Texture: 0}}, []*image.NRGBA{fourTexels()}, []Sampler{nearestClamp})
	checkPixels(t, img, 0, map[image.Point]color.NRGBA{{20, 20}: red, {44, 20}: green, {20, 44}: blue, {44, 44}: wht})
	// Offset (0.5, 0) and scale (0.5, 1): u' = 0.5·u + 0.5, the right
	// column only, green above white.
	uv := [9]float32{0.5, 0, 0, 0, 1, 0, 0.5, 0, 1}
	img = drawQuads(t, []float32{0}, []Material{{BaseColor: white, Texture: 0, UV: uv}}, []*image.NRGBA{fourTexels()}, []Sampler{nearestClamp})
	checkPixels(t, img, 0, map[image.Point]color.NRGBA{{20, 20}: green, {44, 20}: green, {20, 44}: wht, {44, 44}: wht})
	// Scale 2 with CLAMP_TO_EDGE: u' = 2u, past 1 the last column; with
	// REPEAT the quad's right half starts the texture again.
	uv = [9]float32{2, 0, 0, 0, 1, 0, 0, 0, 1}
	img = drawQuads(t, []float32{0}, []Material{{BaseColor: white, Texture: 0, UV: uv}}, []*image.NRGBA{fourTexels()}, []Sampler{nearestClamp})
	checkPixels(t, img, 0, map[image.Point]color.NRGBA{{18, 20}: red, {28, 20}: green, {44, 20}: green, {44, 44}: wht})
	repeat := Sampler{MagFilter: 9728, MinFilter: 9728}
	img = drawQuads(t, []float32{0}, []Material{{BaseColor: white, Texture: 0, UV: uv}}, []*image.NRGBA{fourTexels()}, []Sampler{repeat})
	checkPixels(t, img, 0, map[image.Point]color.NRGBA{{18, 20}: red, {28, 20}: green, {36, 20}: red, {44, 20}: green})
}

// A texture on TEXCOORD_1 reads the second set: here the first mirrored
// left to right, so the quarters swap sides.
func TestSecondCoordinateSet(t *testing.T) {
	got := drawScene(t, debugview.BaseColor, func(r *Renderer) ([]DrawItem, error) {
		tex := r.AddTexture(fourTexels(), nearestClamp, true)
		d := quad(0)
		d.UV1 = []float32{1, 0, 1, 1, 0, 0, 0, 1}
		id, err := r.AddMesh(d)
		mat := Material{BaseColor: [4]float32{1, 1, 1, 1}, Texture: tex, Set: 1}
		return []DrawItem{{Mesh: id, Material: mat, Palette: identityRows, WeightJoint: -1}}, err
	})
	checkPixels(t, got, 0, map[image.Point]color.NRGBA{
		{20, 20}: {0, 255, 0, 255}, {44, 20}: {255, 0, 0, 255}, {20, 44}: {255, 255, 255, 255}, {44, 44}: {0, 0, 255, 255}})
}

func TestAlphaModes(t *testing.T) {
	// A texture opaque on its left half, clear on its right.
	half := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	half.SetNRGBA(0, 0, color.NRGBA{255, 255, 255, 255})
	half.SetNRGBA(1, 0, color.NRGBA{255, 255, 255, 0})
	white := [4]float32{1, 1, 1, 1}
	bg, wht := color.NRGBA{0, 0, 0, 255}, color.NRGBA{255, 255, 255, 255}
	// OPAQUE ignores alpha; MASK cuts where it is below the cutoff.
	img := drawQuads(t, []float32{0}, []Material{{BaseColor: white, Texture: 0, Alpha: Opaque}}, []*image.NRGBA{half}, []Sampler{nearestClamp})
	checkPixels(t, img, 0, map[image.Point]color.NRGBA{{20, 32}: wht, {44, 32}: wht})
	img = drawQuads(t, []float32{0}, []Material{{BaseColor: white, Texture: 0, Alpha: Mask, AlphaCutoff: 0.5}}, []*image.NRGBA{half}, []Sampler{nearestClamp})
	checkPixels(t, img, 0, map[image.Point]color.NRGBA{{20, 32}: wht, {44, 32}: bg})
	// BLEND, two panes of alpha 0.5 given nearest first: drawn farthest
	// first, blue over black is (0, 0, 127.5), then red over that is
	// (127.5, 0, 63.75). The other order would give (63.75, 0, 127.5):
	// neither pane writes depth. Read-back stays opaque.
	panes := []Material{
		{BaseColor: [4]float32{1, 0, 0, 0.5}, Texture: NoTexture, Alpha: Blend},
		{BaseColor: [4]float32{0, 0, 1, 0.5}, Texture: NoTexture, Alpha: Blend},
	}
	img = drawQuads(t, []float32{0.5, -0.5}, panes, nil, nil)
	checkPixels(t, img, 2, map[image.Point]color.NRGBA{{32, 32}: {128, 0, 64, 255}, {2, 2}: bg})
	// An opaque quad in front hides blended panes behind it.
	opaque := Material{BaseColor: [4]float32{0, 1, 0, 1}, Texture: NoTexture}
	img = drawQuads(t, []float32{-0.5, 0.5}, []Material{panes[0], opaque}, nil, nil)
	checkPixels(t, img, 0, map[image.Point]color.NRGBA{{32, 32}: {0, 255, 0, 255}})
}
