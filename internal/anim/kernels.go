package anim

// KernelPath names the kernels the fast pipeline (SampleSoAJob, BlendSoA,
// ModelPaletteJob, the masked and additive layers) runs on this
// machine and build: "portable", or, in a GOEXPERIMENT=simd build on
// amd64, the widest level any kernel runs at ("avx2" or "avx512"),
// followed by the level each kernel runs at (see SetKernels).
func KernelPath() string {
	if p := simdPath(); p != "portable" {
		return p + " (" + kernelChoices() + ")"
	}
	return "portable"
}

// SetKernels chooses the kernels the fast pipeline runs. "auto" times each
// kernel at every level the CPU has (the first time only) and
// keeps a wider level only where it is faster than every narrower one:
// the fastest choice, which may differ between runs in the last bits of a
// pose (kernel paths agree within 1e-4). "portable", "avx2" and "avx512"
// run every kernel at that level: the same bits on every run of one build
// on one CPU. Until it is called every kernel runs at the CPU's best level.
// It fails, changing nothing, for a level this CPU or build cannot run.
// It must not run while jobs do.
func SetKernels(name string) error { return setKernels(name) }
