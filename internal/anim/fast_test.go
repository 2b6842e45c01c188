package anim_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// Tests of the fast pipeline (RuntimeClip, SampleSoAJob, BlendSoA,
// ModelPaletteJob, Crowd) against the generic jobs, whose results are the
// reference, on every kernel path the build and CPU can run.

// randQuat is a random unit quaternion.
func randQuat(r *rand.Rand) mgl32.Quat {
	for {
		q := mgl32.Quat{W: r.Float32()*2 - 1, V: mgl32.Vec3{r.Float32()*2 - 1, r.Float32()*2 - 1, r.Float32()*2 - 1}}
		if l := q.Len(); l > 0.1 && l < 1 {
			return q.Normalize()
		}
	}
}

func randTransform(r *rand.Rand) anim.Transform {
	return anim.Transform{
		Translation: mgl32.Vec3{r.Float32()*2 - 1, r.Float32()*2 - 1, r.Float32()*2 - 1},
		Rotation:    randQuat(r),
		Scale:       mgl32.Vec3{0.5 + r.Float32(), 0.5 + r.Float32(), 0.5 + r.Float32()},
	}
}

// randTransforms is n random transforms (randTransform).
func randTransforms(r *rand.Rand, n int) []anim.Transform {
	pose := make([]anim.Transform, n)
	for i := range pose {
		pose[i] = randTransform(r)
	}
	return pose
}

// transformApprox compares two transforms, rotations up to sign.
func transformApprox(a, b anim.Transform, epsilon float32) bool {
	return animtest.VecApprox(a.Translation, b.Translation, epsilon) && animtest.VecApprox(a.Scale, b.Scale, epsilon) &&
		animtest.QuatApprox(a.Rotation, b.Rotation, epsilon)
}

// mixedClip animates a 4-joint chain with every kind of track: LINEAR
// translation, rotation (keys more than 90° apart in 4D, so that the
// hemisphere alignment matters) and scale on their own timelines, STEP and
// CUBICSPLINE tracks, a one-key track, a track overridden by a later one,
// and joint 3 with no track at all (rest pose).
func mixedClip() (*anim.Skeleton, anim.Clip) {
	sk := animtest.Chain(4)
	sk.Rest[3].Rotation = animtest.RotZ(30)
	sk.Rest[3].Scale = mgl32.Vec3{2, 2, 2}
	rot := anim.Track{Joint: 1, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 0.4, 1.1, 2}}
	for _, q := range []mgl32.Quat{animtest.RotZ(0), animtest.RotZ(170).Scale(-1), animtest.RotZ(-40), mgl32.QuatRotate(1, mgl32.Vec3{0.6, 0.8, 0})} {
		rot.Values = append(rot.Values, q.V[0], q.V[1], q.V[2], q.W)
	}
	cubicRot := anim.Track{Joint: 2, Path: anim.Rotation, Interp: anim.CubicSpline, Times: []float32{0.5, 1.5}}
	q0, q1 := animtest.RotZ(10), animtest.RotZ(80)
	cubicRot.Values = []float32{
		0, 0, 0, 0, q0.V[0], q0.V[1], q0.V[2], q0.W, 0, 0, 0.3, 0.1,
		0, 0, 0.2, 0, q1.V[0], q1.V[1], q1.V[2], q1.W, 0, 0, 0, 0,
	}
	c := anim.Clip{Name: "mixed", Duration: 2, Tracks: []anim.Track{
		{Joint: 0, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1, 2}, Values: []float32{9, 9, 9, 9, 9, 9, 9, 9, 9}},
		{Joint: 0, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0.25, 0.5, 1.75}, Values: []float32{0, 0, 0, 1, 2, 3, -1, 0.5, 2}},
		{Joint: 0, Path: anim.Scale, Interp: anim.Step, Times: []float32{0, 0.6, 1.2}, Values: []float32{1, 1, 1, 2, 2, 2, 0.5, 1, 3}},
		rot,
		{Joint: 1, Path: anim.Translation, Interp: anim.CubicSpline, Times: []float32{0, 1, 2}, Values: []float32{
			0, 0, 0, 1, 0, 0, 1, 1, 0,
			0.5, 0, 0, 2, 1, 0, -1, 0, 0,
			0, 0, 1, 0, 0, 2, 0, 0, 0,
		}},
		cubicRot,
		{Joint: 2, Path: anim.Scale, Interp: anim.Linear, Times: []float32{0.7}, Values: []float32{3, 2, 1}},
		{Joint: 2, Path: anim.Translation, Interp: anim.Step, Times: []float32{0.3}, Values: []float32{0, 5, 0}},
	}}
	return sk, c
}

// TestSampleSoAMatchesSampleJob samples the mixed clip at key times,
// between keys, outside them, and in jumps back and forth, with cursors
// kept between calls, and compares with refSampleJob.
func TestSampleSoAMatchesSampleJob(t *testing.T) {
	sk, clip := mixedClip()
	rc, err := anim.NewRuntimeClip(&clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	times := []float32{-1, 0, 0.1, 0.25, 0.3, 0.4, 0.45, 0.5, 0.6, 0.99, 1, 1.1, 1.2, 1.5, 1.75, 1.9, 2, 2.5, 0.2, 1.3, -5, 7, 0.41}
	for i := range 100 {
		times = append(times, float32(i)/60)
	}
	for _, path := range kernelPaths() {
		t.Run(path, func(t *testing.T) {
			anim.SetKernelPath(path)
			defer kernelPaths()
			ref := refSampleJob{Clip: &clip, Rest: sk.Rest, Cursors: make([]int, len(clip.Tracks)), Output: make([]anim.Transform, 4)}
			job := rc.NewSampleJob(false, anim.NewSoAPose(4))
			for _, tm := range times {
				ref.Time, job.Time = tm, tm
				ref.Run()
				job.Run()
				for j := range 4 {
					if got := job.Output.At(j); !transformApprox(got, ref.Output[j], 2e-6) {
						t.Fatalf("t=%v joint %d: %+v, refSampleJob %+v", tm, j, got, ref.Output[j])
					}
				}
			}
		})
	}
}

// TestSampleHeldPaths samples clips of the 9-joint chain (two groups of
// lanes, the second mostly padding) some of whose paths hold one value in
// every lane: no track, a one-key track, a STEP one-key track (a shadow
// that sampleOtherLanes overwrites), and an unnormalized rest rotation.
// Those paths are copied rather than interpolated (RuntimeClip.still); the
// samples must match refSampleJob on every kernel path, slerp and nlerp,
// and the padding lanes hold the identity.
func TestSampleHeldPaths(t *testing.T) {
	sk := animtest.Chain(9)
	sk.Rest[4].Rotation = mgl32.Quat{W: 2, V: mgl32.Vec3{0, 0, 2}} // unit only once normalized
	sk.Rest[5].Scale = mgl32.Vec3{1, 2, 3}
	spin := anim.Track{Joint: 7, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}}
	for _, q := range []mgl32.Quat{animtest.RotZ(0), animtest.RotZ(90)} {
		spin.Values = append(spin.Values, q.V[0], q.V[1], q.V[2], q.W)
	}
	move := anim.Track{Joint: 8, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, 2, 3}}
	held := []anim.Track{
		{Joint: 2, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0.5}, Values: []float32{4, 5, 6}},
		{Joint: 3, Path: anim.Scale, Interp: anim.Step, Times: []float32{0.2}, Values: []float32{2, 2, 2}},
		{Joint: 6, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0.3}, Values: []float32{0, 0, 0.6, 0.8}},
	}
	for _, tc := range []struct {
		name  string
		clip  anim.Clip
		still uint8
	}{
		{"rotation-only", anim.Clip{Duration: 1, Tracks: append([]anim.Track{spin}, held...)}, 1<<anim.Translation | 1<<anim.Scale},
		{"translation-only", anim.Clip{Duration: 1, Tracks: append([]anim.Track{move}, held...)}, 1<<anim.Rotation | 1<<anim.Scale},
		{"all-held", anim.Clip{Duration: 1, Tracks: held}, 1<<anim.Translation | 1<<anim.Rotation | 1<<anim.Scale},
		{"none-held", anim.Clip{Duration: 1, Tracks: append([]anim.Track{spin, move, {Joint: 0, Path: anim.Scale, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{1, 1, 1, 2, 2, 2}}}, held...)}, 0},
	} {
		rc, err := anim.NewRuntimeClip(&tc.clip, sk)
		if err != nil {
			t.Fatal(err)
		}
		if rc.FieldStill() != tc.still {
			t.Errorf("%s: held paths %03b, want %03b", tc.name, rc.FieldStill(), tc.still)
		}
		eachKernelPath(func(path string) {
			for _, nlerp := range []bool{false, true} {
				ref := refSampleJob{Clip: &tc.clip, Rest: sk.Rest, Cursors: make([]int, len(tc.clip.Tracks)), Output: make([]anim.Transform, 9)}
				job := rc.NewSampleJob(nlerp, anim.NewSoAPose(9))
				for _, tm := range []float32{0, 0.25, 0.7, 1, 0.1} {
					ref.Time, job.Time = tm, tm
					ref.Run()
					job.Run()
					for j := range 9 {
						want := ref.Output[j]
						if nlerp {
							// Rotations come out normalized; joint 7's
							// spin between keys, the nlerp of its keys.
							want.Rotation = want.Rotation.Normalize()
							if j == 7 && tc.still&(1<<anim.Rotation) == 0 {
								want.Rotation = anim.Nlerp(animtest.RotZ(0), animtest.RotZ(90), tm)
							}
						}
						if got := job.Output.At(j); !transformApprox(got, want, 2e-6) {
							t.Fatalf("%s %s nlerp=%v t=%v joint %d: %+v, want %+v", tc.name, path, nlerp, tm, j, got, want)
						}
					}
					p := job.Output
					for j := 9; j < len(p.FieldTx()); j++ {
						if id := (anim.Transform{Translation: mgl32.Vec3{p.FieldTx()[j], p.FieldTy()[j], p.FieldTz()[j]}, Rotation: mgl32.Quat{W: p.FieldQw()[j], V: mgl32.Vec3{p.FieldQx()[j], p.FieldQy()[j], p.FieldQz()[j]}}, Scale: mgl32.Vec3{p.FieldSx()[j], p.FieldSy()[j], p.FieldSz()[j]}}); id != anim.IdentityTransform {
							t.Fatalf("%s %s t=%v padding lane %d holds %+v", tc.name, path, tm, j, id)
						}
					}
				}
			}
		})
	}
}

// TestSampleSoANlerp checks Nlerp mode on a rotation track against Nlerp
// of the two keys around each time.
func TestSampleSoANlerp(t *testing.T) {
	sk := animtest.Chain(1)
	keys := []mgl32.Quat{animtest.RotZ(0), animtest.RotZ(100), mgl32.QuatRotate(2, mgl32.Vec3{1, 0, 0}).Scale(-1)}
	tr := anim.Track{Joint: 0, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1, 3}}
	for _, q := range keys {
		tr.Values = append(tr.Values, q.V[0], q.V[1], q.V[2], q.W)
	}
	clip := anim.Clip{Tracks: []anim.Track{tr}}
	rc, err := anim.NewRuntimeClip(&clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	job := anim.SampleSoAJob{Clip: rc, Nlerp: true, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(1)}
	for _, tc := range []struct {
		time float32
		want mgl32.Quat
	}{
		{-1, keys[0]}, {0.25, anim.Nlerp(keys[0], keys[1], 0.25)}, {1, keys[1]},
		{2.5, anim.Nlerp(keys[1], keys[2], 0.75)}, {4, keys[2]}, {0.5, anim.Nlerp(keys[0], keys[1], 0.5)},
	} {
		job.Time = tc.time
		job.Run()
		if got := job.Output.At(0).Rotation; !animtest.QuatApprox(got, tc.want, 1e-6) {
			t.Errorf("t=%v: %v, want %v", tc.time, got, tc.want)
		}
	}
}

// TestSlerpPolyAccuracy compares the polynomial slerp with a float64
// slerp from the definition (slerpDef) over angles up to 180° (the
// shortest arc of any pair), and over arcs near each length where the
// series is cut shorter (slerpShort2), where it must stay as close.
func TestSlerpPolyAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for i := range 4000 {
		a, b, u := slerpCase(r, i)
		x, y, z, w := anim.SlerpPoly(a.V[0], a.V[1], a.V[2], a.W, b.V[0], b.V[1], b.V[2], b.W, u)
		worst = max(worst, slerpError(a, b, u, [4]float32{x, y, z, w}))
	}
	if worst > 1e-6 {
		t.Fatalf("polynomial slerp is %g from the definition; want ≤ 1e-6", worst)
	}
}

// slerpCase is case i of the slerp accuracy tests: two random keys, or
// nearly equal ones, or a key and one turned from it by an arc just
// inside or outside a length where slerpPoly's series is cut shorter
// (x = cos(θ/2) at 0.99, 0.95 and 0.9), and a random u.
func slerpCase(r *rand.Rand, i int) (a, b mgl32.Quat, u float32) {
	a, b = randQuat(r), randQuat(r)
	axis := mgl32.Vec3{r.Float32() - 0.5, r.Float32() - 0.5, r.Float32() - 0.5}.Normalize()
	switch k := i % 10; {
	case k == 0:
		b = a.Mul(mgl32.QuatRotate(r.Float32()*1e-3, axis)) // nearly equal keys
	case k <= 6:
		x := [...]float64{0.99, 0.95, 0.9}[(k-1)/2]
		angle := 2 * math.Acos(x) * (1 + float64(r.Float32()-0.5)*0.02)
		b = a.Mul(mgl32.QuatRotate(float32(angle), axis))
	}
	return a, b, r.Float32()
}

// slerpError is the largest component difference of got from
// slerpDef(a, b, u).
func slerpError(a, b mgl32.Quat, u float32, got [4]float32) float64 {
	want := slerpDef(a, b, u)
	worst := 0.0
	for k := range got {
		worst = max(worst, math.Abs(float64(got[k])-want[k]))
	}
	return worst
}

// slerpDef is the shortest-arc slerp from its definition in float64,
// sin((1−u)θ)/sin θ · a + sin(uθ)/sin θ · b, as x, y, z, w.
func slerpDef(a, b mgl32.Quat, u float32) [4]float64 {
	av := [4]float64{float64(a.V[0]), float64(a.V[1]), float64(a.V[2]), float64(a.W)}
	bv := [4]float64{float64(b.V[0]), float64(b.V[1]), float64(b.V[2]), float64(b.W)}
	d := av[0]*bv[0] + av[1]*bv[1] + av[2]*bv[2] + av[3]*bv[3]
	if d < 0 {
		d = -d
		for k := range bv {
			bv[k] = -bv[k]
		}
	}
	theta := math.Acos(min(d, 1))
	wa, wb := 1-float64(u), float64(u)
	if s := math.Sin(theta); s > 1e-12 {
		wa, wb = math.Sin((1-float64(u))*theta)/s, math.Sin(float64(u)*theta)/s
	}
	var q [4]float64
	for k := range q {
		q[k] = wa*av[k] + wb*bv[k]
	}
	return q
}

// TestBlendSoAMatchesLerpPose blends random poses and compares with
// refLerpPose (slerp and nlerp); weights at or past the ends copy exactly.
func TestBlendSoAMatchesLerpPose(t *testing.T) {
	const n = 37 // not a whole number of vector blocks
	r := rand.New(rand.NewPCG(3, 4))
	a, b := make([]anim.Transform, n), make([]anim.Transform, n)
	for i := range a {
		a[i], b[i] = randTransform(r), randTransform(r)
	}
	sa, sb, out := anim.NewSoAPose(n), anim.NewSoAPose(n), anim.NewSoAPose(n)
	sa.FromTransforms(a)
	sb.FromTransforms(b)
	want, got := make([]anim.Transform, n), make([]anim.Transform, n)
	eachKernelPath(func(path string) {
		for _, nlerp := range []bool{false, true} {
			for _, w := range []float32{-1, 0, 0.3, 0.5, 0.9, 1, 2} {
				anim.BlendSoA(out, sa, sb, w, nlerp)
				out.ToTransforms(got)
				if nlerp {
					refLerpPose(want, a, b, w, true)
				} else {
					refLerpPose(want, a, b, w, false)
				}
				for i := range got {
					exact := w <= 0 || w >= 1
					if exact && got[i] != want[i] || !exact && !transformApprox(got[i], want[i], 2e-6) {
						t.Fatalf("%s nlerp=%v w=%v joint %d: %+v, want %+v", path, nlerp, w, i, got[i], want[i])
					}
				}
			}
		}
		// In place, as the crowd blends.
		out.CopyFrom(sa)
		anim.BlendSoA(out, out, sb, 0.25, true)
		out.ToTransforms(got)
		refLerpPose(want, a, b, 0.25, true)
		for i := range got {
			if !transformApprox(got[i], want[i], 2e-6) {
				t.Fatalf("%s in place joint %d: %+v, want %+v", path, i, got[i], want[i])
			}
		}
	})
}

// TestDifferenceClipOneComponentApart gives a difference clip STEP
// rotation keys that differ from the reference's rotation r in one
// component's sign each (x, y, z, then w): none is r, so none is the
// identity; each is r⁻¹ ⊗ key, worked out here in float64.
func TestDifferenceClipOneComponentApart(t *testing.T) {
	sk := animtest.Chain(1)
	r := mgl32.QuatRotate(1, mgl32.Vec3{1, 2, 3}.Normalize())
	rv := [4]float32{r.V[0], r.V[1], r.V[2], r.W}
	clip := anim.Clip{Name: "signs", Duration: 3}
	tr := anim.Track{Joint: 0, Path: anim.Rotation, Interp: anim.Step}
	for c := range 4 {
		k := rv
		k[c] = -k[c]
		tr.Times = append(tr.Times, float32(c))
		tr.Values = append(tr.Values, k[:]...)
	}
	clip.Tracks = []anim.Track{tr}
	rc, err := anim.NewRuntimeClip(&clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	ref := anim.NewPose(sk)
	ref.Set(0, anim.Transform{Rotation: r, Scale: mgl32.Vec3{1, 1, 1}})
	d := rc.DifferenceClip(ref)
	if d == nil {
		t.Fatal("no difference clip")
	}
	job := d.NewSampleJob(false, anim.NewPose(sk))
	for c := range 4 {
		job.Time = float32(c)
		job.Run()
		k := rv
		k[c] = -k[c]
		// r⁻¹ ⊗ k, r⁻¹ = (−x, −y, −z, w).
		ax, ay, az, aw := -float64(rv[0]), -float64(rv[1]), -float64(rv[2]), float64(rv[3])
		bx, by, bz, bw := float64(k[0]), float64(k[1]), float64(k[2]), float64(k[3])
		want := [4]float64{aw*bx + bw*ax + ay*bz - az*by, aw*by + bw*ay + az*bx - ax*bz, aw*bz + bw*az + ax*by - ay*bx, aw*bw - ax*bx - ay*by - az*bz}
		got := animtest.FromSoA(job.Output)[0].Rotation
		g := [4]float64{float64(got.V[0]), float64(got.V[1]), float64(got.V[2]), float64(got.W)}
		dot := g[0]*want[0] + g[1]*want[1] + g[2]*want[2] + g[3]*want[3]
		if math.Abs(math.Abs(dot)-1) > 1e-6 {
			t.Errorf("key %d (component %d negated): difference %v; want %v", c, c, got, want)
		}
	}
}

// TestDifferenceClipMatchesDifferenceSoA samples a clip's difference clip
// against DifferenceSoA of the clip's own sample, at times before, across
// and after its keys, for a reference sampled from the clip and for an
// unrelated one (with a zero scale): LINEAR and STEP tracks, CUBICSPLINE
// translations and scales, one-key tracks, joints without tracks and
// morph weights. Joints the clip leaves as the reference has them come
// out as the identity exactly.
func TestDifferenceClipMatchesDifferenceSoA(t *testing.T) {
	const n = 6
	rng := rand.New(rand.NewPCG(21, 21))
	rnd := func(lo, hi float32) float32 { return lo + (hi-lo)*rng.Float32() }
	unitQ := func() []float32 {
		q := mgl32.Quat{W: rnd(-1, 1), V: mgl32.Vec3{rnd(-1, 1), rnd(-1, 1), rnd(-1, 1)}}.Normalize()
		return []float32{q.V[0], q.V[1], q.V[2], q.W}
	}
	sk := &anim.Skeleton{Names: make([]string, n), Parents: rootParents(n), Rest: make([]anim.Transform, n), MorphRest: []float32{0.25, -0.5, 1}, MorphJoint: []int{4, 4, 5}}
	for j := range n {
		sk.Names[j] = fmt.Sprint("j", j)
		q := unitQ()
		sk.Rest[j] = anim.Transform{Translation: mgl32.Vec3{rnd(-1, 1), rnd(0, 2), rnd(-1, 1)}, Rotation: mgl32.Quat{W: q[3], V: mgl32.Vec3{q[0], q[1], q[2]}}, Scale: mgl32.Vec3{rnd(0.5, 2), 1, rnd(0.5, 2)}}
	}
	times := []float32{0.1, 0.4, 0.7, 1.2}
	track := func(j int, p anim.Path, interp anim.Interpolation) anim.Track {
		tr := anim.Track{Joint: j, Path: p, Interp: interp, Times: times}
		for range times {
			groups := 1
			if interp == anim.CubicSpline {
				groups = 3
			}
			for g := range groups {
				switch {
				case p == anim.Rotation && (g == 1 || groups == 1):
					tr.Values = append(tr.Values, unitQ()...)
				case p == anim.Rotation:
					tr.Values = append(tr.Values, rnd(-2, 2), rnd(-2, 2), rnd(-2, 2), rnd(-2, 2))
				case p == anim.Scale && (g == 1 || groups == 1):
					tr.Values = append(tr.Values, rnd(0.5, 2), rnd(0.5, 2), rnd(0.5, 2))
				default:
					tr.Values = append(tr.Values, rnd(-2, 2), rnd(-2, 2), rnd(-2, 2))
				}
			}
		}
		return tr
	}
	clip := anim.Clip{Name: "c", Duration: 1.2}
	for p := range anim.Path(3) {
		clip.Tracks = append(clip.Tracks, track(0, p, anim.Linear), track(1, p, anim.Step))
	}
	clip.Tracks = append(clip.Tracks, track(2, anim.Translation, anim.CubicSpline), track(2, anim.Scale, anim.CubicSpline))
	clip.Tracks = append(clip.Tracks, anim.Track{Joint: 3, Path: anim.Rotation, Times: []float32{0.3}, Values: unitQ()}, track(5, anim.Rotation, anim.Linear))
	clip.Morph = []anim.MorphTrack{
		{Channel: 0, Count: 1, Interp: anim.Linear, Times: times, Values: []float32{0, 1, 0.5, 0.2}},
		{Channel: 1, Count: 2, Interp: anim.CubicSpline, Times: times[:2], Values: []float32{1, -0.4, 0.3, 0.6, -1, 0.2, 2, 0.1, 0.9, -0.3, 0.5, 0.7}},
	}
	rc, err := anim.NewRuntimeClip(&clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	sample := func(rc *anim.RuntimeClip, tm float32, nlerp bool) *anim.SoAPose {
		out := anim.NewPose(sk)
		job := anim.SampleSoAJob{Clip: rc, Time: tm, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: out}
		job.Run()
		return out
	}
	other := anim.NewPose(sk)
	for j := range n {
		q := unitQ()
		other.Set(j, anim.Transform{Translation: mgl32.Vec3{rnd(-1, 1), rnd(-1, 1), rnd(-1, 1)}, Rotation: mgl32.Quat{W: q[3], V: mgl32.Vec3{q[0], q[1], q[2]}}, Scale: mgl32.Vec3{rnd(0.5, 2), 0, 1}})
	}
	copy(other.W, []float32{0.5, 0.5, 0.5})
	close := func(a, b float32) bool { return math.Abs(float64(a-b)) <= 2e-5*(1+math.Abs(float64(a))) }
	for _, tc := range []struct {
		name  string
		ref   *anim.SoAPose
		exact []int // joints that must be the identity exactly
	}{{"first frame", sample(rc, 0, false), []int{3, 4}}, {"another pose", other, nil}} {
		d := rc.DifferenceClip(tc.ref)
		if d == nil {
			t.Fatalf("%s: no difference clip", tc.name)
		}
		// A CUBICSPLINE rotation, normalized by sampling between its keys
		// only, and a reference of other morph weights are left to
		// DifferenceSoA.
		cubic := clip
		cubic.Tracks = append(slices.Clone(clip.Tracks), track(2, anim.Rotation, anim.CubicSpline))
		if rcc, err := anim.NewRuntimeClip(&cubic, sk); err != nil || rcc.DifferenceClip(tc.ref) != nil {
			t.Fatalf("%s: a difference clip of a CUBICSPLINE rotation (%v)", tc.name, err)
		}
		if rc.DifferenceClip(anim.NewSoAPose(n)) != nil {
			t.Fatalf("%s: a difference clip against a pose without morph weights", tc.name)
		}
		// Kept with the clip: controllers sharing it share its differences.
		same := anim.NewPose(sk)
		same.CopyFrom(tc.ref)
		if rc.DifferenceClip(same) != d {
			t.Fatalf("%s: a second difference clip for an equal reference", tc.name)
		}
		for _, nlerp := range []bool{false, true} {
			for tm := float32(-0.5); tm < 1.8; tm += 0.037 {
				want := sample(rc, tm, nlerp)
				anim.DifferenceSoA(want, want, tc.ref)
				got := sample(d, tm, nlerp)
				for j := range n {
					g, w := got.At(j), want.At(j)
					if !vecClose(g.Translation, w.Translation, close) || !vecClose(g.Scale, w.Scale, close) || !sameQuat(g.Rotation, w.Rotation, close) {
						t.Fatalf("%s, nlerp %v, t = %v, joint %d: difference clip gives %v, DifferenceSoA %v", tc.name, nlerp, tm, j, g, w)
					}
				}
				for k := range got.W {
					if !close(got.W[k], want.W[k]) {
						t.Fatalf("%s, t = %v: weight %d is %v, want %v", tc.name, tm, k, got.W[k], want.W[k])
					}
				}
				for _, j := range tc.exact {
					if got.At(j) != anim.IdentityTransform {
						t.Fatalf("%s, t = %v: joint %d is %v, want the identity exactly", tc.name, tm, j, got.At(j))
					}
				}
			}
		}
	}
}

func vecClose(a, b mgl32.Vec3, close func(a, b float32) bool) bool {
	return close(a[0], b[0]) && close(a[1], b[1]) && close(a[2], b[2])
}

// TestModelPaletteMatchesJobs compares ModelPaletteJob with
// refLocalToModelJob and refPaletteJob on the humanoid in a random pose, for a
// 1:1 skin (the fused path) and for a skin of some joints in another
// order.
func TestModelPaletteMatchesJobs(t *testing.T) {
	sk := animtest.Humanoid()
	n := sk.NumJoints()
	r := rand.New(rand.NewPCG(5, 6))
	pose := randTransforms(r, n)
	models := make([]mgl32.Mat4, n)
	(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
	full := &anim.Skin{Name: "full", Joints: make([]int, n), InverseBind: make([]mgl32.Mat4, n)}
	for i := range n {
		full.Joints[i] = i
		full.InverseBind[i] = randTransform(r).Mat4()
	}
	part := &anim.Skin{Name: "part", Joints: []int{7, 3, 3, 18, 0}}
	for range part.Joints {
		part.InverseBind = append(part.InverseBind, randTransform(r).Mat4())
	}
	soa := anim.NewSoAPose(n)
	soa.FromTransforms(pose)
	eachKernelPath(func(path string) {
		for _, skin := range []*anim.Skin{full, part} {
			want := make([]float32, anim.PaletteFloats*len(skin.Joints))
			(&refPaletteJob{Skin: skin, Models: models, Output: want}).Run()
			job := anim.ModelPaletteJob{Skeleton: sk, Skin: skin, Input: soa, Models: make([]float32, anim.PaletteFloats*n), Output: make([]float32, len(want))}
			if err := job.Validate(); err != nil {
				t.Fatal(err)
			}
			job.Run()
			for j := range n {
				var m [12]float32
				anim.WritePaletteEntry(m[:], &models[j])
				for k := range m {
					if !animtest.ApproxEqual(job.Models[j*12+k], m[k], 1e-5) {
						t.Fatalf("%s: model %d float %d = %v, want %v", path, j, k, job.Models[j*12+k], m[k])
					}
				}
			}
			for k := range want {
				if !animtest.ApproxEqual(job.Output[k], want[k], 1e-5) {
					t.Fatalf("%s skin %s: palette float %d = %v, want %v", path, skin.Name, k, job.Output[k], want[k])
				}
			}
		}
	})
}

// TestModelPaletteJobFollowsItsSkin runs one ModelPaletteJob and one
// PaletteJob, which keep their skin's inverse binds in row layout from
// frame to frame, while the skin changes: another skin, another matrix
// slice, another joint order, another skeleton, a matrix written in place
// and then Validate. Each time the palette is refPaletteJob's of the skin
// as it stands, and the PaletteJob's is the ModelPaletteJob's bit for bit.
func TestModelPaletteJobFollowsItsSkin(t *testing.T) {
	sk := animtest.Humanoid()
	n := sk.NumJoints()
	r := rand.New(rand.NewPCG(9, 10))
	pose := randTransforms(r, n)
	soa := anim.NewSoAPose(n)
	soa.FromTransforms(pose)
	skin := func(joints []int) *anim.Skin {
		s := &anim.Skin{Joints: joints}
		for range joints {
			s.InverseBind = append(s.InverseBind, randTransform(r).Mat4())
		}
		return s
	}
	ident := make([]int, n)
	for i := range ident {
		ident[i] = i
	}
	a, b := skin(ident), skin(slices.Clone(ident))
	job := anim.ModelPaletteJob{Skeleton: sk, Input: soa, Models: make([]float32, anim.PaletteFloats*n)}
	// pj follows the same skin from the job's model matrices, as a
	// model's second skin does: the same products, so the same bits.
	var pj anim.PaletteJob
	check := func(what string) {
		t.Helper()
		job.Output = make([]float32, anim.PaletteFloats*len(job.Skin.Joints))
		job.Run()
		pj.Skin, pj.Models, pj.Output = job.Skin, job.Models, make([]float32, len(job.Output))
		pj.Run()
		if !slices.Equal(pj.Output, job.Output) {
			t.Fatalf("%s: PaletteJob's palette differs from ModelPaletteJob's", what)
		}
		models := make([]mgl32.Mat4, job.Skeleton.NumJoints())
		(&refLocalToModelJob{Skeleton: job.Skeleton, Input: pose[:job.Skeleton.NumJoints()], Output: models}).Run()
		want := make([]float32, len(job.Output))
		(&refPaletteJob{Skin: job.Skin, Models: models, Output: want}).Run()
		for k := range want {
			if !animtest.ApproxEqual(job.Output[k], want[k], 1e-5) {
				t.Fatalf("%s: palette float %d = %v, want %v", what, k, job.Output[k], want[k])
			}
		}
	}
	eachKernelPath(func(path string) {
		job.Skin = a
		check(path + ", skin a")
		job.Skin = b
		check(path + ", skin b")
		b.InverseBind = slices.Clone(a.InverseBind)
		check(path + ", skin b with a's matrices in a new slice")
		b.Joints[3], b.Joints[4] = 4, 3
		b.Joints = slices.Clone(b.Joints)
		check(path + ", skin b with two joints swapped")
		b.Joints[3], b.Joints[4] = 3, 4
		b.Joints = slices.Clone(b.Joints)
		check(path + ", skin b 1:1 again")
		// Every joint moved, none where it was.
		shifted := append(slices.Clone(ident[1:]), 0)
		job.Skin = skin(shifted)
		check(path + ", a skin of the joints shifted by one")
		job.Skin = b
		job.Skin = a
		check(path + ", skin a again")
		a.InverseBind[5] = randTransform(r).Mat4()
		if err := job.Validate(); err != nil {
			t.Fatal(err)
		}
		pj.Output = make([]float32, len(job.Output))
		if err := pj.Validate(); err != nil {
			t.Fatal(err)
		}
		check(path + ", skin a written in place, validated")
		short := &anim.Skeleton{Names: sk.Names[:9], Parents: sk.Parents[:9], Rest: sk.Rest[:9]}
		small := anim.NewSoAPose(9)
		small.FromTransforms(pose[:9])
		job.Skeleton, job.Input, job.Models = short, small, make([]float32, anim.PaletteFloats*9)
		job.Skin = &anim.Skin{Joints: ident[:9], InverseBind: a.InverseBind[:9]}
		check(path + ", a skeleton of 9 joints")
		job.Skeleton, job.Input, job.Models = sk, soa, make([]float32, anim.PaletteFloats*n)
		check(path + ", the same skin, 9 joints of the humanoid's 19")
	})
}

// The palette jobs' Validate on their edges: errors that count what they
// name, a joint that is its own parent, a skin joint one past the
// skeleton's, and a skin of no joints, which is valid and runs.
func TestModelPaletteValidateEdges(t *testing.T) {
	sk := animtest.Chain(3)
	job := func() *anim.ModelPaletteJob {
		return &anim.ModelPaletteJob{Skeleton: sk, Input: anim.NewSoAPose(3), Models: make([]float32, 36),
			Skin: &anim.Skin{Name: "s", Joints: []int{0, 1, 2}, InverseBind: make([]mgl32.Mat4, 3)}, Output: make([]float32, 36)}
	}
	j := job()
	j.Models = j.Models[:24]
	if err := j.Validate(); err == nil || !strings.Contains(err.Error(), "hold 24 floats; 3 joints need 36") {
		t.Errorf("short models: %v", err)
	}
	j = job()
	j.Output = j.Output[:12]
	if err := j.Validate(); err == nil || !strings.Contains(err.Error(), "holds 12 floats; skin \"s\" needs 36") {
		t.Errorf("short palette: %v", err)
	}
	j = job()
	j.Skeleton = &anim.Skeleton{Names: sk.Names, Parents: []int{-1, 1, 1}, Rest: sk.Rest}
	if err := j.Validate(); err == nil || !strings.Contains(err.Error(), "joint 1 has parent 1") {
		t.Errorf("a joint its own parent: %v", err)
	}
	p := anim.PaletteJob{Skin: &anim.Skin{Name: "s", Joints: []int{0, 3}, InverseBind: make([]mgl32.Mat4, 2)}, Models: make([]float32, 36), Output: make([]float32, 24)}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "joint 1 refers to model matrix 3 of 3") {
		t.Errorf("a skin joint past the skeleton's: %v", err)
	}
	p.Skin.Joints[1] = 2
	if err := p.Validate(); err != nil {
		t.Errorf("a skin of the last joint: %v", err)
	}
	j = job()
	j.Skin, j.Output = &anim.Skin{Name: "none"}, []float32{}
	if err := j.Validate(); err != nil {
		t.Fatalf("a skin of no joints: %v", err)
	}
	j.Run()
}

// TestSkinPaletteIsTheFusedOne checks that a skin which is not 1:1 (the
// humanoid's joints in reverse, then with its root left out), whose
// palette is a pass of its own, gets the bits the fused pass gives the
// same joints and matrices of a 1:1 skin, on every kernel path.
func TestSkinPaletteIsTheFusedOne(t *testing.T) {
	sk := animtest.Humanoid()
	n := sk.NumJoints()
	r := rand.New(rand.NewPCG(11, 12))
	soa := anim.NewSoAPose(n)
	soa.FromTransforms(randTransforms(r, n))
	full := &anim.Skin{Joints: make([]int, n), InverseBind: make([]mgl32.Mat4, n)}
	for i := range n {
		full.Joints[i], full.InverseBind[i] = i, randTransform(r).Mat4()
	}
	reversed := &anim.Skin{}
	for i := n - 1; i >= 0; i-- {
		reversed.Joints = append(reversed.Joints, i)
		reversed.InverseBind = append(reversed.InverseBind, full.InverseBind[i])
	}
	rootless := &anim.Skin{Joints: full.Joints[1:], InverseBind: full.InverseBind[1:]}
	run := func(skin *anim.Skin) []float32 {
		job := anim.ModelPaletteJob{Skeleton: sk, Skin: skin, Input: soa, Models: make([]float32, anim.PaletteFloats*n), Output: make([]float32, anim.PaletteFloats*len(skin.Joints))}
		job.Run()
		return job.Output
	}
	eachKernelPath(func(path string) {
		want := run(full)
		got := run(reversed)
		for s := range n {
			for k := range anim.PaletteFloats {
				if g, w := got[s*12+k], want[(n-1-s)*12+k]; math.Float32bits(g) != math.Float32bits(w) {
					t.Fatalf("%s: reversed skin entry %d float %d = %v, the fused pass gives %v", path, s, k, g, w)
				}
			}
		}
		if got := run(rootless); !slices.Equal(got, want[12:]) {
			t.Fatalf("%s: the rootless skin's palette differs from the fused pass's", path)
		}
	})
}

func TestSoAPoseRoundTrip(t *testing.T) {
	in := randTransforms(rand.New(rand.NewPCG(7, 8)), 20)
	p := anim.NewSoAPose(len(in))
	if p.Len() != 20 {
		t.Fatalf("Len = %d", p.Len())
	}
	if p.At(19) != anim.IdentityTransform {
		t.Fatalf("a new pose holds %+v, want identity", p.At(19))
	}
	p.FromTransforms(in)
	q := anim.NewSoAPose(len(in))
	q.CopyFrom(p)
	out := make([]anim.Transform, len(in))
	q.ToTransforms(out)
	if !animtest.PosesEqual(in, out) {
		t.Fatal("SoA round trip changed the pose")
	}
	for name, f := range map[string]func(){
		"At past the end":       func() { p.At(20) },
		"FromTransforms length": func() { p.FromTransforms(in[:3]) },
		"CopyFrom length":       func() { p.CopyFrom(anim.NewSoAPose(3)) },
		"BlendSoA length":       func() { anim.BlendSoA(p, p, anim.NewSoAPose(3), 0.5, false) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestFastJobsValidate breaks one field at a time.
func TestFastJobsValidate(t *testing.T) {
	sk, clip := mixedClip()
	rc, err := anim.NewRuntimeClip(&clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	skin := &anim.Skin{Joints: []int{0, 1, 2, 3}, InverseBind: make([]mgl32.Mat4, 4)}
	goodSample := func() anim.SampleSoAJob {
		return rc.NewSampleJob(false, anim.NewSoAPose(4))
	}
	goodPalette := func() anim.ModelPaletteJob {
		return anim.ModelPaletteJob{Skeleton: sk, Skin: skin, Input: anim.NewSoAPose(4), Models: make([]float32, 48), Output: make([]float32, 48)}
	}
	if j := goodSample(); j.Validate() != nil {
		t.Fatalf("valid sample job refused: %v", j.Validate())
	}
	if j := goodPalette(); j.Validate() != nil {
		t.Fatalf("valid palette job refused: %v", j.Validate())
	}
	sampleCases := []struct {
		name   string
		break_ func(j *anim.SampleSoAJob)
		says   string
	}{
		{"no clip", func(j *anim.SampleSoAJob) { j.Clip = nil }, ""},
		{"cursors", func(j *anim.SampleSoAJob) { j.Cursors = j.Cursors[1:] }, ""},
		{"no output", func(j *anim.SampleSoAJob) { j.Output = nil }, "no output pose"},
		{"output length", func(j *anim.SampleSoAJob) { j.Output = anim.NewSoAPose(3) }, "output has 3 joints"},
	}
	for _, tc := range sampleCases {
		j := goodSample()
		tc.break_(&j)
		if err := j.Validate(); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("sample job, %s: %v; want an error saying %q", tc.name, err, tc.says)
		}
	}
	paletteCases := []struct {
		name   string
		break_ func(j *anim.ModelPaletteJob)
	}{
		{"no skeleton", func(j *anim.ModelPaletteJob) { j.Skeleton = nil }},
		{"output without skin", func(j *anim.ModelPaletteJob) { j.Skin = nil }},
		{"no input", func(j *anim.ModelPaletteJob) { j.Input = nil }},
		{"input length", func(j *anim.ModelPaletteJob) { j.Input = anim.NewSoAPose(5) }},
		{"models length", func(j *anim.ModelPaletteJob) { j.Models = j.Models[:47] }},
		{"output length", func(j *anim.ModelPaletteJob) { j.Output = j.Output[:12] }},
		{"skin joint", func(j *anim.ModelPaletteJob) {
			j.Skin = &anim.Skin{Joints: []int{9}, InverseBind: make([]mgl32.Mat4, 1)}
			j.Output = j.Output[:12]
		}},
		{"inverse binds", func(j *anim.ModelPaletteJob) { j.Skin = &anim.Skin{Joints: []int{0}}; j.Output = j.Output[:12] }},
	}
	for _, tc := range paletteCases {
		j := goodPalette()
		tc.break_(&j)
		if j.Validate() == nil {
			t.Errorf("palette job, %s: accepted", tc.name)
		}
	}
	bad := clip
	bad.Tracks = append([]anim.Track{{Joint: 9, Path: anim.Scale, Times: []float32{0}, Values: []float32{1, 1, 1}}}, clip.Tracks...)
	for name, f := range map[string]func() error{
		"nil clip":     func() error { _, err := anim.NewRuntimeClip(nil, sk); return err },
		"nil skeleton": func() error { _, err := anim.NewRuntimeClip(&clip, nil); return err },
		"invalid clip": func() error { _, err := anim.NewRuntimeClip(&bad, sk); return err },
	} {
		if f() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestFastPipelineAllocatesNothing checks every per-frame call of the fast
// pipeline (the graph's TestCrowdAllocatesNothing checks the crowd).
func TestFastPipelineAllocatesNothing(t *testing.T) {
	sk, skin, clips := animtest.B2PSkeleton(), animtest.B2PSkin(), animtest.B2PClips()
	for _, nlerp := range []bool{false, true} {
		f := animtest.NewB2PFast(t, sk, skin, clips, nlerp)
		if a := testing.AllocsPerRun(100, f.Eval); a != 0 {
			t.Errorf("nlerp=%v: sample, blend and model-palette allocate %v times per frame", nlerp, a)
		}
	}
}
