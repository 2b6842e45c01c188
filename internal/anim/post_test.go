package anim_test

// Tests of post-processing: TwoBoneIKJob, LookAtJob, the rotation maths
// they share (ikmath.go), and both under mirrored joints.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// modelPositions runs LocalToModel (independent of the solvers) and
// returns each joint's model-space position.
func modelPositions(sk *anim.Skeleton, pose []anim.Transform) []mgl32.Vec3 {
	models := make([]mgl32.Mat4, sk.NumJoints())
	(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
	out := make([]mgl32.Vec3, len(models))
	for i := range models {
		out[i] = models[i].Col(3).Vec3()
	}
	return out
}

func solveIK(t *testing.T, sk *anim.Skeleton, pose []anim.Transform, target, pole mgl32.Vec3, w float32) *anim.TwoBoneIKJob {
	t.Helper()
	soa := toSoA(pose)
	models := refModelRows(sk, pose)
	// End's own matrix is not read (its parent's and its translation
	// give its position): NaN there would show in every result.
	for k := range anim.PaletteFloats {
		models[2*anim.PaletteFloats+k] = float32(math.NaN())
	}
	job := &anim.TwoBoneIKJob{Skeleton: sk, Start: 0, Mid: 1, End: 2, Target: target, Pole: pole, Weight: w, Models: models, Pose: soa}
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	job.Run()
	copy(pose, animtest.FromSoA(soa))
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
		// Folded to 1° and pulled to full reach: the elbow opens by 179°,
		// a turn near half a turn.
		{"folded arm straightens", 179, mgl32.Vec3{2, 0, 0}, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{2, 0, 0}, true},
		// Bent by 90° (elbow (1,0,0), hand (1,1,0)), target where the hand
		// is, pole behind: the bend leaves the elbow on the far side of the
		// target ray from the pole, so the twist about the ray is half a
		// turn, putting the elbow at (0,1,0).
		{"bent arm twists half a turn", 90, mgl32.Vec3{1, 1, 0}, mgl32.Vec3{-1, 0, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 1, 0}, true},
		// Bent by 90° in the XY plane, no pole: the bend plane is kept. For
		// |t| = √3 the elbow opens to 120° (1 + 1 − 2cos 120° = 3), which
		// puts the hand at (1.5, √3/2), 30° above +X; the shoulder turns
		// 60° more to reach (0, √3), carrying the elbow to (cos 60°, sin 60°).
		{"bend plane kept without pole", 90, mgl32.Vec3{0, float32(math.Sqrt(3)), 0}, mgl32.Vec3{}, mgl32.Vec3{0.5, float32(math.Sqrt(3)) / 2, 0}, mgl32.Vec3{0, float32(math.Sqrt(3)), 0}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sk := animtest.Chain(3)
			pose := append([]anim.Transform(nil), sk.Rest...)
			pose[1].Rotation = animtest.RotZ(tc.bend)
			job := solveIK(t, sk, pose, tc.target, tc.pole, 1)
			got := modelPositions(sk, pose)
			if !animtest.VecApprox(got[1], tc.wantElbow, 1e-4) || !animtest.VecApprox(got[2], tc.wantHand, 1e-4) {
				t.Fatalf("elbow %v hand %v; want %v %v", got[1], got[2], tc.wantElbow, tc.wantHand)
			}
			if job.Reached != tc.reached {
				t.Fatalf("Reached = %v, want %v", job.Reached, tc.reached)
			}
			if tc.bend == 0 && tc.pole == (mgl32.Vec3{0, -1, 0}) {
				// Unambiguous rotations: shoulder untouched, elbow +90° about Z.
				if !animtest.QuatApprox(pose[0].Rotation, mgl32.QuatIdent(), 1e-5) || !animtest.QuatApprox(pose[1].Rotation, animtest.RotZ(90), 1e-5) {
					t.Fatalf("rotations %v %v; want identity and 90° about Z", pose[0].Rotation, pose[1].Rotation)
				}
			}
		})
	}
}

// TestTwoBoneIKAtItsInnerReach: an upper arm of 2 and a forearm of 1
// reach no nearer than 1, folded flat. A target at exactly that distance,
// (0, 1, 0), is reached: the elbow at (0, 2, 0), the hand back at the
// target. A little nearer it is not reached, and the folded arm points at
// it.
func TestTwoBoneIKAtItsInnerReach(t *testing.T) {
	for _, tc := range []struct {
		target  float32
		reached bool
	}{{1, true}, {0.5, false}} {
		sk := animtest.Chain(3)
		pose := append([]anim.Transform(nil), sk.Rest...)
		pose[1].Translation = mgl32.Vec3{2, 0, 0}
		pose[1].Rotation = animtest.RotZ(90) // hand at (2, 1, 0), bent in XY
		job := solveIK(t, sk, pose, mgl32.Vec3{0, tc.target, 0}, mgl32.Vec3{}, 1)
		got := modelPositions(sk, pose)
		if !animtest.VecApprox(got[1], mgl32.Vec3{0, 2, 0}, 1e-4) || !animtest.VecApprox(got[2], mgl32.Vec3{0, 1, 0}, 1e-4) || job.Reached != tc.reached {
			t.Errorf("target (0, %v, 0): elbow %v hand %v, reached %v; want (0, 2, 0), (0, 1, 0), %v", tc.target, got[1], got[2], job.Reached, tc.reached)
		}
	}
}

// TestTwoBoneIKUnequalBones: an upper arm of 2 and a forearm of 1.5, bent
// 45° at the elbow, reach a target 2.5 away in their bending plane: the
// hand lands on it (the interior angle from the law of cosines over
// both bones' lengths, not over unit ones).
func TestTwoBoneIKUnequalBones(t *testing.T) {
	sk := animtest.Chain(3)
	pose := append([]anim.Transform(nil), sk.Rest...)
	pose[1].Translation = mgl32.Vec3{2, 0, 0}
	pose[1].Rotation = animtest.RotZ(45)
	pose[2].Translation = mgl32.Vec3{1.5, 0, 0}
	target := mgl32.Vec3{1.5, 2, 0} // |t| = 2.5, between 0.5 and 3.5
	job := solveIK(t, sk, pose, target, mgl32.Vec3{}, 1)
	got := modelPositions(sk, pose)
	if !animtest.VecApprox(got[2], target, 1e-4) || !job.Reached {
		t.Fatalf("hand %v, reached %v; want it on %v", got[2], job.Reached, target)
	}
	if l := got[1].Sub(got[0]).Len(); math.Abs(float64(l)-2) > 1e-4 {
		t.Errorf("upper arm %v long; want 2", l)
	}
}

// TestTwoBoneIKNearlyStraight reaches for targets within reach with arms
// bent by small angles, in random orientations, with a random pole: the
// hand must land on the target. The hinge, the normalized cross product
// of two nearly parallel unit bones whose ends carry float32's rounding
// (about 1e-7), points off by up to about 2e-7/sin θ rad, and a hinge
// tilted by δ moves the hand by less than δ times the reach (2): the
// bound is that, and 1e-5 besides. (Taking c's direction to the ray by a
// frame built on that hinge as it is missed by 4e-3 to 2e-5, from 1e-4
// rad to 0.3.)
func TestTwoBoneIKNearlyStraight(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	rnd := func() mgl32.Vec3 {
		return mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}
	}
	for _, bend := range []float64{1e-4, 1e-3, 1e-2, 0.3} {
		bound := float32(4e-7/math.Sin(bend) + 1e-5)
		for range 500 {
			sk := animtest.Chain(3)
			pose := append([]anim.Transform(nil), sk.Rest...)
			pose[0].Rotation = mgl32.QuatRotate(float32(rng.Float64()*6), rnd().Normalize())
			pose[1].Rotation = mgl32.QuatRotate(float32(bend), mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), 0}.Normalize())
			target := rnd().Normalize().Mul(float32(0.3 + rng.Float64()*1.6))
			solveIK(t, sk, pose, target, rnd(), 1)
			if d := modelPositions(sk, pose)[2].Sub(target).Len(); d > bound {
				t.Fatalf("bend %g rad: the hand lands %g from %v, want within %g", bend, d, target, bound)
			}
		}
	}
}

func TestTwoBoneIKWeightAndGeneralTarget(t *testing.T) {
	sk := animtest.Chain(3)
	pose := append([]anim.Transform(nil), sk.Rest...)
	pose[1].Rotation = animtest.RotZ(30)
	before := append([]anim.Transform(nil), pose...)
	solveIK(t, sk, pose, mgl32.Vec3{0.3, 0.8, 0.9}, mgl32.Vec3{0, 0, 1}, 0)
	if !animtest.PosesEqual(pose, before) {
		t.Fatal("weight 0 changed the pose")
	}
	target := mgl32.Vec3{0.3, 0.8, 0.9}
	pole := mgl32.Vec3{0, 0, 1}
	solveIK(t, sk, pose, target, pole, 1)
	p := modelPositions(sk, pose)
	if !animtest.VecApprox(p[2], target, 1e-4) {
		t.Fatalf("hand at %v, want the target %v", p[2], target)
	}
	if l0, l1 := p[1].Sub(p[0]).Len(), p[2].Sub(p[1]).Len(); !animtest.ApproxEqual(l0, 1, 1e-4) || !animtest.ApproxEqual(l1, 1, 1e-4) {
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

// TestTwoBoneIKWeights solves at weights 0, ½ and 1: at 0 nothing moves
// and nothing is reached; at ½ each turned joint's rotation is the slerp,
// halfway, from its input to its rotation at weight 1 (the contract of
// Weight), worked out here in float64.
func TestTwoBoneIKWeights(t *testing.T) {
	sk := animtest.Chain(3)
	start := append([]anim.Transform(nil), sk.Rest...)
	start[1].Rotation = animtest.RotZ(30)
	target, pole := mgl32.Vec3{0.3, 0.8, 0.9}, mgl32.Vec3{0, 0, 1}
	zero := append([]anim.Transform(nil), start...)
	if job := solveIK(t, sk, zero, target, pole, 0); job.Reached || !animtest.PosesEqual(zero, start) {
		t.Errorf("weight 0: reached %v, pose changed %v; want neither", job.Reached, !animtest.PosesEqual(zero, start))
	}
	full := append([]anim.Transform(nil), start...)
	solveIK(t, sk, full, target, pole, 1)
	half := append([]anim.Transform(nil), start...)
	solveIK(t, sk, half, target, pole, 0.5)
	for j := range 2 {
		a, b := start[j].Rotation, full[j].Rotation
		d := float64(a.Dot(b))
		sign := 1.0
		if d < 0 {
			d, sign = -d, -1
		}
		th := math.Acos(min(d, 1))
		ka, kb := math.Sin(th/2)/math.Sin(th), sign*math.Sin(th/2)/math.Sin(th)
		want := mgl32.Quat{W: float32(ka*float64(a.W) + kb*float64(b.W)), V: mgl32.Vec3{
			float32(ka*float64(a.V[0]) + kb*float64(b.V[0])),
			float32(ka*float64(a.V[1]) + kb*float64(b.V[1])),
			float32(ka*float64(a.V[2]) + kb*float64(b.V[2]))}}
		if th < 0.1 || !animtest.QuatApprox(half[j].Rotation, want, 2e-6) {
			t.Errorf("joint %d at weight ½: %v; want %v, halfway from %v to %v (%.3g rad apart)", j, half[j].Rotation, want, a, b, 2*th)
		}
	}
}

// TestTwoBoneIKAtEpsilon gives the solver a bone, then the other, then
// the target's distance exactly ikEpsilon (1e-6) long: not under it, so
// solved and reached; half as long is degenerate, the pose left as it is.
func TestTwoBoneIKAtEpsilon(t *testing.T) {
	const eps = float32(1e-6)
	if float32(math.Sqrt(float64(eps*eps))) != eps {
		t.Fatalf("the premise: a vector (%g, 0, 0) measures %g long in float32", eps, float32(math.Sqrt(float64(eps*eps))))
	}
	for _, e := range []float32{eps, eps / 2} {
		for _, c := range []struct {
			name         string
			upper, lower mgl32.Vec3
			target       mgl32.Vec3
		}{
			// The hand at (e, 1, 0), the target 1 from the shoulder:
			// within [1 − e, 1 + e].
			{"upper arm", mgl32.Vec3{e, 0, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 0}},
			{"forearm", mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, e, 0}, mgl32.Vec3{0, 1, 0}},
			{"target distance", mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 0, e}},
		} {
			sk := animtest.Chain(3)
			sk.Rest[1].Translation, sk.Rest[2].Translation = c.upper, c.lower
			pose := append([]anim.Transform(nil), sk.Rest...)
			job := solveIK(t, sk, pose, c.target, mgl32.Vec3{}, 1)
			if job.Reached != (e == eps) {
				t.Errorf("%s %g long: reached %v; want %v", c.name, e, job.Reached, e == eps)
			}
			if e < eps && !animtest.PosesEqual(pose, sk.Rest) {
				t.Errorf("%s %g long: the pose changed", c.name, e)
			}
		}
	}
}

func TestTwoBoneIKValidate(t *testing.T) {
	sk := animtest.Chain(3)
	good := func() *anim.TwoBoneIKJob {
		return &anim.TwoBoneIKJob{Skeleton: sk, Start: 0, Mid: 1, End: 2, Models: make([]float32, 36), Pose: anim.NewSoAPose(3)}
	}
	checkValidate(t, good, []breakCase[*anim.TwoBoneIKJob]{
		{"nil skeleton", func(j *anim.TwoBoneIKJob) { j.Skeleton = nil }},
		{"short models", func(j *anim.TwoBoneIKJob) { j.Models = j.Models[:2] }},
		{"joint out of range", func(j *anim.TwoBoneIKJob) { j.End = 3 }},
		{"mid not below start", func(j *anim.TwoBoneIKJob) { j.Start, j.Mid = 1, 0 }},
		{"end not below mid", func(j *anim.TwoBoneIKJob) { j.Mid, j.End = 2, 1 }},
	})
}

// TestTwoBoneIKRollIsSteady moves the target a millimetre at a time, out
// through the reach limit and then sideways while out of reach: the
// shoulder's solved rotation must follow smoothly. On a straight chain the
// elbow lies on the target ray, and a twist taken from its offset there
// (rounding noise) would roll the limb at random from one frame to the
// next. Along the ray the upper arm's lean from it, acos(r/2) for two unit
// bones (0 out of reach), is all that changes; sideways at 2.5 m a
// millimetre turns the ray by 0.023°.
func TestTwoBoneIKRollIsSteady(t *testing.T) {
	sk := animtest.Chain(3)
	pole := mgl32.Vec3{0, 0, 1}
	dir := mgl32.Vec3{0.3, 0.8, 0.5}.Normalize()
	side := dir.Cross(pole).Normalize()
	lean := func(r float64) float64 { return math.Acos(math.Min(1, r/2)) * 180 / math.Pi }
	type step struct {
		target mgl32.Vec3
		lean   float64 // degrees
	}
	var steps []step
	for i := -20; i <= 20; i++ {
		r := 2 + float64(i)*1e-3
		steps = append(steps, step{dir.Mul(float32(r)), lean(r)})
	}
	for i := 1; i <= 40; i++ {
		steps = append(steps, step{dir.Mul(2.5).Add(side.Mul(float32(i) * 1e-3)), 0})
	}
	var prev mgl32.Quat
	for k, s := range steps {
		pose := append([]anim.Transform(nil), sk.Rest...)
		pose[1].Rotation = animtest.RotZ(30)
		solveIK(t, sk, pose, s.target, pole, 1)
		q := pose[0].Rotation
		if k > 0 {
			d := math.Min(1, math.Abs(float64(q.Dot(prev))))
			turn := 2 * math.Acos(d) * 180 / math.Pi
			if limit := math.Abs(s.lean-steps[k-1].lean) + 0.1; turn > limit {
				t.Fatalf("target %d %v: the shoulder turned %.3f° from the last step (want ≤ %.3f°)", k, s.target, turn, limit)
			}
		}
		prev = q
	}
}

func TestLookAt(t *testing.T) {
	t.Run("single joint turns 90° about Y", func(t *testing.T) {
		sk := animtest.Chain(1)
		pose := append([]anim.Transform(nil), sk.Rest...)
		runLookAt(t, sk, pose, []int{0}, nil, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, 1)
		// Ry(90°) takes +Z to +X.
		want := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
		if !animtest.QuatApprox(pose[0].Rotation, want, 1e-5) {
			t.Fatalf("rotation %v, want %v", pose[0].Rotation, want)
		}
	})
	t.Run("equal shares split the turn", func(t *testing.T) {
		// Two joints at the same point: each takes half of the 90°.
		sk := animtest.Chain(2)
		sk.Rest[1] = anim.IdentityTransform
		pose := append([]anim.Transform(nil), sk.Rest...)
		runLookAt(t, sk, pose, []int{0, 1}, nil, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, 1)
		want := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 1, 0})
		for j := range pose {
			if !animtest.QuatApprox(pose[j].Rotation, want, 1e-5) {
				t.Fatalf("joint %d rotation %v, want 45° about Y %v", j, pose[j].Rotation, want)
			}
		}
	})
	t.Run("weight ½ scales each joint's turn", func(t *testing.T) {
		// Two joints at the same point, the target 90° away: the first
		// turns ½ × ½ of the 90°, 22.5°; the second ½ of the 67.5° left,
		// 33.75°.
		sk := animtest.Chain(2)
		sk.Rest[1] = anim.IdentityTransform
		pose := append([]anim.Transform(nil), sk.Rest...)
		runLookAt(t, sk, pose, []int{0, 1}, nil, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, 0.5)
		for j, deg := range []float64{22.5, 33.75} {
			if want := mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{0, 1, 0}); !animtest.QuatApprox(pose[j].Rotation, want, 1e-5) {
				t.Fatalf("joint %d rotation %v, want %v° about Y %v", j, pose[j].Rotation, deg, want)
			}
		}
	})
	t.Run("weight 0 leaves the pose", func(t *testing.T) {
		sk := animtest.Chain(2)
		pose := append([]anim.Transform(nil), sk.Rest...)
		runLookAt(t, sk, pose, []int{0, 1}, nil, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, 0)
		if !animtest.PosesEqual(pose, sk.Rest) {
			t.Fatal("pose changed")
		}
	})
	t.Run("eye offset aims exactly", func(t *testing.T) {
		sk := animtest.Humanoid()
		pose := append([]anim.Transform(nil), sk.Rest...)
		pose[sk.JointIndex("chest")].Rotation = animtest.RotZ(20)
		neck, head := sk.JointIndex("neck"), sk.JointIndex("head")
		offset := mgl32.Vec3{0, 0.08, 0.1}
		// A far target, and one 0.6 m from the eye, beside and below it,
		// where the eye moves as the head turns and the passes converge
		// only if each carries the eye about the joint; then through a
		// chain of three.
		chest := sk.JointIndex("chest")
		for i, target := range []mgl32.Vec3{{0.7, 1.9, 0.6}, {0.4, 1.5, 0.5}, {0.7, 1.9, 0.6}, {-0.5, 1.2, 0.4}} {
			pose := append([]anim.Transform(nil), pose...)
			if i < 2 {
				runLookAt(t, sk, pose, []int{neck, head}, []float32{0.4, 0.6}, offset, target, 1)
			} else {
				// Three joints: the turns of the first two, composed,
				// carry the eye that the last one aims.
				runLookAt(t, sk, pose, []int{chest, neck, head}, []float32{0.3, 0.3, 0.4}, offset, target, 1)
			}
			models := make([]mgl32.Mat4, sk.NumJoints())
			(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
			eye := models[head].Mul4x1(offset.Vec4(1)).Vec3()
			fwd := models[head].Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3().Normalize()
			want := target.Sub(eye).Normalize()
			if fwd.Dot(want) < 1-1e-5 {
				t.Fatalf("target %v: head forward %v, want %v towards it", target, fwd, want)
			}
		}
	})
}

// TestLookAtTargetAtTip aims an eye ahead of the head at the head's own
// origin: no turn about the head puts it on the eye's ray, so the head
// takes the shortest turn of its forward towards it, as the eye sees it,
// and nothing is left undefined.
func TestLookAtTargetAtTip(t *testing.T) {
	sk := animtest.Humanoid()
	pose := append([]anim.Transform(nil), sk.Rest...)
	head := sk.JointIndex("head")
	models := make([]mgl32.Mat4, sk.NumJoints())
	(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
	target := models[head].Col(3).Vec3()
	offset := mgl32.Vec3{0, 0.08, 0.1}
	runLookAt(t, sk, pose, []int{head}, nil, offset, target, 1)
	// The eye at (0, 0.08, 0.1) from the head, forward +Z: the direction
	// from the eye to the head's origin, (0, −0.08, −0.1), is more than a
	// quarter turn from +Z; the shortest turn takes +Z there.
	want := mgl32.Vec3{0, -0.08, -0.1}.Normalize()
	got := pose[head].Rotation.Rotate(mgl32.Vec3{0, 0, 1})
	if !animtest.VecApprox(got, want, 1e-5) {
		t.Fatalf("head forward %v, want %v", got, want)
	}
}

// TestLookAtRestForward checks the rest direction Limit measures from
// against its definition, with 4×4 matrices: Forward through each chain
// joint's rest transform (a chain joint that is a skeleton root as
// posed), the joints between them as posed, under the posed model matrix
// of the first one's parent. Rest and posed transforms are random, turned
// about every axis and scaled unevenly, a mirror among them.
func TestLookAtRestForward(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	sk := animtest.Chain(6)
	for i := range sk.Rest {
		sk.Rest[i] = randTransform(rng)
	}
	sk.Rest[3].Scale[1] *= -1
	pose := randTransforms(rng, 6)
	pose[2].Scale[0] *= -1
	models := make([]mgl32.Mat4, 6)
	(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
	fwd := mgl32.Vec3{0.3, -0.2, 1}
	for _, chain := range [][]int{{1, 3, 4}, {0, 2, 5}, {2, 3}, {4}, {0}} {
		in := map[int]bool{}
		for _, jt := range chain {
			in[jt] = true
		}
		v := fwd.Vec4(0)
		for jt := chain[len(chain)-1]; ; jt-- { // Chain's parents are jt − 1
			local := pose[jt]
			if in[jt] && jt > 0 {
				local = sk.Rest[jt]
			}
			v = local.Mat4().Mul4x1(v)
			if jt == chain[0] {
				break
			}
		}
		if chain[0] > 0 {
			v = models[chain[0]-1].Mul4x1(v)
		}
		want := v.Vec3().Normalize()
		job := anim.LookAtJob{Skeleton: sk, Chain: chain, Forward: fwd, Models: refModelRows(sk, pose), Pose: toSoA(pose)}
		r := job.RestForward()
		if got := (mgl32.Vec3{r.FieldX(), r.FieldY(), r.FieldZ()}); !animtest.VecApprox(got, want, 1e-5) {
			t.Errorf("chain %v: rest forward %v; want %v", chain, got, want)
		}
	}
}

// TestLookAtZeroShares gives chain joints a share of 0: one before the
// last keeps its rotation, and the last, which takes all that is left
// whatever its share, still aims exactly.
func TestLookAtZeroShares(t *testing.T) {
	sk := animtest.Chain(3)
	target := mgl32.Vec3{0.5, 1.5, 1}
	for _, shares := range [][]float32{{1, 0, 0}, {1, 1, 0}, {0, 1, 0}} {
		pose := append([]anim.Transform(nil), sk.Rest...)
		runLookAt(t, sk, pose, []int{0, 1, 2}, shares, mgl32.Vec3{}, target, 1)
		for k := 0; k < 2; k++ {
			if shares[k] == 0 && pose[k].Rotation != sk.Rest[k].Rotation {
				t.Errorf("shares %v: joint %d, of share 0, turned to %v", shares, k, pose[k].Rotation)
			}
		}
		models := make([]mgl32.Mat4, 3)
		(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
		fwd := models[2].Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3().Normalize()
		if d := fwd.Dot(target.Sub(models[2].Col(3).Vec3()).Normalize()); d < 1-1e-5 {
			t.Errorf("shares %v: the tip's forward · the direction to the target = %v; want 1", shares, d)
		}
	}
}

func runLookAt(t *testing.T, sk *anim.Skeleton, pose []anim.Transform, chain []int, shares []float32, offset, target mgl32.Vec3, w float32) {
	t.Helper()
	soa := toSoA(pose)
	job := anim.LookAtJob{Skeleton: sk, Chain: chain, Shares: shares, Forward: mgl32.Vec3{0, 0, 1}, Offset: offset, Target: target, Weight: w, Models: refModelRows(sk, pose), Pose: soa}
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	job.Run()
	copy(pose, animtest.FromSoA(soa))
}

// TestLookAtLimit checks Limit against its definition, a turn of θ for a
// target θ from the eye's forward within the limit L and of L·(π − θ)/(π − L)
// beyond it, and that it keeps a target passing behind the head from
// swinging the neck from one side to the other.
func TestLookAtLimit(t *testing.T) {
	look := func(sk *anim.Skeleton, pose []anim.Transform, chain []int, shares []float32, offset, target mgl32.Vec3, limit float32) {
		t.Helper()
		soa := toSoA(pose)
		job := anim.LookAtJob{Skeleton: sk, Chain: chain, Shares: shares, Forward: mgl32.Vec3{0, 0, 1}, Offset: offset, Target: target, Weight: 1, Limit: limit, Models: refModelRows(sk, pose), Pose: soa}
		if err := job.Validate(); err != nil {
			t.Fatal(err)
		}
		job.Run()
		copy(pose, animtest.FromSoA(soa))
	}
	t.Run("turn by target angle", func(t *testing.T) {
		sk := animtest.Chain(1)
		// L = 90°, then 45°: 80° is beyond it, 45·100/135 = 33⅓°.
		for _, c := range []struct{ limit, theta, want float64 }{{90, 60, 60}, {90, 90, 90}, {90, 120, 60}, {90, 135, 45}, {90, 170, 10}, {90, 180, 0},
			{45, 30, 30}, {45, 80, 100.0 / 3}, {45, 120, 20}} {
			pose := append([]anim.Transform(nil), sk.Rest...)
			a := c.theta * math.Pi / 180
			look(sk, pose, []int{0}, nil, mgl32.Vec3{}, mgl32.Vec3{float32(math.Sin(a)), 0, float32(math.Cos(a))}, float32(c.limit*math.Pi/180))
			// A turn about Y by the wanted angle takes +Z towards the target.
			want := mgl32.QuatRotate(float32(c.want*math.Pi/180), mgl32.Vec3{0, 1, 0})
			if !animtest.QuatApprox(pose[0].Rotation, want, 1e-5) {
				t.Errorf("limit %v°, target at %v°: rotation %v, want %v° about Y %v", c.limit, c.theta, pose[0].Rotation, c.want, want)
			}
		}
	})
	t.Run("a chain turns as one joint does", func(t *testing.T) {
		// Two joints at one point, equal shares: together they turn by
		// the limited angle, not each by a share of the target's.
		sk := animtest.Chain(2)
		sk.Rest[1] = anim.IdentityTransform
		for _, c := range []struct{ theta, want float64 }{{120, 60}, {150, 30}, {170, 10}} {
			pose := append([]anim.Transform(nil), sk.Rest...)
			a := c.theta * math.Pi / 180
			look(sk, pose, []int{0, 1}, nil, mgl32.Vec3{}, mgl32.Vec3{float32(math.Sin(a)), 0, float32(math.Cos(a))}, math.Pi/2)
			got := pose[0].Rotation.Mul(pose[1].Rotation)
			want := mgl32.QuatRotate(float32(c.want*math.Pi/180), mgl32.Vec3{0, 1, 0})
			if !animtest.QuatApprox(got, want, 1e-5) {
				t.Errorf("target at %v°: the chain turns %v, want %v° about Y %v", c.theta, got, c.want, want)
			}
		}
	})
	// The humanoid's neck and head, its eye, and where it faces at rest.
	hum := animtest.Humanoid()
	neck, head := hum.JointIndex("neck"), hum.JointIndex("head")
	offset := mgl32.Vec3{0, 0.08, 0.1}
	models := make([]mgl32.Mat4, hum.NumJoints())
	(&refLocalToModelJob{Skeleton: hum, Input: hum.Rest, Output: models}).Run()
	eye := models[head].Mul4x1(offset.Vec4(1)).Vec3()
	rest := models[head].Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3().Normalize()
	lookHead := func(pose []anim.Transform, target mgl32.Vec3, limit float32) {
		t.Helper()
		look(hum, pose, []int{neck, head}, []float32{0.4, 0.6}, offset, target, limit)
	}
	t.Run("within the limit nothing changes", func(t *testing.T) {
		target := mgl32.Vec3{0.7, 1.9, 0.6}
		free, limited := append([]anim.Transform(nil), hum.Rest...), append([]anim.Transform(nil), hum.Rest...)
		lookHead(free, target, 0)
		lookHead(limited, target, 100*math.Pi/180)
		if !animtest.PosesEqual(free, limited) {
			t.Fatal("a target within the limit turned the chain otherwise")
		}
	})
	t.Run("measured from the rest direction", func(t *testing.T) {
		// The head glances 20° to its left: a target anywhere around
		// turns it at most 100° from where it faces at rest, and one
		// straight behind leaves it facing there, not further into the
		// glance.
		for deg := 0; deg < 360; deg += 5 {
			a := float64(deg) * math.Pi / 180
			pose := append([]anim.Transform(nil), hum.Rest...)
			pose[head].Rotation = mgl32.QuatRotate(20*math.Pi/180, mgl32.Vec3{0, 1, 0})
			lookHead(pose, eye.Add(mgl32.QuatRotate(float32(a), mgl32.Vec3{0, 1, 0}).Rotate(rest).Mul(2)), 100*math.Pi/180)
			(&refLocalToModelJob{Skeleton: hum, Input: pose, Output: models}).Run()
			fwd := models[head].Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3().Normalize()
			off := math.Acos(math.Min(1, float64(fwd.Dot(rest)))) * 180 / math.Pi
			if off > 100.5 || (deg == 180 && off > 0.5) {
				t.Errorf("target %d° from the rest direction: the head faces %.1f° from it", deg, off)
			}
		}
	})
	t.Run("a chain from the root keeps where the body faces", func(t *testing.T) {
		// The hips, the skeleton's root, turned 90° by the animation: a
		// target straight behind the body leaves the head facing where
		// the body faces, not where the model's +Z is.
		root := 0
		for jt, p := range hum.Parents {
			if p < 0 {
				root = jt
			}
		}
		turn := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
		pose := append([]anim.Transform(nil), hum.Rest...)
		pose[root].Rotation = turn.Mul(pose[root].Rotation)
		(&refLocalToModelJob{Skeleton: hum, Input: pose, Output: models}).Run()
		facing := models[head].Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3().Normalize()
		behind := models[head].Mul4x1(offset.Vec4(1)).Vec3().Sub(facing.Mul(2))
		look(hum, pose, []int{root, neck, head}, nil, offset, behind, 100*math.Pi/180)
		(&refLocalToModelJob{Skeleton: hum, Input: pose, Output: models}).Run()
		fwd := models[head].Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3().Normalize()
		if d := fwd.Dot(facing); d < 1-1e-4 {
			t.Errorf("the head turned %.1f° from where the body faces", math.Acos(math.Min(1, float64(d)))*180/math.Pi)
		}
	})
	t.Run("target passing the limit and behind", func(t *testing.T) {
		// The target circles the eye at half a metre, half a degree a
		// step, from ahead on the left through straight behind to ahead
		// on the right: no step may turn the neck or the head by more
		// than a degree. Without the limit the neck swings 140° where
		// the target crosses behind; with the limit as a weight, the head
		// jumped 10° where the target crossed it.
		var prev [2]mgl32.Quat
		for step := 0; step <= 480; step++ {
			a := (60 + float64(step)/2) * math.Pi / 180
			pose := append([]anim.Transform(nil), hum.Rest...)
			lookHead(pose, eye.Add(mgl32.Vec3{0.5 * float32(math.Sin(a)), 0, 0.5 * float32(math.Cos(a))}), 100*math.Pi/180)
			for i, jt := range []int{neck, head} {
				q := pose[jt].Rotation
				if step > 0 {
					d := math.Abs(float64(q.Dot(prev[i])))
					if turn := 2 * math.Acos(math.Min(1, d)) * 180 / math.Pi; turn > 1 {
						t.Fatalf("target at %.1f°: %s turned %.1f° in one half-degree step", 60+float64(step)/2, hum.Names[jt], turn)
					}
				}
				prev[i] = q
			}
		}
	})
}

func TestLookAtValidate(t *testing.T) {
	sk := animtest.Chain(3)
	good := func() *anim.LookAtJob {
		return &anim.LookAtJob{Skeleton: sk, Chain: []int{1, 2}, Forward: mgl32.Vec3{0, 0, 1}, Models: make([]float32, 36), Pose: anim.NewSoAPose(3)}
	}
	checkValidate(t, good, []breakCase[*anim.LookAtJob]{
		{"empty chain", func(j *anim.LookAtJob) { j.Chain = nil }},
		{"chain out of order", func(j *anim.LookAtJob) { j.Chain = []int{2, 1} }},
		{"shares length", func(j *anim.LookAtJob) { j.Shares = []float32{1} }},
		{"negative share", func(j *anim.LookAtJob) { j.Shares = []float32{1, -1} }},
		{"zero forward", func(j *anim.LookAtJob) { j.Forward = mgl32.Vec3{} }},
		{"negative limit", func(j *anim.LookAtJob) { j.Limit = -1 }},
		{"limit over π", func(j *anim.LookAtJob) { j.Limit = 4 }},
		{"short pose", func(j *anim.LookAtJob) { j.Pose = anim.NewSoAPose(1) }},
		{"chain joint the joint count", func(j *anim.LookAtJob) { j.Chain = []int{1, 3} }},
		{"chain joint -1", func(j *anim.LookAtJob) { j.Chain = []int{-1, 2} }},
	})
	// On the edges, and valid: a share of 0, limits of 0 and π.
	for _, edge := range []func(j *anim.LookAtJob){
		func(j *anim.LookAtJob) { j.Shares = []float32{0, 1} },
		func(j *anim.LookAtJob) { j.Limit = 0 },
		func(j *anim.LookAtJob) { j.Limit = math.Pi },
	} {
		j := good()
		edge(j)
		if err := j.Validate(); err != nil {
			t.Errorf("shares %v, limit %v: %v; want it valid", j.Shares, j.Limit, err)
		}
	}
	j := good()
	j.Pose = nil
	if err := j.Validate(); err == nil || !strings.Contains(err.Error(), "no pose") {
		t.Errorf("no pose: %v; want an error saying so", err)
	}
}

// TestAimEnds checks aimEnds against what it must do: the eye's ray,
// turned about the origin by the shortest arc from its from to its to,
// passes through the target, ahead of the eye. A target nearer the origin
// than the ray passes has no such turn, and gets the one that aims fwd from
// the origin; a target at the origin none.
func TestAimEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	r := func() float32 { return rng.Float32()*2 - 1 }
	for range 200 {
		eye := anim.V3Of(r(), r(), r()).Scale(0.2)
		fwd, _ := anim.V3Of(r(), r(), r()).Unit()
		target := anim.V3Of(r(), r(), r()).Scale(3)
		if target.Len() < 0.5 {
			continue
		}
		from, to, ok := anim.AimEnds(eye, fwd, target)
		turn := anim.FromTo(from, to)
		if !ok {
			t.Fatalf("eye %v fwd %v target %v: no turn", eye, fwd, target)
		}
		e, f := turn.Rotate(eye), turn.Rotate(fwd)
		to, dist := target.Sub(e).Unit()
		if d := f.Dot(to); d < 1-1e-5 {
			t.Errorf("eye %v fwd %v target %v: turned ray misses by cos %v (%v away)", eye, fwd, target, d, dist)
		}
	}
	// The target 0.1 from the origin, the ray passing 1 from it.
	from, to, ok := anim.AimEnds(anim.V3Of(1, 0, 0), anim.V3Of(0, 0, 1), anim.V3Of(0, 0.1, 0))
	if f := anim.FromTo(from, to).Rotate(anim.V3Of(0, 0, 1)); !ok || f.Dot(anim.V3Of(0, 1, 0)) < 1-1e-6 {
		t.Errorf("target within the ray's distance: fwd turned to %v (ok %v), want it aimed from the origin, (0, 1, 0)", f, ok)
	}
	if _, _, ok := anim.AimEnds(anim.V3Of(1, 0, 0), anim.V3Of(0, 0, 1), anim.V3{}); ok {
		t.Error("target at the origin: a turn, want none")
	}
}

// TestTurnAbout checks the half-angle construction against the rotation
// by φ about the axis, over every angle from −π to π, near half a turn
// and near none, with the cosine and sine scaled by factors small and
// large: the angle it turns by, 2·atan2(|v|, w) in float64 with v along
// the axis, must be φ to within a few float32 roundings (the one form
// that cancels near half a turn is off by 1e-4 rad there), and w ≥ 0.
func TestTurnAbout(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	angles := []float64{0, 1e-6, -1e-6, 1e-3, math.Pi / 2, -math.Pi / 2, math.Pi - 1e-3, -(math.Pi - 1e-3), math.Pi - 1e-6, math.Pi}
	for range 200 {
		angles = append(angles, (rng.Float64()*2-1)*math.Pi)
	}
	for _, phi := range angles {
		for _, r := range []float64{1e-3, 1, 250} {
			ax := mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}.Normalize()
			c, sn := float32(r*math.Cos(phi)), float32(r*math.Sin(phi))
			q := anim.TurnAbout(anim.Vec(ax), c, sn)
			// The angle of the float32 inputs, so that their own rounding
			// does not count against turnAbout.
			want := math.Atan2(float64(sn), float64(c))
			along := float64(q.FieldX())*float64(ax[0]) + float64(q.FieldY())*float64(ax[1]) + float64(q.FieldZ())*float64(ax[2])
			got := 2 * math.Atan2(along, float64(q.FieldW()))
			if d := math.Abs(got - want); d > 1e-6 && math.Abs(d-2*math.Pi) > 1e-6 {
				t.Fatalf("φ = %v, r = %v: %v turns by %v, want %v", phi, r, q, got, want)
			}
			if q.FieldW() < 0 {
				t.Fatalf("φ = %v, r = %v: %v has w < 0", phi, r, q)
			}
			if l := math.Sqrt(float64(q.FieldX())*float64(q.FieldX()) + float64(q.FieldY())*float64(q.FieldY()) + float64(q.FieldZ())*float64(q.FieldZ()) + float64(q.FieldW())*float64(q.FieldW())); math.Abs(l-1) > 1e-6 {
				t.Fatalf("φ = %v, r = %v: %v is %v long; want a unit quaternion", phi, r, q, l)
			}
		}
	}
	if q := anim.TurnAbout(anim.V3Of(1, 0, 0), 0, 0); q != anim.IdentityQuat {
		t.Fatalf("no angle gave %v, want the identity", q)
	}
}

// TestFrameTurn gives frameTurn frames turned by known rotations (mathgl's
// QuatRotate of an axis and an angle, applied by mathgl): half a turn
// about each axis and near it, where each of Shepperd's four cases is the
// one taken, small turns, and random ones. It must give the rotation
// itself, q or −q, unit to float32's rounding.
func TestFrameTurn(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	type turn struct {
		axis  mgl32.Vec3
		angle float64
	}
	turns := []turn{{mgl32.Vec3{1, 0, 0}, 0}, {mgl32.Vec3{0, 0, 1}, 1e-4}}
	for _, ax := range []mgl32.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}} {
		for _, a := range []float64{math.Pi, math.Pi - 1e-3, -(math.Pi - 0.2), math.Pi / 2} {
			turns = append(turns, turn{ax.Normalize(), a})
		}
	}
	for range 300 {
		ax := mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}.Normalize()
		turns = append(turns, turn{ax, (rng.Float64()*2 - 1) * math.Pi})
	}
	for _, tc := range turns {
		want := mgl32.QuatRotate(float32(tc.angle), tc.axis)
		// A random orthonormal pair for the frame it turns.
		x0 := mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}.Normalize()
		y0 := x0.Cross(mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}).Normalize()
		x1, y1 := want.Rotate(x0), want.Rotate(y0)
		q := anim.FrameTurn(anim.Vec(x0), anim.Vec(y0), anim.Vec(x1), anim.Vec(y1))
		got := mgl32.Quat{W: q.FieldW(), V: mgl32.Vec3{q.FieldX(), q.FieldY(), q.FieldZ()}}
		if !animtest.QuatApprox(got, want, 2e-6) {
			t.Fatalf("%v rad about %v: frameTurn gave %v, want ±%v", tc.angle, tc.axis, got, want)
		}
	}
}

// TestArc checks that arc(u, w, |w|) is the shortest arc from u to w's
// direction, whatever w's length: a unit quaternion that takes u there
// (mathgl applies it) about an axis perpendicular to both, w ≥ 0 — for
// random pairs, nearly opposite ones (0.02 rad short of half a turn: the
// normalized form, where |w| + u·w cancels, to an error of float32's
// rounding over that angle, 1e-5, as fromTo's on unit vectors) and
// exactly opposite ones (half a turn about some perpendicular axis).
func TestArc(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	rnd := func() mgl32.Vec3 {
		return mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}
	}
	for i := range 400 {
		u, w := rnd().Normalize(), rnd().Normalize()
		switch i % 4 {
		case 1:
			p := u.Cross(rnd()).Normalize()
			w = u.Mul(-float32(math.Cos(0.02))).Add(p.Mul(float32(math.Sin(0.02)))) // nearly opposite
		case 2:
			w = u.Mul(-1) // opposite
		}
		for _, scale := range []float32{1e-3, 1, 1e3} {
			ws := w.Mul(scale)
			q := anim.Arc(anim.Vec(u), anim.Vec(ws), ws.Len())
			mq := mgl32.Quat{W: q.FieldW(), V: mgl32.Vec3{q.FieldX(), q.FieldY(), q.FieldZ()}}
			if l := mq.Len(); !animtest.ApproxEqual(l, 1, 2e-6) {
				t.Fatalf("u %v, w %v × %v: |q| = %v", u, w, scale, l)
			}
			tol := float32(2e-6)
			if i%4 == 1 {
				tol = 5e-5
			}
			if got := mq.Rotate(u); !animtest.VecApprox(got, w, tol) {
				t.Fatalf("u %v, w %v × %v: q takes u to %v", u, w, scale, got)
			}
			if along := mq.V.Dot(u); i%4 != 2 && math.Abs(float64(along)) > 2e-5 || q.FieldW() < 0 {
				t.Fatalf("u %v, w %v × %v: %v is not the shortest arc", u, w, scale, q)
			}
		}
	}
}

// TestParentFrame builds affine matrices T·R(q)·S from known rotations,
// translations and positive, unequal scales: parentFrame must give R(q)'s
// columns back, flat columns and mirrors included.
func TestParentFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	qs := []mgl32.Quat{mgl32.QuatIdent(), mgl32.QuatRotate(math.Pi*0.95, mgl32.Vec3{1, 0, 0})}
	for range 60 {
		qs = append(qs, mgl32.Quat{W: rng.Float32()*2 - 1, V: mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}}.Normalize())
	}
	check := func(what string, m mgl32.Mat4, want mgl32.Quat) {
		t.Helper()
		var rows [12]float32
		anim.WritePaletteEntry(rows[:], &m)
		c0, c1, c2, ok := anim.ParentFrame(&rows)
		r := want.Mat4()
		for i, c := range []anim.V3{c0, c1, c2} {
			if w := r.Col(i).Vec3(); !ok || !animtest.VecApprox(mgl32.Vec3{c.FieldX(), c.FieldY(), c.FieldZ()}, w, 1e-5) {
				t.Errorf("%s: column %d = %v (ok %v), want %v", what, i, c, ok, w)
			}
		}
	}
	for _, q := range qs {
		check(fmt.Sprintf("%v scaled", q), mgl32.Translate3D(rng.Float32(), 2, -3).Mul4(q.Mat4()).Mul4(mgl32.Scale3D(0.5+rng.Float32(), 2, 0.25)), q)
		// Scaled flat on one axis, a joint still has its rotation.
		for axis := range 3 {
			scale := mgl32.Vec3{0.5 + rng.Float32(), 2, 0.25}
			scale[axis] = 0
			check(fmt.Sprintf("%v scaled %v", q, scale), mgl32.Translate3D(1, 2, 3).Mul4(q.Mat4()).Mul4(mgl32.Scale3D(scale[0], scale[1], scale[2])), q)
		}
	}
	// A mirror reads as the rotation of the negated matrix: R·diag(−1, 2,
	// 0.5) negated is R·R_x(π)·diag(1, 2, 0.5).
	for _, q := range qs[:8] {
		check(fmt.Sprintf("%v mirrored on x", q), mgl32.Translate3D(1, 2, 3).Mul4(q.Mat4()).Mul4(mgl32.Scale3D(-1, 2, 0.5)), q.Mul(mgl32.QuatRotate(math.Pi, mgl32.Vec3{1, 0, 0})))
	}
	// Flat on two axes, or on all three, there is no rotation to read.
	for _, scale := range []mgl32.Vec3{{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {}} {
		m := mgl32.HomogRotate3DX(1).Mul4(mgl32.Scale3D(scale[0], scale[1], scale[2]))
		var rows [12]float32
		anim.WritePaletteEntry(rows[:], &m)
		if _, _, _, ok := anim.ParentFrame(&rows); ok {
			t.Errorf("parentFrame of a matrix scaled %v has a rotation", scale)
		}
	}
}

// TestInvSqrt: 1/√s within a float32 rounding (1.2e-7 relative) of the
// float64 value, near 1, where the series stands in for the root, across
// its edges, and far from it.
func TestInvSqrt(t *testing.T) {
	var ss []float32
	for i := -1100; i <= 1100; i++ {
		ss = append(ss, 1+float32(i)*0x1p-20) // ±2⁻¹⁰ and a little past
	}
	ss = append(ss, 1e-6, 0.25, 0.5, 2, 4, 100, 1e6)
	for _, s := range ss {
		want := 1 / math.Sqrt(float64(s))
		if got := float64(anim.InvSqrt(s)); math.Abs(got-want) > 1.2e-7*want {
			t.Errorf("invSqrt(%v) = %v, want %v", s, got, want)
		}
	}
}

// A chain below a mirror (a negative scale, as rigs mirror one side's
// limbs), or mirrored itself, reaches and aims as any other: the IK hand
// lands on the target and the look-at's forward, as the joint's matrix
// carries it, points at its own, both judged on the recomputed model
// matrices.
func TestIKAndLookAtUnderMirrors(t *testing.T) {
	// The root turned about z, about an oblique axis, not at all, and half
	// a turn about y (whose matrix has exact zeros off its diagonal, as the
	// identity's has); the hand off the forearm's axis, so that every row
	// and column of the matrices it passes through counts.
	for _, root := range []mgl32.Quat{mgl32.QuatRotate(0.3, mgl32.Vec3{0, 0, 1}), mgl32.QuatRotate(0.7, mgl32.Vec3{0.6, -0.3, 1}.Normalize()), mgl32.QuatIdent(), {W: 0, V: mgl32.Vec3{0, 1, 0}}} {
		for _, m := range []struct {
			joint int
			scale mgl32.Vec3
		}{{0, mgl32.Vec3{1, 1, 1}}, {0, mgl32.Vec3{-1, 1, 1}}, {0, mgl32.Vec3{1, -1, 1}}, {0, mgl32.Vec3{-1, -1, -1}}, {1, mgl32.Vec3{-1, 1, 1}}, {2, mgl32.Vec3{1, 1, -1}},
			{0, mgl32.Vec3{1.5, 1.5, 1.5}}, {0, mgl32.Vec3{-1.5, 1.5, 1.5}}, {1, mgl32.Vec3{1.5, 1.5, -1.5}}} {
			sk := animtest.Chain(4)
			sk.Rest[0].Rotation = root
			sk.Rest[3].Translation = mgl32.Vec3{0.8, 0.3, -0.2}
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
				t.Errorf("root %v, joint %d scaled %v: IK hand at %v, want %v", root, m.joint, m.scale, hand, target)
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
				t.Errorf("root %v, joint %d scaled %v: look-at forward·direction to target = %v, want 1", root, m.joint, m.scale, d)
			}
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

	// From the root, turned: its children's matrices are built on its.
	local[0].Rotation = mgl32.QuatRotate(0.7, mgl32.Vec3{0, 0, 1}).Mul(local[0].Rotation)
	pose.Set(0, local[0])
	anim.ModelsBelow(sk.Parents, pose, models, 0, make([]bool, n), every)
	(&refLocalToModelJob{Skeleton: sk, Input: local, Output: want}).Run()
	for i := range n {
		if got := anim.ModelMat4(models, i); !got.ApproxEqualThreshold(want[i], 1e-5) {
			t.Errorf("from the root, joint %s: %v, want %v", sk.Names[i], got, want[i])
		}
	}
}
