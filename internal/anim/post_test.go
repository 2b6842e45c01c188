package anim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// A chain below a mirror (a negative scale, as rigs mirror one side's
// limbs), or mirrored itself, reaches and aims as any other: the IK hand
// lands on the target and the look-at's forward, as the joint's matrix
// carries it, points at its own, both judged on the recomputed model
// matrices.
func TestIKAndLookAtUnderMirrors(t *testing.T) {
	for _, m := range []struct {
		joint int
		scale mgl32.Vec3
	}{{0, mgl32.Vec3{1, 1, 1}}, {0, mgl32.Vec3{-1, 1, 1}}, {0, mgl32.Vec3{1, -1, 1}}, {0, mgl32.Vec3{-1, -1, -1}}, {1, mgl32.Vec3{-1, 1, 1}}, {2, mgl32.Vec3{1, 1, -1}}} {
		sk := animtest.Chain(4)
		sk.Rest[0].Rotation = mgl32.QuatRotate(0.3, mgl32.Vec3{0, 0, 1})
		sk.Rest[m.joint].Scale = m.scale
		pose := append([]anim.Transform(nil), sk.Rest...)
		pose[2].Rotation = animtest.RotZ(40)
		models := make([]mgl32.Mat4, sk.NumJoints())
		(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
		target := models[1].Col(3).Vec3().Add(mgl32.Vec3{0.3, 1.2, 0.4})

		soa := toSoA(pose)
		ik := anim.TwoBoneIKJob{Skeleton: sk, Start: 1, Mid: 2, End: 3, Target: target, Pole: mgl32.Vec3{0, 0, 1}, Weight: 1, Models: refModelRows(sk, pose), Pose: soa}
		if err := ik.Validate(); err != nil {
			t.Fatal(err)
		}
		ik.Run()
		got := animtest.FromSoA(soa)
		(&refLocalToModelJob{Skeleton: sk, Input: got, Output: models}).Run()
		if hand := models[3].Col(3).Vec3(); !animtest.VecApprox(hand, target, 1e-4) {
			t.Errorf("joint %d scaled %v: IK hand at %v, want %v", m.joint, m.scale, hand, target)
		}

		soa = toSoA(pose)
		look := anim.LookAtJob{Skeleton: sk, Chain: []int{1, 2}, Forward: mgl32.Vec3{1, 0, 0}, Target: target, Weight: 1, Models: refModelRows(sk, pose), Pose: soa}
		if err := look.Validate(); err != nil {
			t.Fatal(err)
		}
		look.Run()
		got = animtest.FromSoA(soa)
		(&refLocalToModelJob{Skeleton: sk, Input: got, Output: models}).Run()
		fwd := models[2].Mul4x1(mgl32.Vec4{1, 0, 0, 0}).Vec3().Normalize()
		if d := fwd.Dot(target.Sub(models[2].Col(3).Vec3()).Normalize()); d < 1-1e-5 {
			t.Errorf("joint %d scaled %v: look-at forward·direction to target = %v, want 1", m.joint, m.scale, d)
		}
	}
}

// TestModelsBelow turns a joint and one below it, then recomputes from the
// first: every matrix must match a full reference pass, and a joint not
// below it must not be written.
func TestModelsBelow(t *testing.T) {
	sk := animtest.Humanoid()
	n := sk.NumJoints()
	rng := rand.New(rand.NewPCG(9, 9))
	local := make([]anim.Transform, n)
	for i := range local {
		local[i] = sk.Rest[i]
		local[i].Rotation = mgl32.QuatRotate(rng.Float32()*2-1, mgl32.Vec3{rng.Float32(), rng.Float32(), 1}.Normalize())
		local[i].Scale = mgl32.Vec3{1 + 0.1*rng.Float32(), 1, 1 - 0.1*rng.Float32()}
	}
	pose := anim.NewSoAPose(n)
	pose.FromTransforms(local)
	models := make([]float32, anim.PaletteFloats*n)
	(&anim.ModelPaletteJob{Skeleton: sk, Input: pose, Models: models}).Run()

	chest, hand, thigh := sk.JointIndex("chest"), sk.JointIndex("hand.L"), sk.JointIndex("thigh.R")
	for _, jt := range []int{chest, hand} {
		local[jt].Rotation = mgl32.QuatRotate(1, mgl32.Vec3{0, 1, 0}).Mul(local[jt].Rotation)
		pose.Set(jt, local[jt])
	}
	const sentinel = 12345
	models[thigh*12] = sentinel
	every := make([]bool, n)
	for i := range every {
		every[i] = true
	}
	anim.ModelsBelow(sk.Parents, pose, models, chest, make([]bool, n), every)

	want := make([]mgl32.Mat4, n)
	(&refLocalToModelJob{Skeleton: sk, Input: local, Output: want}).Run()
	for i := range n {
		if i == thigh {
			continue
		}
		if got := anim.ModelMat4(models, i); !got.ApproxEqualThreshold(want[i], 1e-5) {
			t.Errorf("joint %s: %v, want %v", sk.Names[i], got, want[i])
		}
	}
	if models[thigh*12] != sentinel {
		t.Errorf("thigh.R, not below the chest, was rewritten")
	}

	// Restricted to the left arm and its ancestors, the head below the
	// chest keeps its matrix and the arm is current.
	head := sk.JointIndex("head")
	models[head*12] = sentinel
	local[chest].Rotation = mgl32.QuatRotate(-0.5, mgl32.Vec3{1, 0, 0}).Mul(local[chest].Rotation)
	pose.Set(chest, local[chest])
	arm := make([]bool, n)
	for j := hand; j >= 0; j = sk.Parents[j] {
		arm[j] = true
	}
	anim.ModelsBelow(sk.Parents, pose, models, chest, make([]bool, n), arm)
	(&refLocalToModelJob{Skeleton: sk, Input: local, Output: want}).Run()
	for j := hand; j >= 0; j = sk.Parents[j] {
		if got := anim.ModelMat4(models, j); !got.ApproxEqualThreshold(want[j], 1e-5) {
			t.Errorf("arm joint %s: %v, want %v", sk.Names[j], got, want[j])
		}
	}
	if models[head*12] != sentinel {
		t.Errorf("the head, below the chest but not needed, was rewritten")
	}
}
