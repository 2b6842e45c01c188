// Package anim is the CPU animation engine: skeletons, clips, sampling, pose
// blending, blend trees and action state machines built from JSON specs, IK,
// local-to-model and the matrix palette, plus a structure-of-arrays fast path
// (RuntimeClip, SampleSoAJob, BlendSoA, ModelPaletteJob, Crowd) with SIMD
// kernels in GOEXPERIMENT=simd builds. It imports only the standard library
// and mathgl; it knows nothing of OpenGL, windows or glTF.
package anim
