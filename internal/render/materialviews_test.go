package render

import (
	"image"
	"image/color"
	"testing"

	"github.com/skinview/skinview/internal/debugview"
)

// The material views, on the quad of drawQuads (facing +Z, u to the right,
// v down): each expected byte worked out by hand from glTF's definitions.

// texel is a 1×1 image.
func texel(c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	img.SetNRGBA(0, 0, c)
	return img
}

// viewQuad draws mat on the quad in view, its maps' textures uploaded from
// imgs (colour ones, the emissive, as sRGB), and returns the middle pixel.
func viewQuad(t *testing.T, view debugview.Mode, mat Material, imgs map[int]*image.NRGBA) color.NRGBA {
	t.Helper()
	img := drawScene(t, view, func(r *Renderer) ([]DrawItem, error) {
		for k, img := range imgs {
			id := r.AddTexture(img, Sampler{MagFilter: 9728, MinFilter: 9728}, k == EmissiveMap)
			mat.Maps[k] = MapOf(id, [9]float32{})
		}
		id, err := r.AddMesh(quad(0))
		return []DrawItem{{Mesh: id, Material: mat, Palette: identityRows, WeightJoint: -1}}, err
	})
	return img.NRGBAAt(32, 32)
}

func TestMaterialViews(t *testing.T) {
	plain := Material{BaseColor: [4]float32{1, 1, 1, 1}, Texture: NoTexture, Metallic: 1, Roughness: 0.5, NormalScale: 1, OcclusionStrength: 1}
	with := func(f func(*Material)) Material { m := plain; f(&m); return m }
	for _, c := range []struct {
		name string
		view debugview.Mode
		mat  Material
		imgs map[int]*image.NRGBA
		want color.NRGBA
		tol  uint8
	}{
		// No normal map: the quad's normal +Z, (0, 0, 1)/2 + 0.5.
		{"normal", debugview.Normal, plain, nil, color.NRGBA{128, 128, 255, 255}, 1},
		// A texel (218, 128, 218) is (0.7098, 0.0039, 0.7098) in tangent
		// space, tangent +X (u), bitangent n × t = +Y, so the normal is
		// (0.7071, 0.0039, 0.7071): encoded 218, 128, 218.
		{"normal map along u", debugview.Normal, plain, map[int]*image.NRGBA{NormalMap: texel(color.NRGBA{218, 128, 218, 255})}, color.NRGBA{218, 128, 218, 255}, 2},
		// (128, 218, 218) leans towards +Y: the bitangent points up the
		// image, against v.
		{"normal map along the bitangent", debugview.Normal, plain, map[int]*image.NRGBA{NormalMap: texel(color.NRGBA{128, 218, 218, 255})}, color.NRGBA{128, 218, 218, 255}, 2},
		// Scale 0.5 halves x and y before normalizing: (0.3549, 0.0020,
		// 0.7098)/0.7937 = (0.4472, 0.0025, 0.8943): 185, 128, 242.
		{"normal scale", debugview.Normal, with(func(m *Material) { m.NormalScale = 0.5 }), map[int]*image.NRGBA{NormalMap: texel(color.NRGBA{218, 128, 218, 255})}, color.NRGBA{185, 128, 242, 255}, 2},
		// Metalness is B: 1 × 50/255; roughness G: 0.5 × 200/255 = 0.392.
		{"metallic", debugview.Metallic, plain, map[int]*image.NRGBA{MetallicRoughnessMap: texel(color.NRGBA{0, 200, 50, 255})}, color.NRGBA{50, 50, 50, 255}, 1},
		{"roughness", debugview.Roughness, plain, map[int]*image.NRGBA{MetallicRoughnessMap: texel(color.NRGBA{0, 200, 50, 255})}, color.NRGBA{100, 100, 100, 255}, 1},
		{"roughness factor alone", debugview.Roughness, plain, nil, color.NRGBA{128, 128, 128, 255}, 1},
		// 1 + 0.5·(64/255 − 1) = 0.6255.
		{"occlusion", debugview.Occlusion, with(func(m *Material) { m.OcclusionStrength = 0.5 }), map[int]*image.NRGBA{OcclusionMap: texel(color.NRGBA{64, 255, 255, 255})}, color.NRGBA{160, 160, 160, 255}, 1},
		// Factor (1, 0.5, 0) × white: sRGB(0.5) = 187.5.
		{"emissive", debugview.Emissive, with(func(m *Material) { m.Emissive = [3]float32{1, 0.5, 0} }), map[int]*image.NRGBA{EmissiveMap: texel(color.NRGBA{255, 255, 255, 255})}, color.NRGBA{255, 188, 0, 255}, 1},
		{"alpha blended", debugview.Alpha, with(func(m *Material) { m.BaseColor[3], m.Alpha = 0.5, Blend }), nil, color.NRGBA{128, 128, 128, 255}, 1},
		{"alpha of an opaque material", debugview.Alpha, with(func(m *Material) { m.BaseColor[3] = 0.5 }), nil, color.NRGBA{255, 255, 255, 255}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := viewQuad(t, c.view, c.mat, c.imgs); !near(got, c.want, int(c.tol)) {
				t.Errorf("%v, want %v (±%d)", got, c.want, c.tol)
			}
		})
	}
}

// An unlit material (KHR_materials_unlit) shows its base colour in the
// shaded view, whatever the lighting: sRGB(0.5) = 187.5.
func TestUnlitShowsTheBaseColour(t *testing.T) {
	mat := Material{BaseColor: [4]float32{0.5, 0.5, 0.5, 1}, Texture: NoTexture, Unlit: true}
	for _, lighting := range []Lighting{OwnLighting, ReferenceStage} {
		img := drawScene(t, debugview.Shaded, func(r *Renderer) ([]DrawItem, error) {
			id, err := r.AddMesh(quad(0))
			return []DrawItem{{Mesh: id, Material: mat, Palette: identityRows, WeightJoint: -1}}, err
		}, lighting)
		if got := img.NRGBAAt(32, 32); !near(got, color.NRGBA{188, 188, 188, 255}, 1) {
			t.Errorf("lighting %d: %v, want 188 grey", lighting, got)
		}
	}
}

// With TANGENT the normal map's frame is the vertex tangent's: here +Y,
// so the bitangent n × t is −X (w = 1) or +X (w = −1). A texel leaning
// along the bitangent, (128, 218, 218) = (0.004, 0.7098, 0.7098), comes
// out (∓0.7071, 0.004·…, 0.7071): encoded 37 or 218, 128, 218; one leaning
// along the tangent, (218, 128, 218), leans +Y: 127, 218, 218.
func TestNormalMapWithTangents(t *testing.T) {
	for _, c := range []struct {
		w     float32
		texel color.NRGBA
		want  color.NRGBA
	}{
		{1, color.NRGBA{128, 218, 218, 255}, color.NRGBA{37, 128, 218, 255}},
		{-1, color.NRGBA{128, 218, 218, 255}, color.NRGBA{218, 128, 218, 255}},
		{1, color.NRGBA{218, 128, 218, 255}, color.NRGBA{127, 218, 218, 255}},
	} {
		img := drawScene(t, debugview.Normal, func(r *Renderer) ([]DrawItem, error) {
			id := r.AddTexture(texel(c.texel), Sampler{MagFilter: 9728, MinFilter: 9728}, false)
			d := quad(0)
			for range 4 {
				d.Tangents = append(d.Tangents, 0, 1, 0, c.w)
			}
			mesh, err := r.AddMesh(d)
			mat := Material{BaseColor: [4]float32{1, 1, 1, 1}, Texture: NoTexture, NormalScale: 1}
			mat.Maps[NormalMap] = MapOf(id, [9]float32{})
			return []DrawItem{{Mesh: mesh, Material: mat, Palette: identityRows, WeightJoint: -1}}, err
		})
		if got := img.NRGBAAt(32, 32); !near(got, c.want, 2) {
			t.Errorf("tangent +Y, w %v, texel %v: %v, want %v", c.w, c.texel, got, c.want)
		}
	}
}

// A primitive without NORMAL is drawn with each posed triangle's own
// normal, whatever its normal array holds: the quad faces +Z though its
// normals say +X, so the normal view reads (0, 0, 1) → 128, 128, 255.
func TestFlatNormalsArePosedFaces(t *testing.T) {
	img := drawScene(t, debugview.Normal, func(r *Renderer) ([]DrawItem, error) {
		d := quad(0)
		d.Normals = []float32{1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0}
		d.FlatNormals = true
		id, err := r.AddMesh(d)
		return []DrawItem{{Mesh: id, Material: Material{BaseColor: [4]float32{1, 1, 1, 1}, Texture: NoTexture}, Palette: identityRows, WeightJoint: -1}}, err
	})
	if got := img.NRGBAAt(32, 32); !near(got, color.NRGBA{128, 128, 255, 255}, 1) {
		t.Errorf("%v, want 128, 128, 255", got)
	}
}

// The back of a double-sided surface is lit with its whole tangent frame
// reversed, tangent and bitangent as well as the normal (glTF 2.0 §3.9.3:
// back faces' normals are reversed; glTF-Sample-Viewer and three.js turn
// the normal map's frame with them), so that a bump the normal map draws
// on the front is a dent seen from behind, as a thin shell's would be.
// Here the quad faces −Z (its winding and normals turned) and is seen
// from +Z: the front frame is t = +X, b = n × t · w = (−Z) × (+X) = −Y,
// n = −Z, reversed (−X, +Y, +Z). A texel leaning along the tangent,
// (218, 128, 218) = (0.7098, 0.0039, 0.7098), comes out (−0.7071,
// 0.0039, 0.7071): encoded 37, 128, 218; one leaning along the
// bitangent, (128, 218, 218), leans +Y: 128, 218, 218. Without TANGENT
// the frame from the derivatives is MikkTSpace's: t = +X (u grows along
// +X) but, seen from the front (−Z), the coordinates are mirrored (w =
// −1: b = +Y, against v), so reversed the bitangent is −Y: 128, 37, 218.
func TestNormalMapOnBackFaces(t *testing.T) {
	for _, c := range []struct {
		name     string
		tangents bool
		texel    color.NRGBA
		want     color.NRGBA
	}{
		{"vertex tangents, along the tangent", true, color.NRGBA{218, 128, 218, 255}, color.NRGBA{37, 128, 218, 255}},
		{"vertex tangents, along the bitangent", true, color.NRGBA{128, 218, 218, 255}, color.NRGBA{128, 218, 218, 255}},
		{"derivative frame, along the tangent", false, color.NRGBA{218, 128, 218, 255}, color.NRGBA{37, 128, 218, 255}},
		{"derivative frame, along the bitangent", false, color.NRGBA{128, 218, 218, 255}, color.NRGBA{128, 37, 218, 255}},
	} {
		t.Run(c.name, func(t *testing.T) {
			img := drawScene(t, debugview.Normal, func(r *Renderer) ([]DrawItem, error) {
				id := r.AddTexture(texel(c.texel), Sampler{MagFilter: 9728, MinFilter: 9728}, false)
				d := quad(0)
				d.Indices = []uint32{0, 2, 1, 2, 3, 1}
				d.Normals = []float32{0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, -1}
				if c.tangents {
					for range 4 {
						d.Tangents = append(d.Tangents, 1, 0, 0, 1)
					}
				}
				mesh, err := r.AddMesh(d)
				mat := Material{BaseColor: [4]float32{1, 1, 1, 1}, Texture: NoTexture, NormalScale: 1, DoubleSided: true}
				mat.Maps[NormalMap] = MapOf(id, [9]float32{})
				return []DrawItem{{Mesh: mesh, Material: mat, Palette: identityRows, WeightJoint: -1}}, err
			})
			if got := img.NRGBAAt(32, 32); !near(got, c.want, 2) {
				t.Errorf("%v, want %v", got, c.want)
			}
		})
	}
}

// A mirroring palette (negative determinant) mirrors the tangent frame:
// the bitangent is the mirror image of the bind pose's n × t · w, which
// is −(n′ × t′) · w in terms of the mirrored normal and tangent, so the
// sign w flips with the determinant. The quad mirrored in x (palette
// x → −x, drawn Mirrored) still faces +Z; its tangent +X becomes −X and
// its bitangent (+Z) × (+X) = +Y stays +Y (mirroredFrameLeans).
func TestNormalMapUnderAMirroringPalette(t *testing.T) {
	mirror := []float32{-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}
	mirroredFrameLeans(t, func(d *MeshData, it *DrawItem) {
		for range 4 {
			d.Tangents = append(d.Tangents, 1, 0, 0, 1)
		}
		it.Palette, it.Mirrored = mirror, true
	})
}

// Without TANGENT the frame from the derivatives keeps MikkTSpace's
// handedness (glTF asks for MikkTSpace tangents where a file has none):
// on a quad whose u runs right to left (a mirrored half of a symmetric
// character's UVs), the tangent is −X and the bitangent still points
// against v, up the image, +Y (mirroredFrameLeans).
func TestNormalMapDerivativeFrameOnMirroredUVs(t *testing.T) {
	mirroredFrameLeans(t, func(d *MeshData, it *DrawItem) {
		d.UV = []float32{1, 0, 1, 1, 0, 0, 0, 1}
		it.Palette = identityRows
	})
}

// mirroredFrameLeans draws a quad facing +Z, as edit changes its data and
// draw, whose tangent frame is mirrored to tangent −X, bitangent +Y, with
// a one-texel normal map: a texel leaning along the bitangent, (128, 218,
// 218), must lean +Y, 128, 218, 218 in the normal view; one leaning along
// the tangent, (218, 128, 218), −X: 37, 128, 218.
func mirroredFrameLeans(t *testing.T, edit func(d *MeshData, it *DrawItem)) {
	t.Helper()
	for _, c := range []struct {
		texel, want color.NRGBA
	}{
		{color.NRGBA{128, 218, 218, 255}, color.NRGBA{128, 218, 218, 255}},
		{color.NRGBA{218, 128, 218, 255}, color.NRGBA{37, 128, 218, 255}},
	} {
		img := drawScene(t, debugview.Normal, func(r *Renderer) ([]DrawItem, error) {
			id := r.AddTexture(texel(c.texel), Sampler{MagFilter: 9728, MinFilter: 9728}, false)
			d := quad(0)
			mat := Material{BaseColor: [4]float32{1, 1, 1, 1}, Texture: NoTexture, NormalScale: 1}
			mat.Maps[NormalMap] = MapOf(id, [9]float32{})
			it := DrawItem{Material: mat, WeightJoint: -1}
			edit(&d, &it)
			mesh, err := r.AddMesh(d)
			it.Mesh = mesh
			return []DrawItem{it}, err
		})
		if got := img.NRGBAAt(32, 32); !near(got, c.want, 2) {
			t.Errorf("texel %v: %v, want %v", c.texel, got, c.want)
		}
	}
}
