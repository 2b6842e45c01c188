package anim_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

func sampleAt(t *testing.T, clip *anim.Clip, time float32) anim.Transform {
	t.Helper()
	if err := clip.Validate(1); err != nil {
		t.Fatal(err)
	}
	rc, err := anim.NewRuntimeClip(clip, &anim.Skeleton{Names: []string{"j"}, Parents: []int{-1}, Rest: []anim.Transform{anim.IdentityTransform}})
	if err != nil {
		t.Fatal(err)
	}
	out := anim.NewSoAPose(1)
	job := anim.SampleSoAJob{Clip: rc, Time: time, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: out}
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	job.Run()
	return out.At(0)
}

func TestSampleTranslation(t *testing.T) {
	linear := &anim.Clip{Tracks: []anim.Track{{Path: anim.Translation, Interp: anim.Linear, Times: []float32{1, 3}, Values: []float32{0, 0, 0, 4, -2, 8}}}}
	step := &anim.Clip{Tracks: []anim.Track{{Path: anim.Translation, Interp: anim.Step, Times: []float32{1, 3}, Values: []float32{0, 0, 0, 4, -2, 8}}}}
	// Cubic: keys 0 at t=0 and 1 at t=2 (x only), out-tangent of key 0 is 1,
	// in-tangent of key 1 is 0. At u = 0.5 (t = 1), with dt = 2:
	// h00=0.5 h10=0.125 h01=0.5 h11=-0.125 → 0.5·0 + 0.125·2·1 + 0.5·1 + 0 = 0.75.
	cubic := &anim.Clip{Tracks: []anim.Track{{Path: anim.Translation, Interp: anim.CubicSpline, Times: []float32{0, 2},
		Values: []float32{
			0, 0, 0 /*in*/, 0, 0, 0 /*value*/, 1, 0, 0, /*out*/
			0, 0, 0 /*in*/, 1, 0, 0 /*value*/, 0, 0, 0, /*out*/
		}}}}
	cases := []struct {
		name string
		clip *anim.Clip
		time float32
		want mgl32.Vec3
	}{
		{"linear before first key holds first", linear, 0, mgl32.Vec3{0, 0, 0}},
		{"linear midway", linear, 2, mgl32.Vec3{2, -1, 4}},
		{"linear quarter", linear, 1.5, mgl32.Vec3{1, -0.5, 2}},
		{"linear after last key holds last", linear, 9, mgl32.Vec3{4, -2, 8}},
		{"step between keys is the previous key", step, 2.9, mgl32.Vec3{0, 0, 0}},
		{"step exactly at a key is that key", step, 3, mgl32.Vec3{4, -2, 8}},
		{"cubic tangents scaled by key interval", cubic, 1, mgl32.Vec3{0.75, 0, 0}},
		{"cubic at key", cubic, 2, mgl32.Vec3{1, 0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := sampleAt(t, tc.clip, tc.time).Translation
			for c := 0; c < 3; c++ {
				if !animtest.ApproxEqual(got[c], tc.want[c], eps) {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestSampleRotationNegativeDot(t *testing.T) {
	q0 := mgl32.QuatRotate(mgl32.DegToRad(170), mgl32.Vec3{0, 1, 0})
	q1 := mgl32.QuatRotate(mgl32.DegToRad(-170), mgl32.Vec3{0, 1, 0}) // 20° further along the short way
	if q0.Dot(q1) >= 0 {
		t.Fatalf("test setup: want keys with a negative dot product, got %v", q0.Dot(q1))
	}
	clip := &anim.Clip{Tracks: []anim.Track{{Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1},
		Values: []float32{q0.V[0], q0.V[1], q0.V[2], q0.W, q1.V[0], q1.V[1], q1.V[2], q1.W}}}}
	got := sampleAt(t, clip, 0.5).Rotation
	want := mgl32.QuatRotate(math.Pi, mgl32.Vec3{0, 1, 0}) // halfway on the 20° arc: 180°
	if !got.OrientationEqualThreshold(want, 1e-5) {
		t.Fatalf("got %v, want 180° about Y %v (the long way would give 0°)", got, want)
	}
}

func TestSampleAllocatesNothing(t *testing.T) {
	clip := &anim.Clip{Tracks: []anim.Track{
		{Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, 1, 1}},
		{Path: anim.Rotation, Interp: anim.CubicSpline, Times: []float32{0, 1}, Values: make([]float32, 24)},
	}}
	clip.Tracks[1].Values[7], clip.Tracks[1].Values[19] = 1, 1
	sk := &anim.Skeleton{Names: []string{"a"}, Parents: []int{-1}, Rest: []anim.Transform{anim.IdentityTransform}}
	rc, err := anim.NewRuntimeClip(clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	out := anim.NewSoAPose(1)
	job := rc.NewSampleJob(false, out)
	mp := anim.ModelPaletteJob{Skeleton: sk, Skin: &anim.Skin{Joints: []int{0}, InverseBind: []mgl32.Mat4{mgl32.Ident4()}}, Input: out,
		Models: make([]float32, 12), Output: make([]float32, 12)}
	allocs := testing.AllocsPerRun(100, func() {
		job.Time += 0.01
		job.Run()
		mp.Run()
	})
	if allocs != 0 {
		t.Fatalf("sample → model palette allocates %v times per frame; want 0", allocs)
	}
}

func TestClipValidate(t *testing.T) {
	good := func() *anim.Clip {
		return &anim.Clip{Name: "c", Tracks: []anim.Track{{Joint: 0, Path: anim.Translation, Times: []float32{0, 1}, Values: make([]float32, 6)}}}
	}
	cases := []struct {
		name   string
		break_ func(c *anim.Clip)
	}{
		{"joint out of range", func(c *anim.Clip) { c.Tracks[0].Joint = 5 }},
		{"no keys", func(c *anim.Clip) { c.Tracks[0].Times = nil }},
		{"value count", func(c *anim.Clip) { c.Tracks[0].Values = c.Tracks[0].Values[:5] }},
		{"times not increasing", func(c *anim.Clip) { c.Tracks[0].Times[1] = 0 }},
		{"NaN time", func(c *anim.Clip) { c.Tracks[0].Times[0] = float32(math.NaN()) }},
		{"Inf value", func(c *anim.Clip) { c.Tracks[0].Values[2] = float32(math.Inf(1)) }},
	}
	if err := good().Validate(1); err != nil {
		t.Fatalf("valid clip refused: %v", err)
	}
	for _, tc := range cases {
		c := good()
		tc.break_(c)
		if err := c.Validate(1); err == nil {
			t.Errorf("%s: Validate accepted a broken clip", tc.name)
		}
	}
}

func TestSampleAtNaNHoldsFirstKey(t *testing.T) {
	clip := &anim.Clip{Tracks: []anim.Track{{Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{1, 2, 3, 4, 5, 6}}}}
	got := sampleAt(t, clip, float32(math.NaN())).Translation
	if got != (mgl32.Vec3{1, 2, 3}) {
		t.Fatalf("sample at NaN = %v, want the first key (1, 2, 3)", got)
	}
}

// TestSampleRotationSlerp samples a LINEAR rotation from 0° to 120° about
// Z between its keys. Slerp turns at constant speed, so at u the angle is
// 120u°: the quaternion (0, 0, sin 60u°, cos 60u°), compared component by
// component. Nlerp (u = 0.25 gives 26.3°, not 30°) and an unnormalized lerp
// (length 0.79 at u = 0.5) both fail; so does the clip's own cursor going
// wrong when the times go backwards.
func TestSampleRotationSlerp(t *testing.T) {
	q1 := mgl32.QuatRotate(mgl32.DegToRad(120), mgl32.Vec3{0, 0, 1})
	clip := &anim.Clip{Tracks: []anim.Track{{Path: anim.Rotation, Interp: anim.Linear, Times: []float32{1, 3},
		Values: []float32{0, 0, 0, 1, q1.V[0], q1.V[1], q1.V[2], q1.W}}}}
	for _, u := range []float64{0.1, 0.25, 0.5, 0.8, 0.3} {
		got := sampleAt(t, clip, float32(1+2*u)).Rotation
		half := 60 * u * math.Pi / 180
		want := mgl32.Quat{W: float32(math.Cos(half)), V: mgl32.Vec3{0, 0, float32(math.Sin(half))}}
		if !animtest.QuatApprox(got, want, 2e-6) {
			t.Errorf("u=%v: got %v, want %v (%v° about Z)", u, got, want, 120*u)
		}
	}
}
