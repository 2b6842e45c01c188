package anim

// KernelPath names the kernels the fast pipeline (SampleSoAJob, BlendSoA,
// ModelPaletteJob, Crowd) runs on this machine and build: "portable", or,
// in a GOEXPERIMENT=simd build on amd64, the SIMD level ("avx2" or
// "avx512") the CPU supports, followed by the level each kernel runs at:
// at start-up each SIMD kernel is timed against its portable twin and
// kept only where it is faster.
func KernelPath() string {
	if p := simdPath(); p != "portable" {
		return p + " (" + kernelChoices() + ")"
	}
	return "portable"
}
