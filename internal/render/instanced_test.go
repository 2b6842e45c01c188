package render

import (
	"image"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/debugview"
)

// An instanced draw of three members (each its own palette, offset and
// morph weights) draws the pixels three ordinary draws do, with each
// member's offset added to its palette's translations and its weights as
// the draw's Morph.
func TestInstancedDrawMatchesSeparateDraws(t *testing.T) {
	d := quad(0)
	// Five targets (two texels of weights a member), each moving one
	// corner its own way: target k moves vertex k mod 4.
	for k := range 5 {
		p := make([]float32, 12)
		p[3*(k%4)], p[3*(k%4)+1] = 0.3*float32(k+1)*float32(1-2*(k%2)), 0.2*float32(k)
		d.Targets = append(d.Targets, MorphTarget{Positions: p})
	}
	// Members: a quarter-size quad, one a little tilted about z.
	pals := [][]float32{
		{0.25, 0, 0, 0, 0, 0.25, 0, 0.1, 0, 0, 0.25, 0},
		{0.2, -0.1, 0, 0, 0.1, 0.2, 0, 0, 0, 0, 0.25, 0},
		{0.3, 0, 0, 0, 0, 0.3, 0, -0.1, 0, 0, 0.3, 0},
	}
	offsets := []float32{-1.2, 0, 0, 0, 0.9, 0, 1.1, -0.8, 0.1}
	weights := []float32{0, 0, 1, 0, 0.5, 1, 0.3, 0, 0, -0.4, 0, 0.7, 0, 0.8, 1}
	mat := Material{BaseColor: [4]float32{0.8, 0.3, 0.2, 1}, Texture: NoTexture, DoubleSided: true}
	separate := drawScene(t, debugview.Shaded, func(r *Renderer) ([]DrawItem, error) {
		id, err := r.AddMesh(d)
		var items []DrawItem
		for k, p := range pals {
			p = append([]float32(nil), p...)
			p[3] += offsets[3*k]
			p[7] += offsets[3*k+1]
			p[11] += offsets[3*k+2]
			items = append(items, DrawItem{Mesh: id, Material: mat, Palette: p, WeightJoint: -1, Morph: weights[5*k : 5*k+5]})
		}
		return items, err
	})
	instanced := drawScene(t, debugview.Shaded, func(r *Renderer) ([]DrawItem, error) {
		id, err := r.AddMesh(d)
		var all []float32
		for _, p := range pals {
			all = append(all, p...)
		}
		return []DrawItem{{Mesh: id, Material: mat, Palette: all, WeightJoint: -1, Morph: weights, Instances: 3, Offsets: offsets}}, err
	})
	covered, differ := 0, 0
	for y := range 64 {
		for x := range 64 {
			a, b := separate.NRGBAAt(x, y), instanced.NRGBAAt(x, y)
			if a != separate.NRGBAAt(0, 0) {
				covered++
			}
			if !near(a, b, 1) {
				differ++
				if differ <= 3 {
					t.Errorf("pixel %v: separate %v, instanced %v", image.Pt(x, y), a, b)
				}
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d pixels differ", differ)
	}
	// 16 pixels a unit at z = 0: quads of side 0.5, 0.45 and 0.6 cover
	// 64, 51 and 92 pixels, the morphs add some: all three show.
	if covered < 200 {
		t.Errorf("the members cover %d pixels; want at least 200 (three quads)", covered)
	}
}

// An instanced item whose palette is not whole palettes, or whose offsets
// do not match its instances, is refused with a message naming the item.
func TestInstancedDrawRejectsBadRecords(t *testing.T) {
	for _, c := range []struct {
		name, want       string
		palette, offsets []float32
	}{
		{"short palette", "palette of 18 floats", make([]float32, 12+6), make([]float32, 6)},
		{"few offsets", "3 offset floats", make([]float32, 24), make([]float32, 3)},
	} {
		t.Run(c.name, func(t *testing.T) {
			withMesh(t, quad(0), func(r *Renderer, id MeshID) error {
				tg, err := NewTarget(8, 8, 1)
				if err != nil {
					return err
				}
				defer tg.Destroy()
				f := &Frame{Target: tg, Width: 8, Height: 8, Camera: Camera{Distance: 2, FovY: 1, Near: 0.1, Far: 10},
					Items: []DrawItem{{Mesh: id, Palette: c.palette, Offsets: c.offsets, Instances: 2, WeightJoint: -1}}}
				err = r.Draw(f)
				if err == nil || !strings.Contains(err.Error(), "draw item 0") || !strings.Contains(err.Error(), c.want) {
					t.Errorf("got %v; want an error naming draw item 0 and %q", err, c.want)
				}
				return nil
			})
		})
	}
}
