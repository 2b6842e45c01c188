package anim_test

import (
	"math"
	"math/rand/v2"
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
