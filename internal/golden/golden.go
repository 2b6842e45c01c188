package golden

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"testing"
)

// UpdateEnv names the environment variable that, when true ("1"), makes Check
// rewrite goldens instead of comparing; `make golden` sets it.
const UpdateEnv = "GOLDEN_UPDATE"

// OutEnv names the environment variable holding the folder that receives
// failure images, so CI can collect them as artifacts; when it is unset they
// go under os.TempDir()/skinview-golden.
const OutEnv = "GOLDEN_OUT"

// separator is the colour of the bars between the panes of the side-by-side
// image: magenta rarely occurs in skins, so the pane edges stay visible even
// when both images share a background.
var separator = color.NRGBA{R: 255, B: 255, A: 255}

// separatorWidth is the width in pixels of each bar in the side-by-side image.
const separatorWidth = 2

// Check compares actual with the golden testdata/golden/<name>.png, relative
// to the working directory of the test (its package directory). name is a
// slash-separated relative path such as "TestScreenshot/walk_0.5".
//
// With GOLDEN_UPDATE=1 it writes the golden instead and logs that it did. A
// missing golden fails the test, telling to run `make golden`. On a mismatch
// it writes [expected | actual | diff] as <last element of name>.png, plus
// actual.png, expected.png and diff.png, into $GOLDEN_OUT/<name>/ (or
// os.TempDir()/skinview-golden/<name>/) and reports the bad pixels against the
// budget, the largest distance, the worst region and that folder.
func Check(t testing.TB, name string, actual image.Image, opt Options) {
	t.Helper()
	rel := filepath.FromSlash(name)
	// Rejecting ".." and absolute names keeps both the golden and the
	// failure folder inside the directories they are meant for.
	if name == "" || !filepath.IsLocal(rel) {
		t.Errorf("golden: invalid name %q: want a relative slash-separated path without ..", name)
		return
	}
	goldenPath := filepath.Join("testdata", "golden", rel+".png")

	if update, _ := strconv.ParseBool(os.Getenv(UpdateEnv)); update {
		if err := Save(goldenPath, actual); err != nil {
			t.Errorf("%v", err)
			return
		}
		t.Logf("golden: wrote %s", goldenPath)
		return
	}

	expected, err := Load(goldenPath)
	if errors.Is(err, fs.ErrNotExist) {
		dir, werr := writeFailure(name, actual, nil, nil)
		t.Errorf("golden: %s: missing golden %s; run `make golden` (%s=1 go test) to create it%s",
			name, goldenPath, UpdateEnv, whereWritten(dir, "actual image", werr))
		return
	}
	if err != nil {
		t.Errorf("%v", err)
		return
	}

	res := Compare(actual, expected, opt)
	if res.OK() {
		return
	}
	dir, werr := writeFailure(name, actual, expected, res.Diff)
	size := ""
	if res.SizeMismatch {
		ab, eb := actual.Bounds(), expected.Bounds()
		size = fmt.Sprintf("size mismatch: actual %dx%d, golden %dx%d; ", ab.Dx(), ab.Dy(), eb.Dx(), eb.Dy())
	}
	t.Errorf("golden: %s: %s%d bad pixels (budget %d), max delta %.4f (threshold %.4f), worst region %v (x right, y down from top-left) against %s%s",
		name, size, res.BadPixels, res.Budget, res.MaxDelta, opt.threshold(), res.Worst, goldenPath,
		whereWritten(dir, "images", werr))
}

// whereWritten phrases where failure images went, or why they did not, so
// that a write error never hides the comparison failure itself.
func whereWritten(dir, what string, err error) string {
	if err != nil {
		return fmt.Sprintf("; could not write %s: %v", what, err)
	}
	return fmt.Sprintf("; %s in %s", what, dir)
}

// writeFailure writes the failure images for name and returns their folder.
// expected and diff are nil when there is no golden to show.
func writeFailure(name string, actual, expected image.Image, diff *image.NRGBA) (string, error) {
	root := os.Getenv(OutEnv)
	if root == "" {
		root = filepath.Join(os.TempDir(), "skinview-golden")
	}
	dir := filepath.Join(root, filepath.FromSlash(name))
	combined := path.Base(name) + ".png"
	switch combined {
	case "actual.png", "expected.png", "diff.png":
		combined = "side-by-side.png" // do not overwrite a single pane
	}

	// Remove what an earlier run left, so the folder never mixes a stale
	// expected or diff with a fresh actual.
	for _, f := range []string{combined, "actual.png", "expected.png", "diff.png"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("golden: %w", err)
		}
	}
	if err := Save(filepath.Join(dir, "actual.png"), actual); err != nil {
		return "", err
	}
	if expected == nil {
		return dir, nil
	}
	if err := Save(filepath.Join(dir, "expected.png"), expected); err != nil {
		return "", err
	}
	if err := Save(filepath.Join(dir, "diff.png"), diff); err != nil {
		return "", err
	}
	if err := Save(filepath.Join(dir, combined), sideBySide(expected, actual, diff)); err != nil {
		return "", err
	}
	return dir, nil
}

// sideBySide lays the panes out left to right, top-aligned, with magenta bars
// between them; differing heights leave the area below a short pane
// transparent.
func sideBySide(panes ...image.Image) *image.NRGBA {
	conv := make([]*image.NRGBA, len(panes))
	w, h := separatorWidth*(len(panes)-1), 0
	for i, p := range panes {
		conv[i] = toNRGBA(p)
		w += conv[i].Rect.Dx()
		h = max(h, conv[i].Rect.Dy())
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	x := 0
	for i, p := range conv {
		if i > 0 {
			for y := range h {
				for s := range separatorWidth {
					dst.SetNRGBA(x+s, y, separator)
				}
			}
			x += separatorWidth
		}
		pw := p.Rect.Dx()
		for y := range p.Rect.Dy() {
			copy(dst.Pix[dst.PixOffset(x, y):][:4*pw], p.Pix[y*p.Stride:][:4*pw])
		}
		x += pw
	}
	return dst
}

// Spot is a named pixel expectation that says what a test is about, such as
// "hand raised": the pixel at (X, Y) shows the character, not the background.
// Spots survive re-rendered goldens and explain a failure in words.
type Spot struct {
	// Name says what the spot proves; failures are reported by it.
	Name string

	// X and Y locate the pixel relative to the image's top-left corner.
	X, Y int

	// Want is the expected colour, or with Not the colour to avoid.
	Want color.Color

	// Tolerance is the largest distance from Want that still counts as
	// equal, in the units of Options.Threshold; zero means
	// DefaultSpotTolerance.
	Tolerance float64

	// Not inverts the spot: the pixel must be farther than Tolerance from
	// Want, for checks like "not background" where the exact colour is free.
	Not bool
}

// DefaultSpotTolerance is a spot's tolerance when it names none: a spot
// names a kind of colour (background, body), which shading moves by more
// than a golden's threshold allows.
const DefaultSpotTolerance = 0.1

// CheckSpots checks every spot against img and reports each failing one by
// name with the colour found, continuing past failures so that one run shows
// all of them.
func CheckSpots(t testing.TB, img image.Image, spots []Spot) {
	t.Helper()
	b := img.Bounds()
	for _, s := range spots {
		p := b.Min.Add(image.Pt(s.X, s.Y))
		if !p.In(b) {
			t.Errorf("golden: spot %q: (%d,%d) is outside the %dx%d image", s.Name, s.X, s.Y, b.Dx(), b.Dy())
			continue
		}
		if s.Want == nil {
			t.Errorf("golden: spot %q: no Want colour", s.Name)
			continue
		}
		tol := s.Tolerance
		if tol <= 0 {
			tol = DefaultSpotTolerance
		}
		got := img.At(p.X, p.Y)
		d := Delta(got, s.Want)
		switch {
		case !s.Not && d > tol:
			t.Errorf("golden: spot %q at (%d,%d): got %s, want %s (delta %.4f > tolerance %.4f)",
				s.Name, s.X, s.Y, hexColor(got), hexColor(s.Want), d, tol)
		case s.Not && d <= tol:
			t.Errorf("golden: spot %q at (%d,%d): got %s, want anything but %s (delta %.4f <= tolerance %.4f)",
				s.Name, s.X, s.Y, hexColor(got), hexColor(s.Want), d, tol)
		}
	}
}

// hexColor formats c as non-premultiplied #rrggbbaa, the form image editors
// show, so a reported colour can be looked up directly.
func hexColor(c color.Color) string {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return fmt.Sprintf("#%02x%02x%02x%02x", n.R, n.G, n.B, n.A)
}

// Load reads a PNG image. A missing file yields an error matching
// fs.ErrNotExist.
func Load(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("golden: %w", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("golden: decode %s: %w", path, err)
	}
	return img, nil
}

// Save writes img as a PNG, creating missing directories. It writes a
// temporary file and renames it, so an interrupted update never leaves a
// truncated golden behind.
func Save(path string, img image.Image) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	f, err := os.CreateTemp(dir, ".golden-*.png")
	if err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := png.Encode(f, img); err != nil {
		return fmt.Errorf("golden: encode %s: %w", path, err)
	}
	// CreateTemp makes the file private; goldens are shared files.
	if err := f.Chmod(0o644); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	return nil
}
