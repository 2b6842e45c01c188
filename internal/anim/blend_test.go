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

func TestLerpPose(t *testing.T) {
	a := anim.Transform{Translation: mgl32.Vec3{0, 2, 4}, Rotation: animtest.RotZ(10), Scale: mgl32.Vec3{1, 1, 1}}
	b := anim.Transform{Translation: mgl32.Vec3{4, 2, 0}, Rotation: animtest.RotZ(50), Scale: mgl32.Vec3{3, 1, 2}}
	negB := b
	negB.Rotation = mgl32.Quat{W: -b.Rotation.W, V: b.Rotation.V.Mul(-1)} // same rotation, far hemisphere
	cases := []struct {
		name    string
		b       anim.Transform
		w       float32
		nlerp   bool
		want    anim.Transform
		bitwise bool // the result must be an input exactly
	}{
		{"weight 0 is a exactly", b, 0, false, a, true},
		{"weight 1 is b exactly", b, 1, false, b, true},
		{"below 0 clamps to a", b, -0.5, false, a, true},
		{"above 1 clamps to b", b, 1.5, false, b, true},
		// Midway: (0+4)/2, (4+0)/2; 10° and 50° meet at 30°; scale (1+3)/2, (1+2)/2.
		{"slerp midway", b, 0.5, false, anim.Transform{mgl32.Vec3{2, 2, 2}, animtest.RotZ(30), mgl32.Vec3{2, 1, 1.5}}, false},
		// A quarter: 10° + 40°/4 = 20°.
		{"slerp quarter", b, 0.25, false, anim.Transform{mgl32.Vec3{1, 2, 3}, animtest.RotZ(20), mgl32.Vec3{1.5, 1, 1.25}}, false},
		{"slerp shortest arc from −q", negB, 0.5, false, anim.Transform{mgl32.Vec3{2, 2, 2}, animtest.RotZ(30), mgl32.Vec3{2, 1, 1.5}}, false},
		// Nlerp is exact at the midpoint of a symmetric arc.
		{"nlerp midway", b, 0.5, true, anim.Transform{mgl32.Vec3{2, 2, 2}, animtest.RotZ(30), mgl32.Vec3{2, 1, 1.5}}, false},
		{"nlerp shortest arc from −q", negB, 0.5, true, anim.Transform{mgl32.Vec3{2, 2, 2}, animtest.RotZ(30), mgl32.Vec3{2, 1, 1.5}}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]anim.Transform, 1)
			if tc.nlerp {
				soaNlerp(out, []anim.Transform{a}, []anim.Transform{tc.b}, tc.w)
			} else {
				soaLerp(out, []anim.Transform{a}, []anim.Transform{tc.b}, tc.w)
			}
			got := out[0]
			if tc.bitwise {
				if got != tc.want {
					t.Fatalf("got %v, want exactly %v", got, tc.want)
				}
				return
			}
			if !animtest.VecApprox(got.Translation, tc.want.Translation, eps) || !animtest.QuatApprox(got.Rotation, tc.want.Rotation, eps) || !animtest.VecApprox(got.Scale, tc.want.Scale, eps) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLerpPoseInPlace(t *testing.T) {
	a := []anim.Transform{animtest.Tr(0, 0, 0), animtest.Tr(2, 0, 0)}
	b := []anim.Transform{animtest.Tr(4, 0, 0), animtest.Tr(6, 0, 0)}
	soaLerp(a, a, b, 0.5) // out aliases a
	if a[0].Translation[0] != 2 || a[1].Translation[0] != 4 {
		t.Fatalf("in-place lerp gave x = %v, %v; want 2, 4", a[0].Translation[0], a[1].Translation[0])
	}
}

func TestMaskedLerpPose(t *testing.T) {
	a := []anim.Transform{animtest.Tr(0, 0, 0), animtest.Tr(0, 0, 0), animtest.Tr(0, 0, 0)}
	b := []anim.Transform{animtest.Tr(8, 0, 0), animtest.Tr(8, 0, 0), animtest.Tr(8, 0, 0)}
	cases := []struct {
		name string
		w    float32
		mask []float32
		want [3]float32
	}{
		{"nil mask is a plain lerp", 0.25, nil, [3]float32{2, 2, 2}},
		{"mask 0 keeps a, 1 follows w", 0.5, []float32{0, 0.5, 1}, [3]float32{0, 2, 4}},
		{"joint weight 1 is b exactly", 1, []float32{0, 0.5, 1}, [3]float32{0, 4, 8}},
		{"weight 0 is a everywhere", 0, []float32{1, 1, 1}, [3]float32{0, 0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]anim.Transform, 3)
			soaMaskedLerp(out, a, b, tc.w, tc.mask, false)
			for i := range out {
				if !animtest.ApproxEqual(out[i].Translation[0], tc.want[i], eps) {
					t.Fatalf("joint %d x = %v, want %v", i, out[i].Translation[0], tc.want[i])
				}
			}
		})
	}
}

// TestMaskedBlendEnds: a joint whose weight (w × its mask) is 0 keeps a
// and one whose weight is 1 takes b, bit for bit, with nlerp too (which
// would normalize again rotations that are unit only to float32's
// rounding), out of place and in place; the pose carries the base's root
// motion (a mask overlays a part of the body, which the base moves).
func TestMaskedBlendEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 11 // a block of 8 in lanes and three joint by joint
	var a, b []anim.Transform
	for range n {
		for _, p := range []*[]anim.Transform{&a, &b} {
			q := mgl32.Quat{W: rng.Float32() - 0.5, V: mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5}}.Normalize()
			*p = append(*p, anim.Transform{Translation: mgl32.Vec3{rng.Float32(), rng.Float32(), rng.Float32()}, Rotation: q, Scale: mgl32.Vec3{1, 1, 1}})
		}
	}
	mask := make([]float32, n, 16)
	for i := range mask {
		mask[i] = float32(i % 2) // 0 and 1 in turn
	}
	for _, nlerp := range []bool{false, true} {
		for _, inPlace := range []bool{false, true} {
			sa, sb := toSoA(a), toSoA(b)
			sa.Motion = anim.Transform{Translation: mgl32.Vec3{1, 0, 0}, Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
			sb.Motion = anim.Transform{Translation: mgl32.Vec3{0, 0, 5}, Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
			out := anim.NewSoAPose(n)
			if inPlace {
				out = sa
			}
			anim.MaskedBlendSoA(out, sa, sb, 1, mask, nlerp)
			got := animtest.FromSoA(out)
			for i := range n {
				if want := [2]anim.Transform{a[i], b[i]}[i%2]; got[i] != want {
					t.Errorf("nlerp %v, in place %v: joint %d (mask %v) is %v; want %v bit for bit", nlerp, inPlace, i, mask[i], got[i], want)
				}
			}
			if out.Motion.Translation != (mgl32.Vec3{1, 0, 0}) {
				t.Errorf("nlerp %v, in place %v: the blend carries motion %v; want the base's (1, 0, 0)", nlerp, inPlace, out.Motion.Translation)
			}
		}
	}
}

func TestWeightedAveragePose(t *testing.T) {
	p0 := []anim.Transform{{mgl32.Vec3{0, 0, 0}, animtest.RotZ(0), mgl32.Vec3{1, 1, 1}}}
	p1 := []anim.Transform{{mgl32.Vec3{10, 0, 0}, animtest.RotZ(90), mgl32.Vec3{2, 2, 2}}}
	p2 := []anim.Transform{{mgl32.Vec3{100, 0, 0}, animtest.RotZ(90), mgl32.Vec3{3, 3, 3}}}
	// Three poses, weights 1:1:2 → normalized ¼, ¼, ½.
	// Translation (0 + 10 + 200)/4 = 52.5; scale (1 + 2 + 6)/4 = 2.25.
	// Rotation: normalize(¼·q0° + ¾·q90°); both about Z, so the half angle
	// is atan2(¾·sin 45°, ¼ + ¾·cos 45°).
	half := math.Atan2(0.75*math.Sin(math.Pi/4), 0.25+0.75*math.Cos(math.Pi/4))
	threeWay := animtest.RotZ(2 * half * 180 / math.Pi)
	cases := []struct {
		name    string
		weights []float32
		wantT   float32
		wantR   mgl32.Quat
		wantS   float32
	}{
		{"one weight is that pose", []float32{0, 3, 0}, 10, animtest.RotZ(90), 2},
		{"two weights slerp", []float32{1, 1, 0}, 5, animtest.RotZ(45), 1.5},
		{"weights are normalized", []float32{2, 2, 0}, 5, animtest.RotZ(45), 1.5},
		{"three weights average", []float32{1, 1, 2}, 52.5, threeWay, 2.25},
		{"negative weights are ignored", []float32{1, -5, 1}, 50, animtest.RotZ(45), 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]anim.Transform, 1)
			if !soaAverage(out, [][]anim.Transform{p0, p1, p2}, tc.weights) {
				t.Fatal("reported no weight")
			}
			g := out[0]
			if !animtest.ApproxEqual(g.Translation[0], tc.wantT, 1e-4) || !animtest.QuatApprox(g.Rotation, tc.wantR, eps) || !animtest.ApproxEqual(g.Scale[0], tc.wantS, eps) {
				t.Fatalf("got %v; want x %v, rotation %v, scale %v", g, tc.wantT, tc.wantR, tc.wantS)
			}
		})
	}
	out := []anim.Transform{animtest.Tr(7, 7, 7)}
	if soaAverage(out, [][]anim.Transform{p0}, []float32{0}) || out[0] != animtest.Tr(7, 7, 7) {
		t.Fatal("all-zero weights must report false and leave out alone")
	}
}

func TestWeightedAverageHemisphere(t *testing.T) {
	// Three copies of the same rotation, one negated: the average must be
	// that rotation, not a cancellation towards zero.
	q := animtest.RotZ(40)
	neg := mgl32.Quat{W: -q.W, V: q.V.Mul(-1)}
	poses := [][]anim.Transform{
		{{Rotation: q, Scale: mgl32.Vec3{1, 1, 1}}},
		{{Rotation: neg, Scale: mgl32.Vec3{1, 1, 1}}},
		{{Rotation: q, Scale: mgl32.Vec3{1, 1, 1}}},
	}
	out := make([]anim.Transform, 1)
	soaAverage(out, poses, []float32{1, 1, 1})
	if !animtest.QuatApprox(out[0].Rotation, q, eps) {
		t.Fatalf("got %v, want %v", out[0].Rotation, q)
	}
}

func TestAdditive(t *testing.T) {
	ref := anim.Transform{Translation: mgl32.Vec3{1, 0, 0}, Rotation: animtest.RotZ(30), Scale: mgl32.Vec3{2, 1, 1}}
	src := anim.Transform{Translation: mgl32.Vec3{3, 1, 0}, Rotation: animtest.RotZ(90), Scale: mgl32.Vec3{8, 1, 0.5}}
	base := anim.Transform{Translation: mgl32.Vec3{0, 0, 5}, Rotation: animtest.RotZ(-10), Scale: mgl32.Vec3{1, 3, 1}}
	diff := make([]anim.Transform, 1)
	soaDifference(diff, []anim.Transform{src}, []anim.Transform{ref})
	// By hand: D = (3−1, 1−0, 0−0); rotation 30⁻¹·90 = 60° about Z;
	// scale (8/2, 1/1, 0.5/1).
	wantD := anim.Transform{mgl32.Vec3{2, 1, 0}, animtest.RotZ(60), mgl32.Vec3{4, 1, 0.5}}
	if !animtest.VecApprox(diff[0].Translation, wantD.Translation, eps) || !animtest.QuatApprox(diff[0].Rotation, wantD.Rotation, eps) || !animtest.VecApprox(diff[0].Scale, wantD.Scale, eps) {
		t.Fatalf("difference %v, want %v", diff[0], wantD)
	}
	cases := []struct {
		name string
		base anim.Transform
		w    float32
		mask []float32
		want anim.Transform
	}{
		{"weight 0 is base", base, 0, nil, base},
		{"onto its own reference gives the source", ref, 1, nil, src},
		// base + D: (0+2, 0+1, 5); −10° + 60° = 50°; (1·4, 3·1, 1·0.5).
		{"full weight", base, 1, nil, anim.Transform{mgl32.Vec3{2, 1, 5}, animtest.RotZ(50), mgl32.Vec3{4, 3, 0.5}}},
		// Half: translation + D/2 = (1, 0.5, 5); −10° + 30° = 20°;
		// scale · D^½ = (1·2, 3·1, 1·√½).
		{"half weight", base, 0.5, nil, anim.Transform{mgl32.Vec3{1, 0.5, 5}, animtest.RotZ(20), mgl32.Vec3{2, 3, float32(math.Sqrt(0.5))}}},
		{"mask scales the weight", base, 1, []float32{0.5}, anim.Transform{mgl32.Vec3{1, 0.5, 5}, animtest.RotZ(20), mgl32.Vec3{2, 3, float32(math.Sqrt(0.5))}}},
		{"mask 0 is base", base, 1, []float32{0}, base},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]anim.Transform, 1)
			soaAdd(out, []anim.Transform{tc.base}, diff, tc.w, tc.mask)
			g := out[0]
			if !animtest.VecApprox(g.Translation, tc.want.Translation, eps) || !animtest.QuatApprox(g.Rotation, tc.want.Rotation, eps) || !animtest.VecApprox(g.Scale, tc.want.Scale, eps) {
				t.Fatalf("got %v, want %v", g, tc.want)
			}
		})
	}
}

func TestSubtreeMask(t *testing.T) {
	sk := animtest.Humanoid()
	cases := []struct {
		name    string
		roots   []string
		falloff int
		want    map[string]float32 // unlisted joints: 0
	}{
		{"hard edge", []string{"neck"}, 0, map[string]float32{"neck": 1, "head": 1}},
		// Falloff 2: depth 0 → 1/3, depth 1 → 2/3, deeper → 1.
		{"falloff ramps in", []string{"chest"}, 2, map[string]float32{
			"chest": 1.0 / 3, "neck": 2.0 / 3, "head": 1, "shoulder.L": 2.0 / 3, "upper_arm.L": 1, "forearm.L": 1, "hand.L": 1,
			"shoulder.R": 2.0 / 3, "upper_arm.R": 1, "forearm.R": 1, "hand.R": 1}},
		{"union takes the larger", []string{"forearm.L", "upper_arm.L"}, 1, map[string]float32{
			"upper_arm.L": 0.5, "forearm.L": 1, "hand.L": 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := make([]float32, sk.NumJoints())
			for _, r := range tc.roots {
				if err := anim.SubtreeMask(sk, r, tc.falloff, w); err != nil {
					t.Fatal(err)
				}
			}
			for i, name := range sk.Names {
				if !animtest.ApproxEqual(w[i], tc.want[name], 1e-6) {
					t.Errorf("%s = %v, want %v", name, w[i], tc.want[name])
				}
			}
		})
	}
	if err := anim.SubtreeMask(sk, "tail", 0, make([]float32, sk.NumJoints())); err == nil {
		t.Error("unknown root accepted")
	}
	if err := anim.SubtreeMask(sk, "head", 0, make([]float32, 3)); err == nil {
		t.Error("short mask accepted")
	}
}

// TestAdditiveOrder uses rotations about three different axes, which do
// not commute: the difference must be ref⁻¹ ⊗ src and the layer base ⊗ D
// (the difference applied in the base's local frame), so swapping either
// product fails. Expected values are built with mathgl's own quaternion
// product and axis-angle constructor.
func TestAdditiveOrder(t *testing.T) {
	x, y, z := mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 0, 1}
	deg := func(d float64) float32 { return float32(d * math.Pi / 180) }
	ref := anim.Transform{Rotation: mgl32.QuatRotate(deg(40), x), Scale: mgl32.Vec3{1, 1, 1}}
	src := anim.Transform{Rotation: mgl32.QuatRotate(deg(70), y), Scale: mgl32.Vec3{1, 1, 1}}
	base := anim.Transform{Rotation: mgl32.QuatRotate(deg(-25), z), Scale: mgl32.Vec3{1, 1, 1}}
	diff := make([]anim.Transform, 1)
	soaDifference(diff, []anim.Transform{src}, []anim.Transform{ref})
	wantD := ref.Rotation.Conjugate().Mul(src.Rotation)
	if !animtest.QuatApprox(diff[0].Rotation, wantD, 2e-6) {
		t.Fatalf("difference %v, want ref⁻¹·src %v", diff[0].Rotation, wantD)
	}
	out := make([]anim.Transform, 1)
	soaAdd(out, []anim.Transform{base}, diff, 1, nil)
	if want := base.Rotation.Mul(wantD); !animtest.QuatApprox(out[0].Rotation, want, 2e-6) {
		t.Fatalf("full weight %v, want base·D %v", out[0].Rotation, want)
	}
	// Half weight: half of D's angle about D's axis, then base·that.
	angle := 2 * math.Acos(float64(wantD.W))
	half := mgl32.QuatRotate(float32(angle/2), wantD.V.Normalize())
	soaAdd(out, []anim.Transform{base}, diff, 0.5, nil)
	if want := base.Rotation.Mul(half); !animtest.QuatApprox(out[0].Rotation, want, 2e-6) {
		t.Fatalf("half weight %v, want base·D^½ %v", out[0].Rotation, want)
	}
}

// TestAlikeJointsPassExactly: where two poses hold a joint alike (a joint
// neither clip moves), blending gives it back bit for bit, the additive
// difference is the identity exactly, and adding that identity leaves the
// base joint as it was, at any weight. The rotation is a little off unit
// length, as sampled keys may be, so that a slerp, a product or a
// normalization through the joint would show in its bits. Every kernel
// path the machine runs is checked, whichever calibration picked.
func TestAlikeJointsPassExactly(t *testing.T) {
	eachKernelPath(func(path string) {
		t.Run(path, alikeJointsPassExactly)
	})
}

func alikeJointsPassExactly(t *testing.T) {
	// 21 joints, three blocks of 8 (the last partly padding), alike in
	// a and b at the first and last joints of blocks and between them, so
	// that every block's test of which joints are alike counts.
	const n = 21
	alike := map[int]bool{0: true, 7: true, 9: true, 15: true, 16: true, 20: true}
	joint := anim.Transform{Translation: mgl32.Vec3{0.5, -0, 2}, Rotation: mgl32.Quat{W: 0.9, V: mgl32.Vec3{0.1, 0.2, 0.37}}, Scale: mgl32.Vec3{1, 2, 0.5}}
	a, b, out := anim.NewSoAPose(n), anim.NewSoAPose(n), anim.NewSoAPose(n)
	for i := range n {
		a.Set(i, joint)
		if alike[i] {
			b.Set(i, joint)
		} else {
			b.Set(i, anim.Transform{Translation: mgl32.Vec3{1, float32(i), 1}, Rotation: animtest.RotZ(float64(10 + i)), Scale: mgl32.Vec3{1, 1, 1}})
		}
	}
	same := func(name string, p *anim.SoAPose) {
		t.Helper()
		for i := range n {
			if alike[i] && p.At(i) != joint {
				t.Errorf("%s: joint %d is %v, want %v bit for bit", name, i, p.At(i), joint)
			}
		}
	}
	mask := make([]float32, n)
	for i := range mask {
		mask[i] = 1
	}
	for _, nlerp := range []bool{false, true} {
		anim.BlendSoA(out, a, b, 0.3, nlerp)
		if !nlerp { // nlerp normalizes every joint, alike or not
			same("slerp blend", out)
		}
		anim.MaskedBlendSoA(out, a, b, 0.3, mask, nlerp)
		same("masked blend", out)
	}
	diff := anim.NewSoAPose(n)
	anim.DifferenceSoA(diff, b, a)
	for i := range n {
		if got := diff.At(i); alike[i] != (got == anim.IdentityTransform) {
			t.Errorf("difference at joint %d: %v; alike %v", i, got, alike[i])
		}
	}
	for _, w := range []float32{0.5, 1, 1.7} {
		anim.AddSoA(out, a, diff, w, nil)
		same(fmt.Sprintf("add at %g", w), out)
	}
}

// A falloff of 0 is a hard mask: allowed, every joint of the subtree 1.
func TestSubtreeMaskNoFalloff(t *testing.T) {
	sk := animtest.Chain(4)
	m := make([]float32, 4)
	if err := anim.SubtreeMask(sk, sk.Names[1], 0, m); err != nil {
		t.Fatal(err)
	}
	if m[0] != 0 || m[1] != 1 || m[2] != 1 || m[3] != 1 {
		t.Fatalf("mask %v, want [0 1 1 1]", m)
	}
}

// BlendSoA blends the poses' root motion: translation lerped, rotation
// slerped (worked out here in float64), motions alike but for one part
// included; two alike motions come through as they are, bit for bit.
func TestBlendRootMotion(t *testing.T) {
	rot := func(deg float64, axis mgl32.Vec3) mgl32.Quat {
		return mgl32.QuatRotate(float32(deg*math.Pi/180), axis)
	}
	x, y := mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}
	for _, c := range []struct {
		ta, tb mgl32.Vec3
		ra, rb mgl32.Quat
		w      float32
	}{
		{mgl32.Vec3{0, 0, 1}, mgl32.Vec3{0, 0, 3}, mgl32.QuatIdent(), mgl32.QuatIdent(), 0.25}, // translations differ
		{mgl32.Vec3{1, 2, 3}, mgl32.Vec3{1, 2, 3}, rot(30, x), rot(30, y), 0.5},                // rotations of one angle about two axes
		{mgl32.Vec3{1, 2, 3}, mgl32.Vec3{1, 2, 3}, rot(20, y), rot(60, y), 0.25},               // two angles about one axis
		{mgl32.Vec3{1, 2, 3}, mgl32.Vec3{1, 2, 3}, rot(40, x), rot(40, x), 0.3},                // alike
	} {
		a, b, out := anim.NewSoAPose(1), anim.NewSoAPose(1), anim.NewSoAPose(1)
		a.Motion = anim.Transform{Translation: c.ta, Rotation: c.ra, Scale: mgl32.Vec3{1, 1, 1}}
		b.Motion = anim.Transform{Translation: c.tb, Rotation: c.rb, Scale: mgl32.Vec3{1, 1, 1}}
		anim.BlendSoA(out, a, b, c.w, false)
		m := out.Motion
		if c.ta == c.tb && c.ra == c.rb {
			if m != a.Motion {
				t.Errorf("alike motions %v: blended to %v; want them as they are", a.Motion, m)
			}
			continue
		}
		w := float64(c.w)
		qa, qb := c.ra, c.rb
		d := float64(qa.Dot(qb))
		th := math.Acos(min(d, 1))
		ka, kb := math.Sin((1-w)*th)/math.Sin(th), math.Sin(w*th)/math.Sin(th)
		if th == 0 {
			ka, kb = 1-w, w
		}
		q4 := func(q mgl32.Quat) [4]float64 {
			return [4]float64{float64(q.V[0]), float64(q.V[1]), float64(q.V[2]), float64(q.W)}
		}
		fa, fb, got := q4(qa), q4(qb), q4(m.Rotation)
		for k := range 4 {
			if want := ka*fa[k] + kb*fb[k]; math.Abs(got[k]-want) > 1e-6 {
				t.Errorf("motions %v and %v at %v: rotation %v; want component %d %v", a.Motion, b.Motion, c.w, m.Rotation, k, want)
			}
		}
		for k := range 3 {
			want := float64(c.ta[k]) + (float64(c.tb[k])-float64(c.ta[k]))*w
			if math.Abs(float64(m.Translation[k])-want) > 1e-6 {
				t.Errorf("motions %v and %v at %v: translation %v; want component %d %v", a.Motion, b.Motion, c.w, m.Translation, k, want)
			}
		}
	}
}
