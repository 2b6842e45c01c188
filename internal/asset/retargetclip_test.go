package asset_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
	"github.com/skinview/skinview/internal/asset"
)

func quatKeys(qs ...mgl32.Quat) []float32 {
	var out []float32
	for _, q := range qs {
		out = append(out, q.V[0], q.V[1], q.V[2], q.W)
	}
	return out
}

// trackOf is c's track of joint j and path p, nil when it has none.
func trackOf(c *anim.Clip, j int, p anim.Path) *anim.Track {
	for i := range c.Tracks {
		if c.Tracks[i].Joint == j && c.Tracks[i].Path == p {
			return &c.Tracks[i]
		}
	}
	return nil
}

// TestRetargetWorldSpace checks baked keys against rotations worked out
// by hand. In each case the source's world rotation change is a rotation
// about one axis, and the target's key is that change conjugated into the
// target parent's frame.
func TestRetargetWorldSpace(t *testing.T) {
	s45 := float32(math.Sqrt2 / 2)
	s15, c15 := float32(math.Sin(math.Pi/12)), float32(math.Cos(math.Pi/12))
	rx := func(deg float64) mgl32.Quat {
		return mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{1, 0, 0})
	}
	ry := func(deg float64) mgl32.Quat {
		return mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{0, 1, 0})
	}

	t.Run("source joint axes turned", func(t *testing.T) {
		// Source j1 rests turned 90° about Z and turns a further 30° about
		// its own X: in the world, 30° about Rz90·X = +Y. The target's j1
		// rests straight, so its world rotation and, under a still j0,
		// its local one is 30° about Y: (0, sin 15°, 0, cos 15°). The
		// target's j2, which the source lacks, gets no track.
		from, to := animtest.Chain(2), animtest.Chain(3)
		from.Rest[1].Rotation = animtest.RotZ(90)
		src := anim.Clip{Name: "wave", Duration: 1, Tracks: []anim.Track{
			{Joint: 1, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: quatKeys(animtest.RotZ(90), animtest.RotZ(90).Mul(rx(30)))},
			{Joint: 1, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{5, 5, 5, 6, 6, 6}},
			{Joint: 1, Path: anim.Scale, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{2, 2, 2, 3, 3, 3}},
		}}
		got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, 1}, Root: -1})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Tracks) != 1 {
			t.Fatalf("%d tracks, want j1's rotation alone (translations and scales stay the target's): %+v", len(got.Tracks), got.Tracks)
		}
		tr := trackOf(&got, 1, anim.Rotation)
		if tr == nil || !slices.Equal(tr.Times, []float32{0, 1}) || tr.Interp != anim.Linear {
			t.Fatalf("j1 rotation track %+v, want LINEAR keys at 0 and 1", tr)
		}
		want := []mgl32.Quat{{W: 1}, {W: c15, V: mgl32.Vec3{0, s15, 0}}}
		for k, w := range want {
			q := mgl32.Quat{W: tr.Values[4*k+3], V: mgl32.Vec3{tr.Values[4*k], tr.Values[4*k+1], tr.Values[4*k+2]}}
			if !animtest.QuatApprox(q, w, 1e-6) {
				t.Errorf("key %d: %v, want %v", k, q, w)
			}
		}
	})

	t.Run("parent node above the target root", func(t *testing.T) {
		// The target is authored Z-up in centimetres under an armature
		// node turned −90° about X and scaled 0.01: its j0 sits at
		// (0, 0, 100) there, (0, 1, 0) in the world; every joint's world
		// rest rotation is Rx(−90). The source (Y-up, metres) has its
		// hips j0 at (0, 0.5, 0): the hip heights' ratio is 2.
		// The source's hips may stand off its Y axis (here by 0.1 in x,
		// its keys with them): what moves over is their displacement
		// from rest, the same.
		for _, off := range []float32{0, 0.1} {
			from := animtest.Chain(2)
			from.Rest[0].Translation = mgl32.Vec3{off, 0.5, 0}
			to := &anim.Skeleton{
				Names:   []string{"armature", "j0", "j1"},
				Parents: []int{-1, 0, 1},
				Rest: []anim.Transform{
					{Rotation: rx(-90), Scale: mgl32.Vec3{0.01, 0.01, 0.01}},
					{Translation: mgl32.Vec3{0, 0, 100}, Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}},
					{Translation: mgl32.Vec3{100, 0, 0}, Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}},
				},
			}
			// j1 turns 90° about world Y. In the target, under j0's world
			// Rx(−90): Rx(90)·Ry(90)·Rx(−90), 90° about Rx(90)·Y = +Z.
			// The hips move (0.25, 0, 0.1) from rest at t = 1 (and stand at
			// rest at t = 0): doubled, (0.5, 0, 0.2), so the target's
			// stand at (0.5, 1, 0.2) in the world; in the armature's frame,
			// ×100 after Rx(90), which takes (x, y, z) to (x, −z, y):
			// (50, −20, 100).
			src := anim.Clip{Name: "walk", Duration: 1, Tracks: []anim.Track{
				{Joint: 1, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: quatKeys(mgl32.QuatIdent(), ry(90))},
				{Joint: 0, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{off, 0.5, 0, off + 0.25, 0.5, 0.1}},
			}}
			got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{1, 2}, Root: 1, Scale: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Tracks) != 2 {
				t.Fatalf("%d tracks, want j1's rotation and j0's translation (j0 never turns): %+v", len(got.Tracks), got.Tracks)
			}
			rot, pos := trackOf(&got, 2, anim.Rotation), trackOf(&got, 1, anim.Translation)
			if rot == nil || pos == nil {
				t.Fatalf("tracks %+v: want j1's rotation and j0's translation", got.Tracks)
			}
			wantRot := []mgl32.Quat{{W: 1}, {W: s45, V: mgl32.Vec3{0, 0, s45}}}
			for k, w := range wantRot {
				q := mgl32.Quat{W: rot.Values[4*k+3], V: mgl32.Vec3{rot.Values[4*k], rot.Values[4*k+1], rot.Values[4*k+2]}}
				if !animtest.QuatApprox(q, w, 1e-6) {
					t.Errorf("j1 key %d: %v, want %v", k, q, w)
				}
			}
			wantPos := []mgl32.Vec3{{0, 0, 100}, {50, -20, 100}}
			for k, w := range wantPos {
				p := mgl32.Vec3{pos.Values[3*k], pos.Values[3*k+1], pos.Values[3*k+2]}
				if !animtest.VecApprox(p, w, 1e-3) {
					t.Errorf("hips %g off the axis: j0 translation key %d: %v, want %v", off, k, p, w)
				}
			}
		}
	})

	t.Run("keys at the union of the source's", func(t *testing.T) {
		// j0 keyed at 0, 1; j1 at 0, 0.5, 1: j1's world rotation follows
		// both, so its baked keys fall at 0, 0.5, 1. A target joint
		// driven by no keyed joint gets no track.
		from, to := animtest.Chain(3), animtest.Chain(3)
		src := anim.Clip{Name: "nod", Duration: 1, Tracks: []anim.Track{
			{Joint: 0, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: quatKeys(mgl32.QuatIdent(), ry(40))},
			{Joint: 1, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 0.5, 1}, Values: quatKeys(mgl32.QuatIdent(), rx(20), rx(10))},
		}}
		got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, 1, 2}, Root: -1})
		if err != nil {
			t.Fatal(err)
		}
		for j, times := range map[int][]float32{0: {0, 0.5, 1}, 1: {0, 0.5, 1}} {
			if tr := trackOf(&got, j, anim.Rotation); tr == nil || !slices.Equal(tr.Times, times) {
				t.Errorf("j%d rotation track %+v, want keys at %v", j, tr, times)
			}
		}
		if tr := trackOf(&got, 2, anim.Rotation); tr != nil {
			t.Errorf("j2, which keeps its rest, has a track %+v", tr)
		}
		// A key time halfway along j0's turn: 20° about Y, hand-derived.
		tr := trackOf(&got, 0, anim.Rotation)
		q := mgl32.Quat{W: tr.Values[7], V: mgl32.Vec3{tr.Values[4], tr.Values[5], tr.Values[6]}}
		if w := (mgl32.Quat{W: float32(math.Cos(math.Pi / 18)), V: mgl32.Vec3{0, float32(math.Sin(math.Pi / 18)), 0}}); !animtest.QuatApprox(q, w, 1e-6) {
			t.Errorf("j0 at 0.5 s: %v, want %v", q, w)
		}
	})

	t.Run("cubic splines sampled densely", func(t *testing.T) {
		// One CUBICSPLINE interval from the identity to 90° about Z, out
		// tangent (0, 0, 1, 0), in tangent 0: at u = ½ the Hermite basis
		// weighs p0, m0, p1, m1 by ½, ⅛, ½, −⅛, so the spline stands at
		// (0, 0, ½·√½ + ⅛, ½ + ½·√½), normalized. The baked clip keys it
		// there among eight keys per interval.
		from, to := animtest.Chain(2), animtest.Chain(2)
		zero := mgl32.Quat{}
		src := anim.Clip{Name: "curl", Duration: 1, Tracks: []anim.Track{
			{Joint: 1, Path: anim.Rotation, Interp: anim.CubicSpline, Times: []float32{0, 1},
				Values: quatKeys(zero, mgl32.QuatIdent(), mgl32.Quat{V: mgl32.Vec3{0, 0, 1}}, zero, animtest.RotZ(90), zero)},
		}}
		got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, 1}, Root: -1})
		if err != nil {
			t.Fatal(err)
		}
		tr := trackOf(&got, 1, anim.Rotation)
		if tr == nil || tr.Interp != anim.Linear || len(tr.Times) != asset.BakeSubsteps+1 || tr.Times[asset.BakeSubsteps/2] != 0.5 {
			t.Fatalf("j1 rotation track %+v, want %d LINEAR keys, one at 0.5", tr, asset.BakeSubsteps+1)
		}
		k := 4 * asset.BakeSubsteps / 2
		q := mgl32.Quat{W: tr.Values[k+3], V: mgl32.Vec3{tr.Values[k], tr.Values[k+1], tr.Values[k+2]}}
		want := mgl32.Quat{W: 0.5 + 0.5*s45, V: mgl32.Vec3{0, 0, 0.5*s45 + 0.125}}.Normalize()
		if !animtest.QuatApprox(q, want, 1e-5) {
			t.Errorf("j1 at 0.5 s: %v, want %v", q, want)
		}
	})

	t.Run("steps stay steps", func(t *testing.T) {
		from, to := animtest.Chain(2), animtest.Chain(2)
		src := anim.Clip{Name: "snap", Duration: 1, Tracks: []anim.Track{
			{Joint: 1, Path: anim.Rotation, Interp: anim.Step, Times: []float32{0, 1}, Values: quatKeys(mgl32.QuatIdent(), rx(90))},
		}}
		got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, 1}, Root: -1})
		if err != nil {
			t.Fatal(err)
		}
		if tr := trackOf(&got, 1, anim.Rotation); tr == nil || tr.Interp != anim.Step || !slices.Equal(tr.Times, []float32{0, 1}) {
			t.Errorf("j1 rotation track %+v, want STEP keys at 0 and 1", tr)
		}
		// Beside a LINEAR track the keys are LINEAR, and the step holds
		// its value until a thousandth of the interval before the next.
		src.Tracks = append(src.Tracks, anim.Track{Joint: 0, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: quatKeys(mgl32.QuatIdent(), ry(10))})
		got, err = asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, 1}, Root: -1})
		if err != nil {
			t.Fatal(err)
		}
		tr := trackOf(&got, 1, anim.Rotation)
		if tr == nil || tr.Interp != anim.Linear || len(tr.Times) != 3 || math.Abs(float64(tr.Times[1]-0.999)) > 1e-6 {
			t.Fatalf("j1 rotation track %+v, want LINEAR keys at 0, 0.999, 1", tr)
		}
		if q := (mgl32.Quat{W: tr.Values[7], V: mgl32.Vec3{tr.Values[4], tr.Values[5], tr.Values[6]}}); !animtest.QuatApprox(q, mgl32.QuatIdent(), 1e-6) {
			t.Errorf("j1 at 0.999 s: %v, want the identity it holds until 1 s", q)
		}
	})
}

func TestRetargetRefusesBadMaps(t *testing.T) {
	from, to := animtest.Chain(2), animtest.Chain(2)
	src := anim.Clip{Name: "wave", Duration: 1, Tracks: []anim.Track{
		{Joint: 1, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: quatKeys(mgl32.QuatIdent(), animtest.RotZ(30))},
	}}
	for _, tc := range []struct {
		name string
		m    asset.RetargetMap
		want string
	}{
		{"wrong length", asset.RetargetMap{Joint: []int{0}, Root: -1}, "map has 1 joints for a source skeleton of 2"},
		{"two onto one", asset.RetargetMap{Joint: []int{1, 1}, Root: -1}, `"j0" and "j1" both driving "j1"`},
		{"outside the target", asset.RetargetMap{Joint: []int{0, 5}, Root: -1}, `sends source joint "j1" to joint 5`},
		{"root outside", asset.RetargetMap{Joint: []int{0, 1}, Root: 9}, "root 9 outside"},
		{"root one past", asset.RetargetMap{Joint: []int{0, 1}, Root: 2}, "root 2 outside a target skeleton of 2 joints"},
		{"one past the target", asset.RetargetMap{Joint: []int{0, 2}, Root: -1}, `sends source joint "j1" to joint 2 of a target skeleton of 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := asset.Retarget(&src, from, to, &tc.m); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	// A track on a joint the source skeleton lacks (one past its last,
	// or negative) is refused, naming it.
	for _, j := range []int{2, -1} {
		bad := src
		bad.Tracks = []anim.Track{src.Tracks[0]}
		bad.Tracks[0].Joint = j
		want := fmt.Sprintf(`clip "wave" track on joint %d of 2`, j)
		if _, err := asset.Retarget(&bad, from, to, &asset.RetargetMap{Joint: []int{0, 1}, Root: -1}); err == nil || err.Error() != want {
			t.Errorf("track on joint %d: %v; want %q", j, err, want)
		}
	}
	// A map leaving j1 without a target drops its track.
	got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, -1}, Root: -1})
	if err != nil || len(got.Tracks) != 0 {
		t.Fatalf("unmapped joint kept: %+v, %v", got.Tracks, err)
	}
}

// turned is animtest.Humanoid with its hips (the root) turned deg about
// +Y: the same character facing another way.
func turned(deg float64) *anim.Skeleton {
	sk := animtest.Humanoid()
	sk.Rest[0].Rotation = mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{0, 1, 0})
	return sk
}

// TestFacingTurn: the humanoid (facing +Z) against itself turned by a
// quarter turn, a half turn, or with its arms raised level (a T-pose
// against its A-pose), the turn being the one about +Y that takes the
// first onto the second: +90° takes +Z to +X.
func TestFacingTurn(t *testing.T) {
	h := float32(math.Sqrt2 / 2)
	tpose := animtest.Humanoid()
	for _, arm := range []string{"upper_arm.L", "upper_arm.R"} {
		// The upper arms rest 45° below level: lift them level.
		deg := 45.0
		if arm == "upper_arm.R" {
			deg = -45
		}
		tpose.Rest[tpose.JointIndex(arm)].Rotation = mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{0, 0, 1})
	}
	src := animtest.Humanoid()
	for _, c := range []struct {
		name string
		to   *anim.Skeleton
		want mgl32.Quat
	}{
		{"itself", animtest.Humanoid(), mgl32.QuatIdent()},
		{"quarter turn", turned(90), mgl32.Quat{W: h, V: mgl32.Vec3{0, h, 0}}},
		{"quarter turn back", turned(-90), mgl32.Quat{W: h, V: mgl32.Vec3{0, -h, 0}}},
		{"half turn", turned(180), mgl32.Quat{W: 0, V: mgl32.Vec3{0, 1, 0}}},
		{"near a half turn", turned(170), mgl32.Quat{W: 0, V: mgl32.Vec3{0, 1, 0}}},
		{"T-pose against A-pose", tpose, mgl32.QuatIdent()},
	} {
		var pairs [][2]int
		for j := range src.NumJoints() {
			pairs = append(pairs, [2]int{j, j})
		}
		if got := asset.FacingTurn(src, c.to, pairs); !animtest.QuatApprox(got, c.want, 1e-6) {
			t.Errorf("%s: turn %v, want %v", c.name, got, c.want)
		}
	}
	if got := asset.FacingTurn(src, turned(180), [][2]int{{0, 0}}); got != mgl32.QuatIdent() {
		t.Errorf("one joint pair: turn %v, want none (a point has no facing)", got)
	}
}

// TestRetargetTurnLowersTheSameArm: the source humanoid faces +Z and
// lowers its left arm straight down (the upper arm, resting 45° below
// level, turns −45° about +Z). The target is the same humanoid facing
// −Z (its hips turned 180° about +Y), its left arm resting towards −X.
// Turned to face as the target does, the source's change is −45° about
// −Z: the target's left arm must point straight down too, its elbow
// below its shoulder. Without the turn the same world change would lift
// the target's arm level.
func TestRetargetTurnLowersTheSameArm(t *testing.T) {
	from, to := animtest.Humanoid(), turned(180)
	arm := from.JointIndex("upper_arm.L")
	down := mgl32.QuatRotate(-math.Pi/4, mgl32.Vec3{0, 0, 1})
	src := anim.Clip{Name: "lower", Duration: 1, Tracks: []anim.Track{
		{Joint: arm, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: quatKeys(mgl32.QuatIdent(), down)},
	}}
	joints := make([]int, from.NumJoints())
	var pairs [][2]int
	for j := range joints {
		joints[j] = j
		pairs = append(pairs, [2]int{j, j})
	}
	m := &asset.RetargetMap{Joint: joints, Root: -1, Turn: asset.FacingTurn(from, to, pairs)}
	got, err := asset.Retarget(&src, from, to, m)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := anim.NewRuntimeClip(&got, to)
	if err != nil {
		t.Fatal(err)
	}
	pose := anim.NewPose(to)
	job := rc.NewSampleJob(false, pose)
	job.Time = 1
	job.Run()
	local := make([]anim.Transform, to.NumJoints())
	pose.ToTransforms(local)
	world := make([]mgl32.Mat4, len(local))
	for j, p := range to.Parents {
		world[j] = local[j].Mat4()
		if p >= 0 {
			world[j] = world[p].Mul4(world[j])
		}
	}
	shoulder := world[arm].Col(3).Vec3()
	elbow := world[to.JointIndex("forearm.L")].Col(3).Vec3()
	dir := elbow.Sub(shoulder).Normalize()
	if !animtest.VecApprox(dir, mgl32.Vec3{0, -1, 0}, 1e-5) {
		t.Errorf("target's left upper arm points %v; want straight down (0, −1, 0), as the source's", dir)
	}
}

// TestFacingTurnNeedsAShape: pairs that cannot say which way a character
// faces give no turn: a spine alone, whose slight lean is no facing, and
// a shape against its mirror image, which no turn matches.
func TestFacingTurnNeedsAShape(t *testing.T) {
	// A spine alone: five joints 0.2 apart upright, leaning a millimetre a
	// joint along +X in the source and along +Z in the target. The lean
	// alone would read as a quarter turn; it is under a tenth of the
	// spread.
	spine := func(dx, dz float32) *anim.Skeleton {
		sk := &anim.Skeleton{}
		for k := range 5 {
			sk.Names = append(sk.Names, string(rune('a'+k)))
			sk.Parents = append(sk.Parents, k-1)
			sk.Rest = append(sk.Rest, animtest.Tr(dx, 0.2, dz))
		}
		return sk
	}
	pairs := [][2]int{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}
	if got := asset.FacingTurn(spine(0.001, 0), spine(0, 0.001), pairs); got != mgl32.QuatIdent() {
		t.Errorf("a spine alone: turn %v, want none", got)
	}
	// Four joints around a root, the target's mirrored front to back,
	// and one more off the axes, (0.6, 0, 0.2) against (0.2, 0, 0.6):
	// alone that one would read as −53°, a quarter turn rounded; the
	// mirror leaves |Σ conj(a)·b| = 1/3 against half the spreads' 2.17.
	ring := func(pts ...[2]float32) *anim.Skeleton {
		sk := &anim.Skeleton{Names: []string{"r"}, Parents: []int{-1}, Rest: []anim.Transform{animtest.Tr(0, 1, 0)}}
		for i, p := range pts {
			sk.Names = append(sk.Names, string(rune('a'+i)))
			sk.Parents = append(sk.Parents, 0)
			sk.Rest = append(sk.Rest, animtest.Tr(p[0], 0, p[1]))
		}
		return sk
	}
	src := ring([2]float32{1, 0}, [2]float32{0, 1}, [2]float32{-1, 0}, [2]float32{0, -1}, [2]float32{0.6, 0.2})
	mirror := ring([2]float32{1, 0}, [2]float32{0, -1}, [2]float32{-1, 0}, [2]float32{0, 1}, [2]float32{0.2, 0.6})
	if got := asset.FacingTurn(src, mirror, [][2]int{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}}); got != mgl32.QuatIdent() {
		t.Errorf("shapes no turn matches: turn %v, want none", got)
	}
}

// worldRotations samples clip c on sk at t and returns each joint's world
// rotation.
func worldRotations(t *testing.T, c *anim.Clip, sk *anim.Skeleton, at float32) []mgl32.Quat {
	t.Helper()
	rc, err := anim.NewRuntimeClip(c, sk)
	if err != nil {
		t.Fatal(err)
	}
	pose := anim.NewPose(sk)
	job := rc.NewSampleJob(false, pose)
	job.Time = at
	job.Run()
	local := make([]anim.Transform, sk.NumJoints())
	pose.ToTransforms(local)
	world := make([]mgl32.Quat, len(local))
	for j, p := range sk.Parents {
		world[j] = local[j].Rotation
		if p >= 0 {
			world[j] = world[p].Mul(world[j]).Normalize()
		}
	}
	return world
}

// TestRetargetChains: what a joint's world motion depends on beyond its
// own track and parent.
func TestRetargetChains(t *testing.T) {
	t.Run("root travel turned with the facing", func(t *testing.T) {
		// The target faces +X where the source faces +Z (a quarter turn
		// about Y): the source's root walking 1 along +Z walks the
		// target's 1 along +X.
		from, to := animtest.Humanoid(), turned(90)
		joints := make([]int, from.NumJoints())
		var pairs [][2]int
		for j := range joints {
			joints[j] = j
			pairs = append(pairs, [2]int{j, j})
		}
		rest := from.Rest[0].Translation
		src := anim.Clip{Name: "walk", Duration: 1, Tracks: []anim.Track{
			{Joint: 0, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{rest[0], rest[1], rest[2], rest[0], rest[1], rest[2] + 1}},
		}}
		got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: joints, Root: 0, Turn: asset.FacingTurn(from, to, pairs)})
		if err != nil {
			t.Fatal(err)
		}
		tr := trackOf(&got, 0, anim.Translation)
		if tr == nil || len(tr.Values) != 6 {
			t.Fatalf("root translation %+v; want two keys", tr)
		}
		if d := (mgl32.Vec3{tr.Values[3] - tr.Values[0], tr.Values[4] - tr.Values[1], tr.Values[5] - tr.Values[2]}); !animtest.VecApprox(d, mgl32.Vec3{1, 0, 0}, 1e-5) {
			t.Errorf("the target's root travels %v; want (1, 0, 0), the source's +Z turned onto +X", d)
		}
	})
	t.Run("an unmapped parent's keys", func(t *testing.T) {
		// The source's j1, which no target joint follows, turns 90° about
		// Z and back, keyed at 0, 0.5 and 1; its child j2, keyed at no
		// time of its own, drives the target's j1: the target's keys are
		// at the parent's times, 90° about Z half-way.
		from, to := animtest.Chain(3), animtest.Chain(2)
		src := anim.Clip{Name: "wave", Duration: 1, Tracks: []anim.Track{
			{Joint: 1, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 0.5, 1}, Values: quatKeys(mgl32.QuatIdent(), animtest.RotZ(90), mgl32.QuatIdent())},
		}}
		got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, -1, 1}, Root: -1})
		if err != nil {
			t.Fatal(err)
		}
		tr := trackOf(&got, 1, anim.Rotation)
		if tr == nil || !slices.Equal(tr.Times, []float32{0, 0.5, 1}) {
			t.Fatalf("target j1's rotation %+v; want keys at 0, 0.5 and 1", tr)
		}
		if q := (mgl32.Quat{W: tr.Values[7], V: mgl32.Vec3{tr.Values[4], tr.Values[5], tr.Values[6]}}); !animtest.QuatApprox(q, animtest.RotZ(90), 1e-6) {
			t.Errorf("target j1 at 0.5 s: %v; want 90° about Z", q)
		}
	})
	t.Run("unmapped joints above in the target", func(t *testing.T) {
		// The target's j0 and j1, which no source joint drives, rest
		// turned (90° about Y, then 90° about Z); its j2 follows the
		// source's j1, which turns 30° about the world's X: so does j2
		// in the world, from its rest, Ry(90°)·Rz(90°).
		from, to := animtest.Chain(2), animtest.Chain(3)
		to.Rest[0].Rotation = mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
		to.Rest[1].Rotation = animtest.RotZ(90)
		rx30 := mgl32.QuatRotate(math.Pi/6, mgl32.Vec3{1, 0, 0})
		src := anim.Clip{Name: "lift", Duration: 1, Tracks: []anim.Track{
			{Joint: 1, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: quatKeys(mgl32.QuatIdent(), rx30)},
		}}
		got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{-1, 2}, Root: -1})
		if err != nil {
			t.Fatal(err)
		}
		restWorld := to.Rest[0].Rotation.Mul(to.Rest[1].Rotation)
		if w := worldRotations(t, &got, to, 1)[2]; !animtest.QuatApprox(w, rx30.Mul(restWorld), 1e-5) {
			t.Errorf("target j2's world rotation at 1 s: %v; want 30° about X from its rest, %v", w, rx30.Mul(restWorld))
		}
	})
}

// The baked keys' times, for a CUBICSPLINE interval that does not start
// at 0 (eight samples of [0.5, 1.5]) on the root and a STEP key at 1.25
// on its child (and one a thousandth of its interval [1, 1.25] before
// it, so that the step stays a step): every key of each joint the map
// drives, the root's included.
func TestRetargetBakeTimes(t *testing.T) {
	from, to := animtest.Chain(2), animtest.Chain(2)
	zero := mgl32.Quat{}
	src := anim.Clip{Name: "late", Duration: 2, Tracks: []anim.Track{
		{Joint: 0, Path: anim.Rotation, Interp: anim.CubicSpline, Times: []float32{0.5, 1.5},
			Values: quatKeys(zero, mgl32.QuatIdent(), zero, zero, animtest.RotZ(40), zero)},
		{Joint: 1, Path: anim.Rotation, Interp: anim.Step, Times: []float32{1, 1.25}, Values: quatKeys(mgl32.QuatIdent(), animtest.RotZ(30))},
	}}
	got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, 1}, Root: -1})
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{0.5, 0.625, 0.75, 0.875, 1, 1.125, 1.25 - 0.25e-3, 1.25, 1.375, 1.5}
	for _, j := range []int{0, 1} {
		tr := trackOf(&got, j, anim.Rotation)
		if tr == nil || tr.Interp != anim.Linear || len(tr.Times) != len(want) {
			t.Errorf("j%d: rotation track %+v; want LINEAR keys at %v", j, tr, want)
			continue
		}
		for k, w := range want {
			if d := tr.Times[k] - w; d > 1e-6 || d < -1e-6 {
				t.Errorf("j%d: keys at %v; want %v", j, tr.Times, want)
				break
			}
		}
	}
	// The root alone driven: the child's step adds no key.
	got, err = asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, -1}, Root: -1})
	if err != nil {
		t.Fatal(err)
	}
	if tr := trackOf(&got, 0, anim.Rotation); tr == nil || !slices.Equal(tr.Times, []float32{0.5, 0.625, 0.75, 0.875, 1, 1.125, 1.25, 1.375, 1.5}) {
		t.Errorf("root alone: rotation track %+v; want keys every 1/8 s from 0.5 to 1.5", tr)
	}
}

// points is a skeleton of roots standing at ps (no parents, no turns).
func points(ps ...mgl32.Vec3) *anim.Skeleton {
	sk := &anim.Skeleton{}
	for i, p := range ps {
		sk.Names = append(sk.Names, fmt.Sprintf("p%d", i))
		sk.Parents = append(sk.Parents, -1)
		tr := anim.IdentityTransform
		tr.Translation = p
		sk.Rest = append(sk.Rest, tr)
	}
	return sk
}

// FacingTurn's guards at their bounds, worked out by hand. Horizontal
// spread: two joints at (0, 0, ±x) and 28 apart in height spread x² + x²
// horizontally of 2x² + 2·14² in all: a share of 0.02 for x = 2 (over a
// hundredth: the quarter turn found), 0.005 for x = 1 (under: none), on
// either side. Agreement: a horizontal cross a = (1, −1, i, −i) (offsets
// as z + ix) against i·(a + 3.18·m), m its mirror (1, −1, −i, i), which
// is orthogonal to it: |Σ conj(a)·b| = 4 against √(4 · 4·(1 + 3.18²)),
// a correlation of 0.3, under a half: no turn, though the best is a
// quarter.
func TestFacingTurnBounds(t *testing.T) {
	quarter := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
	turn := func(ps ...mgl32.Vec3) []mgl32.Vec3 { // by a quarter about +Y: (x, y, z) → (z, y, −x)
		out := make([]mgl32.Vec3, len(ps))
		for i, p := range ps {
			out[i] = mgl32.Vec3{p[2], p[1], -p[0]}
		}
		return out
	}
	wide := []mgl32.Vec3{{0, 0, 2}, {0, 28, -2}}
	narrow := []mgl32.Vec3{{0, 0, 1}, {0, 28, -1}}
	cross := []mgl32.Vec3{{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {-1, 0, 0}}
	const v = 3.18
	// i·(a + v·m): (z, x) of each: 1+v → x = 1+v; −1−v → x = −1−v; i(1−v) → z = −(1−v); −i(1−v) → z = 1−v.
	disagree := []mgl32.Vec3{{1 + v, 0, 0}, {-1 - v, 0, 0}, {0, 0, v - 1}, {0, 0, 1 - v}}
	for _, c := range []struct {
		name     string
		from, to []mgl32.Vec3
		want     mgl32.Quat
	}{
		{"spread a fiftieth", wide, turn(wide...), quarter},
		{"source spread under a hundredth", narrow, turn(narrow...), mgl32.QuatIdent()},
		{"source spread under a hundredth, target's over", narrow, turn(wide...), mgl32.QuatIdent()},
		{"target spread under a hundredth", wide, turn(narrow...), mgl32.QuatIdent()},
		{"a cross against its mirror, mixed", cross, disagree, mgl32.QuatIdent()},
	} {
		from, to := points(c.from...), points(c.to...)
		var pairs [][2]int
		for k := range c.from {
			pairs = append(pairs, [2]int{k, k})
		}
		if got := asset.FacingTurn(from, to, pairs); !animtest.QuatApprox(got, c.want, 1e-6) {
			t.Errorf("%s: turn %v; want %v", c.name, got, c.want)
		}
	}
}

// A root that passes through its parent's origin, from p to −p, is
// moving, not constant: its baked translation keeps both keys (a rotation
// q and −q is one rotation; a translation p and −p is not).
func TestRetargetRootThroughTheOrigin(t *testing.T) {
	from, to := animtest.Chain(2), animtest.Chain(2)
	src := anim.Clip{Name: "cross", Duration: 1, Tracks: []anim.Track{
		{Joint: 0, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0.5, 0.2, 0, -0.5, -0.2, 0}},
	}}
	got, err := asset.Retarget(&src, from, to, &asset.RetargetMap{Joint: []int{0, 1}, Root: 0})
	if err != nil {
		t.Fatal(err)
	}
	tr := trackOf(&got, 0, anim.Translation)
	want := []float32{0.5, 0.2, 0, -0.5, -0.2, 0}
	if tr == nil || len(tr.Times) != 2 || len(tr.Values) != 6 {
		t.Fatalf("root translation %+v; want keys %v at 0 and 1", tr, want)
	}
	for i, w := range want {
		if d := tr.Values[i] - w; d > 1e-6 || d < -1e-6 {
			t.Fatalf("root translation %v; want %v", tr.Values, want)
		}
	}
}
