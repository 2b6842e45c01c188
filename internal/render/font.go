package render

import (
	"fmt"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The HUD's fonts: the Go fonts rasterized into glyph bitmaps with their
// metrics and kerning, in Go alone. hud.go packs them into the GL atlas
// and draws with them.

// hudFontSize is the HUD's text size in pixels at content scale 1.
const hudFontSize = 14

// HUDSymbols lists the runes beyond printable ASCII (U+0020 to U+007E)
// that Text and Mono draw, in both faces. Any other rune draws as '?'.
// ▶ ◀ ◆ ◇ ✓ are not in the Go fonts and draw with the look-alikes
// ► ◄ ♦ ◊ √; ❚ is drawn by the HUD itself (a bar of cap height), so
// "❚❚" reads as pause.
const HUDSymbols = "·×±…°→←↑↓↔↕–—•►◄▲▼■□●○◊♦≤≥≈∞µ²½│█√" + "▶◀◆◇✓" + "❚"

// hudAliases maps symbols missing from the Go fonts to glyphs they have.
var hudAliases = map[rune]rune{'▶': '►', '◀': '◄', '◆': '♦', '◇': '◊', '✓': '√'}

// hudBar is the rune of the synthesized pause bar.
const hudBar = '❚'

// glyphBitmap is a rasterized glyph waiting for its place in the atlas.
type glyphBitmap struct {
	face, glyph int
	w, h        int
	pix         []byte // w*h coverage bytes
}

// rasterize renders the glyph set of both faces at size pixels and fills
// in everything of each glyph but its atlas coordinates.
func (h *HUD) rasterize(size float64) ([]glyphBitmap, error) {
	var bitmaps []glyphBitmap
	sources := [2]struct {
		name string
		ttf  []byte
	}{{"goregular", goregular.TTF}, {"gomono", gomono.TTF}}
	var capHeight int
	for fi, src := range sources {
		f, err := opentype.Parse(src.ttf)
		if err != nil {
			return nil, fmt.Errorf("render: hud font %s: %w", src.name, err)
		}
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, fmt.Errorf("render: hud font %s at %gpx: %w", src.name, size, err)
		}
		hf := &h.faces[fi]
		for i := range hf.ascii {
			hf.ascii[i] = -1
		}
		hf.symbols = make(map[rune]int16)
		if fi == 0 {
			m := face.Metrics()
			h.ascent = float32(m.Ascent.Ceil())
			h.height = float32(max(m.Height.Ceil(), m.Ascent.Ceil()+m.Descent.Ceil()))
		}
		var buf sfnt.Buffer
		var runes []rune // font runes per glyph index, for kerning
		add := func(r rune) bool {
			if x, err := f.GlyphIndex(&buf, r); err != nil || x == 0 {
				return false // the font lacks it: never draw .notdef
			}
			dr, mask, mp, adv, ok := face.Glyph(fixed.Point26_6{}, r)
			if !ok {
				return false
			}
			g := hudGlyph{dx: float32(dr.Min.X), dy: float32(dr.Min.Y), adv: float32(adv.Round())}
			if !dr.Empty() {
				b := glyphBitmap{face: fi, glyph: len(hf.glyphs), w: dr.Dx(), h: dr.Dy(), pix: make([]byte, dr.Dx()*dr.Dy())}
				for y := 0; y < b.h; y++ {
					for x := 0; x < b.w; x++ {
						_, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA()
						b.pix[y*b.w+x] = byte(a >> 8)
					}
				}
				bitmaps = append(bitmaps, b)
				g.w, g.h = float32(b.w), float32(b.h)
			}
			if r < 128 {
				hf.ascii[r] = int16(len(hf.glyphs))
			} else {
				hf.symbols[r] = int16(len(hf.glyphs))
			}
			hf.glyphs = append(hf.glyphs, g)
			runes = append(runes, r)
			return true
		}
		for r := rune(0x20); r < 0x7f; r++ {
			if !add(r) {
				face.Close()
				return nil, fmt.Errorf("render: hud font %s has no glyph for %q", src.name, r)
			}
		}
		hf.missing = hf.ascii['?']
		for _, r := range HUDSymbols {
			if _, isAlias := hudAliases[r]; !isAlias && r != hudBar {
				add(r) // a symbol the font lacks falls back to '?'
			}
		}
		for from, to := range hudAliases {
			if i, ok := hf.symbols[to]; ok {
				hf.symbols[from] = i
			}
		}
		if fi == 0 {
			capHeight = -int(h.faces[0].glyphs[hf.ascii['H']].dy)
			hf.kern = kernTable(face, runes)
		}
		face.Close()

		// The pause bar: a solid bar of cap height, two of which read as
		// pause without depending on a font that has U+275A.
		barW := max(2, int(math.Round(size*0.2)))
		gap := max(1, int(math.Round(size*0.1)))
		adv := barW + 2*gap
		if fi == 1 {
			adv = int(hf.glyphs[hf.ascii['0']].adv)
		}
		bar := hudGlyph{dx: float32((adv - barW) / 2), dy: float32(-capHeight), w: float32(barW), h: float32(capHeight), adv: float32(adv)}
		b := glyphBitmap{face: fi, glyph: len(hf.glyphs), w: barW, h: capHeight, pix: make([]byte, barW*capHeight)}
		for i := range b.pix {
			b.pix[i] = 255
		}
		bitmaps = append(bitmaps, b)
		hf.symbols[hudBar] = int16(len(hf.glyphs))
		hf.glyphs = append(hf.glyphs, bar)
	}
	return bitmaps, nil
}

// kernTable tabulates the face's pair kerning in whole pixels, or returns
// nil when every pair is zero.
func kernTable(face font.Face, runes []rune) []int8 {
	n := len(runes)
	var table []int8
	for a, ra := range runes {
		for b, rb := range runes {
			k := face.Kern(ra, rb).Round()
			if k == 0 {
				continue
			}
			if table == nil {
				table = make([]int8, n*n)
			}
			table[a*n+b] = int8(max(-128, min(127, k)))
		}
	}
	return table
}
