package graph

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

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
	tagged, plain := anim.NewSoAPose(n), anim.NewSoAPose(n)
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
		if !tagged.HoldsIdentity(anim.Scale) {
			t.Fatalf("frame %d: the character's pose does not hold its scales by tag", frame)
		}
		for j := range n {
			plain.Set(j, tagged.At(j))
		}
		if plain.HoldsIdentity(anim.Scale) {
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

// c3 is a constant model-space point or direction as a spec's inputs.
func c3(v mgl32.Vec3) [3]Input { return [3]Input{Const(v[0]), Const(v[1]), Const(v[2])} }

// postedModels evaluates spec on the humanoid's Idle at 0.1 s, post
// steps included, and returns the model matrices of the pose (modelMats).
func postedModels(t *testing.T, spec *Spec, sk *anim.Skeleton) []mgl32.Mat4 {
	t.Helper()
	c := build(t, spec, sk, animtest.HumanoidClips(sk))
	soa := anim.NewSoAPose(sk.NumJoints())
	c.Update(0.1)
	c.Evaluate(soa)
	pose := make([]anim.Transform, sk.NumJoints())
	soa.ToTransforms(pose)
	models := modelMats(sk, pose)
	return models
}

// TestPostStepsSeeEachOther: a look-at that turns the spine and then an
// arm IK below it. The IK must read the model matrices the look-at left,
// or the hand lands where the unturned arm would have put it.
func TestPostStepsSeeEachOther(t *testing.T) {
	sk := animtest.Humanoid()
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
	if hand := models[sk.JointIndex("hand.L")].Col(3).Vec3(); !animtest.VecApprox(hand, reach, 1e-3) {
		t.Errorf("left hand at %v, want %v", hand, reach)
	}
}

// TestPostStepOnATurnedChain: two IK steps on one arm. The second reads
// the upper arm's matrix, which the first turned (its Start): unless it
// is computed again, the second solves from the old arm and the hand
// misses its target.
func TestPostStepOnATurnedChain(t *testing.T) {
	sk := animtest.Humanoid()
	first, second := mgl32.Vec3{0.45, 1.1, 0.25}, mgl32.Vec3{0.3, 1.35, 0.3}
	arm := []string{"upper_arm.L", "forearm.L", "hand.L"}
	spec := treeSpec(clipNodeSpec("Idle"))
	spec.Post = []PostSpec{
		{Type: PostTwoBoneIK, Joints: arm, Pole: c3(mgl32.Vec3{0, -0.3, -1}), Target: c3(first)},
		{Type: PostTwoBoneIK, Joints: arm, Pole: c3(mgl32.Vec3{0, 0, -1}), Target: c3(second)},
	}
	models := postedModels(t, spec, sk)
	if hand := models[sk.JointIndex("hand.L")].Col(3).Vec3(); !animtest.VecApprox(hand, second, 1e-3) {
		t.Errorf("left hand at %v, want %v", hand, second)
	}
}

// TestLookAtOnTheRoot: look-at steps on a skeleton's root joint alone,
// over the rest pose (identity), forward +Z, the target at (10, 0, 0):
// 90° to the side about +Y.
//   - Limit is in degrees: at 30°, a target θ = 90° away is followed
//     φ = 30°·(180° − 90°)/(180° − 30°) = 18° (PostSpec.Limit,
//     LookAtJob.Limit), so forward is (sin 18°, 0, cos 18°).
//   - A second step on the same joint reads the root's model matrix as
//     the first left it: it finds the joint facing the target and leaves
//     it there, forward (1, 0, 0); from the matrix before the first step
//     it would turn another 90°.
func TestLookAtOnTheRoot(t *testing.T) {
	const look = `{"type": "look_at", "joints": ["j0"], "target": [10, 0, 0]`
	s18, c18 := math.Sincos(18 * math.Pi / 180)
	for _, tc := range []struct {
		name, post string
		want       mgl32.Vec3
	}{
		{"limit 30°", look + `, "limit": 30}`, mgl32.Vec3{float32(s18), 0, float32(c18)}},
		{"two steps", look + `}, ` + look + `}`, mgl32.Vec3{1, 0, 0}},
	} {
		spec, err := ParseSpec([]byte(`{"states": [{"name": "rest"}], "post": [` + tc.post + `]}`))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		c, err := NewController(spec, animtest.Chain(1), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		fwd := evalPose(c)[0].Rotation.Rotate(mgl32.Vec3{0, 0, 1})
		if !animtest.VecApprox(fwd, tc.want, 1e-5) {
			t.Errorf("%s: the root faces %v, want %v", tc.name, fwd, tc.want)
		}
	}
}
