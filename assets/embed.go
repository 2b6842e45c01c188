// Package assets holds the generated models, written by cmd/assetgen and
// embedded so the viewer and the tests need no file on disk.
package assets

import "embed"

//go:generate go run ../cmd/assetgen -out .

// CharacterGLB is the default character (binary glTF 2.0): a skinned,
// textured humanoid about 1.8 m tall, Y up, facing +Z, with 51 joints (the
// 19-joint body plus toes and three joints per finger) and the clips, in
// this order, Walk (1 s loop), Wave (2 s), Idle (3 s loop), Run (0.7 s
// loop), StrafeLeft and StrafeRight (1 s loops), Jump (1.2 s), the
// single-frame aim poses AimCenter, AimLeft, AimRight, AimUp and AimDown,
// and Lean, a single-frame tired slump to difference against Idle at time
// 0. In the locomotion loops the left foot lands at normalized time 0 and
// the right at 0.5.
//
//go:embed character.glb
var CharacterGLB []byte

// StressGLB is a millipede with 345 joints (48 body segments with a pair of
// three-jointed legs each, a head and two antennae) and the 2 s loop Crawl
// that moves every joint: more joints than one draw call's palette holds,
// for bone partitioning.
//
//go:embed stress.glb
var StressGLB []byte

// TwistGLB is a 1 m striped limb along +X with the joints upper, forearm
// and wrist, and the clips Twist (2 s loop: the wrist turns 0 → 180° about
// the limb and back) and Twist180 (one key, the full twist), where linear
// blend skinning collapses the forearm and dual-quaternion skinning does
// not.
//
//go:embed twist.glb
var TwistGLB []byte

// EdgeFS holds small edge-case files for the loader tests, under edge/:
// two_skins.gltf, joints_outside.gltf, no_ibm.gltf, eight_influences.gltf,
// normalized_weights.gltf and cubic_step.gltf.
// cmd/assetgen's edge.go documents what each one tests.
//
//go:embed edge/*
var EdgeFS embed.FS
