package anim_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

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
		for _, c := range []struct{ theta, want float64 }{{60, 60}, {90, 90}, {120, 60}, {135, 45}, {170, 10}, {180, 0}} {
			pose := append([]anim.Transform(nil), sk.Rest...)
			a := c.theta * math.Pi / 180
			look(sk, pose, []int{0}, nil, mgl32.Vec3{}, mgl32.Vec3{float32(math.Sin(a)), 0, float32(math.Cos(a))}, math.Pi/2)
			// A turn about Y by the wanted angle takes +Z towards the target.
			want := mgl32.QuatRotate(float32(c.want*math.Pi/180), mgl32.Vec3{0, 1, 0})
			if !animtest.QuatApprox(pose[0].Rotation, want, 1e-5) {
				t.Errorf("target at %v°: rotation %v, want %v° about Y %v", c.theta, pose[0].Rotation, c.want, want)
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
	})
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
