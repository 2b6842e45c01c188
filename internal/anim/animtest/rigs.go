package animtest

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// RotZ is a rotation of deg degrees about +Z.
func RotZ(deg float64) mgl32.Quat {
	return mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{0, 0, 1})
}

// Tr is the transform that translates by (x, y, z) alone.
func Tr(x, y, z float32) anim.Transform {
	t := anim.IdentityTransform
	t.Translation = mgl32.Vec3{x, y, z}
	return t
}

// Chain is a skeleton of n joints in a line along +X, one unit apart,
// named j0, j1, ….
func Chain(n int) *anim.Skeleton {
	sk := &anim.Skeleton{}
	for i := 0; i < n; i++ {
		sk.Names = append(sk.Names, "j"+string(rune('0'+i)))
		sk.Parents = append(sk.Parents, i-1)
		if i == 0 {
			sk.Rest = append(sk.Rest, anim.IdentityTransform)
		} else {
			sk.Rest = append(sk.Rest, Tr(1, 0, 0))
		}
	}
	return sk
}

// RampClip moves joint's translation x linearly from x0 at time 0 to x1 at
// time d: x(t) = x0 + (x1−x0)·t/d. Other components stay 0.
func RampClip(name string, d float32, joint int, x0, x1 float32) anim.Clip {
	return anim.Clip{Name: name, Duration: d, Tracks: []anim.Track{{
		Joint: joint, Path: anim.Translation, Interp: anim.Linear,
		Times: []float32{0, d}, Values: []float32{x0, 0, 0, x1, 0, 0},
	}}}
}

// ConstClip holds joint's translation at (x, y, z) for d seconds.
func ConstClip(name string, d float32, joint int, x, y, z float32) anim.Clip {
	return anim.Clip{Name: name, Duration: d, Tracks: []anim.Track{{
		Joint: joint, Path: anim.Translation, Interp: anim.Linear,
		Times: []float32{0, d}, Values: []float32{x, y, z, x, y, z},
	}}}
}

// TurnClip rotates joint about +Z from deg0 to deg1 degrees over d seconds;
// keys every 10° so that the slerped angle is linear in time.
func TurnClip(name string, d float32, joint int, deg0, deg1 float64) anim.Clip {
	const keys = 10
	c := anim.Clip{Name: name, Duration: d}
	t := anim.Track{Joint: joint, Path: anim.Rotation, Interp: anim.Linear}
	for k := 0; k <= keys; k++ {
		u := float64(k) / keys
		q := RotZ(deg0 + (deg1-deg0)*u)
		t.Times = append(t.Times, float32(u)*d)
		t.Values = append(t.Values, q.V[0], q.V[1], q.V[2], q.W)
	}
	c.Tracks = []anim.Track{t}
	return c
}

// Merge joins the tracks of several clips into one named clip.
func Merge(name string, clips ...anim.Clip) anim.Clip {
	out := anim.Clip{Name: name}
	for _, c := range clips {
		out.Tracks = append(out.Tracks, c.Tracks...)
		out.Duration = max(out.Duration, c.Duration)
	}
	return out
}

// HumanoidJointNames are the default character's joints, parents first.
var HumanoidJointNames = []string{
	"hips", "spine", "chest", "neck", "head",
	"shoulder.L", "upper_arm.L", "forearm.L", "hand.L",
	"shoulder.R", "upper_arm.R", "forearm.R", "hand.R",
	"thigh.L", "shin.L", "foot.L", "thigh.R", "shin.R", "foot.R",
}

// Humanoid is a synthetic skeleton with the default character's joint
// names and hierarchy and roughly its proportions (metres, +Y up, face +Z).
func Humanoid() *anim.Skeleton {
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
	for _, n := range HumanoidJointNames {
		p := -1
		if pn, ok := parent[n]; ok {
			p = sk.JointIndex(pn)
		}
		o := offset[n]
		sk.Names = append(sk.Names, n)
		sk.Parents = append(sk.Parents, p)
		sk.Rest = append(sk.Rest, Tr(o[0], o[1], o[2]))
	}
	return sk
}

// HumanoidClips are synthetic Idle (3 s), Walk (1 s) and Wave (2 s) clips
// for the Humanoid: a chest sway, a leg swing and a right-arm wave.
func HumanoidClips(sk *anim.Skeleton) []anim.Clip {
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

// BenchRig is a chain-and-branches skeleton of n joints with a looping
// clip animating every joint's rotation and translation over 31 keys.
func BenchRig(n int) (*anim.Skeleton, *anim.Clip, *anim.Skin) {
	sk := &anim.Skeleton{Names: make([]string, n), Parents: make([]int, n), Rest: make([]anim.Transform, n)}
	clip := &anim.Clip{Name: "bench", Duration: 1}
	skin := &anim.Skin{Joints: make([]int, n), InverseBind: make([]mgl32.Mat4, n)}
	for j := 0; j < n; j++ {
		if j == 0 {
			sk.Parents[j] = -1
		} else {
			sk.Parents[j] = (j - 1) / 2
		}
		sk.Rest[j] = anim.IdentityTransform
		sk.Rest[j].Translation = mgl32.Vec3{0, 0.1, 0}
		skin.Joints[j] = j
		skin.InverseBind[j] = mgl32.Translate3D(0, -0.1*float32(j), 0)
		times := make([]float32, 31)
		rot := make([]float32, 31*4)
		tr := make([]float32, 31*3)
		for k := range times {
			times[k] = float32(k) / 30
			a := 0.5 * math.Sin(2*math.Pi*float64(k)/30+float64(j))
			q := mgl32.QuatRotate(float32(a), mgl32.Vec3{0, 0, 1})
			rot[k*4], rot[k*4+1], rot[k*4+2], rot[k*4+3] = q.V[0], q.V[1], q.V[2], q.W
			tr[k*3+1] = 0.1 + 0.01*float32(a)
		}
		clip.Tracks = append(clip.Tracks,
			anim.Track{Joint: j, Path: anim.Rotation, Interp: anim.Linear, Times: times, Values: rot},
			anim.Track{Joint: j, Path: anim.Translation, Interp: anim.Linear, Times: times, Values: tr})
	}
	return sk, clip, skin
}

// MorphSkeleton is Chain(2) with three morph channels: two on joint 1's
// mesh (rest 0.1, 0.2), one on joint 0's (rest 0.5).
func MorphSkeleton() *anim.Skeleton {
	sk := Chain(2)
	sk.MorphRest = []float32{0.1, 0.2, 0.5}
	sk.MorphJoint = []int{1, 1, 0}
	return sk
}

// MorphClips are three clips of MorphSkeleton's weights: M ramps
// channels 0 and 1 (w0 = t, w1 = 1 − t); N steps channel 2 from 0.2 to
// 0.8 at 0.5 s; C is a cubic spline with zero tangents on channels 0 and
// 1 (w0 = 3u² − 2u³ from 0 to 1, w1 = 0.5).
func MorphClips() []anim.Clip {
	return []anim.Clip{
		{Name: "M", Duration: 1, Morph: []anim.MorphTrack{{Channel: 0, Count: 2, Interp: anim.Linear,
			Times: []float32{0, 1}, Values: []float32{0, 1, 1, 0}}}},
		{Name: "N", Duration: 1, Morph: []anim.MorphTrack{{Channel: 2, Count: 1, Interp: anim.Step,
			Times: []float32{0, 0.5}, Values: []float32{0.2, 0.8}}}},
		{Name: "C", Duration: 1, Morph: []anim.MorphTrack{{Channel: 0, Count: 2, Interp: anim.CubicSpline,
			Times: []float32{0, 1}, Values: []float32{0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0.5, 0, 0}}}},
	}
}
