package anim

import (
	"math"
	mrand "math/rand"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// mocapClip is a dense, smooth clip: every joint of sk turning about a
// tilted axis by a few sines, and the root moving, keyed at 60 Hz for d
// seconds, like motion capture.
func mocapClip(sk *Skeleton, d float32) Clip {
	c := Clip{Name: "Mocap", Duration: d}
	keys := int(d * 60)
	for j := range sk.NumJoints() {
		r := Track{Joint: j, Path: Rotation, Interp: Linear}
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
	root := Track{Joint: 0, Path: Translation, Interp: Linear}
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
func cubicClip(c Clip) Clip {
	out := Clip{Name: c.Name + " cubic", Duration: c.Duration}
	for _, tr := range c.Tracks {
		nc := tr.Path.Components()
		n := len(tr.Times)
		ct := Track{Joint: tr.Joint, Path: tr.Path, Interp: CubicSpline, Times: tr.Times}
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
func compressedError(t *testing.T, sk *Skeleton, src *Clip, rc *RuntimeClip, times []float32) float64 {
	t.Helper()
	n := sk.NumJoints()
	ref := refSampleJob{Clip: src, Rest: sk.Rest, Cursors: make([]int, len(src.Tracks)), Output: make([]Transform, n)}
	out := NewPose(sk)
	job := rc.NewSampleJob(false, out)
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, tm := range times {
		ref.Time, job.Time = tm, tm
		ref.Run()
		job.Run()
		a, b := refModelRows(sk, ref.Output), refModelRows(sk, fromSoA(out))
		for j := range n {
			worst = max(worst, virtualError(a[j*PaletteFloats:], b[j*PaletteFloats:]))
		}
	}
	return worst
}

// nlerpError is the worst virtual-vertex error between two runtime clips
// sampled with nlerp at times, through the reference local-to-model.
func nlerpError(sk *Skeleton, a, b *RuntimeClip, times []float32) float64 {
	worst := 0.0
	for _, tm := range times {
		pa, pb := sampleRuntimeNlerp(a, tm, sk), sampleRuntimeNlerp(b, tm, sk)
		ma, mb := refModelRows(sk, fromSoA(pa)), refModelRows(sk, fromSoA(pb))
		for j := range sk.NumJoints() {
			worst = max(worst, virtualError(ma[j*PaletteFloats:], mb[j*PaletteFloats:]))
		}
	}
	return worst
}

func sampleRuntimeNlerp(rc *RuntimeClip, t float32, sk *Skeleton) *SoAPose {
	job := SampleSoAJob{Clip: rc, Time: t, Nlerp: true, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: NewPose(sk)}
	job.Run()
	return job.Output
}

// keyTimes are every key time of c and the times half-way between.
func keyTimes(c *Clip) []float32 {
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
	b2p := b2pClips()
	hum := humanoid()
	cases := []struct {
		name     string
		sk       *Skeleton
		clip     Clip
		minRatio float64
	}{
		{"noise", b2pSkeleton(), b2p[0], 1.5},
		{"humanoid walk", hum, humanoidClips(hum)[1], 3},
		{"mocap", hum, mocapClip(hum, 4), 3},
		// Splines become LINEAR keys, thinned out; kept as splines they
		// would take 40 bytes a key.
		{"mocap as splines", hum, cubicClip(mocapClip(hum, 2)), 1.5},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		for _, tol := range []float64{1e-4, 1e-3} {
			rc, rep, err := CompressClip(&c.clip, c.sk, CompressOptions{Tolerance: tol})
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
			raw, err := NewRuntimeClip(&c.clip, c.sk)
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

// TestCompressedLooseTracks: tracks that do not key every time of the
// clip (outside the frames) keep their pairs current while the frames keep
// theirs, in playback and after jumps. The compressor measures what the
// engine plays and keeps every key where that goes wrong, which can turn
// every track into a frame track; so the test also checks that the clip
// it gets has tracks outside the frames, few enough that sampling tests
// them alone while the frames hold the time.
func TestCompressedLooseTracks(t *testing.T) {
	sk, clips := b2pSkeleton(), b2pClips()
	c := clips[0] // random keys: every track keeps every key
	c.Tracks = slices.Clone(c.Tracks)
	for i := range c.Tracks {
		tr := &c.Tracks[i]
		if tr.Path != Translation || (tr.Joint != 10 && tr.Joint != 57) {
			continue
		}
		// Every third key: outside the frames.
		var times, values []float32
		for k := 0; k < len(tr.Times); k += 3 {
			times = append(times, tr.Times[k])
			values = append(values, tr.Values[3*k:3*k+3]...)
		}
		tr.Times, tr.Values = times, values
	}
	rc, rep, err := CompressClip(&c, sk, CompressOptions{Tolerance: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kept || rc.pk == nil {
		t.Fatal("the clip was kept uncompressed")
	}
	if l := rc.pk.loose[Translation]; len(l) != 2 || len(rc.pk.frame) == 0 {
		t.Fatalf("translation tracks of keys outside the frames %v, %d in them: the test needs joints 10 and 57 alone outside", l, len(rc.pk.frame))
	}
	var times []float32
	for k := range 150 { // playback, crossing every key
		times = append(times, float32(k)/60)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 60 { // jumps
		times = append(times, -0.1+rng.Float32()*2.2)
	}
	if e := compressedError(t, sk, &c, rc, times); e > 1e-4 {
		t.Errorf("error %.3g; want ≤ 1e-4", e)
	}
}

// spinClip turns every joint twice around a tilted axis in 2 s, so that
// its hemisphere-aligned keys pass through w < 0.
func spinClip(sk *Skeleton) Clip {
	c := Clip{Name: "Spin", Duration: 2}
	for j := range sk.NumJoints() {
		tr := Track{Joint: j, Path: Rotation, Interp: Linear}
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
	sk := humanoid()
	for _, clip := range []Clip{mocapClip(sk, 2), spinClip(sk), halfTurned(mocapClip(sk, 2)), halfTurned(spinClip(sk))} {
		for _, tol := range []float64{1e-4, 1e-7} { // quantized, and float32 kept
			rc, _, err := CompressClip(&clip, sk, CompressOptions{Tolerance: tol})
			if err != nil {
				t.Fatal(err)
			}
			for _, nlerp := range []bool{false, true} {
				kept := SampleSoAJob{Clip: rc, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: NewPose(sk)}
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
					fresh := SampleSoAJob{Clip: rc, Time: tm, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: NewPose(sk)}
					fresh.Run()
					kept.Time = tm
					kept.Run()
					if a, b := fromSoA(fresh.Output), fromSoA(kept.Output); !posesEqual(a, b) {
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
	sk := humanoid()
	a, b := mocapClip(sk, 2), mocapClip(sk, 1.5)
	b.Name = "Mocap 1.5 s"
	ra, _, err := CompressClip(&a, sk, CompressOptions{Tolerance: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	rb, _, err := CompressClip(&b, sk, CompressOptions{Tolerance: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	if ra.NumCursors() != rb.NumCursors() || ra.CacheLen() != rb.CacheLen() {
		t.Fatalf("the clips need %d and %d cursors, caches of %d and %d: the test needs them alike", ra.NumCursors(), rb.NumCursors(), ra.CacheLen(), rb.CacheLen())
	}
	job := SampleSoAJob{Clip: ra, Time: 0.5, Cursors: make([]int32, ra.NumCursors()), Cache: make([]float32, ra.CacheLen()), Output: NewPose(sk)}
	job.Run()
	job.Clip, job.Time = rb, 0.501
	job.Run()
	fresh := SampleSoAJob{Clip: rb, Time: 0.501, Cursors: make([]int32, rb.NumCursors()), Cache: make([]float32, rb.CacheLen()), Output: NewPose(sk)}
	fresh.Run()
	if got, want := fromSoA(job.Output), fromSoA(fresh.Output); !posesEqual(got, want) {
		t.Fatalf("after the other clip: %v; a fresh job gives %v", got, want)
	}
}

// compressedB2P is Blend2Palette-100's clip A compressed at 0.01 cm.
func compressedB2P(t *testing.T) *RuntimeClip {
	t.Helper()
	clip := b2pClips()[0]
	rc, _, err := CompressClip(&clip, b2pSkeleton(), CompressOptions{Tolerance: 1e-4})
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
	if len(rc.pk.frame) == 0 {
		t.Fatal("the clip has no frames: the test needs them")
	}
	a, b := rc.NewSampleJob(false, NewSoAPose(b2pJoints)), rc.NewSampleJob(false, NewSoAPose(b2pJoints))
	a.Time, b.Time = 0.5, 1.2
	a.Run()
	b.Run()
	a.Cursors = b.Cursors // a's cache, b's cursors
	a.Time = 1.21
	a.Run()
	fresh := rc.NewSampleJob(false, NewSoAPose(b2pJoints))
	fresh.Time = 1.21
	fresh.Run()
	if got, want := fromSoA(a.Output), fromSoA(fresh.Output); !posesEqual(got, want) {
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
	for _, path := range kernelPaths() {
		setKernelPath(path)
		for _, nlerp := range []bool{false, true} {
			kept := rc.NewSampleJob(nlerp, NewSoAPose(b2pJoints))
			for _, tm := range times {
				kept.Time = tm
				kept.Run()
				fresh := rc.NewSampleJob(nlerp, NewSoAPose(b2pJoints))
				fresh.Time = tm
				fresh.Run()
				got, want := fromSoA(kept.Output), fromSoA(fresh.Output)
				for j, tr := range got {
					if !finiteTransform(tr) {
						t.Fatalf("%s, nlerp %v, at %v: joint %d %v", path, nlerp, tm, j, tr)
					}
				}
				if !posesEqual(got, want) {
					t.Fatalf("%s, nlerp %v, at %v: %v; a fresh job gives %v", path, nlerp, tm, got[:1], want[:1])
				}
			}
		}
	}
	restoreKernels()
}

// finiteTransform reports whether every component of tr is finite.
func finiteTransform(tr Transform) bool {
	for _, v := range [10]float32{tr.Translation[0], tr.Translation[1], tr.Translation[2], tr.Rotation.V[0], tr.Rotation.V[1], tr.Rotation.V[2], tr.Rotation.W, tr.Scale[0], tr.Scale[1], tr.Scale[2]} {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return false
		}
	}
	return true
}

// TestCompressedKeyTimesDecode reads the times of every track that keys
// some of the table's times back from the packed bytes, bit by bit, as a
// file reader would: a mask of one bit per time of the table, or an index
// per key. They must be the times the sampler finds its keys at
// (keyTime, which finds a mask's k-th set bit a word at a time), and the
// clips must hold tracks of both forms.
func TestCompressedKeyTimesDecode(t *testing.T) {
	sk := humanoid()
	var masks, indices int
	for _, tol := range []float64{1e-4, 1e-3, 1e-2} {
		for _, c := range []Clip{mocapClip(sk, 4), humanoidClips(sk)[1]} {
			rc, _, err := CompressClip(&c, sk, CompressOptions{Tolerance: tol})
			if err != nil {
				t.Fatal(err)
			}
			pk := rc.pk
			for p := range pk.tracks {
				for j := range pk.tracks[p] {
					tr := &pk.tracks[p][j]
					if tr.n < 2 || tr.every {
						continue
					}
					var want []float32
					at := int(tr.toff) * 8
					if tr.mask {
						masks++
						for i := range pk.times {
							if readBits(pk.data, at+i, 1) == 1 {
								want = append(want, pk.times[i])
							}
						}
					} else {
						indices++
						for k := range int(tr.n) {
							want = append(want, pk.times[readBits(pk.data, at+k*int(pk.timeBits), pk.timeBits)])
						}
					}
					var got []float32
					for k := range int(tr.n) {
						got = append(got, pk.keyTime(tr, k))
					}
					if !slices.Equal(got, want) || !slices.IsSorted(want) {
						t.Fatalf("%s at %g: path %d joint %d (mask %v): key times %v; the bytes hold %v", c.Name, tol, p, j, tr.mask, got, want)
					}
					if tr.mask && len(pk.times) >= int(tr.n)*int(pk.timeBits) {
						t.Errorf("%s at %g: path %d joint %d: a mask of %d bits where %d indices take %d", c.Name, tol, p, j, len(pk.times), tr.n, int(tr.n)*int(pk.timeBits))
					}
				}
			}
		}
	}
	if masks == 0 || indices == 0 {
		t.Errorf("%d tracks with a mask and %d with indices; want both", masks, indices)
	}
}

// TestCompressedRangesDecode reads every coded track's ranges back from
// the packed bytes, as a file reader would (the engine keeps them decoded),
// and finds the values it samples with, on a clip whose rotations turn
// about one axis (minimums of exactly 0, written a bit each) and on one
// that turns about tilted axes.
func TestCompressedRangesDecode(t *testing.T) {
	sk := humanoid()
	about := func(axis mgl32.Vec3) Clip {
		c := Clip{Name: "About", Duration: 1}
		for j := range sk.NumJoints() {
			tr := Track{Joint: j, Path: Rotation, Interp: Linear}
			for k := 0; k <= 30; k++ {
				q := mgl32.QuatRotate(float32(0.6*math.Sin(2*math.Pi*float64(k)/30+float64(j))), axis)
				tr.Times = append(tr.Times, float32(k)/30)
				tr.Values = append(tr.Values, q.V[0], q.V[1], q.V[2], q.W)
			}
			c.Tracks = append(c.Tracks, tr)
		}
		return c
	}
	zeros := 0
	for _, c := range []Clip{about(mgl32.Vec3{1, 0, 0}), mocapClip(sk, 1)} {
		rc, _, err := CompressClip(&c, sk, CompressOptions{Tolerance: 1e-4})
		if err != nil {
			t.Fatal(err)
		}
		pk := rc.pk
		for p := range pk.tracks {
			for j, tr := range pk.tracks[p] {
				if tr.n < 2 || tr.bits == 32 {
					continue
				}
				if tr.zero {
					zeros++
				}
				at, m := int(tr.off)*8, tr.rbits
				read := func() float32 {
					if tr.zero {
						flag := readBits(pk.data, at, 1)
						at++
						if flag == 0 {
							return 0
						}
					}
					v := math.Float32frombits(readBits(pk.data, at, 9+m) << (23 - m))
					at += 9 + int(m)
					return v
				}
				for c := range 3 {
					if v := read(); math.Float32bits(v) != math.Float32bits(tr.lo[c]) {
						t.Fatalf("path %d joint %d: minimum %d reads %v; the engine has %v", p, j, c, v, tr.lo[c])
					}
				}
				for c := range 3 {
					if tr.cbits[c] == 0 {
						continue
					}
					if v := read(); math.Float32bits(v) != math.Float32bits(tr.step[c]) {
						t.Fatalf("path %d joint %d: step %d reads %v; the engine has %v", p, j, c, v, tr.step[c])
					}
				}
			}
		}
	}
	if zeros == 0 {
		t.Fatal("no track wrote its ranges with zero flags: the test needs one")
	}
}

// halfTurned turns every rotation key of c half a turn about z (from the
// left), so that its tracks rebuild z rather than w (dropComponent).
func halfTurned(c Clip) Clip {
	c.Name += " half-turned"
	c.Tracks = slices.Clone(c.Tracks)
	for i := range c.Tracks {
		tr := &c.Tracks[i]
		if tr.Path != Rotation {
			continue
		}
		tr.Values = slices.Clone(tr.Values)
		for k := 0; k < len(tr.Values); k += 4 {
			v := tr.Values[k : k+4]
			v[0], v[1], v[2], v[3] = qmul(0, 0, 1, 0, v[0], v[1], v[2], v[3])
		}
	}
	return c
}

func TestCompressDropsConstantTracks(t *testing.T) {
	sk := chain(3)
	// Every track at rest: an empty time table (its form, a list, in 2
	// bits and a count of 0 in 1) and the bit per joint and path (9 bits):
	// 12 bits in 2 bytes.
	rest := merge("Rest", constClip("a", 1, 1, 1, 0, 0), turnClip("b", 1, 2, 0, 0))
	// One constant translation away from rest, (1, 0.5, 0): those 12 bits,
	// 8 of descriptor (kind in 2, mantissa bits, x-y-z flag) and three
	// floats that need no mantissa bits, 9 bits each (sign and exponent):
	// 47 bits in 6 bytes.
	moved := constClip("Moved", 1, 1, 1, 0.5, 0)
	// A STEP track is kept as it is: its two times and values (32 bytes)
	// and a descriptor (4), after the 2 bytes of an empty clip.
	step := Clip{Name: "Step", Tracks: []Track{{Joint: 1, Path: Scale, Interp: Step, Times: []float32{0, 0.5}, Values: []float32{1, 1, 1, 2, 2, 2}}}}
	for _, c := range []struct {
		clip Clip
		want int
	}{{rest, 2}, {moved, 6}, {step, 2 + 32 + 4}} {
		rc, rep, err := CompressClip(&c.clip, sk, CompressOptions{Tolerance: 1e-4})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Bytes != c.want || rep.MaxError != 0 {
			t.Errorf("%s: %d bytes, error %g; want %d bytes, no error", c.clip.Name, rep.Bytes, rep.MaxError, c.want)
		}
		got := fromSoA(sampleRuntime(rc, 0.5, sk))
		want := samplePose(sk, &c.clip, 0.5)
		if !posesEqual(got, want) {
			t.Errorf("%s: %v; want %v", c.clip.Name, got, want)
		}
	}
}

// sampleRuntime samples rc at t with a fresh job.
func sampleRuntime(rc *RuntimeClip, t float32, sk *Skeleton) *SoAPose {
	job := SampleSoAJob{Clip: rc, Time: t, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: NewPose(sk)}
	job.Run()
	return job.Output
}

func TestCompressKeepsStepAndMorphAndBoundsCubic(t *testing.T) {
	sk := chain(3)
	sk.MorphRest, sk.MorphJoint = []float32{0, 0.5}, []int{1, 1}
	clip := merge("Mixed", mocapClip(sk, 1))
	clip.Tracks = append(clip.Tracks,
		Track{Joint: 1, Path: Scale, Interp: Step, Times: []float32{0, 0.5}, Values: []float32{1, 1, 1, 2, 2, 2}},
		Track{Joint: 2, Path: Translation, Interp: CubicSpline, Times: []float32{0, 1},
			Values: []float32{0, 0, 0, 1, 0, 0, 3, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0}})
	clip.Morph = []MorphTrack{{Channel: 0, Count: 2, Interp: Linear, Times: []float32{0, 1}, Values: []float32{0, 1, 1, 0}}}
	raw, err := NewRuntimeClip(&clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	rc, _, err := CompressClip(&clip, sk, CompressOptions{Tolerance: 1e-4})
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

func TestCompressRefusesBadTolerance(t *testing.T) {
	sk := chain(2)
	clip := rampClip("Ramp", 1, 1, 0, 1)
	for _, tol := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		_, _, err := CompressClip(&clip, sk, CompressOptions{Tolerance: tol})
		if err == nil || !strings.Contains(err.Error(), "tolerance") {
			t.Errorf("tolerance %v: error %v; want one naming the tolerance", tol, err)
		}
	}
}

// A component that hardly moves costs fewer bits than one that moves a
// lot: a joint sliding along x and turning about x, with a wobble of a
// micrometre (a microradian) on y and nothing on z, codes x with many
// bits and y and z with none, within the tolerance.
func TestCompressGivesQuietComponentsFewerBits(t *testing.T) {
	sk := chain(3)
	c := Clip{Name: "Slide", Duration: 2}
	move := Track{Joint: 0, Path: Translation, Interp: Linear}
	turn := Track{Joint: 0, Path: Rotation, Interp: Linear}
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
	c.Tracks = []Track{move, turn}
	const tol = 1e-4
	rc, _, err := CompressClip(&c, sk, CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Path{Translation, Rotation} {
		tr := rc.pk.tracks[p][0]
		if tr.n < 2 || tr.bits >= 32 {
			t.Fatalf("%v track: %d keys at %d bits; want coded keys", p, tr.n, tr.bits)
		}
		if cb := tr.cbits; cb[0] < 6 || cb[1] != 0 || cb[2] != 0 {
			t.Errorf("%v track codes x, y, z at %v bits; want x at 6 or more, y and z at 0", p, cb)
		}
	}
	if e := compressedError(t, sk, &c, rc, keyTimes(&c)); e > tol {
		t.Errorf("error %g m, over the tolerance %g", e, tol)
	}
}

// cutMantissaToward keeps m mantissa bits and rounds the way it is told,
// by less than one unit of the kept bits.
func TestCutMantissaToward(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for range 10000 {
		v := float32(rng.NormFloat64() * math.Pow(10, rng.Float64()*8-4))
		m := uint8(rng.IntN(24))
		for _, up := range []bool{false, true} {
			r := cutMantissaToward(v, m, up)
			if low := math.Float32bits(r) & (1<<(23-uint32(m)) - 1); m < 23 && low != 0 {
				t.Fatalf("cut(%g, %d) = %g keeps more than %d mantissa bits", v, m, r, m)
			}
			if (up && r < v) || (!up && r > v) {
				t.Fatalf("cut(%g, %d, up %v) = %g, on the wrong side", v, m, up, r)
			}
			if d := math.Abs(float64(r - v)); d > math.Abs(float64(v))*math.Pow(2, -float64(m)) {
				t.Fatalf("cut(%g, %d, up %v) = %g, %g away", v, m, up, r, d)
			}
		}
	}
}

// A few keys that a low rate codes exactly (a turn there and back) need
// no exact ranges either: they may spend a sixteenth of the budget, as a
// constant's value does, on shorter minimums and steps.
func TestCompressExactKeysCutTheirRanges(t *testing.T) {
	sk := chain(3)
	q := mgl32.QuatRotate(0.5, mgl32.Vec3{1, 0, 0})
	c := Clip{Name: "Nod", Duration: 2, Tracks: []Track{{Joint: 0, Path: Rotation, Interp: Linear,
		Times: []float32{0, 1, 2}, Values: []float32{0, 0, 0, 1, q.V[0], q.V[1], q.V[2], q.W, 0, 0, 0, 1}}}}
	const tol = 1e-4
	rc, _, err := CompressClip(&c, sk, CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	tr := rc.pk.tracks[Rotation][0]
	if tr.n != 3 || tr.bits >= 32 || tr.rbits >= 23 {
		t.Errorf("nod: %d keys at %v bits, ranges with %d mantissa bits; want 3 coded keys and cut ranges", tr.n, tr.cbits, tr.rbits)
	}
	if e := compressedError(t, sk, &c, rc, keyTimes(&c)); e > tol {
		t.Errorf("error %g m, over the tolerance %g", e, tol)
	}
}

// A constant rotation away from rest keeps x, y and z (w rebuilt) where
// that is shorter than four floats, within the tolerance; the sign of a
// key given with w < 0 does not matter.
func TestCompressConstantRotationKeepsXYZ(t *testing.T) {
	sk := chain(3)
	q := mgl32.QuatRotate(2, mgl32.Vec3{0.3, 1, 0.2}.Normalize())
	c := Clip{Name: "Pose", Duration: 1, Tracks: []Track{
		{Joint: 0, Path: Rotation, Interp: Linear, Times: []float32{0, 1}, Values: []float32{q.V[0], q.V[1], q.V[2], q.W, q.V[0], q.V[1], q.V[2], q.W}},
		{Joint: 1, Path: Rotation, Interp: Linear, Times: []float32{0}, Values: []float32{-q.V[0], -q.V[1], -q.V[2], -q.W}},
	}}
	const tol = 1e-4
	rc, _, err := CompressClip(&c, sk, CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	for j := range 2 {
		if tr := rc.pk.tracks[Rotation][j]; tr.n != 1 || !tr.xyz {
			t.Errorf("joint %d: %d keys, x, y, z alone %v; want one value as x, y, z", j, tr.n, tr.xyz)
		}
	}
	if e := compressedError(t, sk, &c, rc, []float32{0, 0.3, 1}); e > tol {
		t.Errorf("error %g m, over the tolerance %g", e, tol)
	}
}

// Progress only goes forward, from 0 to 1, through every packing tried
// (four for a clip with splines).
func TestCompressProgressGoesForward(t *testing.T) {
	sk := humanoid()
	for _, c := range []Clip{mocapClip(sk, 1), cubicClip(mocapClip(sk, 1))} {
		var got []float64
		if _, _, err := CompressClip(&c, sk, CompressOptions{Tolerance: 1e-4, Progress: func(f float64) { got = append(got, f) }}); err != nil {
			t.Fatal(err)
		}
		if len(got) < 3 || got[len(got)-1] != 1 {
			t.Fatalf("%s: progress %v; want several steps ending at 1", c.Name, got)
		}
		for i, f := range got {
			if f < 0 || f > 1 || (i > 0 && f < got[i-1]) {
				t.Fatalf("%s: progress step %d is %v after %v", c.Name, i, f, got[max(i-1, 0)])
			}
		}
	}
}

// Times baked at a frame rate but rounded one by one lie on a grid of a
// few numbers; so do the times key reduction keeps of them, two times, a
// clip whose second half starts 0.8 frames late (a grid of fifths of a
// frame), and times whose closest two are whole seconds apart but lie on
// the source's 1/24 s grid (the hint). One time off the grid keeps the
// table as it is.
func TestGridTimes(t *testing.T) {
	frames := func(rate float64, at ...float64) []float32 {
		var out []float32
		for _, f := range at {
			out = append(out, float32(f/rate))
		}
		return out
	}
	var baked []float32
	for k := range 61 {
		baked = append(baked, float32(0.1+float64(k)/30))
	}
	var late []float64
	for k := range 17 {
		late = append(late, float64(k))
	}
	for k := range 8 {
		late = append(late, 20.8+float64(k))
	}
	for _, c := range []struct {
		name   string
		times  []float32
		hint   float64
		step   float64 // 0: no grid
		points int
	}{
		{"k/30 s + 0.1 s", baked, 0, 1.0 / 30, 61},
		{"0, 1, 2, 3 s", []float32{0, 1, 2, 3}, 0, 1, 4},
		{"0 and 1.25 s", []float32{0, 1.25}, 0, 1.25, 2},
		{"frames 0, 1, 2, 5, 9, 10 at 30 Hz", frames(30, 0, 1, 2, 5, 9, 10), 0, 1.0 / 30, 11},
		{"frames 0-16, then 20.8-27.8 at 24 Hz", frames(24, late...), 0, 1.0 / 120, 140},
		{"frames 1, 25, 50 at 24 Hz", frames(24, 1, 25, 50), 0, 0, 0},
		{"frames 1, 25, 50 at 24 Hz, hint 1/24 s", frames(24, 1, 25, 50), 1.0 / 24, 1.0 / 24, 50},
	} {
		got, step, _, points := gridTimes(c.times, c.hint)
		if c.step == 0 {
			if step != 0 || !slices.Equal(got, c.times) {
				t.Errorf("%s: step %v; want no grid, the times as they are", c.name, step)
			}
			continue
		}
		if math.Abs(float64(step)-c.step) > 1e-6*c.step || points != c.points {
			t.Errorf("%s: step %v, %d points; want %v, %d", c.name, step, points, c.step, c.points)
			continue
		}
		for i := range got {
			// A time may move by rounding, no more: a few units of the
			// last place (2⁻²¹ of it), and lies on the grid as float32
			// arithmetic rebuilds it.
			i0 := math.Round(float64(got[i]-got[0]) / c.step)
			if d := math.Abs(float64(got[i] - c.times[i])); d > math.Max(math.Abs(float64(c.times[i])), c.step)*0x1p-21 || got[i] != got[0]+float32(i0)*step {
				t.Fatalf("%s: time %d: %v for %v", c.name, i, got[i], c.times[i])
			}
		}
	}
	// Whole seconds need no mantissa bits.
	if got, step, mant, _ := gridTimes([]float32{0, 1, 2, 3}, 0); step != 1 || mant != 0 || !slices.Equal(got, []float32{0, 1, 2, 3}) {
		t.Errorf("0, 1, 2, 3 s: %v, step %v, %d mantissa bits; want them as they are, step 1, none", got, step, mant)
	}
	off := slices.Clone(baked)
	off[30] += 0.01 / 30
	if got, step, _, _ := gridTimes(off, 0); step != 0 || !slices.Equal(got, off) {
		t.Errorf("a time a hundredth of a frame off the grid: step %v; want the table kept", step)
	}
}

// The exponential-Golomb code writes n+1 in binary after as many zeros
// as it has digits less one: 0 is "1", 1 is "010", 3 is "00100", 83 is
// 84 = 1010100 after six zeros.
func TestExpGolombBits(t *testing.T) {
	for n, want := range map[int]int{0: 1, 1: 3, 2: 3, 3: 5, 6: 5, 7: 7, 83: 13, 254: 15, 255: 17} {
		if got := expGolombBits(n); got != want {
			t.Errorf("expGolombBits(%d) = %d; want %d", n, got, want)
		}
	}
}

// Half turns (w = 0) kept as x, y, z: what is stored is the cut x, y, z,
// whose w the sampler rebuilds, so that is what must be within the
// tolerance, even where normalizing the cut values would land back on the
// key exactly.
func TestCompressConstantHalfTurn(t *testing.T) {
	sk := humanoid()
	c := mocapClip(sk, 2)
	arm := sk.JointIndex("upper_arm.L")
	h := float32(math.Sqrt2 / 2)
	for i := range c.Tracks {
		if tr := &c.Tracks[i]; tr.Joint == arm && tr.Path == Rotation {
			tr.Times = []float32{0}
			tr.Values = []float32{h, 0, h, 0}
		}
	}
	for _, tol := range []float64{1e-3, 1e-4} {
		rc, rep, err := CompressClip(&c, sk, CompressOptions{Tolerance: tol})
		if err != nil {
			t.Fatal(err)
		}
		if !rc.Compressed() || rep.Ratio() < 2 {
			t.Errorf("at %g: compressed %v, %d → %d bytes; want it packed", tol, rc.Compressed(), rep.RawBytes, rep.Bytes)
		}
		if e := compressedError(t, sk, &c, rc, keyTimes(&c)); e > tol || rep.MaxError > tol {
			t.Errorf("at %g: error %g m (reported %g)", tol, e, rep.MaxError)
		}
	}
}

// A long clip's times round coarser than a short one's (float32 at 40 s
// resolves 4 µs): rebuilding them evenly would move its keys further than
// a fast joint allows, so its table stays as it is, and the clip packs.
func TestCompressLongClip(t *testing.T) {
	sk := humanoid()
	c := mocapClip(sk, 40)
	const tol = 1e-5
	rc, rep, err := CompressClip(&c, sk, CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	if !rc.Compressed() || rep.Ratio() < 2 || rep.MaxError > tol {
		t.Errorf("40 s of motion at %g: compressed %v, %.2f:1, error %g", tol, rc.Compressed(), rep.Ratio(), rep.MaxError)
	}
}

// A joint swinging through a half turn about z (160° to 200°: w crosses 0,
// z stays near 1) codes x, y and w and rebuilds z, the component furthest
// from zero: rebuilding w made z swing between ±1 (w ≥ 0) and lost
// precision in the root near w = 0, which cost such tracks many bits or
// left them float32. It stays within the tolerance at the keys and
// between them, played backwards, which decodes the pairs afresh.
func TestCompressRebuildsTheLargestComponent(t *testing.T) {
	sk := chain(3)
	c := Clip{Name: "Swing", Duration: 2}
	turn := Track{Joint: 0, Path: Rotation, Interp: Linear}
	for k := 0; k <= 60; k++ {
		tm := float32(k) / 30
		a := (180 + 20*math.Sin(math.Pi*float64(tm))) * math.Pi / 180 / 2
		turn.Times = append(turn.Times, tm)
		turn.Values = append(turn.Values, 0, 0, float32(math.Sin(a)), float32(math.Cos(a)))
	}
	c.Tracks = []Track{turn}
	const tol = 1e-4
	rc, rep, err := CompressClip(&c, sk, CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	// w spans cos 80° to −cos 80° (0.35); a 2 m reach at 1e-4 m wants it
	// to about 5e-5: 13 bits. Rebuilding w coded z over ±1 at 22.
	tr := rc.pk.tracks[Rotation][0]
	if tr.n < 2 || tr.bits >= 32 || tr.drop != 2 || tr.keyBits() > 16 {
		t.Fatalf("swing track: %d keys at %v bits rebuilding component %d; want coded keys of 16 bits or fewer, rebuilding z (2)", tr.n, tr.cbits, tr.drop)
	}
	times := keyTimes(&c)
	for i := len(times) - 1; i > 0; i-- { // halfway between keys, backwards
		times = append(times, (times[i]+times[i-1])/2)
	}
	if e := compressedError(t, sk, &c, rc, times); e > tol || rep.MaxError > tol {
		t.Errorf("error %g m (reported %g), over the tolerance %g", e, rep.MaxError, tol)
	}
}

// models64 is the palette job's model matrices in float64: a point p in
// joint j's space lands, through the chain, where translating, turning
// (q·p·q*) and scaling joint by joint puts it, and the engine's float32
// matrices are the same to float32 rounding.
func TestModels64(t *testing.T) {
	rng := mrand.New(mrand.NewSource(3))
	const n = 6
	sk := chain(n)
	pose, js := randPose(rng, n)
	got := make([]float64, PaletteFloats*n)
	models64(sk.Parents, pose, got)
	engine := make([]float32, PaletteFloats*n)
	(&ModelPaletteJob{Skeleton: sk, Input: pose, Models: engine}).Run()
	rotate := func(q q64, v [3]float64) [3]float64 {
		r := q.mul(q64{v[0], v[1], v[2], 0}).mul(q.conj())
		return [3]float64{r[0], r[1], r[2]}
	}
	for j := range n {
		for _, p := range [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, -2, 0.7}} {
			want := p
			for a := j; a >= 0; a = sk.Parents[a] {
				s := js[a].s
				want = rotate(js[a].q, [3]float64{want[0] * s[0], want[1] * s[1], want[2] * s[2]})
				for c := range 3 {
					want[c] += js[a].t[c]
				}
			}
			m := got[j*PaletteFloats:]
			e := engine[j*PaletteFloats:]
			for r := range 3 {
				v := m[r*4]*p[0] + m[r*4+1]*p[1] + m[r*4+2]*p[2] + m[r*4+3]
				ve := float64(e[r*4])*p[0] + float64(e[r*4+1])*p[1] + float64(e[r*4+2])*p[2] + float64(e[r*4+3])
				// The pose's float32 quaternions are unit to 1e-7, which
				// the matrices carry and q·p·q* does not.
				if math.Abs(v-want[r]) > 1e-6*(1+math.Abs(want[r])) || math.Abs(ve-v) > 1e-5*(1+math.Abs(v)) {
					t.Fatalf("joint %d, point %v, row %d: models64 %v, engine %v; want %v", j, p, r, v, ve, want[r])
				}
			}
		}
	}
}
