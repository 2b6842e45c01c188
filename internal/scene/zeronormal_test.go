package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image/color"
	"testing"

	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
)

// squareGLTF is a unit square in the XY plane, two triangles, whose four
// vertices all have the normal n.
func squareGLTF(t *testing.T, n [3]float32) []byte {
	var bin bytes.Buffer
	pos := []float32{-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0}
	if err := binary.Write(&bin, binary.LittleEndian, pos); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := binary.Write(&bin, binary.LittleEndian, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := binary.Write(&bin, binary.LittleEndian, []uint16{0, 1, 2, 0, 2, 3}); err != nil {
		t.Fatal(err)
	}
	return fmt.Appendf(nil, `{"asset": {"version": "2.0"},
	 "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
	 "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 48}, {"buffer": 0, "byteOffset": 96, "byteLength": 12}],
	 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-0.5, -0.5, 0], "max": [0.5, 0.5, 0]},
	   {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"},
	   {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}],
	 "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2}]}],
	 "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}`, bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes()))
}

// A zero normal, which glTF allows, is lit as facing the camera: the
// square is drawn in a lit colour, not the black or garbage a normalized
// zero (NaN) gives, and not left undrawn.
func TestZeroNormalIsLitFacingTheCamera(t *testing.T) {
	m, err := gltfload.Decode(squareGLTF(t, [3]float32{0, 0, 0}), nil, "zero.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := character.New(m, nil, nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	onGL(t, func() error {
		img, err := RenderImage(c, ViewOptions{Skinning: SkinGPU}, 0, 64, 64)
		if err != nil {
			return err
		}
		// Facing the camera, a white surface under the studio's
		// irradiance alone (0.35 radiance at the horizon and above: E ≥
		// 0.35π, E/π ≥ 0.35 linear, about 160 in sRGB before the tone
		// curve's 0.04 offset) has every channel well above 100.
		got := img.NRGBAAt(32, 32)
		if got == Background || got.R < 100 || got.G < 100 || got.B < 100 {
			t.Errorf("centre pixel %v; want the lit square (every channel above 100, not the background %v)", got, color.NRGBA(Background))
		}
		return nil
	})
}
