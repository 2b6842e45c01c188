package skin

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkPositionsOld(b *testing.B) {
	m := gridMesh(2, 159, 300)
	pal := randomPose(rand.New(rand.NewPCG(1, 1)), m.numJ, true)
	pos := make([]float32, len(m.pos))
	nv := len(m.pos) / 3
	for b.Loop() {
		Positions(pos, m.pos, m.joints, m.weights, 4, pal)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nv), "ns/vertex")
}
func BenchmarkSkin4NoNrm(b *testing.B) {
	m := gridMesh(2, 159, 300)
	pal := randomPose(rand.New(rand.NewPCG(1, 1)), m.numJ, true)
	pos := make([]float32, len(m.pos))
	nv := len(m.pos) / 3
	for b.Loop() {
		Skin4(pos, nil, m.pos, nil, m.joints, m.weights, pal)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nv), "ns/vertex")
}
