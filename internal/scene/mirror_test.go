package scene

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/skinview/skinview/internal/debugview"
)

// A node whose global transform has a negative determinant mirrors its
// mesh, and glTF (§3.7.4) makes its triangles' front faces clockwise: a
// single-sided square facing the camera stays drawn when mirrored, as it
// is when rotated half a turn (two negative scales, a positive
// determinant).
func TestMirroredNodeKeepsItsFrontFaces(t *testing.T) {
	for _, scale := range [][3]float32{{1, 1, 1}, {-1, 1, 1}, {1, -1, 1}, {-1, -1, 1}} {
		t.Run(fmt.Sprint(scale), func(t *testing.T) {
			doc := bytes.Replace(squareGLTF(t, [3]float32{0, 0, 1}), []byte(`"nodes": [{"mesh": 0}]`),
				fmt.Appendf(nil, `"nodes": [{"mesh": 0, "scale": [%g, %g, %g]}]`, scale[0], scale[1], scale[2]), 1)
			_, c := decodeChar(t, doc, "mirror.gltf", 0)
			for _, sk := range []string{SkinGPU, SkinCPU, SkinDQ} {
				onGL(t, func() error {
					img, err := RenderImage(c, ViewOptions{Skinning: sk}, 0, 64, 64)
					if err != nil {
						return err
					}
					if got := img.NRGBAAt(32, 32); got == Background {
						t.Errorf("skinning %s: centre pixel is the background %v: the square's front face was culled", sk, got)
					}
					return nil
				})
			}
		})
	}
}

// A crowd draws a mirrored node's mesh with clockwise front faces too,
// instanced or member by member, and an unmirrored one counter-clockwise.
func TestCrowdKeepsMirroredFrontFaces(t *testing.T) {
	for _, x := range []float32{1, -1} {
		for _, opt := range []CrowdOptions{{}, {Members: true}} {
			doc := bytes.Replace(squareGLTF(t, [3]float32{0, 0, 1}), []byte(`"nodes": [{"mesh": 0}]`),
				fmt.Appendf(nil, `"nodes": [{"mesh": 0, "scale": [%g, 1, 1]}]`, x), 1)
			m, c := decodeChar(t, doc, "mirror.gltf", 0)
			withView(t, c, func(v *View) error {
				cr, err := NewCrowd(v.R, m, 0.3, c, v.Scene, 3, opt)
				if err != nil {
					return err
				}
				defer cr.Close()
				cr.PoseAt(0)
				if len(cr.Items) == 0 {
					t.Fatalf("scale x %v, members %v: the crowd draws nothing", x, opt.Members)
				}
				for i, it := range cr.Items {
					if it.Mirrored != (x < 0) {
						t.Errorf("scale x %v, members %v: item %d has Mirrored %v", x, opt.Members, i, it.Mirrored)
					}
				}
				return nil
			})
		}
	}
}

// A double-sided mirrored square shows the camera its front face, with
// its own normal, not the flipped one of a back face: in the normal view,
// (n+1)/2 of the world normal (0, 0, 1) the mirror in x leaves alone is
// blue 255, where the flipped (0, 0, -1) would be 0.
func TestMirroredDoubleSidedShowsItsFrontNormal(t *testing.T) {
	for _, x := range []float32{1, -1} {
		doc := bytes.Replace(squareGLTF(t, [3]float32{0, 0, 1}), []byte(`"nodes": [{"mesh": 0}]`),
			fmt.Appendf(nil, `"nodes": [{"mesh": 0, "scale": [%g, 1, 1]}], "materials": [{"doubleSided": true}]`, x), 1)
		doc = bytes.Replace(doc, []byte(`"indices": 2}`), []byte(`"indices": 2, "material": 0}`), 1)
		_, c := decodeChar(t, doc, "mirror.gltf", 0)
		onGL(t, func() error {
			img, err := RenderImage(c, ViewOptions{Skinning: SkinGPU, View: debugview.Normal}, 0, 64, 64)
			if err != nil {
				return err
			}
			if got := img.NRGBAAt(32, 32); got.B < 200 {
				t.Errorf("scale x %v: centre pixel %v, want blue above 200: the normal (0, 0, 1) towards the camera", x, got)
			}
			return nil
		})
	}
}
