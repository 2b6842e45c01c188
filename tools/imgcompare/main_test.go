package main

import (
	"image"
	"image/color"
	"math"
	"testing"
)

// Lab values of reference colours, from the CIE definitions by hand:
// white is (100, 0, 0); black (0, 0, 0); sRGB red (255, 0, 0) is about
// (53.24, 80.09, 67.20), as every colour table gives it.
func TestLabOfReferenceColours(t *testing.T) {
	for _, c := range []struct {
		rgb  [3]int
		want [3]float64
		tol  float64
	}{
		{[3]int{255, 255, 255}, [3]float64{100, 0, 0}, 0.05},
		{[3]int{0, 0, 0}, [3]float64{0, 0, 0}, 1e-9},
		{[3]int{255, 0, 0}, [3]float64{53.24, 80.09, 67.20}, 0.05},
	} {
		got := lab(c.rgb)
		for i := range 3 {
			if math.Abs(got[i]-c.want[i]) > c.tol {
				t.Errorf("lab%v = %v, want %v", c.rgb, got, c.want)
				break
			}
		}
	}
	if d := deltaE76([3]int{255, 255, 255}, [3]int{0, 0, 0}); math.Abs(d-100) > 0.05 {
		t.Errorf("ΔE white–black %v, want 100", d)
	}
}

// Two 4×1 pictures on different backgrounds: a covers pixels 0–2, b
// covers 1–3, so they share 2 of 4 (IoU 0.5); where both cover, one pixel
// is equal and one is white against black (ΔE 100): mean 50.
func TestCompareCountsBySilhouette(t *testing.T) {
	a := image.NewNRGBA(image.Rect(0, 0, 4, 1))
	b := image.NewNRGBA(image.Rect(0, 0, 4, 1))
	bgA, bgB := color.NRGBA{10, 20, 30, 255}, color.NRGBA{200, 200, 200, 255}
	for x, c := range []color.NRGBA{{255, 0, 0, 255}, {255, 255, 255, 255}, {0, 0, 0, 255}, bgA} {
		a.SetNRGBA(x, 0, c)
	}
	for x, c := range []color.NRGBA{bgB, {255, 255, 255, 255}, {255, 255, 255, 255}, {5, 5, 5, 255}} {
		b.SetNRGBA(x, 0, c)
	}
	r := compare(a, [3]int{10, 20, 30}, b, [3]int{200, 200, 200}, 3)
	if r.A != 3 || r.B != 3 || r.Both != 2 || math.Abs(r.IoU-0.5) > 1e-12 || math.Abs(r.MeanDE-50) > 0.05 {
		t.Fatalf("%+v, want a 3, b 3, both 2, IoU 0.5, mean ΔE 50", r)
	}
}
