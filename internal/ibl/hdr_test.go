package ibl

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// hdrFile builds a Radiance file: the header lines, an empty line, the
// resolution line and the raw scanline bytes.
func hdrFile(header []string, res string, data []byte) []byte {
	var b bytes.Buffer
	for _, l := range header {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n" + res + "\n")
	b.Write(data)
	return b.Bytes()
}

var stdHeader = []string{"#?RADIANCE", "# made by hand", "FORMAT=32-bit_rle_rgbe"}

// flatFile is 2×1 flat: (128,64,0,129) and (255,1,16,136).
// By m × 2^(e−136): 2^(129−136) = 1/128 gives 1, 0.5, 0; 2^0 gives 255, 1, 16.
func flatFile() []byte {
	return hdrFile(stdHeader, "-Y 1 +X 2", []byte{128, 64, 0, 129, 255, 1, 16, 136})
}

// rleFile is 8×2. Row 0 is run-length encoded:
//
//	R: one run of 8 × 128        → 128/128 = 1
//	G: 8 literals 0…7            → x/128
//	B: runs 4 × 16, 4 × 32       → 0.125, then 0.25
//	E: one run of 8 × 129        (2^−7)
//
// Row 1 is flat: black (e = 0) except pixel 3 = (200,100,50,130), 2^−6:
// 3.125, 1.5625, 0.78125.
func rleFile() []byte {
	row0 := []byte{2, 2, 0, 8,
		0x88, 128,
		8, 0, 1, 2, 3, 4, 5, 6, 7,
		0x84, 16, 0x84, 32,
		0x88, 129}
	row1 := make([]byte, 32)
	copy(row1[12:], []byte{200, 100, 50, 130})
	row1[0], row1[1], row1[2], row1[3] = 9, 9, 9, 0 // e = 0: black whatever the mantissas
	return hdrFile([]string{"#?RGBE", "FORMAT=32-bit_rle_rgbe"}, "-Y 2 +X 8", append(row0, row1...))
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestParseHDRFlat(t *testing.T) {
	e, err := ParseHDR(bytes.NewReader(flatFile()))
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{1, 0.5, 0, 255, 1, 16}
	if e.W != 2 || e.H != 1 || len(e.Pix) != 6 {
		t.Fatalf("got %d×%d with %d values, want 2×1 with 6", e.W, e.H, len(e.Pix))
	}
	for i, w := range want {
		if e.Pix[i] != w {
			t.Errorf("Pix[%d] = %v, want %v", i, e.Pix[i], w)
		}
	}
}

func TestParseHDRRLE(t *testing.T) {
	e, err := ParseHDR(bytes.NewReader(rleFile()))
	if err != nil {
		t.Fatal(err)
	}
	if e.W != 8 || e.H != 2 {
		t.Fatalf("got %d×%d, want 8×2", e.W, e.H)
	}
	for x := 0; x < 8; x++ {
		b := float32(0.125)
		if x >= 4 {
			b = 0.25
		}
		want := [3]float32{1, float32(x) / 128, b}
		got := [3]float32{e.Pix[3*x], e.Pix[3*x+1], e.Pix[3*x+2]}
		if got != want {
			t.Errorf("row 0 pixel %d = %v, want %v", x, got, want)
		}
		want = [3]float32{}
		if x == 3 {
			want = [3]float32{3.125, 1.5625, 0.78125}
		}
		k := 3 * (8 + x)
		got = [3]float32{e.Pix[k], e.Pix[k+1], e.Pix[k+2]}
		if got != want {
			t.Errorf("row 1 pixel %d = %v, want %v", x, got, want)
		}
	}
}

// The file stores real × exposure: EXPOSURE 2, 0.5 and 4 multiply to 4,
// so the flat file's first pixel (1, 0.5, 0) reads (0.25, 0.125, 0).
func TestParseHDRExposure(t *testing.T) {
	h := []string{"#?RADIANCE", "EXPOSURE=2", "FORMAT=32-bit_rle_rgbe", "EXPOSURE= 0.5", "EXPOSURE=4"}
	e, err := ParseHDR(bytes.NewReader(hdrFile(h, "-Y 1 +X 2", []byte{128, 64, 0, 129, 255, 1, 16, 136})))
	if err != nil {
		t.Fatal(err)
	}
	if e.Pix[0] != 0.25 || e.Pix[1] != 0.125 || e.Pix[2] != 0 || e.Pix[3] != 63.75 {
		t.Errorf("got %v, want [0.25 0.125 0 63.75 …]", e.Pix)
	}
}

func TestParseHDRErrors(t *testing.T) {
	flat := []byte{128, 64, 0, 129, 255, 1, 16, 136}
	rle := rleFile()
	rleData := rle[len(rle)-(21+32):]
	mod := func(f func(b []byte)) []byte {
		b := append([]byte(nil), rleData...)
		f(b)
		return hdrFile([]string{"#?RGBE"}, "-Y 2 +X 8", b)
	}
	long := "#?RADIANCE\n" + "# " + strings.Repeat("x", 5000) + "\n"
	cases := []struct {
		name string
		file []byte
		want []string
	}{
		{"empty", nil, []string{"empty file"}},
		{"bad magic", hdrFile([]string{"P6"}, "-Y 1 +X 2", flat), []string{"header line 1", "bad magic"}},
		{"xyze", hdrFile([]string{"#?RADIANCE", "FORMAT=32-bit_rle_xyze"}, "-Y 1 +X 2", flat), []string{"header line 2", "32-bit_rle_xyze"}},
		{"unknown format", hdrFile([]string{"#?RADIANCE", "FORMAT=rgba"}, "-Y 1 +X 2", flat), []string{"header line 2", "FORMAT"}},
		{"bad exposure", hdrFile([]string{"#?RADIANCE", "EXPOSURE=-1"}, "-Y 1 +X 2", flat), []string{"header line 2", "EXPOSURE"}},
		{"header never ends", []byte("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n"), []string{"header line 3", "ends before the header"}},
		{"long header line", []byte(long), []string{"header line 2", "longer than"}},
		{"orientation +Y", hdrFile(stdHeader, "+Y 1 +X 2", flat), []string{"resolution line", `"+Y +X"`, "not supported"}},
		{"orientation -X", hdrFile(stdHeader, "-Y 1 -X 2", flat), []string{"resolution line", `"-Y -X"`}},
		{"orientation +X first", hdrFile(stdHeader, "+X 2 -Y 1", flat), []string{"resolution line", `"+X -Y"`}},
		{"not a resolution", hdrFile(stdHeader, "hello", flat), []string{"resolution line", "not a resolution"}},
		{"not integers", hdrFile(stdHeader, "-Y one +X 2", flat), []string{"not integers"}},
		{"zero size", hdrFile(stdHeader, "-Y 0 +X 2", flat), []string{"size 2×0"}},
		{"too wide", hdrFile(stdHeader, "-Y 1 +X 16385", flat), []string{"size 16385×1", "16384×8192"}},
		{"too tall", hdrFile(stdHeader, "-Y 8193 +X 1", flat), []string{"size 1×8193"}},
		{"truncated flat", hdrFile(stdHeader, "-Y 1 +X 2", flat[:7]), []string{"scanline 0", "truncated at byte offset"}},
		{"truncated rle", hdrFile([]string{"#?RGBE"}, "-Y 2 +X 8", rleData[:10]), []string{"scanline 0", "truncated"}},
		{"truncated second line", hdrFile([]string{"#?RGBE"}, "-Y 2 +X 8", rleData[:30]), []string{"scanline 1", "truncated"}},
		{"rle width", mod(func(b []byte) { b[3] = 9 }), []string{"scanline 0", "9 pixels", "8 wide"}},
		{"run overruns", mod(func(b []byte) { b[4] = 0x89 }), []string{"scanline 0 channel 0", "run of 9"}},
		{"literals overrun", mod(func(b []byte) { b[6] = 9 }), []string{"scanline 0 channel 1", "9 literal bytes"}},
		{"zero run", mod(func(b []byte) { b[6] = 0 }), []string{"scanline 0 channel 1", "zero-length run"}},
	}
	for _, tc := range cases {
		_, err := ParseHDR(bytes.NewReader(tc.file))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("%s: error spans lines: %q", tc.name, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q does not say %q", tc.name, msg, w)
			}
		}
	}
}

// The byte offset of a truncation is the file's length: the header of
// flatFile is 11+15+23+1+10 = 60 bytes, and 7 of the 8 pixel bytes follow.
func TestParseHDRTruncationOffset(t *testing.T) {
	f := flatFile()
	_, err := ParseHDR(bytes.NewReader(f[:len(f)-1]))
	want := "scanline 0 (byte offset 60): file truncated at byte offset 67"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error saying %q", err, want)
	}
}

func FuzzParseHDR(f *testing.F) {
	f.Add(flatFile())
	f.Add(rleFile())
	f.Add(hdrFile(stdHeader, "-Y 1 +X 16384", []byte{2, 2, 64, 0, 0xff, 1}))
	f.Add([]byte("#?RADIANCE\n\n-Y 3 +X 1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := ParseHDR(bytes.NewReader(b))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
			return
		}
		if e.W < 1 || e.H < 1 || e.W > MaxHDRWidth || e.H > MaxHDRHeight || len(e.Pix) != 3*e.W*e.H {
			t.Fatalf("accepted %d×%d with %d values", e.W, e.H, len(e.Pix))
		}
	})
}
