package anim

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// modelPositions runs LocalToModel (independent of the solvers) and
// returns each joint's model-space position.
func modelPositions(sk *Skeleton, pose []Transform) []mgl32.Vec3 {
	models := make([]mgl32.Mat4, sk.NumJoints())
	(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
	out := make([]mgl32.Vec3, len(models))
	for i := range models {
		out[i] = position(&models[i])
	}
	return out
}

func solveIK(t *testing.T, sk *Skeleton, pose []Transform, target, pole mgl32.Vec3, w float32) *TwoBoneIKJob {
	t.Helper()
	soa := toSoA(pose)
	job := &TwoBoneIKJob{Skeleton: sk, Start: 0, Mid: 1, End: 2, Target: target, Pole: pole, Weight: w, Models: refModelRows(sk, pose), Pose: soa}
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	job.Run()
	copy(pose, fromSoA(soa))
	return job
}

func TestTwoBoneIK(t *testing.T) {
	// An arm of two unit bones along +X: shoulder (0,0,0), elbow (1,0,0),
	// hand (2,0,0).
	cases := []struct {
		name      string
		bend      float64 // initial elbow angle about Z, degrees
		target    mgl32.Vec3
		pole      mgl32.Vec3
		wantElbow mgl32.Vec3
		wantHand  mgl32.Vec3
		reached   bool
	}{
		// |t| = √2 → the elbow angle is 90° (1² + 1² = √2²); with the pole
		// at −Y the elbow stays at (1,0,0) and the hand goes up to (1,1,0).
		{"right angle, pole below", 0, mgl32.Vec3{1, 1, 0}, mgl32.Vec3{0, -1, 0}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{1, 1, 0}, true},
		// The other solution: pole at −X puts the elbow at (0,1,0).
		{"right angle, pole behind", 0, mgl32.Vec3{1, 1, 0}, mgl32.Vec3{-1, 0, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 1, 0}, true},
		// Out of reach: the straight arm points at the target.
		{"unreachable stretches towards it", 0, mgl32.Vec3{0, 3, 0}, mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 2, 0}, false},
		// Bent by 90° (hand at (1,1,0)), target at full reach: straightens.
		{"bent arm straightens", 90, mgl32.Vec3{2, 0, 0}, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{2, 0, 0}, true},
		// Bent by 90° in the XY plane, no pole: the bend plane is kept. For
		// |t| = √3 the elbow opens to 120° (1 + 1 − 2cos 120° = 3), which
		// puts the hand at (1.5, √3/2), 30° above +X; the shoulder turns
		// 60° more to reach (0, √3), carrying the elbow to (cos 60°, sin 60°).
		{"bend plane kept without pole", 90, mgl32.Vec3{0, float32(math.Sqrt(3)), 0}, mgl32.Vec3{}, mgl32.Vec3{0.5, float32(math.Sqrt(3)) / 2, 0}, mgl32.Vec3{0, float32(math.Sqrt(3)), 0}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sk := chain(3)
			pose := append([]Transform(nil), sk.Rest...)
			pose[1].Rotation = rotZ(tc.bend)
			job := solveIK(t, sk, pose, tc.target, tc.pole, 1)
			got := modelPositions(sk, pose)
			if !vecApprox(got[1], tc.wantElbow, 1e-4) || !vecApprox(got[2], tc.wantHand, 1e-4) {
				t.Fatalf("elbow %v hand %v; want %v %v", got[1], got[2], tc.wantElbow, tc.wantHand)
			}
			if job.Reached != tc.reached {
				t.Fatalf("Reached = %v, want %v", job.Reached, tc.reached)
			}
			if tc.bend == 0 && tc.pole == (mgl32.Vec3{0, -1, 0}) {
				// Unambiguous rotations: shoulder untouched, elbow +90° about Z.
				if !quatApprox(pose[0].Rotation, mgl32.QuatIdent(), 1e-5) || !quatApprox(pose[1].Rotation, rotZ(90), 1e-5) {
					t.Fatalf("rotations %v %v; want identity and 90° about Z", pose[0].Rotation, pose[1].Rotation)
				}
			}
		})
	}
}

func TestTwoBoneIKWeightAndGeneralTarget(t *testing.T) {
	sk := chain(3)
	pose := append([]Transform(nil), sk.Rest...)
	pose[1].Rotation = rotZ(30)
	before := append([]Transform(nil), pose...)
	solveIK(t, sk, pose, mgl32.Vec3{0.3, 0.8, 0.9}, mgl32.Vec3{0, 0, 1}, 0)
	if !posesEqual(pose, before) {
		t.Fatal("weight 0 changed the pose")
	}
	target := mgl32.Vec3{0.3, 0.8, 0.9}
	pole := mgl32.Vec3{0, 0, 1}
	solveIK(t, sk, pose, target, pole, 1)
	p := modelPositions(sk, pose)
	if !vecApprox(p[2], target, 1e-4) {
		t.Fatalf("hand at %v, want the target %v", p[2], target)
	}
	if l0, l1 := p[1].Sub(p[0]).Len(), p[2].Sub(p[1]).Len(); !approxEqual(l0, 1, 1e-4) || !approxEqual(l1, 1, 1e-4) {
		t.Fatalf("bone lengths %v %v changed", l0, l1)
	}
	// The elbow leans towards the pole: its offset from the shoulder–target
	// line has a positive component along the pole.
	axis := target.Normalize()
	off := p[1].Sub(axis.Mul(p[1].Dot(axis)))
	polePerp := pole.Sub(axis.Mul(pole.Dot(axis)))
	if off.Dot(polePerp) <= 0 {
		t.Fatalf("elbow offset %v points away from the pole %v", off, polePerp)
	}
}

func TestTwoBoneIKValidate(t *testing.T) {
	sk := chain(3)
	good := func() *TwoBoneIKJob {
		return &TwoBoneIKJob{Skeleton: sk, Start: 0, Mid: 1, End: 2, Models: make([]float32, 36), Pose: NewSoAPose(3)}
	}
	checkValidate(t, good, []breakCase[*TwoBoneIKJob]{
		{"nil skeleton", func(j *TwoBoneIKJob) { j.Skeleton = nil }},
		{"short models", func(j *TwoBoneIKJob) { j.Models = j.Models[:2] }},
		{"joint out of range", func(j *TwoBoneIKJob) { j.End = 3 }},
		{"mid not below start", func(j *TwoBoneIKJob) { j.Start, j.Mid = 1, 0 }},
		{"end not below mid", func(j *TwoBoneIKJob) { j.Mid, j.End = 2, 1 }},
	})
}

func TestLookAt(t *testing.T) {
	t.Run("single joint turns 90° about Y", func(t *testing.T) {
		sk := chain(1)
		pose := append([]Transform(nil), sk.Rest...)
		runLookAt(t, sk, pose, []int{0}, nil, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, 1)
		// Ry(90°) takes +Z to +X.
		want := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
		if !quatApprox(pose[0].Rotation, want, 1e-5) {
			t.Fatalf("rotation %v, want %v", pose[0].Rotation, want)
		}
	})
	t.Run("equal shares split the turn", func(t *testing.T) {
		// Two joints at the same point: each takes half of the 90°.
		sk := chain(2)
		sk.Rest[1] = IdentityTransform
		pose := append([]Transform(nil), sk.Rest...)
		runLookAt(t, sk, pose, []int{0, 1}, nil, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, 1)
		want := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 1, 0})
		for j := range pose {
			if !quatApprox(pose[j].Rotation, want, 1e-5) {
				t.Fatalf("joint %d rotation %v, want 45° about Y %v", j, pose[j].Rotation, want)
			}
		}
	})
	t.Run("weight 0 leaves the pose", func(t *testing.T) {
		sk := chain(2)
		pose := append([]Transform(nil), sk.Rest...)
		runLookAt(t, sk, pose, []int{0, 1}, nil, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, 0)
		if !posesEqual(pose, sk.Rest) {
			t.Fatal("pose changed")
		}
	})
	t.Run("eye offset aims exactly", func(t *testing.T) {
		sk := humanoid()
		pose := append([]Transform(nil), sk.Rest...)
		pose[sk.JointIndex("chest")].Rotation = rotZ(20)
		neck, head := sk.JointIndex("neck"), sk.JointIndex("head")
		offset := mgl32.Vec3{0, 0.08, 0.1}
		target := mgl32.Vec3{0.7, 1.9, 0.6}
		runLookAt(t, sk, pose, []int{neck, head}, []float32{0.4, 0.6}, offset, target, 1)
		models := make([]mgl32.Mat4, sk.NumJoints())
		(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
		eye := models[head].Mul4x1(offset.Vec4(1)).Vec3()
		fwd := models[head].Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3().Normalize()
		want := target.Sub(eye).Normalize()
		if fwd.Dot(want) < 1-1e-5 {
			t.Fatalf("head forward %v, want %v towards the target", fwd, want)
		}
	})
}

func runLookAt(t *testing.T, sk *Skeleton, pose []Transform, chain []int, shares []float32, offset, target mgl32.Vec3, w float32) {
	t.Helper()
	soa := toSoA(pose)
	job := LookAtJob{Skeleton: sk, Chain: chain, Shares: shares, Forward: mgl32.Vec3{0, 0, 1}, Offset: offset, Target: target, Weight: w, Models: refModelRows(sk, pose), Pose: soa}
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	job.Run()
	copy(pose, fromSoA(soa))
}

func TestLookAtValidate(t *testing.T) {
	sk := chain(3)
	good := func() *LookAtJob {
		return &LookAtJob{Skeleton: sk, Chain: []int{1, 2}, Forward: mgl32.Vec3{0, 0, 1}, Models: make([]float32, 36), Pose: NewSoAPose(3)}
	}
	checkValidate(t, good, []breakCase[*LookAtJob]{
		{"empty chain", func(j *LookAtJob) { j.Chain = nil }},
		{"chain out of order", func(j *LookAtJob) { j.Chain = []int{2, 1} }},
		{"shares length", func(j *LookAtJob) { j.Shares = []float32{1} }},
		{"negative share", func(j *LookAtJob) { j.Shares = []float32{1, -1} }},
		{"zero forward", func(j *LookAtJob) { j.Forward = mgl32.Vec3{} }},
		{"short pose", func(j *LookAtJob) { j.Pose = NewSoAPose(1) }},
	})
}
