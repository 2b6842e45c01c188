package anim

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestRetarget(t *testing.T) {
	// Source: joint 1 rests turned 90° about Z. Target: joint 1 rests
	// straight, its bones twice as long.
	from, to := chain(2), chain(2)
	z90 := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 0, 1})
	x30 := mgl32.QuatRotate(math.Pi/6, mgl32.Vec3{1, 0, 0})
	from.Rest[1].Rotation = z90
	to.Rest[1].Translation = to.Rest[1].Translation.Mul(2)
	q := func(r mgl32.Quat) []float32 { return []float32{r.V[0], r.V[1], r.V[2], r.W} }
	src := Clip{Name: "wave", Duration: 1, Tracks: []Track{
		{Joint: 1, Path: Rotation, Interp: Linear, Times: []float32{0, 1}, Values: append(q(z90), q(z90.Mul(x30))...)},
		{Joint: 0, Path: Translation, Interp: Linear, Times: []float32{0, 1}, Values: []float32{0, 1, 0, 1, 1, 0}},
		{Joint: 1, Path: Translation, Interp: Linear, Times: []float32{0, 1}, Values: []float32{5, 5, 5, 6, 6, 6}},
		{Joint: 1, Path: Scale, Interp: Linear, Times: []float32{0, 1}, Values: []float32{2, 2, 2, 3, 3, 3}},
	}}
	got, err := Retarget(&src, from, to, &RetargetMap{Joint: []int{0, 1}, Root: 0, Scale: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tracks) != 2 {
		t.Fatalf("%d tracks, want the rotation and the root translation: %+v", len(got.Tracks), got.Tracks)
	}
	// Key 0 is the source's rest: the target's rest (identity); key 1 is
	// the source's turn away from its rest, 30° about X.
	want := append(q(mgl32.QuatIdent()), q(x30)...)
	for k, v := range got.Tracks[0].Values {
		if math.Abs(float64(v-want[k])) > 1e-6 {
			t.Fatalf("rotation keys %v, want %v", got.Tracks[0].Values, want)
		}
	}
	if tr := got.Tracks[1]; tr.Joint != 0 || tr.Path != Translation || tr.Values[1] != 2 || tr.Values[3] != 2 || tr.Values[4] != 2 {
		t.Fatalf("root translation %+v, want the keys doubled", tr)
	}
	// A map that leaves joint 1 without a target drops its track.
	got, _ = Retarget(&src, from, to, &RetargetMap{Joint: []int{0, -1}, Root: 0, Scale: 1})
	if len(got.Tracks) != 1 || got.Tracks[0].Joint != 0 {
		t.Fatalf("unmapped joint kept: %+v", got.Tracks)
	}
	if _, err := Retarget(&src, from, to, &RetargetMap{Joint: []int{0}}); err == nil {
		t.Fatal("a map of the wrong length was taken")
	}
}
