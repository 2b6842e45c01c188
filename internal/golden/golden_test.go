package golden_test

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/golden"
)

var (
	white = color.NRGBA{255, 255, 255, 255}
	black = color.NRGBA{0, 0, 0, 255}
	red   = color.NRGBA{255, 0, 0, 255}
	cyan  = color.NRGBA{0, 255, 255, 255}
)

// Distances below are worked out by hand from the published YIQ weights, not
// by calling the package, so a broken metric cannot agree with itself:
//
//   - white against black: the I and Q coefficients each sum to zero and the Y
//     ones to 1, so dy = 255 and delta = 0.5053*255² = 32857.13, which is
//     0.93304 of 35215, a distance of sqrt(0.93304) = 0.96594. The largest
//     possible delta is not white/black but red against cyan, about 35215.
//   - red 255 to 254: dy, di, dq = 0.29890, 0.59598, 0.21147, so delta =
//     0.5053*0.08934 + 0.299*0.35519 + 0.1957*0.04472 = 0.16010, a distance
//     of sqrt(0.16010/35215) = 0.00213.
//   - white to grey 230: dy = 25, delta = 0.5053*625 = 315.81, a distance of
//     sqrt(315.81/35215) = 0.0947: under 0.1 but over half of it.
const (
	whiteBlack = 0.96594
	oneStep    = 0.00213
	grey230    = 0.0947
)

// filled returns a w×h image of colour c.
func filled(w, h int, c color.Color) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.NewUniform(c), image.Point{}, draw.Src)
	return img
}

// withPixels returns a copy of base with the given pixels set to c.
func withPixels(base *image.NRGBA, c color.Color, pts ...image.Point) *image.NRGBA {
	img := image.NewNRGBA(base.Rect)
	copy(img.Pix, base.Pix)
	for _, p := range pts {
		img.Set(p.X, p.Y, c)
	}
	return img
}

// block returns the points of the w×h rectangle at (x, y).
func block(x, y, w, h int) []image.Point {
	var pts []image.Point
	for j := range h {
		for i := range w {
			pts = append(pts, image.Pt(x+i, y+j))
		}
	}
	return pts
}

func TestCompare(t *testing.T) {
	base := filled(100, 70, white)
	rgba := image.NewRGBA(image.Rect(0, 0, 2, 2))
	draw.Draw(rgba, rgba.Rect, image.NewUniform(color.RGBA{64, 0, 0, 128}), image.Point{}, draw.Src)
	gray := image.NewGray(image.Rect(0, 0, 2, 2))
	draw.Draw(gray, gray.Rect, image.NewUniform(color.Gray{200}), image.Point{}, draw.Src)
	// A sub-image has a non-zero origin; results must still use top-left
	// coordinates.
	offset := withPixels(filled(60, 60, white), black, image.Pt(50, 50)).SubImage(image.Rect(10, 10, 60, 60))

	tests := []struct {
		name             string
		actual, expected image.Image
		opt              golden.Options
		wantBad          int
		wantDelta        float64 // checked to ±1e-4
		wantWorst        image.Rectangle
		wantMismatch     bool
		wantOK           bool
	}{
		{
			name: "identical", actual: base, expected: filled(100, 70, white),
			wantOK: true,
		},
		{
			name: "one pixel white to black", actual: withPixels(base, black, image.Pt(3, 4)), expected: base,
			wantBad: 1, wantDelta: whiteBlack, wantWorst: image.Rect(0, 0, 32, 32), wantOK: true, // budget 7
		},
		{
			name: "red against cyan is the maximum", actual: filled(1, 1, red), expected: filled(1, 1, cyan),
			opt:     golden.Options{MaxBadPixels: -1},
			wantBad: 1, wantDelta: 1, wantWorst: image.Rect(0, 0, 1, 1),
		},
		{
			name: "one step in one channel", actual: withPixels(base, color.NRGBA{254, 255, 255, 255}, image.Pt(3, 4)), expected: base,
			wantDelta: oneStep, wantOK: true,
		},
		{
			name: "one step fails a tiny threshold", actual: withPixels(base, color.NRGBA{254, 255, 255, 255}, image.Pt(3, 4)), expected: base,
			opt:     golden.Options{Threshold: 1e-9, MaxBadPixels: -1},
			wantBad: 1, wantDelta: oneStep, wantWorst: image.Rect(0, 0, 32, 32),
		},
		{
			name: "grey 230 passes threshold 0.1", actual: withPixels(base, color.Gray{230}, image.Pt(3, 4)), expected: base,
			opt:       golden.Options{Threshold: 0.1, MaxBadPixels: -1},
			wantDelta: grey230, wantOK: true,
		},
		{
			name: "grey 230 is bad at the default threshold, within the default budget", actual: withPixels(base, color.Gray{230}, image.Pt(3, 4)), expected: base,
			wantBad: 1, wantDelta: grey230, wantWorst: image.Rect(0, 0, 32, 32), wantOK: true,
		},
		{
			name: "grey 230 fails threshold 0.05", actual: withPixels(base, color.Gray{230}, image.Pt(3, 4)), expected: base,
			opt:     golden.Options{Threshold: 0.05, MaxBadPixels: -1},
			wantBad: 1, wantDelta: grey230, wantWorst: image.Rect(0, 0, 32, 32),
		},
		{
			name: "size mismatch", actual: filled(12, 10, white), expected: filled(10, 10, white),
			wantBad: 120, wantDelta: 1, wantWorst: image.Rect(0, 0, 12, 10), wantMismatch: true,
		},
		{
			name: "size mismatch with a huge budget", actual: filled(10, 12, white), expected: filled(10, 10, white),
			opt:     golden.Options{MaxBadPixels: 1000},
			wantBad: 120, wantDelta: 1, wantWorst: image.Rect(0, 0, 10, 12), wantMismatch: true,
		},
		{
			// 3x3 cluster at (70,40) lies in cell column 2, row 1.
			name:   "worst region holds the cluster",
			actual: withPixels(withPixels(base, black, image.Pt(5, 5)), black, block(70, 40, 3, 3)...), expected: base,
			wantBad: 10, wantDelta: whiteBlack, wantWorst: image.Rect(64, 32, 96, 64),
		},
		{
			// The cell (96,64)-(128,96) is clipped to the 100x70 image.
			name:   "worst region clipped at the corner",
			actual: withPixels(base, black, block(97, 65, 3, 5)...), expected: base,
			wantBad: 15, wantDelta: whiteBlack, wantWorst: image.Rect(96, 64, 100, 70),
		},
		{
			name: "transparent equals white", actual: filled(3, 3, color.NRGBA{}), expected: filled(3, 3, white),
			wantOK: true,
		},
		{
			// 255 + (0-255)*128/255 = 127.
			name: "half-transparent black equals grey 127", actual: filled(3, 3, color.NRGBA{0, 0, 0, 128}), expected: filled(3, 3, color.Gray{127}),
			wantOK: true,
		},
		{
			// Premultiplied (64,0,0,128) is straight (64*65535/128)>>8 = 127.
			name: "RGBA against NRGBA", actual: rgba, expected: filled(2, 2, color.NRGBA{127, 0, 0, 128}),
			wantOK: true,
		},
		{
			name: "Gray against NRGBA", actual: gray, expected: filled(2, 2, color.NRGBA{200, 200, 200, 255}),
			wantOK: true,
		},
		{
			name: "non-zero origin", actual: offset, expected: filled(50, 50, white),
			opt:     golden.Options{MaxBadPixels: -1},
			wantBad: 1, wantDelta: whiteBlack, wantWorst: image.Rect(32, 32, 50, 50),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := golden.Compare(tt.actual, tt.expected, tt.opt)
			if res.BadPixels != tt.wantBad {
				t.Errorf("BadPixels = %d, want %d", res.BadPixels, tt.wantBad)
			}
			if math.Abs(res.MaxDelta-tt.wantDelta) > 1e-4 {
				t.Errorf("MaxDelta = %.6f, want %.6f", res.MaxDelta, tt.wantDelta)
			}
			if res.Worst != tt.wantWorst {
				t.Errorf("Worst = %v, want %v", res.Worst, tt.wantWorst)
			}
			if res.SizeMismatch != tt.wantMismatch {
				t.Errorf("SizeMismatch = %v, want %v", res.SizeMismatch, tt.wantMismatch)
			}
			if res.OK() != tt.wantOK {
				t.Errorf("OK() = %v, want %v (budget %d)", res.OK(), tt.wantOK, res.Budget)
			}
		})
	}
}

func TestCompareDiffImage(t *testing.T) {
	// Row 0 differs, row 1 is identical and takes the fast path.
	expected := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	actual := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	for x, c := range []color.NRGBA{white, black, white, white} {
		expected.SetNRGBA(x, 0, c)
		expected.SetNRGBA(x, 1, c)
		actual.SetNRGBA(x, 1, c)
	}
	for x, c := range []color.NRGBA{white, black, black, {230, 230, 230, 255}} {
		actual.SetNRGBA(x, 0, c)
	}
	// Greys fade the expected luma 90% towards white: white stays 255,
	// black becomes 255 - 25.5, rounded to 230.
	fadedWhite := color.NRGBA{255, 255, 255, 255}
	fadedBlack := color.NRGBA{230, 230, 230, 255}
	yellow := color.NRGBA{255, 255, 0, 255}
	want := [][]color.NRGBA{
		{fadedWhite, fadedBlack, red, yellow},
		{fadedWhite, fadedBlack, fadedWhite, fadedWhite},
	}
	res := golden.Compare(actual, expected, golden.Options{Threshold: 0.1})
	if res.Diff.Rect != image.Rect(0, 0, 4, 2) {
		t.Fatalf("Diff bounds = %v, want (0,0)-(4,2)", res.Diff.Rect)
	}
	for y, row := range want {
		for x, c := range row {
			if got := res.Diff.NRGBAAt(x, y); got != c {
				t.Errorf("Diff at (%d,%d) = %v, want %v", x, y, got, c)
			}
		}
	}
}

func TestCompareDiffSizeMismatch(t *testing.T) {
	// The overlap is still compared so a shift is visible; the rest is red.
	res := golden.Compare(filled(3, 2, white), filled(2, 3, white), golden.Options{})
	want := map[image.Point]color.NRGBA{
		{0, 0}: white, {1, 1}: white, {2, 0}: red, {0, 2}: red, {2, 2}: red,
	}
	for p, c := range want {
		if got := res.Diff.NRGBAAt(p.X, p.Y); got != c {
			t.Errorf("Diff at %v = %v, want %v", p, got, c)
		}
	}
}

func TestBudget(t *testing.T) {
	tests := []struct {
		name   string
		opt    golden.Options
		pixels int
		want   int
	}{
		{"default: a few pixels of 100x100", golden.Options{}, 10000, golden.DefaultMaxBadPixels},
		{"default: a few pixels of 2000x2000", golden.Options{}, 4000000, golden.DefaultMaxBadPixels},
		{"fraction rounds down", golden.Options{MaxBadFraction: 0.001}, 999, 0},
		{"pixels", golden.Options{MaxBadPixels: 5}, 10000, 5},
		{"pixels win over fraction", golden.Options{MaxBadPixels: 5, MaxBadFraction: 0.5}, 10000, 5},
		{"negative pixels means none", golden.Options{MaxBadPixels: -1}, 10000, 0},
		{"fraction", golden.Options{MaxBadFraction: 0.01}, 1000, 10},
		{"negative fraction means none", golden.Options{MaxBadFraction: -1}, 1000, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.opt.Budget(tt.pixels); got != tt.want {
				t.Errorf("Budget(%d) = %d, want %d", tt.pixels, got, tt.want)
			}
		})
	}
}

func TestDelta(t *testing.T) {
	tests := []struct {
		name string
		a, b color.Color
		want float64
	}{
		{"same", red, red, 0},
		{"white black", white, black, whiteBlack},
		{"symmetric", black, white, whiteBlack},
		{"red cyan", red, cyan, 1},
		{"one step", color.NRGBA{254, 255, 255, 255}, white, oneStep},
		{"premultiplied input", color.RGBA{0, 0, 0, 0}, white, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := golden.Delta(tt.a, tt.b); math.Abs(got-tt.want) > 1e-4 {
				t.Errorf("Delta = %.6f, want %.6f", got, tt.want)
			}
		})
	}
}

// recorder captures what Check and CheckSpots report instead of failing the
// real test, so failure paths can be asserted.
type recorder struct {
	testing.TB
	errs, logs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// wantOneError fails unless rec holds exactly one error containing every part.
func wantOneError(t *testing.T, rec *recorder, parts ...string) {
	t.Helper()
	if len(rec.errs) != 1 {
		t.Fatalf("got %d errors %q, want 1", len(rec.errs), rec.errs)
	}
	for _, p := range parts {
		if !strings.Contains(rec.errs[0], p) {
			t.Errorf("error %q does not contain %q", rec.errs[0], p)
		}
	}
	if !strings.HasPrefix(rec.errs[0], "golden: ") {
		t.Errorf("error %q lacks the golden: prefix", rec.errs[0])
	}
}

// wantFiles fails unless every named file exists in dir.
func wantFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("missing output: %v", err)
		}
	}
}

func TestCheckUpdateThenCompare(t *testing.T) {
	t.Chdir(t.TempDir())
	img := withPixels(filled(40, 30, white), red, block(10, 10, 5, 5)...)
	const name = "TestScreenshot/walk_0.5"

	t.Setenv(golden.UpdateEnv, "1")
	rec := &recorder{TB: t}
	golden.Check(rec, name, img, golden.Options{})
	if len(rec.errs) != 0 || len(rec.logs) != 1 || !strings.Contains(rec.logs[0], "wrote") {
		t.Fatalf("update: errors %q, logs %q; want no error and one 'wrote' log", rec.errs, rec.logs)
	}
	path := filepath.Join("testdata", "golden", "TestScreenshot", "walk_0.5.png")
	saved, err := golden.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if res := golden.Compare(img, saved, golden.Options{Threshold: 1e-9, MaxBadPixels: -1}); res.BadPixels != 0 || res.SizeMismatch {
		t.Errorf("saved golden differs: %+v", res)
	}

	t.Setenv(golden.UpdateEnv, "")
	rec = &recorder{TB: t}
	golden.Check(rec, name, img, golden.Options{MaxBadPixels: -1})
	if len(rec.errs) != 0 {
		t.Errorf("compare after update: %q", rec.errs)
	}
}

func TestCheckFailures(t *testing.T) {
	base := filled(40, 30, white)
	tests := []struct {
		name      string
		golden    image.Image // nil: no golden file
		actual    image.Image
		wantParts []string
		wantFiles []string
	}{
		{
			name:      "missing golden",
			actual:    base,
			wantParts: []string{"make golden", "missing golden"},
			wantFiles: []string{"actual.png"},
		},
		{
			name:   "mismatch",
			golden: base,
			// 3x3 cluster at (33,20): cell (32,0)-(64,32) clipped to 40x30.
			actual:    withPixels(base, black, block(33, 20, 3, 3)...),
			wantParts: []string{"9 bad pixels (budget 8)", "max delta 0.9659", "worst region (32,0)-(40,30)"},
			wantFiles: []string{"case.png", "actual.png", "expected.png", "diff.png"},
		},
		{
			name:      "size mismatch",
			golden:    base,
			actual:    filled(41, 30, white),
			wantParts: []string{"size mismatch: actual 41x30, golden 40x30", "1230 bad pixels"},
			wantFiles: []string{"case.png", "actual.png", "expected.png", "diff.png"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			out := t.TempDir()
			t.Setenv(golden.OutEnv, out)
			t.Setenv(golden.UpdateEnv, "")
			const name = "TestThing/case"
			if tt.golden != nil {
				if err := golden.Save(filepath.Join("testdata", "golden", "TestThing", "case.png"), tt.golden); err != nil {
					t.Fatal(err)
				}
			}
			rec := &recorder{TB: t}
			golden.Check(rec, name, tt.actual, golden.Options{})
			dir := filepath.Join(out, "TestThing", "case")
			wantOneError(t, rec, append(tt.wantParts, dir)...)
			wantFiles(t, dir, tt.wantFiles...)
		})
	}
}

func TestCheckSideBySide(t *testing.T) {
	t.Chdir(t.TempDir())
	out := t.TempDir()
	t.Setenv(golden.OutEnv, out)
	t.Setenv(golden.UpdateEnv, "")
	expected := filled(20, 10, white)
	if err := golden.Save(filepath.Join("testdata", "golden", "s.png"), expected); err != nil {
		t.Fatal(err)
	}
	actual := withPixels(expected, black, image.Pt(0, 0))
	golden.Check(&recorder{TB: t}, "s", actual, golden.Options{MaxBadPixels: -1})

	img, err := golden.Load(filepath.Join(out, "s", "s.png"))
	if err != nil {
		t.Fatal(err)
	}
	// Three 20-pixel panes and two 2-pixel bars.
	if got, want := img.Bounds(), image.Rect(0, 0, 64, 10); got != want {
		t.Fatalf("side-by-side bounds = %v, want %v", got, want)
	}
	bar := color.NRGBA{255, 0, 255, 255}
	checks := map[image.Point]color.NRGBA{
		{0, 0}: white, {19, 9}: white, // expected pane
		{20, 0}: bar, {21, 9}: bar, // first bar
		{22, 0}: black, {41, 9}: white, // actual pane
		{42, 0}: bar, {43, 9}: bar, // second bar
		{44, 0}: red, {63, 9}: white, // diff pane, faded white elsewhere
	}
	for p, c := range checks {
		if got := color.NRGBAModel.Convert(img.At(p.X, p.Y)); got != c {
			t.Errorf("side-by-side at %v = %v, want %v", p, got, c)
		}
	}
}

func TestCheckDefaultOutDir(t *testing.T) {
	t.Chdir(t.TempDir())
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // os.TempDir reads it on Unix
	t.Setenv(golden.OutEnv, "")
	t.Setenv(golden.UpdateEnv, "")
	rec := &recorder{TB: t}
	golden.Check(rec, "TestX/missing", filled(2, 2, white), golden.Options{})
	dir := filepath.Join(os.TempDir(), "skinview-golden", "TestX", "missing")
	wantOneError(t, rec, dir)
	wantFiles(t, dir, "actual.png")
}

func TestCheckInvalidName(t *testing.T) {
	for _, name := range []string{"", "../escape", "/abs", "a/../../b"} {
		t.Run(name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			t.Setenv(golden.UpdateEnv, "1")
			rec := &recorder{TB: t}
			golden.Check(rec, name, filled(1, 1, white), golden.Options{})
			wantOneError(t, rec, "invalid name")
		})
	}
}

func TestCheckSpots(t *testing.T) {
	img := withPixels(filled(4, 4, white), red, image.Pt(1, 2))
	tests := []struct {
		name    string
		spot    golden.Spot
		wantErr string // empty: the spot passes
	}{
		{name: "colour matches", spot: golden.Spot{Name: "hand", X: 1, Y: 2, Want: red}},
		{name: "within tolerance", spot: golden.Spot{Name: "bg", X: 0, Y: 0, Want: color.Gray{230}}},
		{name: "not background", spot: golden.Spot{Name: "hand raised", X: 1, Y: 2, Want: white, Not: true}},
		{
			name:    "wrong colour",
			spot:    golden.Spot{Name: "hand raised", X: 0, Y: 0, Want: red},
			wantErr: `spot "hand raised" at (0,0): got #ffffffff, want #ff0000ff`,
		},
		{
			name:    "tolerance is honoured",
			spot:    golden.Spot{Name: "bg", X: 0, Y: 0, Want: color.Gray{230}, Tolerance: 0.05},
			wantErr: `spot "bg" at (0,0): got #ffffffff, want #e6e6e6ff`,
		},
		{
			name:    "not background fails on background",
			spot:    golden.Spot{Name: "hand raised", X: 3, Y: 3, Want: white, Not: true},
			wantErr: `got #ffffffff, want anything but #ffffffff`,
		},
		{
			name:    "outside",
			spot:    golden.Spot{Name: "far", X: 4, Y: 0, Want: red},
			wantErr: `spot "far": (4,0) is outside the 4x4 image`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			golden.CheckSpots(rec, img, []golden.Spot{tt.spot})
			if tt.wantErr == "" {
				if len(rec.errs) != 0 {
					t.Errorf("unexpected errors %q", rec.errs)
				}
				return
			}
			wantOneError(t, rec, tt.wantErr)
		})
	}
}

func TestCheckSpotsReportsAll(t *testing.T) {
	rec := &recorder{TB: t}
	golden.CheckSpots(rec, filled(2, 2, white), []golden.Spot{
		{Name: "a", Want: red}, {Name: "b", X: 1, Want: red}, {Name: "c", Want: white},
	})
	if len(rec.errs) != 2 {
		t.Errorf("got %d errors %q, want 2", len(rec.errs), rec.errs)
	}
}

func TestLoadSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "img.png")
	img := withPixels(filled(3, 2, color.NRGBA{10, 20, 30, 40}), red, image.Pt(2, 1))
	if err := golden.Save(path, img); err != nil {
		t.Fatal(err)
	}
	got, err := golden.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if res := golden.Compare(got, img, golden.Options{Threshold: 1e-9, MaxBadPixels: -1}); !res.OK() {
		t.Errorf("round trip differs: %d bad pixels", res.BadPixels)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("Save left %d files, want only the image", len(entries))
	}

	if _, err := golden.Load(filepath.Join(dir, "nope.png")); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "golden: ") {
		t.Errorf("Load(missing) = %v, want a golden: not-exist error", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.png"), []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := golden.Load(filepath.Join(dir, "bad.png")); err == nil || !strings.HasPrefix(err.Error(), "golden: decode") {
		t.Errorf("Load(garbage) = %v, want a golden: decode error", err)
	}
}

func BenchmarkCompare(b *testing.B) {
	base := filled(1024, 1024, white)
	for _, bc := range []struct {
		name   string
		actual image.Image
	}{
		{"identical", filled(1024, 1024, white)},
		{"all different", filled(1024, 1024, color.NRGBA{250, 240, 230, 255})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				golden.Compare(bc.actual, base, golden.Options{})
			}
		})
	}
}

func ExampleCompare() {
	expected := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	draw.Draw(expected, expected.Rect, image.White, image.Point{}, draw.Src)
	actual := image.NewNRGBA(expected.Rect)
	copy(actual.Pix, expected.Pix)
	actual.Set(40, 10, color.Black) // one stray pixel, e.g. rasterizer noise

	res := golden.Compare(actual, expected, golden.Options{})
	fmt.Printf("bad pixels: %d of %d allowed\n", res.BadPixels, res.Budget)
	fmt.Printf("max delta: %.3f\n", res.MaxDelta)
	fmt.Println("worst region:", res.Worst)
	fmt.Println("ok:", res.OK())
	// Output:
	// bad pixels: 1 of 8 allowed
	// max delta: 0.966
	// worst region: (32,0)-(64,32)
	// ok: true
}
