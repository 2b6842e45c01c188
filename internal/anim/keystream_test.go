package anim_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// streamClip is a clip whose tracks each keep their own timeline: key
// counts 1 to 9, uneven spacing, some tracks missing, one STEP and one
// CUBICSPLINE track among the LINEAR ones.
func streamClip(joints int) anim.Clip {
	rnd := animtest.Mulberry32(7)
	c := anim.Clip{Name: "uneven", Duration: 3}
	for j := range joints {
		for p := range 3 {
			if (j+p)%5 == 4 {
				continue // the rest pose holds
			}
			nk := 1 + int(rnd.Next()*9)
			tr := anim.Track{Joint: j, Path: anim.Path(p), Interp: anim.Linear}
			switch {
			case j == 3 && p == int(anim.Scale):
				tr.Interp = anim.Step
			case j == 5 && p == int(anim.Translation):
				tr.Interp = anim.CubicSpline
			}
			t := float32(rnd.Next()*0.5 - 0.2)
			for range nk {
				tr.Times = append(tr.Times, t)
				t += float32(0.01 + rnd.Next()*0.6)
				per := 1
				if tr.Interp == anim.CubicSpline {
					per = 3
				}
				for range per {
					switch anim.Path(p) {
					case anim.Rotation:
						q := mgl32.QuatRotate(float32(rnd.Next()*6-3), mgl32.Vec3{float32(rnd.Next()), 1, float32(rnd.Next())}.Normalize())
						tr.Values = append(tr.Values, q.V[0], q.V[1], q.V[2], q.W)
					default:
						tr.Values = append(tr.Values, float32(rnd.Next()), float32(rnd.Next()), float32(rnd.Next()))
					}
				}
			}
			c.Tracks = append(c.Tracks, tr)
		}
	}
	return c
}

// TestStreamedSamplingMatchesSeeking plays a clip whose tracks have
// uneven timelines through one job (forward in small and large steps,
// back to near the start and further, through key times exactly, to NaN
// and infinities) and samples every time again with a fresh job whose
// cache was filled by seekStream, every track by binary search: the key
// streams must leave the cache exactly as seeking does, on every kernel
// path, with nlerp and slerp.
func TestStreamedSamplingMatchesSeeking(t *testing.T) {
	const joints = 23
	sk := animtest.Chain(joints)
	c := streamClip(joints)
	rc, err := anim.NewRuntimeClip(&c, sk)
	if err != nil {
		t.Fatal(err)
	}
	var times []float32
	for tm := float32(-0.3); tm < 3.5; tm += 1.0 / 60 {
		times = append(times, tm)
	}
	for _, tr := range c.Tracks[:12] {
		times = append(times, tr.Times...) // forward through key times exactly
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	times = append(times, 2.9, 0.4, 0.41, 1.7, nan, 0.2, inf, 1, -inf, 0.5, math.MaxFloat32, 0.6, 0.6, 3.1, 0.05)
	for _, tr := range c.Tracks {
		for _, kt := range tr.Times {
			times = append(times, kt, math.Nextafter32(kt, -inf), math.Nextafter32(kt, inf))
		}
	}
	for _, path := range kernelPaths() {
		for _, nlerp := range []bool{false, true} {
			anim.SetKernelPath(path)
			played := anim.SampleSoAJob{Clip: rc, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(joints)}
			for i, tm := range times {
				played.Time = tm
				played.Run()
				fresh := anim.SampleSoAJob{Clip: rc, Time: tm, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(joints)}
				seekTo := tm
				if tm != tm {
					seekTo = -inf
				}
				rc.SeekStream(seekTo, fresh.Cache) // current at seekTo: Run applies nothing more
				fresh.Run()
				for k := range played.Output.FieldBuf() {
					a, b := played.Output.FieldBuf()[k], fresh.Output.FieldBuf()[k]
					if math.Float32bits(a) != math.Float32bits(b) {
						t.Fatalf("%s nlerp=%v: step %d (t=%v, after t=%v): stripe %d joint %d: played %v, seeking %v",
							path, nlerp, i, tm, times[max(i-1, 0)], k/len(played.Output.FieldTx()), k%len(played.Output.FieldTx()), a, b)
					}
				}
			}
		}
	}
	anim.RestoreKernels()
}

// TestStreamStateFromElsewhere gives a job state that is not its own:
// cursors of any value, zeroed or garbage (they are a STEP or CUBICSPLINE
// track's, never the streams'), a cache head whose stream cursors run
// past the streams, and a cache filled from another clip of the same
// skeleton. Sampling must give what a fresh job gives, not index out of a
// stream nor reuse another clip's pairs; so must garbage in the cursors
// of paths without entries, which nothing validates. A head garbage in
// its next entry's time as well must not index out of a stream either,
// and a jump back puts it right.
func TestStreamStateFromElsewhere(t *testing.T) {
	sk := animtest.Chain(6)
	c := streamClip(6)
	rc, err := anim.NewRuntimeClip(&c, sk)
	if err != nil {
		t.Fatal(err)
	}
	fresh := anim.SampleSoAJob{Clip: rc, Time: 0.9, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(6)}
	fresh.Run()
	for _, bad := range []int32{0, -1, -7, math.MaxInt32, 1 << 20} {
		job := anim.SampleSoAJob{Clip: rc, Time: 0.5, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(6)}
		job.Run()
		for i := range job.Cursors {
			job.Cursors[i] = bad - int32(i)
		}
		job.Time = 0.9
		job.Run()
		for k, want := range fresh.Output.FieldBuf() {
			if job.Output.FieldBuf()[k] != want {
				t.Fatalf("cursors %d: float %d is %v, a fresh job's %v", bad, k, job.Output.FieldBuf()[k], want)
			}
		}
	}
	// Stream cursors past the streams' ends, and negative, in a head that
	// names the clip.
	job := anim.SampleSoAJob{Clip: rc, Time: 0.5, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(6)}
	for _, bad := range []int32{30000, 1 << 30, math.MaxInt32, -1, math.MinInt32} {
		job.Time = 0.5
		job.Run()
		for k := 2; k < 5; k++ {
			job.Cache[k] = math.Float32frombits(uint32(bad))
		}
		job.Time = 0.9
		job.Run()
		for k, want := range fresh.Output.FieldBuf() {
			if job.Output.FieldBuf()[k] != want {
				t.Fatalf("head cursors %d: float %d is %v, a fresh job's %v", bad, k, job.Output.FieldBuf()[k], want)
			}
		}
	}
	// A clip whose translations and scales have no entries: garbage in
	// their cursors, which nothing validates, is never read either.
	sparse := anim.Clip{Name: "sparse", Duration: 3}
	for _, tr := range c.Tracks {
		if tr.Path == anim.Rotation && tr.Interp == anim.Linear && len(tr.Times) >= 3 {
			sparse.Tracks = append(sparse.Tracks, tr)
		}
	}
	rs, err := anim.NewRuntimeClip(&sparse, sk)
	if err != nil {
		t.Fatal(err)
	}
	if rs.FieldKeyed() != 1<<anim.Rotation {
		t.Fatalf("sparse clip keyed paths %03b, want rotation only", rs.FieldKeyed())
	}
	freshSparse := anim.SampleSoAJob{Clip: rs, Time: 0.9, Cursors: make([]int32, rs.NumCursors()), Cache: make([]float32, rs.CacheLen()), Output: anim.NewSoAPose(6)}
	freshSparse.Run()
	for _, bad := range []int32{-1, -7, math.MinInt32, math.MaxInt32, 1 << 20} {
		job := anim.SampleSoAJob{Clip: rs, Time: 0.1, Cursors: make([]int32, rs.NumCursors()), Cache: make([]float32, rs.CacheLen()), Output: anim.NewSoAPose(6)}
		job.Run()
		job.Cache[2+anim.Translation] = math.Float32frombits(uint32(bad))
		job.Cache[2+anim.Scale] = math.Float32frombits(uint32(bad))
		for tm := float32(0.1); tm < 2.9; tm += 0.05 { // across the entries
			job.Time = tm
			job.Run()
		}
		job.Time = 0.9
		job.Run() // back: a seek
		for k, want := range freshSparse.Output.FieldBuf() {
			if job.Output.FieldBuf()[k] != want {
				t.Fatalf("unkeyed cursors %d: float %d is %v, a fresh job's %v", bad, k, job.Output.FieldBuf()[k], want)
			}
		}
	}
	// The rest of the head garbage too: the time of the next entry, which
	// a frame that applies none trusts, may hold the pairs back, but
	// nothing reads out of a stream, and going back refills them.
	back := anim.SampleSoAJob{Clip: rc, Time: 0.3, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(6)}
	back.Run()
	for _, bad := range []int32{30000, 1 << 30, math.MaxInt32, -1, math.MinInt32, 0x7f800000, 0x7fc00000} {
		job.Time = 0.5
		job.Run()
		for k := 2; k < anim.StreamHead; k++ {
			job.Cache[k] = math.Float32frombits(uint32(bad))
		}
		for _, tm := range []float32{0.9, 0.95, 0.3} {
			job.Time = tm
			job.Run()
		}
		for k, want := range back.Output.FieldBuf() {
			if job.Output.FieldBuf()[k] != want {
				t.Fatalf("head %d: float %d is %v after going back, a fresh job's %v", bad, k, job.Output.FieldBuf()[k], want)
			}
		}
	}
	// A cache filled from another clip: the same joints, other keys.
	other := streamClip(6)
	for i := range other.Tracks {
		for k := range other.Tracks[i].Values {
			other.Tracks[i].Values[k] += 0.5
		}
	}
	rb, err := anim.NewRuntimeClip(&other, sk)
	if err != nil {
		t.Fatal(err)
	}
	// Its keys at the same times: a hair after the time sampled last, no
	// entry of either clip begins, and the pairs must still be the other
	// clip's.
	for _, tm := range []float32{job.Time + 1e-4, 0.95} {
		job.Clip, job.Time = rb, tm
		job.Run()
		want := anim.SampleSoAJob{Clip: rb, Time: tm, Cursors: make([]int32, rb.NumCursors()), Cache: make([]float32, rb.CacheLen()), Output: anim.NewSoAPose(6)}
		want.Run()
		for k := range want.Output.FieldBuf() {
			if job.Output.FieldBuf()[k] != want.Output.FieldBuf()[k] {
				t.Fatalf("cache from another clip at %v: float %d is %v, a fresh job's %v", tm, k, job.Output.FieldBuf()[k], want.Output.FieldBuf()[k])
			}
		}
		job.Clip, job.Time = rc, tm
		job.Run()
	}
	// NaN holds the first keys, as −∞ does, also after a later time.
	job.Clip, job.Time = rc, float32(math.NaN())
	job.Run()
	first := anim.SampleSoAJob{Clip: rc, Time: float32(math.Inf(-1)), Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(6)}
	first.Run()
	for k := range first.Output.FieldBuf() {
		if job.Output.FieldBuf()[k] != first.Output.FieldBuf()[k] {
			t.Fatalf("at NaN: float %d is %v; at −∞ %v", k, job.Output.FieldBuf()[k], first.Output.FieldBuf()[k])
		}
	}
}

// TestClipTagsWrap draws clip tags across the wrap of their count: each a
// whole number from 1 to 2²⁴ − 1, exact in a float32 (so no two round to
// one), and no two of 2²⁴ − 1 in a row alike.
func TestClipTagsWrap(t *testing.T) {
	defer anim.SetClipTags(anim.SetClipTags(1<<24 - 6))
	seen := map[float32]bool{}
	for range 12 {
		tag := anim.NewClipTag()
		if tag != float32(int32(tag)) || tag < 1 || tag > 1<<24-1 || seen[tag] {
			t.Fatalf("tag %v after %d: want a new whole number in [1, 2²⁴ − 1]", tag, len(seen))
		}
		seen[tag] = true
	}
}

// TestStillGroupsMatchPortable samples a clip that moves one joint of 20
// (whole groups of 8 hold one value, the case the SIMD pass skips) on
// every kernel path: every joint must come out as the portable kernel
// gives it, bit for bit where the track holds one value.
func TestStillGroupsMatchPortable(t *testing.T) {
	const joints = 20
	sk := animtest.Chain(joints)
	for j := range sk.Rest {
		sk.Rest[j].Translation = mgl32.Vec3{float32(j), 0.5, -1}
		sk.Rest[j].Rotation = mgl32.QuatRotate(float32(j)/7, mgl32.Vec3{0, 1, 0})
		sk.Rest[j].Scale = mgl32.Vec3{1, 2, 1}
	}
	q0, q1 := mgl32.QuatRotate(0.2, mgl32.Vec3{1, 0, 0}), mgl32.QuatRotate(1.4, mgl32.Vec3{0, 0, 1})
	c := anim.Clip{Name: "one joint", Duration: 1, Tracks: []anim.Track{
		{Joint: 17, Path: anim.Rotation, Times: []float32{0, 1}, Values: []float32{q0.V[0], q0.V[1], q0.V[2], q0.W, q1.V[0], q1.V[1], q1.V[2], q1.W}},
		{Joint: 17, Path: anim.Translation, Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, 2, 3}},
		{Joint: 3, Path: anim.Scale, Times: []float32{0.5}, Values: []float32{2, 3, 4}},
	}}
	rc, err := anim.NewRuntimeClip(&c, sk)
	if err != nil {
		t.Fatal(err)
	}
	sample := func(path string, nlerp bool, tm float32) *anim.SoAPose {
		anim.SetKernelPath(path)
		defer anim.RestoreKernels()
		job := anim.SampleSoAJob{Clip: rc, Time: tm, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(joints)}
		job.Run()
		return job.Output
	}
	for _, path := range kernelPaths() {
		for _, nlerp := range []bool{false, true} {
			for _, tm := range []float32{0, 0.3, 1} {
				got, want := sample(path, nlerp, tm), sample("portable", nlerp, tm)
				p := len(got.FieldTx())
				for k := range got.FieldBuf() {
					j := k % p
					if j >= joints {
						continue
					}
					g, w := got.FieldBuf()[k], want.FieldBuf()[k]
					if j != 17 && g != w || math.Abs(float64(g-w)) > 1e-6 {
						t.Fatalf("%s nlerp=%v t=%v: stripe %d joint %d is %v, portable %v", path, nlerp, tm, k/p, j, g, w)
					}
				}
			}
		}
	}
}
