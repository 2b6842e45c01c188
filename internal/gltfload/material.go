package gltfload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/jpeg" // glTF images are PNG or JPEG, and WebP with EXT_texture_webp
	_ "image/png"
	"slices"
	"strconv"
	"strings"

	_ "golang.org/x/image/webp"
)

// The texture extensions whose images a texture may name instead of its
// source.
const (
	extWebP   = "EXT_texture_webp"
	extBasisu = "KHR_texture_basisu"
)

const (
	// maxTexturePixels refuses images whose header claims more pixels
	// than a character texture plausibly has, before decoding allocates
	// them; totalTexturePixels caps all decoded images together.
	maxTexturePixels   = 8192 * 8192
	totalTexturePixels = 8192 * 8192
	// maxPixelsPerByte: an image header claiming more pixels than its
	// encoded size can plausibly carry (a flat 8-bit PNG compresses about
	// 1000:1) is not decoded, so a tiny file cannot claim a huge canvas.
	maxPixelsPerByte  = 2048
	freePixels        = 1 << 20
	maxJPEGScanPixels = 1 << 30
	// maxImageBytes caps an external image file.
	maxImageBytes = 256 << 20
)

type imageResult struct {
	img *image.NRGBA
	err error
}

// loadTextures checks every texture; images are decoded later, and only
// for textures a material draws with.
func (l *loader) loadTextures() error {
	for ti, t := range l.doc.Textures {
		where := fmt.Sprintf("textures[%d]", ti)
		if t == nil {
			return fmt.Errorf("%s: null", where)
		}
		if t.Source != nil {
			if si := *t.Source; si < 0 || si >= len(l.doc.Images) || l.doc.Images[si] == nil {
				return fmt.Errorf("%s.source: images[%d] does not exist (%d images)", where, si, len(l.doc.Images))
			}
		}
		if t.Sampler != nil && (*t.Sampler < 0 || *t.Sampler >= len(l.doc.Samplers)) {
			return fmt.Errorf("%s.sampler: samplers[%d] does not exist (%d samplers)", where, *t.Sampler, len(l.doc.Samplers))
		}
	}
	l.model.Textures = make([]*image.NRGBA, len(l.doc.Textures))
	return nil
}

// decodeTextures decodes the images of the textures materials use, each image
// once however many textures share it. A texture's image is its
// EXT_texture_webp source when the file uses that extension, else its
// source; KTX2 images (KHR_texture_basisu) are not decoded here, so such a
// texture draws its PNG or JPEG fallback source, or none: those are named
// together in one report line and their materials drawn from their
// factors.
func (l *loader) decodeTextures() error {
	used := make([]bool, len(l.doc.Textures))
	for _, m := range l.model.Materials {
		for _, r := range []TextureRef{m.BaseColorTexture, m.MetallicRoughnessTexture, m.NormalTexture, m.OcclusionTexture, m.EmissiveTexture} {
			if r.Texture >= 0 {
				used[r.Texture] = true
			}
		}
	}
	l.pixelBudget = totalTexturePixels
	var ktx2Only []string
	for ti, t := range l.doc.Textures {
		if !used[ti] {
			continue
		}
		webp := l.extensionSource(ti, extWebP)
		if webp >= 0 {
			then := "drawn untextured"
			if t.Source != nil {
				then = fmt.Sprintf("textures[%d] draws its fallback images[%d]", ti, *t.Source)
			}
			if img, ok := l.decodeImage(webp, then); ok {
				l.model.Textures[ti] = img
				continue
			}
		}
		if t.Source == nil {
			if webp < 0 && l.extensionSource(ti, extBasisu) >= 0 {
				ktx2Only = append(ktx2Only, strconv.Itoa(ti))
			} else if webp < 0 {
				l.issue("VIEWER_NOT_DRAWN", fmt.Sprintf("textures[%d]", ti), "no source image supported here; drawn untextured")
			}
			continue
		}
		l.model.Textures[ti], _ = l.decodeImage(*t.Source, "drawn untextured")
	}
	if len(ktx2Only) > 0 {
		what := "textures " + strings.Join(ktx2Only, ", ") + " have"
		if len(ktx2Only) == 1 {
			what = "texture " + ktx2Only[0] + " has"
		}
		l.issue("VIEWER_NOT_DRAWN", "textures", "%s only a KTX2 image (KHR_texture_basisu), which is not decoded here; drawn from the material's factors", what)
	}
	return nil
}

// decodeImage decodes image si once however many textures share it,
// reporting an image that cannot be read (then ok is false) with what the
// viewer does instead.
func (l *loader) decodeImage(si int, then string) (img *image.NRGBA, ok bool) {
	if l.images == nil {
		l.images = map[int]imageResult{}
	}
	r, done := l.images[si]
	if !done {
		img, err := l.readImage(si, &l.pixelBudget)
		r = imageResult{img, err}
		l.images[si] = r
		if err != nil {
			l.issue(imageCode(err), fmt.Sprintf("images[%d]", si), "%v; %s", err, then)
		}
	}
	return r.img, r.err == nil
}

// extensionSource is the source of texture ti's extension ext (one of
// extWebP, extBasisu) when the file lists ext in extensionsUsed and the
// source names an image, else -1.
func (l *loader) extensionSource(ti int, ext string) int {
	if !slices.Contains(l.doc.ExtensionsUsed, ext) {
		return -1
	}
	exts, _ := l.rawObject("textures", ti)["extensions"].(map[string]any)
	e, _ := exts[ext].(map[string]any)
	n, ok := e["source"].(json.Number)
	if !ok {
		return -1
	}
	v, err := n.Int64()
	if err != nil || v < 0 || v >= int64(len(l.doc.Images)) || l.doc.Images[v] == nil {
		return -1
	}
	return int(v)
}

// readImage decodes image i, charging its pixels to budget. Its errors
// carry their issue codes (see imageCode).
func (l *loader) readImage(i int, budget *int64) (*image.NRGBA, error) {
	im := l.doc.Images[i]
	where := fmt.Sprintf("images[%d]", i)
	var data []byte
	var err error
	declared := im.MimeType
	switch {
	case im.BufferView != nil:
		if im.URI != "" {
			l.issue("ONE_OF_MISMATCH", where, "has both uri and bufferView; the bufferView is used")
		}
		if data, _, err = l.viewBytes(*im.BufferView); err != nil {
			return nil, err
		}
	case im.URI != "":
		if data, err = l.resolveURI(where, im.URI, maxImageBytes); err != nil {
			return nil, err
		}
		if strings.HasPrefix(im.URI, "data:") {
			mt, err := dataURIType(im.URI)
			if err != nil {
				return nil, withCode("INVALID_URI", err)
			}
			if got := imageType(data); mt != "" && got != "" && mt != got {
				l.issue("INVALID_URI", where+".uri", "the data URI declares %s but holds %s", mt, got)
			}
		}
	default:
		return nil, withCode("ONE_OF_MISMATCH", errors.New("neither uri nor bufferView"))
	}
	if got := imageType(data); declared != "" && got != "" && declared != got {
		l.issue("IMAGE_MIME_TYPE_INVALID", where+".mimeType", "%s declared, the data is %s", declared, got)
	}
	if imageType(data) == "image/ktx2" {
		return nil, withCode("VIEWER_NOT_DRAWN", errors.New("a KTX2 image (KHR_texture_basisu) is not decoded here"))
	}
	if err := jpegMarkers(data); err != nil {
		return nil, err
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, withCode(decodeCode(err), fmt.Errorf("cannot decode: %v", err))
	}
	px := int64(cfg.Width) * int64(cfg.Height)
	if cfg.Width <= 0 || cfg.Height <= 0 || px > maxTexturePixels {
		return nil, withCode("VIEWER_NOT_DRAWN", fmt.Errorf("%dx%d pixels is outside the supported size (at most %d pixels)", cfg.Width, cfg.Height, maxTexturePixels))
	}
	if px > freePixels && px > maxPixelsPerByte*int64(len(data)) {
		return nil, fmt.Errorf("%dx%d pixels from %d bytes of image data is not plausible", cfg.Width, cfg.Height, len(data))
	}
	// Each scan of a progressive JPEG walks the whole image: a small file
	// with thousands of scans would take minutes to decode.
	if scans := int64(bytes.Count(data, []byte{0xFF, 0xDA})); format == "jpeg" && scans*px > maxJPEGScanPixels {
		return nil, withCode("VIEWER_NOT_DRAWN", fmt.Errorf("%dx%d pixels in %d JPEG scans is more decoding work than a texture needs", cfg.Width, cfg.Height, scans))
	}
	if px > *budget {
		return nil, withCode("VIEWER_NOT_DRAWN", fmt.Errorf("%dx%d pixels would take the model's textures past %d pixels in all", cfg.Width, cfg.Height, totalTexturePixels))
	}
	*budget -= px
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, withCode(decodeCode(err), fmt.Errorf("cannot decode: %v", err))
	}
	return toNRGBA(src), nil
}

// toNRGBA is src as 8-bit non-premultiplied RGBA, each texel keeping its
// colour whatever its alpha: glTF's images are not premultiplied, and an
// OPAQUE material shows the colour under a transparent texel. The types
// whose alpha draw would premultiply (and so lose: a texel of alpha 0
// would turn black) are converted texel by texel: palettes (PNG with
// tRNS), 16-bit non-premultiplied RGBA (PNG) and Y'CbCr with alpha
// (lossy WebP); the rest are opaque or already NRGBA.
func toNRGBA(src image.Image) *image.NRGBA {
	if n, ok := src.(*image.NRGBA); ok {
		return n
	}
	b := src.Bounds()
	dst := image.NewNRGBA(b)
	switch s := src.(type) {
	case *image.Paletted:
		pal := make([]color.NRGBA, len(s.Palette))
		for i, c := range s.Palette {
			pal[i] = color.NRGBAModel.Convert(c).(color.NRGBA)
			if n, ok := c.(color.NRGBA64); ok {
				pal[i] = nrgba64To8(n)
			}
		}
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if i := int(s.ColorIndexAt(x, y)); i < len(pal) {
					dst.SetNRGBA(x, y, pal[i])
				}
			}
		}
	case *image.NRGBA64:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				dst.SetNRGBA(x, y, nrgba64To8(s.NRGBA64At(x, y)))
			}
		}
	case *image.NYCbCrA:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := s.NYCbCrAAt(x, y)
				r, g, bl := color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
				dst.SetNRGBA(x, y, color.NRGBA{r, g, bl, c.A})
			}
		}
	default:
		draw.Draw(dst, b, src, b.Min, draw.Src)
	}
	return dst
}

// nrgba64To8 rounds a 16-bit non-premultiplied colour to 8 bits a channel.
func nrgba64To8(c color.NRGBA64) color.NRGBA {
	r := func(v uint16) uint8 { return uint8((uint32(v)*255 + 32767) / 65535) }
	return color.NRGBA{r(c.R), r(c.G), r(c.B), r(c.A)}
}

// maxTexCoord is the largest texture coordinate set any texture of
// material m samples (-1: none), KHR_texture_transform's texCoord
// included, read from the document's JSON so that every texture counts,
// drawn or not.
func (l *loader) maxTexCoord(m int) int {
	mats, _ := l.root["materials"].([]any)
	if m < 0 || m >= len(mats) {
		return -1
	}
	best := -1
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["index"]; ok {
				tc := jsonInt(v["texCoord"])
				if ext, ok := v["extensions"].(map[string]any); ok {
					if tt, ok := ext["KHR_texture_transform"].(map[string]any); ok {
						if _, set := tt["texCoord"]; set {
							tc = jsonInt(tt["texCoord"])
						}
					}
				}
				best = max(best, tc)
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(mats[m])
	return best
}

// jsonInt is a JSON integer as an int (0 when absent or not an integer).
func jsonInt(v any) int {
	n, ok := v.(json.Number)
	if !ok {
		return 0
	}
	i, err := n.Int64()
	if err != nil || i < 0 || i > 1<<16 {
		return 0
	}
	return int(i)
}
