package anim_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// BenchmarkSampleToPalette measures one character's frame on the CPU:
// sample → local-to-model → palette, reported per joint.
func BenchmarkSampleToPalette(b *testing.B) {
	const joints = 64
	sk, clip, skin := animtest.BenchRig(joints)
	pose := make([]anim.Transform, joints)
	models := make([]mgl32.Mat4, joints)
	pal := make([]float32, joints*anim.PaletteFloats)
	sj := refSampleJob{Clip: clip, Rest: sk.Rest, Cursors: make([]int, len(clip.Tracks)), Output: pose}
	l2m := refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}
	pj := refPaletteJob{Skin: skin, Models: models, Output: pal}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sj.Time = float32(i%1000) / 1000
		sj.Run()
		l2m.Run()
		pj.Run()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/joints, "ns/joint")
}

const benchJoints = 64

// reportPerJoint adds the ns/joint metric the project compares.
func reportPerJoint(b *testing.B, joints int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(joints), "ns/joint")
}

// BenchmarkPoseOp measures the pose operations alone on 64 joints.
func BenchmarkPoseOp(b *testing.B) {
	sk, clip, _ := animtest.BenchRig(benchJoints)
	sk.Names[1] = "j1" // the masked subtree's root
	poses := make([]*anim.SoAPose, 4)
	for i := range poses {
		poses[i] = toSoA(samplePose(sk, clip, 0.1+0.2*float32(i)))
	}
	out := anim.NewSoAPose(benchJoints)
	diff := anim.NewSoAPose(benchJoints)
	anim.DifferenceSoA(diff, poses[1], poses[0])
	mask := make([]float32, benchJoints)
	if err := anim.SubtreeMask(sk, "j1", 2, mask); err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		run  func()
	}{
		{"lerp", func() { anim.BlendSoA(out, poses[0], poses[1], 0.3, false) }},
		{"nlerp", func() { anim.BlendSoA(out, poses[0], poses[1], 0.3, true) }},
		{"masked-lerp", func() { anim.MaskedBlendSoA(out, poses[0], poses[1], 0.7, mask, false) }},
		{"average-4", func() {
			anim.AverageStart(out, poses[0], 1)
			for i, w := range []float32{2, 3, 4} {
				anim.AverageAdd(out, poses[i+1], w)
			}
			anim.AverageFinish(out, 10)
		}},
		{"difference", func() { anim.DifferenceSoA(out, poses[1], poses[0]) }},
		{"add-full", func() { anim.AddSoA(out, poses[2], diff, 1, nil) }},
		{"add-half", func() { anim.AddSoA(out, poses[2], diff, 0.5, nil) }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				tc.run()
			}
			reportPerJoint(b, benchJoints)
		})
	}
}

// BenchmarkPostProcess measures IK and look-at on the humanoid, model
// matrices included (the controller recomputes them for each step), and
// the look-at with a limit, which finds the chain's rest direction.
func BenchmarkPostProcess(b *testing.B) {
	sk := animtest.Humanoid()
	pose := anim.NewSoAPose(sk.NumJoints())
	rest := toSoA(sk.Rest)
	models := make([]float32, anim.PaletteFloats*sk.NumJoints())
	l2m := anim.ModelPaletteJob{Skeleton: sk, Input: pose, Models: models}
	ik := anim.TwoBoneIKJob{Skeleton: sk, Start: sk.JointIndex("upper_arm.L"), Mid: sk.JointIndex("forearm.L"), End: sk.JointIndex("hand.L"),
		Target: mgl32.Vec3{0.3, 1.2, 0.3}, Pole: mgl32.Vec3{0, 0, -1}, Weight: 1, Models: models, Pose: pose}
	look := anim.LookAtJob{Skeleton: sk, Chain: []int{sk.JointIndex("neck"), sk.JointIndex("head")}, Forward: mgl32.Vec3{0, 0, 1},
		Offset: mgl32.Vec3{0, 0.08, 0.1}, Target: mgl32.Vec3{0.5, 1.8, 1}, Weight: 1, Models: models, Pose: pose}
	limited := look
	limited.Limit = 100 * math.Pi / 180 // the built-in character's
	for _, tc := range []struct {
		name string
		run  func()
	}{{"two-bone-ik", ik.Run}, {"look-at", look.Run}, {"look-at-limit", limited.Run}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				pose.CopyFrom(rest)
				l2m.Run()
				tc.run()
			}
			reportPerJoint(b, sk.NumJoints())
		})
	}
}
