package main

import (
	"image"
	"image/color"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// edgeMaterialMaps: one quad, turning a little, with every input of
// glTF's metallic-roughness model: a checked base colour texture repeated
// twice by KHR_texture_transform, metalness rising left to right and
// roughness top to bottom (on TEXCOORD_1, which runs the other way round),
// a normal map of four bumps, an occlusion ring and an emissive square.
// Each debug view (-view) shows one of them; -lighting three and the
// reference renderer light them together.
func edgeMaterialMaps() ([]byte, error) {
	e := newEdgeDoc()
	e.doc.ExtensionsUsed = []string{"KHR_texture_transform"}
	quad := e.pane(-1, -1, 1, 1, 0)
	// TEXCOORD_1: the first set mirrored left to right.
	quad.Attributes["TEXCOORD_1"] = e.b.accessor(float32s([]float32{1, 0, 1, 1, 0, 0, 0, 1}), targetArrayBuffer, compFloat, 4, "VEC2", nil, nil)
	maps := []*image.NRGBA{checkerTexture(), metalRoughTexture(), bumpsTexture(), ringTexture(), squareTexture()}
	e.doc.Samplers = []gltfSampler{{MagFilter: filterLinear, MinFilter: filterLinear, WrapS: wrapRepeat, WrapT: wrapRepeat}}
	for i, img := range maps {
		png, err := encodePNG(img)
		if err != nil {
			return nil, err
		}
		e.doc.Images = append(e.doc.Images, gltfImage{Name: []string{"Checker", "MetalRough", "Bumps", "Ring", "Square"}[i], BufferView: e.b.view(png, 0), MimeType: "image/png"})
		e.doc.Textures = append(e.doc.Textures, gltfTexture{Sampler: 0, Source: i})
	}
	half, strength := 0.8, 0.9
	m := gltfMaterial{Name: "Maps", DoubleSided: true,
		PBR: gltfPBR{BaseColorFactor: [4]float64{1, 1, 1, 1}, MetallicFactor: 1, RoughnessFactor: 1,
			BaseColorTexture:         &gltfTextureInfo{Index: 0, Extensions: &gltfTextureInfoExt{Transform: &gltfTextureTransform{Scale: [2]float64{2, 2}}}},
			MetallicRoughnessTexture: &gltfTextureInfo{Index: 1, TexCoord: 1}},
		NormalTexture:    &gltfTextureInfo{Index: 2, Scale: &half},
		OcclusionTexture: &gltfTextureInfo{Index: 3, Strength: &strength},
		EmissiveTexture:  &gltfTextureInfo{Index: 4},
		EmissiveFactor:   &[3]float64{1, 0.5, 0.2},
	}
	e.doc.Materials = append(e.doc.Materials, m)
	mesh := e.mesh("Quad", len(e.doc.Materials)-1, quad)
	n := e.node(gltfNode{Name: "Quad", Mesh: intPtr(mesh)})
	e.scene(n)
	e.animation("Turn", edgeChannel{n, "rotation", "LINEAR", []float64{0, 1, 2}, rotationKeys(mgl64.Vec3{0, 1, 0}, -25, 25, -25)})
	return e.encode()
}

const mapSize = 32

func mapTexture(f func(u, v float64) color.NRGBA) *image.NRGBA {
	return paintTexture(mapSize, func(x, y int) color.NRGBA {
		return f((float64(x)+0.5)/mapSize, (float64(y)+0.5)/mapSize)
	})
}

// checkerTexture is 4×4 cells of warm white and teal.
func checkerTexture() *image.NRGBA {
	return mapTexture(func(u, v float64) color.NRGBA {
		if (int(u*4)+int(v*4))%2 == 0 {
			return color.NRGBA{240, 228, 210, 255}
		}
		return color.NRGBA{40, 150, 160, 255}
	})
}

// metalRoughTexture: roughness (G) from 0.1 at the top to 0.9 at the
// bottom, metalness (B) from 0 at the left to 1 at the right.
func metalRoughTexture() *image.NRGBA {
	return mapTexture(func(u, v float64) color.NRGBA {
		return color.NRGBA{0, uint8(math.Round(255 * (0.1 + 0.8*v))), uint8(math.Round(255 * u)), 255}
	})
}

// bumpsTexture is a tangent-space normal map of four round bumps.
func bumpsTexture() *image.NRGBA {
	return mapTexture(func(u, v float64) color.NRGBA {
		du, dv := math.Mod(u*2, 1)-0.5, math.Mod(v*2, 1)-0.5
		nx, ny := 0.0, 0.0
		if r := math.Hypot(du, dv); r < 0.4 {
			s := math.Sin(r / 0.4 * math.Pi) // the slope, zero at the top and the rim
			nx, ny = s*du/math.Max(r, 1e-9)*0.7, -s*dv/math.Max(r, 1e-9)*0.7
		}
		nz := math.Sqrt(1 - nx*nx - ny*ny)
		enc := func(c float64) uint8 { return uint8(math.Round(255 * (c*0.5 + 0.5))) }
		return color.NRGBA{enc(nx), enc(ny), enc(nz), 255}
	})
}

// ringTexture is occlusion (R) dark on a ring about the middle.
func ringTexture() *image.NRGBA {
	return mapTexture(func(u, v float64) color.NRGBA {
		r := math.Hypot(u-0.5, v-0.5)
		ao := 1 - 0.8*math.Exp(-math.Pow((r-0.3)/0.06, 2))
		g := uint8(math.Round(255 * ao))
		return color.NRGBA{g, g, g, 255}
	})
}

// squareTexture is emissive in a square at the top right, black elsewhere.
func squareTexture() *image.NRGBA {
	return mapTexture(func(u, v float64) color.NRGBA {
		if u > 0.65 && u < 0.9 && v > 0.1 && v < 0.35 {
			return color.NRGBA{255, 255, 255, 255}
		}
		return color.NRGBA{0, 0, 0, 255}
	})
}
