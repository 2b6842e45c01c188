package anim_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// mocapClip is a dense, smooth clip: every joint of sk turning about a
// tilted axis by a few sines, and the root moving, keyed at 60 Hz for d
// seconds, like motion capture.
func mocapClip(sk *anim.Skeleton, d float32) anim.Clip {
	c := anim.Clip{Name: "Mocap", Duration: d}
	keys := int(d * 60)
	for j := range sk.NumJoints() {
		r := anim.Track{Joint: j, Path: anim.Rotation, Interp: anim.Linear}
		axis := mgl32.Vec3{0.3, 1, float32(j%3) * 0.2}.Normalize()
		for k := 0; k <= keys; k++ {
			t := float64(k) / 60
			a := 0.4*math.Sin(2*math.Pi*t*0.8+float64(j)) + 0.1*math.Sin(2*math.Pi*t*2.3)
			q := mgl32.QuatRotate(float32(a), axis)
			r.Times = append(r.Times, float32(t))
			r.Values = append(r.Values, q.V[0], q.V[1], q.V[2], q.W)
		}
		c.Tracks = append(c.Tracks, r)
	}
	root := anim.Track{Joint: 0, Path: anim.Translation, Interp: anim.Linear}
	for k := 0; k <= keys; k++ {
		t := float64(k) / 60
		root.Times = append(root.Times, float32(t))
		root.Values = append(root.Values, float32(0.5*t), float32(0.95+0.03*math.Sin(4*math.Pi*t)), 0)
	}
	c.Tracks = append(c.Tracks, root)
	return c
}

// cubicClip turns every LINEAR track of c into a CUBICSPLINE one through
// the same keys, with Catmull-Rom tangents (the slope between the keys on
// either side), as an exporter of smooth curves writes them.
func cubicClip(c anim.Clip) anim.Clip {
	out := anim.Clip{Name: c.Name + " cubic", Duration: c.Duration}
	for _, tr := range c.Tracks {
		nc := tr.Path.Components()
		n := len(tr.Times)
		ct := anim.Track{Joint: tr.Joint, Path: tr.Path, Interp: anim.CubicSpline, Times: tr.Times}
		for k := range n {
			lo, hi := max(k-1, 0), min(k+1, n-1)
			var tan [4]float32
			for c := range nc {
				if hi > lo {
					tan[c] = (tr.Values[hi*nc+c] - tr.Values[lo*nc+c]) / (tr.Times[hi] - tr.Times[lo])
				}
			}
			ct.Values = append(ct.Values, tan[:nc]...)
			ct.Values = append(ct.Values, tr.Values[k*nc:(k+1)*nc]...)
			ct.Values = append(ct.Values, tan[:nc]...)
		}
		out.Tracks = append(out.Tracks, ct)
	}
	return out
}

// virtualError is the test's own measure of the error ACL defines: the
// largest distance between the joint origins and the points 3 cm along
// each model axis (scaled by the matrix, and at 3 cm whatever the scale)
// under two model matrices in the palette's row layout.
func virtualError(a, b []float32) float64 {
	var worst float64
	point := func(m []float32, axis int, unit bool) mgl32.Vec3 {
		p := mgl32.Vec3{m[3], m[7], m[11]}
		if axis < 0 {
			return p
		}
		v := mgl32.Vec3{m[axis], m[4+axis], m[8+axis]}
		if unit {
			v = v.Normalize()
		}
		return p.Add(v.Mul(0.03))
	}
	for axis := -1; axis < 3; axis++ {
		for _, unit := range []bool{false, true} {
			d := point(a, axis, unit).Sub(point(b, axis, unit))
			worst = max(worst, math.Sqrt(float64(d.Dot(d))))
		}
	}
	return worst
}

// compressedError samples src with the reference sampler and rc with
// SampleSoAJob at times, computes both hierarchies with the reference
// local-to-model and returns the worst virtual-vertex error.
func compressedError(t *testing.T, sk *anim.Skeleton, src *anim.Clip, rc *anim.RuntimeClip, times []float32) float64 {
	t.Helper()
	n := sk.NumJoints()
	ref := refSampleJob{Clip: src, Rest: sk.Rest, Cursors: make([]int, len(src.Tracks)), Output: make([]anim.Transform, n)}
	out := anim.NewPose(sk)
	job := rc.NewSampleJob(false, out)
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, tm := range times {
		ref.Time, job.Time = tm, tm
		ref.Run()
		job.Run()
		a, b := refModelRows(sk, ref.Output), refModelRows(sk, animtest.FromSoA(out))
		for j := range n {
			worst = max(worst, virtualError(a[j*anim.PaletteFloats:], b[j*anim.PaletteFloats:]))
		}
	}
	return worst
}

// nlerpError is the worst virtual-vertex error between two runtime clips
// sampled with nlerp at times, through the reference local-to-model.
func nlerpError(sk *anim.Skeleton, a, b *anim.RuntimeClip, times []float32) float64 {
	worst := 0.0
	for _, tm := range times {
		pa, pb := sampleRuntimeNlerp(a, tm, sk), sampleRuntimeNlerp(b, tm, sk)
		ma, mb := refModelRows(sk, animtest.FromSoA(pa)), refModelRows(sk, animtest.FromSoA(pb))
		for j := range sk.NumJoints() {
			worst = max(worst, virtualError(ma[j*anim.PaletteFloats:], mb[j*anim.PaletteFloats:]))
		}
	}
	return worst
}

func sampleRuntimeNlerp(rc *anim.RuntimeClip, t float32, sk *anim.Skeleton) *anim.SoAPose {
	job := anim.SampleSoAJob{Clip: rc, Time: t, Nlerp: true, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewPose(sk)}
	job.Run()
	return job.Output
}

// keyTimes are every key time of c and the times half-way between.
func keyTimes(c *anim.Clip) []float32 {
	var ts []float32
	for _, tr := range c.Tracks {
		for k, t := range tr.Times {
			ts = append(ts, t)
			if k > 0 {
				ts = append(ts, (tr.Times[k-1]+t)/2)
			}
		}
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

func TestCompressBoundsVirtualVertexError(t *testing.T) {
	b2p := animtest.B2PClips()
	hum := animtest.Humanoid()
	cases := []struct {
		name     string
		sk       *anim.Skeleton
		clip     anim.Clip
		minRatio float64
	}{
		{"noise", animtest.B2PSkeleton(), b2p[0], 1.5},
		{"humanoid walk", hum, animtest.HumanoidClips(hum)[1], 3},
		{"mocap", hum, mocapClip(hum, 4), 3},
		// Splines become LINEAR keys, thinned out; kept as splines they
		// would take 40 bytes a key.
		{"mocap as splines", hum, cubicClip(mocapClip(hum, 2)), 1.5},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		for _, tol := range []float64{1e-4, 1e-3} {
			rc, rep, err := anim.CompressClip(&c.clip, c.sk, anim.CompressOptions{Tolerance: tol})
			if err != nil {
				t.Fatal(err)
			}
			// Random times, before and after the clip too, in order and
			// out of order (the cache and cursors must not matter).
			var times []float32
			for range 300 {
				times = append(times, -0.1+rng.Float32()*(c.clip.Duration+0.2))
			}
			random := compressedError(t, c.sk, &c.clip, rc, times)
			atKeys := compressedError(t, c.sk, &c.clip, rc, keyTimes(&c.clip))
			// Players that nlerp compare with the uncompressed clip
			// nlerped.
			raw, err := anim.NewRuntimeClip(&c.clip, c.sk)
			if err != nil {
				t.Fatal(err)
			}
			if e := nlerpError(c.sk, raw, rc, append(times, keyTimes(&c.clip)...)); e > tol {
				t.Errorf("%s at %g: error %.3g with nlerp; want ≤ %g", c.name, tol, e, tol)
			}
			t.Logf("%s at %g: %d → %d bytes (%.2f:1), error %.3g at random times, %.3g at keys; reported max %.3g, p99 %.3g",
				c.name, tol, rep.RawBytes, rep.Bytes, rep.Ratio(), random, atKeys, rep.MaxError, rep.P99Error)
			if random > tol || atKeys > tol {
				t.Errorf("%s at %g: error %.3g at random times, %.3g at keys; want ≤ %g", c.name, tol, random, atKeys, tol)
			}
			// The report checks the times the test checks at keys (and,
			// for splines, the times it samples them at as well).
			if atKeys > rep.MaxError+0.01*tol+2e-6 || (!strings.Contains(c.name, "splines") && atKeys < rep.MaxError-0.01*tol-2e-6) {
				t.Errorf("%s at %g: reported max error %.4g; the test measures %.4g", c.name, tol, rep.MaxError, atKeys)
			}
			if rep.P99Error > rep.MaxError {
				t.Errorf("%s: p99 %.3g above max %.3g", c.name, rep.P99Error, rep.MaxError)
			}
			if tol == 1e-4 && rep.Ratio() < c.minRatio {
				t.Errorf("%s: ratio %.2f:1; want ≥ %.1f", c.name, rep.Ratio(), c.minRatio)
			}
		}
	}
}

// looseB2P is Blend2Palette-100's clip A, whose random keys keep every
// key, with the tracks of paths on joints 10 and 57 keyed at every third
// key only (joint 10's translation along x through its parent's origin,
// joint 57's at two keys inside the clip), and compressed at 0.01 cm:
// those tracks, and they alone, lie outside the frames (checked). Their
// rotations turn twice about a leaning axis with a tremor, so that every
// component of the quaternion changes sign on the way: whichever is
// dropped, keys stored with it ≥ 0 flip hemisphere.
func looseB2P(t *testing.T, paths ...anim.Path) (*anim.Skeleton, *anim.Clip, *anim.RuntimeClip) {
	t.Helper()
	sk, clips := animtest.B2PSkeleton(), animtest.B2PClips()
	c := clips[0]
	c.Tracks = slices.Clone(c.Tracks)
	tremor := rand.New(rand.NewPCG(9, 10))
	for i := range c.Tracks {
		tr := &c.Tracks[i]
		if !slices.Contains(paths, tr.Path) || (tr.Joint != 10 && tr.Joint != 57) {
			continue
		}
		nc := tr.Path.Components()
		var times, values []float32
		for k := 0; k < len(tr.Times); k += 3 {
			times = append(times, tr.Times[k])
			u := float64(tr.Times[k]) / float64(c.Duration)
			if tr.Path == anim.Translation && tr.Joint == 10 {
				values = append(values, float32(u-0.5+0.01*tremor.Float64()), 0, 0)
				continue
			}
			if tr.Path != anim.Rotation {
				values = append(values, tr.Values[nc*k:nc*k+nc]...)
				continue
			}
			q := mgl32.QuatRotate(float32(4*math.Pi*u+0.05*tremor.Float64()), mgl32.Vec3{1, 2, 3}.Normalize())
			values = append(values, q.V[0], q.V[1], q.V[2], q.W)
		}
		if tr.Path == anim.Translation && tr.Joint == 57 {
			last := len(times) - 2
			times, values = []float32{times[1], times[last]}, append(slices.Clone(values[3:6]), values[3*last:3*last+3]...)
		}
		tr.Times, tr.Values = times, values
	}
	rc, rep, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kept || rc.FieldPk() == nil {
		t.Fatal("the clip was kept uncompressed")
	}
	for _, p := range paths {
		if l := rc.FieldPk().FieldLoose()[p]; len(l) != 2 || len(rc.FieldPk().FieldFrame()) == 0 {
			t.Fatalf("%v tracks of keys outside the frames %v, %d in them: the test needs joints 10 and 57 alone outside", p, l, len(rc.FieldPk().FieldFrame()))
		}
	}
	return sk, &c, rc
}

// TestCompressedLooseTracks: tracks that do not key every time of the
// clip (outside the frames) keep their pairs current while the frames keep
// theirs, in playback and after jumps. The compressor measures what the
// engine plays and keeps every key where that goes wrong, which can turn
// every track into a frame track; so the test also checks that the clip
// it gets has tracks outside the frames (looseB2P), few enough that
// sampling tests them alone while the frames hold the time.
func TestCompressedLooseTracks(t *testing.T) {
	sk, c, rc := looseB2P(t, anim.Translation)
	var times []float32
	for k := range 150 { // playback, crossing every key
		times = append(times, float32(k)/60)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 60 { // jumps
		times = append(times, -0.1+rng.Float32()*2.2)
	}
	if e := compressedError(t, sk, c, rc, times); e > 1e-4 {
		t.Errorf("error %.3g; want ≤ 1e-4", e)
	}
}

// TestCompressedLooseTracksIgnoreHistory: rotations and translations
// keyed outside the frames, the rotations' keys in both hemispheres,
// sample the same bits however the job got to the time:
// played forwards from key to loose key (the pair moved on by one key,
// landing exactly on the next one), at 60 Hz, and with another job's
// cursors, as a fresh job does.
func TestCompressedLooseTracksIgnoreHistory(t *testing.T) {
	sk, c, rc := looseB2P(t, anim.Translation, anim.Rotation)
	var loose []float32 // every loose key's time, in order
	for _, tr := range c.Tracks {
		if tr.Joint == 10 && tr.Path == anim.Rotation {
			loose = tr.Times
		}
	}
	if len(loose) < 10 {
		t.Fatalf("%d loose keys; the test needs more", len(loose))
	}
	var frames []float32
	for k := range 150 {
		frames = append(frames, float32(k)/60)
	}
	for _, run := range []struct {
		name  string
		times []float32
	}{{"from loose key to loose key", loose}, {"at 60 Hz", frames}} {
		played := rc.NewSampleJob(false, anim.NewPose(sk))
		for _, tm := range run.times {
			fresh := rc.NewSampleJob(false, anim.NewPose(sk))
			played.Time, fresh.Time = tm, tm
			played.Run()
			fresh.Run()
			if a, b := animtest.FromSoA(played.Output), animtest.FromSoA(fresh.Output); !animtest.PosesEqual(a, b) {
				t.Fatalf("%s, at %v s: joint 10 played %v, joint 57 %v; a fresh job gives %v, %v", run.name, tm, a[10], a[57], b[10], b[57])
			}
		}
	}
	// a's cache holds pairs around 0.5 s, b's cursors point at keys
	// around 1.2 s: a trusts a cursor only where the pair it holds ends
	// at the cursor's key.
	a, b := rc.NewSampleJob(false, anim.NewPose(sk)), rc.NewSampleJob(false, anim.NewPose(sk))
	a.Time, b.Time = 0.5, 1.2
	a.Run()
	b.Run()
	a.Cursors, a.Time = b.Cursors, 1.21
	a.Run()
	fresh := rc.NewSampleJob(false, anim.NewPose(sk))
	fresh.Time = 1.21
	fresh.Run()
	if got, want := animtest.FromSoA(a.Output), animtest.FromSoA(fresh.Output); !animtest.PosesEqual(got, want) {
		t.Fatalf("with another job's cursors: joint 10 %v, joint 57 %v; a fresh job gives %v, %v", got[10], got[57], want[10], want[57])
	}
	if e := compressedError(t, sk, c, rc, append(loose, frames...)); e > 1e-4 {
		t.Errorf("error %.3g; want ≤ 1e-4", e)
	}
}

// halfTurned turns every rotation key of c half a turn about z (from the
// left), so that its tracks rebuild z rather than w (dropComponent).
func halfTurned(c anim.Clip) anim.Clip {
	c.Name += " half-turned"
	c.Tracks = slices.Clone(c.Tracks)
	for i := range c.Tracks {
		tr := &c.Tracks[i]
		if tr.Path != anim.Rotation {
			continue
		}
		tr.Values = slices.Clone(tr.Values)
		for k := 0; k < len(tr.Values); k += 4 {
			v := tr.Values[k : k+4]
			v[0], v[1], v[2], v[3] = anim.Qmul(0, 0, 1, 0, v[0], v[1], v[2], v[3])
		}
	}
	return c
}

func TestCompressDropsConstantTracks(t *testing.T) {
	sk := animtest.Chain(3)
	// Every track at rest: an empty time table (its form, a list, in 2
	// bits and a count of 0 in 1) and the bit per joint and path (9 bits):
	// 12 bits in 2 bytes.
	rest := animtest.Merge("Rest", animtest.ConstClip("a", 1, 1, 1, 0, 0), animtest.TurnClip("b", 1, 2, 0, 0))
	// One constant translation away from rest, (1, 0.5, 0): those 12 bits,
	// 8 of descriptor (kind in 2, mantissa bits, x-y-z flag) and three
	// floats that need no mantissa bits, 9 bits each (sign and exponent):
	// 47 bits in 6 bytes.
	moved := animtest.ConstClip("Moved", 1, 1, 1, 0.5, 0)
	// A STEP track is kept as it is: its two times and values (32 bytes)
	// and a descriptor (4), after the 2 bytes of an empty clip.
	step := anim.Clip{Name: "Step", Tracks: []anim.Track{{Joint: 1, Path: anim.Scale, Interp: anim.Step, Times: []float32{0, 0.5}, Values: []float32{1, 1, 1, 2, 2, 2}}}}
	for _, c := range []struct {
		clip anim.Clip
		want int
	}{{rest, 2}, {moved, 6}, {step, 2 + 32 + 4}} {
		rc, rep, err := anim.CompressClip(&c.clip, sk, anim.CompressOptions{Tolerance: 1e-4})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Bytes != c.want || rep.MaxError != 0 {
			t.Errorf("%s: %d bytes, error %g; want %d bytes, no error", c.clip.Name, rep.Bytes, rep.MaxError, c.want)
		}
		got := animtest.FromSoA(sampleRuntime(rc, 0.5, sk))
		want := samplePose(sk, &c.clip, 0.5)
		if !animtest.PosesEqual(got, want) {
			t.Errorf("%s: %v; want %v", c.clip.Name, got, want)
		}
	}
}

// sampleRuntime samples rc at t with a fresh job.
func sampleRuntime(rc *anim.RuntimeClip, t float32, sk *anim.Skeleton) *anim.SoAPose {
	job := anim.SampleSoAJob{Clip: rc, Time: t, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewPose(sk)}
	job.Run()
	return job.Output
}

func TestCompressKeepsStepAndMorphAndBoundsCubic(t *testing.T) {
	sk := animtest.Chain(3)
	sk.MorphRest, sk.MorphJoint = []float32{0, 0.5}, []int{1, 1}
	clip := animtest.Merge("Mixed", mocapClip(sk, 1))
	clip.Tracks = append(clip.Tracks,
		anim.Track{Joint: 1, Path: anim.Scale, Interp: anim.Step, Times: []float32{0, 0.5}, Values: []float32{1, 1, 1, 2, 2, 2}},
		anim.Track{Joint: 2, Path: anim.Translation, Interp: anim.CubicSpline, Times: []float32{0, 1},
			Values: []float32{0, 0, 0, 1, 0, 0, 3, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0}})
	clip.Morph = []anim.MorphTrack{{Channel: 0, Count: 2, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0, 1, 1, 0}}}
	raw, err := anim.NewRuntimeClip(&clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	rc, _, err := anim.CompressClip(&clip, sk, anim.CompressOptions{Tolerance: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range []float32{0, 0.3, 0.5, 0.77, 1} {
		a, b := sampleRuntime(raw, tm, sk), sampleRuntime(rc, tm, sk)
		if p, q := a.At(1), b.At(1); p.Scale != q.Scale {
			t.Errorf("t=%v: STEP scale %v; uncompressed %v", tm, q.Scale, p.Scale)
		}
		if a.W[0] != b.W[0] || a.W[1] != b.W[1] {
			t.Errorf("t=%v: weights %v; uncompressed %v", tm, b.W, a.W)
		}
	}
	// The CUBICSPLINE translation becomes LINEAR keys: its joint's
	// vertices stay within the tolerance of the spline, at any time.
	var times []float32
	for k := range 101 {
		times = append(times, float32(k)/100)
	}
	if e := compressedError(t, sk, &clip, rc, times); e > 1e-4 {
		t.Errorf("error %.3g with the spline as keys; want ≤ 1e-4", e)
	}
}

// A CUBICSPLINE track is sampled wherever its chords stray (spans halved
// at least twice, then while a chord strays by more than a twentieth of
// the tolerance) and its samples thinned out to LINEAR keys, which win
// where they take less room than the spline's records. Here joint 1
// sways through x = 0, 61 keys in 2 s; its quarter spans stray from their
// chords by A·ω²·(1/120 s)²/8: 0.44 of the tolerance for 2 cm at 16 rad/s,
// 1.7 times it for 30 cm at 8 rad/s. Keys that strayed between the
// samples the encoder measures would fail the tolerance and leave the
// spline as it is, larger than the keys. Joint 0's spline of two
// keys bulging by 10 cm is smaller kept as it is than as the keys its
// bulge needs.
func TestCompressSplineBecomesKeys(t *testing.T) {
	for _, c := range []struct {
		amp, omega float64
		maxShare   float64 // of the raw bytes
	}{
		{0.02, 16, 0.5},
		{0.3, 8, 0.9},
	} {
		sk := animtest.Chain(2)
		sway := anim.Track{Joint: 1, Path: anim.Translation, Interp: anim.Linear}
		for k := 0; k <= 60; k++ {
			tm := float32(k) / 30
			sway.Times = append(sway.Times, tm)
			sway.Values = append(sway.Values, float32(c.amp*math.Sin(c.omega*float64(tm))), 0.5, 0)
		}
		clip := cubicClip(anim.Clip{Name: "Sway", Duration: 2, Tracks: []anim.Track{sway}})
		clip.Tracks = append([]anim.Track{{Joint: 0, Path: anim.Translation, Interp: anim.CubicSpline, Times: []float32{0, 2},
			Values: []float32{0, 0, 0, 0, 0, 0, 0.4, 0, 0, -0.4, 0, 0, 0, 0, 0, 0, 0, 0}}}, clip.Tracks...)
		const tol = 1e-4
		rc, rep, err := anim.CompressClip(&clip, sk, anim.CompressOptions{Tolerance: tol})
		if err != nil {
			t.Fatal(err)
		}
		tracks := rc.FieldPk().FieldTracks()[anim.Translation]
		if len(tracks) < 2 {
			t.Fatalf("%d translation tracks packed; want 2", len(tracks))
		}
		if n := tracks[1].FieldN(); rep.Kept || n < 2 || float64(rep.Bytes) > c.maxShare*float64(rep.RawBytes) {
			t.Errorf("sway of %g m at %g rad/s: kept %v, %d keys, %d → %d bytes; want LINEAR keys in under %g of the room", c.amp, c.omega, rep.Kept, n, rep.RawBytes, rep.Bytes, c.maxShare)
		}
		if n := tracks[0].FieldN(); n != 0 {
			t.Errorf("bulge: %d keys; want the spline kept as it is", n)
		}
		var times []float32
		for k := range 1001 {
			times = append(times, float32(k)/500)
		}
		if e := compressedError(t, sk, &clip, rc, times); e > tol {
			t.Errorf("sway of %g m at %g rad/s: error %.3g between the keys; want ≤ %g", c.amp, c.omega, e, tol)
		}
	}
}

// The report names the clip, also where it is refused; a nil clip is an
// error, and a clip of nothing on a skeleton of no joints compresses to
// nothing, with no error to report.
func TestCompressReportEdges(t *testing.T) {
	sk := animtest.Chain(2)
	clip := animtest.RampClip("Ramp", 1, 1, 0, 1)
	if _, rep, err := anim.CompressClip(&clip, sk, anim.CompressOptions{Tolerance: 1e-4}); err != nil || rep.Clip != "Ramp" {
		t.Errorf("report for %q: %+v, %v; want it named", clip.Name, rep, err)
	}
	if _, rep, err := anim.CompressClip(&clip, sk, anim.CompressOptions{Tolerance: -1}); err == nil || rep.Clip != "Ramp" {
		t.Errorf("refused: report %+v, %v; want an error and the report named", rep, err)
	}
	if _, _, err := anim.CompressClip(nil, sk, anim.CompressOptions{Tolerance: 1e-4}); err == nil {
		t.Error("a nil clip compressed without an error")
	}
	none := anim.Clip{Name: "Nothing", Duration: 1}
	rc, rep, err := anim.CompressClip(&none, &anim.Skeleton{}, anim.CompressOptions{Tolerance: 1e-4})
	if err != nil || rc == nil || rep.Clip != "Nothing" || rep.MaxError != 0 || rep.P99Error != 0 || rep.Kept {
		t.Fatalf("no joints, no tracks: %v, %+v; want a clip of nothing, no error", err, rep)
	}
	job := rc.NewSampleJob(false, anim.NewPose(&anim.Skeleton{}))
	job.Time = 0.5
	job.Run()
}

func TestCompressRefusesBadTolerance(t *testing.T) {
	sk := animtest.Chain(2)
	clip := animtest.RampClip("Ramp", 1, 1, 0, 1)
	for _, tol := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		_, _, err := anim.CompressClip(&clip, sk, anim.CompressOptions{Tolerance: tol})
		if err == nil || !strings.Contains(err.Error(), "tolerance") {
			t.Errorf("tolerance %v: error %v; want one naming the tolerance", tol, err)
		}
	}
}

// The encoder's search, decision by decision, with the answers its
// contracts give worked out by hand.
func TestCompressSearchDecisions(t *testing.T) {
	// Which of two packings is kept against a target of 1: within beats
	// over, the smaller of two within, the closer of two over, a tie the
	// first; exactly the target is within.
	for _, c := range []struct {
		w1, w2 float64
		b1, b2 int
		want   bool
	}{
		{0.5, 0.5, 100, 90, true},
		{0.5, 0.5, 100, 100, false},
		{0.5, 0.9, 100, 110, false},
		{2, 1, 100, 500, true},
		{0.5, 1, 100, 90, true},
		{1, 0.5, 100, 110, false},
		{1, 0.5, 100, 90, true},
		{2, 1.5, 100, 500, true},
		{1.5, 1.5, 100, 10, false},
		{1.5, 2, 100, 10, false},
		{0.5, 2, 100, 10, false},
		{1, 1.5, 100, 10, false},
	} {
		if got := anim.KeepSecond(c.w1, c.w2, c.b1, c.b2, 1); got != c.want {
			t.Errorf("keep (%g, %d B) over (%g, %d B) against 1: %v; want %v", c.w2, c.b2, c.w1, c.b1, got, c.want)
		}
	}
	// The first target: 0.95·tol less 2.5 roundings, at least tol/4.
	for _, c := range []struct{ tol, rounding, want float64 }{
		{2, 0, 1.9},
		{2, 0.2, 1.4},
		{2, 0.7, 0.5},
		{4, 0.6, 2.3},
	} {
		if got := anim.FirstTarget(c.tol, c.rounding); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("first target for %g with rounding %g: %g; want %g", c.tol, c.rounding, got, c.want)
		}
	}
	// Made again when played over 0.97·tol, with the target lowered by
	// the excess and 0.01·tol; not when that leaves no positive target.
	tol := 2.0           // 0.97·2 is 1.94 exactly as the doubles go
	over := 2 - 0.97*tol // as the encoder works it out
	for _, c := range []struct {
		target, worst, want float64
		again               bool
	}{
		{1.5, 1.9, 1.5, false},
		{1.5, 1.94, 1.5, false},
		{1.5, 2, 1.42, true},
		{1.5, 2.5, 0.92, true},
		{1, 3, -0.08, false},
		{over + 0.01*tol, 2, 0, false},
	} {
		got, again := anim.Retarget(c.target, c.worst, tol)
		if again != c.again || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("target %g played at %g of %g: %g, again %v; want %g, %v", c.target, c.worst, tol, got, again, c.want, c.again)
		}
	}
	// The 99th percentile is the value of rank ⌈0.99·n⌉.
	for _, c := range []struct{ n, want int }{{1, 1}, {2, 2}, {50, 50}, {100, 99}, {101, 100}, {200, 198}, {1000, 990}} {
		errs := make([]float32, c.n)
		for i := range errs {
			errs[i] = float32(i + 1)
		}
		if got := anim.P99(errs); got != float32(c.want) {
			t.Errorf("99th percentile of 1..%d: %g; want %d", c.n, got, c.want)
		}
	}
}

// packPlayed's retries, with a packer and a player that report what they
// are given: a packing played within 0.97·tol is kept at once; one over
// is made again with retarget's target; three at most; progress goes
// forward, ending each try at 0.73, 0.88 and 0.95.
func TestCompressRetriesAsPlayed(t *testing.T) {
	const tol = 1.0
	for _, c := range []struct {
		played  []float64 // each packing's worst error as played, in turn
		targets []float64 // the targets packed for
	}{
		{[]float64{0.5}, []float64{0.9}},
		{[]float64{0.97}, []float64{0.9}},
		{[]float64{1.07, 0.5}, []float64{0.9, 0.79}},
		{[]float64{1.07, 1.07, 1.07, 0.5}, []float64{0.9, 0.79, 0.68}},
		{[]float64{3}, []float64{0.9}}, // lowered below 0: kept as it is
	} {
		var targets, progress []float64
		var made []*anim.RuntimeClip
		rc, worst, _ := anim.PackPlayed(0.9, tol,
			func(target, lo, hi float64) *anim.RuntimeClip {
				targets = append(targets, target)
				progress = append(progress, lo, hi)
				made = append(made, &anim.RuntimeClip{})
				return made[len(made)-1]
			},
			func(*anim.RuntimeClip) ([]float64, []float32) {
				return []float64{c.played[len(made)-1]}, nil
			},
			func(f float64) { progress = append(progress, f) })
		ok := len(targets) == len(c.targets) && rc == made[len(made)-1] && worst[0] == c.played[len(made)-1]
		for i := range min(len(targets), len(c.targets)) {
			ok = ok && math.Abs(targets[i]-c.targets[i]) < 1e-12
		}
		if !ok {
			t.Errorf("played %v: packed for %v, kept the last: %v; want targets %v", c.played, targets, rc == made[len(made)-1], c.targets)
		}
		if !slices.IsSorted(progress) {
			t.Errorf("played %v: progress %v goes back", c.played, progress)
		}
		for i, want := range []float64{0.73, 0.88, 0.95}[:len(targets)] {
			if got := progress[3*i+2]; math.Abs(got-want) > 1e-12 {
				t.Errorf("played %v: try %d ends at %v; want %v", c.played, i, got, want)
			}
		}
	}
}

// A component that hardly moves costs fewer bits than one that moves a
// lot: a joint sliding along x and turning about x, with a wobble of a
// micrometre (a microradian) on y and nothing on z, codes x with many
// bits and y and z with none, within the tolerance.
func TestCompressGivesQuietComponentsFewerBits(t *testing.T) {
	sk := animtest.Chain(3)
	c := anim.Clip{Name: "Slide", Duration: 2}
	move := anim.Track{Joint: 0, Path: anim.Translation, Interp: anim.Linear}
	turn := anim.Track{Joint: 0, Path: anim.Rotation, Interp: anim.Linear}
	for k := 0; k <= 60; k++ {
		tm := float32(k) / 30
		s := math.Sin(math.Pi * float64(tm))
		wobble := 1e-6 * math.Cos(7*float64(tm))
		move.Times = append(move.Times, tm)
		move.Values = append(move.Values, float32(0.3*s), float32(wobble), 0.2)
		a := 0.5 * (math.Pi / 3) * s // half of up to 60°
		q := mgl32.Quat{W: float32(math.Cos(a)), V: mgl32.Vec3{float32(math.Sin(a)), float32(wobble), 0}}.Normalize()
		turn.Times = append(turn.Times, tm)
		turn.Values = append(turn.Values, q.V[0], q.V[1], q.V[2], q.W)
	}
	c.Tracks = []anim.Track{move, turn}
	const tol = 1e-4
	rc, _, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []anim.Path{anim.Translation, anim.Rotation} {
		tr := rc.FieldPk().FieldTracks()[p][0]
		if tr.FieldN() < 2 || tr.FieldBits() >= 32 {
			t.Fatalf("%v track: %d keys at %d bits; want coded keys", p, tr.FieldN(), tr.FieldBits())
		}
		if cb := tr.FieldCbits(); cb[0] < 6 || cb[1] != 0 || cb[2] != 0 {
			t.Errorf("%v track codes x, y, z at %v bits; want x at 6 or more, y and z at 0", p, cb)
		}
	}
	if e := compressedError(t, sk, &c, rc, keyTimes(&c)); e > tol {
		t.Errorf("error %g m, over the tolerance %g", e, tol)
	}
}

// spinClip turns every joint twice around a tilted axis in 2 s, so that
// its hemisphere-aligned keys pass through w < 0.
func spinClip(sk *anim.Skeleton) anim.Clip {
	c := anim.Clip{Name: "Spin", Duration: 2}
	for j := range sk.NumJoints() {
		tr := anim.Track{Joint: j, Path: anim.Rotation, Interp: anim.Linear}
		axis := mgl32.Vec3{0.2, 1, float32(j%4) * 0.3}.Normalize()
		for k := 0; k <= 48; k++ {
			q := mgl32.QuatRotate(float32(4*math.Pi*float64(k)/48+0.1*float64(j)), axis)
			tr.Times = append(tr.Times, float32(k)/24)
			tr.Values = append(tr.Values, q.V[0], q.V[1], q.V[2], q.W)
		}
		c.Tracks = append(c.Tracks, tr)
	}
	return c
}

// A job that kept its cache and cursors through playback, jumps and loop
// wraps samples exactly what a fresh job samples, rotations' signs
// included, and allocates nothing.
func TestCompressedSamplingIgnoresHistory(t *testing.T) {
	sk := animtest.Humanoid()
	for _, clip := range []anim.Clip{mocapClip(sk, 2), spinClip(sk), halfTurned(mocapClip(sk, 2)), halfTurned(spinClip(sk))} {
		for _, tol := range []float64{1e-4, 1e-7} { // quantized, and float32 kept
			rc, _, err := anim.CompressClip(&clip, sk, anim.CompressOptions{Tolerance: tol})
			if err != nil {
				t.Fatal(err)
			}
			for _, nlerp := range []bool{false, true} {
				kept := anim.SampleSoAJob{Clip: rc, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewPose(sk)}
				rng := rand.New(rand.NewPCG(3, 4))
				tm := float32(0)
				for i := range 2000 {
					switch i % 50 {
					case 0: // a jump anywhere
						tm = -0.2 + rng.Float32()*2.4
					case 25: // backwards
						tm -= rng.Float32() / 10
					default: // playback, wrapping
						if tm += rng.Float32() / 30; tm > 2.1 {
							tm -= 2
						}
					}
					fresh := anim.SampleSoAJob{Clip: rc, Time: tm, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewPose(sk)}
					fresh.Run()
					kept.Time = tm
					kept.Run()
					if a, b := animtest.FromSoA(fresh.Output), animtest.FromSoA(kept.Output); !animtest.PosesEqual(a, b) {
						t.Fatalf("%s at %g, nlerp %v: at %v after %d samples: %v; a fresh job gives %v", clip.Name, tol, nlerp, tm, i, b, a)
					}
				}
				if a := testing.AllocsPerRun(100, func() { kept.Time += 0.01; kept.Run() }); a != 0 {
					t.Errorf("%v allocations per sample", a)
				}
			}
		}
	}
}

// TestCompressedCacheFromAnotherClip: a job whose clip changes keeps its
// cache, and the new clip refills it, rather than interpolating the pairs
// the old clip left, which hold the time.
func TestCompressedCacheFromAnotherClip(t *testing.T) {
	sk := animtest.Humanoid()
	a, b := mocapClip(sk, 2), mocapClip(sk, 1.5)
	b.Name = "Mocap 1.5 s"
	ra, _, err := anim.CompressClip(&a, sk, anim.CompressOptions{Tolerance: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	rb, _, err := anim.CompressClip(&b, sk, anim.CompressOptions{Tolerance: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	if ra.NumCursors() != rb.NumCursors() || ra.CacheLen() != rb.CacheLen() {
		t.Fatalf("the clips need %d and %d cursors, caches of %d and %d: the test needs them alike", ra.NumCursors(), rb.NumCursors(), ra.CacheLen(), rb.CacheLen())
	}
	job := anim.SampleSoAJob{Clip: ra, Time: 0.5, Cursors: make([]int32, ra.NumCursors()), Cache: make([]float32, ra.CacheLen()), Output: anim.NewPose(sk)}
	job.Run()
	job.Clip, job.Time = rb, 0.501
	job.Run()
	fresh := anim.SampleSoAJob{Clip: rb, Time: 0.501, Cursors: make([]int32, rb.NumCursors()), Cache: make([]float32, rb.CacheLen()), Output: anim.NewPose(sk)}
	fresh.Run()
	if got, want := animtest.FromSoA(job.Output), animtest.FromSoA(fresh.Output); !animtest.PosesEqual(got, want) {
		t.Fatalf("after the other clip: %v; a fresh job gives %v", got, want)
	}
}

// compressedB2P is Blend2Palette-100's clip A compressed at 0.01 cm.
func compressedB2P(t *testing.T) *anim.RuntimeClip {
	t.Helper()
	clip := animtest.B2PClips()[0]
	rc, _, err := anim.CompressClip(&clip, animtest.B2PSkeleton(), anim.CompressOptions{Tolerance: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

// TestCompressedCacheCarriesItsState: a cache sampled at one time, given
// with the cursors of a job sampled at another, samples what a fresh job
// does: which frames the cache holds is in the cache itself, and a track's
// cursor is trusted only where it matches the pair the cache holds.
func TestCompressedCacheCarriesItsState(t *testing.T) {
	rc := compressedB2P(t)
	if len(rc.FieldPk().FieldFrame()) == 0 {
		t.Fatal("the clip has no frames: the test needs them")
	}
	a, b := rc.NewSampleJob(false, anim.NewSoAPose(animtest.B2PJoints)), rc.NewSampleJob(false, anim.NewSoAPose(animtest.B2PJoints))
	a.Time, b.Time = 0.5, 1.2
	a.Run()
	b.Run()
	a.Cursors = b.Cursors // a's cache, b's cursors
	a.Time = 1.21
	a.Run()
	fresh := rc.NewSampleJob(false, anim.NewSoAPose(animtest.B2PJoints))
	fresh.Time = 1.21
	fresh.Run()
	if got, want := animtest.FromSoA(a.Output), animtest.FromSoA(fresh.Output); !animtest.PosesEqual(got, want) {
		t.Fatalf("with another job's cursors: %v; a fresh job gives %v", got[:2], want[:2])
	}
}

// TestCompressedSamplingOddTimes: NaN, infinite and huge times, between
// ordinary ones, sample finite poses, and the same as a fresh job, on
// every kernel path.
func TestCompressedSamplingOddTimes(t *testing.T) {
	rc := compressedB2P(t)
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	times := []float32{0.5, nan, 0.51, inf, 1.9, -inf, 0.2, 1e30, -1e30, 0.21, float32(math.Copysign(0, -1)), 2, 2.5, nan, nan, 0.7}
	eachKernelPath(func(path string) {
		for _, nlerp := range []bool{false, true} {
			kept := rc.NewSampleJob(nlerp, anim.NewSoAPose(animtest.B2PJoints))
			for _, tm := range times {
				kept.Time = tm
				kept.Run()
				fresh := rc.NewSampleJob(nlerp, anim.NewSoAPose(animtest.B2PJoints))
				fresh.Time = tm
				fresh.Run()
				got, want := animtest.FromSoA(kept.Output), animtest.FromSoA(fresh.Output)
				for j, tr := range got {
					if !finiteTransform(tr) {
						t.Fatalf("%s, nlerp %v, at %v: joint %d %v", path, nlerp, tm, j, tr)
					}
				}
				if !animtest.PosesEqual(got, want) {
					t.Fatalf("%s, nlerp %v, at %v: %v; a fresh job gives %v", path, nlerp, tm, got[:1], want[:1])
				}
			}
		}
	})
}

// finiteTransform reports whether every component of tr is finite.
func finiteTransform(tr anim.Transform) bool {
	for _, v := range [10]float32{tr.Translation[0], tr.Translation[1], tr.Translation[2], tr.Rotation.V[0], tr.Rotation.V[1], tr.Rotation.V[2], tr.Rotation.W, tr.Scale[0], tr.Scale[1], tr.Scale[2]} {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return false
		}
	}
	return true
}

// TestCompressedRotationAcrossHemispheres: rotations about axes leaning
// on x, y and z, turning from 0° to 340° with a tremor (so that
// every key is kept and the track lies in the clip's frames): its w passes
// through 0, so keys are negated in the cache to follow the key before
// them. Played forwards frame by frame (each pair made from the one
// before it) it gives what sampling afresh gives, bit for bit, and at
// random times it stays within the tolerance.
func TestCompressedRotationAcrossHemispheres(t *testing.T) {
	sk := &anim.Skeleton{Names: []string{"root", "arm"}, Parents: []int{-1, 0},
		Rest: []anim.Transform{anim.IdentityTransform, {Translation: mgl32.Vec3{1, 0, 0}, Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}}}
	// The root's axis leans on y: its keys' y outweighs the others, so a
	// hemisphere test that weighs a component wrongly flips a pair (the
	// arm, a leaf, keeps fewer keys, outside the frames).
	axes := []mgl32.Vec3{mgl32.Vec3{0.1, 1, 0.2}.Normalize(), mgl32.Vec3{1, 2, 3}.Normalize()}
	c := anim.Clip{Name: "turn", Duration: 1}
	tremor := rand.New(rand.NewPCG(5, 6))
	for j, axis := range axes {
		r := anim.Track{Joint: j, Path: anim.Rotation, Interp: anim.Linear}
		for k := 0; k <= 60; k++ {
			tm := float64(k) / 60
			a := (340*tm)*math.Pi/180 + 0.05*tremor.Float64()
			q := mgl32.QuatRotate(float32(a), axis)
			r.Times = append(r.Times, float32(tm))
			r.Values = append(r.Values, q.V[0], q.V[1], q.V[2], q.W)
		}
		c.Tracks = append(c.Tracks, r)
	}
	const tol = 1e-4
	rc, rep, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	if !rc.Compressed() {
		t.Fatalf("kept uncompressed: %+v", rep)
	}
	// The encoder measures its packings through the decoder: a broken
	// decode of the frames makes it choose wider codes, not a wrong clip.
	// Three components of at most 16 bits where raw keys take 16 bytes:
	// better than 2.5:1 with the table and headers.
	if rep.Ratio() < 2.5 {
		t.Errorf("%d → %d bytes (%.2f:1), want better than 2.5:1", rep.RawBytes, rep.Bytes, rep.Ratio())
	}
	var forwards []float32
	for k := 0; k <= 480; k++ {
		forwards = append(forwards, float32(k)/480)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var random []float32
	for range 200 {
		random = append(random, rng.Float32())
	}
	// Played forwards, each frame's pairs are made from the last ones
	// (shiftFrames); sampled afresh, from the frame itself (fillFrames):
	// the same pose, bit for bit. Nlerp trusts the pairs' hemispheres
	// (slerp tests the sign itself).
	for _, nlerp := range []bool{false, true} {
		played := anim.NewPose(sk)
		player := rc.NewSampleJob(nlerp, played)
		for _, tm := range forwards {
			fresh := anim.NewPose(sk)
			job := rc.NewSampleJob(nlerp, fresh)
			player.Time, job.Time = tm, tm
			player.Run()
			job.Run()
			if a, b := animtest.FromSoA(played), animtest.FromSoA(fresh); !slices.Equal(a, b) {
				t.Fatalf("nlerp %v, at %v s: played forwards %v, sampled afresh %v", nlerp, tm, a, b)
			}
		}
	}
	if e := compressedError(t, sk, &c, rc, forwards); e > tol {
		t.Errorf("sampled forwards: error %.3g, want ≤ %g (%d → %d bytes)", e, tol, rep.RawBytes, rep.Bytes)
	}
	if e := compressedError(t, sk, &c, rc, random); e > tol {
		t.Errorf("sampled at random times: error %.3g, want ≤ %g", e, tol)
	}
}
