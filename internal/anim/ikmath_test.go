package anim_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

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
