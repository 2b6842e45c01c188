// Package anim is the CPU animation engine: skeletons, clips, sampling, pose
// blending, blend trees and action state machines built from JSON specs, IK,
// local-to-model and the matrix palette. It imports only the standard library
// and mathgl; it knows nothing of OpenGL, windows or glTF.
package anim
