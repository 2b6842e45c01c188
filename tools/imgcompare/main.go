// Command imgcompare compares two pictures of one model, as drawn by two
// renderers at the same camera on backgrounds of known colours: the
// silhouettes' intersection over union, and the mean CIE76 colour
// difference (ΔE*ab, CIELAB under D65 from sRGB) over the pixels both
// silhouettes cover.
//
//	go run ./tools/imgcompare [-tol 3] A.png BG_A B.png BG_B
//
// BG_A and BG_B are the backgrounds as R,G,B (0–255). A pixel belongs to
// a silhouette where any channel is more than -tol away from the
// background. It prints one JSON line:
// {"iou":..,"mean_de":..,"a":pixels,"b":pixels,"both":pixels}.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"image"
	_ "image/png"
	"math"
	"os"
	"strconv"
	"strings"
)

func main() {
	tol := flag.Int("tol", 3, "a channel further than this from the background is silhouette")
	flag.Parse()
	if flag.NArg() != 4 {
		fmt.Fprintln(os.Stderr, "usage: imgcompare [-tol N] A.png R,G,B B.png R,G,B")
		os.Exit(2)
	}
	res, err := compareFiles(flag.Arg(0), flag.Arg(1), flag.Arg(2), flag.Arg(3), *tol)
	if err != nil {
		fmt.Fprintln(os.Stderr, "imgcompare:", err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(res)
}

// Result is what compare measures.
type Result struct {
	IoU    float64 `json:"iou"`
	MeanDE float64 `json:"mean_de"`
	A      int     `json:"a"`
	B      int     `json:"b"`
	Both   int     `json:"both"`
}

func compareFiles(pa, bga, pb, bgb string, tol int) (Result, error) {
	var imgs [2]image.Image
	var bgs [2][3]int
	for i, p := range []string{pa, pb} {
		f, err := os.Open(p)
		if err != nil {
			return Result{}, err
		}
		imgs[i], _, err = image.Decode(f)
		f.Close()
		if err != nil {
			return Result{}, fmt.Errorf("%s: %w", p, err)
		}
		if bgs[i], err = parseRGB([]string{bga, bgb}[i]); err != nil {
			return Result{}, err
		}
	}
	if imgs[0].Bounds().Size() != imgs[1].Bounds().Size() {
		return Result{}, fmt.Errorf("%s is %v, %s is %v: want the same size", pa, imgs[0].Bounds().Size(), pb, imgs[1].Bounds().Size())
	}
	return compare(imgs[0], bgs[0], imgs[1], bgs[1], tol), nil
}

func parseRGB(s string) ([3]int, error) {
	var c [3]int
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return c, fmt.Errorf("background %q: want R,G,B", s)
	}
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 0 || v > 255 {
			return c, fmt.Errorf("background %q: want R,G,B from 0 to 255", s)
		}
		c[i] = v
	}
	return c, nil
}

// compare measures a against b (same size).
func compare(a image.Image, bga [3]int, b image.Image, bgb [3]int, tol int) Result {
	var r Result
	union := 0
	sum := 0.0
	ba, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ba.Dy(); y++ {
		for x := 0; x < ba.Dx(); x++ {
			ca, cb := rgb8(a, ba.Min.X+x, ba.Min.Y+y), rgb8(b, bb.Min.X+x, bb.Min.Y+y)
			ina, inb := away(ca, bga, tol), away(cb, bgb, tol)
			if ina {
				r.A++
			}
			if inb {
				r.B++
			}
			if ina || inb {
				union++
			}
			if ina && inb {
				r.Both++
				sum += deltaE76(ca, cb)
			}
		}
	}
	if union > 0 {
		r.IoU = float64(r.Both) / float64(union)
	}
	if r.Both > 0 {
		r.MeanDE = sum / float64(r.Both)
	}
	return r
}

func rgb8(img image.Image, x, y int) [3]int {
	r, g, b, _ := img.At(x, y).RGBA()
	return [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
}

func away(c, bg [3]int, tol int) bool {
	for i := range 3 {
		if d := c[i] - bg[i]; d > tol || -d > tol {
			return true
		}
	}
	return false
}

// deltaE76 is the Euclidean distance of two sRGB colours in CIELAB (D65).
func deltaE76(a, b [3]int) float64 {
	la, lb := lab(a), lab(b)
	return math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2]))
}

// lab converts an 8-bit sRGB colour to CIELAB under D65 (IEC 61966-2-1
// for the transfer function and the XYZ matrix; CIE 15 for L*a*b*).
func lab(c [3]int) [3]float64 {
	var lin [3]float64
	for i, v := range c {
		s := float64(v) / 255
		if s <= 0.04045 {
			lin[i] = s / 12.92
		} else {
			lin[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	x := 0.4124*lin[0] + 0.3576*lin[1] + 0.1805*lin[2]
	y := 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
	z := 0.0193*lin[0] + 0.1192*lin[1] + 0.9505*lin[2]
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x/0.95047), f(y/1.0), f(z/1.08883)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}
