package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
)

// TestPosePointsByHand: the drawn vertices where the pose puts them,
// worked out by hand. The two-joint file at the end of its bend (tip
// turned 90° about +Z about (0, 2, 0)): (0, 1, 0) on the root stays,
// (0, 2, 0) on the tip's origin stays, (0, 3, 0) half on each is the
// mean of (0, 3, 0) and (−1, 2, 0); the body node's (5, 0, 0) is not
// applied (skinning ignores it). Hung rigidly from the tip, the mesh's
// (0, k, 0) goes to the tip's (0, 2, 0) plus (0, k, 0) turned 90° about
// +Z, (−k, 0, 0). The morph triangle at weights
// (1, 0): its third vertex moved by (0.5, 1, 0.25).
func TestPosePointsByHand(t *testing.T) {
	_, skinned := twoJoint(t, "two.gltf", 0)
	_, rigid := rigidTwoJoint(t)
	m, err := gltfload.Decode(morphTriangleGLTF(t, "[1, 0]", nil), nil, "morph.gltf")
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	morphed, err := character.New(m, nil, nil, -1, 0)
	if err != nil {
		t.Fatalf("character: %v", err)
	}
	for _, tc := range []struct {
		name string
		c    *character.Character
		want []mgl32.Vec3
	}{
		{"skinned", skinned, []mgl32.Vec3{{0, 1, 0}, {0, 2, 0}, {-0.5, 2.5, 0}}},
		{"rigid", rigid, []mgl32.Vec3{{-1, 2, 0}, {-2, 2, 0}, {-3, 2, 0}}},
		{"morphed", morphed, []mgl32.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1.5, 0.25}}},
	} {
		withView(t, tc.c, func(v *View) error {
			if err := v.PoseAt(1); err != nil {
				return err
			}
			got := v.Scene.PosePoints(nil, tc.c, 100)
			if len(got) != len(tc.want) {
				t.Errorf("%s: %d points %v; want %v", tc.name, len(got), got, tc.want)
				return nil
			}
			for i, p := range got {
				if !p.ApproxEqualThreshold(tc.want[i], 1e-5) {
					t.Errorf("%s: point %d at %v; want %v", tc.name, i, p, tc.want[i])
				}
			}
			// A limit below the count keeps every k-th: 2 of 3 with k = 2.
			if n := len(v.Scene.PosePoints(nil, tc.c, 2)); n != 2 {
				t.Errorf("%s: %d points under a limit of 2; want 2 (every second)", tc.name, n)
			}
			return nil
		})
	}
}

// growGLTF is a triangle (0, 0, 0), (1, 0, 0), (0.5, 0.5, 0) whose one
// morph target lifts its third vertex by (0, 10, 0), the clip "grow"
// taking its weight from 0 at 0 s to 1 at 1 s: a model twenty times
// taller at the clip's end than where it opens.
func growGLTF(t *testing.T) []byte {
	t.Helper()
	var bin bytes.Buffer
	if err := binary.Write(&bin, binary.LittleEndian, []float32{0, 0, 0, 1, 0, 0, 0.5, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 1, 0, 1}); err != nil {
		t.Fatal(err)
	}
	return []byte(fmt.Sprintf(`{
  "asset": {"version": "2.0"},
  "scene": 0, "scenes": [{"nodes": [0]}],
  "nodes": [{"mesh": 0}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "targets": [{"POSITION": 1}]}]}],
  "animations": [{"name": "grow", "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}], "samplers": [{"input": 2, "output": 3}]}],
  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 36},
                  {"buffer": 0, "byteOffset": 72, "byteLength": 8}, {"buffer": 0, "byteOffset": 80, "byteLength": 8}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 0.5, 0]},
    {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [0, 10, 0]},
    {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
    {"bufferView": 3, "componentType": 5126, "count": 2, "type": "SCALAR"}
  ]
}`, bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes())))
}

// TestFramingOpensOnThePose: the growing triangle through the screenshot
// path. Framing its whole clip (a pillar 10.5 tall) would leave the
// opening triangle under a tenth of the picture; it spans two fifths
// (leastShown, less a pixel of rasterization), and not much more: the
// framing draws in no further than that. At the clip's end the grown
// triangle reaches past the picture's top.
func TestFramingOpensOnThePose(t *testing.T) {
	m, err := gltfload.Decode(growGLTF(t), nil, "grow.gltf")
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	c, err := character.New(m, nil, nil, 0, 0)
	if err != nil {
		t.Fatalf("character: %v", err)
	}
	const w, h = 160, 120
	var open, end *image.NRGBA
	onGL(t, func() error {
		if open, err = RenderImage(c, ViewOptions{Skinning: SkinGPU}, 0, w, h); err != nil {
			return err
		}
		end, err = RenderImage(c, ViewOptions{Skinning: SkinGPU}, 1, w, h)
		return err
	})
	if open == nil || end == nil {
		return
	}
	if sw, sh := span(open); !(max(sw, sh) >= leastShown-1.0/h && max(sw, sh) <= leastShown+0.05) {
		t.Errorf("the opening pose spans %.0f%% × %.0f%% of the picture; want %.0f%% one way, within 5%%", 100*sw, 100*sh, 100*leastShown)
	}
	top := false
	for x := range w {
		top = top || end.NRGBAAt(x, 0) != Background
	}
	if !top {
		t.Error("the grown triangle does not reach the picture's top; the framing did not draw in")
	}
}
