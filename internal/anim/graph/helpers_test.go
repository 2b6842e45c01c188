package graph

import (
	"math"
	"os"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// characterController builds testdata/character.json's controller on the
// humanoid with its clips, or fails the test.
func characterController(tb testing.TB) (*Controller, *anim.Skeleton) {
	tb.Helper()
	sk := humanoid()
	return build(tb, characterSpec(tb), sk, humanoidClips(sk)), sk
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
	return fromSoA(out)
}

// Fixtures as anim's tests build them: a test package cannot import
// another's test files.

func approxEqual(a, b, epsilon float32) bool {
	return float32(math.Abs(float64(a-b))) <= epsilon
}

func vecApprox(a, b mgl32.Vec3, epsilon float32) bool {
	return approxEqual(a[0], b[0], epsilon) && approxEqual(a[1], b[1], epsilon) && approxEqual(a[2], b[2], epsilon)
}

// quatApprox compares rotations component by component, q and −q being
// the same rotation: every component within epsilon of b's or of −b's.
// Unlike a test on |a·b|, which passes half a degree of error at 1e-5, it
// tells slerp from nlerp and a unit quaternion from an unnormalized one.
func quatApprox(a, b mgl32.Quat, epsilon float32) bool {
	same := func(s float32) bool {
		return approxEqual(a.W, s*b.W, epsilon) && approxEqual(a.V[0], s*b.V[0], epsilon) &&
			approxEqual(a.V[1], s*b.V[1], epsilon) && approxEqual(a.V[2], s*b.V[2], epsilon)
	}
	return same(1) || same(-1)
}

// rotZ is a rotation of deg degrees about +Z.
func rotZ(deg float64) mgl32.Quat {
	return mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{0, 0, 1})
}

func tr(x, y, z float32) anim.Transform {
	t := anim.IdentityTransform
	t.Translation = mgl32.Vec3{x, y, z}
	return t
}

// chain is a skeleton of n joints in a line along +X, one unit apart,
// named j0, j1, ….
func chain(n int) *anim.Skeleton {
	sk := &anim.Skeleton{}
	for i := 0; i < n; i++ {
		sk.Names = append(sk.Names, "j"+string(rune('0'+i)))
		sk.Parents = append(sk.Parents, i-1)
		if i == 0 {
			sk.Rest = append(sk.Rest, anim.IdentityTransform)
		} else {
			sk.Rest = append(sk.Rest, tr(1, 0, 0))
		}
	}
	return sk
}

// rampClip moves joint's translation x linearly from x0 at time 0 to x1 at
// time d: x(t) = x0 + (x1−x0)·t/d. Other components stay 0.
func rampClip(name string, d float32, joint int, x0, x1 float32) anim.Clip {
	return anim.Clip{Name: name, Duration: d, Tracks: []anim.Track{{
		Joint: joint, Path: anim.Translation, Interp: anim.Linear,
		Times: []float32{0, d}, Values: []float32{x0, 0, 0, x1, 0, 0},
	}}}
}

// constClip holds joint's translation at (x, y, z) for d seconds.
func constClip(name string, d float32, joint int, x, y, z float32) anim.Clip {
	return anim.Clip{Name: name, Duration: d, Tracks: []anim.Track{{
		Joint: joint, Path: anim.Translation, Interp: anim.Linear,
		Times: []float32{0, d}, Values: []float32{x, y, z, x, y, z},
	}}}
}

// turnClip rotates joint about +Z from deg0 to deg1 degrees over d seconds;
// keys every 10° so that the slerped angle is linear in time.
func turnClip(name string, d float32, joint int, deg0, deg1 float64) anim.Clip {
	const keys = 10
	c := anim.Clip{Name: name, Duration: d}
	t := anim.Track{Joint: joint, Path: anim.Rotation, Interp: anim.Linear}
	for k := 0; k <= keys; k++ {
		u := float64(k) / keys
		q := rotZ(deg0 + (deg1-deg0)*u)
		t.Times = append(t.Times, float32(u)*d)
		t.Values = append(t.Values, q.V[0], q.V[1], q.V[2], q.W)
	}
	c.Tracks = []anim.Track{t}
	return c
}

// scaleClip scales joint uniformly from s0 to s1 over d seconds.
func scaleClip(name string, d float32, joint int, s0, s1 float32) anim.Clip {
	return anim.Clip{Name: name, Duration: d, Tracks: []anim.Track{{
		Joint: joint, Path: anim.Scale, Interp: anim.Linear,
		Times: []float32{0, d}, Values: []float32{s0, s0, s0, s1, s1, s1},
	}}}
}

// merge joins the tracks of several clips into one named clip.
func merge(name string, clips ...anim.Clip) anim.Clip {
	out := anim.Clip{Name: name}
	for _, c := range clips {
		out.Tracks = append(out.Tracks, c.Tracks...)
		out.Duration = max(out.Duration, c.Duration)
	}
	return out
}

// humanoidJointNames are the default character's joints, parents first.
var humanoidJointNames = []string{
	"hips", "spine", "chest", "neck", "head",
	"shoulder.L", "upper_arm.L", "forearm.L", "hand.L",
	"shoulder.R", "upper_arm.R", "forearm.R", "hand.R",
	"thigh.L", "shin.L", "foot.L", "thigh.R", "shin.R", "foot.R",
}

// humanoid is a synthetic skeleton with the default character's joint
// names and hierarchy and roughly its proportions (metres, +Y up, face +Z).
func humanoid() *anim.Skeleton {
	parent := map[string]string{
		"spine": "hips", "chest": "spine", "neck": "chest", "head": "neck",
		"shoulder.L": "chest", "upper_arm.L": "shoulder.L", "forearm.L": "upper_arm.L", "hand.L": "forearm.L",
		"shoulder.R": "chest", "upper_arm.R": "shoulder.R", "forearm.R": "upper_arm.R", "hand.R": "forearm.R",
		"thigh.L": "hips", "shin.L": "thigh.L", "foot.L": "shin.L",
		"thigh.R": "hips", "shin.R": "thigh.R", "foot.R": "shin.R",
	}
	offset := map[string]mgl32.Vec3{
		"hips": {0, 0.95, 0}, "spine": {0, 0.1, 0}, "chest": {0, 0.2, 0}, "neck": {0, 0.22, 0}, "head": {0, 0.09, 0},
		"shoulder.L": {0.035, 0.17, 0}, "upper_arm.L": {0.14, -0.01, 0}, "forearm.L": {0.198, -0.198, 0}, "hand.L": {0.184, -0.184, 0},
		"shoulder.R": {-0.035, 0.17, 0}, "upper_arm.R": {-0.14, -0.01, 0}, "forearm.R": {-0.198, -0.198, 0}, "hand.R": {-0.184, -0.184, 0},
		"thigh.L": {0.09, -0.05, 0}, "shin.L": {0, -0.4, 0}, "foot.L": {0, -0.42, 0},
		"thigh.R": {-0.09, -0.05, 0}, "shin.R": {0, -0.4, 0}, "foot.R": {0, -0.42, 0},
	}
	sk := &anim.Skeleton{}
	for _, n := range humanoidJointNames {
		p := -1
		if pn, ok := parent[n]; ok {
			p = sk.JointIndex(pn)
		}
		o := offset[n]
		sk.Names = append(sk.Names, n)
		sk.Parents = append(sk.Parents, p)
		sk.Rest = append(sk.Rest, tr(o[0], o[1], o[2]))
	}
	return sk
}

// humanoidClips are synthetic Idle (3 s), Walk (1 s) and Wave (2 s) clips
// for the humanoid: a chest sway, a leg swing and a right-arm wave.
func humanoidClips(sk *anim.Skeleton) []anim.Clip {
	swing := func(name string, d float32, joints []string, axis mgl32.Vec3, amp float64, phase []float64) anim.Clip {
		c := anim.Clip{Name: name, Duration: d}
		const keys = 30
		for ji, jn := range joints {
			t := anim.Track{Joint: sk.JointIndex(jn), Path: anim.Rotation, Interp: anim.Linear}
			for k := 0; k <= keys; k++ {
				u := float64(k) / keys
				a := amp * math.Sin(2*math.Pi*u+phase[ji])
				q := mgl32.QuatRotate(float32(a), axis)
				t.Times = append(t.Times, float32(u)*d)
				t.Values = append(t.Values, q.V[0], q.V[1], q.V[2], q.W)
			}
			c.Tracks = append(c.Tracks, t)
		}
		return c
	}
	idle := swing("Idle", 3, []string{"spine", "chest"}, mgl32.Vec3{1, 0, 0}, 0.05, []float64{0, 0.5})
	walk := swing("Walk", 1, []string{"thigh.L", "thigh.R", "upper_arm.L", "upper_arm.R"}, mgl32.Vec3{1, 0, 0}, 0.5, []float64{0, math.Pi, math.Pi, 0})
	wave := swing("Wave", 2, []string{"upper_arm.R", "forearm.R"}, mgl32.Vec3{0, 0, 1}, 1.2, []float64{0.3, 0})
	return []anim.Clip{idle, walk, wave}
}

func posesEqual(a, b []anim.Transform) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func fromSoA(p *anim.SoAPose) []anim.Transform {
	out := make([]anim.Transform, p.Len())
	p.ToTransforms(out)
	return out
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
	return fromSoA(job.Output)
}

// morphSkeleton is chain(2) with three morph channels: two on joint 1's
// mesh (rest 0.1, 0.2), one on joint 0's (rest 0.5).
func morphSkeleton() *anim.Skeleton {
	sk := chain(2)
	sk.MorphRest = []float32{0.1, 0.2, 0.5}
	sk.MorphJoint = []int{1, 1, 0}
	return sk
}

// morphClips: M ramps channels 0 and 1 (w0 = t, w1 = 1 − t); N steps
// channel 2 from 0.2 to 0.8 at 0.5 s; C is a cubic spline with zero
// tangents on channels 0 and 1 (w0 = 3u² − 2u³ from 0 to 1, w1 = 0.5).
func morphClips() []anim.Clip {
	return []anim.Clip{
		{Name: "M", Duration: 1, Morph: []anim.MorphTrack{{Channel: 0, Count: 2, Interp: anim.Linear,
			Times: []float32{0, 1}, Values: []float32{0, 1, 1, 0}}}},
		{Name: "N", Duration: 1, Morph: []anim.MorphTrack{{Channel: 2, Count: 1, Interp: anim.Step,
			Times: []float32{0, 0.5}, Values: []float32{0.2, 0.8}}}},
		{Name: "C", Duration: 1, Morph: []anim.MorphTrack{{Channel: 0, Count: 2, Interp: anim.CubicSpline,
			Times: []float32{0, 1}, Values: []float32{0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0.5, 0, 0}}}},
	}
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
