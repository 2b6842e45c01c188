package anim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

const eps = 1e-5

func matApprox(t *testing.T, name string, got, want mgl32.Mat4) {
	t.Helper()
	for i := range got {
		if !animtest.ApproxEqual(got[i], want[i], eps) {
			t.Fatalf("%s: element %d = %v, want %v\ngot  %v\nwant %v", name, i, got[i], want[i], got, want)
		}
	}
}

// twoJointArm is a shoulder at the origin and an elbow one unit along +X.
func twoJointArm() *anim.Skeleton {
	return &anim.Skeleton{
		Names:   []string{"shoulder", "elbow"},
		Parents: []int{-1, 0},
		Rest: []anim.Transform{
			anim.IdentityTransform,
			{Translation: mgl32.Vec3{1, 0, 0}, Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}},
		},
	}
}

func TestLocalToModelArmRotated90(t *testing.T) {
	sk := twoJointArm()
	pose := append([]anim.Transform(nil), sk.Rest...)
	// Shoulder turns 90° about +Z: the elbow, one unit along +X, swings to +Y.
	pose[0].Rotation = mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 0, 1})
	job := anim.ModelPaletteJob{Skeleton: sk, Input: toSoA(pose), Models: make([]float32, 2*anim.PaletteFloats)}
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	job.Run()
	out := []mgl32.Mat4{anim.ModelMat4(job.Models, 0), anim.ModelMat4(job.Models, 1)}
	// By hand: Rz(90°) maps x→y, y→−x; columns are the images of the axes.
	wantShoulder := mgl32.Mat4{
		0, 1, 0, 0,
		-1, 0, 0, 0,
		0, 0, 1, 0,
		0, 0, 0, 1,
	}
	wantElbow := wantShoulder
	wantElbow[12], wantElbow[13] = 0, 1
	matApprox(t, "shoulder", out[0], wantShoulder)
	matApprox(t, "elbow", out[1], wantElbow)
}

func TestPaletteOfBindPoseIsIdentity(t *testing.T) {
	sk := twoJointArm()
	sk.Rest[0].Translation = mgl32.Vec3{0, 1.5, 0}
	sk.Rest[1].Rotation = mgl32.QuatRotate(0.7, mgl32.Vec3{0, 1, 0})
	models := make([]mgl32.Mat4, 2)
	(&refLocalToModelJob{Skeleton: sk, Input: sk.Rest, Output: models}).Run()
	// The inverse bind matrices of a skin bound in this pose.
	skin := &anim.Skin{Joints: []int{0, 1}, InverseBind: []mgl32.Mat4{models[0].Inv(), models[1].Inv()}}
	pal := make([]float32, 2*anim.PaletteFloats)
	job := anim.ModelPaletteJob{Skeleton: sk, Skin: skin, Input: toSoA(sk.Rest), Models: make([]float32, 2*anim.PaletteFloats), Output: pal}
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	job.Run()
	identityRows := []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}
	for i, v := range pal {
		if !animtest.ApproxEqual(v, identityRows[i%anim.PaletteFloats], eps) {
			t.Fatalf("palette[%d] = %v, want %v (identity rows)", i, v, identityRows[i%anim.PaletteFloats])
		}
	}
}

func TestPaletteRowLayout(t *testing.T) {
	// A matrix whose element (row r, column c) is 10r+c, so each float
	// says where it came from.
	var m mgl32.Mat4
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			m[c*4+r] = float32(10*r + c)
		}
	}
	dst := make([]float32, 12)
	anim.WritePaletteEntry(dst, &m)
	want := []float32{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}
	for i := range want {
		if dst[i] != want[i] {
			t.Fatalf("entry = %v, want rows %v", dst, want)
		}
	}
}

func TestTransformMat4MatchesProduct(t *testing.T) {
	tr := anim.Transform{
		Translation: mgl32.Vec3{1, 2, 3},
		Rotation:    mgl32.QuatRotate(1.1, mgl32.Vec3{1, 2, 3}.Normalize()),
		Scale:       mgl32.Vec3{2, 0.5, 3},
	}
	want := mgl32.Translate3D(1, 2, 3).Mul4(tr.Rotation.Mat4()).Mul4(mgl32.Scale3D(2, 0.5, 3))
	matApprox(t, "T·R·S", tr.Mat4(), want)
	back := anim.DecomposeMat4(tr.Mat4())
	matApprox(t, "decompose round trip", back.Mat4(), want)
}

func TestSlerpTakesShortestArc(t *testing.T) {
	a := mgl32.QuatRotate(mgl32.DegToRad(10), mgl32.Vec3{0, 0, 1})
	b := mgl32.QuatRotate(mgl32.DegToRad(50), mgl32.Vec3{0, 0, 1})
	negB := mgl32.Quat{W: -b.W, V: b.V.Mul(-1)} // same rotation, dot(a, -b) < 0
	want := mgl32.QuatRotate(mgl32.DegToRad(30), mgl32.Vec3{0, 0, 1})
	for name, q := range map[string]mgl32.Quat{"b": b, "-b": negB} {
		got := anim.Slerp(a, q, 0.5)
		if !got.OrientationEqualThreshold(want, 1e-5) {
			t.Errorf("Slerp(a, %s, 0.5) = %v, want 30° about Z %v", name, got, want)
		}
		got = anim.Nlerp(a, q, 0.5)
		if !got.OrientationEqualThreshold(want, 1e-5) {
			t.Errorf("Nlerp(a, %s, 0.5) = %v, want %v", name, got, want)
		}
	}
}

// TestSoAPadding: stripes are whole blocks of 8 lanes, an empty pose none.
func TestSoAPadding(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 8, 7: 8, 8: 8, 9: 16, 19: 24, 100: 104} {
		if got := anim.SoaPadded(n); got != want {
			t.Errorf("soaPadded(%d) = %d, want %d", n, got, want)
		}
	}
	if p := anim.NewSoAPose(0); p.Len() != 0 || len(p.FieldTx()) != 0 {
		t.Fatalf("empty pose: %d joints, stripes of %d", p.Len(), len(p.FieldTx()))
	}
}

// TestSkeletonBounds: a joint cannot be its own parent, a skin cannot name
// the joint one past the last.
func TestSkeletonBounds(t *testing.T) {
	sk := animtest.Chain(3)
	sk.Parents[1] = 1
	if err := sk.Validate(); err == nil {
		t.Fatal("a joint that is its own parent was accepted")
	}
	sk = animtest.Chain(3)
	skin := anim.Skin{Name: "s", Joints: []int{0, 3}, InverseBind: make([]mgl32.Mat4, 2)}
	if err := skin.Validate(sk); err == nil {
		t.Fatal("a skin naming joint 3 of 3 was accepted")
	}
}

// TestClamp01: inside [0, 1] a value is itself, outside it the nearer
// end, and NaN 0.
func TestClamp01(t *testing.T) {
	for _, c := range []struct{ x, want float32 }{{-1, 0}, {0, 0}, {0.5, 0.5}, {1, 1}, {2, 1}, {float32(math.NaN()), 0}} {
		if got := anim.Clamp01(c.x); got != c.want {
			t.Errorf("Clamp01(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// ListNames quotes names for an error message, at most limit of them and
// a count of the rest.
func TestListNames(t *testing.T) {
	for _, c := range []struct {
		names []string
		limit int
		want  string
	}{
		{nil, 3, "none"},
		{[]string{"a"}, 3, `"a"`},
		{[]string{"a", "b", "c"}, 3, `"a", "b", "c"`},
		{[]string{"a", "b", "c", "d", "e"}, 3, `"a", "b", "c", … 2 more`},
	} {
		if got := anim.ListNames(c.names, c.limit); got != c.want {
			t.Errorf("ListNames(%q, %d) = %s; want %s", c.names, c.limit, got, c.want)
		}
	}
}

// FindJoint finds the root as it finds any joint, and for a name the
// skeleton lacks returns -1 and an error naming it and the joints.
func TestFindJoint(t *testing.T) {
	sk := animtest.Chain(3)
	for j, name := range sk.Names {
		if got, err := sk.FindJoint(name); got != j || err != nil {
			t.Errorf("FindJoint(%q) = %d, %v; want %d", name, got, err, j)
		}
	}
	got, err := sk.FindJoint("tail")
	if got != -1 || err == nil || !strings.Contains(err.Error(), `"tail"`) || !strings.Contains(err.Error(), `"j0", "j1", "j2"`) {
		t.Errorf("FindJoint(\"tail\") = %d, %v; want -1 and an error naming it and the joints", got, err)
	}
}
