package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"log"
	"math"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/skinview/skinview/internal/gltest"
	"github.com/skinview/skinview/internal/golden"
)

// Colours of the HUD test scene.
var (
	hudClear     = color.NRGBA{R: 40, G: 44, B: 52, A: 255}
	hudPanel     = color.NRGBA{R: 12, G: 14, B: 20, A: 200}
	hudBorder    = color.NRGBA{R: 90, G: 100, B: 120, A: 255}
	hudWhite     = color.NRGBA{R: 255, G: 255, B: 255, A: 255}
	hudDim       = color.NRGBA{R: 170, G: 178, B: 190, A: 255}
	hudNumbers   = color.NRGBA{R: 190, G: 215, B: 255, A: 255}
	hudTrack     = color.NRGBA{R: 55, G: 60, B: 72, A: 255}
	hudFill      = color.NRGBA{R: 90, G: 150, B: 230, A: 255}
	hudSelected  = color.NRGBA{R: 50, G: 70, B: 120, A: 255}
	hudSelFill   = color.NRGBA{R: 250, G: 190, B: 70, A: 255}
	hudFade      = color.NRGBA{R: 120, G: 220, B: 140, A: 110}
	hudKey       = color.NRGBA{R: 200, G: 200, B: 210, A: 255}
	hudHead      = color.NRGBA{R: 255, G: 80, B: 60, A: 255}
	hudSample    = color.NRGBA{R: 120, G: 220, B: 140, A: 255}
	hudCurrent   = color.NRGBA{R: 255, G: 200, B: 40, A: 255}
	hudBigLetter = color.NRGBA{R: 240, G: 240, B: 120, A: 255}
)

// drawHUDPanel queues the test scene: a translucent panel with a title, a
// monospaced status row, two sliders (the second selected), a timeline
// with a fade, key marks and a play head, a small blend-space plot, and a
// large "I" from a second HUD at content scale 3. It uses constant
// strings only, so it allocates nothing itself.
func drawHUDPanel(h, big *HUD) {
	h.Rect(8, 8, 344, 184, hudPanel)
	h.Frame(8, 8, 344, 184, 1, hudBorder)
	h.Text(16, 12, "skinview HUD Ag·×±", hudWhite)
	h.Mono(16, 32, "t 0.533 / 1.000 s  frame 16", hudNumbers)

	// Slider rows: label, track with fill, value.
	h.Text(16, 54, "speed", hudDim)
	h.Rect(80, 58, 200, 10, hudTrack)
	h.Rect(80, 58, 120, 10, hudFill)
	h.Mono(290, 54, "0.60", hudDim)
	h.Rect(12, 74, 336, 18, hudSelected)
	h.Text(16, 75, "▶ blend", hudWhite)
	h.Rect(80, 78, 200, 10, hudTrack)
	h.Rect(80, 78, 150, 10, hudSelFill)
	h.Mono(290, 75, "0.75", hudWhite)

	// Timeline 16..336 (320 px): fade from 0.45 to 0.6, keys every 1/8,
	// play head at 0.533.
	h.Rect(16, 104, 320, 12, hudTrack)
	h.Rect(160, 104, 48, 12, hudFade)
	for k := 0; k <= 8; k++ {
		x := float32(16 + k*40)
		if k == 8 {
			x = 335
		}
		h.Line(x, 117, x, 122, 1, hudKey)
	}
	h.Line(186, 100, 186, 124, 2, hudHead)
	h.Mono(16, 126, "❚❚ 0.53s  loop  ×1.00", hudDim)

	// Blend-space plot: triangles through three samples, the current point.
	h.Frame(16, 146, 120, 40, 1, hudBorder)
	h.Line(26, 176, 76, 154, 1, hudDim)
	h.Line(76, 154, 126, 176, 1, hudDim)
	h.Line(26, 176, 126, 176, 1, hudDim)
	h.Disc(26, 176, 3, hudSample)
	h.Disc(76, 154, 3, hudSample)
	h.Disc(126, 176, 3, hudSample)
	h.Disc(90, 170, 4, hudCurrent)

	big.Text(300, 136, "Il", hudBigLetter)
}

// renderHUDPanel draws the scene into t and reads it back.
func renderHUDPanel(t *Target, h, big *HUD) *image.NRGBA {
	bindTarget(t)
	gl.Viewport(0, 0, int32(t.Width), int32(t.Height))
	gl.ClearColor(float32(hudClear.R)/255, float32(hudClear.G)/255, float32(hudClear.B)/255, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT)
	drawHUDPanel(h, big)
	h.Flush(t, t.Width, t.Height)
	big.Flush(t, t.Width, t.Height)
	return t.ReadImage()
}

// blendOver is src alpha-blended over an opaque dst, rounded to bytes: the
// blend equation written out by hand.
func blendOver(src, dst color.NRGBA) color.NRGBA {
	mix := func(s, d uint8) uint8 {
		return uint8((int(s)*int(src.A) + int(d)*(255-int(src.A)) + 127) / 255)
	}
	return color.NRGBA{R: mix(src.R, dst.R), G: mix(src.G, dst.G), B: mix(src.B, dst.B), A: 255}
}

// withHUDs runs fn on the GL thread with a HUD for each content scale
// and, when w > 0, a w×h target, and destroys them afterwards.
func withHUDs(t *testing.T, w, h int, scales []float32, fn func(tg *Target, hs []*HUD) error) {
	gltest.Do(t, func() error {
		hs := make([]*HUD, len(scales))
		for i, s := range scales {
			hud, err := NewHUD(s)
			if err != nil {
				return err
			}
			defer hud.Destroy()
			hs[i] = hud
		}
		var tg *Target
		if w > 0 {
			var err error
			if tg, err = NewTarget(w, h, 1); err != nil {
				return err
			}
			defer tg.Destroy()
		}
		return fn(tg, hs)
	})
}

// TestHUD draws the HUD test scene twice into one target, compares the two
// (no state leaks from one frame into the next) and checks the first
// against its golden and named pixels.
func TestHUD(t *testing.T) {
	var first, second *image.NRGBA
	withHUDs(t, 360, 200, []float32{1, 3}, func(tg *Target, hs []*HUD) error {
		first = renderHUDPanel(tg, hs[0], hs[1])
		second = renderHUDPanel(tg, hs[0], hs[1])
		if e := gl.GetError(); e != gl.NO_ERROR {
			return fmt.Errorf("GL error 0x%x after drawing the HUD", e)
		}
		return nil
	})
	if !bytes.Equal(first.Pix, second.Pix) {
		t.Errorf("drawing the same HUD twice gave different images")
	}
	golden.Check(t, "TestHUD/panel", first, golden.Options{})

	panel := blendOver(hudPanel, hudClear)
	exact := 0.01 // a byte or two of difference, no more
	golden.CheckSpots(t, first, []golden.Spot{
		{Name: "outside the panel is the clear colour", X: 3, Y: 3, Want: hudClear, Tolerance: exact},
		{Name: "inside the panel is the panel blended over the clear colour", X: 340, Y: 20, Want: panel, Tolerance: exact},
		{Name: "the 1px frame covers exactly pixel column 8", X: 8, Y: 100, Want: hudBorder, Tolerance: exact},
		{Name: "the panel starts right inside the frame", X: 9, Y: 100, Want: panel, Tolerance: exact},
		{Name: "slider fill has its colour", X: 150, Y: 63, Want: hudFill, Tolerance: exact},
		{Name: "slider track beyond the fill", X: 250, Y: 63, Want: hudTrack, Tolerance: exact},
		{Name: "selected row is highlighted", X: 345, Y: 90, Want: hudSelected, Tolerance: exact},
		{Name: "selected slider fill", X: 220, Y: 83, Want: hudSelFill, Tolerance: exact},
		{Name: "translucent fade over the timeline", X: 170, Y: 110, Want: blendOver(hudFade, hudTrack), Tolerance: exact},
		{Name: "2px play head covers columns 185 and 186", X: 185, Y: 110, Want: hudHead, Tolerance: exact},
		{Name: "play head right column", X: 186, Y: 110, Want: hudHead, Tolerance: exact},
		{Name: "play head is 2px wide", X: 187, Y: 110, Want: blendOver(hudFade, hudTrack), Tolerance: exact},
		{Name: "key mark below the timeline", X: 56, Y: 119, Want: hudKey, Tolerance: exact},
		{Name: "beside a key mark is the panel", X: 57, Y: 119, Want: panel, Tolerance: exact},
		{Name: "sample disc centre", X: 76, Y: 154, Want: hudSample, Tolerance: exact},
		{Name: "current point disc centre", X: 90, Y: 170, Want: hudCurrent, Tolerance: exact},
		{Name: "beyond the current point's radius is the panel", X: 96, Y: 170, Want: panel, Tolerance: exact},
		{Name: "stem of the large I is text-coloured", X: 308, Y: 160, Want: hudBigLetter, Tolerance: exact},
		{Name: "between I and l is the panel", X: 315, Y: 160, Want: panel, Tolerance: exact},
		{Name: "stem of the large l is text-coloured", X: 322, Y: 160, Want: hudBigLetter, Tolerance: exact},
		{Name: "the k of the title is drawn", X: 24, Y: 18, Want: panel, Not: true},
	})
}

// TestHUDLeavesStateClean flushes a HUD with the depth test on and off and
// culling on, then checks that the 3D renderer finds the state it set.
func TestHUDLeavesStateClean(t *testing.T) {
	for _, depth := range []bool{true, false} {
		t.Run(fmt.Sprintf("depth=%v", depth), func(t *testing.T) {
			withHUDs(t, 64, 32, []float32{1}, func(tg *Target, hs []*HUD) error {
				h := hs[0]
				bindTarget(tg)
				setCap(gl.DEPTH_TEST, depth)
				gl.Enable(gl.CULL_FACE)
				h.Rect(0, 0, 10, 10, hudFill)
				h.Text(2, 2, "Ag", hudWhite)
				h.Disc(30, 16, 4, hudSample)
				h.Flush(tg, tg.Width, tg.Height)
				var prog, vao, tex, buf int32
				gl.GetIntegerv(gl.CURRENT_PROGRAM, &prog)
				gl.GetIntegerv(gl.VERTEX_ARRAY_BINDING, &vao)
				gl.GetIntegerv(gl.TEXTURE_BINDING_2D, &tex)
				gl.GetIntegerv(gl.ARRAY_BUFFER_BINDING, &buf)
				blend, gotDepth, cull := gl.IsEnabled(gl.BLEND), gl.IsEnabled(gl.DEPTH_TEST), gl.IsEnabled(gl.CULL_FACE)
				glErr := gl.GetError()
				gl.Disable(gl.DEPTH_TEST)
				gl.Disable(gl.CULL_FACE)
				gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
				switch {
				case glErr != gl.NO_ERROR:
					return fmt.Errorf("GL error 0x%x", glErr)
				case blend:
					return fmt.Errorf("blending left on")
				case gotDepth != depth:
					return fmt.Errorf("depth test %v after Flush, was %v before", gotDepth, depth)
				case !cull:
					return fmt.Errorf("face culling turned off")
				case prog != 0 || vao != 0 || tex != 0 || buf != 0:
					return fmt.Errorf("bindings left: program %d, vertex array %d, texture %d, array buffer %d", prog, vao, tex, buf)
				}
				return nil
			})
		})
	}
}

// TestHUDMeasure checks text metrics against the Go fonts' design: Go
// Mono advances 1229 of 2048 units per em, 8.4 px at 14 px, which hinting
// rounds to 8; at content scale 2 it is 16.8, rounded to 17.
func TestHUDMeasure(t *testing.T) {
	withHUDs(t, 0, 0, []float32{1, 2}, func(_ *Target, hs []*HUD) error {
		h, h2 := hs[0], hs[1]
		drawn := h.Text(10.3, 20.7, "ab", hudWhite)
		h.Flush(nil, 0, 0) // discards the queue without drawing
		tests := []struct {
			name      string
			got, want float32
		}{
			{"Measure of the empty string", h.Measure(""), 0},
			{"Measure(ab) is what Text(ab) returns", h.Measure("ab"), drawn},
			{"Measure(ab) is the sum of its letters (the Go fonts do not kern)", h.Measure("ab"), h.Measure("a") + h.Measure("b")},
			{"mono digits", h.MeasureMono("0123456789"), 80},
			{"mono i and M are as wide", h.MeasureMono("iiii"), h.MeasureMono("MMMM")},
			{"mono symbols keep the grid", h.MeasureMono("▶❚×±·…"), 6 * 8},
			{"mono at scale 2", h2.MeasureMono("0123456789"), 170},
			{"a rune outside the set draws as ?", h.Measure("Ж"), h.Measure("?")},
		}
		for _, tc := range tests {
			if tc.got != tc.want {
				t.Errorf("%s: got %g, want %g", tc.name, tc.got, tc.want)
			}
		}
		// Go fonts: ascent 1935 + descent 432 units of 2048 are 13.2 + 3.0
		// px at 14 px, which hinting rounds up to 14 + 3.
		if lh := h.LineHeight(); lh < 16 || lh > 18 {
			t.Errorf("LineHeight = %g, want 16..18 for 14 px text", lh)
		}
		if lh, lh2 := h.LineHeight(), h2.LineHeight(); lh2 < 2*lh-2 || lh2 > 2*lh+2 {
			t.Errorf("LineHeight at scale 2 = %g, want about twice %g", lh2, lh)
		}
		return nil
	})
}

// TestHUDGlyphSet checks that every advertised symbol has a glyph of its
// own in both faces rather than the '?' fallback.
func TestHUDGlyphSet(t *testing.T) {
	withHUDs(t, 0, 0, []float32{1}, func(_ *Target, hs []*HUD) error {
		h := hs[0]
		for fi, name := range []string{"regular", "mono"} {
			f := &h.faces[fi]
			for r := rune(0x20); r < 0x7f; r++ {
				if r != '?' && f.index(r) == int(f.missing) {
					t.Errorf("%s face: %q draws as ?", name, r)
				}
			}
			for _, r := range HUDSymbols {
				if f.index(r) == int(f.missing) {
					t.Errorf("%s face: symbol %q draws as ?", name, r)
				}
				if g := f.glyphs[f.index(r)]; g.adv <= 0 || g.w <= 0 {
					t.Errorf("%s face: symbol %q has an empty glyph (%gx%g, advance %g)", name, r, g.w, g.h, g.adv)
				}
			}
		}
		return nil
	})
}

func TestNewHUDRejectsBadScale(t *testing.T) {
	for _, s := range []float32{0, -1, 100, float32(math.NaN())} {
		if h, err := NewHUD(s); err == nil {
			h.Destroy()
			t.Errorf("NewHUD(%g) succeeded, want an error", s)
		}
	}
}

// TestHUDFrameAllocatesNothing proves the per-frame path reuses its
// buffers once warmed up.
func TestHUDFrameAllocatesNothing(t *testing.T) {
	withHUDs(t, 360, 200, []float32{1, 3}, func(tg *Target, hs []*HUD) error {
		h, big := hs[0], hs[1]
		frame := func() {
			drawHUDPanel(h, big)
			h.Flush(tg, tg.Width, tg.Height)
			big.Flush(tg, tg.Width, tg.Height)
		}
		frame()
		if n := testing.AllocsPerRun(20, frame); n != 0 {
			t.Errorf("a HUD frame allocates %g times, want 0", n)
		}
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		return nil
	})
}

// TestHUDKerning gives the regular face a kerning table, as a font with
// a kern table would have (the Go fonts have none), and checks that Text
// applies it between the pair only.
func TestHUDKerning(t *testing.T) {
	withHUDs(t, 0, 0, []float32{1}, func(_ *Target, hs []*HUD) error {
		h := hs[0]
		a, v := h.Measure("A"), h.Measure("V")
		f := &h.faces[0]
		n := len(f.glyphs)
		f.kern = make([]int8, n*n)
		f.kern[f.index('A')*n+f.index('V')] = -2
		tests := []struct {
			s    string
			want float32
		}{
			{"AV", a + v - 2},
			{"VA", v + a},
			{"AAV", 2*a + v - 2},
		}
		for _, tc := range tests {
			if got := h.Measure(tc.s); got != tc.want {
				t.Errorf("Measure(%q) = %g, want %g", tc.s, got, tc.want)
			}
		}
		return nil
	})
}

// ExampleHUD draws a status line over a frame. It needs a current GL
// context, so it has no checked output.
func ExampleHUD() {
	hud, err := NewHUD(1) // once per window, with its content scale
	if err != nil {
		log.Fatal(err)
	}
	defer hud.Destroy()

	// Every frame, after the 3D pass:
	white := color.NRGBA{R: 255, G: 255, B: 255, A: 255}
	lh := hud.LineHeight()
	hud.Rect(8, 8, 240, lh+8, color.NRGBA{A: 160})
	w := hud.Text(12, 12, "walk ", white)
	hud.Mono(12+w, 12, "0.533 / 1.000 s", white)
	hud.Flush(nil, 1280, 720) // nil: the window's framebuffer
}
