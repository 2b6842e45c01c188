package render

// Materials, textures and lights: what the lit shader reads besides the
// meshes and palettes.

import (
	"image"
	"sync"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
)

// Material is how a mesh is shaded.
type Material struct {
	BaseColor [4]float32 // linear RGBA
	Texture   TextureID
	// UV transforms the texture's coordinates (u, v, 1), a 3×3 matrix in
	// column-major order (KHR_texture_transform); all zeros is the
	// identity. Set is the coordinate set it reads: 0 TEXCOORD_0, 1
	// TEXCOORD_1.
	UV  [9]float32
	Set int
	// Alpha is the alpha mode; AlphaCutoff is where Mask cuts.
	Alpha       AlphaMode
	AlphaCutoff float32
	DoubleSided bool
	// The other inputs of glTF's metallic-roughness model, which the
	// debug views show: factors, and Maps (indexed by MetallicRoughnessMap
	// and the others; a zero Map samples nothing). Metallic-roughness,
	// normal and occlusion textures are linear data (AddTexture's srgb
	// false); emissive ones sRGB.
	Metallic, Roughness float32
	NormalScale         float32
	OcclusionStrength   float32
	Emissive            [3]float32 // linear
	Maps                [4]Map
	// Unlit draws the base colour as it is in the shaded view
	// (KHR_materials_unlit).
	Unlit bool
}

// Map is a material texture: the texture (ID+1, so that the zero Map is
// none) and its KHR_texture_transform, a 3×3 column-major matrix on (u, v,
// 1), all zeros for the identity.
type Map struct {
	Tex TextureID
	UV  [9]float32
	Set int // 0 TEXCOORD_0, 1 TEXCOORD_1
}

// mapUnits are the texture units of the material maps (0 is the base
// colour texture, 1 the morph displacements); dfgUnit holds the split-sum
// table.
var mapUnits = [4]int32{2, 3, 4, 5}

const dfgUnit = 6

// envUnit holds the environment's prefiltered cube map.
const envUnit = 7

// MapOf is a Map of texture id (NoTexture: none) with transform uv.
func MapOf(id TextureID, uv [9]float32) Map { return Map{Tex: id + 1, UV: uv} }

// The material maps besides the base colour texture, by Material.Maps
// index.
const (
	MetallicRoughnessMap = iota // roughness in G, metalness in B
	NormalMap                   // tangent-space normals
	OcclusionMap                // ambient occlusion in R
	EmissiveMap                 // emitted colour, sRGB
)

// AlphaMode is how a material's alpha draws (glTF 2.0 §3.9.4).
type AlphaMode uint8

const (
	// Opaque ignores alpha.
	Opaque AlphaMode = iota
	// Mask discards fragments whose alpha is below AlphaCutoff and draws
	// the rest opaque.
	Mask
	// Blend draws over what is behind, after every opaque and masked
	// draw, without writing depth.
	Blend
)

// Sampler is a texture's filters and wrap modes, with glTF's values
// (which are OpenGL's): MagFilter 9728 NEAREST or 9729 LINEAR; MinFilter
// those or 9984–9987, the mipmapped ones; WrapS and WrapT 10497 REPEAT,
// 33071 CLAMP_TO_EDGE or 33648 MIRRORED_REPEAT. A zero filter is left to
// the renderer (linear, mipmapped), a zero wrap mode is REPEAT.
type Sampler struct {
	MagFilter, MinFilter, WrapS, WrapT int
}

// MaxLights is how many punctual lights a frame lights with.
const MaxLights = 8

// Light is a punctual light in world space.
type Light struct {
	Kind LightKind
	// Position (point, spot) and Direction, the unit vector the light
	// shines along (directional, spot).
	Position, Direction mgl32.Vec3
	// Color is linear colour times intensity; Range 0 is unlimited;
	// CosOuter and CosInner bound a spot's cone.
	Color              mgl32.Vec3
	Range              float32
	CosOuter, CosInner float32
}

// LightKind is a punctual light's type.
type LightKind int32

const (
	Directional LightKind = iota
	Point
	Spot
)

// dfgData is the split-sum table, computed once per process.
var (
	dfgOnce sync.Once
	dfgData []float32
)

// uploadDFG uploads the split-sum table as a linearly filtered RG float
// texture clamped at its edges.
func uploadDFG() uint32 {
	dfgOnce.Do(func() { dfgData = dfgTable(1024) })
	data := dfgData
	var tex uint32
	gl.GenTextures(1, &tex)
	gl.BindTexture(gl.TEXTURE_2D, tex)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RG32F, dfgSize, dfgSize, 0, gl.RG, gl.FLOAT, gl.Ptr(data))
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	return tex
}

// AddTexture uploads an image with mipmaps, sampled as s says: colour
// (srgb: its texels are sRGB-encoded and read back linear) or data (read
// as stored).
func (r *Renderer) AddTexture(img *image.NRGBA, s Sampler, srgb bool) TextureID {
	r.textures = append(r.textures, uploadTexture(img, false, s, srgb))
	return TextureID(len(r.textures) - 1)
}

func uploadTexture(img *image.NRGBA, white bool, s Sampler, srgb bool) uint32 {
	var tex uint32
	gl.GenTextures(1, &tex)
	gl.BindTexture(gl.TEXTURE_2D, tex)
	b := img.Bounds()
	pix := img.Pix
	if white {
		pix = []byte{255, 255, 255, 255}
	} else if img.Stride != b.Dx()*4 || b.Min != (image.Point{}) {
		c := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		for y := 0; y < b.Dy(); y++ {
			copy(c.Pix[y*c.Stride:y*c.Stride+b.Dx()*4], img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):])
		}
		pix = c.Pix
	}
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	format := int32(gl.RGBA8)
	if srgb {
		format = gl.SRGB8_ALPHA8
	}
	gl.TexImage2D(gl.TEXTURE_2D, 0, format, int32(b.Dx()), int32(b.Dy()), 0, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(pix))
	gl.GenerateMipmap(gl.TEXTURE_2D)
	pick := func(v int, fallback int32, valid ...int) int32 {
		for _, ok := range valid {
			if v == ok {
				return int32(v)
			}
		}
		return fallback
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, pick(s.MinFilter, gl.LINEAR_MIPMAP_LINEAR,
		gl.NEAREST, gl.LINEAR, gl.NEAREST_MIPMAP_NEAREST, gl.LINEAR_MIPMAP_NEAREST, gl.NEAREST_MIPMAP_LINEAR, gl.LINEAR_MIPMAP_LINEAR))
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, pick(s.MagFilter, gl.LINEAR, gl.NEAREST, gl.LINEAR))
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, pick(s.WrapS, gl.REPEAT, gl.REPEAT, gl.CLAMP_TO_EDGE, gl.MIRRORED_REPEAT))
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, pick(s.WrapT, gl.REPEAT, gl.REPEAT, gl.CLAMP_TO_EDGE, gl.MIRRORED_REPEAT))
	return tex
}

// setLights hands the frame's punctual lights to the lit shader.
func (r *Renderer) setLights(pl *pipeline, lights []Light) {
	n := min(len(lights), MaxLights)
	u := &r.lightUniforms
	for i, g := range lights[:n] {
		u.kind[i] = int32(g.Kind)
		u.pos[i], u.dir[i], u.color[i] = g.Position, g.Direction, g.Color
		u.rng[i], u.cone[i] = g.Range, [2]float32{g.CosOuter, g.CosInner}
	}
	gl.Uniform1i(pl.uLightCount, int32(n))
	if n == 0 {
		return
	}
	gl.Uniform1iv(pl.uLightKind, int32(n), &u.kind[0])
	gl.Uniform3fv(pl.uLightPos, int32(n), &u.pos[0][0])
	gl.Uniform3fv(pl.uLightDirs, int32(n), &u.dir[0][0])
	gl.Uniform3fv(pl.uLightColor, int32(n), &u.color[0][0])
	gl.Uniform1fv(pl.uLightRange, int32(n), &u.rng[0])
	gl.Uniform2fv(pl.uLightCone, int32(n), &u.cone[0][0])
}
