package render

import (
	"fmt"
	"image"
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// lines draws world-space line segments with depth test: the ground grid
// and the root-motion trail.
type lines struct {
	prog      program
	vao, vbo  uint32
	uViewProj int32
	uColor    int32
	cap       int
}

func newLines() (*lines, error) {
	p, err := linkProgram("lines.vert", "lines.frag", "")
	if err != nil {
		return nil, err
	}
	l := &lines{prog: p, uViewProj: p.uniform("uViewProj"), uColor: p.uniform("uColor")}
	gl.GenVertexArrays(1, &l.vao)
	gl.GenBuffers(1, &l.vbo)
	gl.BindVertexArray(l.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, l.vbo)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, 0, 0)
	gl.BindVertexArray(0)
	return l, nil
}

func (l *lines) destroy() {
	gl.DeleteVertexArrays(1, &l.vao)
	gl.DeleteBuffers(1, &l.vbo)
	gl.DeleteProgram(uint32(l.prog))
}

// Grid is a square ground grid of lines, drawn under the character.
type Grid struct {
	// Segments holds xyz pairs: 6 floats per line segment.
	Segments []float32
	// Color is sRGB-encoded RGBA, 0…1.
	Color [4]float32
	// The layout: lines cross at (ox, oz) and every step from it, on the
	// plane y = height, out to half either side of the centre (cx, cz).
	ox, oz, cx, cz, height, step, half float32
}

// MakeGrid lays out a grid on the plane y = height around (cx, cz): lines
// every step, half extent half, both in model units.
func MakeGrid(cx, cz, height, step, half float32) Grid {
	g := Grid{Color: [4]float32{0.36, 0.39, 0.45, 1}, ox: cx, oz: cz, height: height, step: step, half: half}
	g.lay(cx, cz)
	return g
}

// Follow moves the grid's centre to the line crossing nearest (x, z), so
// that a grid under a camera that travels (root motion, panning) never
// runs out, while its lines stay where they were on the ground instead of
// swimming along. It allocates nothing.
func (g *Grid) Follow(x, z float32) {
	if !(g.step > 0) {
		return
	}
	cx := g.ox + g.step*float32(math.Round(float64((x-g.ox)/g.step)))
	cz := g.oz + g.step*float32(math.Round(float64((z-g.oz)/g.step)))
	if cx == g.cx && cz == g.cz {
		return
	}
	g.lay(cx, cz)
}

// Centre is the point of the ground the grid is laid around.
func (g *Grid) Centre() (x, z float32) { return g.cx, g.cz }

// lay writes the segments around (cx, cz), reusing their buffer.
func (g *Grid) lay(cx, cz float32) {
	g.cx, g.cz = cx, cz
	step, half, height := g.step, g.half, g.height
	g.Segments = g.Segments[:0]
	n := int(half / step)
	for i := -n; i <= n; i++ {
		o := float32(i) * step
		g.Segments = append(g.Segments,
			cx+o, height, cz-half, cx+o, height, cz+half,
			cx-half, height, cz+o, cx+half, height, cz+o)
	}
}

// Path is a polyline in world space, drawn depth-tested with the scene
// after it: the trail root motion leaves on the ground.
type Path struct {
	// Points holds xyz triples, oldest first; fewer than two draw nothing.
	Points []float32
	// Color is sRGB-encoded RGBA, 0…1.
	Color [4]float32
}

func (l *lines) draw(vp *[16]float32, g *Grid) { l.drawVertices(vp, g.Segments, g.Color, gl.LINES) }

// drawVertices draws xyz vertices (Grid.Segments or Path.Points) as mode
// (gl.LINES or gl.LINE_STRIP) in color.
func (l *lines) drawVertices(vp *[16]float32, v []float32, color [4]float32, mode uint32) {
	if len(v) < 6 {
		return
	}
	gl.UseProgram(uint32(l.prog))
	gl.UniformMatrix4fv(l.uViewProj, 1, false, &vp[0])
	gl.Uniform4f(l.uColor, color[0], color[1], color[2], color[3])
	gl.BindVertexArray(l.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, l.vbo)
	if n := len(v) * 4; n > l.cap {
		l.cap = n
		gl.BufferData(gl.ARRAY_BUFFER, n, unsafe.Pointer(&v[0]), gl.DYNAMIC_DRAW)
	} else {
		// unsafe.Pointer, not gl.Ptr: boxing the slice allocates per frame.
		gl.BufferSubData(gl.ARRAY_BUFFER, 0, n, unsafe.Pointer(&v[0]))
	}
	gl.DrawArrays(mode, 0, int32(len(v)/3))
	gl.BindVertexArray(0)
}

// ReadFramebuffer reads w×h pixels of the default framebuffer (the
// window's back buffer before the swap), top row first.
func ReadFramebuffer(w, h int) (*image.NRGBA, error) {
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("render: cannot read a %dx%d framebuffer", w, h)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	buf := make([]byte, w*h*4)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, 0)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(buf))
	for y := 0; y < h; y++ {
		copy(img.Pix[y*img.Stride:(y+1)*img.Stride], buf[(h-1-y)*w*4:])
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	return img, nil
}
