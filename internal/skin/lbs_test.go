package skin

import (
	"math"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// inverseTranspose is the textbook normal transform, computed with mathgl
// independently of the cofactor formula under test: the weighted sum of the
// matrices, then normalize(M₃⁻ᵀ·n).
func inverseTranspose(ms []mgl32.Mat4, w []float32, n mgl32.Vec3) mgl32.Vec3 {
	var sum mgl32.Mat4
	for i, m := range ms {
		sum = sum.Add(m.Mul(w[i]))
	}
	return sum.Mat3().Inv().Transpose().Mul3x1(n).Normalize()
}

func TestNormals(t *testing.T) {
	rot := mgl32.HomogRotate3D(0.7, mgl32.Vec3{1, 2, 3}.Normalize())
	sheared := mgl32.HomogRotate3DY(math.Pi / 6).Mul4(mgl32.Scale3D(3, 1, 0.25)).Mul4(mgl32.HomogRotate3DX(0.7))
	tests := []struct {
		name    string
		mats    []mgl32.Mat4
		weights []float32
		n       mgl32.Vec3
		want    mgl32.Vec3 // by hand; zero means: the inverse transpose
	}{
		{"identity", []mgl32.Mat4{mgl32.Ident4()}, []float32{1}, mgl32.Vec3{0, 0, 1}, mgl32.Vec3{0, 0, 1}},
		{"rotate z 90, uniform scale 3", []mgl32.Mat4{mgl32.HomogRotate3DZ(math.Pi / 2).Mul4(mgl32.Scale3D(3, 3, 3))}, []float32{1}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}},
		{"rotate x 90, translated", []mgl32.Mat4{mgl32.Translate3D(5, -2, 1).Mul4(mgl32.HomogRotate3DX(math.Pi / 2))}, []float32{1}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 0, 1}},
		{"uniform scale keeps direction", []mgl32.Mat4{mgl32.Scale3D(0.1, 0.1, 0.1)}, []float32{1}, mgl32.Vec3{0.6, 0, 0.8}, mgl32.Vec3{0.6, 0, 0.8}},
		// diag(2, 0.5, 1)⁻ᵀ·(1, 1, 0) = (0.5, 2, 0), normalized: /√4.25.
		{"non-uniform scale", []mgl32.Mat4{mgl32.Scale3D(2, 0.5, 1)}, []float32{1}, mgl32.Vec3{1, 1, 0}, mgl32.Vec3{0.5 / 2.0615528, 2 / 2.0615528, 0}},
		{"non-uniform scale, inverse transpose", []mgl32.Mat4{mgl32.Scale3D(2, 0.5, 1)}, []float32{1}, mgl32.Vec3{1, 1, 0}, mgl32.Vec3{}},
		{"rotated and sheared", []mgl32.Mat4{sheared}, []float32{1}, mgl32.Vec3{0.3, -0.5, 0.8}, mgl32.Vec3{}},
		{"blend of two scaled", []mgl32.Mat4{rot.Mul4(mgl32.Scale3D(1, 2, 1)), mgl32.Scale3D(0.5, 1, 3)}, []float32{0.3, 0.7}, mgl32.Vec3{0, 0.6, 0.8}, mgl32.Vec3{}},
		{"four influences", []mgl32.Mat4{rot, sheared, mgl32.Scale3D(1, 1, 2), mgl32.Translate3D(1, 1, 1)}, []float32{0.1, 0.2, 0.3, 0.4}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{}},
		// A mirrored joint still turns the normal outwards: diag(−1, 1, 1)
		// flips the x normal, as the inverse transpose says.
		{"mirror", []mgl32.Mat4{mgl32.Scale3D(-1, 1, 1)}, []float32{1}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{-1, 0, 0}},
		{"mirror, inverse transpose", []mgl32.Mat4{mgl32.Scale3D(-1, 2, 1).Mul4(rot)}, []float32{1}, mgl32.Vec3{0.48, 0.6, 0.64}, mgl32.Vec3{}},
		// Rows (1 1.5 0), (1 2 0), (0 0 2): det = 1·4 − 1·3 = 1 > 0 along
		// the first column, the small first term outweighed by the second,
		// so det's sign needs every term as it is.
		{"dense, det from cancelling terms", []mgl32.Mat4{{1, 1, 0, 0, 1.5, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1}}, []float32{1}, mgl32.Vec3{0.48, 0.6, 0.64}, mgl32.Vec3{}},
		// Four entries that differ in every element of the 3×3 part, so
		// that each term of each blended element counts.
		{"four dense influences", []mgl32.Mat4{rot.Mul4(mgl32.Scale3D(1, 2, 0.5)), sheared, mgl32.HomogRotate3DX(1).Mul4(mgl32.Scale3D(0.7, 1.3, 1)), mgl32.HomogRotate3D(-2, mgl32.Vec3{3, -1, 2}.Normalize())}, []float32{0.4, 0.3, 0.2, 0.1}, mgl32.Vec3{0.36, -0.48, 0.8}, mgl32.Vec3{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == (mgl32.Vec3{}) {
				want = inverseTranspose(tc.mats, tc.weights, tc.n)
			}
			var joints [4]uint16
			var weights [4]float32
			for i := range tc.mats {
				joints[i], weights[i] = uint16(i), tc.weights[i]
			}
			pal := paletteOf(tc.mats...)
			got := make([]float32, 3)
			if err := Normals(got, tc.n[:], joints[:], weights[:], pal); err != nil {
				t.Fatal(err)
			}
			if !approxVec(got, want[:], 1e-5) {
				t.Errorf("Normals: %v; want %v", got, want)
			}
			pos := make([]float32, 3)
			nrm := make([]float32, 3)
			if err := Skin4(pos, nrm, []float32{0.3, 0.2, 0.1}, tc.n[:], joints[:], weights[:], pal); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(nrm, got) {
				t.Errorf("Skin4 normal %v differs from Normals %v", nrm, got)
			}
		})
	}
}

func TestSkin4MatchesPositions(t *testing.T) {
	// Positions sums weighted transformed points, Skin4 transforms by the
	// weighted matrix: the same value by linearity, rounded differently.
	m, rng := posedGrid(9, 30, 40)
	for pose := 0; pose < 3; pose++ {
		pal := randomPose(rng, m.numJ, pose > 0)
		want := make([]float32, len(m.pos))
		if err := Positions(want, m.pos, m.joints, m.weights, 4, pal); err != nil {
			t.Fatal(err)
		}
		got := make([]float32, len(m.pos))
		if err := Skin4(got, nil, m.pos, nil, m.joints, m.weights, pal); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if !approxEqual(got[i], want[i], 1e-5) {
				t.Fatalf("pose %d float %d: Skin4 %v, Positions %v", pose, i, got[i], want[i])
			}
		}
	}
}

func TestSkin4Errors(t *testing.T) {
	pal := paletteOf(mgl32.Ident4(), mgl32.Ident4())
	pos := []float32{0, 0, 0, 1, 1, 1}
	joints := []uint16{0, 0, 0, 0, 1, 2, 0, 0}
	one := []float32{1, 0, 0, 0, 1, 0, 0, 0}
	tests := []struct {
		name        string
		dst         []float32
		nrm, nrmOut []float32
		joints      []uint16
		weights     []float32
		want        string
	}{
		{"joint outside palette", make([]float32, 6), nil, nil, joints, []float32{1, 0, 0, 0, 0.5, 0.5, 0, 0}, "skin: vertex 1 uses joint 2; the palette has 2"},
		{"joint outside palette at vertex 0", make([]float32, 6), nil, nil, []uint16{2, 0, 0, 0, 0, 0, 0, 0}, one, "skin: vertex 0 uses joint 2; the palette has 2"},
		{"zero weight on a missing joint is fine", make([]float32, 6), nil, nil, joints, one, ""},
		{"short output", make([]float32, 5), nil, nil, joints, one, "skin: Skin4 of 2 vertices needs 6 outputs and 8 influences; have 5, 8 joints, 8 weights"},
		{"short joints", make([]float32, 6), nil, nil, joints[:7], one, "skin: Skin4 of 2 vertices needs 6 outputs and 8 influences; have 6, 7 joints, 8 weights"},
		{"short weights", make([]float32, 6), nil, nil, joints, []float32{1, 0, 0, 0}, "skin: Skin4 of 2 vertices needs 6 outputs and 8 influences; have 6, 8 joints, 4 weights"},
		{"short normals", make([]float32, 6), []float32{0, 0, 1}, make([]float32, 6), joints, one, "skin: Skin4 of 2 vertices has 1 normals and 2 normal outputs"},
		{"short normal outputs", make([]float32, 6), []float32{0, 0, 1, 0, 0, 1}, make([]float32, 3), joints, one, "skin: Skin4 of 2 vertices has 2 normals and 1 normal outputs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Skin4(tc.dst, tc.nrmOut, pos, tc.nrm, tc.joints, tc.weights, pal)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v; want %q", err, tc.want)
			}
		})
	}
	// Normals reports the same way, from the first vertex on.
	err := Normals(make([]float32, 6), []float32{0, 0, 1, 0, 0, 1}, []uint16{2, 0, 0, 0, 0, 0, 0, 0}, one, pal)
	if want := "skin: vertex 0 uses joint 2; the palette has 2"; err == nil || err.Error() != want {
		t.Errorf("Normals: error %v; want %q", err, want)
	}
}

func TestAllocs(t *testing.T) {
	m, rng := posedGrid(3, 20, 30)
	pal := randomPose(rng, m.numJ, true)
	pos := make([]float32, len(m.pos))
	nrm := make([]float32, len(m.nrm))
	dq := make([]float32, m.numJ*DualQuatFloats)
	joints := []uint16{5, 1, 29, 0}
	sub := make([]float32, len(joints)*12)
	boxes, err := JointBounds(m.pos, m.joints, m.weights, m.numJ)
	if err != nil {
		t.Fatal(err)
	}
	WriteDualQuats(dq, pal)
	tests := []struct {
		name string
		f    func()
	}{
		{"Skin4", func() { _ = Skin4(pos, nrm, m.pos, m.nrm, m.joints, m.weights, pal) }},
		{"Normals", func() { _ = Normals(nrm, m.nrm, m.joints, m.weights, pal) }},
		{"SkinDQ", func() { _ = SkinDQ(pos, nrm, m.pos, m.nrm, m.joints, m.weights, dq) }},
		{"WriteDualQuats", func() { WriteDualQuats(dq, pal) }},
		{"GatherPalette", func() { GatherPalette(sub, pal, joints) }},
		{"PosedBounds", func() { _, _, _ = PosedBounds(boxes, pal) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(20, tc.f); n != 0 {
				t.Errorf("%v allocations per run; want 0", n)
			}
		})
	}
}

// A vertex whose four weights are all zero stays where the mesh puts it
// in bind pose, whatever the palette: it neither collapses to the origin
// nor follows joint 0. Weightless vertices sit before and after a weighted
// one, each with its own position and normal, so that each must take its
// own and land in its own slot.
func TestWeightlessVertexKeepsBindPose(t *testing.T) {
	pal := paletteOf(mgl32.Translate3D(5, 0, 0).Mul4(mgl32.HomogRotate3DZ(1)))
	pos, nrm := []float32{1, 2, 3, 1, 2, 3, 4, 5, 6}, []float32{0, 1, 0, 0, 1, 0, 0.6, 0, 0.8}
	joints := make([]uint16, 12)
	weights := []float32{0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}
	gotP, gotN := make([]float32, 9), make([]float32, 9)
	if err := Skin4(gotP, gotN, pos, nrm, joints, weights, pal); err != nil {
		t.Fatal(err)
	}
	onlyN := make([]float32, 9)
	if err := Normals(onlyN, nrm, joints, weights, pal); err != nil {
		t.Fatal(err)
	}
	for _, v := range []int{0, 2} {
		p, n := pos[v*3:v*3+3], nrm[v*3:v*3+3]
		if !slices.Equal(gotP[v*3:v*3+3], p) || !slices.Equal(gotN[v*3:v*3+3], n) || !slices.Equal(onlyN[v*3:v*3+3], n) {
			t.Errorf("weightless vertex %d skinned to %v facing %v (Normals: %v); want %v facing %v", v, gotP[v*3:v*3+3], gotN[v*3:v*3+3], onlyN[v*3:v*3+3], p, n)
		}
	}
	if slices.Equal(gotP[3:6], pos[3:6]) {
		t.Errorf("the weighted vertex did not move: the palette is not applied")
	}
}

// Positions normalizes weights that do not sum to 1 over all of a
// vertex's influences (here two sets of four): weights 0.5 and 0.25 on
// joints moved by +4 and −4 in x skin like 2/3 and 1/3, so x moves by
// 4·2/3 − 4/3 = 4/3. A weightless vertex stays put.
func TestPositionsNormalizesWeights(t *testing.T) {
	pal := paletteOf(mgl32.Translate3D(4, 0, 0), mgl32.Translate3D(-4, 0, 0))
	pos := []float32{1, 2, 3, 1, 2, 3}
	joints := []uint16{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}
	weights := []float32{0.5, 0, 0, 0, 0, 0, 0, 0.25, 0, 0, 0, 0, 0, 0, 0, 0}
	got := make([]float32, 6)
	if err := Positions(got, pos, joints, weights, 8, pal); err != nil {
		t.Fatal(err)
	}
	if !approxVec(got[:3], []float32{1 + 4.0/3, 2, 3}, 1e-6) || !slices.Equal(got[3:], pos[3:]) {
		t.Fatalf("Positions = %v; want (%v, 2, 3) and (1, 2, 3)", got, 1+4.0/3)
	}
}

// Normals where the inverse transpose does not exist or overflows, each
// against a value derived by hand from cof(M₃), for one entry of weight 1
// (the blended matrix is then the entry itself).
func TestNormalsDegenerate(t *testing.T) {
	big, bc := float32(1<<32), float32(1<<32-1<<8)
	tests := []struct {
		name string
		rows [9]float32 // the entry's 3×3 part, by rows
		n    [3]float32
		want [3]float32
	}{
		// diag(1, 1, 0) has cofactor diag(0, 0, 1): a normal along x
		// collapses to zero length and comes out zero, not NaN.
		{"collapsed", [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 0}, [3]float32{1, 0, 0}, [3]float32{}},
		// The same singular matrix, det = 0: the z normal keeps its
		// direction (no sign flip, which only a negative det asks for).
		{"singular, rank 2", [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 0}, [3]float32{0, 0, 1}, [3]float32{0, 0, 1}},
		// diag(2²⁰, 2³²−2⁸, 2³²): cof·(1, 1, 0) = (2⁶⁴−2⁴⁰, 2⁵², 0), whose
		// squared length rounds to (2¹²⁸−2¹⁰⁵) + 2¹⁰⁴ = MaxFloat32 exactly,
		// the largest finite float: still normalized, to the direction of
		// (1, r, 0), r = 2⁵²/(2⁶⁴−2⁴⁰) ≈ 2⁻¹²: (1, 2⁻¹², 0) within 1e-6.
		{"largest finite length", [9]float32{1 << 20, 0, 0, 0, bc, 0, 0, 0, big}, [3]float32{1, 1, 0}, [3]float32{1, 2.4414063e-4, 0}},
		// diag(2⁶⁴, 2⁶⁴, 2⁶⁴): its cofactors, 2¹²⁸, overflow to +Inf, and so
		// do cof·(1, 1, 1) and its length: zero, not NaN (Inf × 0).
		{"overflowing cofactors", [9]float32{1 << 64, 0, 0, 0, 1 << 64, 0, 0, 0, 1 << 64}, [3]float32{1, 1, 1}, [3]float32{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.rows
			pal := []float32{r[0], r[1], r[2], 0, r[3], r[4], r[5], 0, r[6], r[7], r[8], 0}
			got := make([]float32, 3)
			if err := Normals(got, tc.n[:], []uint16{0, 0, 0, 0}, []float32{1, 0, 0, 0}, pal); err != nil {
				t.Fatal(err)
			}
			if !approxVec(got, tc.want[:], 1e-6) || slices.ContainsFunc(got, func(v float32) bool { return v != v }) {
				t.Errorf("normal %v; want %v", got, tc.want)
			}
		})
	}
}

// Positions refuses inputs shorter than its vertex count needs, and a
// joint past the palette, with messages that count vertices, influences
// and entries.
func TestPositionsErrors(t *testing.T) {
	pal := paletteOf(mgl32.Ident4(), mgl32.Ident4())
	pos := []float32{0, 0, 0, 1, 1, 1}
	joints, weights := []uint16{0, 1, 0, 1}, []float32{1, 0, 1, 0}
	for _, c := range []struct {
		name    string
		dst     []float32
		joints  []uint16
		weights []float32
		want    string
	}{
		{"short output", make([]float32, 5), joints, weights, "skin: 2 vertices need 6 outputs and 4 influences; have 5, 4 joints, 4 weights"},
		{"short joints", make([]float32, 6), joints[:3], weights, "skin: 2 vertices need 6 outputs and 4 influences; have 6, 3 joints, 4 weights"},
		{"short weights", make([]float32, 6), joints, weights[:3], "skin: 2 vertices need 6 outputs and 4 influences; have 6, 4 joints, 3 weights"},
		{"joint past the palette", make([]float32, 6), []uint16{0, 1, 2, 1}, []float32{1, 0, 0.5, 0.5}, "skin: vertex 1 uses joint 2; the palette has 2"},
	} {
		if err := Positions(c.dst, pos, c.joints, c.weights, 2, pal); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v; want %q", c.name, err, c.want)
		}
	}
}

// Transform applies one dense entry to every whole position and leaves a
// trailing partial one alone. Rows (1 2 3 | 4), (−1 0.5 2 | −3),
// (0.5 −2 1 | 0.25): (1, −1, 2) → (1−2+6+4, −1−0.5+4−3, 0.5+2+2+0.25) =
// (9, −0.5, 4.75); (0.5, 3, −2) → (0.5+6−6+4, −0.5+1.5−4−3,
// 0.25−6−2+0.25) = (4.5, −6, −7.5).
func TestTransform(t *testing.T) {
	m := []float32{1, 2, 3, 4, -1, 0.5, 2, -3, 0.5, -2, 1, 0.25}
	dst := []float32{99, 99, 99, 99, 99, 99, 99, 99}
	Transform(dst, []float32{1, -1, 2, 0.5, 3, -2, 7, 7}, m)
	if want := []float32{9, -0.5, 4.75, 4.5, -6, -7.5, 99, 99}; !slices.Equal(dst, want) {
		t.Errorf("got %v; want %v", dst, want)
	}
}
