// Package anim is the CPU animation engine, in ozz-style jobs over SoA
// poses: runtime clips sampled from key streams (SampleSoAJob), pose
// blending (BlendSoA, masks, additive layers), blend trees and action state
// machines built from JSON specs and run by a Controller that owns the
// character's one clock, IK and look-at, and local-to-model with the
// matrix palette (ModelPaletteJob); Crowd runs many controllers on all
// cores. SIMD kernels run in GOEXPERIMENT=simd builds where they measure
// faster. It imports only the standard library and mathgl: no OpenGL, no
// windows, no glTF.
package anim
