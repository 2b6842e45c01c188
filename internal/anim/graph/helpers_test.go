package graph

import (
	"os"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// characterController builds testdata/character.json's controller on the
// humanoid with its clips, or fails the test.
func characterController(tb testing.TB) (*Controller, *anim.Skeleton) {
	tb.Helper()
	sk := animtest.Humanoid()
	return build(tb, characterSpec(tb), sk, animtest.HumanoidClips(sk)), sk
}

// characterSpec parses testdata/character.json, or fails the test.
func characterSpec(tb testing.TB) *Spec {
	tb.Helper()
	data, err := os.ReadFile("testdata/character.json")
	if err != nil {
		tb.Fatal(err)
	}
	spec, err := ParseSpec(data)
	if err != nil {
		tb.Fatal(err)
	}
	return spec
}

// build makes a controller or fails the test.
func build(t testing.TB, spec *Spec, sk *anim.Skeleton, clips []anim.Clip) *Controller {
	t.Helper()
	c, err := NewController(spec, sk, clips)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// requested builds the spec in JSON over a one-joint chain and clips,
// requests state and updates a quarter second, which takes the request.
func requested(t *testing.T, specJSON string, clips []anim.Clip, state string) *Controller {
	t.Helper()
	spec, err := ParseSpec([]byte(specJSON))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(1), clips)
	if err := c.Request(state); err != nil {
		t.Fatal(err)
	}
	c.Update(0.25)
	return c
}

// treeSpec wraps a single tree in a spec with the given parameters.
func treeSpec(tree NodeSpec, params ...ParamSpec) *Spec {
	return &Spec{Params: params, Layers: []LayerSpec{{States: []StateSpec{{Name: "s", Tree: &tree}}}}, form: formTree}
}

func clipNodeSpec(name string) NodeSpec { return NodeSpec{Type: NodeClip, Clip: ClipNamed(name)} }

func inPtr(in Input) *Input { return &in }

// evalPose evaluates the controller into a fresh pose.
func evalPose(c *Controller) []anim.Transform {
	out := anim.NewSoAPose(c.NumJoints())
	c.Evaluate(out)
	return animtest.FromSoA(out)
}

// scaleClip scales joint uniformly from s0 to s1 over d seconds.
func scaleClip(name string, d float32, joint int, s0, s1 float32) anim.Clip {
	return anim.Clip{Name: name, Duration: d, Tracks: []anim.Track{{
		Joint: joint, Path: anim.Scale, Interp: anim.Linear,
		Times: []float32{0, d}, Values: []float32{s0, s0, s0, s1, s1, s1},
	}}}
}

// samplePose samples one clip alone at time t with the jobs' sampler
// (slerp), which anim's tests hold to the glTF definition: the reference
// for "a blend at weight 1 is its input exactly".
func samplePose(sk *anim.Skeleton, clip *anim.Clip, t float32) []anim.Transform {
	rc, err := anim.NewRuntimeClip(clip, sk)
	if err != nil {
		panic(err) // the tests' clips are valid by construction
	}
	job := rc.NewSampleJob(false, anim.NewPose(sk))
	job.Time = t
	job.Run()
	return animtest.FromSoA(job.Output)
}

// modelMats is the model matrices of pose by the jobs' local-to-model
// (ModelPaletteJob without a skin), which anim's tests hold to the
// definition.
func modelMats(sk *anim.Skeleton, pose []anim.Transform) []mgl32.Mat4 {
	soa := anim.NewSoAPose(len(pose))
	soa.FromTransforms(pose)
	mp := anim.ModelPaletteJob{Skeleton: sk, Input: soa, Models: make([]float32, anim.PaletteFloats*len(pose))}
	mp.Run()
	models := make([]mgl32.Mat4, len(pose))
	for j := range models {
		models[j] = anim.ModelMat4(mp.Models, j)
	}
	return models
}

// TestMain runs the tests and benchmarks on the kernels the viewer runs by
// default, as anim's do: each at the level calibration picks.
func TestMain(m *testing.M) {
	if err := anim.SetKernels("auto"); err != nil {
		panic(err) // "auto" runs on every CPU and build
	}
	os.Exit(m.Run())
}
