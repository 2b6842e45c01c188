package anim_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// checkClaims fails t where p claims held stripes (SoAPose.held) that its
// stripes do not hold, bit for bit.
func checkClaims(t *testing.T, what string, p *anim.SoAPose) {
	t.Helper()
	if err := p.CheckHeld(); err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

// TestHeldTags: clips whose joints have no translation or scale keys tag
// those stripes alike, as the rest pose's, and a difference clip tags them
// as the identity; stripes that a STEP track writes over, or keys, are not
// tagged.
func TestHeldTags(t *testing.T) {
	sk := animtest.Humanoid()
	rest := anim.NewPose(sk)
	rest.FromRest(sk)
	restT, restS := anim.TagStripes(anim.Translation, rest.Stripes(anim.Translation)), anim.TagStripes(anim.Scale, rest.Stripes(anim.Scale))
	if restT.Value().FieldIdentity() || !restS.Value().FieldIdentity() {
		t.Fatalf("rest tags: translation identity %v, scale identity %v; want false, true", restT.Value().FieldIdentity(), restS.Value().FieldIdentity())
	}
	for _, c := range animtest.HumanoidClips(sk) {
		rc, err := anim.NewRuntimeClip(&c, sk)
		if err != nil {
			t.Fatal(err)
		}
		if rc.FieldHeld()[anim.Translation] != restT || rc.FieldHeld()[anim.Scale] != restS || rc.FieldHeld()[anim.Rotation] != (anim.HeldTag{}) {
			t.Errorf("%s: held tags are not the rest pose's", c.Name)
		}
		d := rc.DifferenceClip(rest)
		if d == nil {
			t.Fatalf("%s: no difference clip", c.Name)
		}
		for _, p := range anim.TsPaths {
			if h := d.FieldHeld()[p]; h == (anim.HeldTag{}) || !h.Value().FieldIdentity() {
				t.Errorf("%s: the difference clip's %v is not tagged the identity", c.Name, p)
			}
		}
	}
	j := sk.JointIndex("head")
	for _, tc := range []struct {
		name  string
		track anim.Track
		held  [3]bool
	}{
		{"translation keys", anim.Track{Joint: j, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, 2, 3}}, [3]bool{false, false, true}},
		{"one translation key", anim.Track{Joint: j, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0.5}, Values: []float32{1, 2, 3}}, [3]bool{true, false, true}},
		{"STEP scale", anim.Track{Joint: j, Path: anim.Scale, Interp: anim.Step, Times: []float32{0, 0.5}, Values: []float32{2, 2, 2, 3, 3, 3}}, [3]bool{true, false, false}},
		{"scale keys", anim.Track{Joint: j, Path: anim.Scale, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{1, 1, 1, 2, 2, 2}}, [3]bool{true, false, false}},
	} {
		rc, err := anim.NewRuntimeClip(&anim.Clip{Name: tc.name, Duration: 1, Tracks: []anim.Track{tc.track}}, sk)
		if err != nil {
			t.Fatal(err)
		}
		for p := range anim.Path(3) {
			if got := rc.FieldHeld()[p] != (anim.HeldTag{}); got != tc.held[p] {
				t.Errorf("%s: %v tagged %v, want %v", tc.name, p, got, tc.held[p])
			}
		}
		if tc.name == "one translation key" && rc.FieldHeld()[anim.Translation] == restT {
			t.Errorf("%s: tagged as the rest pose's translation", tc.name)
		}
	}
}

// TestHeldSampleSkipsCopy: sampling a clip into a pose that already holds
// its held stripes by tag copies nothing (a stripe changed behind the
// tag's back shows it), and a write through Set drops the pose's claims.
func TestHeldSampleSkipsCopy(t *testing.T) {
	sk := animtest.Humanoid()
	clips := animtest.HumanoidClips(sk)
	idle, err := anim.NewRuntimeClip(&clips[0], sk)
	if err != nil {
		t.Fatal(err)
	}
	walk, err := anim.NewRuntimeClip(&clips[1], sk)
	if err != nil {
		t.Fatal(err)
	}
	eachKernelPath(func(path string) {
		p := anim.NewPose(sk)
		(&anim.SampleSoAJob{Clip: idle, Time: 0.5, Cursors: make([]int32, idle.NumCursors()), Cache: make([]float32, idle.CacheLen()), Output: p}).Run()
		rest := sk.Rest[1].Translation[1]
		if p.FieldTy()[1] != rest {
			t.Fatalf("%s: spine y %v after sampling, want the rest's %v", path, p.FieldTy()[1], rest)
		}
		p.FieldTy()[1] = 42 // behind the tag's back
		job := anim.SampleSoAJob{Clip: walk, Time: 0.3, Cursors: make([]int32, walk.NumCursors()), Cache: make([]float32, walk.CacheLen()), Output: p}
		job.Run()
		if p.FieldTy()[1] != 42 {
			t.Errorf("%s: sampling a clip holding the same translations copied them", path)
		}
		p.Set(0, p.At(0))
		job.Run()
		if p.FieldTy()[1] != rest {
			t.Errorf("%s: spine y %v after Set and sampling, want %v: Set kept the claim", path, p.FieldTy()[1], rest)
		}
		checkClaims(t, path, p)
	})
}

// TestHeldStripesAgree runs random sequences of sampling, blends, masked
// blends, additive layers, copies and Set over four poses, every output
// aliasing its inputs at times, once with the poses' held tags and once
// with them dropped before every step (which makes every step compute
// every stripe), on every kernel path: the poses must agree after each
// step, and every claim must hold.
func TestHeldStripesAgree(t *testing.T) {
	sk := animtest.Humanoid()
	n := sk.NumJoints()
	clips := animtest.HumanoidClips(sk)
	// A clip with translation keys (hips bob), whose translations are not
	// held, and one holding a scale that is not the rest's.
	bob := anim.Track{Joint: 0, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 0.5, 1}, Values: []float32{0, 0.95, 0, 0, 0.9, 0.02, 0, 0.95, 0}}
	grow := anim.Track{Joint: 4, Path: anim.Scale, Interp: anim.Linear, Times: []float32{0.2}, Values: []float32{1.5, 1.5, 1.5}}
	clips = append(clips, anim.Clip{Name: "Bob", Duration: 1, Tracks: []anim.Track{bob, clips[1].Tracks[0]}}, anim.Clip{Name: "Grow", Duration: 1, Tracks: []anim.Track{grow, clips[2].Tracks[0]}})
	rest := anim.NewPose(sk)
	rest.FromRest(sk)
	var rcs []*anim.RuntimeClip
	for i := range clips {
		rc, err := anim.NewRuntimeClip(&clips[i], sk)
		if err != nil {
			t.Fatal(err)
		}
		rcs = append(rcs, rc, rc.DifferenceClip(rest))
	}
	mask := make([]float32, n, anim.SoaPadded(n))
	for i := range mask {
		mask[i] = [...]float32{0, 0.3, 1, 0.7}[i%4]
	}
	eachKernelPath(func(path string) {
		rng := rand.New(rand.NewPCG(7, 11))
		var tagged, plain [4]*anim.SoAPose
		var jobs [2][]anim.SampleSoAJob
		for i := range tagged {
			tagged[i], plain[i] = anim.NewPose(sk), anim.NewPose(sk)
		}
		for w := range jobs {
			for _, rc := range rcs {
				jobs[w] = append(jobs[w], anim.SampleSoAJob{Clip: rc, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen())})
			}
		}
		claims := 0
		for step := range 3000 {
			o, a, b := rng.IntN(4), rng.IntN(4), rng.IntN(4)
			w := [...]float32{0.25, 0.5, 0.8, 1, 0}[rng.IntN(5)]
			var m []float32
			if rng.IntN(2) == 0 {
				m = mask
			}
			op := rng.IntN(7)
			k, tm, nlerp := rng.IntN(len(rcs)), rng.Float32()*3, rng.IntN(2) == 0
			tr := anim.Transform{Translation: mgl32.Vec3{0, rng.Float32(), 0}, Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
			copies, joint := rng.IntN(2) == 0 && o != a, rng.IntN(n)
			for world, p := range [2]*[4]*anim.SoAPose{&tagged, &plain} {
				if world == 1 {
					for _, q := range p {
						*q.FieldHeld() = [3]anim.HeldTag{}
					}
				}
				switch op {
				case 0, 1: // sampling, twice as often
					j := &jobs[world][k]
					j.Time, j.Nlerp, j.Output = tm, nlerp, p[o]
					j.Run()
				case 2:
					anim.BlendSoA(p[o], p[a], p[b], w, nlerp)
				case 3:
					anim.MaskedBlendSoA(p[o], p[a], p[b], w, m, nlerp)
				case 4, 5:
					anim.AddSoA(p[o], p[a], p[b], w, m)
				case 6:
					if copies {
						p[o].CopyFrom(p[a])
					} else {
						p[o].Set(joint, tr)
					}
				}
			}
			for i := range tagged {
				checkClaims(t, path, tagged[i])
				if tagged[i].FieldHeld()[anim.Translation] != (anim.HeldTag{}) {
					claims++
				}
				for s, v := range tagged[i].FieldBuf() {
					if u := plain[i].FieldBuf()[s]; v != u && (v == v || u == u) {
						t.Fatalf("%s: step %d (op %d into %d from %d, %d): pose %d stripe %d lane %d is %v with tags, %v without", path, step, op, o, a, b, i, s/len(tagged[i].FieldTx()), s%len(tagged[i].FieldTx()), v, u)
					}
				}
			}
		}
		if claims < 2000 {
			t.Errorf("%s: %d claims over 3000 steps of four poses: the tags went untested", path, claims)
		}
	})
}

// TestRestPoseClaims: NewRestPose holds the skeleton's rest pose and
// claims its translation and scale stripes as a clip without such keys
// does (scale as the identity, translation not); CheckHeld finds a claim
// that a write behind the tags' back broke, and names its path.
func TestRestPoseClaims(t *testing.T) {
	sk := animtest.Humanoid()
	rest := anim.NewRestPose(sk)
	for j := range sk.Rest {
		if rest.At(j) != sk.Rest[j] {
			t.Fatalf("joint %d: %v, want the rest transform %v", j, rest.At(j), sk.Rest[j])
		}
	}
	clip := animtest.HumanoidClips(sk)[0] // rotation keys only
	rc, err := anim.NewRuntimeClip(&clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	out := anim.NewPose(sk)
	job := rc.NewSampleJob(false, out)
	job.Run()
	if !out.HeldAs(rest, anim.Translation) || !out.HeldAs(rest, anim.Scale) || out.HeldAs(rest, anim.Rotation) {
		t.Error("a clip without translation or scale keys does not claim the rest pose's stripes there, or claims its rotations")
	}
	if !rest.HoldsIdentity(anim.Scale) || rest.HoldsIdentity(anim.Translation) {
		t.Error("the rest pose's scales are not claimed as the identity, or its translations are")
	}
	if err := rest.CheckHeld(); err != nil {
		t.Fatalf("the rest pose: %v", err)
	}
	rest.FieldTy()[3]++ // not through Set, which drops the claim
	if err := rest.CheckHeld(); err == nil || !strings.Contains(err.Error(), "translation") {
		t.Errorf("a broken translation claim: %v", err)
	}
}
