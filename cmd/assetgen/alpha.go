package main

import (
	"image"
	"image/color"

	"github.com/go-gl/mathgl/mgl64"
)

// Alpha-mode edge files: what glTF's MASK and BLEND look like drawn right.

// pane is a quad in a plane z = const, (x0, y0)–(x1, y1), facing +Z, with
// texture coordinates (0, 0) at its top-left corner.
func (e *edgeDoc) pane(x0, y0, x1, y1, z float64) gltfPrimitive {
	pos := []float32{float32(x0), float32(y1), float32(z), float32(x0), float32(y0), float32(z), float32(x1), float32(y1), float32(z), float32(x1), float32(y0), float32(z)}
	lo, hi := boundsOf(pos, 3)
	attr := map[string]int{
		attrPosition:  e.b.accessor(float32s(pos), targetArrayBuffer, compFloat, 4, "VEC3", lo, hi),
		attrNormal:    e.b.accessor(float32s([]float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}), targetArrayBuffer, compFloat, 4, "VEC3", nil, nil),
		attrTexCoord0: e.b.accessor(float32s([]float32{0, 0, 0, 1, 1, 0, 1, 1}), targetArrayBuffer, compFloat, 4, "VEC2", nil, nil),
	}
	idx := e.b.accessor(uint16s([]uint16{0, 1, 2, 2, 1, 3}), targetElementArrayBuffer, compUnsignedShort, 6, "SCALAR", nil, nil)
	return gltfPrimitive{Attributes: attr, Indices: intPtr(idx)}
}

// alphaMaterial adds a double-sided material of base colour rgba in the
// given alpha mode (cutoff for MASK, else 0), textured with texture tex
// when tex >= 0.
func (e *edgeDoc) alphaMaterial(name string, rgba [4]float64, mode string, cutoff float64, tex int) int {
	m := gltfMaterial{Name: name, DoubleSided: true, AlphaMode: mode,
		PBR: gltfPBR{BaseColorFactor: rgba, MetallicFactor: 0, RoughnessFactor: 0.8}}
	if cutoff > 0 {
		m.AlphaCutoff = &cutoff
	}
	if tex >= 0 {
		m.PBR.BaseColorTexture = &gltfTextureInfo{Index: tex}
	}
	e.doc.Materials = append(e.doc.Materials, m)
	return len(e.doc.Materials) - 1
}

// edgeAlphaBlend: three tinted panes (red, green, blue, alpha 0.5) that
// overlap one another, 0.25 apart in depth, turning a full circle about
// the vertical in 4 s, clockwise seen from above: two panes are at the
// same depth (where per-draw sorting may go either way) only near 40° and
// 220°, away from the 37 % of the clip that comparisons pose. Drawn right, each overlap shows the nearer pane's
// tint over the farther one's, whichever side faces the camera: blended
// draws sorted back to front, none writing depth.
func edgeAlphaBlend() ([]byte, error) {
	e := newEdgeDoc()
	tints := [][4]float64{{0.9, 0.1, 0.1, 0.5}, {0.1, 0.8, 0.1, 0.5}, {0.1, 0.2, 0.9, 0.5}}
	var panes []int
	for i, c := range tints {
		mat := e.alphaMaterial([]string{"RedGlass", "GreenGlass", "BlueGlass"}[i], c, "BLEND", 0, -1)
		// Each pane is centred on its node, so that renderers sorting by
		// node position and by draw bounds agree.
		d := 0.3 * float64(i)
		m := e.mesh([]string{"Red", "Green", "Blue"}[i], mat, e.pane(-0.5, -0.5, 0.5, 0.5, 0))
		panes = append(panes, e.node(gltfNode{Name: []string{"Red", "Green", "Blue"}[i], Mesh: intPtr(m),
			Translation: &[3]float64{d - 0.1, d * 0.6, 0.25 - 0.25*float64(i)}}))
	}
	turn := e.node(gltfNode{Name: "Turntable", Children: panes})
	e.scene(turn)
	e.animation("Turn", edgeChannel{turn, "rotation", "LINEAR", []float64{0, 1, 2, 3, 4},
		rotationKeys(mgl64.Vec3{0, 1, 0}, 0, -90, -180, -270, -360)})
	return e.encode()
}

// edgeAlphaMask: two cut-out cards crossing at right angles, like grass or
// hair cards, textured with leaves on a clear background (MASK, cutoff
// 0.5), swaying back and forth. Drawn right, the clear texels are holes
// that show what is behind, with hard edges, and no card hides the other
// where it is cut away.
func edgeAlphaMask() ([]byte, error) {
	e := newEdgeDoc()
	png, err := encodePNG(leafTexture())
	if err != nil {
		return nil, err
	}
	e.doc.Images = []gltfImage{{Name: "Leaves", BufferView: e.b.view(png, 0), MimeType: "image/png"}}
	e.doc.Samplers = []gltfSampler{{MagFilter: filterNearest, MinFilter: filterNearest, WrapS: wrapClampToEdge, WrapT: wrapClampToEdge}}
	e.doc.Textures = []gltfTexture{{Sampler: 0, Source: 0}}
	mat := e.alphaMaterial("Leaves", [4]float64{0.25, 0.6, 0.15, 1}, "MASK", 0.5, 0)
	front := e.mesh("CardFront", mat, e.pane(-0.5, 0, 0.5, 1.2, 0))
	cross := e.node(gltfNode{Name: "CardSide", Mesh: intPtr(front), Rotation: &[4]float64{0, 0.7071067811865476, 0, 0.7071067811865476}})
	card := e.node(gltfNode{Name: "CardFront", Mesh: intPtr(front), Children: []int{cross}})
	e.scene(card)
	e.animation("Sway", edgeChannel{card, "rotation", "LINEAR", []float64{0, 1, 2},
		rotationKeys(mgl64.Vec3{0, 0, 1}, -10, 10, -10)})
	return e.encode()
}

// leafTexture is 16×16 texels: leaf-shaped blobs (white, alpha 1) on a
// clear background (alpha 0), the stem grey.
func leafTexture() *image.NRGBA {
	return paintTexture(16, func(x, y int) color.NRGBA {
		// Three leaves: ellipses along the card, at rows 2–6, 6–10,
		// 10–15, alternately left and right of the stem at x = 8.
		in := x == 7 || x == 8 // the stem
		for i, c := range [][2]float64{{5, 4}, {11, 8}, {5, 12.5}} {
			dx, dy := (float64(x)+0.5-c[0])/3.2, (float64(y)+0.5-c[1])/(2.0+0.3*float64(i))
			in = in || dx*dx+dy*dy <= 1
		}
		if !in {
			return color.NRGBA{}
		}
		v := uint8(255)
		if x == 7 || x == 8 {
			v = 150
		}
		return color.NRGBA{R: v, G: v, B: v, A: 255}
	})
}
