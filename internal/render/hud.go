package render

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Shape kinds, as hud.frag reads them from aShape.y.
const (
	shapeAtlas = 0 // coverage from the atlas (glyphs, and the solid block for rectangles)
	shapeDisc  = 1 // antialiased disc: uv is the offset from the centre, extent the radius
	shapeLine  = 2 // antialiased line: uv.x is the distance across, extent half the width
)

// hudVertex is one corner of a HUD quad in the layout hud.vert reads.
type hudVertex struct {
	x, y   float32 // framebuffer pixels, origin top-left, y down
	u, v   float32 // atlas coordinates, or shape-local pixels
	extent float32 // disc radius or line half width, pixels
	kind   float32 // shapeAtlas, shapeDisc or shapeLine
	rgba   [4]uint8
}

// hudGlyph is one glyph's place in the atlas and on the line.
type hudGlyph struct {
	u0, v0, u1, v1 float32 // atlas texture coordinates of the bitmap
	dx, dy         float32 // bitmap's top-left relative to the pen on the baseline, pixels
	w, h           float32 // bitmap size in pixels, zero for blanks
	adv            float32 // advance in whole pixels
}

// hudFace is one rasterized font face: glyphs indexed densely, a direct
// table for ASCII and a map for the few symbols.
type hudFace struct {
	glyphs  []hudGlyph
	ascii   [128]int16 // glyph index per ASCII rune, -1 where absent
	symbols map[rune]int16
	// kern holds whole-pixel pair adjustments, len(glyphs)² entries indexed
	// [left*len(glyphs)+right]; nil when the face has no kerning, as the Go
	// fonts have none today.
	kern    []int8
	missing int16 // the glyph drawn for runes outside the set: '?'
}

func (f *hudFace) index(r rune) int {
	if r >= 0 && r < 128 {
		if i := f.ascii[r]; i >= 0 {
			return int(i)
		}
		return int(f.missing)
	}
	if i, ok := f.symbols[r]; ok {
		return int(i)
	}
	return int(f.missing)
}

// HUD draws 2D overlays in framebuffer pixels (origin top-left, y down).
// Calls queue quads; Flush draws them all at once. It needs the GL context
// it was made in and must be used from that context's thread.
//
// Text sits on whole-pixel baselines and glyphs are drawn 1:1 from the
// atlas, so x and y are rounded to whole pixels; rectangles, frames and
// axis-aligned lines snap to whole pixels too and are never blurred.
// Colours are sRGB-encoded bytes, not premultiplied, and reach the
// framebuffer unchanged (alpha-blended over what is there).
type HUD struct {
	prog      program
	uViewport int32
	vao, vbo  uint32
	ebo       uint32
	atlas     uint32
	vboBytes  int // allocated size of vbo
	eboQuads  int // quads the index buffer covers
	verts     []hudVertex
	faces     [2]hudFace // regular, mono
	ascent    float32    // baseline below the line's top, pixels
	height    float32    // line height, pixels
	solidU    float32    // atlas coordinates of the centre of the solid block
	solidV    float32
}

// NewHUD makes a HUD for a framebuffer with the given content scale (1 on
// normal screens, 2 on most HiDPI ones): glyphs are rasterized at 14×scale
// pixels. It needs a current GL 4.1 context.
func NewHUD(scale float32) (*HUD, error) {
	if !(scale > 0) || scale > 16 {
		return nil, fmt.Errorf("render: hud content scale %g is outside (0, 16]", scale)
	}
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("render: OpenGL: %w", err)
	}
	h := &HUD{}
	bitmaps, err := h.rasterize(hudFontSize * float64(scale))
	if err != nil {
		return nil, err
	}
	if err := h.buildAtlas(bitmaps); err != nil {
		h.Destroy()
		return nil, err
	}
	if h.prog, err = linkProgram("hud.vert", "hud.frag", ""); err != nil {
		h.Destroy()
		return nil, err
	}
	h.uViewport = h.prog.uniform("uViewport")
	gl.UseProgram(uint32(h.prog))
	gl.Uniform1i(h.prog.uniform("uAtlas"), 0)
	gl.UseProgram(0)

	gl.GenVertexArrays(1, &h.vao)
	gl.GenBuffers(1, &h.vbo)
	gl.GenBuffers(1, &h.ebo)
	gl.BindVertexArray(h.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, h.vbo)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, h.ebo)
	var v hudVertex
	stride := int32(unsafe.Sizeof(v))
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 2, gl.FLOAT, false, stride, unsafe.Offsetof(v.x))
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 2, gl.FLOAT, false, stride, unsafe.Offsetof(v.u))
	gl.EnableVertexAttribArray(2)
	gl.VertexAttribPointerWithOffset(2, 2, gl.FLOAT, false, stride, unsafe.Offsetof(v.extent))
	gl.EnableVertexAttribArray(3)
	gl.VertexAttribPointerWithOffset(3, 4, gl.UNSIGNED_BYTE, true, stride, unsafe.Offsetof(v.rgba))
	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	h.verts = make([]hudVertex, 0, 4*1024)
	return h, nil
}

// solidSize is the side of the atlas's solid-white block that rectangles
// sample.
const solidSize = 3

// buildAtlas packs the bitmaps into one R8 texture, tallest first on
// shelves, with a pixel of space around each so no glyph ever samples its
// neighbour.
func (h *HUD) buildAtlas(bitmaps []glyphBitmap) error {
	area := (solidSize + 1) * (solidSize + 1)
	widest := solidSize
	for _, b := range bitmaps {
		area += (b.w + 1) * (b.h + 1)
		widest = max(widest, b.w)
	}
	width := 64
	for width*width < area*3/2 || width < widest+2 {
		width *= 2
	}
	order := make([]int, len(bitmaps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return bitmaps[order[i]].h > bitmaps[order[j]].h })
	type place struct{ x, y int }
	places := make([]place, len(bitmaps))
	x, y, shelf := 1+solidSize+1, 1, solidSize
	for _, i := range order {
		b := bitmaps[i]
		if x+b.w+1 > width {
			x, y, shelf = 1, y+shelf+1, 0
		}
		places[i] = place{x, y}
		x += b.w + 1
		shelf = max(shelf, b.h)
	}
	height := y + shelf + 1
	var maxTex int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &maxTex)
	if width > int(maxTex) || height > int(maxTex) {
		return fmt.Errorf("render: hud glyph atlas %dx%d exceeds GL_MAX_TEXTURE_SIZE %d", width, height, maxTex)
	}
	pix := make([]byte, width*height)
	for sy := 1; sy <= solidSize; sy++ {
		for sx := 1; sx <= solidSize; sx++ {
			pix[sy*width+sx] = 255
		}
	}
	h.solidU = (1 + solidSize/2 + 0.5) / float32(width)
	h.solidV = (1 + solidSize/2 + 0.5) / float32(height)
	fw, fh := float32(width), float32(height)
	for i, b := range bitmaps {
		p := places[i]
		for row := 0; row < b.h; row++ {
			copy(pix[(p.y+row)*width+p.x:], b.pix[row*b.w:(row+1)*b.w])
		}
		g := &h.faces[b.face].glyphs[b.glyph]
		g.u0, g.v0 = float32(p.x)/fw, float32(p.y)/fh
		g.u1, g.v1 = float32(p.x+b.w)/fw, float32(p.y+b.h)/fh
	}
	gl.GenTextures(1, &h.atlas)
	gl.BindTexture(gl.TEXTURE_2D, h.atlas)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R8, int32(width), int32(height), 0, gl.RED, gl.UNSIGNED_BYTE, unsafe.Pointer(&pix[0]))
	// Glyphs are drawn 1:1 at whole pixels, so nearest sampling reproduces
	// the rasterizer's antialiasing exactly where linear would smear it.
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, 0)
	gl.BindTexture(gl.TEXTURE_2D, 0)
	return nil
}

// LineHeight is the distance between successive lines' tops in pixels,
// the same for both faces.
func (h *HUD) LineHeight() float32 { return h.height }

// Text queues s in the regular face with its line's top at y and returns
// the advance width in pixels (x and y are rounded to whole pixels).
func (h *HUD) Text(x, y float32, s string, c color.NRGBA) float32 {
	return h.text(&h.faces[0], x, y, s, c, true)
}

// Mono queues s in the monospaced face, for numbers and tables whose
// columns must line up, and returns its advance width in pixels.
func (h *HUD) Mono(x, y float32, s string, c color.NRGBA) float32 {
	return h.text(&h.faces[1], x, y, s, c, true)
}

// Measure is the advance width of s in the regular face, what Text
// returns, in pixels.
func (h *HUD) Measure(s string) float32 { return h.text(&h.faces[0], 0, 0, s, color.NRGBA{}, false) }

// MeasureMono is the advance width of s in the monospaced face.
func (h *HUD) MeasureMono(s string) float32 {
	return h.text(&h.faces[1], 0, 0, s, color.NRGBA{}, false)
}

func (h *HUD) text(f *hudFace, x, y float32, s string, c color.NRGBA, draw bool) float32 {
	draw = draw && c.A != 0
	x, base := roundPx(x), roundPx(y)+h.ascent
	var pen float32
	prev := -1
	n := len(f.glyphs)
	for _, r := range s {
		i := f.index(r)
		if prev >= 0 && f.kern != nil {
			pen += float32(f.kern[prev*n+i])
		}
		g := &f.glyphs[i]
		if draw && g.w > 0 {
			h.quad(x+pen+g.dx, base+g.dy, x+pen+g.dx+g.w, base+g.dy+g.h, g.u0, g.v0, g.u1, g.v1, 0, shapeAtlas, c)
		}
		pen += g.adv
		prev = i
	}
	return pen
}

// Rect queues a filled rectangle, alpha-blended, its edges rounded to
// whole pixels. Nothing is drawn when the rounded size is empty.
func (h *HUD) Rect(x, y, w, ht float32, c color.NRGBA) {
	h.rectPx(roundPx(x), roundPx(y), roundPx(x+w), roundPx(y+ht), c)
}

// rectPx queues the rectangle with corners (x0, y0) and (x1, y1), which
// are whole pixels.
func (h *HUD) rectPx(x0, y0, x1, y1 float32, c color.NRGBA) {
	if x1 <= x0 || y1 <= y0 || c.A == 0 {
		return
	}
	h.quad(x0, y0, x1, y1, h.solidU, h.solidV, h.solidU, h.solidV, 0, shapeAtlas, c)
}

// Frame queues the outline of a rectangle, thickness pixels wide inside
// its edges. The four sides do not overlap, so a translucent frame has
// even corners.
func (h *HUD) Frame(x, y, w, ht, thickness float32, c color.NRGBA) {
	x0, y0, x1, y1 := roundPx(x), roundPx(y), roundPx(x+w), roundPx(y+ht)
	t := roundPx(thickness)
	if x1 <= x0 || y1 <= y0 || t <= 0 {
		return
	}
	if 2*t >= x1-x0 || 2*t >= y1-y0 {
		h.rectPx(x0, y0, x1, y1, c)
		return
	}
	h.rectPx(x0, y0, x1, y0+t, c)
	h.rectPx(x0, y1-t, x1, y1, c)
	h.rectPx(x0, y0+t, x0+t, y1-t, c)
	h.rectPx(x1-t, y0+t, x1, y1-t, c)
}

// Line queues a line of the given width in pixels with square ends at
// the end points. Horizontal and vertical lines are exact pixel
// rectangles (a 1-pixel line at x covers the pixel column x, like
// Rect(x, y0, 1, y1-y0)); slanted lines are antialiased.
func (h *HUD) Line(x0, y0, x1, y1, width float32, c color.NRGBA) {
	if width <= 0 || c.A == 0 {
		return
	}
	if x0 == x1 || y0 == y1 {
		w := max(1, roundPx(width))
		if x0 == x1 {
			left := roundPx(x0 - w/2)
			h.rectPx(left, roundPx(min(y0, y1)), left+w, roundPx(max(y0, y1)), c)
		} else {
			top := roundPx(y0 - w/2)
			h.rectPx(roundPx(min(x0, x1)), top, roundPx(max(x0, x1)), top+w, c)
		}
		return
	}
	dx, dy := x1-x0, y1-y0
	l := float32(math.Hypot(float64(dx), float64(dy)))
	hw := width / 2
	// Widen by a pixel beyond the edge so the fragment shader has room to
	// fade coverage out.
	e := hw + 1
	nx, ny := -dy/l*e, dx/l*e
	h.verts = append(h.verts,
		hudVertex{x0 + nx, y0 + ny, e, 0, hw, shapeLine, hudRGBA(c)},
		hudVertex{x1 + nx, y1 + ny, e, 0, hw, shapeLine, hudRGBA(c)},
		hudVertex{x0 - nx, y0 - ny, -e, 0, hw, shapeLine, hudRGBA(c)},
		hudVertex{x1 - nx, y1 - ny, -e, 0, hw, shapeLine, hudRGBA(c)},
	)
}

// Disc queues an antialiased filled circle of radius r pixels centred on
// (x, y), for sample points and markers.
func (h *HUD) Disc(x, y, r float32, c color.NRGBA) {
	if r <= 0 || c.A == 0 {
		return
	}
	e := r + 1
	h.quad(x-e, y-e, x+e, y+e, -e, -e, e, e, r, shapeDisc, c)
}

// quad queues an axis-aligned quad from (x0, y0) to (x1, y1) with uv
// running from (u0, v0) to (u1, v1).
func (h *HUD) quad(x0, y0, x1, y1, u0, v0, u1, v1, extent, kind float32, c color.NRGBA) {
	col := hudRGBA(c)
	h.verts = append(h.verts,
		hudVertex{x0, y0, u0, v0, extent, kind, col},
		hudVertex{x1, y0, u1, v0, extent, kind, col},
		hudVertex{x0, y1, u0, v1, extent, kind, col},
		hudVertex{x1, y1, u1, v1, extent, kind, col},
	)
}

func hudRGBA(c color.NRGBA) [4]uint8 { return [4]uint8{c.R, c.G, c.B, c.A} }

func roundPx(v float32) float32 { return float32(math.Floor(float64(v) + 0.5)) }

// Flush draws everything queued since the last Flush into t (nil: the
// default framebuffer), of fbWidth×fbHeight pixels, in one draw call over
// what is there, then restores the state it changed: depth test,
// culling, blending and sRGB encoding as they were, and program, vertex
// array, buffer and texture bindings to 0. It leaves t bound, the
// viewport covering it and texture unit 0 active. With an empty framebuffer (a minimized window) it draws
// nothing but still empties the queue.
func (h *HUD) Flush(t *Target, fbWidth, fbHeight int) {
	n := len(h.verts)
	if n == 0 || fbWidth <= 0 || fbHeight <= 0 {
		h.verts = h.verts[:0]
		return
	}
	bindTarget(t)
	depth := gl.IsEnabled(gl.DEPTH_TEST)
	cull := gl.IsEnabled(gl.CULL_FACE)
	blend := gl.IsEnabled(gl.BLEND)
	srgb := gl.IsEnabled(gl.FRAMEBUFFER_SRGB)
	gl.Disable(gl.DEPTH_TEST)
	gl.Disable(gl.CULL_FACE)
	gl.Disable(gl.FRAMEBUFFER_SRGB)
	gl.Enable(gl.BLEND)
	gl.BlendEquation(gl.FUNC_ADD)
	// Destination alpha accumulates coverage like a compositor would, so
	// an opaque target stays opaque.
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	gl.Viewport(0, 0, int32(fbWidth), int32(fbHeight))

	gl.UseProgram(uint32(h.prog))
	gl.Uniform2f(h.uViewport, float32(fbWidth), float32(fbHeight))
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_2D, h.atlas)
	gl.BindVertexArray(h.vao)
	quads := n / 4
	h.ensureIndices(quads)
	bytes := n * int(unsafe.Sizeof(hudVertex{}))
	gl.BindBuffer(gl.ARRAY_BUFFER, h.vbo)
	if bytes > h.vboBytes {
		h.vboBytes = max(bytes, 2*h.vboBytes)
	}
	// Orphaning: the driver hands out fresh storage instead of waiting for
	// last frame's draw to finish reading the old one.
	gl.BufferData(gl.ARRAY_BUFFER, h.vboBytes, nil, gl.STREAM_DRAW)
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, bytes, unsafe.Pointer(&h.verts[0]))
	gl.DrawElementsWithOffset(gl.TRIANGLES, int32(quads*6), gl.UNSIGNED_INT, 0)

	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	gl.BindTexture(gl.TEXTURE_2D, 0)
	gl.UseProgram(0)
	setCap(gl.DEPTH_TEST, depth)
	setCap(gl.CULL_FACE, cull)
	setCap(gl.BLEND, blend)
	setCap(gl.FRAMEBUFFER_SRGB, srgb)
	h.verts = h.verts[:0]
}

// ensureIndices grows the shared quad index buffer to cover quads quads;
// the HUD's vertex array must be bound.
func (h *HUD) ensureIndices(quads int) {
	if quads <= h.eboQuads {
		return
	}
	h.eboQuads = max(quads, 2*h.eboQuads, 1024)
	idx := make([]uint32, h.eboQuads*6)
	for q := range h.eboQuads {
		v := uint32(q * 4)
		idx[q*6+0], idx[q*6+1], idx[q*6+2] = v, v+1, v+2
		idx[q*6+3], idx[q*6+4], idx[q*6+5] = v+2, v+1, v+3
	}
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, h.ebo)
	gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, len(idx)*4, unsafe.Pointer(&idx[0]), gl.STATIC_DRAW)
}

func setCap(c uint32, on bool) {
	if on {
		gl.Enable(c)
	} else {
		gl.Disable(c)
	}
}

// Destroy frees the HUD's GL objects; the HUD is unusable afterwards.
func (h *HUD) Destroy() {
	if h.prog != 0 {
		gl.DeleteProgram(uint32(h.prog))
	}
	if h.vao != 0 {
		gl.DeleteVertexArrays(1, &h.vao)
	}
	for _, b := range []*uint32{&h.vbo, &h.ebo} {
		if *b != 0 {
			gl.DeleteBuffers(1, b)
		}
	}
	if h.atlas != 0 {
		gl.DeleteTextures(1, &h.atlas)
	}
	*h = HUD{}
}
