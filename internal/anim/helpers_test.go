package anim

import (
	"math"
	"os"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Helpers shared by the blend, tree and state-machine tests.

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

func tr(x, y, z float32) Transform {
	t := IdentityTransform
	t.Translation = mgl32.Vec3{x, y, z}
	return t
}

// chain is a skeleton of n joints in a line along +X, one unit apart,
// named j0, j1, ….
func chain(n int) *Skeleton {
	sk := &Skeleton{}
	for i := 0; i < n; i++ {
		sk.Names = append(sk.Names, "j"+string(rune('0'+i)))
		sk.Parents = append(sk.Parents, i-1)
		if i == 0 {
			sk.Rest = append(sk.Rest, IdentityTransform)
		} else {
			sk.Rest = append(sk.Rest, tr(1, 0, 0))
		}
	}
	return sk
}

// rampClip moves joint's translation x linearly from x0 at time 0 to x1 at
// time d: x(t) = x0 + (x1−x0)·t/d. Other components stay 0.
func rampClip(name string, d float32, joint int, x0, x1 float32) Clip {
	return Clip{Name: name, Duration: d, Tracks: []Track{{
		Joint: joint, Path: Translation, Interp: Linear,
		Times: []float32{0, d}, Values: []float32{x0, 0, 0, x1, 0, 0},
	}}}
}

// constClip holds joint's translation at (x, y, z) for d seconds.
func constClip(name string, d float32, joint int, x, y, z float32) Clip {
	return Clip{Name: name, Duration: d, Tracks: []Track{{
		Joint: joint, Path: Translation, Interp: Linear,
		Times: []float32{0, d}, Values: []float32{x, y, z, x, y, z},
	}}}
}

// turnClip rotates joint about +Z from deg0 to deg1 degrees over d seconds;
// keys every 10° so that the slerped angle is linear in time.
func turnClip(name string, d float32, joint int, deg0, deg1 float64) Clip {
	const keys = 10
	c := Clip{Name: name, Duration: d}
	t := Track{Joint: joint, Path: Rotation, Interp: Linear}
	for k := 0; k <= keys; k++ {
		u := float64(k) / keys
		q := rotZ(deg0 + (deg1-deg0)*u)
		t.Times = append(t.Times, float32(u)*d)
		t.Values = append(t.Values, q.V[0], q.V[1], q.V[2], q.W)
	}
	c.Tracks = []Track{t}
	return c
}

// merge joins the tracks of several clips into one named clip.
func merge(name string, clips ...Clip) Clip {
	out := Clip{Name: name}
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
func humanoid() *Skeleton {
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
	sk := &Skeleton{}
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
func humanoidClips(sk *Skeleton) []Clip {
	swing := func(name string, d float32, joints []string, axis mgl32.Vec3, amp float64, phase []float64) Clip {
		c := Clip{Name: name, Duration: d}
		const keys = 30
		for ji, jn := range joints {
			t := Track{Joint: sk.JointIndex(jn), Path: Rotation, Interp: Linear}
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
	return []Clip{idle, walk, wave}
}

// samplePose samples one clip alone at time t, the independent reference
// for "a blend at weight 1 is its input exactly".
func samplePose(sk *Skeleton, clip *Clip, t float32) []Transform {
	out := make([]Transform, sk.NumJoints())
	(&refSampleJob{Clip: clip, Time: t, Rest: sk.Rest, Cursors: make([]int, len(clip.Tracks)), Output: out}).Run()
	return out
}

func posesEqual(a, b []Transform) bool {
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

// toSoA and fromSoA convert between the tests' AoS poses and the engine's.
func toSoA(p []Transform) *SoAPose {
	s := NewSoAPose(len(p))
	s.FromTransforms(p)
	return s
}

func fromSoA(p *SoAPose) []Transform {
	out := make([]Transform, p.Len())
	p.ToTransforms(out)
	return out
}

// The engine's SoA pose operations called on AoS poses, so that tests can
// state their cases as transforms.

func soaLerp(out, a, b []Transform, w float32) {
	copy(out, fromSoA(blendSoAOf(a, b, w, nil, false)))
}

func soaNlerp(out, a, b []Transform, w float32) {
	copy(out, fromSoA(blendSoAOf(a, b, w, nil, true)))
}

func soaMaskedLerp(out, a, b []Transform, w float32, mask []float32, nlerp bool) {
	copy(out, fromSoA(blendSoAOf(a, b, w, mask, nlerp)))
}

func blendSoAOf(a, b []Transform, w float32, mask []float32, nlerp bool) *SoAPose {
	sa := toSoA(a)
	MaskedBlendSoA(sa, sa, toSoA(b), w, mask, nlerp)
	return sa
}

// soaAverage is what a blend node does with its children's poses: one
// weight copies, two blend, more average.
func soaAverage(out []Transform, poses [][]Transform, weights []float32) bool {
	var active []int
	var total float32
	for i, w := range weights {
		if w > 0 {
			active = append(active, i)
			total += w
		}
	}
	switch len(active) {
	case 0:
		return false
	case 1:
		copy(out, poses[active[0]])
	case 2:
		soaLerp(out, poses[active[0]], poses[active[1]], weights[active[1]]/total)
	default:
		acc := NewSoAPose(len(out))
		AverageStart(acc, toSoA(poses[active[0]]), weights[active[0]])
		for _, i := range active[1:] {
			AverageAdd(acc, toSoA(poses[i]), weights[i])
		}
		AverageFinish(acc, total)
		copy(out, fromSoA(acc))
	}
	return true
}

func soaDifference(out, src, ref []Transform) {
	s := toSoA(src)
	DifferenceSoA(s, s, toSoA(ref))
	copy(out, fromSoA(s))
}

func soaAdd(out, base, diff []Transform, w float32, mask []float32) {
	b := toSoA(base)
	AddSoA(b, b, toSoA(diff), w, mask)
	copy(out, fromSoA(b))
}

// refModelRows is the reference local-to-model of pose in the engine's
// model-matrix row layout (ModelPaletteJob.Models).
func refModelRows(sk *Skeleton, pose []Transform) []float32 {
	models := make([]mgl32.Mat4, sk.NumJoints())
	(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
	rows := make([]float32, PaletteFloats*len(models))
	for i := range models {
		WritePaletteEntry(rows[i*PaletteFloats:], &models[i])
	}
	return rows
}

// breakCase is one way to break a job that Validate must refuse.
type breakCase[J any] struct {
	name   string
	break_ func(J)
}

// checkValidate fails unless the job good makes validates and every
// broken one does not.
func checkValidate[J interface{ Validate() error }](t *testing.T, good func() J, cases []breakCase[J]) {
	t.Helper()
	if err := good().Validate(); err != nil {
		t.Fatalf("valid job refused: %v", err)
	}
	for _, tc := range cases {
		j := good()
		tc.break_(j)
		if err := j.Validate(); err == nil {
			t.Errorf("%s: Validate accepted a broken job", tc.name)
		}
	}
}

// TestMain runs the tests and benchmarks on the kernels the viewer runs by
// default: each at the level calibration picks (SetKernels "auto").
func TestMain(m *testing.M) {
	if err := SetKernels("auto"); err != nil {
		panic(err) // "auto" runs on every CPU and build
	}
	os.Exit(m.Run())
}
