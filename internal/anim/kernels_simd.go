//go:build goexperiment.simd && amd64

package anim

import (
	"fmt"
	"simd/archsimd"
	"sync"
)

// SIMD kernels of the fast pipeline, for GOEXPERIMENT=simd builds on amd64.
// This file chooses them; each kernel lives beside its portable twin:
// sample_simd.go, blend_simd.go, palette_simd.go and layers_simd.go.
//
// How a kernel is chosen: the CPU's features give the best level it can
// run: AVX-512 (F, CD, BW, DQ, VL, as archsimd bundles them), AVX2 with
// FMA, or none. Until SetKernels is called every kernel runs at that
// level, the same bits on every run. SetKernels("auto") times each kernel
// (slerp and nlerp sampling, slerp and nlerp blending, the model-palette
// pass, the layers) at every level up to that one on a small synthetic
// character (calibrate), and runs it at a wider level only where that
// measured faster than the narrower by a margin: SIMD is never chosen
// where it is slower than portable on the CPU at hand, Intel or AMD, nor
// AVX-512 where it is slower than AVX2. SetKernels("portable", "avx2" or
// "avx512") runs every kernel at that level. Measured timings, and what
// calibration chose on particular CPUs, are in docs/performance-kernels.md.
// What each level runs:
//
//   - BlendSoA: 16 lanes (AVX-512) or 8 (AVX2) of lerp, nlerp or the
//     polynomial slerp over the SoA stripes.
//   - SampleSoAJob: the cached key pairs interpolated 8 lanes wide (lerp,
//     nlerp or the polynomial slerp), both levels; the key streams'
//     refill is scalar. For a compressed clip, the pairs that t has left
//     found, and the frames decoded, 8 lanes at a time.
//   - ModelPaletteJob: local matrices 8 joints at a time from the SoA
//     stripes, then both affine products with 4-lane rows and FMA (both
//     levels).
//   - Layers (MaskedBlendSoA, AddSoA, DifferenceSoA): the joints a layer
//     leaves alone (equal poses, an identity difference) found 8 at a
//     time with vector compares (both levels; the masked blend only in
//     blocks with joints to interpolate); the masked blend and the
//     additive layer then compute whole blocks of 8 joints in lanes; the
//     difference, the last partial block, and additive blocks with a
//     weight outside [0, 1] or a scale to raise to a power, one joint at a
//     time.
//
// Go compiles scalar float code to legacy-SSE encodings: run while the
// upper halves of the vector registers are dirty, each such instruction
// pays a penalty, a state transition on Intel cores and a stall on the AMD
// machine too (docs/performance-kernels.md has a measure of it). So every
// kernel clears them (VZEROUPPER) before its scalar sections (the
// palette's row products, what follows a kernel) and takes zero vectors
// from the zero value. The clearing goes after the call to a kernel that
// is not inlined: within one function the compiler may schedule VZEROUPPER
// before the last vector instructions, which leaves the halves dirty.
// Inside a kernel's loop no float scalar may stay live (a weight kept for
// a later call is reloaded with MOVSS each turn), and counts go to shifts
// as vectors (ShiftAllRight moves its count with a legacy MOVQ); objdump
// of the kernels shows no legacy-SSE instruction in a loop that runs with
// the halves dirty.
//
// Tests select each level the CPU has with setKernelPath and compare it
// with the portable kernels.
const (
	levelPortable = iota
	levelAVX2
	levelAVX512
)

// cpuLevel is the best level this CPU supports.
var cpuLevel = func() int {
	switch {
	case archsimd.X86.AVX512():
		return levelAVX512
	case archsimd.X86.AVX2() && archsimd.X86.FMA():
		return levelAVX2
	}
	return levelPortable
}()

// kernelLevel is the level KernelPath names: the best one any kernel
// runs at; ≤ cpuLevel.
var kernelLevel = cpuLevel

// The level each kernel runs at: the one that measured fastest, by a
// margin, at start-up (calibrate).
var (
	sampleLevel  [2]int       // SampleSoAJob: [0] slerp, [1] nlerp
	blendLevel   [2]int       // BlendSoA: [0] slerp, [1] nlerp
	paletteLevel = cpuLevel   // ModelPaletteJob
	layerLevel   = cpuLevel   // the joints MaskedBlendSoA, AddSoA and DifferenceSoA leave alone
	layerLanes   bool         // layerLevel ≥ AVX2
	chosen       kernelChoice // what SetKernels chose, for restoreKernels
)

// kernelChoice is one level per kernel.
type kernelChoice struct{ sampleSlerp, sampleNlerp, blendSlerp, blendNlerp, palette, layers int }

func (k kernelChoice) apply() {
	sampleLevel, blendLevel, paletteLevel = [2]int{k.sampleSlerp, k.sampleNlerp}, [2]int{k.blendSlerp, k.blendNlerp}, k.palette
	layerLevel, layerLanes = k.layers, k.layers >= levelAVX2
	kernelLevel = max(k.sampleSlerp, k.sampleNlerp, k.blendSlerp, k.blendNlerp, k.palette, k.layers)
}

// Until SetKernels says otherwise every kernel runs at the CPU's best
// level: a fixed choice, so that a program that never calibrates gets the
// same bits on every run.
func init() {
	chosen = kernelChoice{cpuLevel, cpuLevel, cpuLevel, cpuLevel, cpuLevel, cpuLevel}
	chosen.apply()
}

var (
	calibrateOnce sync.Once
	calibrated    kernelChoice // what calibrate chose, once it ran
)

// setKernels implements SetKernels.
func setKernels(name string) error {
	if name == "auto" {
		calibrateOnce.Do(func() {
			calibrated = kernelChoice{cpuLevel, cpuLevel, cpuLevel, cpuLevel, cpuLevel, cpuLevel}
			if cpuLevel > levelPortable {
				calibrated = calibrate()
			}
		})
		chosen = calibrated
		chosen.apply()
		return nil
	}
	for l := levelPortable; l <= levelAVX512; l++ {
		if levelName(l) != name {
			continue
		}
		if l > cpuLevel {
			return fmt.Errorf("anim: kernels %q: this CPU runs at most %s", name, levelName(cpuLevel))
		}
		chosen = kernelChoice{l, l, l, l, l, l}
		chosen.apply()
		return nil
	}
	return fmt.Errorf("anim: kernels %q: want auto, portable, avx2 or avx512", name)
}

func simdPath() string { return levelName(kernelLevel) }

func levelName(l int) string {
	switch l {
	case levelAVX512:
		return "avx512"
	case levelAVX2:
		return "avx2"
	}
	return "portable"
}

// kernelChoices says which level each kernel runs at.
func kernelChoices() string {
	return "sample slerp " + levelName(sampleLevel[0]) + ", sample nlerp " + levelName(sampleLevel[1]) +
		", blend slerp " + levelName(blendLevel[0]) +
		", blend nlerp " + levelName(blendLevel[1]) + ", model-palette " + levelName(paletteLevel) +
		", layers " + levelName(layerLevel)
}

// setKernelPath runs every kernel at the level KernelPath names name, for
// tests, whatever calibrate chose; it reports false for a path this CPU
// or build cannot run. restoreKernels undoes it.
func setKernelPath(name string) bool {
	for l := levelPortable; l <= cpuLevel; l++ {
		kernelLevel = l
		if simdPath() == name {
			kernelChoice{l, l, l, l, l, l}.apply()
			return true
		}
	}
	restoreKernels()
	return false
}

// restoreKernels puts back what SetKernels chose.
func restoreKernels() { chosen.apply() }
