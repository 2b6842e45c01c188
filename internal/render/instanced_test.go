package render

import (
	"image"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/debugview"
)

// An instanced draw of three members of a batch (each its own palette,
// offset and morph weights) draws the pixels three ordinary draws do, with
// each member's offset added to its palette's translations and its
// weights as the draw's Morph.
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
	var batches []*InstanceBatch
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
	// A batch of five members, three of them drawn (in another order
	// than their places in the batch), one set twice (the last counts).
	instanced := drawSceneThen(t, debugview.Shaded, func(r *Renderer) ([]DrawItem, error) {
		id, err := r.AddMesh(d)
		if err != nil {
			return nil, err
		}
		b, err := r.NewInstanceBatch(5, 1, 5)
		if err != nil {
			return nil, err
		}
		batches = append(batches, b)
		place := []int{4, 0, 2}
		b.Set(place[0], pals[2], [3]float32{9, 9, 9}, nil)
		for k, p := range pals {
			b.Set(place[k], p, [3]float32{offsets[3*k], offsets[3*k+1], offsets[3*k+2]}, weights[5*k:5*k+5])
		}
		b.Set(1, pals[1], [3]float32{0, 0, 0}, nil) // not drawn
		return []DrawItem{{Mesh: id, Material: mat, WeightJoint: -1, Instances: 3, Members: []int32{4, 0, 2}, Batch: b}}, nil
	}, OwnLighting, func(r *Renderer) {
		for _, b := range batches {
			b.Destroy()
		}
	})
	// The same members' palettes uploaded at once from one run of memory
	// (SetPalettes), their extras set apart.
	direct := drawSceneThen(t, debugview.Shaded, func(r *Renderer) ([]DrawItem, error) {
		id, err := r.AddMesh(d)
		if err != nil {
			return nil, err
		}
		b, err := r.NewInstanceBatch(4, 1, 5)
		if err != nil {
			return nil, err
		}
		batches = append(batches, b)
		var run []float32
		for k, p := range pals {
			run = append(run, p...)
			b.SetExtras(k+1, [3]float32{offsets[3*k], offsets[3*k+1], offsets[3*k+2]}, weights[5*k:5*k+5])
		}
		b.SetPalettes(1, run)
		return []DrawItem{{Mesh: id, Material: mat, WeightJoint: -1, Instances: 3, Members: []int32{1, 2, 3}, Batch: b}}, nil
	}, OwnLighting, func(r *Renderer) {
		for _, b := range batches {
			b.Destroy()
		}
	})
	for y := range 64 {
		for x := range 64 {
			if a, b := separate.NRGBAAt(x, y), direct.NRGBAAt(x, y); !near(a, b, 1) {
				t.Fatalf("palettes uploaded as a run: pixel %v is %v; separate draws give %v", image.Pt(x, y), b, a)
			}
		}
	}
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

// An instanced item without a batch, or whose members list does not
// match its instances, is refused with a message naming the item.
func TestInstancedDrawRejectsBadItems(t *testing.T) {
	withMesh(t, quad(0), func(r *Renderer, id MeshID) error {
		b, err := r.NewInstanceBatch(2, 1, 0)
		if err != nil {
			return err
		}
		defer b.Destroy()
		tg, err := NewTarget(8, 8, 1)
		if err != nil {
			return err
		}
		defer tg.Destroy()
		for _, c := range []struct {
			it   DrawItem
			want string
		}{
			{DrawItem{Mesh: id, Instances: 2, Members: []int32{0, 1}, WeightJoint: -1}, "without an instance batch"},
			{DrawItem{Mesh: id, Instances: 2, Members: []int32{0}, Batch: b, WeightJoint: -1}, "names 1 members"},
		} {
			f := &Frame{Target: tg, Width: 8, Height: 8, Camera: Camera{Distance: 2, FovY: 1, Near: 0.1, Far: 10}, Items: []DrawItem{c.it}}
			if err := r.Draw(f); err == nil || !strings.Contains(err.Error(), "draw item 0") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v; want an error naming draw item 0 and %q", err, c.want)
			}
		}
		if _, err := r.NewInstanceBatch(1<<30, 50, 0); err == nil || !strings.Contains(err.Error(), "texels") {
			t.Errorf("a batch beyond the driver's buffer textures: %v; want an error saying how many texels", err)
		}
		return nil
	})
}
