package anim

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
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
		sk := chain(4)
		sk.Rest[0].Rotation = mgl32.QuatRotate(0.3, mgl32.Vec3{0, 0, 1})
		sk.Rest[m.joint].Scale = m.scale
		pose := append([]Transform(nil), sk.Rest...)
		pose[2].Rotation = rotZ(40)
		models := make([]mgl32.Mat4, sk.NumJoints())
		(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
		target := models[1].Col(3).Vec3().Add(mgl32.Vec3{0.3, 1.2, 0.4})

		soa := toSoA(pose)
		ik := TwoBoneIKJob{Skeleton: sk, Start: 1, Mid: 2, End: 3, Target: target, Pole: mgl32.Vec3{0, 0, 1}, Weight: 1, Models: refModelRows(sk, pose), Pose: soa}
		if err := ik.Validate(); err != nil {
			t.Fatal(err)
		}
		ik.Run()
		got := fromSoA(soa)
		(&refLocalToModelJob{Skeleton: sk, Input: got, Output: models}).Run()
		if hand := models[3].Col(3).Vec3(); !vecApprox(hand, target, 1e-4) {
			t.Errorf("joint %d scaled %v: IK hand at %v, want %v", m.joint, m.scale, hand, target)
		}

		soa = toSoA(pose)
		look := LookAtJob{Skeleton: sk, Chain: []int{1, 2}, Forward: mgl32.Vec3{1, 0, 0}, Target: target, Weight: 1, Models: refModelRows(sk, pose), Pose: soa}
		if err := look.Validate(); err != nil {
			t.Fatal(err)
		}
		look.Run()
		got = fromSoA(soa)
		(&refLocalToModelJob{Skeleton: sk, Input: got, Output: models}).Run()
		fwd := models[2].Mul4x1(mgl32.Vec4{1, 0, 0, 0}).Vec3().Normalize()
		if d := fwd.Dot(target.Sub(models[2].Col(3).Vec3()).Normalize()); d < 1-1e-5 {
			t.Errorf("joint %d scaled %v: look-at forward·direction to target = %v, want 1", m.joint, m.scale, d)
		}
	}
}

// TestPostProcessScaleTagIsAShortcut: the character's look-at and IK turn
// a pose that holds every scale at 1 by its tag (turnJoint skips its
// mirror test there) to the same bits as the same pose without the tag,
// over a few seconds of the character's frames.
func TestPostProcessScaleTagIsAShortcut(t *testing.T) {
	c, sk := characterController(t)
	for name, v := range map[string]float32{"speed": 0.5, "look_x": 0.7, "ik_weight": 1, "look_weight": 1} {
		if err := c.SetParam(name, v); err != nil {
			t.Fatal(err)
		}
	}
	n := sk.NumJoints()
	tagged, plain := NewSoAPose(n), NewSoAPose(n)
	for frame := range 180 {
		if frame%60 == 0 {
			_ = c.Request("greet")
		}
		c.Update(1.0 / 60)
		// The pose before the post-processing, which then runs on it
		// and on its copy.
		c.SetParam("look_weight", 0)
		c.SetParam("ik_weight", 0)
		c.Evaluate(tagged)
		c.SetParam("look_weight", 1)
		c.SetParam("ik_weight", 1)
		if !tagged.holdsIdentity(Scale) {
			t.Fatalf("frame %d: the character's pose does not hold its scales by tag", frame)
		}
		for j := range n {
			plain.Set(j, tagged.At(j))
		}
		if plain.holdsIdentity(Scale) {
			t.Fatal("Set kept the scale tag")
		}
		arm, head := tagged.At(sk.JointIndex("upper_arm.L")), tagged.At(sk.JointIndex("head"))
		c.postProcess(tagged)
		c.postProcess(plain)
		if tagged.At(sk.JointIndex("upper_arm.L")) == arm || tagged.At(sk.JointIndex("head")) == head {
			t.Fatalf("frame %d: the IK or the look-at left its joint alone", frame)
		}
		for j := range n {
			if a, b := tagged.At(j), plain.At(j); a != b {
				t.Fatalf("frame %d, joint %s: %v with the tag, %v without", frame, sk.Names[j], a, b)
			}
		}
	}
}

// TestModelsBelow turns a joint and one below it, then recomputes from the
// first: every matrix must match a full reference pass, and a joint not
// below it must not be written.
func TestModelsBelow(t *testing.T) {
	sk := humanoid()
	n := sk.NumJoints()
	rng := rand.New(rand.NewPCG(9, 9))
	local := make([]Transform, n)
	for i := range local {
		local[i] = sk.Rest[i]
		local[i].Rotation = mgl32.QuatRotate(rng.Float32()*2-1, mgl32.Vec3{rng.Float32(), rng.Float32(), 1}.Normalize())
		local[i].Scale = mgl32.Vec3{1 + 0.1*rng.Float32(), 1, 1 - 0.1*rng.Float32()}
	}
	pose := NewSoAPose(n)
	pose.FromTransforms(local)
	models := make([]float32, PaletteFloats*n)
	(&ModelPaletteJob{Skeleton: sk, Input: pose, Models: models}).Run()

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
	ModelsBelow(sk.Parents, pose, models, chest, make([]bool, n), every)

	want := make([]mgl32.Mat4, n)
	(&refLocalToModelJob{Skeleton: sk, Input: local, Output: want}).Run()
	for i := range n {
		if i == thigh {
			continue
		}
		if got := ModelMat4(models, i); !got.ApproxEqualThreshold(want[i], 1e-5) {
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
	ModelsBelow(sk.Parents, pose, models, chest, make([]bool, n), arm)
	(&refLocalToModelJob{Skeleton: sk, Input: local, Output: want}).Run()
	for j := hand; j >= 0; j = sk.Parents[j] {
		if got := ModelMat4(models, j); !got.ApproxEqualThreshold(want[j], 1e-5) {
			t.Errorf("arm joint %s: %v, want %v", sk.Names[j], got, want[j])
		}
	}
	if models[head*12] != sentinel {
		t.Errorf("the head, below the chest but not needed, was rewritten")
	}
}

// c3 is a constant model-space point or direction as a spec's inputs.
func c3(v mgl32.Vec3) [3]Input { return [3]Input{Const(v[0]), Const(v[1]), Const(v[2])} }

// postedModels evaluates spec on the humanoid's Idle at 0.1 s, post
// steps included, and returns the model matrices of the pose by the
// reference local-to-model.
func postedModels(t *testing.T, spec *Spec, sk *Skeleton) []mgl32.Mat4 {
	t.Helper()
	c := build(t, spec, sk, humanoidClips(sk))
	soa := NewSoAPose(sk.NumJoints())
	c.Update(0.1)
	c.Evaluate(soa)
	pose := make([]Transform, sk.NumJoints())
	soa.ToTransforms(pose)
	models := make([]mgl32.Mat4, sk.NumJoints())
	(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
	return models
}

// TestPostStepsSeeEachOther: a look-at that turns the spine and then an
// arm IK below it. The IK must read the model matrices the look-at left,
// or the hand lands where the unturned arm would have put it.
func TestPostStepsSeeEachOther(t *testing.T) {
	sk := humanoid()
	look := mgl32.Vec3{1.5, 1.2, 0.5}   // far to the side: the spine turns a lot
	reach := mgl32.Vec3{0.35, 1.2, 0.2} // 0.43 from the turned shoulder, 0.54 at most
	spec := treeSpec(clipNodeSpec("Idle"))
	spec.Post = []PostSpec{
		{Type: PostLookAt, Joints: []string{"spine", "head"}, Shares: []float32{1, 0}, Forward: mgl32.Vec3{0, 0, 1}, Target: c3(look)},
		{Type: PostTwoBoneIK, Joints: []string{"upper_arm.L", "forearm.L", "hand.L"}, Pole: c3(mgl32.Vec3{0, -0.3, -1}), Target: c3(reach)},
	}
	models := postedModels(t, spec, sk)
	fwd := models[sk.JointIndex("head")].Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3().Normalize()
	eye := models[sk.JointIndex("head")].Col(3).Vec3()
	if d := fwd.Dot(look.Sub(eye).Normalize()); d < 1-1e-4 {
		t.Errorf("head forward·direction to target = %v, want 1", d)
	}
	if hand := models[sk.JointIndex("hand.L")].Col(3).Vec3(); !vecApprox(hand, reach, 1e-3) {
		t.Errorf("left hand at %v, want %v", hand, reach)
	}
}

// TestPostStepOnATurnedChain: two IK steps on one arm. The second reads
// the upper arm's matrix, which the first turned (its Start): unless it
// is computed again, the second solves from the old arm and the hand
// misses its target.
func TestPostStepOnATurnedChain(t *testing.T) {
	sk := humanoid()
	first, second := mgl32.Vec3{0.45, 1.1, 0.25}, mgl32.Vec3{0.3, 1.35, 0.3}
	arm := []string{"upper_arm.L", "forearm.L", "hand.L"}
	spec := treeSpec(clipNodeSpec("Idle"))
	spec.Post = []PostSpec{
		{Type: PostTwoBoneIK, Joints: arm, Pole: c3(mgl32.Vec3{0, -0.3, -1}), Target: c3(first)},
		{Type: PostTwoBoneIK, Joints: arm, Pole: c3(mgl32.Vec3{0, 0, -1}), Target: c3(second)},
	}
	models := postedModels(t, spec, sk)
	if hand := models[sk.JointIndex("hand.L")].Col(3).Vec3(); !vecApprox(hand, second, 1e-3) {
		t.Errorf("left hand at %v, want %v", hand, second)
	}
}
