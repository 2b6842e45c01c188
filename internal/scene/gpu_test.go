package scene

import (
	"image"
	"testing"
)

// TestPartitionedGPUSkinningMatchesCPU draws the character split into
// draw calls of at most 12 joints, skinned by skin.vert, and unsplit,
// skinned on the CPU, at the same time and camera: the pictures must
// agree. A partition that gathered the wrong joints, or dropped or
// duplicated vertices, shows as a limb out of place. (render's own tests
// check skin.vert against the CPU to 1e-5 per vertex.)
func TestPartitionedGPUSkinningMatchesCPU(t *testing.T) {
	m := character(t)
	draw := func(skinning string, limit int) (img *image.NRGBA, parts int, covered map[uint32]bool) {
		c, err := NewCharacter(m, nil, -1, 0)
		if err != nil {
			t.Fatal(err)
		}
		covered = map[uint32]bool{}
		onGL(t, func() error {
			v, err := NewView(c, ViewOptions{Skinning: skinning, PaletteLimit: limit}, 200, 200)
			if err != nil {
				return err
			}
			defer v.Destroy()
			if err := v.PoseAt(0.37); err != nil {
				return err
			}
			if err := v.Draw(); err != nil {
				return err
			}
			img = v.Target.ReadImage()
			parts = v.Stats.Partitions
			for _, d := range v.Scene.draws {
				for _, src := range d.source {
					covered[src] = true
				}
			}
			return nil
		})
		return img, parts, covered
	}
	gpu, parts, covered := draw(SkinGPU, 12)
	cpu, _, _ := draw(SkinCPU, 0)
	if parts < 2 {
		t.Fatalf("palette limit 12 gave %d partitions; the default character needs several", parts)
	}
	if n := m.Meshes[0].Primitives[0].NumVertices(); len(covered) != n {
		t.Errorf("partitions cover %d of %d vertices", len(covered), n)
	}
	// Rounding moves a silhouette pixel here and there; a misplaced limb
	// changes hundreds.
	differ, drawn := 0, 0
	for i := 0; i < len(gpu.Pix); i += 4 {
		d := 0
		for k := range 3 {
			d = max(d, absInt(int(gpu.Pix[i+k])-int(cpu.Pix[i+k])))
		}
		if d > 24 {
			differ++
		}
		if gpu.Pix[i] != Background.R || gpu.Pix[i+1] != Background.G || gpu.Pix[i+2] != Background.B {
			drawn++
		}
	}
	if drawn < 2000 || differ > 40 {
		t.Fatalf("%d of %d drawn pixels differ between the split GPU skinning and the CPU skinning (at most 40 may, at edges)", differ, drawn)
	}
	t.Logf("%d partitions, %d of %d drawn pixels differ", parts, differ, drawn)
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
