package scene

import (
	"math"
	"testing"

	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/skin"
)

// TestPartitionedGPUSkinningMatchesCPU captures, by transform feedback,
// what skin.vert computes for every partition of a forced split and
// compares each vertex with the CPU skinning of the unsplit primitive.
func TestPartitionedGPUSkinningMatchesCPU(t *testing.T) {
	m := character(t)
	c, err := NewCharacter(m, nil, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.Evaluate(0.37)
	type capture struct {
		src drawSource
		got []float32
	}
	var caps []capture
	parts := 0
	onGL(t, func() error {
		r, err := render.New()
		if err != nil {
			return err
		}
		defer r.Destroy()
		s, err := upload(r, c, SkinGPU, 12)
		if err != nil {
			return err
		}
		if err := s.Refresh(r, c); err != nil {
			return err
		}
		parts = s.Parts
		for i, d := range s.draws {
			if d.joints == nil {
				continue
			}
			got, _, err := r.CaptureSkinned(s.items[i].Mesh, d.palette, render.LinearBlend)
			if err != nil {
				return err
			}
			caps = append(caps, capture{d, got})
		}
		return nil
	})
	if parts < 2 || len(caps) != parts {
		t.Fatalf("palette limit 12 gave %d partitions (%d captured); the default character needs several", parts, len(caps))
	}
	p := &m.Meshes[0].Primitives[0]
	want := make([]float32, len(p.Positions))
	if err := skin.Positions(want, p.Positions, p.Joints, p.Weights, 4, c.Palettes[m.Instances[0].Skin]); err != nil {
		t.Fatal(err)
	}
	lo, hi, _ := skin.Bounds(want)
	diag := math.Sqrt(float64((hi[0]-lo[0])*(hi[0]-lo[0]) + (hi[1]-lo[1])*(hi[1]-lo[1]) + (hi[2]-lo[2])*(hi[2]-lo[2])))
	worst := 0.0
	covered := map[uint32]bool{}
	for _, cp := range caps {
		for v, src := range cp.src.source {
			covered[src] = true
			for k := 0; k < 3; k++ {
				worst = math.Max(worst, math.Abs(float64(cp.got[v*3+k]-want[int(src)*3+k]))/diag)
			}
		}
	}
	if worst > 1e-5 {
		t.Fatalf("partitioned GPU skinning differs from CPU by %.3g of the diagonal", worst)
	}
	if len(covered) != p.NumVertices() {
		t.Fatalf("partitions cover %d of %d vertices", len(covered), p.NumVertices())
	}
	t.Logf("%d partitions, worst difference %.3g of the diagonal", parts, worst)
}
