package anim

// KernelPath names the kernels the fast pipeline (SampleSoAJob, BlendSoA,
// ModelPaletteJob, the masked and additive layers, Crowd) runs on this
// machine and build: "portable", or, in a GOEXPERIMENT=simd build on
// amd64, the widest level any kernel runs at ("avx2" or "avx512"),
// followed by the level each kernel runs at: at start-up each kernel is
// timed at every level the CPU has, and a wider level is kept only where
// it is faster than every narrower one.
func KernelPath() string {
	if p := simdPath(); p != "portable" {
		return p + " (" + kernelChoices() + ")"
	}
	return "portable"
}
