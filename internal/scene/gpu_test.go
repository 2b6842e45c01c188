package scene

import (
	"image"
	"math"
	"testing"

	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/skin"
)

// TestPartitionedSkinningMatchesUnsplit splits the character into draw
// calls of at most 12 joints. Each partition, skinned with the palette it
// gathered and its remapped joints, must put every vertex where skinning
// the unsplit primitive with the whole skin does (to 1e-5 of the
// diagonal); and the picture drawn by skin.vert from the partitions must
// be the picture of the CPU-skinned unsplit mesh. (render's own tests
// check skin.vert against the CPU to 1e-5 per vertex.)
func TestPartitionedSkinningMatchesUnsplit(t *testing.T) {
	m := assettest.Character(t)
	p := &m.Meshes[0].Primitives[0]
	const at = 0.37
	draw := func(skinning string, limit int, check func(v *View) error) *image.NRGBA {
		c, err := character.New(m, nil, nil, -1, 0)
		if err != nil {
			t.Fatal(err)
		}
		var img *image.NRGBA
		onGL(t, func() error {
			v, err := NewView(c, ViewOptions{Skinning: skinning, PaletteLimit: limit}, 400, 400)
			if err != nil {
				return err
			}
			defer v.Destroy()
			if err := v.PoseAt(at); err != nil {
				return err
			}
			if err := v.Draw(); err != nil {
				return err
			}
			img = v.Target.ReadImage()
			if check != nil {
				return check(v)
			}
			return nil
		})
		return img
	}
	parts, worst := 0, 0.0
	covered := map[uint32]bool{}
	gpu := draw(SkinGPU, 12, func(v *View) error {
		want := make([]float32, len(p.Positions))
		if err := skin.Positions(want, p.Positions, p.Joints, p.Weights, 4, v.c.Palettes[m.Instances[0].Skin]); err != nil {
			return err
		}
		lo, hi, _ := skin.Bounds(want)
		diag := math.Sqrt(float64((hi[0]-lo[0])*(hi[0]-lo[0]) + (hi[1]-lo[1])*(hi[1]-lo[1]) + (hi[2]-lo[2])*(hi[2]-lo[2])))
		for _, d := range v.Scene.draws {
			if d.joints == nil {
				continue
			}
			parts++
			got := make([]float32, len(d.prim.Positions))
			if err := skin.Positions(got, d.prim.Positions, d.prim.Joints, d.prim.Weights, 4, d.palette); err != nil {
				return err
			}
			for i, src := range d.source {
				covered[src] = true
				for k := range 3 {
					worst = max(worst, math.Abs(float64(got[i*3+k]-want[int(src)*3+k]))/diag)
				}
			}
		}
		return nil
	})
	cpu := draw(SkinCPU, 0, nil)
	if parts < 2 {
		t.Fatalf("palette limit 12 gave %d partitions; the default character needs several", parts)
	}
	if len(covered) != p.NumVertices() {
		t.Errorf("partitions cover %d of %d vertices", len(covered), p.NumVertices())
	}
	if worst > 1e-5 {
		t.Errorf("partitioned skinning differs from the unsplit by %.3g of the diagonal", worst)
	}
	// The pictures agree to a level or two a pixel, but for a few pixels on
	// the silhouette: the shader and Go round the same skinning sum in a
	// different order, and with the palette's last bits as one kernel level
	// or another computes them (AVX-512 here), a vertex a few ulps apart
	// moves an edge across a pixel centre. A partition drawn with another's
	// palette moves hundreds of pixels; the vertex check above is exact.
	differ, drawn := 0, 0
	for i := 0; i < len(gpu.Pix); i += 4 {
		d := 0
		for k := range 3 {
			d = max(d, absInt(int(gpu.Pix[i+k])-int(cpu.Pix[i+k])))
		}
		if d > 2 {
			differ++
		}
		if gpu.Pix[i] != Background.R || gpu.Pix[i+1] != Background.G || gpu.Pix[i+2] != Background.B {
			drawn++
		}
	}
	if drawn < 8000 || differ > 4 {
		t.Errorf("%d of %d drawn pixels differ between the split GPU skinning and the CPU skinning", differ, drawn)
	}
	t.Logf("%d partitions, worst vertex %.3g of the diagonal, %d of %d drawn pixels differ", parts, worst, differ, drawn)
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestPaletteLimitClamped: a palette limit above what the renderer's
// uniform block holds draws at the renderer's capacity, as none does; one
// within it is kept.
func TestPaletteLimitClamped(t *testing.T) {
	m := assettest.Character(t)
	for _, asked := range []int{0, 12, 1 << 20} {
		c, err := character.New(m, nil, nil, -1, 0)
		if err != nil {
			t.Fatal(err)
		}
		onGL(t, func() error {
			v, err := NewView(c, ViewOptions{Skinning: SkinGPU, PaletteLimit: asked}, 64, 64)
			if err != nil {
				return err
			}
			defer v.Destroy()
			want := v.R.MaxJoints()
			if asked == 12 {
				want = 12
			}
			if got := v.Scene.Limit(); got != want {
				t.Errorf("-palette-limit %d: draw calls of %d joints, want %d", asked, got, want)
			}
			return nil
		})
	}
}
