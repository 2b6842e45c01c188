package skin

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// panicText returns what f panics with, as text, or "" when it returns.
func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// The size checks sit exactly at the contract's boundary: a destination or
// palette one float short, or a joint one past the palette, panics with the
// function's own message (not a runtime error from a later slice); the
// exact size, and the last joint, do not panic.
func TestSizeChecksAtTheBoundary(t *testing.T) {
	pal := paletteOf(mgl32.Ident4(), mgl32.Translate3D(1, 0, 0))
	unit := Box{Min: [3]float32{0, 0, 0}, Max: [3]float32{1, 1, 1}}
	for _, c := range []struct {
		name string
		f    func(short bool)
		want string
	}{
		{"WriteDualQuats", func(short bool) {
			n := 2 * DualQuatFloats
			if short {
				n--
			}
			WriteDualQuats(make([]float32, n), pal)
		}, "skin: WriteDualQuats: dst holds 15 floats for 2 joints"},
		{"GatherPalette", func(short bool) {
			n := 2 * anim.PaletteFloats
			if short {
				n--
			}
			GatherPalette(make([]float32, n), pal, []uint16{1, 0})
		}, "skin: GatherPalette: dst holds 23 floats for 2 joints"},
		{"GatherPalette joint", func(past bool) {
			j := uint16(1)
			if past {
				j = 2
			}
			GatherPalette(make([]float32, 2*anim.PaletteFloats), pal, []uint16{0, j})
		}, "skin: GatherPalette: joint 2 is outside a palette of 2 entries"},
		{"PosedBounds", func(short bool) {
			p := pal
			if short {
				p = pal[:len(pal)-1]
			}
			PosedBounds([]Box{unit, unit}, p)
		}, "skin: PosedBounds: 2 boxes but a palette of 1 entries"},
	} {
		if msg := panicText(func() { c.f(false) }); msg != "" {
			t.Errorf("%s panics at the exact size: %s", c.name, msg)
		}
		if msg := panicText(func() { c.f(true) }); msg != c.want {
			t.Errorf("%s one past the limit panics with %q; want %q", c.name, msg, c.want)
		}
	}
}

// skin4's contract: the first vertex using a joint outside the palette and
// that joint, or (−1, −1) when there is none, not a stale joint.
func TestSkin4BadJoint(t *testing.T) {
	pal := paletteOf(mgl32.Ident4(), mgl32.Ident4())
	out := make([]float32, 6)
	pos := []float32{0, 0, 0, 1, 1, 1}
	if v, j := skin4(out, nil, pos, nil, []uint16{1, 0, 0, 0, 0, 1, 0, 0}, []float32{1, 0, 0, 0, 0.5, 0.5, 0, 0}, pal, 2); v != -1 || j != -1 {
		t.Errorf("joints in the palette: (%d, %d); want (-1, -1)", v, j)
	}
	if v, j := skin4(out, nil, pos, nil, []uint16{1, 0, 0, 0, 0, 3, 0, 0}, []float32{1, 0, 0, 0, 0.5, 0.5, 0, 0}, pal, 2); v != 1 || j != 3 {
		t.Errorf("vertex 1 uses joint 3: (%d, %d); want (1, 3)", v, j)
	}
}

// SkinDQ refuses a vertex whose joint is the first past the palette (and
// takes the last one in it), and too few normals by one vertex.
func TestSkinDQBoundaries(t *testing.T) {
	dq := make([]float32, 2*DualQuatFloats)
	WriteDualQuats(dq, paletteOf(mgl32.Ident4(), mgl32.Translate3D(0, 2, 0)))
	got := make([]float32, 3)
	if err := SkinDQ(got, nil, []float32{1, 0, 0}, nil, []uint16{1, 0, 0, 0}, []float32{1, 0, 0, 0}, dq); err != nil || !approxVec(got, []float32{1, 2, 0}, 1e-6) {
		t.Errorf("joint 1 of 2: %v, %v; want (1, 2, 0)", got, err)
	}
	if err := SkinDQ(got, nil, []float32{1, 0, 0}, nil, []uint16{2, 0, 0, 0}, []float32{1, 0, 0, 0}, dq); err == nil || !strings.Contains(err.Error(), "joint 2") {
		t.Errorf("joint 2 of 2: %v; want an error naming joint 2", err)
	}
	two := []float32{1, 0, 0, 0, 1, 0}
	joints, weights := []uint16{0, 0, 0, 0, 0, 0, 0, 0}, []float32{1, 0, 0, 0, 1, 0, 0, 0}
	if err := SkinDQ(make([]float32, 6), make([]float32, 6), two, []float32{0, 0, 1}, joints, weights, dq); err == nil || err.Error() != "skin: SkinDQ of 2 vertices has 1 normals and 2 normal outputs" {
		t.Errorf("2 vertices, 1 normal: %v; want an error counting 1 normal and 2 outputs", err)
	}
	if err := SkinDQ(make([]float32, 6), make([]float32, 3), two, []float32{0, 0, 1, 0, 0, 1}, joints, weights, dq); err == nil || err.Error() != "skin: SkinDQ of 2 vertices has 2 normals and 1 normal outputs" {
		t.Errorf("2 vertices, room for 1 normal: %v; want an error counting 2 normals and 1 output", err)
	}
}

// A weightless vertex that is not the first keeps its own bind position
// and normal; a normal of length 2 comes out of unit length, turned.
func TestSkinDQPerVertex(t *testing.T) {
	dq := make([]float32, DualQuatFloats)
	WriteDualQuats(dq, paletteOf(mgl32.HomogRotate3DZ(math.Pi/2)))
	pos := []float32{1, 0, 0, 4, 5, 6}
	nrm := []float32{2, 0, 0, 0, 0.5, 0.5}
	gotP, gotN := make([]float32, 6), make([]float32, 6)
	if err := SkinDQ(gotP, gotN, pos, nrm, []uint16{0, 0, 0, 0, 0, 0, 0, 0}, []float32{1, 0, 0, 0, 0, 0, 0, 0}, dq); err != nil {
		t.Fatal(err)
	}
	// A quarter turn about z: (1, 0, 0) → (0, 1, 0), the normal too.
	if !approxVec(gotP[:3], []float32{0, 1, 0}, 1e-6) || !approxVec(gotN[:3], []float32{0, 1, 0}, 1e-6) {
		t.Errorf("vertex 0: %v, normal %v; want (0, 1, 0) both", gotP[:3], gotN[:3])
	}
	if !approxVec(gotP[3:], []float32{4, 5, 6}, 0) || !approxVec(gotN[3:], []float32{0, 0.5, 0.5}, 0) {
		t.Errorf("weightless vertex 1: %v, normal %v; want its own (4, 5, 6) and (0, 0.5, 0.5)", gotP[3:], gotN[3:])
	}
}

// Two influences whose real parts' dot product is negative through each
// of its terms: turns of +100° and −100° about n = (1, 1, 1)/√3, w ≥ 0
// both, have x·x', y·y' and z·z' each −sin²50°/3 = −0.196 and w·w' =
// cos²50° = 0.413: dot −0.174, and making any one of the four terms
// positive makes it positive. Blended halfway the short way (one negated)
// they meet at a half turn about n: (0, 0, 1) → 2(n·p)n − p = (2/3, 2/3,
// −1/3).
func TestSkinDQSignFlipUsesTheWholeDot(t *testing.T) {
	n := mgl32.Vec3{1, 1, 1}.Normalize()
	a, b := mgl32.QuatRotate(100*math.Pi/180, n), mgl32.QuatRotate(100*math.Pi/180, n.Mul(-1))
	for k := range 3 {
		if a.V[k]*b.V[k] >= 0 {
			t.Fatalf("term %d of the dot is %v: the test needs each negative", k, a.V[k]*b.V[k])
		}
	}
	if d := a.Dot(b); d >= 0 || a.W*b.W <= 0 || d-2*a.W*b.W >= 0 {
		t.Fatalf("dot %v, w·w %v: the test needs a negative dot its w term alone turns", d, a.W*b.W)
	}
	dq := make([]float32, 2*DualQuatFloats)
	WriteDualQuats(dq, paletteOf(a.Mat4(), b.Mat4()))
	got := make([]float32, 3)
	if err := SkinDQ(got, nil, []float32{0, 0, 1}, nil, []uint16{0, 1, 0, 0}, []float32{0.5, 0.5, 0, 0}, dq); err != nil {
		t.Fatal(err)
	}
	if !approxVec(got, []float32{2.0 / 3, 2.0 / 3, -1.0 / 3}, 1e-5) {
		t.Errorf("got %v; want (2/3, 2/3, -1/3), the half turn about (1, 1, 1)", got)
	}
}

// An entry that is singular for float32 (a turned and flattened joint,
// |det| below 1e-12 of its size cubed) gives no rotation, as the contract
// says, not the rotation its other axes show. The test is relative to the
// entry's size: the same flattening at 1000 times the size is singular
// too, and a joint merely scaled to 1e-9, |det| = 1e-27, is not; neither
// is one scaled to 1e9, whose polar factor the scaled iteration finds as
// fast.
func TestNearlySingularEntryHasNoRotation(t *testing.T) {
	turn := mgl32.HomogRotate3DZ(0.7)
	for _, c := range []struct {
		name string
		m    mgl32.Mat4
		want mgl32.Quat
	}{
		{"flattened", turn.Mul4(mgl32.Scale3D(1, 1, 1e-14)), mgl32.QuatIdent()},
		{"large and flattened", mgl32.Scale3D(1000, 1000, 1000).Mul4(turn).Mul4(mgl32.Scale3D(1, 1, 1e-13)), mgl32.QuatIdent()},
		{"tiny", mgl32.Scale3D(1e-9, 1e-9, 1e-9).Mul4(turn), mgl32.QuatRotate(0.7, mgl32.Vec3{0, 0, 1})},
		{"huge", mgl32.Scale3D(1e9, 1e9, 1e9).Mul4(turn), mgl32.QuatRotate(0.7, mgl32.Vec3{0, 0, 1})},
	} {
		if q := DualQuatFromEntry(entry(c.m)); !sameRotation(q.Real, c.want, 1e-6) {
			t.Errorf("%s: rotation %v; want %v", c.name, q.Real, c.want)
		}
	}
}

// JointBounds takes one influence per vertex, and refuses a count that is
// not a whole number per vertex.
func TestJointBoundsInfluenceCounts(t *testing.T) {
	boxes, err := JointBounds([]float32{1, 2, 3, -1, 0, 5}, []uint16{0, 1}, []float32{1, 1}, 2)
	if err != nil || boxes[0].Min != [3]float32{1, 2, 3} || boxes[1].Max != [3]float32{-1, 0, 5} {
		t.Errorf("one influence a vertex: %v, %v", boxes, err)
	}
	if _, err := JointBounds([]float32{1, 2, 3, -1, 0, 5}, []uint16{0, 1, 0}, []float32{1, 1, 1}, 2); err == nil {
		t.Error("3 influences for 2 vertices: no error")
	}
}

// PosedBounds under a matrix with negative entries: each row takes the
// smaller of its two products per column for the low end. Box [0, 1]³
// under rows (−1 2 0 | 5), (0 −3 0 | 0), (0 0 0.5 | 1): x spans
// 5 + [−1, 0] + [0, 2] = [4, 7], y [−3, 0], z [1, 1.5].
func TestPosedBoundsNegativeEntries(t *testing.T) {
	pal := []float32{-1, 2, 0, 5, 0, -3, 0, 0, 0, 0, 0.5, 1}
	lo, hi, ok := PosedBounds([]Box{{Min: [3]float32{0, 0, 0}, Max: [3]float32{1, 1, 1}}}, pal)
	if !ok || lo != [3]float32{4, -3, 1} || hi != [3]float32{7, 0, 1.5} {
		t.Errorf("box %v..%v (%v); want (4, -3, 1)..(7, 0, 1.5)", lo, hi, ok)
	}
}
