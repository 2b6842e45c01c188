package ibl

import "math"

// softbox is a rectangular area light of Studio: a planar rectangle seen
// from the origin, centred on direction center, its width along across
// (a unit vector perpendicular to center) and its height along
// center × across. width and height are full angular sizes in degrees as
// seen from the origin along each axis; radiance is white (R = G = B).
type softbox struct {
	center, across [3]float64
	width, height  float64
	radiance       float64
}

// dirAzEl is the unit direction at elevation el above the horizon and
// azimuth az measured from +Z (the front, where the default camera looks
// from) towards +X (the viewer's right); degrees.
func dirAzEl(az, el float64) [3]float64 {
	a, e := az*math.Pi/180, el*math.Pi/180
	return [3]float64{math.Cos(e) * math.Sin(a), math.Sin(e), math.Cos(e) * math.Cos(a)}
}

var studioLights = []softbox{
	{center: dirAzEl(-45, 40), across: dirAzEl(45, 0), width: 36, height: 28, radiance: 9},           // key
	{center: dirAzEl(50, 15), across: dirAzEl(140, 0), width: 36, height: 28, radiance: 2.5},         // fill
	{center: [3]float64{0, 1, 0}, across: [3]float64{1, 0, 0}, width: 70, height: 12, radiance: 4.5}, // overhead
}

// Studio is the built-in neutral environment, white light only, as a
// w×h equirect: a soft grey room of radiance 0.35 + 0.25·y above the
// horizon (0.35 at the horizon to 0.6 straight up) and 0.35 + 0.15·y below
// it (0.2 straight down), with three white rectangular softboxes added
// over it, their edges feathered over about 1°. Azimuth is measured from
// +Z (the front, where the default camera looks from) towards +X (the
// viewer's right), elevation above the horizon; sizes are full angles:
//
//   - key: front-left and above, azimuth −45° (towards −X, +Z), elevation
//     40°, 36° wide by 28° high, radiance 9;
//   - fill: front-right, azimuth +50°, elevation 15°, 36°×28°, radiance 2.5;
//   - overhead: a strip straight above (+Y), 70° along X by 12° along Z,
//     radiance 4.5.
//
// It is deterministic. w and h are
// clamped to at least 1.
func Studio(w, h int) *Equirect {
	w, h = max(w, 1), max(h, 1)
	type box struct {
		c, a, b    [3]float64
		tw, th, rd float64
	}
	boxes := make([]box, len(studioLights))
	for i, l := range studioLights {
		c, a := l.center, l.across
		b := [3]float64{c[1]*a[2] - c[2]*a[1], c[2]*a[0] - c[0]*a[2], c[0]*a[1] - c[1]*a[0]}
		boxes[i] = box{c, a, b, math.Tan(l.width * math.Pi / 360), math.Tan(l.height * math.Pi / 360), l.radiance}
	}
	const feather = 0.02 // in the box plane's units, about 1° near the centre
	soft := func(half, q float64) float64 {
		return min(max((half-math.Abs(q))/feather+0.5, 0), 1)
	}
	e := &Equirect{W: w, H: h, Pix: make([]float32, 3*w*h)}
	for j := 0; j < h; j++ {
		v := (float64(j) + 0.5) / float64(h)
		for i := 0; i < w; i++ {
			x, y, z := equirectDir((float64(i)+0.5)/float64(w), v)
			L := 0.35 + 0.25*y
			if y < 0 {
				L = 0.35 + 0.15*y
			}
			for _, bx := range boxes {
				dc := x*bx.c[0] + y*bx.c[1] + z*bx.c[2]
				if dc <= 0 {
					continue
				}
				p := (x*bx.a[0] + y*bx.a[1] + z*bx.a[2]) / dc
				q := (x*bx.b[0] + y*bx.b[1] + z*bx.b[2]) / dc
				if k := soft(bx.tw, p) * soft(bx.th, q); k > 0 {
					L += k * bx.rd
				}
			}
			k := 3 * (j*w + i)
			e.Pix[k], e.Pix[k+1], e.Pix[k+2] = float32(L), float32(L), float32(L)
		}
	}
	return e
}
