package main

import (
	"image"
	"math"
	"testing"

	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/golden"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/skin"
)

// testModels are the assets every skinning proof runs on.
func testModels(t *testing.T) map[string]*gltfload.Model {
	t.Helper()
	def, err := loadModel("")
	if err != nil {
		t.Fatal(err)
	}
	two, err := gltfload.Decode(twoJointGLTF(t), nil, "two-joint.gltf")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*gltfload.Model{"character": def, "two-joint": two}
}

// TestSkinningModesAgree renders each model skinned on the GPU with the
// driver's palette, on the CPU, and with partitions forced by small palette
// limits: the pictures must agree within a tight tolerance.
func TestSkinningModesAgree(t *testing.T) {
	variants := []struct {
		name string
		opt  options
	}{
		{"cpu", options{skinning: skinCPU}},
		{"limit12", options{skinning: skinGPU, paletteLimit: 12}},
		{"limit16", options{skinning: skinGPU, paletteLimit: 16}},
		{"limit32", options{skinning: skinGPU, paletteLimit: 32}},
	}
	for name, m := range testModels(t) {
		t.Run(name, func(t *testing.T) {
			c, err := newCharacter(m, nil, -1, 0)
			if err != nil {
				t.Fatal(err)
			}
			tm := c.duration() * 0.4
			var ref *image.NRGBA
			imgs := make([]*image.NRGBA, len(variants))
			onGL(t, func() (err error) {
				if ref, err = renderImage(c, &options{skinning: skinGPU}, tm, 240, 300); err != nil {
					return err
				}
				for i, v := range variants {
					if imgs[i], err = renderImage(c, &v.opt, tm, 240, 300); err != nil {
						return err
					}
				}
				return nil
			})
			for i, v := range variants {
				r := golden.Compare(imgs[i], ref, golden.Options{Threshold: 0.05, MaxBadFraction: 0.0005})
				if !r.OK() {
					t.Errorf("%s differs from GPU skinning: %d bad pixels (budget %d), max delta %.3f, worst region %v", v.name, r.BadPixels, r.Budget, r.MaxDelta, r.Worst)
				}
			}
		})
	}
}

// TestPartitionedGPUSkinningMatchesCPU captures, by transform feedback,
// what skin.vert computes for every partition of a forced split and
// compares each vertex with the CPU skinning of the unsplit primitive.
func TestPartitionedGPUSkinningMatchesCPU(t *testing.T) {
	m, err := loadModel("")
	if err != nil {
		t.Fatal(err)
	}
	c, err := newCharacter(m, nil, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.evaluate(0.37)
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
		s, err := upload(r, c, skinGPU, 12)
		if err != nil {
			return err
		}
		if err := s.refresh(r, c); err != nil {
			return err
		}
		parts = s.parts
		for i, d := range s.draws {
			if d.joints == nil {
				continue
			}
			got, err := r.CaptureSkinned(s.items[i].Mesh, d.palette, render.LinearBlend)
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
	if err := skin.Positions(want, p.Positions, p.Joints, p.Weights, 4, c.palettes[m.Instances[0].Skin]); err != nil {
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
