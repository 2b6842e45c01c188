package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

const atlasSize = 128

// region is a rectangle of the texture atlas, in pixels, used by the parts
// that share one look (both arms share the sleeve region, and so on).
type region int

const (
	regHead region = iota
	regTorso
	regFoot
	regSleeve
	regHand
	regNeck
	regShoulder
	regLeg
	regionCount
)

var regionRects = [regionCount]image.Rectangle{
	regHead:     image.Rect(0, 0, 64, 56),
	regTorso:    image.Rect(0, 56, 64, 104),
	regFoot:     image.Rect(0, 104, 64, 128),
	regSleeve:   image.Rect(64, 0, 96, 64),
	regHand:     image.Rect(96, 0, 128, 24),
	regNeck:     image.Rect(96, 24, 128, 40),
	regShoulder: image.Rect(96, 40, 128, 64),
	regLeg:      image.Rect(64, 64, 128, 128),
}

// uv maps a part's (fu, fv) in [0,1] into the region, one pixel in from its
// border: the border pixels repeat the edge colours, so bilinear filtering
// never picks up a neighbouring region.
func (r region) uv(fu, fv float64) [2]float64 {
	rc := regionRects[r]
	x := float64(rc.Min.X) + 1 + fu*float64(rc.Dx()-2)
	y := float64(rc.Min.Y) + 1 + fv*float64(rc.Dy()-2)
	return [2]float64{x / atlasSize, y / atlasSize}
}

// texel returns (fu, fv) at the centre of pixel (x, y) of the region,
// clamped so the border repeats the edge.
func (r region) texel(x, y int) (fu, fv float64) {
	rc := regionRects[r]
	fu = (float64(x-rc.Min.X) + 0.5 - 1) / float64(rc.Dx()-2)
	fv = (float64(y-rc.Min.Y) + 0.5 - 1) / float64(rc.Dy()-2)
	return mgl64.Clamp(fu, 0, 1), mgl64.Clamp(fv, 0, 1)
}

// Palette. Strong contrasts between parts make the skinning easy to judge.
var (
	skinCol    = color.NRGBA{236, 190, 156, 255}
	skinShade  = color.NRGBA{214, 160, 128, 255}
	blushCol   = color.NRGBA{240, 150, 140, 255}
	hairCol    = color.NRGBA{74, 46, 30, 255}
	eyeCol     = color.NRGBA{30, 28, 40, 255}
	mouthCol   = color.NRGBA{150, 60, 60, 255}
	shirtCol   = color.NRGBA{206, 72, 58, 255}
	shirtDark  = color.NRGBA{150, 44, 38, 255}
	stripeCol  = color.NRGBA{246, 228, 196, 255}
	trouserCol = color.NRGBA{44, 56, 88, 255}
	checkCol   = color.NRGBA{64, 80, 122, 255}
	beltCol    = color.NRGBA{48, 34, 26, 255}
	buckleCol  = color.NRGBA{220, 186, 80, 255}
	sockCol    = color.NRGBA{235, 235, 228, 255}
	shoeCol    = color.NRGBA{112, 62, 36, 255}
	toeCapCol  = color.NRGBA{140, 82, 48, 255}
	soleCol    = color.NRGBA{34, 30, 30, 255}
	laceCol    = color.NRGBA{240, 236, 226, 255}
)

type painter func(fu, fv float64) color.NRGBA

func painters() [regionCount]painter {
	return [regionCount]painter{
		regHead:     paintHead,
		regTorso:    paintTorso,
		regFoot:     paintShoe,
		regSleeve:   paintSleeve,
		regHand:     func(_, fv float64) color.NRGBA { return mix(skinCol, skinShade, 0.4*fv) },
		regNeck:     func(_, _ float64) color.NRGBA { return skinCol },
		regShoulder: func(_, _ float64) color.NRGBA { return shirtCol },
		regLeg:      paintLeg,
	}
}

// buildTexture draws the atlas.
func buildTexture() image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, atlasSize, atlasSize))
	ps := painters()
	for r := region(0); r < regionCount; r++ {
		rc := regionRects[r]
		for y := rc.Min.Y; y < rc.Max.Y; y++ {
			for x := rc.Min.X; x < rc.Max.X; x++ {
				img.SetNRGBA(x, y, ps[r](r.texel(x, y)))
			}
		}
	}
	return img
}

// paintTexture is a size×size texture whose texel in column x of row y
// (from the top) is texel(x, y).
func paintTexture(size int, texel func(x, y int) color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			img.SetNRGBA(x, y, texel(x, y))
		}
	}
	return img
}

// encodePNG compresses a texture; png.Encoder is deterministic for a given
// image, which keeps the files reproducible.
func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func mix(a, b color.NRGBA, t float64) color.NRGBA {
	t = mgl64.Clamp(t, 0, 1)
	ch := func(x, y uint8) uint8 { return uint8(math.Round(lerp(float64(x), float64(y), t))) }
	return color.NRGBA{ch(a.R, b.R), ch(a.G, b.G), ch(a.B, b.B), 255}
}

// inEllipse reports whether (dx, dy) lies inside the ellipse of radii rx, ry.
func inEllipse(dx, dy, rx, ry float64) bool {
	return (dx*dx)/(rx*rx)+(dy*dy)/(ry*ry) <= 1
}

// headWarpAmount sets how much the head's UVs favour the face (and the back
// of the head) over the sides: the face gets about 1.6 times the texels.
const headWarpAmount = 0.045

// headWarp maps the angle around the head (0..1, face at 0.5) to the
// texture's u. It is monotonic because 4*pi*headWarpAmount < 1.
func headWarp(x float64) float64 {
	return x + headWarpAmount*math.Sin(4*math.Pi*x)
}

// headUnwarp inverts headWarp by bisection; the painter needs the true angle.
func headUnwarp(u float64) float64 {
	lo, hi := 0.0, 1.0
	for i := 0; i < 60; i++ {
		mid := (lo + hi) / 2
		if headWarp(mid) < u {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// paintHead works in the head's spherical angles: dt is the angle around
// the head from the face centre (+dt towards the character's left), lat the
// latitude (positive up). The front of the head is at the centre of the
// region because the part's seam is at the back.
func paintHead(fu, fv float64) color.NRGBA {
	dt := headUnwarp(fu)*2*math.Pi - math.Pi
	lat := (0.5 - fv) * math.Pi
	back := math.Max(0, -math.Cos(dt))

	// The hairline is high on the forehead and drops to the nape at the back.
	hairline := 0.36 - 0.75*back + 0.035*math.Cos(5*dt)
	if lat > hairline {
		return hairCol
	}
	for _, side := range []float64{-1, 1} {
		ex := side * 0.3 // eye centre
		if inEllipse(dt-ex, lat-0.08, 0.09, 0.12) {
			return eyeCol
		}
		// Eyebrows: short arcs above each eye.
		if d := dt - ex; math.Abs(d) < 0.13 && math.Abs(lat-0.25+0.8*d*d) < 0.03 {
			return hairCol
		}
		if inEllipse(dt-side*0.47, lat+0.12, 0.12, 0.07) {
			return blushCol
		}
	}
	// A smile: an arc below the nose with raised corners.
	if math.Abs(dt) < 0.22 && math.Abs(lat-(-0.42+2.2*dt*dt)) < 0.035 {
		return mouthCol
	}
	return skinCol
}

// paintTorso: a striped shirt over the chest, a belt with a buckle at the
// front, and the top of the trousers below it.
func paintTorso(fu, fv float64) color.NRGBA {
	y := lerp(torsoTopY, torsoBottomY, fv)
	front := math.Abs(fu-0.5) < 0.25
	switch {
	case y < 0.995:
		return trouserCheck(fu*8, (0.995-y)/0.05)
	case y < 1.035:
		if math.Abs(fu-0.5) < 0.035 {
			return buckleCol
		}
		return beltCol
	case y > 1.452:
		return shirtDark // collar
	}
	// Horizontal stripes deform visibly when the spine twists and bends.
	if math.Mod((y-1.035)/0.065, 1) < 0.32 {
		return stripeCol
	}
	// A pocket on the wearer's left chest marks the front of the body.
	if front && fu > 0.56 && fu < 0.66 && y > 1.25 && y < 1.33 {
		return shirtDark
	}
	return shirtCol
}

// paintSleeve: stripes across the arm, which show the elbow and shoulder
// bends clearly, and a dark cuff at the wrist.
func paintSleeve(_, fv float64) color.NRGBA {
	switch {
	case fv > 0.89:
		return skinCol // inside the hand, but keeps the wrist skin-coloured
	case fv > 0.83:
		return shirtDark
	case math.Mod(fv*10, 1) < 0.32:
		return stripeCol
	}
	return shirtCol
}

// trouserCheck draws the trouser check with cells at integer coordinates.
func trouserCheck(cu, cv float64) color.NRGBA {
	if (int(math.Floor(cu))+int(math.Floor(cv)))%2 == 0 {
		return trouserCol
	}
	return checkCol
}

// paintLeg: checked trousers (8 cells around, so the seam tiles) and a white
// sock just above the shoe.
func paintLeg(fu, fv float64) color.NRGBA {
	s := lerp(legTopS, legBottomS, fv)
	y := 0.90 - s
	if y < 0.135 {
		return sockCol
	}
	if y < 0.15 {
		return trouserCol // turned-up hem
	}
	return trouserCheck(fu*8, s/0.05)
}

// paintShoe: the foot's seam runs along the sole (fu 0 and 1), the top of
// the shoe is at fu 0.5, the heel at fv 0 and the toe at fv 1.
func paintShoe(fu, fv float64) color.NRGBA {
	dTop := math.Abs(fu - 0.5)
	switch {
	case dTop > 0.33:
		return soleCol
	case dTop > 0.29:
		return shoeCol
	case fv > 0.78:
		return toeCapCol
	case fv > 0.3 && fv < 0.68 && dTop < 0.1 && int(math.Floor(fv*28))%2 == 0:
		return laceCol
	}
	return shoeCol
}
