package skin

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkPlanPartitions(b *testing.B) {
	for _, bc := range []struct {
		name string
		m    *mesh
		k    int
	}{
		{"grid50k/j300/k64", gridMesh(2, 159, 300), 64},
		{"grid50k/j300/k12", gridMesh(2, 159, 300), 12},
		{"grid100k/j300/k64", gridMesh(4, 225, 300), 64},
	} {
		b.Run(bc.name, func(b *testing.B) {
			nt := len(bc.m.indices) / 3
			for b.Loop() {
				if _, err := PlanPartitions(bc.m.indices, bc.m.joints, bc.m.weights, bc.k); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nt), "ns/triangle")
		})
	}
}

func BenchmarkSkin4(b *testing.B) {
	m := gridMesh(2, 159, 300)
	pal := randomPose(rand.New(rand.NewPCG(1, 1)), m.numJ, true)
	pos := make([]float32, len(m.pos))
	nrm := make([]float32, len(m.nrm))
	nv := len(m.pos) / 3
	for b.Loop() {
		if err := Skin4(pos, nrm, m.pos, m.nrm, m.joints, m.weights, pal); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nv), "ns/vertex")
}

func BenchmarkSkinDQ(b *testing.B) {
	m := gridMesh(2, 159, 300)
	pal := randomPose(rand.New(rand.NewPCG(1, 1)), m.numJ, false)
	dq := make([]float32, m.numJ*DualQuatFloats)
	WriteDualQuats(dq, pal)
	pos := make([]float32, len(m.pos))
	nrm := make([]float32, len(m.nrm))
	nv := len(m.pos) / 3
	for b.Loop() {
		if err := SkinDQ(pos, nrm, m.pos, m.nrm, m.joints, m.weights, dq); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nv), "ns/vertex")
}

func BenchmarkWriteDualQuats(b *testing.B) {
	for _, scaled := range []bool{false, true} {
		name := "rigid"
		if scaled {
			name = "scaled"
		}
		b.Run(name, func(b *testing.B) {
			pal := randomPose(rand.New(rand.NewPCG(1, 1)), 300, scaled)
			dq := make([]float32, 300*DualQuatFloats)
			for b.Loop() {
				WriteDualQuats(dq, pal)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/300, "ns/joint")
		})
	}
}

func BenchmarkPosedBounds(b *testing.B) {
	m := gridMesh(2, 100, 300)
	boxes, err := JointBounds(m.pos, m.joints, m.weights, m.numJ)
	if err != nil {
		b.Fatal(err)
	}
	pal := randomPose(rand.New(rand.NewPCG(1, 1)), m.numJ, true)
	for b.Loop() {
		PosedBounds(boxes, pal)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(m.numJ), "ns/joint")
}
