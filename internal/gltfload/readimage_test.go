package gltfload

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
)

// flatWebP is a w × h lossless WebP (RFC 9649) of one opaque grey: every
// channel's prefix code has a single symbol, so the pixels take no bits
// and the file holds a few dozen bytes however large its canvas. Zero
// bytes after the bitstream, inside its chunk, bring the file to size
// bytes (even, at least the bitstream's).
func flatWebP(t testing.TB, w, h, size int) []byte {
	t.Helper()
	var bw bitWriter
	bw.put(0x2f, 8)
	bw.put(uint32(w-1), 14)
	bw.put(uint32(h-1), 14)
	bw.put(0, 1)                                     // no alpha
	bw.put(0, 3)                                     // version
	bw.put(0, 1)                                     // no transform
	bw.put(0, 1)                                     // no colour cache
	bw.put(0, 1)                                     // one prefix code group
	for _, v := range []uint32{128, 128, 128, 255} { // green, red, blue, alpha
		bw.put(1, 1) // simple code
		bw.put(0, 1) // one symbol
		bw.put(1, 1) // in 8 bits
		bw.put(v, 8)
	}
	bw.put(1, 1) // distance: simple code, one symbol of 1 bit: 0
	bw.put(0, 1)
	bw.put(0, 1)
	bw.put(0, 1)
	chunk := bw.out
	if size%2 != 0 || size-20 < len(chunk) {
		t.Fatalf("a %d-byte WebP: the size must be even and leave room for %d bytes of bitstream", size, len(chunk))
	}
	chunk = append(chunk, make([]byte, size-20-len(chunk))...)
	var b bytes.Buffer
	le := func(v uint32) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(4 + 8 + len(chunk)))
	b.WriteString("WEBPVP8L")
	le(uint32(len(chunk)))
	b.Write(chunk)
	return b.Bytes()
}

// grayJPEG is a w × h baseline JPEG of one grey, its frame header then
// declaring height × width (a JPEG may declare 0: its height then comes
// later, from a DNL marker).
func grayJPEG(t testing.TB, w, h, height, width int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 100
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	sof := bytes.Index(data, []byte{0xFF, 0xC0})
	if sof < 0 {
		t.Fatal("no SOF0 in the encoded JPEG")
	}
	// FF C0, length (2), precision (1), height (2), width (2).
	binary.BigEndian.PutUint16(data[sof+5:], uint16(height))
	binary.BigEndian.PutUint16(data[sof+7:], uint16(width))
	return data
}

// scansJPEG is the header of a progressive 8192 × 8192 grey JPEG (the
// largest canvas read) with a 32768-byte comment, so that its pixels are
// plausible for its size, then that many start-of-scan headers without
// their data: enough to be weighed, not to be decoded.
func scansJPEG(scans int) []byte {
	b := []byte{0xFF, 0xD8, 0xFF, 0xFE, 0x80, 0x02} // SOI, COM of 2 + 32768 bytes
	b = append(b, make([]byte, 32768)...)
	b = append(b, 0xFF, 0xC2, 0, 11, 8, 0x20, 0, 0x20, 0, 1, 1, 0x11, 0) // SOF2: 8 bits, 8192 × 8192, one component
	for range scans {
		b = append(b, 0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0, 0) // SOS: component 1, DC of the first scan
	}
	return append(b, 0xFF, 0xD9)
}

// TestReadImageLimits reads one image from a bufferView at the edges of
// readImage's limits: a canvas of at most maxTexturePixels with both sides
// positive; more than freePixels only at no more than maxPixelsPerByte
// pixels a byte of image data; a texture within what is left of the
// pixel budget, which it is charged.
func TestReadImageLimits(t *testing.T) {
	gray := color.NRGBA{128, 128, 128, 255}
	cases := []struct {
		name   string
		data   []byte
		budget int64
		w, h   int    // the texture read, or
		refuse string // the refusal, VIEWER_NOT_DRAWN unless it names "plausible"
	}{
		{name: "1024 × 1024 (freePixels) from a few bytes", data: flatWebP(t, 1024, 1024, 40), budget: totalTexturePixels, w: 1024, h: 1024},
		{name: "1028 × 1024 from 514 bytes: 2048 pixels a byte", data: flatWebP(t, 1028, 1024, 514), budget: totalTexturePixels, w: 1028, h: 1024},
		{name: "1030 × 1024 from 514 bytes: more than 2048 pixels a byte", data: flatWebP(t, 1030, 1024, 514), budget: totalTexturePixels,
			refuse: "1030x1024 pixels from 514 bytes of image data is not plausible"},
		{name: "8 × 8 JPEG", data: grayJPEG(t, 8, 8, 8, 8), budget: totalTexturePixels, w: 8, h: 8},
		{name: "JPEG declaring height 0", data: grayJPEG(t, 8, 8, 0, 8), budget: totalTexturePixels, refuse: "8x0 pixels is outside the supported size"},
		{name: "JPEG declaring width 0", data: grayJPEG(t, 8, 8, 8, 0), budget: totalTexturePixels, refuse: "0x8 pixels is outside the supported size"},
		// 16 scans over 2^26 pixels are maxJPEGScanPixels (2^30) of work: the
		// image is weighed against the budget (one pixel short) instead.
		{name: "8192 × 8192 JPEG in 16 scans", data: scansJPEG(16), budget: 1<<26 - 1, refuse: "8192x8192 pixels would take the model's textures past"},
		{name: "8192 × 8192 JPEG in 17 scans", data: scansJPEG(17), budget: 1<<26 - 1, refuse: "8192x8192 pixels in 17 JPEG scans is more decoding work than a texture needs"},
		{name: "6 pixels, 6 left in the budget", data: flatWebP(t, 3, 2, 40), budget: 6, w: 3, h: 2},
		{name: "6 pixels, 5 left in the budget", data: flatWebP(t, 3, 2, 40), budget: 5, refuse: "3x2 pixels would take the model's textures past"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := &gltf.Document{
				Buffers:     []*gltf.Buffer{{ByteLength: len(tc.data), Data: tc.data}},
				BufferViews: []*gltf.BufferView{{Buffer: 0, ByteLength: len(tc.data)}},
				Images:      []*gltf.Image{{BufferView: gltf.Index(0)}},
			}
			l := &loader{doc: doc, model: &Model{}}
			budget := tc.budget
			img, err := l.readImage(0, &budget)
			if tc.refuse != "" {
				code := "VIEWER_NOT_DRAWN"
				if strings.Contains(tc.refuse, "plausible") {
					code = "IMAGE_DATA_INVALID"
				}
				if err == nil || !strings.Contains(err.Error(), tc.refuse) || imageCode(err) != code {
					t.Fatalf("image %v, error %v, want %s %q", img != nil, err, code, tc.refuse)
				}
				if budget != tc.budget {
					t.Errorf("a refused image charged %d pixels", tc.budget-budget)
				}
				return
			}
			if err != nil || img == nil {
				t.Fatalf("image %v, error %v, want a %d × %d texture", img != nil, err, tc.w, tc.h)
			}
			if img.Rect.Dx() != tc.w || img.Rect.Dy() != tc.h {
				t.Fatalf("texture %v, want %d × %d", img.Rect, tc.w, tc.h)
			}
			c := img.NRGBAAt(tc.w-1, tc.h-1)
			grey := c == gray
			if strings.Contains(tc.name, "JPEG") { // lossy: a grey, not exactly the one encoded
				grey = c.R == c.G && c.G == c.B && c.A == 255
			}
			if !grey {
				t.Errorf("last texel %v, want grey", c)
			}
			if want := tc.budget - int64(tc.w*tc.h); budget != want {
				t.Errorf("budget left %d, want %d", budget, want)
			}
		})
	}
}

// Texels keep their colour whatever their alpha: glTF's images are not
// premultiplied, and an OPAQUE material shows the colour of a texel its
// alpha would hide (glTF 2.0 §3.9.4), as a MASK edge filtered with its
// cut-away neighbours shows theirs. Palette PNGs with transparency
// (tRNS) and 16-bit PNGs decode to types that premultiply on conversion,
// which turned a transparent red texel black.
func TestReadImageKeepsColourUnderAlpha(t *testing.T) {
	pal := image.NewPaletted(image.Rect(0, 0, 3, 1), color.Palette{
		color.NRGBA{255, 0, 0, 0}, color.NRGBA{0, 0, 255, 255}, color.NRGBA{255, 128, 0, 8}})
	pal.Pix = []uint8{0, 1, 2}
	deep := image.NewNRGBA64(image.Rect(0, 0, 4, 1))
	deep.SetNRGBA64(0, 0, color.NRGBA64{0, 65535, 0, 0})
	deep.SetNRGBA64(1, 0, color.NRGBA64{65535, 65535, 0, 65535})
	// 32896 / 257 = 128 and 2570 / 257 = 10: 8-bit values exactly.
	deep.SetNRGBA64(2, 0, color.NRGBA64{65535, 32896, 0, 2570})
	// Between 8-bit values, to the nearest: 128 / 257 = 0.498 → 0,
	// 33100 / 257 = 128.8 → 129, 65435 / 257 = 254.6 → 255.
	deep.SetNRGBA64(3, 0, color.NRGBA64{128, 33100, 65435, 65535})
	for _, c := range []struct {
		name string
		img  image.Image
		want []color.NRGBA
	}{
		{"palette with tRNS", pal, []color.NRGBA{{255, 0, 0, 0}, {0, 0, 255, 255}, {255, 128, 0, 8}}},
		{"16-bit RGBA", deep, []color.NRGBA{{0, 255, 0, 0}, {255, 255, 0, 255}, {255, 128, 0, 10}, {0, 129, 255, 255}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := png.Encode(&b, c.img); err != nil {
				t.Fatal(err)
			}
			data := b.Bytes()
			doc := &gltf.Document{
				Buffers:     []*gltf.Buffer{{ByteLength: len(data), Data: data}},
				BufferViews: []*gltf.BufferView{{Buffer: 0, ByteLength: len(data)}},
				Images:      []*gltf.Image{{BufferView: gltf.Index(0), MimeType: "image/png"}},
			}
			l := &loader{doc: doc, model: &Model{}}
			budget := int64(totalTexturePixels)
			img, err := l.readImage(0, &budget)
			if err != nil {
				t.Fatal(err)
			}
			for x, want := range c.want {
				if got := img.NRGBAAt(x, 0); got != want {
					t.Errorf("texel %d: %v, want %v", x, got, want)
				}
			}
		})
	}
}

// Lossy WebP with alpha decodes to Y'CbCr with alpha: a transparent texel
// keeps its colour too. Y' 76, Cb 85, Cr 255 is, by JFIF's equations,
// R = 76 + 1.402·127 = 254.1, G = 76 + 0.3441·43 − 0.7141·127 = 0.1,
// B = 76 − 1.772·43 = −0.2: red.
func TestToNRGBAKeepsYCbCrColourUnderAlpha(t *testing.T) {
	src := image.NewNYCbCrA(image.Rect(0, 0, 1, 1), image.YCbCrSubsampleRatio444)
	src.Y[0], src.Cb[0], src.Cr[0], src.A[0] = 76, 85, 255, 0
	got := toNRGBA(src).NRGBAAt(0, 0)
	if got.R < 253 || got.G > 1 || got.B > 1 || got.A != 0 {
		t.Errorf("%v, want about {254 0 0 0}", got)
	}
}

// TestJPEGMarkers walks marker segments by hand (ITU T.81 B.1.1): each
// case's code and message, or none where the walk reaches a scan.
func TestJPEGMarkers(t *testing.T) {
	const eos = "IMAGE_UNEXPECTED_EOS: cannot decode: the JPEG data ends before its first scan"
	for _, c := range []struct {
		name string
		data []byte
		want string // "" for no error
	}{
		{"a scan right after the start", []byte{0xFF, 0xD8, 0xFF, 0xDA}, ""},
		{"ends in fill bytes", []byte{0xFF, 0xD8, 0xFF}, eos},
		{"ends exactly after a segment", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02}, eos},
		{"an empty segment, then a scan", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02, 0xFF, 0xDA}, ""},
		{"markers without a length, then a scan", []byte{0xFF, 0xD8, 0xFF, 0xD0, 0xFF, 0xFF, 0x01, 0xFF, 0xDA}, ""},
		{"a length cut after its first byte", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00}, eos},
		{"a length of 1 at the data's end", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01}, "IMAGE_DATA_INVALID: cannot decode: JPEG segment length 1 at byte 4"},
		{"a reserved marker", []byte{0xFF, 0xD8, 0xFF, 0x05, 0x00, 0x02}, "IMAGE_DATA_INVALID: cannot decode: JPEG marker 0x05 at byte 3 is not a marker"},
		{"a segment followed by data", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02, 0x00, 0xDA}, "IMAGE_DATA_INVALID: cannot decode: byte 6 of the JPEG data is not a marker"},
		{"not JPEG", []byte{0xFF, 0xD8, 0x00}, ""},
	} {
		got := ""
		if err := jpegMarkers(c.data); err != nil {
			got = imageCode(err) + ": " + err.Error()
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
