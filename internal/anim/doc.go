// Package anim is the CPU animation engine, in ozz-style jobs over SoA
// poses: runtime clips sampled from key streams (SampleSoAJob), pose
// blending (BlendSoA, masks, additive layers, the weighted average), IK
// and look-at, root motion, events, clocks, and local-to-model with the
// matrix palette (ModelPaletteJob). Package graph drives the jobs. SIMD
// kernels run in GOEXPERIMENT=simd builds where they measure faster. It
// imports only the standard library and mathgl: no OpenGL, no windows, no
// glTF.
package anim
