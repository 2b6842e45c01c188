package export

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"io"
	"math"
	"sort"
)

// GIF collects frames and writes them as an animated GIF that loops,
// with one palette of up to 256 colours fitted to all of them (median cut
// over a sample of their pixels) and Floyd–Steinberg dithering. Frames are
// kept until Write; the zero value is not usable, see NewGIF.
type GIF struct {
	fps    float64
	frames []*image.NRGBA
}

// NewGIF starts a GIF played at fps frames per second (> 0).
func NewGIF(fps float64) (*GIF, error) {
	if !(fps > 0) || fps > 100 {
		return nil, fmt.Errorf("export: a GIF plays at 0 to 100 fps, not %v", fps)
	}
	return &GIF{fps: fps}, nil
}

// Add appends a frame; every frame must have the first one's size. The
// GIF keeps img.
func (g *GIF) Add(img *image.NRGBA) error {
	if len(g.frames) > 0 && img.Bounds() != g.frames[0].Bounds() {
		return fmt.Errorf("export: GIF frame %d is %v, the first was %v", len(g.frames), img.Bounds(), g.frames[0].Bounds())
	}
	g.frames = append(g.frames, img)
	return nil
}

// Delays are the frames' display times in hundredths of a second (GIF's
// unit), rounded so that their running sum stays on the exact times:
// 30 fps gives 3, 4, 3, 3, 4, 3, …
func Delays(n int, fps float64) []int {
	d := make([]int, n)
	for i := range d {
		d[i] = int(math.Round(float64(i+1)*100/fps)) - int(math.Round(float64(i)*100/fps))
	}
	return d
}

// Write encodes the frames.
func (g *GIF) Write(w io.Writer) error {
	if len(g.frames) == 0 {
		return errors.New("export: a GIF needs at least one frame")
	}
	pal := fitPalette(g.frames, 256)
	out := gif.GIF{Delay: Delays(len(g.frames), g.fps), LoopCount: 0}
	for _, f := range g.frames {
		p := image.NewPaletted(f.Bounds(), pal)
		draw.FloydSteinberg.Draw(p, f.Bounds(), f, f.Bounds().Min)
		out.Image = append(out.Image, p)
	}
	return gif.EncodeAll(w, &out)
}

// fitPalette is a median-cut palette of at most n colours for a sample of
// the frames' pixels: the box of colours with the widest channel range is
// split at its median until there are n boxes, each giving its mean.
func fitPalette(frames []*image.NRGBA, n int) color.Palette {
	// About 64k samples over all frames, on a grid so that every region
	// of every frame is seen.
	total := 0
	for _, f := range frames {
		total += f.Bounds().Dx() * f.Bounds().Dy()
	}
	step := max(1, int(math.Sqrt(float64(total)/65536)))
	var px [][3]uint8
	for _, f := range frames {
		b := f.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y += step {
			for x := b.Min.X; x < b.Max.X; x += step {
				c := f.NRGBAAt(x, y)
				px = append(px, [3]uint8{c.R, c.G, c.B})
			}
		}
	}
	boxes := [][][3]uint8{px}
	for len(boxes) < n {
		// The box with the widest range on any channel.
		best, bestCh, bestRange := -1, 0, 0
		for i, b := range boxes {
			if len(b) < 2 {
				continue
			}
			for ch := range 3 {
				lo, hi := uint8(255), uint8(0)
				for _, c := range b {
					lo, hi = min(lo, c[ch]), max(hi, c[ch])
				}
				if r := int(hi) - int(lo); r > bestRange {
					best, bestCh, bestRange = i, ch, r
				}
			}
		}
		if best < 0 {
			break // every box holds a single colour
		}
		b := boxes[best]
		sort.Slice(b, func(i, j int) bool { return b[i][bestCh] < b[j][bestCh] })
		mid := len(b) / 2
		boxes[best] = b[:mid]
		boxes = append(boxes, b[mid:])
	}
	pal := make(color.Palette, 0, len(boxes))
	for _, b := range boxes {
		if len(b) == 0 {
			continue
		}
		var s [3]int
		for _, c := range b {
			s[0], s[1], s[2] = s[0]+int(c[0]), s[1]+int(c[1]), s[2]+int(c[2])
		}
		pal = append(pal, color.NRGBA{uint8(s[0] / len(b)), uint8(s[1] / len(b)), uint8(s[2] / len(b)), 255})
	}
	return pal
}
