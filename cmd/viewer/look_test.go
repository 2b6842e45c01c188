package main

import (
	"bytes"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/app"
)

// flatHDR writes a Radiance HDR file of 4×2 pixels of one RGBE value,
// uncompressed: (128, 0, 0, 129) is radiance (1, 0, 0), mantissa 128 times
// 2^(129 − 136).
func flatHDR(t *testing.T, name string, rgbe [4]byte) string {
	t.Helper()
	b := []byte("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 4\n")
	for range 8 {
		b = append(b, rgbe[:]...)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// whiteQuad is cameraQuadGLTF's quad with a light grey material.
func whiteQuad(t *testing.T) string {
	doc := bytes.Replace(cameraQuadGLTF(t), []byte(`"baseColorFactor": [1, 0, 0, 1]`), []byte(`"baseColorFactor": [0.8, 0.8, 0.8, 1]`), 1)
	file := filepath.Join(t.TempDir(), "quad.gltf")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// middle shoots the quad with the given flags, seen from 3 units in
// front, and returns the picture's middle.
func middle(t *testing.T, quad string, flags ...string) color.NRGBA {
	t.Helper()
	var c color.NRGBA
	args := append([]string{"-size", "64x64", "-eye", "0,0,3", "-target", "0,0,0"}, flags...)
	withArgs(t, append(args, quad), func(a *app.App) error {
		img, err := a.Shoot(0, nil)
		if err != nil {
			return err
		}
		c = img.NRGBAAt(32, 32)
		return nil
	})
	return c
}

// -env lights the look by the file's environment: a grey quad under a red
// environment comes out red, under a green one green (the white key light
// adds the same to every channel).
func TestEnvironmentLightsTheLook(t *testing.T) {
	quad := whiteQuad(t)
	red := middle(t, quad, "-env", flatHDR(t, "red.hdr", [4]byte{128, 0, 0, 129}))
	green := middle(t, quad, "-env", flatHDR(t, "green.hdr", [4]byte{0, 128, 0, 129}))
	if int(red.R) < int(red.G)+40 || int(green.G) < int(green.R)+40 {
		t.Errorf("under a red environment the quad is %v, under a green one %v: want the environment's channel ahead by 40 levels", red, green)
	}
	bad := filepath.Join(t.TempDir(), "broken.hdr")
	if err := os.WriteFile(bad, []byte("#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 2 +X 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := app.LoadEnvironment(bad); err == nil || !strings.Contains(err.Error(), "broken.hdr") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a broken -env file gives %v; want one line naming broken.hdr", err)
	}
}

// -exposure scales the light before tone mapping, -tonemap picks the curve:
// one stop more is brighter; PBR Neutral subtracts its 0.04 offset from a
// colour well below its compression, so it is darker than no tone mapping
// there; ACES differs from both.
func TestExposureAndToneMapping(t *testing.T) {
	quad := whiteQuad(t)
	base := middle(t, quad, "-exposure", "-2")
	brighter := middle(t, quad, "-exposure", "-1")
	none := middle(t, quad, "-exposure", "-2", "-tonemap", "none")
	aces := middle(t, quad, "-exposure", "-2", "-tonemap", "aces")
	if brighter.G <= base.G+10 {
		t.Errorf("-exposure -1 gives %v, -2 gives %v: want a stop brighter", brighter, base)
	}
	if none.G <= base.G {
		t.Errorf("-tonemap none gives %v, neutral %v: want neutral darker below its compression", none, base)
	}
	if aces == base || aces == none {
		t.Errorf("-tonemap aces gives %v, neutral %v, none %v: want a curve of its own", aces, base, none)
	}
	for _, bad := range [][]string{{"-tonemap", "filmic"}, {"-exposure", "40"}} {
		if _, err := parseFlags(append(bad, quad), nil); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%v: got %v, want an error naming %s", bad, err, bad[0])
		}
	}
}
