package character

import (
	"math"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/gltfload"
)

// twoClips is assettest.TwoJointGLTF with another clip first, "hop": the
// tip held at rest by keys at 0, 0.25 and 0.5 s, a key rate of 4 fps.
// "bend", second, keys its one channel at 0 and 1 s only: no spacing,
// DefaultFPS. Joints rest at root (0,1,0), tip (0,2,0), body (5,0,0).
func twoClips(t *testing.T, fade float32) *Character {
	t.Helper()
	bin := assettest.TwoJointBin(t,
		[]float32{0, 0.25, 0.5},                       // hop key times: 264..276
		[]float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}) // hop rotations: 276..324
	doc := assettest.TwoJointDoc(bin, `{"name": "hop", "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}],
                  "samplers": [{"input": 6, "output": 7}]}, `+assettest.TwoJointBend,
		`    {"buffer": 0, "byteOffset": 264, "byteLength": 12},
    {"buffer": 0, "byteOffset": 276, "byteLength": 48}`,
		`    {"bufferView": 6, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0], "max": [0.5]},
    {"bufferView": 7, "componentType": 5126, "count": 3, "type": "VEC4"}`)
	m, err := gltfload.Decode(doc, nil, "twoclips.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, nil, nil, 0, fade)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// empty is a character of a file without nodes or clips.
func empty(t *testing.T) *Character {
	t.Helper()
	m, err := gltfload.Decode([]byte(`{"asset": {"version": "2.0"}}`), nil, "empty.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, nil, nil, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

// TestTimelineOfTheClipShown: keys, frame rate and frame step follow the
// clip the timeline shows; requests by index beyond the clips are refused
// with the clip counted from 1.
func TestTimelineOfTheClipShown(t *testing.T) {
	c := twoClips(t, 0)
	cases := []struct {
		name string
		show func() error
		keys []float32
		fps  float32
	}{
		{"hop", func() error { return nil }, []float32{0, 0.25, 0.5}, 4},
		{"bend by index", func() error { return c.RequestIndex(1) }, []float32{0, 1}, DefaultFPS},
		{"hop cut to", func() error { return c.Request(0, true) }, []float32{0, 0.25, 0.5}, 4},
	}
	for _, tc := range cases {
		if err := tc.show(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		c.Ctl.Update(0)
		if got := c.Keys(); !slices.Equal(got, tc.keys) {
			t.Errorf("%s: keys %v, want %v", tc.name, got, tc.keys)
		}
		if got, step := c.FPS(), c.FrameStep(); got != tc.fps || !near(step, 1/tc.fps) {
			t.Errorf("%s: %v fps, frame step %v; want %v fps, step %v", tc.name, got, step, tc.fps, 1/tc.fps)
		}
		if st := c.Ctl.Status(); st.State != c.ClipName() || st.From != "" {
			t.Errorf("%s: playing %q from %q, clip %q; want the clip at once", tc.name, st.State, st.From, c.ClipName())
		}
	}
	if c.Clip != 0 {
		t.Errorf("clip %d after the cut to hop, want 0", c.Clip)
	}
	if err := c.RequestIndex(2); err == nil || err.Error() != "no clip 3: the model has 2" {
		t.Errorf("RequestIndex(2): %v, want no clip 3 of 2", err)
	}
	e := empty(t)
	if got, fps := e.Keys(), e.FPS(); got != nil || fps != DefaultFPS {
		t.Errorf("no clips: keys %v, %v fps; want none, DefaultFPS", got, fps)
	}
}

// TestClipWeightsOfBlendAndFade: a cross-fade halfway weighs both ends
// ½ (the ease in-out is symmetric); the blend entered from hop with bend
// at w weighs hop 1/(1+w), bend w/(1+w); a blend of all zero weights is
// the rest pose, no clip weighing anything.
func TestClipWeightsOfBlendAndFade(t *testing.T) {
	fading := twoClips(t, 1)
	if err := fading.Request(1, false); err != nil {
		t.Fatal(err)
	}
	fading.Ctl.Update(0) // the fade starts
	fading.Ctl.Update(0.5)
	// A quarter way through, the ease in and out (3u² − 2u³) has moved
	// 0.15625 of the weight: not the halfway point, where both ends are
	// equal.
	quarter := twoClips(t, 1)
	if err := quarter.Request(1, false); err != nil {
		t.Fatal(err)
	}
	quarter.Ctl.Update(0)
	quarter.Ctl.Update(0.25)
	blend := twoClips(t, 0)
	if err := blend.SetBlendWeight(1, 0.5); err != nil {
		t.Fatal(err)
	}
	blend.Ctl.Update(0)
	rest := twoClips(t, 0)
	if err := rest.SetBlendWeight(0, 0); err != nil {
		t.Fatal(err)
	}
	rest.Ctl.Update(0)
	for _, tc := range []struct {
		name string
		c    *Character
		want []float32
	}{
		{"cross-fade halfway", fading, []float32{0.5, 0.5}},
		{"cross-fade a quarter way", quarter, []float32{0.84375, 0.15625}},
		{"blend at bend 0.5", blend, []float32{2.0 / 3, 1.0 / 3}},
		{"blend of zero weights", rest, []float32{0, 0}},
	} {
		got := tc.c.ClipWeights()
		if len(got) != 2 || !near(got[0], tc.want[0]) || !near(got[1], tc.want[1]) {
			t.Errorf("%s: clip weights %v, want %v", tc.name, got, tc.want)
		}
	}
	// A weight beyond 1 is 1, and below 0 is 0.
	over := twoClips(t, 0)
	if err := over.SetBlendWeight(1, 1.5); err != nil {
		t.Fatal(err)
	}
	if w, ok := over.BlendWeight(1); w != 1 || !ok {
		t.Errorf("SetBlendWeight(1, 1.5) left %v, %v; want 1", w, ok)
	}
	if err := over.SetBlendWeight(0, -0.5); err != nil {
		t.Fatal(err)
	}
	if w, ok := over.BlendWeight(0); w != 0 || !ok {
		t.Errorf("SetBlendWeight(0, -0.5) left %v, %v; want 0", w, ok)
	}
	for i, want := range []struct {
		w  float32
		ok bool
	}{{0, false}, {1, true}, {0.5, true}, {0, false}} {
		if w, ok := blend.BlendWeight(i - 1); w != want.w || ok != want.ok {
			t.Errorf("BlendWeight(%d) = %v, %v; want %v, %v", i-1, w, ok, want.w, want.ok)
		}
	}
}

// TestJointBounds: the box of root (0,1,0), tip (0,2,0) and body (5,0,0)
// is (0,0,0)…(5,2,0), widened by a tenth of its diagonal √29; a model
// without joints has none.
func TestJointBounds(t *testing.T) {
	c := twoClips(t, 0)
	c.Evaluate(0.5)
	lo, hi, ok := c.JointBounds()
	p := float32(math.Sqrt(29) / 10)
	wantLo, wantHi := mgl32.Vec3{-p, -p, -p}, mgl32.Vec3{5 + p, 2 + p, p}
	if !ok || !lo.ApproxEqualThreshold(wantLo, 1e-5) || !hi.ApproxEqualThreshold(wantHi, 1e-5) {
		t.Errorf("bounds %v…%v ok %v, want %v…%v", lo, hi, ok, wantLo, wantHi)
	}
	if _, _, ok := empty(t).JointBounds(); ok {
		t.Error("bounds of a model without joints")
	}
}

// TestLayoutOfNew: the clip browser starts on the clip asked for, its
// span the clip's; none (−1, no name, no span) without clips; runtime clips must match the
// model's; the overlay's joints are the skin's (body is none); a joint
// names its parent, the root none.
func TestLayoutOfNew(t *testing.T) {
	c := twoClips(t, 0)
	for clip, want := range map[int]string{-1: "", 0: "hop", 1: "bend", 2: ""} {
		if got := ClipSpec(c.Model, clip, 0, anim.Once).Layers[0].Initial; got != want {
			t.Errorf("ClipSpec initial of clip %d: %q, want %q", clip, got, want)
		}
	}
	if _, err := New(c.Model, make([]*anim.RuntimeClip, 1), nil, 0, 0); err == nil || err.Error() != "twoclips.gltf: 1 runtime clips for 2 clips" {
		t.Errorf("one runtime clip for two: %v", err)
	}
	for j, want := range []struct {
		parent string
		inSkin bool
	}{{"", true}, {"root", true}, {"", false}} {
		if _, parent, _, _ := c.Joint(j); parent != want.parent || c.InSkin(j) != want.inSkin {
			t.Errorf("joint %d: parent %q, in skin %v; want %q, %v", j, parent, c.InSkin(j), want.parent, want.inSkin)
		}
	}
	if got := c.Span(); got != 0.5 {
		t.Errorf("span of hop %v, want 0.5 s", got)
	}
	e := empty(t)
	if e.Clip != -1 || e.ClipName() != "" || e.Span() != 0 || len(e.Choices()) != 0 {
		t.Errorf("no clips: clip %d %q, span %v, choices %v; want -1, none", e.Clip, e.ClipName(), e.Span(), e.Choices())
	}
}

// TestQuickSpecClipRefs: a blend's clips are found by name and play once;
// an additive layer goes over the clip asked for, else the first, by
// index; its reference time may be anything from 0 to the clip's end.
func TestQuickSpecClipRefs(t *testing.T) {
	m := twoClips(t, 0).Model
	spec, err := QuickSpec(m, "bend:0.7,hop:0.3", "", -1)
	if err != nil {
		t.Fatal(err)
	}
	kids := spec.Layers[0].States[0].Tree.Children
	if len(kids) != 2 || kids[0].Clip != (graph.ClipRef{Index: 1}) || kids[1].Clip != (graph.ClipRef{Index: 0}) || kids[0].Loop != anim.Once {
		t.Errorf("-blend bend:0.7,hop:0.3: children %+v, want clips 1 and 0 played once", kids)
	}
	for _, tc := range []struct {
		additive string
		clip     int
		base     graph.ClipRef
	}{
		{"bend:0.5@0", -1, graph.ClipRef{Index: 0}},
		{"bend:0.5@1", 1, graph.ClipRef{Index: 1}},
		{"bend:0.5@1.0005", 1, graph.ClipRef{Index: 1}}, // the end to the millisecond
		{"hop:0.5@0.5", 0, graph.ClipRef{Index: 0}},
	} {
		spec, err := QuickSpec(m, "", tc.additive, tc.clip)
		if err != nil {
			t.Errorf("-additive %s over clip %d: %v", tc.additive, tc.clip, err)
			continue
		}
		if tree := spec.Layers[0].States[0].Tree; tree.Base.Clip != tc.base || tree.Base.Loop != anim.Once {
			t.Errorf("-additive %s over clip %d: base %+v, want %+v played once", tc.additive, tc.clip, tree.Base, tc.base)
		}
	}
}

// TestTrailOfEachJoint: over hop (0.5 s at 4 fps: frames 0, ¼ and ½ s),
// which holds the rest pose, each joint's trail is 3 points where it
// rests; no trail for an index outside the joints.
func TestTrailOfEachJoint(t *testing.T) {
	c := twoClips(t, 0)
	c.Evaluate(0)
	for j, want := range map[int][]float32{-1: nil, 0: {0, 1, 0}, 1: {0, 2, 0}, 2: {5, 0, 0}, 3: nil} {
		got := c.Trail(j)
		if want == nil {
			if got != nil {
				t.Errorf("trail of joint %d: %v, want none", j, got)
			}
			continue
		}
		if len(got) != 3 {
			t.Errorf("trail of joint %d: %v, want 3 points", j, got)
		}
		for _, p := range got {
			if !mgl32.Vec3(p).ApproxEqualThreshold(mgl32.Vec3{want[0], want[1], want[2]}, 1e-5) {
				t.Errorf("trail of joint %d: %v, want every point at %v", j, got, want)
				break
			}
		}
	}
}

// TestRootMotionJointZero: the root joint (index 0) carries root motion
// whether named or taken as the skin's top joint; off, the character is
// back at the identity.
func TestRootMotionJointZero(t *testing.T) {
	c := twoClips(t, 0)
	for _, joint := range []string{"root", ""} {
		if err := c.SetRootMotion(joint, anim.RootXZ); err != nil || !c.root.on {
			t.Errorf("root motion on %q: %v, on %v; want on", joint, err, c.root.on)
		}
	}
	if err := c.SetRootMotion("", anim.RootOff); err != nil || c.root.on || c.Root != rootIdentity {
		t.Errorf("root motion off: %v, on %v, root %+v; want off at the identity", err, c.root.on, c.Root)
	}
}
