package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/skinview/skinview/internal/app"
)

// quadBuffer is the binary buffer of a 2×2 quad facing +Z: positions
// (bytes 0–47), normals (48–95), indices (96–107), then the floats of
// each extra, little-endian.
func quadBuffer(t *testing.T, extra ...[]float32) *bytes.Buffer {
	t.Helper()
	var bin bytes.Buffer
	parts := []any{[]float32{-1, 1, 0, -1, -1, 0, 1, 1, 0, 1, -1, 0}, []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}, []uint16{0, 1, 2, 2, 1, 3}}
	for _, e := range extra {
		parts = append(parts, e)
	}
	for _, v := range parts {
		if err := binary.Write(&bin, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	return &bin
}

// quadViews and quadAccessors are quadBuffer's quad as buffer views 0–1
// and accessors 0–2 (POSITION, NORMAL, indices).
const (
	quadViews     = `{"buffer": 0, "byteOffset": 0, "byteLength": 96, "byteStride": 12}, {"buffer": 0, "byteOffset": 96, "byteLength": 12}`
	quadAccessors = `{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
	    {"bufferView": 0, "byteOffset": 48, "componentType": 5126, "count": 4, "type": "VEC3"},
	    {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}`
)

// pointerQuadGLTF is a 2×2 quad facing +Z whose material (JSON) a
// KHR_animation_pointer channel at pointer animates linearly from 0 s to
// 1 s through keys, two values of type typ (4 floats each at most).
func pointerQuadGLTF(t *testing.T, material, pointer, typ string, keys [2][]float32) []byte {
	t.Helper()
	k := append(append([]float32{}, keys[0]...), keys[1]...)
	for len(k) < 8 {
		k = append(k, 0)
	}
	bin := quadBuffer(t, []float32{0, 1}, k) // 108: key times, 116: the keys
	return fmt.Appendf(nil, `{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_animation_pointer"],
	  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
	  "bufferViews": [`+quadViews+`, {"buffer": 0, "byteOffset": 108, "byteLength": 40}],
	  "accessors": [`+quadAccessors+`,
	    {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
	    {"bufferView": 2, "byteOffset": 8, "componentType": 5126, "count": 2, "type": %q}],
	  "materials": [%s],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2, "material": 0}]}],
	  "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0,
	  "animations": [{"samplers": [{"input": 3, "output": 4}], "channels": [{"sampler": 0,
	    "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": %q}}}}]}]}`,
		bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes()), typ, material, pointer)
}

// An animated base colour factor shows in -view basecolor at every time:
// red at 0 s; at 0.5 s the factor is (0.5, 0, 0.5) in linear terms, sRGB
// 1.055·0.5^(1/2.4) − 0.055 = 0.7354 → 188; blue at 1 s.
func TestPointerAnimatesBaseColorFactor(t *testing.T) {
	doc := pointerQuadGLTF(t, `{"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}}`,
		"/materials/0/pbrMetallicRoughness/baseColorFactor", "VEC4", [2][]float32{{1, 0, 0, 1}, {0, 0, 1, 1}})
	checkPointerQuad(t, doc, "basecolor", []pointerKey{{0, color.NRGBA{255, 0, 0, 255}}, {0.5, color.NRGBA{188, 0, 188, 255}}, {1, color.NRGBA{0, 0, 255, 255}}})
}

// The emissive strength of KHR_materials_emissive_strength, animated
// from 1 to 0, scales the emissive factor (1, 0.5, 0): at 0.5 s the
// emission is (0.5, 0.25, 0), sRGB 187.5, 137.0, 0.
func TestPointerAnimatesEmissiveStrength(t *testing.T) {
	doc := pointerQuadGLTF(t, `{"emissiveFactor": [1, 0.5, 0], "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 1}}}`,
		"/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength", "SCALAR", [2][]float32{{1}, {0}})
	checkPointerQuad(t, doc, "emissive", []pointerKey{{0, color.NRGBA{255, 188, 0, 255}}, {0.5, color.NRGBA{188, 137, 0, 255}}, {1, color.NRGBA{0, 0, 0, 255}}})
}

type pointerKey struct {
	t    float32
	want color.NRGBA
}

// checkPointerQuad shows doc's quad in view at each key's time and checks
// the middle pixel.
func checkPointerQuad(t *testing.T, doc []byte, view string, keys []pointerKey) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "quad.gltf")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	withArgs(t, []string{"-size", "64x64", "-view", view, "-eye", "0,0,3", "-target", "0,0,0", "-bg", "0,0,0", file}, func(a *app.App) error {
		if n := len(a.Char.Model.MaterialChannels); n != 1 {
			t.Errorf("%d animated material properties, want 1; report %q", n, a.Char.Model.Report.Lines(0, 0))
		}
		for _, k := range keys {
			img, err := a.Shoot(k.t, nil)
			if err != nil {
				return err
			}
			got := img.NRGBAAt(32, 32)
			if absDiff(got.R, k.want.R) > 1 || absDiff(got.G, k.want.G) > 1 || absDiff(got.B, k.want.B) > 1 {
				t.Errorf("at %v s the quad is %v, want %v", k.t, got, k.want)
			}
		}
		return nil
	})
}
