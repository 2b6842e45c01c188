package golden

import (
	"bytes"
	"image"
	"image/color"
	"math"
)

// DefaultThreshold is the per-pixel colour distance used when Options.Threshold
// is not positive. Renders on llvmpipe are deterministic, so a golden made by
// the code under test is matched exactly; 0.02 lets through the last-bit
// shading changes that a float reordering in the engine causes (measured:
// at most 0.013 away from silhouette edges) and catches a shading change
// a viewer could see.
const DefaultThreshold = 0.02

// DefaultMaxBadPixels is how many bad pixels are tolerated when neither
// MaxBadPixels nor MaxBadFraction is set, whatever the image size: a few
// silhouette pixels that a last-bit change in a joint flips. A digit of the
// HUD changed, or a limb moved by a pixel, is tens of pixels.
const DefaultMaxBadPixels = 8

// maxYIQDelta is the largest value yiqDelta can return (red against cyan); it
// maps the raw metric onto 0..1 as pixelmatch does.
const maxYIQDelta = 35215

// cellSize is the side of the square cells used to locate the worst region:
// small enough to point at a body part, large enough to gather a cluster.
const cellSize = 32

// Colours of the diff visualization, chosen to match pixelmatch's output.
var (
	diffRed    = color.NRGBA{R: 255, A: 255}
	diffYellow = color.NRGBA{R: 255, G: 255, A: 255}
)

// Options controls how strict a comparison is. The zero value gives the
// defaults, which suit llvmpipe renders.
type Options struct {
	// Threshold is the perceptual colour distance (0..1) above which a pixel
	// counts as different. The distance is the square root of pixelmatch's YIQ
	// delta divided by its maximum, so comparing it with Threshold is the same
	// as pixelmatch comparing the delta with Threshold². Zero or negative means
	// DefaultThreshold; use a tiny value such as 1e-9 to require exact colours.
	Threshold float64

	// MaxBadPixels is how many bad pixels are tolerated, a budget for
	// rasterizer noise. Zero means use MaxBadFraction; negative means none.
	MaxBadPixels int

	// MaxBadFraction is the tolerated share (0..1) of bad pixels, used when
	// MaxBadPixels is zero, so one setting suits several image sizes. Both
	// zero means DefaultMaxBadPixels; negative means none.
	MaxBadFraction float64
}

// threshold returns the effective Threshold.
func (o Options) threshold() float64 {
	if o.Threshold > 0 {
		return o.Threshold
	}
	return DefaultThreshold
}

// Budget returns how many bad pixels are tolerated in an image with the given
// number of pixels.
func (o Options) Budget(pixels int) int {
	switch {
	case o.MaxBadPixels < 0:
		return 0
	case o.MaxBadPixels > 0:
		return o.MaxBadPixels
	}
	f := o.MaxBadFraction
	switch {
	case f < 0:
		return 0
	case f == 0:
		return DefaultMaxBadPixels
	}
	return int(f * float64(pixels))
}

// Result describes how two images differ. Coordinates are relative to the
// top-left corner of the images (top-left origin, y down), whatever their
// Bounds().Min is.
type Result struct {
	// BadPixels is the number of pixels whose distance exceeds the threshold;
	// on a size mismatch it is every pixel of the canvas.
	BadPixels int

	// Budget is the number of bad pixels the options tolerate for this size.
	Budget int

	// MaxDelta is the largest distance seen, in the same 0..1 units as
	// Options.Threshold so the two can be compared directly; it is 1 on a size
	// mismatch.
	MaxDelta float64

	// Worst is the cellSize-square cell (clipped to the canvas) holding the
	// most bad pixels, the first one in reading order on a tie; it is empty
	// when there are none and the whole canvas on a size mismatch.
	Worst image.Rectangle

	// Diff visualizes the comparison like pixelmatch: a faded greyscale copy
	// of expected, bad pixels in red and pixels past half the threshold that
	// are not bad in yellow. Its size is the union of both sizes, and the area
	// covered by only one image is red.
	Diff *image.NRGBA

	// SizeMismatch reports that the images have different dimensions.
	SizeMismatch bool
}

// OK reports whether the images match within the budget. A size mismatch is
// never OK, whatever the budget, because a wrong framebuffer size is a bug and
// not noise.
func (r Result) OK() bool {
	return !r.SizeMismatch && r.BadPixels <= r.Budget
}

// Compare compares actual with expected pixel by pixel. Any image type is
// accepted; colours go through color.NRGBAModel and translucent pixels are
// blended over white before the YIQ metric, as pixelmatch does.
func Compare(actual, expected image.Image, opt Options) Result {
	a, e := toNRGBA(actual), toNRGBA(expected)
	aw, ah := a.Rect.Dx(), a.Rect.Dy()
	ew, eh := e.Rect.Dx(), e.Rect.Dy()
	w, h := max(aw, ew), max(ah, eh)
	ow, oh := min(aw, ew), min(ah, eh) // the overlap, compared pixel by pixel

	// The raw metric is compared with the squared threshold, as pixelmatch
	// does, which saves a square root per pixel.
	t := opt.threshold()
	limit := t * t * maxYIQDelta
	half := limit / 4 // distance above Threshold/2

	res := Result{
		Budget:       opt.Budget(w * h),
		Diff:         image.NewNRGBA(image.Rect(0, 0, w, h)),
		SizeMismatch: aw != ew || ah != eh,
	}
	cols := (w + cellSize - 1) / cellSize
	cells := make([]int, cols*((h+cellSize-1)/cellSize))
	maxRaw := 0.0
	out := res.Diff.Pix
	for y := range h {
		orow := out[y*res.Diff.Stride : y*res.Diff.Stride+4*w]
		start := 0
		if y < oh {
			arow := a.Pix[y*a.Stride : y*a.Stride+4*ow]
			erow := e.Pix[y*e.Stride : y*e.Stride+4*ow]
			if bytes.Equal(arow, erow) {
				// Fast path: identical rows need no colour maths beyond
				// the faded background.
				greyRow(orow, erow)
			} else {
				for i := 0; i < len(erow); i += 4 {
					ap, ep := arow[i:i+4:i+4], erow[i:i+4:i+4]
					d := yiqDelta(ap, ep)
					maxRaw = max(maxRaw, d)
					switch {
					case d > limit:
						putColor(orow[i:i+4:i+4], diffRed)
						res.BadPixels++
						cells[(y/cellSize)*cols+(i/4)/cellSize]++
					case d > half:
						putColor(orow[i:i+4:i+4], diffYellow)
					default:
						putGrey(orow[i:i+4:i+4], ep)
					}
				}
			}
			start = ow
		}
		// Pixels present in only one image cannot match anything.
		for x := start; x < w; x++ {
			putColor(orow[4*x:4*x+4:4*x+4], diffRed)
		}
	}

	res.MaxDelta = math.Sqrt(maxRaw / maxYIQDelta)
	if res.SizeMismatch {
		res.BadPixels = w * h
		res.MaxDelta = 1
		res.Worst = res.Diff.Rect
		return res
	}
	if res.BadPixels > 0 {
		best := 0
		for i, n := range cells {
			if n > cells[best] {
				best = i
			}
		}
		corner := image.Pt(best%cols*cellSize, best/cols*cellSize)
		res.Worst = image.Rectangle{Min: corner, Max: corner.Add(image.Pt(cellSize, cellSize))}.Intersect(res.Diff.Rect)
	}
	return res
}

// Delta returns the perceptual distance (0..1) between two colours, in the
// units of Options.Threshold and Spot.Tolerance.
func Delta(a, b color.Color) float64 {
	ac := color.NRGBAModel.Convert(a).(color.NRGBA)
	bc := color.NRGBAModel.Convert(b).(color.NRGBA)
	d := yiqDelta([]uint8{ac.R, ac.G, ac.B, ac.A}, []uint8{bc.R, bc.G, bc.B, bc.A})
	return math.Sqrt(d / maxYIQDelta)
}

// yiqDelta returns pixelmatch's squared YIQ distance between two NRGBA pixels
// (Kotsalos et al. 2010), after blending each over white. YIQ is linear in RGB,
// so the differences are transformed directly instead of each colour.
func yiqDelta(p, q []uint8) float64 {
	if p[0] == q[0] && p[1] == q[1] && p[2] == q[2] && p[3] == q[3] {
		return 0
	}
	r1, g1, b1 := blendWhite(p)
	r2, g2, b2 := blendWhite(q)
	dr, dg, db := r1-r2, g1-g2, b1-b2
	dy := dr*0.29889531 + dg*0.58662247 + db*0.11448223
	di := dr*0.59597799 - dg*0.27417610 - db*0.32180189
	dq := dr*0.21147017 - dg*0.52261711 + db*0.31114694
	return 0.5053*dy*dy + 0.299*di*di + 0.1957*dq*dq
}

// blendWhite composites a non-premultiplied pixel over white, so that a
// transparent background compares equal to a white one as in pixelmatch.
func blendWhite(p []uint8) (r, g, b float64) {
	r, g, b = float64(p[0]), float64(p[1]), float64(p[2])
	if p[3] < 255 {
		a := float64(p[3]) / 255
		r, g, b = 255+(r-255)*a, 255+(g-255)*a, 255+(b-255)*a
	}
	return r, g, b
}

// putGrey writes pixelmatch's faded greyscale of p (luma blended 90% towards
// white) so the diff shows the scene for orientation without competing with
// the red marks.
func putGrey(dst, p []uint8) {
	y := float64(p[0])*0.29889531 + float64(p[1])*0.58662247 + float64(p[2])*0.11448223
	v := 255 + (y-255)*0.1*float64(p[3])/255
	g := uint8(min(max(v+0.5, 0), 255))
	dst[0], dst[1], dst[2], dst[3] = g, g, g, 255
}

// greyRow writes the faded greyscale of a row, reusing the previous result
// while the colour repeats: renders are mostly flat background, so this skips
// most of the floating-point work on identical images.
func greyRow(dst, src []uint8) {
	var last [4]uint8
	var grey uint8
	have := false
	for i := 0; i < len(src); i += 4 {
		p := [4]uint8(src[i : i+4])
		if !have || p != last {
			putGrey(dst[i:i+4:i+4], p[:])
			last, grey, have = p, dst[i], true
			continue
		}
		dst[i], dst[i+1], dst[i+2], dst[i+3] = grey, grey, grey, 255
	}
}

// putColor writes c into the four bytes of dst.
func putColor(dst []uint8, c color.NRGBA) {
	dst[0], dst[1], dst[2], dst[3] = c.R, c.G, c.B, c.A
}

// toNRGBA returns img as an *image.NRGBA whose bounds start at (0,0), sharing
// the pixels of an *image.NRGBA and converting anything else once, so the
// comparison loop can index bytes instead of calling At per pixel.
func toNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if b.Empty() {
		return image.NewNRGBA(image.Rectangle{})
	}
	switch m := img.(type) {
	case *image.NRGBA:
		return &image.NRGBA{Pix: m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], Stride: m.Stride, Rect: image.Rect(0, 0, w, h)}
	case *image.RGBA:
		// GL read-backs usually arrive as RGBA; un-premultiply inline with
		// the same integer arithmetic as color.NRGBAModel so both paths agree.
		dst := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*w]
			row := dst.Pix[y*dst.Stride:][:4*w]
			for i := 0; i < len(src); i += 4 {
				a := src[i+3]
				switch a {
				case 255:
					copy(row[i:i+4], src[i:i+4])
				case 0:
					// Already zero from NewNRGBA.
				default:
					a16 := uint32(a) * 0x101
					for c := range 3 {
						row[i+c] = uint8((uint32(src[i+c]) * 0x101 * 0xffff / a16) >> 8)
					}
					row[i+3] = a
				}
			}
		}
		return dst
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			dst.SetNRGBA(x, y, color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA))
		}
	}
	return dst
}
