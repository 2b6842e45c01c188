package gltfload

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

// Textures whose image is WebP (EXT_texture_webp) or KTX2
// (KHR_texture_basisu): the WebP one is decoded, the KTX2 one draws its
// fallback source, or its material's factors with one report line.

// bitWriter packs bits least significant first, as VP8L reads them.
type bitWriter struct {
	out  []byte
	nbit uint
}

func (w *bitWriter) put(v uint32, n uint) {
	for i := uint(0); i < n; i++ {
		if w.nbit%8 == 0 {
			w.out = append(w.out, 0)
		}
		w.out[len(w.out)-1] |= byte(v>>i&1) << (w.nbit % 8)
		w.nbit++
	}
}

// losslessWebP encodes img as a WebP file of one VP8L chunk (RFC 9649)
// without transforms or colour cache, each channel with a "simple" prefix
// code: one symbol (no bits a pixel) or two (one bit a pixel), so every
// channel of img may take at most two values.
func losslessWebP(t testing.TB, img *image.NRGBA) []byte {
	t.Helper()
	w, h := img.Rect.Dx(), img.Rect.Dy()
	var bw bitWriter
	bw.put(0x2f, 8)
	bw.put(uint32(w-1), 14)
	bw.put(uint32(h-1), 14)
	bw.put(1, 1) // alpha is used
	bw.put(0, 3) // version
	bw.put(0, 1) // no transform
	bw.put(0, 1) // no colour cache
	bw.put(0, 1) // one prefix code group for the whole image
	// The channels in the order of the group's codes: green, red, blue,
	// alpha (the distance code follows).
	order := []int{1, 0, 2, 3}
	var symbols [4][]uint8
	for _, c := range order {
		seen := map[uint8]bool{}
		for i := c; i < len(img.Pix); i += 4 {
			if v := img.Pix[i]; !seen[v] {
				seen[v] = true
				symbols[c] = append(symbols[c], v)
			}
		}
		if len(symbols[c]) > 2 {
			t.Fatalf("channel %d takes %d values; this encoder writes two at most", c, len(symbols[c]))
		}
		if len(symbols[c]) == 2 && symbols[c][0] > symbols[c][1] {
			symbols[c][0], symbols[c][1] = symbols[c][1], symbols[c][0]
		}
		bw.put(1, 1) // simple code
		bw.put(uint32(len(symbols[c])-1), 1)
		bw.put(1, 1) // first symbol in 8 bits
		for _, s := range symbols[c] {
			bw.put(uint32(s), 8)
		}
	}
	bw.put(1, 1) // distance: simple code, one symbol, 1 bit: 0
	bw.put(0, 1)
	bw.put(0, 1)
	bw.put(0, 1)
	// Pixels: with two symbols, the smaller has code 0 (canonical codes
	// go in symbol order); with one, no bits.
	for i := 0; i < len(img.Pix); i += 4 {
		for _, c := range order {
			if len(symbols[c]) == 2 {
				bw.put(map[bool]uint32{false: 0, true: 1}[img.Pix[i+c] == symbols[c][1]], 1)
			}
		}
	}
	chunk := bw.out
	var b bytes.Buffer
	le := func(v uint32) { binary.Write(&b, binary.LittleEndian, v) }
	pad := len(chunk) % 2
	b.WriteString("RIFF")
	le(uint32(4 + 8 + len(chunk) + pad))
	b.WriteString("WEBPVP8L")
	le(uint32(len(chunk)))
	b.Write(chunk)
	if pad == 1 {
		b.WriteByte(0)
	}
	return b.Bytes()
}

// webpTexels is 3 × 2 texels, red, green, blue at half alpha / white,
// black, yellow at half alpha: not square, so that a width and height
// swapped shows, and with alpha, which a decoder may drop; each channel
// takes two values, as losslessWebP needs.
func webpTexels() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	copy(img.Pix, []uint8{
		255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 128,
		255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 0, 128,
	})
	return img
}

func onePNG(t testing.TB, c color.NRGBA) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	img.SetNRGBA(0, 0, c)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// ktx2Header is the identifier every KTX2 file starts with (KTX 2.0 §3.1),
// followed by nothing a reader could use.
var ktx2Header = []byte("\xABKTX 20\xBB\r\n\x1A\n\x00\x00\x00\x00")

func dataURI(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

// texturedDoc is a textured triangle whose material's base colour
// texture is textures[0], with the given textures, images and extension
// lists (JSON).
func texturedDoc(t testing.TB, textures, images, used, required string) []byte {
	t.Helper()
	b := &docBuilder{}
	b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	b.floatAcc(t, "VEC2", []float32{0, 0, 1, 0, 0, 1})
	js := b.json(fmt.Sprintf(`"scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": 0}]}],
	  "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.25, 1, 1], "baseColorTexture": {"index": 0}}}],
	  "samplers": [{"magFilter": 9728, "minFilter": 9728}], "textures": [%s], "images": [%s], "extensionsUsed": [%s]`, textures, images, used))
	if required != "" {
		js = append(js[:len(js)-1], `, "extensionsRequired": [`+required+`]}`...)
	}
	mustJSON(t, js)
	return js
}

func TestWebPAndKTX2Textures(t *testing.T) {
	webp := losslessWebP(t, webpTexels())
	grey := color.NRGBA{128, 128, 128, 255}
	fallback := fmt.Sprintf(`{"uri": %q}`, dataURI("image/png", onePNG(t, grey)))
	webpImage := fmt.Sprintf(`{"uri": %q}`, dataURI("image/webp", webp))
	ktx2Image := fmt.Sprintf(`{"uri": %q}`, dataURI("image/ktx2", ktx2Header))
	broken := fmt.Sprintf(`{"uri": %q}`, dataURI("image/webp", webp[:24]))
	cases := []struct {
		name                             string
		textures, images, used, required string
		want                             *image.NRGBA // nil: no texture drawn
		code, where                      string       // a report line the file must carry ("": none but hints)
		notAt                            string       // where no VIEWER_NOT_DRAWN line may be ("": anywhere)
	}{
		{name: "WebP required, no fallback",
			textures: `{"extensions": {"EXT_texture_webp": {"source": 0}}}`, images: webpImage,
			used: `"EXT_texture_webp"`, required: `"EXT_texture_webp"`, want: webpTexels()},
		{name: "WebP over its PNG fallback",
			textures: `{"source": 1, "extensions": {"EXT_texture_webp": {"source": 0}}}`, images: webpImage + "," + fallback,
			used: `"EXT_texture_webp"`, want: webpTexels()},
		{name: "broken WebP draws its fallback",
			textures: `{"source": 1, "extensions": {"EXT_texture_webp": {"source": 0}}}`, images: broken + "," + fallback,
			used: `"EXT_texture_webp"`, want: onePixel(grey), code: "IMAGE_UNEXPECTED_EOS", where: "/images/0"},
		{name: "KTX2 with a PNG fallback draws the fallback",
			textures: `{"source": 1, "extensions": {"KHR_texture_basisu": {"source": 0}}}`, images: ktx2Image + "," + fallback,
			used: `"KHR_texture_basisu"`, want: onePixel(grey)},
		{name: "KTX2 required, no fallback: the factors are drawn",
			textures: `{"extensions": {"KHR_texture_basisu": {"source": 0}}}`, images: ktx2Image,
			used: `"KHR_texture_basisu"`, required: `"KHR_texture_basisu"`, code: "VIEWER_NOT_DRAWN", where: "/textures"},
		// The image's line says the texture is drawn untextured: no second
		// line claims it has no supported image, or only a KTX2 one.
		{name: "broken WebP without a fallback: the image is named, not the texture",
			textures: `{"extensions": {"EXT_texture_webp": {"source": 0}}}`, images: broken,
			used: `"EXT_texture_webp"`, code: "IMAGE_UNEXPECTED_EOS", where: "/images/0", notAt: "/textures/0"},
		{name: "broken WebP beside a KTX2 image: not a KTX2-only texture",
			textures: `{"extensions": {"EXT_texture_webp": {"source": 0}, "KHR_texture_basisu": {"source": 1}}}`, images: broken + "," + ktx2Image,
			used: `"EXT_texture_webp", "KHR_texture_basisu"`, code: "IMAGE_UNEXPECTED_EOS", where: "/images/0", notAt: "/textures"},
		{name: "WebP source one past the last image: the PNG source is drawn",
			textures: `{"source": 0, "extensions": {"EXT_texture_webp": {"source": 1}}}`, images: fallback,
			used: `"EXT_texture_webp"`, want: onePixel(grey), code: "UNRESOLVED_REFERENCE", where: "/textures/0/extensions/EXT_texture_webp/source"},
		{name: "data URI declaring JPEG over PNG bytes: named, decoded as what it holds",
			textures: `{"source": 0}`, images: fmt.Sprintf(`{"uri": %q}`, dataURI("image/jpeg", onePNG(t, grey))),
			used: `"EXT_texture_webp"`, want: onePixel(grey), code: "INVALID_URI", where: "/images/0/uri"},
		{name: "no source of any kind",
			textures: `{"sampler": 0}`, images: fallback,
			used: `"EXT_texture_webp"`, code: "VIEWER_NOT_DRAWN", where: "/textures/0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode(texturedDoc(t, tc.textures, tc.images, tc.used, tc.required), nil, "t.gltf")
			if err != nil {
				t.Fatal(err)
			}
			lines := m.Report.Lines(Info, 0)
			if tc.code != "" && !issueAt(m, tc.code, tc.where) {
				t.Fatalf("no %s at %s in the report: %q", tc.code, tc.where, lines)
			}
			if tc.notAt != "" && issueAt(m, "VIEWER_NOT_DRAWN", tc.notAt) {
				t.Fatalf("a VIEWER_NOT_DRAWN line at %s: %q", tc.notAt, lines)
			}
			if tc.code == "" && len(lines) > 0 {
				t.Fatalf("want no report line above hints, got %q", lines)
			}
			if len(m.Materials) != 1 || m.Materials[0].BaseColorTexture.Texture != 0 {
				t.Fatalf("want one material drawing textures[0], got %+v", m.Materials)
			}
			got := m.Textures[0]
			switch {
			case tc.want == nil && got != nil:
				t.Fatalf("a %v texture drawn from an image not decoded here", got.Rect)
			case tc.want != nil && got == nil:
				t.Fatal("no texture drawn")
			case tc.want != nil && (!got.Rect.Eq(tc.want.Rect) || !bytes.Equal(got.Pix, tc.want.Pix)):
				t.Fatalf("texture %v %v, want %v %v", got.Rect, got.Pix, tc.want.Rect, tc.want.Pix)
			}
		})
	}
}

func onePixel(c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	img.SetNRGBA(0, 0, c)
	return img
}

// Several KTX2-only textures are named in one line, not one line each.
func TestKTX2OnlyTexturesShareOneLine(t *testing.T) {
	ktx2Image := fmt.Sprintf(`{"uri": %q}`, dataURI("image/ktx2", ktx2Header))
	tex := `{"extensions": {"KHR_texture_basisu": {"source": 0}}}`
	js := texturedDoc(t, tex+","+tex, ktx2Image, `"KHR_texture_basisu"`, `"KHR_texture_basisu"`)
	js = bytes.Replace(js, []byte(`"materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.25, 1, 1], "baseColorTexture": {"index": 0}}}]`),
		[]byte(`"materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}, {"pbrMetallicRoughness": {"baseColorTexture": {"index": 1}}}]`), 1)
	m, err := Decode(js, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	found := messagesWith(m, "KTX2")
	if len(found) != 1 || !strings.Contains(found[0], "textures 0, 1 have") {
		t.Fatalf("want one line naming textures 0, 1, got %q", found)
	}
}

// FuzzWebPTexture hands the WebP decoder malformed images: the file loads
// with the image reported or refuses with an error, never a panic, and a
// decoded texture stays within the pixel cap.
func FuzzWebPTexture(f *testing.F) {
	f.Add(losslessWebP(f, webpTexels()))
	f.Add(losslessWebP(f, onePixel(color.NRGBA{1, 2, 3, 4})))
	f.Fuzz(func(t *testing.T, data []byte) {
		img := fmt.Sprintf(`{"uri": %q}`, dataURI("image/webp", data))
		m, err := Decode(texturedDoc(t, `{"extensions": {"EXT_texture_webp": {"source": 0}}}`, img, `"EXT_texture_webp"`, `"EXT_texture_webp"`), nil, "t.gltf")
		if err != nil {
			return
		}
		if tex := m.Textures[0]; tex != nil && int64(tex.Rect.Dx())*int64(tex.Rect.Dy()) > maxTexturePixels {
			t.Fatalf("a %v texture past the %d-pixel cap", tex.Rect, maxTexturePixels)
		}
	})
}
