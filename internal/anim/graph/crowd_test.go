package graph

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// TestCrowdValidate breaks one argument of NewCrowd at a time.
func TestCrowdValidate(t *testing.T) {
	sk := animtest.Chain(4)
	for name, f := range map[string]func() error{
		"crowd skin": func() error {
			_, err := NewCrowd(sk, []anim.Skin{{Joints: []int{5}, InverseBind: make([]mgl32.Mat4, 1)}}, nil)
			return err
		},
		"crowd controller": func() error { _, err := NewCrowd(sk, nil, []*Controller{nil}); return err },
		"crowd skeleton": func() error {
			c, err := NewController(&Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "rest"}}}}}, animtest.Chain(2), nil)
			if err != nil {
				return nil // must not happen: reported as accepted
			}
			_, err = NewCrowd(sk, nil, []*Controller{c})
			return err
		},
		"crowd controller twice": func() error {
			c, err := NewController(&Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "rest"}}}}}, sk, nil)
			if err != nil {
				return nil // must not happen: reported as accepted
			}
			_, err = NewCrowd(sk, nil, []*Controller{c, c})
			return err
		},
	} {
		if f() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestCrowdMatchesJobs evaluates characters whose controllers average
// three clips with weights of their own (one, two, three and no weighted
// clips, a negative one), at different times, on 1, 2 and 3 workers, and
// compares every palette, of two skins, with the jobs run one character
// at a time (SampleSoAJob, BlendSoA and the weighted average,
// ModelPaletteJob) at the same clip times.
func TestCrowdMatchesJobs(t *testing.T) {
	sk := animtest.Humanoid()
	clips := animtest.HumanoidClips(sk)
	n := sk.NumJoints()
	skins := []anim.Skin{{Joints: make([]int, n), InverseBind: make([]mgl32.Mat4, n)}, {Joints: []int{3, 1}, InverseBind: []mgl32.Mat4{mgl32.Ident4(), mgl32.Translate3D(1, 2, 3)}}}
	for i := range n {
		skins[0].Joints[i] = i
		skins[0].InverseBind[i] = mgl32.Translate3D(0, -float32(i)*0.1, 0)
	}
	spec, err := ParseSpec([]byte(`{"params": [{"name": "a", "min": -1, "max": 2}, {"name": "b", "min": -1, "max": 2}, {"name": "c", "min": -1, "max": 2}],
	  "tree": {"type": "average", "children": ["` + clips[0].Name + `", "` + clips[1].Name + `", "` + clips[2].Name + `"], "weights": ["a", "b", "c"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	weights := [][]float32{{1, 0, 0}, {0, 2, 0}, {0.6, 0.4, 0}, {0, 0.3, 0.7}, {0.2, 0.3, 0.5}, {0, 0, 0}, {-1, 0, 1}}
	const chars = 41
	var results [][]float32
	// The last run keeps no model matrices: its palettes must not change.
	for run, workers := range []int{1, 2, 3, 2} {
		keep := run < 3
		var ctls []*Controller
		for i := range chars {
			ctl, err := NewController(spec, sk, clips)
			if err != nil {
				t.Fatal(err)
			}
			for j, w := range weights[i%len(weights)] {
				ctl.SetParamIndex(j, w)
			}
			ctl.SetTime(float32(i) * 0.37)
			ctls = append(ctls, ctl)
		}
		c, err := NewCrowd(sk, skins, ctls)
		if err != nil {
			t.Fatal(err)
		}
		if keep {
			c.KeepModels()
		}
		for range 5 {
			c.Evaluate(0.05, workers)
		}
		var all []float32
		size := anim.PaletteFloats * (n + 2 + n)
		for i := range chars {
			all = append(all, c.Palette(i, 0)...)
			all = append(all, c.Palette(i, 1)...)
			if keep {
				all = append(all, c.Models(i)...)
			} else if c.Models(i) != nil {
				t.Fatalf("Models(%d) without KeepModels is %d floats; want nil", i, len(c.Models(i)))
			} else {
				all = append(all, results[0][i*size+anim.PaletteFloats*(n+2):(i+1)*size]...)
			}
		}
		c.Close()
		results = append(results, all)
	}
	for w := 1; w < len(results); w++ {
		for k := range results[0] {
			if results[w][k] != results[0][k] {
				t.Fatalf("%d workers: float %d = %v, 1 worker %v", w+1, k, results[w][k], results[0][k])
			}
		}
	}
	// The reference: the same clip times through the jobs one character at
	// a time (anim's tests hold the jobs to the definitions): the clips of
	// positive weight sampled and averaged (one alone as it is, two by a
	// blend, more by the weighted average, none the rest pose), then the
	// model matrices and the two palettes.
	poses := make([]*anim.SoAPose, len(clips))
	for j := range clips {
		poses[j] = anim.NewPose(sk)
	}
	pose := anim.NewPose(sk)
	mp := anim.ModelPaletteJob{Skeleton: sk, Input: pose, Models: make([]float32, anim.PaletteFloats*n)}
	want := make([]float32, anim.PaletteFloats*(n+2+n)) // two palettes, then the model matrices
	for i := range chars {
		var live []int
		var total float32
		for j := range clips {
			tm := float32(math.Mod(float64(float32(i)*0.37), float64(clips[j].Duration)))
			for range 5 {
				tm = float32(math.Mod(float64(tm+0.05), float64(clips[j].Duration)))
			}
			poses[j].FromTransforms(samplePose(sk, &clips[j], tm))
			if w := weights[i%len(weights)][j]; w > 0 {
				live = append(live, j)
				total += w
			}
		}
		w := func(k int) float32 { return weights[i%len(weights)][live[k]] }
		switch len(live) {
		case 0:
			pose.FromRest(sk)
		case 1:
			pose.CopyFrom(poses[live[0]])
		case 2:
			anim.BlendSoA(pose, poses[live[0]], poses[live[1]], w(1)/total, false)
		default:
			anim.AverageStart(pose, poses[live[0]], w(0))
			for k := 1; k < len(live); k++ {
				anim.AverageAdd(pose, poses[live[k]], w(k))
			}
			anim.AverageFinish(pose, total)
		}
		for k, skin := range skins {
			mp.Skin, mp.Output = &skin, want[anim.PaletteFloats*n*k:anim.PaletteFloats*(n*k+len(skin.Joints))]
			mp.Run()
		}
		copy(want[anim.PaletteFloats*(n+2):], mp.Models)
		got := results[0][i*len(want) : (i+1)*len(want)]
		for k := range want {
			if !animtest.ApproxEqual(got[k], want[k], 1e-4) {
				t.Fatalf("character %d (weights %v): float %d of the palettes and models = %v, want %v", i, weights[i%len(weights)], k, got[k], want[k])
			}
		}
	}
}

// TestCrowdAllocatesNothing checks a frame of the crowd on one and two
// workers (anim's TestFastPipelineAllocatesNothing checks the jobs).
func TestCrowdAllocatesNothing(t *testing.T) {
	c := crowd1000(t, true)
	defer c.Close()
	for _, workers := range []int{1, 2} {
		if a := testing.AllocsPerRun(3, func() { c.Evaluate(animtest.B2PStep, workers) }); a != 0 {
			t.Errorf("crowd on %d workers allocates %v times per frame", workers, a)
		}
	}
}

// A held character keeps the palette of the last frame it was evaluated
// in while its clock runs on; released, it shows the pose of where its
// clock has got to, the same as a character never held.
func TestCrowdHoldKeepsPoseAndClock(t *testing.T) {
	sk := animtest.Humanoid()
	clips := animtest.HumanoidClips(sk)
	n := sk.NumJoints()
	skins := []anim.Skin{{Joints: make([]int, n), InverseBind: make([]mgl32.Mat4, n)}}
	for i := range n {
		skins[0].Joints[i], skins[0].InverseBind[i] = i, mgl32.Ident4()
	}
	spec, err := ParseSpec([]byte(`{"tree": "` + clips[0].Name + `"}`))
	if err != nil {
		t.Fatal(err)
	}
	var ctls []*Controller
	for range 2 {
		ctl, err := NewController(spec, sk, clips)
		if err != nil {
			t.Fatal(err)
		}
		ctls = append(ctls, ctl)
	}
	c, err := NewCrowd(sk, skins, ctls)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Evaluate(0.1, 1)
	before := slices.Clone(c.Palette(1, 0))
	c.Hold(1, true)
	for range 3 {
		c.Evaluate(0.1, 1)
	}
	if !slices.Equal(c.Palette(1, 0), before) {
		t.Fatal("held character's palette changed")
	}
	if slices.Equal(c.Palette(0, 0), before) {
		t.Fatal("the clip does not move the palette between 0.1 s and 0.4 s: the test shows nothing")
	}
	if got := c.ctls[1].Timeline().Time; math.Abs(float64(got-0.1)) > 1e-6 {
		t.Fatalf("held character's controller advanced to %v s while held; the time should be owed (0.1 s, the last evaluation)", got)
	}
	if got := c.Controller(1).Timeline().Time; math.Abs(float64(got-0.4)) > 1e-5 {
		t.Fatalf("held character's clock at %v s; want 0.4", got)
	}
	c.Hold(1, false)
	c.Evaluate(0.1, 1)
	if !slices.Equal(c.Palette(1, 0), c.Palette(0, 0)) {
		t.Fatal("released character's palette differs from the never-held one at the same time")
	}
	// Held again, and released without asking for its controller: the
	// evaluation that follows gives it the time it is owed.
	c.Hold(1, true)
	c.Evaluate(0.1, 1)
	c.Evaluate(0.1, 1)
	c.Hold(1, false)
	c.Evaluate(0.1, 1)
	if !slices.Equal(c.Palette(1, 0), c.Palette(0, 0)) {
		t.Fatal("released character's palette, its owed time not asked for, differs from the never-held one at the same time")
	}

	// A shared controller (a HUD drives it) advances while its pose is held.
	c.Share(0)
	c.Hold(0, true)
	held := slices.Clone(c.Palette(0, 0))
	c.Evaluate(0.1, 1)
	if got := c.ctls[0].Timeline().Time; math.Abs(float64(got-0.9)) > 1e-5 {
		t.Errorf("held shared character's controller at %v s; want 0.9, advanced every frame", got)
	}
	if !slices.Equal(c.Palette(0, 0), held) {
		t.Error("held shared character's palette changed")
	}
}

// TestCrowdMorphWeightsPerCharacter: each character's morph weights land
// in its own slot. Three characters lerp M towards N by k = 0, ½, 1, at
// 0.25 s. By hand (MorphClips, rest (0.1, 0.2, 0.5) where a clip
// has no channel): M = (0.25, 0.75, 0.5), N = (0.1, 0.2, 0.2), half-way
// (0.175, 0.475, 0.35).
func TestCrowdMorphWeightsPerCharacter(t *testing.T) {
	sk := animtest.MorphSkeleton()
	spec, err := ParseSpec([]byte(`{"params": [{"name": "k"}], "tree": {"type": "lerp", "weight": "k", "children": ["M", "N"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{0.25, 0.75, 0.5}, {0.175, 0.475, 0.35}, {0.1, 0.2, 0.2}}
	var ctls []*Controller
	for i := range want {
		ctl := build(t, spec, sk, animtest.MorphClips())
		ctl.SetParamIndex(0, float32(i)/2)
		ctls = append(ctls, ctl)
	}
	c, err := NewCrowd(sk, nil, ctls)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Evaluate or Weights panicked: %v", r)
			}
		}()
		c.Evaluate(0.25, 1)
		for i, w := range want {
			got := c.Weights(i)
			if len(got) != len(w) {
				t.Fatalf("character %d: %d weights, want %d", i, len(got), len(w))
			}
			for k := range w {
				if !animtest.ApproxEqual(got[k], w[k], 1e-6) {
					t.Errorf("character %d: weights %v, want %v", i, got, w)
					break
				}
			}
		}
	}()
}

// TestCrowdWorkers: Evaluate runs on the number of workers asked for
// (runtime.GOMAXPROCS(0) for 0 or less), but never more than there are
// chunks of crowdChunk characters to hand out: 8 characters are one
// chunk, 9 are two.
func TestCrowdWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	spec := &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "rest"}}}}}
	sk := animtest.Chain(1)
	for _, tc := range []struct{ chars, workers, want int }{
		{8, 4, 1},
		{9, 4, 2},
		{24, 2, 2},
		{24, 0, 3},
		{24, -1, 3},
	} {
		var ctls []*Controller
		for range tc.chars {
			ctls = append(ctls, build(t, spec, sk, nil))
		}
		c, err := NewCrowd(sk, nil, ctls)
		if err != nil {
			t.Fatal(err)
		}
		c.Evaluate(0.1, tc.workers)
		if got := len(c.scratch); got != tc.want {
			t.Errorf("%d characters on %d workers asked (GOMAXPROCS 3): ran on %d, want %d", tc.chars, tc.workers, got, tc.want)
		}
		c.Close()
	}
}
