package skin

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// sameRotation compares quaternions up to sign: q and −q are one rotation.
func sameRotation(a, b mgl32.Quat, eps float32) bool {
	if a.Dot(b) < 0 {
		b = mgl32.Quat{W: -b.W, V: b.V.Mul(-1)}
	}
	return approxEqual(a.W, b.W, eps) && approxVec(a.V[:], b.V[:], eps)
}

func TestDualQuatFromEntry(t *testing.T) {
	axis := mgl32.Vec3{1, -2, 0.5}.Normalize()
	tests := []struct {
		name  string
		m     mgl32.Mat4
		rot   mgl32.Quat
		trans mgl32.Vec3
	}{
		{"identity", mgl32.Ident4(), mgl32.QuatIdent(), mgl32.Vec3{}},
		{"translation", mgl32.Translate3D(1, 2, 3), mgl32.QuatIdent(), mgl32.Vec3{1, 2, 3}},
		{"rotation and translation", mgl32.Translate3D(-1, 0.5, 4).Mul4(mgl32.HomogRotate3D(2.5, axis)), mgl32.QuatRotate(2.5, axis), mgl32.Vec3{-1, 0.5, 4}},
		{"half turn (w = 0)", mgl32.HomogRotate3DY(math.Pi), mgl32.QuatRotate(math.Pi, mgl32.Vec3{0, 1, 0}), mgl32.Vec3{}},
		// T·R·S: the scale is dropped, R and T kept.
		{"non-uniform scale after rotation", mgl32.Translate3D(0, 1, 0).Mul4(mgl32.HomogRotate3D(1, axis)).Mul4(mgl32.Scale3D(2, 0.5, 3)), mgl32.QuatRotate(1, axis), mgl32.Vec3{0, 1, 0}},
		// S·R, a parent's non-uniform scale over a rotated child: columns
		// are no longer orthogonal and normalizing them would give no
		// rotation; the polar factor is R (S·R = R·(Rᵀ·S·R), symmetric).
		{"non-uniform scale before rotation", mgl32.Scale3D(2, 1, 1).Mul4(mgl32.HomogRotate3DZ(math.Pi / 6)), mgl32.QuatRotate(math.Pi/6, mgl32.Vec3{0, 0, 1}), mgl32.Vec3{}},
		// Mirror: the rotation closest to −diag(−1, 1, 1) = diag(1, −1, −1),
		// a half turn about x.
		{"mirror", mgl32.Scale3D(-1, 1, 1), mgl32.QuatRotate(math.Pi, mgl32.Vec3{1, 0, 0}), mgl32.Vec3{}},
		{"zero scale", mgl32.Translate3D(4, 5, 6).Mul4(mgl32.Scale3D(0, 0, 0)), mgl32.QuatIdent(), mgl32.Vec3{4, 5, 6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := DualQuatFromEntry(entry(tc.m))
			if !sameRotation(q.Real, tc.rot, 1e-5) {
				t.Errorf("rotation %v; want %v", q.Real, tc.rot)
			}
			if q.Real.W < 0 {
				t.Errorf("real part %v has w < 0", q.Real)
			}
			if l := q.Real.Len(); !approxEqual(l, 1, 1e-6) {
				t.Errorf("real part has length %v", l)
			}
			if tr := q.Translation(); !approxVec(tr[:], tc.trans[:], 1e-5) {
				t.Errorf("translation %v; want %v", tr, tc.trans)
			}
		})
	}
}

func TestWriteDualQuats(t *testing.T) {
	h := float32(math.Sqrt2 / 2)
	pal := paletteOf(mgl32.Translate3D(1, 2, 3), mgl32.Translate3D(1, 0, 0).Mul4(mgl32.HomogRotate3DZ(math.Pi/2)))
	got := make([]float32, 2*DualQuatFloats)
	WriteDualQuats(got, pal)
	want := []float32{
		// Translation only: real = 1, dual = ½·(0, t).
		0, 0, 0, 1, 0.5, 1, 1.5, 0,
		// Quarter turn about z, then t = (1, 0, 0): real = (0, 0, h, h);
		// dual = ½·(0, t)·real = ½·(h, −h, 0; 0) by the quaternion product.
		0, 0, h, h, h / 2, -h / 2, 0, 0,
	}
	if !approxVec(got, want, 1e-6) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestSkinDQRigidMatchesLBS(t *testing.T) {
	m, rng := posedGrid(11, 25, 20)

	// Each vertex on one joint, each joint a different rigid motion.
	single := randomPose(rng, m.numJ, false)
	oneJ := make([]uint16, len(m.joints))
	oneW := make([]float32, len(m.weights))
	for v := 0; v < len(m.joints)/4; v++ {
		oneJ[v*4], oneW[v*4] = uint16(rng.IntN(m.numJ)), 1
	}
	// Four influences that agree: any blend of them is that motion.
	var same []float32
	one := randomPose(rng, 1, false)
	for j := 0; j < m.numJ; j++ {
		same = append(same, one...)
	}

	tests := []struct {
		name    string
		pal     []float32
		joints  []uint16
		weights []float32
	}{
		{"one influence", single, oneJ, oneW},
		{"influences agree", same, m.joints, m.weights},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lp, ln := make([]float32, len(m.pos)), make([]float32, len(m.nrm))
			if err := Skin4(lp, ln, m.pos, m.nrm, tc.joints, tc.weights, tc.pal); err != nil {
				t.Fatal(err)
			}
			dq := make([]float32, m.numJ*DualQuatFloats)
			WriteDualQuats(dq, tc.pal)
			qp, qn := make([]float32, len(m.pos)), make([]float32, len(m.nrm))
			if err := SkinDQ(qp, qn, m.pos, m.nrm, tc.joints, tc.weights, dq); err != nil {
				t.Fatal(err)
			}
			if !approxVec(qp, lp, 1e-5) || !approxVec(qn, ln, 1e-5) {
				for i := range qp {
					if !approxEqual(qp[i], lp[i], 1e-5) || !approxEqual(qn[i], ln[i], 1e-5) {
						t.Fatalf("float %d: DQ %v %v, LBS %v %v", i, qp[i], qn[i], lp[i], ln[i])
					}
				}
			}
		})
	}
}

func TestCandyWrapper(t *testing.T) {
	// A limb along x; joint 1 twists half a turn about it (pivot at x = 1,
	// on the axis). A vertex at radius 0.5 weighted half and half: LBS
	// averages (1, 0.5, 0) and (1, −0.5, 0) to the axis; DQS turns it a
	// quarter turn, to (1, 0, ±0.5), keeping its radius.
	const r = 0.5
	pal := paletteOf(mgl32.Ident4(),
		mgl32.Translate3D(1, 0, 0).Mul4(mgl32.HomogRotate3DX(math.Pi)).Mul4(mgl32.Translate3D(-1, 0, 0)))
	pos := []float32{1, r, 0}
	nrm := []float32{0, 1, 0}
	joints := []uint16{0, 1, 0, 0}
	weights := []float32{0.5, 0.5, 0, 0}
	radius := func(p []float32) float32 { return float32(math.Hypot(float64(p[1]), float64(p[2]))) }

	lp := make([]float32, 3)
	if err := Skin4(lp, nil, pos, nil, joints, weights, pal); err != nil {
		t.Fatal(err)
	}
	if d := radius(lp); d > 1e-6 {
		t.Errorf("LBS radius %v; the candy wrapper collapses it to 0", d)
	}

	dq := make([]float32, 2*DualQuatFloats)
	WriteDualQuats(dq, pal)
	qp, qn := make([]float32, 3), make([]float32, 3)
	if err := SkinDQ(qp, qn, pos, nrm, joints, weights, dq); err != nil {
		t.Fatal(err)
	}
	if d := radius(qp); !approxEqual(d, r, 1e-5) || !approxEqual(qp[0], 1, 1e-5) || !approxEqual(qp[1], 0, 1e-5) {
		t.Errorf("DQS position %v (radius %v); want (1, 0, ±%v)", qp, d, r)
	}
	// The normal turns with the point: radial, unit, still facing out.
	if !approxEqual(qn[0], 0, 1e-5) || !approxEqual(qn[1], 0, 1e-5) || !approxEqual(qn[2]*qp[2]/r, 1, 1e-5) {
		t.Errorf("DQS normal %v at %v; want radial", qn, qp)
	}
}

func TestSkinDQAntipodal(t *testing.T) {
	// Turns of +170° and −170° about x stored with w ≥ 0 have real parts
	// whose dot product is cos 170° < 0. Blended the short way they meet at
	// 180°: (0, 1, 0) → (0, −1, 0). Without the sign flip the blend would
	// be the identity, the long way round. Scaled joints blend the same:
	// dual quaternions drop the scale.
	for _, c := range []struct {
		name   string
		s0, s1 mgl32.Mat4
	}{
		{"rigid", mgl32.Ident4(), mgl32.Ident4()},
		{"scaled", mgl32.Scale3D(2, 2, 2), mgl32.Scale3D(0.5, 3, 1)},
	} {
		pal := paletteOf(mgl32.HomogRotate3DX(170*math.Pi/180).Mul4(c.s0), mgl32.HomogRotate3DX(-170*math.Pi/180).Mul4(c.s1))
		dq := make([]float32, 2*DualQuatFloats)
		WriteDualQuats(dq, pal)
		if d := dq[0]*dq[8] + dq[1]*dq[9] + dq[2]*dq[10] + dq[3]*dq[11]; d >= 0 {
			t.Fatalf("%s: the two real parts have dot %v; the test needs them antipodal", c.name, d)
		}
		got := make([]float32, 3)
		if err := SkinDQ(got, nil, []float32{0, 1, 0}, nil, []uint16{0, 1, 0, 0}, []float32{0.5, 0.5, 0, 0}, dq); err != nil {
			t.Fatal(err)
		}
		if !approxVec(got, []float32{0, -1, 0}, 1e-5) {
			t.Errorf("%s: got %v; want (0, -1, 0)", c.name, got)
		}
	}
}

// The sign test is the dot product of the real parts and nothing else, and
// only a negative dot flips, as in skin_dq.vert; two influences weighted
// half and half meet at the midpoint of the short arc between them.
func TestSkinDQSignFlipDot(t *testing.T) {
	s20, c20 := math.Sincos(20 * math.Pi / 180)
	for _, c := range []struct {
		name   string
		m0, m1 mgl32.Mat4
		dot    float64 // of the real parts, within dotTol
		dotTol float32
		p      []float32
		want   []float32
	}{
		// +20° and −60° about x: real parts (sin 10°, 0, 0, cos 10°) and
		// (−sin 30°, 0, 0, cos 30°), dot cos 40° > 0 though its x term is
		// negative and large against the first's small x: no flip, and
		// the midpoint is −20° about x, (0, 1, 0) → (0, cos 20°, −sin 20°).
		{"small first x", mgl32.HomogRotate3DX(20 * math.Pi / 180), mgl32.HomogRotate3DX(-60 * math.Pi / 180),
			math.Cos(40 * math.Pi / 180), 1e-6, []float32{0, 1, 0}, []float32{0, float32(c20), float32(-s20)}},
		// The identity and the half turn about z, diag(−1, −1, 1): real
		// parts (0, 0, 0, 1) and ±(0, 0, 1, 0) (w = 0 leaves the sign to
		// the conversion), dot exactly 0, so no flip: the blend is the sum
		// of the two as stored, a quarter turn about z one way, not the
		// other (want nil: mathgl turns p by that sum).
		{"dot zero", mgl32.Ident4(), mgl32.Scale3D(-1, -1, 1), 0, 0, []float32{1, 0, 0}, nil},
	} {
		dq := make([]float32, 2*DualQuatFloats)
		WriteDualQuats(dq, paletteOf(c.m0, c.m1))
		if d := dq[0]*dq[8] + dq[1]*dq[9] + dq[2]*dq[10] + dq[3]*dq[11]; !approxEqual(d, float32(c.dot), c.dotTol) {
			t.Fatalf("%s: real parts %v and %v have dot %v; the test needs %v", c.name, dq[:4], dq[8:12], d, c.dot)
		}
		got := make([]float32, 3)
		if err := SkinDQ(got, nil, c.p, nil, []uint16{0, 1, 0, 0}, []float32{0.5, 0.5, 0, 0}, dq); err != nil {
			t.Fatal(err)
		}
		want := c.want
		if want == nil {
			sum := mgl32.Quat{W: dq[3] + dq[11], V: mgl32.Vec3{dq[0] + dq[8], dq[1] + dq[9], dq[2] + dq[10]}}
			w := sum.Normalize().Rotate(mgl32.Vec3(c.p))
			want = w[:]
		}
		if !approxVec(got, want, 1e-6) {
			t.Errorf("%s: got %v; want %v", c.name, got, want)
		}
	}
}

// SkinDQ's normals come out of unit length whatever length they go in
// with: (2, 4, 4), length 6, turned a quarter about z, is (−4, 2, 4)/6. A
// vertex whose weights cancel (1 and −1 on one joint: a blended real part
// of zero) has no rotation and gets a zero position and normal, in its
// own slots, the vertex before it untouched.
func TestSkinDQNormalsAndCancellingWeights(t *testing.T) {
	dq := make([]float32, DualQuatFloats)
	WriteDualQuats(dq, paletteOf(mgl32.Translate3D(1, 0, 0).Mul4(mgl32.HomogRotate3DZ(math.Pi/2))))
	pos, nrm := []float32{1, 0, 0, 0, 1, 0}, []float32{2, 4, 4, 0, 0, 1}
	gotP, gotN := []float32{9, 9, 9, 9, 9, 9}, []float32{9, 9, 9, 9, 9, 9}
	if err := SkinDQ(gotP, gotN, pos, nrm, []uint16{0, 0, 0, 0, 0, 0, 0, 0}, []float32{1, 0, 0, 0, 1, -1, 0, 0}, dq); err != nil {
		t.Fatal(err)
	}
	// (1, 0, 0) turned a quarter about z is (0, 1, 0), moved to (1, 1, 0).
	if !approxVec(gotP[:3], []float32{1, 1, 0}, 1e-6) || !approxVec(gotN[:3], []float32{-2.0 / 3, 1.0 / 3, 2.0 / 3}, 1e-6) {
		t.Errorf("vertex 0 at %v facing %v; want (1, 1, 0) facing (-2/3, 1/3, 2/3)", gotP[:3], gotN[:3])
	}
	if !approxVec(gotP[3:], []float32{0, 0, 0}, 0) || !approxVec(gotN[3:], []float32{0, 0, 0}, 0) {
		t.Errorf("vertex 1, weights cancelling, at %v facing %v; want zero both", gotP[3:], gotN[3:])
	}
}

func TestSkinDQErrors(t *testing.T) {
	dq := make([]float32, DualQuatFloats)
	WriteDualQuats(dq, paletteOf(mgl32.Ident4()))
	err := SkinDQ(make([]float32, 3), nil, []float32{0, 0, 0}, nil, []uint16{0, 3, 0, 0}, []float32{0.5, 0.5, 0, 0}, dq)
	if err == nil || !strings.Contains(err.Error(), "vertex 0 uses joint 3") {
		t.Errorf("error %v; want one naming vertex 0 and joint 3", err)
	}
	// No weight at all: the bind position, as LBS gives, whatever the
	// palette does.
	WriteDualQuats(dq, paletteOf(mgl32.Translate3D(5, 0, 0)))
	got, nrm := []float32{9, 9, 9}, []float32{9, 9, 9}
	if err := SkinDQ(got, nrm, []float32{1, 2, 3}, []float32{0, 1, 0}, []uint16{0, 0, 0, 0}, []float32{0, 0, 0, 0}, dq); err != nil || !approxVec(got, []float32{1, 2, 3}, 0) || !approxVec(nrm, []float32{0, 1, 0}, 0) {
		t.Errorf("weightless vertex: %v %v, %v; want it at (1, 2, 3) facing +y", got, nrm, err)
	}
}

func TestPolarRotation(t *testing.T) {
	// The definition, checked directly: M = R·U with R a rotation
	// (RᵀR = I, det R = 1) and U = RᵀM symmetric positive definite
	// (Sylvester: positive leading minors).
	rng := rand.New(rand.NewPCG(17, 17))
	for i := 0; i < 200; i++ {
		axis := mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5}.Normalize()
		s := func() float32 { return float32(math.Pow(10, rng.Float64()*4-2)) } // 0.01 … 100
		m := mgl32.HomogRotate3D(rng.Float32()*6, axis).Mul4(mgl32.Scale3D(s(), s(), s())).
			Mul4(mgl32.HomogRotate3D(rng.Float32()*6, axis.Cross(mgl32.Vec3{1, 0, 0}).Normalize()))
		e := entry(m)
		r := polarRotation(e)
		var rtr, u [3][3]float64
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				for k := 0; k < 3; k++ {
					rtr[a][b] += r[k][a] * r[k][b]
					u[a][b] += r[k][a] * float64(e[k*4+b])
				}
			}
		}
		_, det := cofactor(&r)
		scale := math.Abs(u[0][0]) + math.Abs(u[1][1]) + math.Abs(u[2][2])
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				want := 0.0
				if a == b {
					want = 1
				}
				if math.Abs(rtr[a][b]-want) > 1e-9 {
					t.Fatalf("case %d: RᵀR[%d][%d] = %v", i, a, b, rtr[a][b])
				}
				if math.Abs(u[a][b]-u[b][a]) > 1e-5*scale {
					t.Fatalf("case %d: U = RᵀM is not symmetric: %v", i, u)
				}
			}
		}
		m2 := u[0][0]*u[1][1] - u[0][1]*u[1][0]
		_, m3 := cofactor(&u)
		if math.Abs(det-1) > 1e-9 || u[0][0] <= 0 || m2 <= 0 || m3 <= 0 {
			t.Fatalf("case %d: det R = %v, U minors %v %v %v", i, det, u[0][0], m2, m3)
		}
	}
}
