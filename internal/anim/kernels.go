package anim

// KernelPath names the kernels the fast pipeline (SampleSoAJob, BlendSoA,
// ModelPaletteJob, Crowd) runs on this machine and build: "portable", or,
// in a GOEXPERIMENT=simd build on amd64, "avx2" or "avx512" as chosen at
// start-up from the CPU's features.
func KernelPath() string { return simdPath() }
