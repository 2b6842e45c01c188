package scene

import (
	"image"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
)

// TestViewDrawsOffscreen drives the frame step without a window: a view of
// the built-in character draws into an offscreen target, twice the same
// for the same pose, and Update moves the picture on.
func TestViewDrawsOffscreen(t *testing.T) {
	m := assettest.Character(t)
	walk, err := asset.FindClip(m, "Walk")
	if err != nil {
		t.Fatal(err)
	}
	c, err := character.New(m, nil, nil, walk, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 160, 200
	var first, again, later *image.NRGBA
	onGL(t, func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU}, w, h)
		if err != nil {
			return err
		}
		defer v.Destroy()
		shot := func() (*image.NRGBA, error) {
			if err := v.Draw(); err != nil {
				return nil, err
			}
			return v.Target.ReadImage(), nil
		}
		if err := v.PoseAt(0.25); err != nil {
			return err
		}
		if first, err = shot(); err != nil {
			return err
		}
		if again, err = shot(); err != nil {
			return err
		}
		if err := v.Update(0.3); err != nil {
			return err
		}
		later, err = shot()
		return err
	})
	if first.Bounds().Dx() != w || first.Bounds().Dy() != h {
		t.Fatalf("image %v, want %d×%d", first.Bounds(), w, h)
	}
	if got := first.NRGBAAt(1, 1); got != Background {
		t.Errorf("corner %v, want the background %v", got, Background)
	}
	// The camera frames the whole walk: the middle of the picture is the
	// character's torso.
	if got := first.NRGBAAt(w/2, h/2); got == Background {
		t.Errorf("centre is background: the character is not drawn")
	}
	diff := func(a, b *image.NRGBA) int {
		n := 0
		for i := range a.Pix {
			if a.Pix[i] != b.Pix[i] {
				n++
			}
		}
		return n
	}
	if d := diff(first, again); d != 0 {
		t.Errorf("the same pose drawn twice differs in %d bytes (leaked GL state?)", d)
	}
	if d := diff(first, later); d == 0 {
		t.Errorf("Update(0.3) left the picture unchanged: the walk did not move on")
	}
}

// TestGroundGrid: the rigid two-joint file at 0 s with its root at
// (2, 1, 3) scaled s: the mesh's vertices (0, 1…3, 0) under the tip at
// (2, 1 + s, 3) stand at y = 1 + 2s … 1 + 4s, a box 2s tall and nothing
// wide, so the grid's size is half its height, s, and its centre (2, 3). Its step is the power of ten at or below s/5,
// times 5 past 25 steps across, times 2 past 12; it reaches the whole
// steps that cover s on either side of the centre, at the box's floor.
func TestGroundGrid(t *testing.T) {
	for _, tc := range []struct {
		scale               string
		floor, step, extent float32
	}{
		{"0.95", 2.9, 0.1, 1},   // 9.5 steps of 0.1: 10
		{"1.25", 3.5, 0.2, 1.4}, // 12.5 steps of 0.1: 6.25 of 0.2, 7
		{"2.6", 6.2, 0.5, 3},    // 26 steps of 0.1: 5.2 of 0.5, 6
		{"12", 25, 1, 12},       // 12 steps of 1, not past 12: 12
		{"25", 51, 2, 26},       // 25 steps of 1, past 12, not past 25: 12.5 of 2, 13
	} {
		_, c := rigidTwoJoint(t, [2]string{`{"name": "root", "translation": [0, 1, 0]`, `{"name": "root", "translation": [2, 1, 3], "scale": [` + strings.Repeat(tc.scale+", ", 2) + tc.scale + `]`})
		onGL(t, func() error {
			v, err := NewView(c, ViewOptions{Skinning: SkinGPU}, 16, 16)
			if err != nil {
				return err
			}
			defer v.Destroy()
			if err := v.PoseAt(0); err != nil {
				return err
			}
			got, want := GroundGrid(v.Scene, c), render.MakeGrid(2, 3, tc.floor, tc.step, tc.extent)
			if got == nil {
				t.Errorf("scale %s: no grid", tc.scale)
				return nil
			}
			same := len(got.Segments) == len(want.Segments)
			for i := 0; same && i < len(want.Segments); i++ {
				same = math.Abs(float64(got.Segments[i]-want.Segments[i])) < 1e-4
			}
			if !same {
				t.Errorf("scale %s: grid %v; want lines every %g out to %g at y = %g: %v", tc.scale, got.Segments, tc.step, tc.extent, tc.floor, want.Segments)
			}
			return nil
		})
	}
}

// TestFramingKeepsTheShownClock: framing plays a copy of the character's
// controller through the clip; the one shown stays at its time and in its
// state, though the copy reaches the end of a once state whose automatic
// transition then leaves it.
func TestFramingKeepsTheShownClock(t *testing.T) {
	m, _ := twoJoint(t, "clock.gltf", 0)
	clip := graph.ClipRef{Index: 0}
	spec := &graph.Spec{Layers: []graph.LayerSpec{{
		States: []graph.StateSpec{
			{Name: "intro", Tree: &graph.NodeSpec{Type: graph.NodeClip, Clip: clip, Loop: anim.Once}},
			{Name: "idle", Tree: &graph.NodeSpec{Type: graph.NodeClip, Clip: clip, Loop: anim.Loop}},
		},
		Transitions: []graph.TransitionSpec{{From: "intro", To: "idle", Type: graph.TransitionImmediate, Auto: true, Window: &graph.Window{Begin: 0.9, End: 1}}},
	}}}
	c, err := character.New(m, nil, spec, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.Ctl.SetTime(0.3)
	withView(t, c, func(v *View) error {
		if got := c.Ctl.Timeline().Time; math.Abs(float64(got)-0.3) > 1e-6 {
			t.Errorf("after framing the character shows %g s; want 0.3 s", got)
		}
		if st := c.Ctl.Status().State; st != "intro" {
			t.Errorf("after framing the character is in state %q; want intro", st)
		}
		return nil
	})
}

// TestFramingSamplesTheWholeClip: the two-joint bar (y 1 to 3 at rest)
// hops: its root rises from y 1 to 6 at 0.5 s and comes back down at
// 1 s. The framing box holds the bar at the top of the hop, y 6 to 8,
// which neither end of the clip shows.
func TestFramingSamplesTheWholeClip(t *testing.T) {
	bin := assettest.TwoJointBin(t, []float32{0, 0.5, 1}, []float32{0, 1, 0, 0, 6, 0, 0, 1, 0})
	doc := assettest.TwoJointDoc(bin,
		`{"name": "hop", "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}], "samplers": [{"input": 6, "output": 7}]}`,
		`    {"buffer": 0, "byteOffset": 264, "byteLength": 12}, {"buffer": 0, "byteOffset": 276, "byteLength": 36}`,
		`    {"bufferView": 6, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0], "max": [1]}, {"bufferView": 7, "componentType": 5126, "count": 3, "type": "VEC3"}`)
	m, err := gltfload.Decode(doc, nil, "hop.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := character.New(m, nil, nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	withView(t, c, func(v *View) error {
		if v.BoxLo[1] > 1+1e-4 || v.BoxHi[1] < 8-1e-4 {
			t.Errorf("framing box y %g to %g; want 1 to 8 (the hop's top)", v.BoxLo[1], v.BoxHi[1])
		}
		return nil
	})
}

// TestKeepInView: a pose reaching past the box the camera was framed on
// (here, a box shrunk to a sliver of the bar) widens the box to hold it
// and frames the camera anew; once the user has moved the camera, it is
// left alone.
func TestKeepInView(t *testing.T) {
	_, c := twoJoint(t, "keep.gltf", 0)
	withView(t, c, func(v *View) error {
		lo, hi, ok := v.Scene.Bounds(c)
		if !ok {
			t.Error("nothing drawn")
			return nil
		}
		mid := lo.Add(hi).Mul(0.5)
		small := mgl32.Vec3{0.01, 0.01, 0.01}
		v.BoxLo, v.BoxHi = mid.Sub(small), mid.Add(small)
		v.Home = render.FrameBounds(v.BoxLo, v.BoxHi, 1)
		v.Cam = v.Home
		framed := v.Home
		v.KeepInView(c)
		for k := range 3 {
			if v.BoxLo[k] > lo[k] || v.BoxHi[k] < hi[k] {
				t.Errorf("box %v to %v after KeepInView; want it to hold the pose's %v to %v", v.BoxLo, v.BoxHi, lo, hi)
				return nil
			}
		}
		if v.Home == framed || v.Cam != v.Home {
			t.Errorf("the camera was not framed anew on the widened box")
		}
		// Moved by the user: neither box nor camera change.
		v.BoxLo, v.BoxHi = mid.Sub(small), mid.Add(small)
		v.Cam.Distance *= 2
		moved, home := v.Cam, v.Home
		v.KeepInView(c)
		if v.Cam != moved || v.Home != home || v.BoxLo != mid.Sub(small) {
			t.Errorf("KeepInView moved a camera the user had moved")
		}
		return nil
	})
}
