package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/report"
)

// cameraQuadGLTF is a red 2×2 quad at the origin facing +Z and a camera
// "Dolly" on a node at (0, 0, 5) looking down −Z with a vertical field of
// view of 2·atan(0.4): at distance 5 it sees 2 units either side of the
// middle, so the quad fills the middle half of a square picture. Its node
// moves to (3, 0, 5) over 1 s, where the quad is out of sight to the left.
func cameraQuadGLTF(t *testing.T) []byte {
	return cameraQuadWith(t, `{"sampler": 0, "target": {"node": 1, "path": "translation"}}`)
}

// cameraQuadWith is cameraQuadGLTF with channel (JSON) as its animation's
// one channel: sampler 0 moves the node, sampler 1 widens yfov from
// 2·atan(0.4) to 2·atan(0.8).
func cameraQuadWith(t *testing.T, channel string) []byte {
	t.Helper()
	// 108: key times, 116: translations, 140: yfov keys.
	bin := quadBuffer(t, []float32{0, 1}, []float32{0, 0, 5, 3, 0, 5}, []float32{float32(2 * math.Atan(0.4)), float32(2 * math.Atan(0.8))})
	return fmt.Appendf(nil, `{"asset": {"version": "2.0"},
	  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
	  "bufferViews": [`+quadViews+`, {"buffer": 0, "byteOffset": 108, "byteLength": 40}],
	  "accessors": [`+quadAccessors+`,
	    {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
	    {"bufferView": 2, "byteOffset": 8, "componentType": 5126, "count": 2, "type": "VEC3"},
	    {"bufferView": 2, "byteOffset": 32, "componentType": 5126, "count": 2, "type": "SCALAR"}],
	  "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2, "material": 0}]}],
	  "cameras": [{"name": "Dolly", "type": "perspective", "perspective": {"yfov": %v, "znear": 0.1, "zfar": 100}}],
	  "nodes": [{"mesh": 0}, {"camera": 0, "translation": [0, 0, 5]}], "scenes": [{"nodes": [0, 1]}], "scene": 0,
	  "extensionsUsed": ["KHR_animation_pointer"],
	  "animations": [{"samplers": [{"input": 3, "output": 4}, {"input": 3, "output": 5}], "channels": [%s]}]}`,
		bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes()), 2*math.Atan(0.4), channel)
}

func TestLookThroughAFileCamera(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dolly.gltf")
	if err := os.WriteFile(file, cameraQuadGLTF(t), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := asset.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Cameras) != 1 || m.Cameras[0].Name != "Dolly" || m.Cameras[0].Node != 1 {
		t.Fatalf("cameras %+v, want Dolly on node 1", m.Cameras)
	}
	red, bg := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 0, 255}
	for _, choice := range []string{"0", "Dolly"} {
		withArgs(t, []string{"-size", "64x64", "-view", "basecolor", "-bg", "0,0,0", "-camera", choice, file}, func(a *app.App) error {
			for _, k := range []struct {
				t       float32
				x, y    int
				want    color.NRGBA
				because string
			}{
				{0, 32, 32, red, "the quad in the middle at 0 s"},
				{0, 20, 20, red, "the quad's top-left quarter"},
				{0, 32, 8, bg, "above the quad (it spans rows 16 to 48)"},
				{0, 8, 32, bg, "left of the quad"},
				{1, 32, 32, bg, "the camera moved right: the quad left the picture"},
			} {
				img, err := a.Shoot(k.t, nil)
				if err != nil {
					return err
				}
				if got := img.NRGBAAt(k.x, k.y); got != k.want {
					t.Errorf("-camera %s at %v s, pixel (%d, %d): %v, want %v (%s)", choice, k.t, k.x, k.y, got, k.want, k.because)
				}
			}
			return nil
		})
	}
	opt, err := parseFlags([]string{"-camera", "Crane", file}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadCharacter(opt)
	if err != nil {
		t.Fatal(err)
	}
	onGL(t, func() error {
		_, err := newApp(opt, c, 64, 64)
		if err == nil || !strings.Contains(err.Error(), `-camera "Crane": no camera by that index or name to look through; the scene's are 0 "Dolly"`) {
			t.Errorf("an unknown camera: %v", err)
		}
		return nil
	})
}

// A KHR_animation_pointer channel on the camera's yfov widens it from
// 2·atan(0.4) to 2·atan(0.8): at 1 s the camera sees 4 units either side
// at distance 5, and the quad fills the middle quarter (rows 24 to 40).
func TestPointerAnimatesCameraFov(t *testing.T) {
	file := filepath.Join(t.TempDir(), "zoom.gltf")
	doc := cameraQuadWith(t, `{"sampler": 1, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/cameras/0/perspective/yfov"}}}}`)
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	red, bg := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 0, 255}
	withArgs(t, []string{"-size", "64x64", "-view", "basecolor", "-bg", "0,0,0", "-camera", "0", file}, func(a *app.App) error {
		for _, k := range []struct {
			t    float32
			y    int
			want color.NRGBA
		}{{0, 20, red}, {1, 20, bg}, {1, 28, red}} {
			img, err := a.Shoot(k.t, nil)
			if err != nil {
				return err
			}
			if got := img.NRGBAAt(32, k.y); got != k.want {
				t.Errorf("at %v s, pixel (32, %d): %v, want %v", k.t, k.y, got, k.want)
			}
		}
		return nil
	})
}

// A point light of the file 0.8 in front of the quad, its intensity taken
// from 0.76 to 1.37 candela by a KHR_animation_pointer channel, brightens
// the quad's middle under -lighting three and in the default look (both
// add the file's lights); make oracle compares the former with three.js.
func TestFileLightsUnderBothStages(t *testing.T) {
	doc := cameraQuadWith(t, `{"sampler": 1, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/extensions/KHR_lights_punctual/lights/0/intensity"}}}}`)
	// The quad's camera node becomes the light's; yfov's keys (0.76 and
	// 1.37) are the intensities scaled below.
	doc = bytes.Replace(doc, []byte(`{"camera": 0, "translation": [0, 0, 5]}`), []byte(`{"translation": [0, 0, 0.8], "extensions": {"KHR_lights_punctual": {"light": 0}}}`), 1)
	doc = bytes.Replace(doc, []byte(`"extensionsUsed": ["KHR_animation_pointer"],`), []byte(`"extensionsUsed": ["KHR_animation_pointer", "KHR_lights_punctual"],
	  "extensions": {"KHR_lights_punctual": {"lights": [{"type": "point", "color": [1, 1, 1]}]}},`), 1)
	file := filepath.Join(t.TempDir(), "bulb.gltf")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	fileLightBrightens(t, file, []string{"-lighting", "three"}, 15)
	// The default look, three stops down (its environment and key light
	// alone bring the red near the tone curve's shoulder): 0.95 lux more
	// is 0.95/π·⅛ ≈ 0.04 more linear red over some 0.19, about ten levels.
	fileLightBrightens(t, file, []string{"-lighting", "default", "-exposure", "-3"}, 5)
}

// fileLightBrightens checks that the bulb's light reaches the quad under
// the given -lighting stage.
func fileLightBrightens(t *testing.T, file string, stage []string, levels int) {
	withArgs(t, append(stage, "-size", "64x64", "-eye", "0,0,3", "-target", "0,0,0", "-bg", "0,0,0", file), func(a *app.App) error {
		if m := a.Char.Model; len(m.Lights) != 1 || len(m.LightChannels) != 1 {
			t.Errorf("%d lights and %d animated light parameters, want 1 and 1; report %q", len(m.Lights), len(m.LightChannels), m.Report.Lines(0, 0))
			return nil
		}
		var red [2]uint8
		for i, at := range []float32{0, 1} {
			img, err := a.Shoot(at, nil)
			if err != nil {
				return err
			}
			red[i] = img.NRGBAAt(32, 32).R
		}
		// 1.19 and 2.14 lux more at 0.8 units: some 28 levels of red here.
		if int(red[1]) < int(red[0])+levels {
			t.Errorf("%v: the quad's middle reads red %d with the light at 0.76 and %d at 1.37 candela: want it brighter by %d or more", stage, red[0], red[1], levels)
		}
		return nil
	})
}

// F after -eye frames the model (the placed camera was the window's
// start only); -info names the cameras and what pointer channels animate.
func TestFAfterEyeAndCamerasInInfo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "zoom.gltf")
	doc := cameraQuadWith(t, `{"sampler": 1, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/cameras/0/perspective/yfov"}}}}`)
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := asset.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	var info bytes.Buffer
	report.WriteInfo(&info, m, 0)
	for _, want := range []string{`camera 0 "Dolly" on node 1: perspective`, `1 channels (camera (pointer); LINEAR)`} {
		if !strings.Contains(info.String(), want) {
			t.Errorf("-info lacks %q:\n%s", want, info.String())
		}
	}
	withArgs(t, []string{"-size", "64x64", "-eye", "0,0,9", "-target", "0,0,0", file}, func(a *app.App) error {
		if a.View.Cam == a.View.Framed {
			t.Error("-eye did not place the camera")
			return nil
		}
		a.FrameModel()
		if a.View.Cam != a.View.Framed || a.View.Home != a.View.Framed || a.View.Placed {
			t.Errorf("F after -eye: camera %+v, want the framing %+v", a.View.Cam, a.View.Framed)
		}
		return nil
	})
}

// A frame that looks through an animated file camera and lights with an
// animated file light, material factors animated too, allocates nothing.
func TestCameraAndLightFramesAllocateNothing(t *testing.T) {
	doc := cameraQuadWith(t, `{"sampler": 1, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/extensions/KHR_lights_punctual/lights/0/intensity"}}}},
	  {"sampler": 0, "target": {"node": 1, "path": "translation"}},
	  {"sampler": 1, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/materials/0/pbrMetallicRoughness/roughnessFactor"}}}}`)
	doc = bytes.Replace(doc, []byte(`"nodes": [{"mesh": 0}, `), []byte(`"nodes": [{"mesh": 0, "children": [2]}, `), 1)
	doc = bytes.Replace(doc, []byte(`"translation": [0, 0, 5]}]`), []byte(`"translation": [0, 0, 5]}, {"translation": [0, 0, 0.8], "extensions": {"KHR_lights_punctual": {"light": 0}}}]`), 1)
	doc = bytes.Replace(doc, []byte(`"extensionsUsed": ["KHR_animation_pointer"],`), []byte(`"extensionsUsed": ["KHR_animation_pointer", "KHR_lights_punctual"],
	  "extensions": {"KHR_lights_punctual": {"lights": [{"type": "spot"}]}},`), 1)
	file := filepath.Join(t.TempDir(), "stage.gltf")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	var allocs float64
	withArgs(t, []string{"-size", "64x64", "-lighting", "three", "-camera", "Dolly", file}, func(a *app.App) error {
		if m := a.Char.Model; len(m.Lights) != 1 || len(m.MaterialChannels) != 1 || len(m.LightChannels) != 1 {
			t.Errorf("%d lights, %d material and %d light channels; want 1 each: %q", len(m.Lights), len(m.MaterialChannels), len(m.LightChannels), m.Report.Lines(0, 0))
			return nil
		}
		frame, err := frameOf(a)
		frame()
		allocs = testing.AllocsPerRun(20, frame)
		return *err
	})
	if allocs != 0 {
		t.Fatalf("a frame allocates %v times; want 0", allocs)
	}
}
