package anim_test

import (
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

func sampleMorphAt(t *testing.T, sk *anim.Skeleton, c *anim.Clip, tm float32) *anim.SoAPose {
	t.Helper()
	rc, err := anim.NewRuntimeClip(c, sk)
	if err != nil {
		t.Fatal(err)
	}
	out := anim.NewPose(sk)
	(&anim.SampleSoAJob{Clip: rc, Time: tm, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: out}).Run()
	return out
}

func wantW(t *testing.T, what string, got []float32, want ...float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d weights %v, want %v", what, len(got), got, want)
	}
	for k := range want {
		if !animtest.ApproxEqual(got[k], want[k], 1e-6) {
			t.Errorf("%s: weights %v, want %v", what, got, want)
			return
		}
	}
}

func TestMorphWeightsSampleAndBlend(t *testing.T) {
	sk := animtest.MorphSkeleton()
	clips := animtest.MorphClips()
	m := sampleMorphAt(t, sk, &clips[0], 0.25)
	wantW(t, "M at 0.25 (channel 2 at rest)", m.W, 0.25, 0.75, 0.5)
	wantW(t, "N before its step", sampleMorphAt(t, sk, &clips[1], 0.3).W, 0.1, 0.2, 0.2)
	n := sampleMorphAt(t, sk, &clips[1], 0.7)
	wantW(t, "N after its step", n.W, 0.1, 0.2, 0.8)
	wantW(t, "C at 0.25: 3/16 − 2/64", sampleMorphAt(t, sk, &clips[2], 0.25).W, 0.15625, 0.5, 0.5)
	wantW(t, "M past its end holds the last key", sampleMorphAt(t, sk, &clips[0], 3).W, 1, 0, 0.5)

	out := anim.NewPose(sk)
	anim.BlendSoA(out, m, n, 0.25, false)
	wantW(t, "lerp M→N by 0.25", out.W, 0.2125, 0.6125, 0.575)
	anim.MaskedBlendSoA(out, m, n, 1, []float32{0, 1}, false)
	wantW(t, "N over M on joint 1's channels only", out.W, 0.1, 0.2, 0.5)

	diff := anim.NewPose(sk)
	rest := anim.NewPose(sk)
	rest.FromRest(sk)
	anim.DifferenceSoA(diff, n, rest)
	wantW(t, "N − rest", diff.W, 0, 0, 0.3)
	anim.AddSoA(out, m, diff, 0.5, nil)
	wantW(t, "M + ½(N − rest)", out.W, 0.25, 0.75, 0.65)
	anim.AddSoA(out, m, diff, 1, []float32{1, 0})
	wantW(t, "the same masked to joint 0", out.W, 0.25, 0.75, 0.8)
}

func TestMorphErrors(t *testing.T) {
	sk := animtest.MorphSkeleton()
	bad := anim.Clip{Name: "X", Morph: []anim.MorphTrack{{Channel: 2, Count: 2, Interp: anim.Linear, Times: []float32{0}, Values: []float32{0, 0}}}}
	if _, err := anim.NewRuntimeClip(&bad, sk); err == nil || !strings.Contains(err.Error(), "channels 2 to 3 of 3") {
		t.Errorf("a track past the last channel: %v", err)
	}
	bad = anim.Clip{Name: "Y", Morph: []anim.MorphTrack{{Channel: 0, Count: 2, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0, 0, 1}}}}
	if _, err := anim.NewRuntimeClip(&bad, sk); err == nil || !strings.Contains(err.Error(), "3 values for 2 keys of 2 weights; want 4") {
		t.Errorf("a track with the wrong value count: %v", err)
	}
	for _, times := range [][]float32{{0, 1, 0.5}, {0, 0.5, 0.5}} {
		bad = anim.Clip{Name: "Z", Morph: []anim.MorphTrack{{Channel: 0, Count: 1, Interp: anim.Linear, Times: times, Values: []float32{0, 1, 0}}}}
		if _, err := anim.NewRuntimeClip(&bad, sk); err == nil || !strings.Contains(err.Error(), "do not increase at key 2") {
			t.Errorf("key times %v: %v; want them refused at key 2", times, err)
		}
	}
	sk.MorphJoint = sk.MorphJoint[:2]
	if err := sk.Validate(); err == nil {
		t.Error("a skeleton with 3 rest weights for 2 channels validated")
	}
	// Channels belong to joints 0 to n − 1.
	one := animtest.Chain(1)
	one.MorphRest = []float32{0.25}
	for _, j := range []int{0, 1, -1} {
		one.MorphJoint = []int{j}
		if err := one.Validate(); (err == nil) != (j == 0) {
			t.Errorf("a channel on joint %d of 1: %v", j, err)
		}
	}
}

// A pose with fewer weights than the skeleton's channels takes the rest
// weights it has room for and none of a track that does not fit.
func TestMorphIntoAShortPose(t *testing.T) {
	sk := animtest.MorphSkeleton()
	c := anim.Clip{Name: "wide", Duration: 1, Morph: []anim.MorphTrack{{Channel: 0, Count: 3, Interp: anim.Linear,
		Times: []float32{0, 1}, Values: []float32{1, 1, 1, 2, 2, 2}}}}
	rc, err := anim.NewRuntimeClip(&c, sk)
	if err != nil {
		t.Fatal(err)
	}
	out := anim.NewSoAPose(sk.NumJoints())
	out.W = make([]float32, 1)
	job := rc.NewSampleJob(false, out)
	job.Time = 0.5
	job.Run()
	if out.W[0] != sk.MorphRest[0] {
		t.Errorf("one weight of %d: %v; want the rest weight %v", len(sk.MorphRest), out.W[0], sk.MorphRest[0])
	}
}

// TestMorphCursor samples one four-key track forwards, then jumps back and
// forth with the same cursors: each time the bracketing pair.
func TestMorphCursor(t *testing.T) {
	sk := animtest.Chain(1)
	sk.MorphRest, sk.MorphJoint = []float32{0}, []int{0}
	c := anim.Clip{Name: "ramp", Morph: []anim.MorphTrack{{Channel: 0, Count: 1, Interp: anim.Linear,
		Times: []float32{0, 1, 2, 3}, Values: []float32{0, 10, 20, 40}}}}
	rc, err := anim.NewRuntimeClip(&c, sk)
	if err != nil {
		t.Fatal(err)
	}
	out := anim.NewPose(sk)
	job := rc.NewSampleJob(false, out)
	for _, tc := range []struct{ t, want float32 }{{0.5, 5}, {1.5, 15}, {2.5, 30}, {0.2, 2}, {2.9, 38}, {1, 10}, {-1, 0}, {5, 40}} {
		job.Time = tc.t
		job.Run()
		if !animtest.ApproxEqual(out.W[0], tc.want, 1e-5) {
			t.Errorf("at %v: %v, want %v", tc.t, out.W[0], tc.want)
		}
	}
	// The cursor of the pair (2, 3) taken to a clip of three keys, where
	// it is the last key: 2 lies between keys 1 and 3 there, 25.
	job.Time = 2.5
	job.Run()
	short := anim.Clip{Name: "short", Morph: []anim.MorphTrack{{Channel: 0, Count: 1, Interp: anim.Linear,
		Times: []float32{0, 1, 3}, Values: []float32{0, 10, 40}}}}
	if job.Clip, err = anim.NewRuntimeClip(&short, sk); err != nil {
		t.Fatal(err)
	}
	job.Time = 2
	job.Run()
	if !animtest.ApproxEqual(out.W[0], 25, 1e-5) {
		t.Errorf("at 2 with the cursor of another clip: %v, want 25", out.W[0])
	}
}
