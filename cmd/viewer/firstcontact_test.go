package main

import (
	"fmt"
	"image"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
)

// sparseGLTF writes the small files a user's first minute brings that
// lack something: kind "rigid" is a quad on a node, no skin, no clip;
// "morph" the quad with one morph target (rest weight ½), no skin, no
// clip; "growing" the same quad with a clip "grow" taking the target's
// weight from 0 at 0 s to 1 at 1 s; "animated_nodes" two nodes and a
// clip, no mesh; "empty_node" one
// node and nothing else. The quad is 0.2 × 0.2 m in the XY plane; its
// morph target moves its corners 0.9 m out, to 2 × 2 m at weight 1.
func sparseGLTF(t testing.TB, kind string) []byte {
	t.Helper()
	d := gltfData{t: t}
	d.add([]float32{-0.1, 0, 0, 0.1, 0, 0, -0.1, 0.2, 0, 0.1, 0.2, 0}, "VEC3", `"min": [-0.1, 0, 0], "max": [0.1, 0.2, 0]`) // 0: positions
	d.add([]float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3", "")                                                        // 1: normals
	d.add([]uint16{0, 1, 2, 2, 1, 3}, "SCALAR", "")                                                                         // 2: indices
	d.add([]float32{-0.9, 0, 0, 0.9, 0, 0, -0.9, 1.8, 0, 0.9, 1.8, 0}, "VEC3", `"min": [-0.9, 0, 0], "max": [0.9, 1.8, 0]`) // 3: target displacements
	d.add([]float32{0, 1}, "SCALAR", `"min": [0], "max": [1]`)                                                              // 4: times
	d.add([]float32{0, 0, 0, 1, 0, 0, 0.70710677, 0.70710677}, "VEC4", "")                                                  // 5: 0° and 90° about Z
	d.add([]float32{0, 1}, "SCALAR", "")                                                                                    // 6: weights 0, then 1
	prim := `{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2}`
	var nodes, rest string
	switch kind {
	case "rigid":
		nodes = `[{"name": "quad", "mesh": 0, "translation": [1, 0, 0]}]`
		rest = `"meshes": [{"primitives": [` + prim + `]}],`
	case "morph":
		nodes = `[{"name": "quad", "mesh": 0}]`
		prim = strings.TrimSuffix(prim, "}") + `, "targets": [{"POSITION": 3}]}`
		rest = `"meshes": [{"name": "grower", "primitives": [` + prim + `], "weights": [0.5], "extras": {"targetNames": ["grow"]}}],`
	case "growing":
		nodes = `[{"name": "quad", "mesh": 0}]`
		prim = strings.TrimSuffix(prim, "}") + `, "targets": [{"POSITION": 3}]}`
		rest = `"meshes": [{"primitives": [` + prim + `]}],
  "animations": [{"name": "grow", "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}], "samplers": [{"input": 4, "output": 6}]}],`
	case "animated_nodes":
		nodes = `[{"name": "root", "children": [1]}, {"name": "arm", "translation": [0, 1, 0]}]`
		rest = `"animations": [{"name": "turn", "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}], "samplers": [{"input": 4, "output": 5}]}],`
	case "empty_node":
		nodes = `[{"name": "empty"}]`
	default:
		t.Fatalf("no sparse file %q", kind)
	}
	return []byte(fmt.Sprintf(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": %s, %s
  %s}`, nodes, rest, d.members()))
}

// TestFilesThatLackSomethingOpen runs files without clips, skins, meshes
// or anything but a node through every path a user takes: -screenshot
// with the HUD, a minute of keys in the window's frames, -record, -stats
// and -crowd. Each must run without an error (or a panic), show what it
// has, and say in the HUD what it lacks.
func TestFilesThatLackSomethingOpen(t *testing.T) {
	cases := []struct {
		name    string
		data    []byte
		missing string // the HUD's line in place of the clip
		drawn   bool   // the picture shows a mesh (or the skeleton overlay)
	}{
		{"skinned_no_clip", barGLTF(t, [3]float32{0, 0, 1}, "", false), "no animation", true},
		{"rigid_no_clip", sparseGLTF(t, "rigid"), "no animation", true},
		{"morph_targets_only", sparseGLTF(t, "morph"), "no animation", true},
		{"animated_nodes_no_mesh", sparseGLTF(t, "animated_nodes"), "no mesh: its nodes are shown", true},
		{"one_empty_node", sparseGLTF(t, "empty_node"), "no mesh, no animation: its nodes are shown", true}, // the node's dot
	}
	const keyScript = "space,right*3,],enter,wait*3,l,l,l,r,home,end,i,o,alt+i,k,v,v,v,m,n,=,backspace,b,b,f,shift+o,a,tab,up,left,space"
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := tempFile(t, tc.name+".gltf", tc.data)
			dir := t.TempDir()
			modes := []struct {
				name string
				args []string
				run  func(a *app.App, opt *options) error
			}{
				{"screenshot", []string{"-hud", "-screenshot", filepath.Join(dir, "shot.png")}, func(a *app.App, opt *options) error {
					img, err := a.Shoot(0.5, nil)
					if err != nil {
						return err
					}
					if got := a.Info().Missing; got != tc.missing {
						t.Errorf("the HUD says %q of what the model lacks, want %q", got, tc.missing)
					}
					if n := modelPixels(img, a.View.W, a.View.H); (n > 0) != tc.drawn {
						t.Errorf("%d pixels of the model in the middle of the picture; want any: %v", n, tc.drawn)
					}
					return nil
				}},
				{"window_keys", []string{"-hud"}, func(a *app.App, opt *options) error {
					a.Stdout = io.Discard
					evs, err := ui.ParseKeys(keyScript)
					if err != nil {
						return err
					}
					return a.RunKeys(evs)
				}},
				{"record", []string{"-record", filepath.Join(dir, "clip.gif"), "-frames", "4"}, func(a *app.App, opt *options) error {
					return a.Record(opt.record)
				}},
				{"stats", []string{"-stats"}, func(a *app.App, opt *options) error { return a.Stats(io.Discard, 0) }},
				{"crowd", []string{"-crowd", "3", "-screenshot", filepath.Join(dir, "crowd.png")}, func(a *app.App, opt *options) error {
					_, err := a.Shoot(0.25, nil)
					return err
				}},
			}
			for _, mode := range modes {
				opt, err := parseFlags(append(append([]string{"-size", "160x120"}, mode.args...), file), io.Discard)
				if err != nil {
					t.Fatalf("%s: %v", mode.name, err)
				}
				c, err := loadCharacter(opt)
				if err != nil {
					t.Fatalf("%s: %v", mode.name, err)
				}
				onGL(t, func() (err error) {
					defer func() {
						if p := recover(); p != nil {
							err = fmt.Errorf("%s: panic: %v", mode.name, p)
						}
					}()
					a, err := newApp(opt, c, opt.width, opt.height)
					if err != nil {
						return fmt.Errorf("%s: %w", mode.name, err)
					}
					defer a.Destroy()
					if err := mode.run(a, opt); err != nil {
						return fmt.Errorf("%s: %w", mode.name, err)
					}
					return nil
				})
			}
		})
	}
}

// modelPixels counts the pixels of the middle band of img (w×h, 30 % to
// 85 % of its height) that are neither the background nor close to it:
// the model, or the skeleton overlay, where the HUD (its panel at the top,
// its statistics at the bottom) is not.
func modelPixels(img *image.NRGBA, w, h int) int {
	n := 0
	bg := scene.Background
	for y := h * 3 / 10; y < h*85/100; y++ {
		for x := 0; x < w; x++ {
			p := img.NRGBAAt(x, y)
			d := max(absDiff(p.R, bg.R), absDiff(p.G, bg.G), absDiff(p.B, bg.B))
			if d > 12 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestScreenshotOpensOnItsTime: the growing quad, ten times larger at 1 s
// than at 0 s. A screenshot at 0 s frames the small quad closer than the
// whole clip would (it spans two fifths of the picture, and the grown quad
// would leave it); one at -time 1 frames the grown quad, which then
// stays inside the picture: no pixel of it on the picture's edge.
func TestScreenshotOpensOnItsTime(t *testing.T) {
	file := tempFile(t, "growing.gltf", sparseGLTF(t, "growing"))
	for _, at := range []string{"0", "1"} {
		withArgs(t, []string{"-size", "160x120", "-lighting", "three", "-time", at, "-screenshot", "x.png", file}, func(a *app.App) error {
			img, err := a.Shoot(map[string]float32{"0": 0, "1": 1}[at], nil)
			if err != nil {
				return err
			}
			b := img.Bounds()
			x0, y0, x1, y1, edge := b.Max.X, b.Max.Y, -1, -1, false
			for y := range b.Dy() {
				for x := range b.Dx() {
					if img.NRGBAAt(x, y) == a.View.Clear {
						continue
					}
					x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
					edge = edge || x == 0 || y == 0 || x == b.Dx()-1 || y == b.Dy()-1
				}
			}
			spans := max(float64(x1-x0+1)/float64(b.Dx()), float64(y1-y0+1)/float64(b.Dy()))
			switch {
			case at == "0" && !(spans >= 0.39 && spans <= 0.45):
				t.Errorf("-time 0: the quad spans %.2f of the picture; want 0.40", spans)
			case at == "1" && edge:
				t.Errorf("-time 1: the grown quad reaches the picture's edge (it spans %.2f); it was framed for another pose", spans)
			}
			return nil
		})
	}
}
