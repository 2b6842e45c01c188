package anim_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// The pose operations of blend.go and layers.go on random poses against
// the definitions worked out here in float64: no input is zero or one, no
// rotation shares an axis with another, so that a wrong sign, a swapped
// operand or a dropped term changes the answer. 11 joints: SIMD widths and
// their tails both.

type q64 [4]float64 // x, y, z, w

func (a q64) mul(b q64) q64 { // Hamilton product a ⊗ b
	return q64{
		a[3]*b[0] + b[3]*a[0] + a[1]*b[2] - a[2]*b[1],
		a[3]*b[1] + b[3]*a[1] + a[2]*b[0] - a[0]*b[2],
		a[3]*b[2] + b[3]*a[2] + a[0]*b[1] - a[1]*b[0],
		a[3]*b[3] - a[0]*b[0] - a[1]*b[1] - a[2]*b[2],
	}
}
func (a q64) dot(b q64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] }
func (a q64) scale(s float64) q64 {
	return q64{a[0] * s, a[1] * s, a[2] * s, a[3] * s}
}
func (a q64) add(b q64) q64 { return q64{a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]} }
func (a q64) unit() q64     { return a.scale(1 / math.Sqrt(a.dot(a))) }
func (a q64) conj() q64     { return q64{-a[0], -a[1], -a[2], a[3]} }
func (a q64) near(b q64) q64 { // a or −a, whichever is on b's side
	if a.dot(b) < 0 {
		return a.scale(-1)
	}
	return a
}

// pow is the rotation by u times a's angle about a's axis (shortest arc).
func (a q64) pow(u float64) q64 {
	if a[3] < 0 {
		a = a.scale(-1)
	}
	s := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
	if s < 1e-12 {
		return q64{0, 0, 0, 1}
	}
	half := math.Atan2(s, a[3]) * u
	k := math.Sin(half) / s
	return q64{a[0] * k, a[1] * k, a[2] * k, math.Cos(half)}
}

// slerp64 is a·(a⁻¹b)^u along the shortest arc; nlerp the normalized lerp.
func slerp64(a, b q64, u float64) q64 { b = b.near(a); return a.mul(a.conj().mul(b).pow(u)) }
func nlerp64(a, b q64, u float64) q64 { b = b.near(a); return a.scale(1 - u).add(b.scale(u)).unit() }

type joint64 struct {
	t, s [3]float64
	q    q64
}

func randPose(rng *rand.Rand, n int) (*anim.SoAPose, []joint64) {
	p := anim.NewSoAPose(n)
	js := make([]joint64, n)
	for i := range js {
		j := &js[i]
		for c := range 3 {
			j.t[c] = rng.Float64()*4 - 2
			j.s[c] = 0.5 + rng.Float64()*1.5
		}
		j.q = q64{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}.unit()
		p.FieldTx()[i], p.FieldTy()[i], p.FieldTz()[i] = float32(j.t[0]), float32(j.t[1]), float32(j.t[2])
		p.FieldSx()[i], p.FieldSy()[i], p.FieldSz()[i] = float32(j.s[0]), float32(j.s[1]), float32(j.s[2])
		p.FieldQx()[i], p.FieldQy()[i], p.FieldQz()[i], p.FieldQw()[i] = float32(j.q[0]), float32(j.q[1]), float32(j.q[2]), float32(j.q[3])
		// Read back the float32 values, so the reference starts where the engine does.
		j.t = [3]float64{float64(p.FieldTx()[i]), float64(p.FieldTy()[i]), float64(p.FieldTz()[i])}
		j.s = [3]float64{float64(p.FieldSx()[i]), float64(p.FieldSy()[i]), float64(p.FieldSz()[i])}
		j.q = q64{float64(p.FieldQx()[i]), float64(p.FieldQy()[i]), float64(p.FieldQz()[i]), float64(p.FieldQw()[i])}
	}
	return p, js
}

// checkPose compares joint i of p with want: translations and scales to
// tol relative to their size, rotations as rotations (q ~ −q) to tol.
func checkPose(t *testing.T, what string, p *anim.SoAPose, want []joint64, tol float64) {
	t.Helper()
	for i, w := range want {
		got := joint64{
			t: [3]float64{float64(p.FieldTx()[i]), float64(p.FieldTy()[i]), float64(p.FieldTz()[i])},
			s: [3]float64{float64(p.FieldSx()[i]), float64(p.FieldSy()[i]), float64(p.FieldSz()[i])},
			q: q64{float64(p.FieldQx()[i]), float64(p.FieldQy()[i]), float64(p.FieldQz()[i]), float64(p.FieldQw()[i])},
		}
		gq := got.q.near(w.q)
		for c := range 3 {
			if math.Abs(got.t[c]-w.t[c]) > tol*(1+math.Abs(w.t[c])) || math.Abs(got.s[c]-w.s[c]) > tol*(1+math.Abs(w.s[c])) {
				t.Fatalf("%s: joint %d is t %v s %v, want t %v s %v", what, i, got.t, got.s, w.t, w.s)
			}
		}
		for c := range 4 {
			if math.Abs(gq[c]-w.q[c]) > tol {
				t.Fatalf("%s: joint %d rotation %v, want %v", what, i, got.q, w.q)
			}
		}
	}
}

func lerp64(a, b, u float64) float64 { return a + (b-a)*u }

func blend64(a, b joint64, u float64, nlerp bool) joint64 {
	var o joint64
	for c := range 3 {
		o.t[c], o.s[c] = lerp64(a.t[c], b.t[c], u), lerp64(a.s[c], b.s[c], u)
	}
	if nlerp {
		o.q = nlerp64(a.q, b.q, u)
	} else {
		o.q = slerp64(a.q, b.q, u)
	}
	return o
}

// paddedMask is a mask of n weights whose capacity reaches the stripes'
// padding, where the layers run their last block in lanes (lanesEnd):
// zero there in even rounds, as the controller builds masks, and weights
// that would change a joint (NaN, 5, −3) in odd ones, which must change
// no padding lane.
func paddedMask(n, round int) []float32 {
	m := make([]float32, anim.SoaPadded(n))
	if round%2 == 1 {
		for i := n; i < len(m); i++ {
			m[i] = [...]float32{float32(math.NaN()), 5, -3}[i%3]
		}
	}
	return m[:n]
}

// checkPadding fails unless p's padding lanes hold the identity.
func checkPadding(t *testing.T, name string, p *anim.SoAPose) {
	t.Helper()
	pad := len(p.FieldTx())
	for s := range 10 {
		id := float32(0)
		if s >= 6 { // qw, sx, sy, sz
			id = 1
		}
		for j := p.FieldN(); j < pad; j++ {
			if v := p.FieldBuf()[s*pad+j]; v != id {
				t.Fatalf("%s: padding lane %d of stripe %d holds %v", name, j, s, v)
			}
		}
	}
}

// TestBlendsAgainstDefinitions runs on every kernel path.
func TestBlendsAgainstDefinitions(t *testing.T) {
	eachKernelPath(func(path string) {
		t.Run(path, testBlendsAgainstDefinitions)
	})
}

func testBlendsAgainstDefinitions(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const n = 11
	for round := range 20 {
		a, ja := randPose(rng, n)
		b, jb := randPose(rng, n)
		w := float32(0.05 + 0.9*rng.Float64())
		mask := paddedMask(n, round)
		for i := range mask {
			mask[i] = float32(rng.Float64())
		}
		if round%2 == 1 {
			// A hard edge at full weight: every joint keeps a or takes
			// b, which the vector kernels select without arithmetic.
			w = 1
			for i := range mask {
				mask[i] = float32(rng.Intn(2))
			}
		}
		mask[0], mask[1], mask[2] = 0, 1, 1.5 // none, all, over: 1.5·w may pass 1
		b.CopyJoint(9, a)                     // a joint both poses hold alike
		jb[9] = ja[9]
		for _, nlerp := range []bool{false, true} {
			out := anim.NewSoAPose(n)
			anim.BlendSoA(out, a, b, w, nlerp)
			want := make([]joint64, n)
			for i := range want {
				want[i] = blend64(ja[i], jb[i], float64(w), nlerp)
			}
			checkPose(t, "BlendSoA", out, want, 2e-5)

			anim.MaskedBlendSoA(out, a, b, w, mask, nlerp)
			for i := range want {
				switch wi := float64(w) * float64(mask[i]); {
				case wi <= 0:
					want[i] = ja[i]
				case wi >= 1:
					want[i] = jb[i]
				default:
					want[i] = blend64(ja[i], jb[i], float64(w*mask[i]), nlerp)
				}
			}
			checkPose(t, "MaskedBlendSoA", out, want, 2e-5)
			checkPadding(t, "MaskedBlendSoA", out)
			// In place, into either input.
			ac, bc := anim.NewSoAPose(n), anim.NewSoAPose(n)
			ac.CopyFrom(a)
			bc.CopyFrom(b)
			anim.MaskedBlendSoA(ac, ac, b, w, mask, nlerp)
			checkPose(t, "MaskedBlendSoA into a", ac, want, 2e-5)
			anim.MaskedBlendSoA(bc, a, bc, w, mask, nlerp)
			checkPose(t, "MaskedBlendSoA into b", bc, want, 2e-5)
		}
		if t.Failed() {
			t.Fatalf("round %d", round)
		}
	}
}

// TestAverageAgainstDefinition: three to five poses, GEA §12.10.1's flat
// weighted average; rotations summed each on the running sum's side, the
// joints' and the root motion's alike (every other motion given as −q,
// the same turn on the other side).
func TestAverageAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	const n = 11
	for k := 3; k <= 5; k++ {
		poses := make([]*anim.SoAPose, k)
		js := make([][]joint64, k)
		weights := make([]float32, k)
		var total float64
		var motion [3]float64
		var turn q64
		for i := range poses {
			poses[i], js[i] = randPose(rng, n)
			weights[i] = float32(0.2 + rng.Float64())
			total += float64(weights[i])
			// Turns within 60° of one another about y, some given as −q.
			a := 0.5 + rng.Float64()
			q := q64{0, math.Sin(a / 2), 0, math.Cos(a / 2)}
			if i%2 == 1 {
				q = q.scale(-1)
			}
			tr := [3]float64{rng.Float64(), rng.Float64(), rng.Float64()}
			poses[i].Motion = anim.Transform{Translation: mgl32.Vec3{float32(tr[0]), float32(tr[1]), float32(tr[2])},
				Rotation: mgl32.Quat{W: float32(q[3]), V: mgl32.Vec3{float32(q[0]), float32(q[1]), float32(q[2])}}, Scale: mgl32.Vec3{1, 1, 1}}
			for c := range 3 {
				motion[c] += float64(poses[i].Motion.Translation[c]) * float64(weights[i])
			}
			if i > 0 {
				q = q.near(turn)
			}
			turn = turn.add(q.scale(float64(weights[i])))
		}
		acc := anim.NewSoAPose(n)
		anim.AverageStart(acc, poses[0], weights[0])
		for i := 1; i < k; i++ {
			anim.AverageAdd(acc, poses[i], weights[i])
		}
		anim.AverageFinish(acc, float32(total))
		want := make([]joint64, n)
		for j := range want {
			var sum q64
			for i := range k {
				w := float64(weights[i])
				for c := range 3 {
					want[j].t[c] += js[i][j].t[c] * w / total
					want[j].s[c] += js[i][j].s[c] * w / total
				}
				q := js[i][j].q
				if i > 0 {
					q = q.near(sum)
				}
				sum = sum.add(q.scale(w))
			}
			want[j].q = sum.unit()
		}
		checkPose(t, "average", acc, want, 2e-5)
		turn = turn.unit()
		m := acc.Motion
		for c := range 3 {
			if math.Abs(float64(m.Translation[c])-motion[c]/total) > 1e-5 || math.Abs(float64(m.Rotation.V[c])-turn[c]) > 1e-5 {
				t.Fatalf("%d poses: root motion %v; want (%v, %v)", k, m, motion, turn)
			}
		}
		if math.Abs(float64(m.Rotation.W)-turn[3]) > 1e-5 {
			t.Fatalf("%d poses: root motion turn %v; want %v", k, m.Rotation, turn)
		}
	}
}

// TestAdditiveAgainstDefinition: D = (src − ref, ref⁻¹ ⊗ src, src/ref), and
// base ⊕ w·D = (base + w·Dt, base ⊗ Dq^w, base · Ds^w), joint weights
// w·mask; on every kernel path, with differences that scale every joint,
// some, or none (most clips keep scale), and one that is the identity.
func TestAdditiveAgainstDefinition(t *testing.T) {
	eachKernelPath(func(path string) {
		for _, scaled := range []string{"every", "some", "none"} {
			t.Run(path+"/scale "+scaled, func(t *testing.T) { testAdditiveAgainstDefinition(t, scaled) })
		}
	})
}

func testAdditiveAgainstDefinition(t *testing.T, scaled string) {
	rng := rand.New(rand.NewSource(5))
	const n = 11
	src, js := randPose(rng, n)
	ref, jr := randPose(rng, n)
	base, jb := randPose(rng, n)
	for i := range n {
		if scaled == "none" || (scaled == "some" && i%3 == 0) {
			src.FieldSx()[i], src.FieldSy()[i], src.FieldSz()[i] = ref.FieldSx()[i], ref.FieldSy()[i], ref.FieldSz()[i]
			js[i].s = jr[i].s
		}
	}
	src.CopyJoint(4, ref) // no difference at all: the identity
	js[4] = jr[4]
	diff := anim.NewSoAPose(n)
	anim.DifferenceSoA(diff, src, ref)
	wantD := make([]joint64, n)
	for i := range wantD {
		for c := range 3 {
			wantD[i].t[c] = js[i].t[c] - jr[i].t[c]
			wantD[i].s[c] = js[i].s[c] / jr[i].s[c]
		}
		wantD[i].q = jr[i].q.conj().mul(js[i].q)
	}
	checkPose(t, "DifferenceSoA", diff, wantD, 2e-5)
	mask := paddedMask(n, 1)
	for i := range mask {
		mask[i] = float32(rng.Float64())
	}
	mask[0], mask[1] = 0, 1
	zero := anim.NewSoAPose(n)
	anim.AddSoA(zero, base, diff, 0, nil)
	checkPose(t, "AddSoA weight 0", zero, jb, 0)
	for _, w := range []float32{1, 0.37, 1.6} {
		for _, m := range [][]float32{nil, mask} {
			out := anim.NewSoAPose(n)
			anim.AddSoA(out, base, diff, w, m)
			want := make([]joint64, n)
			for i := range want {
				wi := float64(w)
				if m != nil {
					wi *= float64(m[i])
				}
				for c := range 3 {
					want[i].t[c] = jb[i].t[c] + wantD[i].t[c]*wi
					want[i].s[c] = jb[i].s[c] * math.Pow(wantD[i].s[c], wi)
				}
				want[i].q = jb[i].q.mul(wantD[i].q.pow(wi))
			}
			checkPose(t, "AddSoA", out, want, 5e-5)
			checkPadding(t, "AddSoA", out)
		}
	}
}
