package anim_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

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
	for _, path := range kernelPaths() {
		anim.SetKernelPath(path)
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
	}
	anim.RestoreKernels()
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
