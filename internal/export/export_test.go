package export

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"testing"
)

func TestDelays(t *testing.T) {
	cases := []struct {
		fps   float64
		n     int
		first []int
		sum   int
	}{
		// 100/30 = 3.33…: running sums 3.33, 6.67, 10 round to 3, 7, 10.
		{30, 30, []int{3, 4, 3, 3, 4, 3}, 100},
		{24, 48, []int{4, 4, 5, 4, 4, 4}, 200}, // 4.17, 8.33, 12.5→13, 16.67→17, …
		{25, 5, []int{4, 4, 4, 4, 4}, 20},
	}
	for _, tc := range cases {
		d := Delays(tc.n, tc.fps)
		sum := 0
		for _, v := range d {
			sum += v
		}
		for i, want := range tc.first {
			if d[i] != want {
				t.Errorf("%v fps: delay %d = %d, want %d (delays %v)", tc.fps, i, d[i], want, d[:len(tc.first)])
				break
			}
		}
		if sum != tc.sum {
			t.Errorf("%v fps, %d frames: %d hundredths in all, want %d", tc.fps, tc.n, sum, tc.sum)
		}
	}
}

func solid(c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 16, 8))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// TestGIFRoundTrip writes three frames of one colour each and reads them
// back: as many frames, the delays of 30 fps, looping, and each colour
// exact (three colours fit a palette of 256).
func TestGIFRoundTrip(t *testing.T) {
	cols := []color.NRGBA{{200, 30, 40, 255}, {20, 180, 60, 255}, {46, 50, 58, 255}}
	g, err := NewGIF(30)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cols {
		if err := g.Add(solid(c)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Add(image.NewNRGBA(image.Rect(0, 0, 3, 3))); err == nil {
		t.Error("a frame of another size was accepted")
	}
	back := writeBack(t, g)
	if len(back.Image) != 3 || back.LoopCount != 0 {
		t.Fatalf("%d frames, loop count %d; want 3 frames looping forever", len(back.Image), back.LoopCount)
	}
	for i, want := range []int{3, 4, 3} {
		if back.Delay[i] != want {
			t.Errorf("frame %d delay %d, want %d", i, back.Delay[i], want)
		}
	}
	for i, c := range cols {
		r, gg, b, _ := back.Image[i].At(5, 5).RGBA()
		if got := (color.NRGBA{uint8(r >> 8), uint8(gg >> 8), uint8(b >> 8), 255}); got != c {
			t.Errorf("frame %d pixel %v, want %v", i, got, c)
		}
	}
	if _, err := NewGIF(0); err == nil {
		t.Error("0 fps accepted")
	}
}

func TestVideoWithoutFFmpeg(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := NewVideo(t.TempDir()+"/x.mp4", 30); !errors.Is(err, ErrNoFFmpeg) {
		t.Fatalf("without ffmpeg: %v, want ErrNoFFmpeg", err)
	}
}

// TestGIFKeepsUpTo256Colours: a frame of 200 greys, one a column, comes
// back within two levels: a palette of 256 colours cut from 800 pixels
// puts at most two neighbouring greys in a colour, within a level of
// both, and dithering spreads at most a level more.
func TestGIFKeepsUpTo256Colours(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 200, 4))
	for x := range 200 {
		for y := range 4 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(x), uint8(x), 255})
		}
	}
	g, err := NewGIF(30)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Add(img); err != nil {
		t.Fatal(err)
	}
	back := writeBack(t, g)
	worst := 0
	for x := range 200 {
		for y := range 4 {
			r, _, _, _ := back.Image[0].At(x, y).RGBA()
			worst = max(worst, int(r>>8)-x, x-int(r>>8))
		}
	}
	if worst > 2 {
		t.Errorf("a grey came back %d levels off; want at most 2 (256 colours for 200 greys: each palette entry within a level of its pixels)", worst)
	}
}

// writeBack writes g and decodes what it wrote.
func writeBack(t *testing.T, g *GIF) *gif.GIF {
	t.Helper()
	var buf bytes.Buffer
	if err := g.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return back
}
