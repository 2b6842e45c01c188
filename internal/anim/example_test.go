package anim_test

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/skinview/skinview/internal/anim"
)

func ExampleBlendSoA() {
	a, b, out := anim.NewSoAPose(1), anim.NewSoAPose(1), anim.NewSoAPose(1)
	a.Set(0, anim.IdentityTransform)
	b.Set(0, anim.Transform{Translation: mgl32.Vec3{2, 0, 0}, Rotation: mgl32.QuatRotate(mgl32.DegToRad(90), mgl32.Vec3{0, 0, 1}), Scale: mgl32.Vec3{3, 3, 3}})
	anim.BlendSoA(out, a, b, 0.5, false)
	r := out.At(0)
	angle := 2 * mgl32.RadToDeg(float32(math.Acos(float64(r.Rotation.W))))
	fmt.Printf("x %.1f, %.0f° about Z, scale %.1f\n", r.Translation[0], angle, r.Scale[0])
	// Output: x 1.0, 45° about Z, scale 2.0
}

func ExampleAddSoA() {
	// The difference of a nod (20° about X) against the upright reference,
	// added at half weight to a head already turned 30° about Y.
	q := func(deg float32, axis mgl32.Vec3) mgl32.Quat { return mgl32.QuatRotate(mgl32.DegToRad(deg), axis) }
	pose := func(r mgl32.Quat) *anim.SoAPose {
		p := anim.NewSoAPose(1)
		p.Set(0, anim.Transform{Rotation: r, Scale: mgl32.Vec3{1, 1, 1}})
		return p
	}
	diff := anim.NewSoAPose(1)
	anim.DifferenceSoA(diff, pose(q(20, mgl32.Vec3{1, 0, 0})), pose(mgl32.QuatIdent()))
	out := anim.NewSoAPose(1)
	anim.AddSoA(out, pose(q(30, mgl32.Vec3{0, 1, 0})), diff, 0.5, nil)
	want := q(30, mgl32.Vec3{0, 1, 0}).Mul(q(10, mgl32.Vec3{1, 0, 0}))
	fmt.Println(out.At(0).Rotation.ApproxEqualThreshold(want, 1e-6))
	// Output: true
}

func ExampleSubtreeMask() {
	sk := &anim.Skeleton{
		Names:   []string{"hips", "spine", "chest", "neck", "head"},
		Parents: []int{-1, 0, 1, 2, 3},
		Rest:    make([]anim.Transform, 5),
	}
	w := make([]float32, 5)
	if err := anim.SubtreeMask(sk, "spine", 2, w); err != nil {
		panic(err)
	}
	fmt.Printf("%.2f\n", w)
	// Output: [0.00 0.33 0.67 1.00 1.00]
}

func ExampleTwoBoneIKJob() {
	// Shoulder at the origin, elbow and hand one unit apart along +X.
	sk := &anim.Skeleton{Names: []string{"shoulder", "elbow", "hand"}, Parents: []int{-1, 0, 1}}
	for i := 0; i < 3; i++ {
		t := anim.IdentityTransform
		if i > 0 {
			t.Translation = mgl32.Vec3{1, 0, 0}
		}
		sk.Rest = append(sk.Rest, t)
	}
	pose := anim.NewSoAPose(3)
	pose.FromTransforms(sk.Rest)
	l2m := anim.ModelPaletteJob{Skeleton: sk, Input: pose, Models: make([]float32, 3*anim.PaletteFloats)}
	l2m.Run()
	ik := anim.TwoBoneIKJob{Skeleton: sk, Start: 0, Mid: 1, End: 2, Target: mgl32.Vec3{1, 1, 0}, Pole: mgl32.Vec3{0, -1, 0}, Weight: 1, Models: l2m.Models, Pose: pose}
	if err := ik.Validate(); err != nil {
		panic(err)
	}
	ik.Run()
	l2m.Run() // the global pose after IK
	h := anim.ModelMat4(l2m.Models, 2).Col(3)
	fmt.Printf("hand at (%.2f, %.2f, %.2f), reached %v\n", h[0], h[1], h[2], ik.Reached)
	// Output: hand at (1.00, 1.00, 0.00), reached true
}
