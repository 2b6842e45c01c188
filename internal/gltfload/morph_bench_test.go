package gltfload

import "testing"

// BenchmarkMorph is the CPU morph of -skinning cpu: 50,176 vertices with
// positions and normals, 8 targets, 2 of them weighted.
func BenchmarkMorph(b *testing.B) {
	const n = 224 * 224
	p := Primitive{Positions: make([]float32, 3*n), Normals: make([]float32, 3*n)}
	for range 8 {
		p.Targets = append(p.Targets, MorphTarget{Positions: make([]float32, 3*n), Normals: make([]float32, 3*n)})
	}
	weights := []float32{1, 0.5, 0, 0, 0, 0, 0, 0}
	pos, nrm := make([]float32, 3*n), make([]float32, 3*n)
	for b.Loop() {
		p.Morph(pos, nrm, weights)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/vertex")
}
