package gltfload

import (
	"math"
	"os"
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

// The Step clip of assets/edge/cubic_step.gltf, read through the loader and
// sampled by the engine: STEP holds each key's value until the next key
// (glTF 2.0 §3.11, "the animated values remain constant"). Keys at 0, 0.5,
// 1.5 and 2 s move j1 by x = 0, +0.25, −0.25, 0 from its rest, turn it
// 0°, 35°, −35°, 0° about Z, and scale j2 by 1, 1.5, 0.6, 1. Linear
// interpolation would give x = +0.15 and 23° at 0.7 s.
func TestStepThroughTheLoader(t *testing.T) {
	data, err := os.ReadFile("../../assets/edge/cubic_step.gltf")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(data, nil, "cubic_step.gltf")
	if err != nil {
		t.Fatal(err)
	}
	joint := func(name string) int {
		for j, n := range m.NodeNames {
			if n == name {
				return j
			}
		}
		t.Fatalf("no joint %q among %v", name, m.NodeNames)
		return -1
	}
	j1, j2 := joint("j1"), joint("j2")
	var clip *anim.Clip
	for i := range m.Clips {
		if m.Clips[i].Name == "Step" {
			clip = &m.Clips[i]
		}
	}
	if clip == nil {
		t.Fatal("no clip Step")
	}
	rc, err := anim.NewRuntimeClip(clip, &m.Skeleton)
	if err != nil {
		t.Fatal(err)
	}
	pose := anim.NewSoAPose(m.Skeleton.NumJoints())
	job := rc.NewSampleJob(false, pose)
	restX := m.Skeleton.Rest[j1].Translation[0]
	cases := []struct {
		at          float32
		dx, deg, sc float64
	}{
		{0, 0, 0, 1}, {0.49, 0, 0, 1}, {0.5, 0.25, 35, 1.5}, {0.7, 0.25, 35, 1.5},
		{1.49, 0.25, 35, 1.5}, {1.5, -0.25, -35, 0.6}, {1.9, -0.25, -35, 0.6}, {2, 0, 0, 1},
		// Backwards, as a scrubbing user samples: the cursors go back too.
		{0.7, 0.25, 35, 1.5}, {0.2, 0, 0, 1},
	}
	for _, c := range cases {
		job.Time = c.at
		job.Run()
		a, b := pose.At(j1), pose.At(j2)
		half := c.deg / 2 * math.Pi / 180
		wantQ := [4]float64{0, 0, math.Sin(half), math.Cos(half)}
		gotQ := [4]float64{float64(a.Rotation.V[0]), float64(a.Rotation.V[1]), float64(a.Rotation.V[2]), float64(a.Rotation.W)}
		for k := range 4 {
			if math.Abs(gotQ[k]-wantQ[k]) > 1e-6 {
				t.Fatalf("t=%g: j1 rotation %v, want %g° about Z %v", c.at, gotQ, c.deg, wantQ)
			}
		}
		if dx := float64(a.Translation[0] - restX); math.Abs(dx-c.dx) > 1e-6 {
			t.Fatalf("t=%g: j1 moved %g along x, want %g", c.at, dx, c.dx)
		}
		if s := float64(b.Scale[1]); math.Abs(s-c.sc) > 1e-6 {
			t.Fatalf("t=%g: j2 scale %g, want %g", c.at, s, c.sc)
		}
	}
}
