package asset_test

import (
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/gltfload"
)

// TopJoint is the first skin's joint nearest the skeleton's roots, the
// first listed of equals; −1 without skins.
func TestTopJoint(t *testing.T) {
	parents := []int{-1, 0, 1, 0} // 0 → 1 → 2, and 3 below 0
	for _, c := range []struct {
		skin []int
		want int
	}{
		{[]int{2, 1, 0, 3}, 0},
		{[]int{1, 0}, 0},
		{[]int{2, 3, 1}, 3}, // 3 and 1 at depth 1: the first listed
		{[]int{2, 1, 3}, 1},
		{[]int{2}, 2},
	} {
		m := &gltfload.Model{Skeleton: anim.Skeleton{Parents: parents}, Skins: []anim.Skin{{Joints: c.skin}}}
		if got := asset.TopJoint(m); got != c.want {
			t.Errorf("skin %v: top joint %d; want %d", c.skin, got, c.want)
		}
	}
	if got := asset.TopJoint(&gltfload.Model{Skeleton: anim.Skeleton{Parents: parents}}); got != -1 {
		t.Errorf("no skins: top joint %d; want -1", got)
	}
}

// The root a retarget moves is the shallowest joint of the target's first
// skin that the source's clips translate (over more than one key, by a
// source joint that drives a target joint), else the top joint: a still
// root with the hips below it (0 → 1 → 2) moves the hips.
func TestMovingRoot(t *testing.T) {
	m := &gltfload.Model{Skeleton: anim.Skeleton{Parents: []int{-1, 0, 1}}, Skins: []anim.Skin{{Joints: []int{0, 1, 2}}}}
	toTarget := []int{0, 1, 2, -1} // source joint 3 drives nothing
	move := func(j int, keys int) anim.Track {
		tr := anim.Track{Joint: j, Path: anim.Translation, Interp: anim.Linear}
		for k := range keys {
			tr.Times = append(tr.Times, float32(k))
			tr.Values = append(tr.Values, float32(k), 0, 0)
		}
		return tr
	}
	turn := anim.Track{Joint: 0, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, 0, 1, 0, 0}}
	for _, c := range []struct {
		name   string
		tracks []anim.Track
		want   int
	}{
		{"hips under a turning root", []anim.Track{turn, move(1, 2)}, 1},
		{"root and hips", []anim.Track{move(1, 2), move(0, 2)}, 0},
		{"a root posed by one key", []anim.Track{move(0, 1), move(2, 2)}, 2},
		{"only a joint that drives nothing", []anim.Track{move(3, 2)}, 0},
		{"nothing translated", []anim.Track{turn}, 0},
	} {
		src := &gltfload.Model{Clips: []anim.Clip{{Name: "A", Duration: 1}, {Name: "B", Duration: 1, Tracks: c.tracks}}}
		if got := asset.MovingRoot(m, src, toTarget); got != c.want {
			t.Errorf("%s: moving root %d; want %d", c.name, got, c.want)
		}
	}
}
