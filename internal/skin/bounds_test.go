package skin

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestJointBounds(t *testing.T) {
	pos := []float32{
		0, 0, 0,
		1, 2, 3,
		-1, 5, 0.5,
	}
	tests := []struct {
		name    string
		joints  []uint16
		weights []float32
		want    []Box // nil entries: empty
		empty   []bool
	}{
		{
			// Joint 0 on vertices 0 and 1; joint 1 on vertices 1 and 2
			// (vertex 2's joint-3 slot has weight 0); joints 2, 3 unused.
			name:    "four influences",
			joints:  []uint16{0, 0, 0, 0, 0, 1, 0, 0, 1, 3, 0, 0},
			weights: []float32{1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0},
			want: []Box{
				{Min: [3]float32{0, 0, 0}, Max: [3]float32{1, 2, 3}},
				{Min: [3]float32{-1, 2, 0.5}, Max: [3]float32{1, 5, 3}},
				{}, {},
			},
			empty: []bool{false, false, true, true},
		},
		{
			// Two joint sets (eight slots): joint 3 on vertex 2 via set two.
			name:    "eight influences",
			joints:  []uint16{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0},
			weights: []float32{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0.5, 0, 0, 0, 0.5, 0, 0, 0},
			want: []Box{
				{Min: [3]float32{0, 0, 0}, Max: [3]float32{0, 0, 0}},
				{Min: [3]float32{-1, 2, 0.5}, Max: [3]float32{1, 5, 3}},
				{},
				{Min: [3]float32{-1, 5, 0.5}, Max: [3]float32{-1, 5, 0.5}},
			},
			empty: []bool{false, false, true, false},
		},
		{
			// The smallest weight counts: joint 2 at 2^-24 on vertex 2
			// still moves it (slightly), so its box holds the vertex.
			name:    "a tiny weight",
			joints:  []uint16{0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0},
			weights: []float32{1, 0, 0, 0, 1, 0, 0, 0, 1 - 0x1p-24, 0x1p-24, 0, 0},
			want: []Box{
				{Min: [3]float32{-1, 0, 0}, Max: [3]float32{1, 5, 3}},
				{},
				{Min: [3]float32{-1, 5, 0.5}, Max: [3]float32{-1, 5, 0.5}},
				{},
			},
			empty: []bool{false, true, false, true},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			boxes, err := JointBounds(pos, tc.joints, tc.weights, 4)
			if err != nil {
				t.Fatal(err)
			}
			for j, b := range boxes {
				if b.Empty() != tc.empty[j] {
					t.Errorf("joint %d: Empty() = %v", j, b.Empty())
				}
				if !tc.empty[j] && b != tc.want[j] {
					t.Errorf("joint %d: %+v; want %+v", j, b, tc.want[j])
				}
			}
		})
	}
	_, err := JointBounds(pos, []uint16{0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0}, []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 4)
	if err == nil || !strings.Contains(err.Error(), "vertex 1 uses joint 4; the skin has 4") {
		t.Errorf("error %v; want one naming vertex 1 and joint 4", err)
	}
	_, err = JointBounds(pos, []uint16{0, 0, 0}, []float32{1, 1, 1, 1}, 4)
	if err == nil {
		t.Error("mismatched joints and weights: no error")
	}
}

func TestPosedBoundsHand(t *testing.T) {
	// The unit cube turned a quarter about z, (x, y, z) → (−y, x, z), and
	// moved 10 along x: x ∈ [9, 10], y ∈ [0, 1], z ∈ [0, 1]. Joint 1 is
	// empty and its (huge) palette entry must not count.
	boxes := []Box{{Max: [3]float32{1, 1, 1}}, EmptyBox()}
	pal := paletteOf(mgl32.Translate3D(10, 0, 0).Mul4(mgl32.HomogRotate3DZ(math.Pi/2)), mgl32.Translate3D(1e6, 0, 0))
	lo, hi, ok := PosedBounds(boxes, pal)
	if !ok || !approxVec(lo[:], []float32{9, 0, 0}, 1e-6) || !approxVec(hi[:], []float32{10, 1, 1}, 1e-6) {
		t.Errorf("got %v %v %v; want [9 0 0] [10 1 1] true", lo, hi, ok)
	}
	if _, _, ok := PosedBounds([]Box{EmptyBox()}, pal); ok {
		t.Error("all boxes empty: ok")
	}
}

func TestPosedBoundsContainsSkinnedMesh(t *testing.T) {
	m := gridMesh(13, 40, 30)
	boxes, err := JointBounds(m.pos, m.joints, m.weights, m.numJ)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(13, 13))
	out := make([]float32, len(m.pos))
	for pose := 0; pose < 8; pose++ {
		pal := randomPose(rng, m.numJ, pose%2 == 1)
		lo, hi, ok := PosedBounds(boxes, pal)
		if !ok {
			t.Fatal("no bounds")
		}
		// Brute force: skin every vertex the way the existing reference
		// does, point by point, and check it lies inside.
		if err := Positions(out, m.pos, m.joints, m.weights, 4, pal); err != nil {
			t.Fatal(err)
		}
		tight, tightHi, _ := Bounds(out)
		for v := 0; v < len(out)/3; v++ {
			for c := 0; c < 3; c++ {
				x := out[v*3+c]
				eps := 1e-5 * (1 + float32(math.Abs(float64(x))))
				if x < lo[c]-eps || x > hi[c]+eps {
					t.Fatalf("pose %d vertex %d axis %d: %v outside [%v, %v]", pose, v, c, x, lo[c], hi[c])
				}
			}
		}
		t.Logf("pose %d: posed bounds %v–%v, skinned mesh %v–%v", pose, lo, hi, tight, tightHi)
	}
}

// PosedBounds of boxes that reach both sides of every axis, under dense
// entries with negative elements, against the box around the eight
// transformed corners of each, in float64. By hand, box 0 ((−1, −2, −3) to
// (2, 1, 0.5)) under rows (1 −2 0.5 | 1), (−1 0.5 2 | 0), (0.25 1 −1 | −2)
// spans x 1 + [−1, 2] + [−2, 4] + [−1.5, 0.25] = [−3.5, 7.25],
// y [−2, 1] + [−1, 0.5] + [−6, 1] = [−9, 2.5], z −2 + [−0.25, 0.5] +
// [−2, 1] + [−0.5, 3] = [−4.75, 2.5].
func TestPosedBoundsEveryDirection(t *testing.T) {
	boxes := []Box{
		{Min: [3]float32{-1, -2, -3}, Max: [3]float32{2, 1, 0.5}},
		{Min: [3]float32{-0.5, -4, -1}, Max: [3]float32{3, -1, 2}},
	}
	pal := []float32{
		1, -2, 0.5, 1, -1, 0.5, 2, 0, 0.25, 1, -1, -2,
		-3, 0.5, 1, 4, 2, -1, -0.5, -1, 0.75, 1.5, 2, 0.5,
	}
	var lo, hi [3]float64
	for r := range 3 {
		lo[r], hi[r] = math.Inf(1), math.Inf(-1)
	}
	for i, b := range boxes {
		m := pal[i*12:]
		for corner := range 8 {
			var p [3]float64
			for c := range 3 {
				p[c] = float64(b.Min[c])
				if corner>>c&1 == 1 {
					p[c] = float64(b.Max[c])
				}
			}
			for r := range 3 {
				x := float64(m[r*4+3])
				for c := range 3 {
					x += float64(m[r*4+c]) * p[c]
				}
				lo[r], hi[r] = math.Min(lo[r], x), math.Max(hi[r], x)
			}
		}
	}
	if one, _, _ := PosedBounds(boxes[:1], pal); one != [3]float32{-3.5, -9, -4.75} {
		t.Errorf("box 0 alone: low corner %v; want (-3.5, -9, -4.75) by hand", one)
	}
	gotLo, gotHi, ok := PosedBounds(boxes, pal)
	for r := range 3 {
		if !ok || float64(gotLo[r]) != lo[r] || float64(gotHi[r]) != hi[r] {
			t.Fatalf("box %v..%v (%v); want %v..%v, the corners' box", gotLo, gotHi, ok, lo, hi)
		}
	}
}

// Bounds of no whole position is not ok; of one it is that point; of
// several, each axis's extremes, from whichever point holds them; a
// trailing partial position does not count.
func TestBounds(t *testing.T) {
	if _, _, ok := Bounds([]float32{1, 2}); ok {
		t.Error("two floats: ok")
	}
	if lo, hi, ok := Bounds([]float32{1, -2, 3}); !ok || lo != [3]float32{1, -2, 3} || hi != lo {
		t.Errorf("one point: %v..%v (%v); want (1, -2, 3) both", lo, hi, ok)
	}
	lo, hi, ok := Bounds([]float32{1, -2, 3, -4, 5, 0.5, 2, 0, -6, 100, 100})
	if !ok || lo != [3]float32{-4, -2, -6} || hi != [3]float32{2, 5, 3} {
		t.Errorf("three points: %v..%v (%v); want (-4, -2, -6)..(2, 5, 3)", lo, hi, ok)
	}
}
