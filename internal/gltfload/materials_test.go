package gltfload

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"testing"
)

// materialDoc is a triangle with TEXCOORD_0 and TEXCOORD_1 drawn with
// materials[0] of the given materials (JSON), over textures (JSON) that
// all show one grey PNG, and samplers (JSON).
func materialDoc(t *testing.T, materials, textures, samplers, used string) []byte {
	t.Helper()
	b := &docBuilder{}
	b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	b.floatAcc(t, "VEC2", []float32{0, 0, 1, 0, 0, 1})
	b.floatAcc(t, "VEC2", []float32{0, 0, 1, 0, 0, 1})
	png := dataURI("image/png", onePNG(t, color.NRGBA{128, 128, 128, 255}))
	js := b.json(fmt.Sprintf(`"scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1, "TEXCOORD_1": 2}, "material": 0}]}],
	  "materials": [%s], "textures": [%s], "samplers": [%s], "images": [{"uri": %q}], "extensionsUsed": [%s]`,
		materials, textures, samplers, png, used))
	mustJSON(t, js)
	return js
}

func TestMaterialDefaults(t *testing.T) {
	m, err := Decode(materialDoc(t, `{}`, `{"source": 0}`, `{}`, ``), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	// glTF 2.0 §5.19 and §5.22: every factor's default.
	want := Material{BaseColor: [4]float32{1, 1, 1, 1}, Metallic: 1, Roughness: 1,
		BaseColorTexture: NoTexture, MetallicRoughnessTexture: NoTexture, NormalTexture: NoTexture, NormalScale: 1,
		OcclusionTexture: NoTexture, OcclusionStrength: 1, EmissiveTexture: NoTexture, EmissiveStrength: 1, AlphaMode: AlphaOpaque, AlphaCutoff: 0.5}
	if got := m.Materials[0]; got != want {
		t.Fatalf("material\n got %+v\nwant %+v", got, want)
	}
	if m.Textures[0] != nil {
		t.Fatal("an image no material uses was decoded")
	}
	if got := m.Samplers[0]; got != (Sampler{WrapS: 10497, WrapT: 10497}) {
		t.Fatalf("a texture without a sampler: %+v, want REPEAT both ways and no filter", got)
	}
}

func TestMaterialEveryInput(t *testing.T) {
	mat := `{"name": "skin", "doubleSided": true, "alphaMode": "MASK", "alphaCutoff": 0.3,
	  "pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.25, 1, 0.75], "metallicFactor": 0.2, "roughnessFactor": 0.6,
	    "baseColorTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"offset": [0, 1], "rotation": 1.5707964, "scale": [0.5, 0.5]}}},
	    "metallicRoughnessTexture": {"index": 1, "texCoord": 1}},
	  "normalTexture": {"index": 2, "scale": 0.5},
	  "occlusionTexture": {"index": 3, "strength": 0.25, "texCoord": 1},
	  "emissiveTexture": {"index": 4, "extensions": {"KHR_texture_transform": {"texCoord": 1}}},
	  "emissiveFactor": [1, 0.5, 0],
	  "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 4}, "KHR_materials_unlit": {}}}`
	textures := `{"source": 0, "sampler": 0}, {"source": 0, "sampler": 1}, {"source": 0}, {"source": 0}, {"source": 0}`
	samplers := `{"magFilter": 9728, "minFilter": 9987, "wrapS": 33071, "wrapT": 33648}, {"wrapS": 33071}`
	m, err := Decode(materialDoc(t, mat, textures, samplers, `"KHR_texture_transform", "KHR_materials_emissive_strength", "KHR_materials_unlit"`), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	got := m.Materials[0]
	want := Material{Name: "skin", DoubleSided: true, AlphaMode: AlphaMask, AlphaCutoff: 0.3,
		BaseColor: [4]float32{0.5, 0.25, 1, 0.75}, Metallic: 0.2, Roughness: 0.6,
		BaseColorTexture:         TextureRef{Texture: 0, Offset: [2]float32{0, 1}, Rotation: 1.5707964, Scale: [2]float32{0.5, 0.5}},
		MetallicRoughnessTexture: TextureRef{Texture: 1, TexCoord: 1, Scale: [2]float32{1, 1}},
		NormalTexture:            TextureRef{Texture: 2, Scale: [2]float32{1, 1}}, NormalScale: 0.5,
		OcclusionTexture: TextureRef{Texture: 3, TexCoord: 1, Scale: [2]float32{1, 1}}, OcclusionStrength: 0.25,
		EmissiveTexture: TextureRef{Texture: 4, TexCoord: 1, Scale: [2]float32{1, 1}},
		Emissive:        [3]float32{1, 0.5, 0}, EmissiveStrength: 4,
		Unlit: true}
	if got != want {
		t.Fatalf("material\n got %+v\nwant %+v", got, want)
	}
	for i, tex := range m.Textures {
		if tex == nil {
			t.Fatalf("textures[%d], used by the material, not decoded", i)
		}
	}
	if m.Samplers[0] != (Sampler{MagFilter: 9728, MinFilter: 9987, WrapS: 33071, WrapT: 33648}) ||
		m.Samplers[1] != (Sampler{WrapS: 33071, WrapT: 10497}) || m.Samplers[2] != DefaultSampler {
		t.Fatalf("samplers %+v", m.Samplers)
	}
}

// The extension's own example (KHR_texture_transform, "Example JSON"):
// offset (0, 1), rotation π/2 and scale 0.5 use the lower left quadrant of
// the image, u in [0, 0.5] and v in [0.5, 1] (V points down). Worked by
// hand, scale then rotation (u, v) → (u·cos + v·sin, −u·sin + v·cos) then
// offset, the unit square's corners land on that quadrant's corners.
func TestUVMatrixOfTheExtensionsExample(t *testing.T) {
	m := TextureRef{Offset: [2]float32{0, 1}, Rotation: math.Pi / 2, Scale: [2]float32{0.5, 0.5}}.UVMatrix()
	for _, c := range []struct{ u, v, wu, wv float32 }{
		{0, 0, 0, 1}, {1, 0, 0, 0.5}, {0, 1, 0.5, 1}, {1, 1, 0.5, 0.5},
	} {
		u := m[0]*c.u + m[3]*c.v + m[6]
		v := m[1]*c.u + m[4]*c.v + m[7]
		if math.Abs(float64(u-c.wu)) > 1e-6 || math.Abs(float64(v-c.wv)) > 1e-6 {
			t.Errorf("(%v, %v) → (%v, %v), want (%v, %v)", c.u, c.v, u, v, c.wu, c.wv)
		}
	}
	// Without rotation the scale stands alone: (u, v) → (2u + 0.25, 4v + 0.5).
	m = TextureRef{Offset: [2]float32{0.25, 0.5}, Scale: [2]float32{2, 4}}.UVMatrix()
	if u, v := m[0]+m[3]+m[6], m[1]+m[4]+m[7]; u != 2.25 || v != 4.5 {
		t.Errorf("scale (2, 4), offset (0.25, 0.5): (1, 1) → (%v, %v), want (2.25, 4.5)", u, v)
	}
	if id := NoTexture.UVMatrix(); id != [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 1} {
		t.Errorf("no transform: %v, want the identity", id)
	}
}

// TEXCOORD_1 is read and drawn; a texture on a later set is drawn with
// TEXCOORD_0, and the report says so.
func TestSecondCoordinateSetAndLater(t *testing.T) {
	m, err := Decode(materialDoc(t, `{"emissiveTexture": {"index": 0, "texCoord": 1}, "occlusionTexture": {"index": 0, "texCoord": 2}}`, `{"source": 0}`, `{}`, ``), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	p := m.Meshes[0].Primitives[0]
	if want := []float32{0, 0, 1, 0, 0, 1}; !slices.Equal(p.UV1, want) {
		t.Fatalf("UV1 %v, want %v", p.UV1, want)
	}
	mat := m.Materials[0]
	if mat.EmissiveTexture.TexCoord != 1 || mat.OcclusionTexture.TexCoord != 0 {
		t.Fatalf("emissive on set %d, occlusion on %d; want 1 and 0", mat.EmissiveTexture.TexCoord, mat.OcclusionTexture.TexCoord)
	}
	if !issueAt(m, "VIEWER_NOT_DRAWN", "/materials/0/occlusionTexture") {
		t.Fatalf("no line on the occlusion texture's TEXCOORD_2: %q", m.Report.Lines(Hint, 0))
	}
}

// TANGENT is kept beside NORMAL (xyzw per vertex); without NORMAL glTF
// says to ignore it.
func TestTangents(t *testing.T) {
	b := &docBuilder{}
	b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	b.floatAcc(t, "VEC3", []float32{0, 0, 1, 0, 0, 1, 0, 0, 1})
	b.floatAcc(t, "VEC4", []float32{1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, -1})
	js := b.json(`"scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TANGENT": 2}}, {"attributes": {"POSITION": 0, "TANGENT": 2}}]}]`)
	m, err := Decode(js, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	ps := m.Meshes[0].Primitives
	if want := []float32{1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, -1}; !slices.Equal(ps[0].Tangents, want) {
		t.Errorf("tangents %v, want %v", ps[0].Tangents, want)
	}
	if ps[1].Tangents != nil {
		t.Errorf("a primitive without NORMAL kept its tangents %v", ps[1].Tangents)
	}
}

// TestEmissiveStrengthZero: KHR_materials_emissive_strength's least
// value, 0, is kept (it turns the emission off); absent, the strength is 1.
func TestEmissiveStrengthZero(t *testing.T) {
	for _, tc := range []struct {
		ext  string
		want float32
	}{
		{`{"KHR_materials_emissive_strength": {"emissiveStrength": 0}}`, 0},
		{`{}`, 1},
	} {
		d := skinnedDoc(t)
		d.raw(t, "materials/0/extensions", tc.ext)
		d.raw(t, "extensionsUsed", `["KHR_materials_emissive_strength"]`)
		m, err := Decode(d.bytes(t), nil, "t.gltf")
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Materials) != 1 || m.Materials[0].EmissiveStrength != tc.want {
			t.Errorf("%s: materials %+v; want one of emissive strength %g", tc.ext, m.Materials, tc.want)
		}
	}
}
