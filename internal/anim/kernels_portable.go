//go:build !(goexperiment.simd && amd64)

package anim

import "fmt"

// Without GOEXPERIMENT=simd on amd64 the fast pipeline runs its portable
// kernels only.

func simdPath() string { return "portable" }

func sampleSoA(c *RuntimeClip, t float32, nlerp bool, cursors []int32, cache []float32, out *SoAPose) {
	sampleSoAWith(c, t, nlerp, cursors, cache, out, interpolateGeneric, false)
}

// A packed clip's pairs are tested and shifted one at a time.

func stalePairs(s, end []float32, nc int, t float32, from int, m *laneMasks, _ bool) bool {
	return stalePairsGeneric(s, end, nc, t, from, m)
}

func shiftFramesAt(pk *packedClip, k int, ca []float32, _ bool) { pk.shiftFrames(k, ca, pk.frame) }

func blendSoA(out, a, b *SoAPose, w float32, nlerp bool, alike uint8) {
	blendSoAGeneric(out, a, b, w, nlerp, alike)
}

func modelPalette(parents []int, in *SoAPose, models []float32, ibs []float32, pal []float32) {
	modelPaletteGeneric(parents, in, models, ibs, pal)
}

func skinPalette(joints []int, models, ibs, pal []float32) {
	skinPaletteGeneric(joints, models, ibs, pal)
}

func mulRowsAt(o, a, l *[12]float32, chain bool) { mulRows(o, a, l) }

// The layers test their joints one at a time (see sameMasks in
// layers_simd.go).
const layerLanes = false

func sameMasks(p, q *SoAPose, from int, m *laneMasks) bool { return false }

func identityMasks(p *SoAPose, from int, m *laneMasks) bool { return false }

func addLanes(out, base, diff *SoAPose, w float32, mask []float32, c, end int, still *laneMasks, alike bool, held uint8) int {
	return c
}

func maskedLanes(out, a, b *SoAPose, w float32, mask []float32, nlerp bool, end int, alike uint8) int {
	return 0
}

// setKernelPath selects the kernels by KernelPath name for tests; it
// reports false for a path this build cannot run.
func setKernelPath(name string) bool { return name == "portable" }

// restoreKernels undoes setKernelPath.
func restoreKernels() {}

func kernelChoices() string { return "" }

// setKernels implements SetKernels: only the portable kernels are built.
func setKernels(name string) error {
	switch name {
	case "auto", "portable":
		return nil
	case "avx2", "avx512":
		return fmt.Errorf("anim: kernels %q: this build has only the portable kernels (build with GOEXPERIMENT=simd on amd64)", name)
	}
	return fmt.Errorf("anim: kernels %q: want auto, portable, avx2 or avx512", name)
}
