package anim_test

import (
	"os"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// samplePose samples one clip alone at time t, the independent reference
// for "a blend at weight 1 is its input exactly".
func samplePose(sk *anim.Skeleton, clip *anim.Clip, t float32) []anim.Transform {
	out := make([]anim.Transform, sk.NumJoints())
	(&refSampleJob{Clip: clip, Time: t, Rest: sk.Rest, Cursors: make([]int, len(clip.Tracks)), Output: out}).Run()
	return out
}

// toSoA is the AoS pose p as the engine's SoA pose (animtest.FromSoA is the
// way back).
func toSoA(p []anim.Transform) *anim.SoAPose {
	s := anim.NewSoAPose(len(p))
	s.FromTransforms(p)
	return s
}

// The engine's SoA pose operations called on AoS poses, so that tests can
// state their cases as transforms.

func soaLerp(out, a, b []anim.Transform, w float32) {
	copy(out, animtest.FromSoA(blendSoAOf(a, b, w, nil, false)))
}

func soaNlerp(out, a, b []anim.Transform, w float32) {
	copy(out, animtest.FromSoA(blendSoAOf(a, b, w, nil, true)))
}

func soaMaskedLerp(out, a, b []anim.Transform, w float32, mask []float32, nlerp bool) {
	copy(out, animtest.FromSoA(blendSoAOf(a, b, w, mask, nlerp)))
}

func blendSoAOf(a, b []anim.Transform, w float32, mask []float32, nlerp bool) *anim.SoAPose {
	sa := toSoA(a)
	anim.MaskedBlendSoA(sa, sa, toSoA(b), w, mask, nlerp)
	return sa
}

// soaAverage is what a blend node does with its children's poses: one
// weight copies, two blend, more average.
func soaAverage(out []anim.Transform, poses [][]anim.Transform, weights []float32) bool {
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
		acc := anim.NewSoAPose(len(out))
		anim.AverageStart(acc, toSoA(poses[active[0]]), weights[active[0]])
		for _, i := range active[1:] {
			anim.AverageAdd(acc, toSoA(poses[i]), weights[i])
		}
		anim.AverageFinish(acc, total)
		copy(out, animtest.FromSoA(acc))
	}
	return true
}

func soaDifference(out, src, ref []anim.Transform) {
	s := toSoA(src)
	anim.DifferenceSoA(s, s, toSoA(ref))
	copy(out, animtest.FromSoA(s))
}

func soaAdd(out, base, diff []anim.Transform, w float32, mask []float32) {
	b := toSoA(base)
	anim.AddSoA(b, b, toSoA(diff), w, mask)
	copy(out, animtest.FromSoA(b))
}

// refModelRows is the reference local-to-model of pose in the engine's
// model-matrix row layout (ModelPaletteJob.Models).
func refModelRows(sk *anim.Skeleton, pose []anim.Transform) []float32 {
	models := make([]mgl32.Mat4, sk.NumJoints())
	(&refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}).Run()
	rows := make([]float32, anim.PaletteFloats*len(models))
	for i := range models {
		anim.WritePaletteEntry(rows[i*anim.PaletteFloats:], &models[i])
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
	if err := anim.SetKernels("auto"); err != nil {
		panic(err) // "auto" runs on every CPU and build
	}
	os.Exit(m.Run())
}
