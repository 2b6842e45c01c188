package graph

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// TestWindowHitEdges: a transition window is met when the time swept
// touches it, ends included (hand-worked, dyadic values are exact).
func TestWindowHitEdges(t *testing.T) {
	cases := []struct {
		name  string
		t, d  float32
		wraps bool
		b, e  float32
		hit   bool
	}{
		{"once: swept [0.25, 0.5] touches [0.5, 0.75] at its start", 0.5, 0.25, false, 0.5, 0.75, true},
		{"once: swept [0.25, 0.5] touches [0.125, 0.25] at its end", 0.5, 0.25, false, 0.125, 0.25, true},
		{"once: swept [0.25, 0.5] misses [0.625, 0.75]", 0.5, 0.25, false, 0.625, 0.75, false},
		{"once backwards: swept [0.25, 0.5] from 0.5", 0.25, -0.25, false, 0.5, 0.75, true},
		{"loop: [0.75, 1.25] meets [0.1, 0.2] one loop on", 1.25, 0.5, true, 0.1, 0.2, true},
		{"loop: [0.75, 1.25] misses [0.3, 0.5]", 1.25, 0.5, true, 0.3, 0.5, false},
		{"loop: [0.75, 1.25] touches [0.25, 0.5] at its start", 1.25, 0.5, true, 0.25, 0.5, true},
		{"loop: [0.75, 1.25] touches [0.5, 0.75] at its end", 1.25, 0.5, true, 0.5, 0.75, true},
	}
	for _, c := range cases {
		if got := windowHit(c.t, c.d, c.wraps, Window{Begin: c.b, End: c.e}); got != c.hit {
			t.Errorf("%s: got %v", c.name, got)
		}
	}
}

// TestClipNodeClock: a clip node's normalized time, its change per update
// (unwrapped for looping clocks) and its sync cycle, worked out by hand.
func TestClipNodeClock(t *testing.T) {
	x := &evalContext{dir: 1}
	node := func(d, rate float32, mode anim.LoopMode, loops int) *clipNode {
		n := &clipNode{clock: anim.ClipClock{Duration: d, Rate: 1, Mode: mode, Loops: loops}, rate: input{param: -1, value: rate}}
		n.reset(x)
		return n
	}
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-6 }

	n := node(2, 1, anim.Loop, 1)
	n.update(x, 0.5)
	if !near(n.nt, 0.25) || !near(n.nd, 0.25) {
		t.Fatalf("loop 2 s after 0.5 s: nt %v nd %v, want 0.25 0.25", n.nt, n.nd)
	}
	n.update(x, 1.75) // to 2.25 s: wraps to 0.25 s
	if !near(n.nt, 0.125) || !near(n.nd, 0.875) {
		t.Fatalf("loop 2 s after 2.25 s: nt %v nd %v, want 0.125 and the unwrapped 0.875", n.nt, n.nd)
	}

	n = node(2, 1, anim.Once, 1)
	n.update(x, 0.5)
	n.update(x, 5) // clamps at the end
	if !near(n.nt, 1) || !near(n.nd, 0.75) {
		t.Fatalf("once 2 s after 5.5 s: nt %v nd %v, want 1 and 0.75", n.nt, n.nd)
	}

	n = node(1, 1, anim.Repeat, 2)
	n.update(x, 0.5)
	n.update(x, 1) // 1.5 s: second loop, still wrapping
	if !near(n.nt, 0.5) || !near(n.nd, 1) {
		t.Fatalf("repeat ×2 after 1.5 s: nt %v nd %v, want 0.5 and 1", n.nt, n.nd)
	}
	n.update(x, 1) // 2.5 s: finished, held at the end
	if !near(n.nt, 1) || !near(n.nd, 0.5) {
		t.Fatalf("repeat ×2 after 2.5 s: nt %v nd %v, want 1 and 0.5", n.nt, n.nd)
	}

	// Paused on the end of a loop (a seek there): it keeps showing the end.
	n = node(2, 1, anim.Loop, 1)
	n.clock.Elapsed = 2
	n.update(&evalContext{dir: 0}, 0.1)
	if !near(n.nt, 1) {
		t.Fatalf("paused on the end: nt %v, want 1", n.nt)
	}

	n = node(0, 1, anim.Loop, 1)
	n.update(x, 0.5)
	if n.nt != 0 || n.nd != 0 || n.cycle() != 0 {
		t.Fatalf("zero-length clip: nt %v nd %v cycle %v, want 0 0 0", n.nt, n.nd, n.cycle())
	}

	for _, c := range []struct {
		d, rate float32
		mode    anim.LoopMode
		want    float32
	}{
		{2, 2, anim.Loop, 1},         // 2 s at double speed
		{3, -0.5, anim.PingPong, 12}, // there and back, 6 s, at half speed backwards
		{2, 1, anim.Once, 0},         // not on the sync clock
		{2, 0, anim.Loop, 0},         // stopped
	} {
		if got := node(c.d, c.rate, c.mode, 1).cycle(); !near(got, c.want) {
			t.Errorf("cycle of %v s at rate %v, %v: %v, want %v", c.d, c.rate, c.mode, got, c.want)
		}
	}

	// Backwards, phase p runs from the end: 0.25 of a 2 s loop is 1.5 s.
	n = node(2, -1, anim.Loop, 1)
	n.setPhase(0.25)
	if !near(n.clock.Local(), 1.5) || !near(n.nt, 0.75) {
		t.Fatalf("backwards phase 0.25: local %v nt %v, want 1.5 and 0.75", n.clock.Local(), n.nt)
	}
}

// twoClips is a blend node over two looping clips that hold joint 1 at
// x = 0 and x = 4, of durations d0 and d1, with the context to run it.
func twoClips(t *testing.T, kind NodeType, d0, d1 float32) (*blendNode, [2]*clipNode, *evalContext) {
	t.Helper()
	sk := animtest.Chain(2)
	var cs [2]*clipNode
	for i, c := range []anim.Clip{animtest.ConstClip("A", d0, 1, 0, 0, 0), animtest.ConstClip("B", d1, 1, 4, 0, 0)} {
		rc, err := anim.NewRuntimeClip(&c, sk)
		if err != nil {
			t.Fatal(err)
		}
		cs[i] = &clipNode{job: anim.SampleSoAJob{Clip: rc, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen())},
			clock: anim.ClipClock{Duration: c.Duration, Rate: 1, Mode: anim.Loop, Loops: 1}, rate: input{param: -1, value: 1}}
	}
	x := &evalContext{dir: 1, rest: anim.NewSoAPose(2), stack: []*anim.SoAPose{anim.NewSoAPose(2), anim.NewSoAPose(2)}}
	n := &blendNode{kind: kind, children: []node{cs[0], cs[1]}, w: make([]float32, 2), param: input{param: -1}, weight: input{param: -1}}
	return n, cs, x
}

// TestBlendNodeByHand: a lerp's pose, a synchronized blend's cycle and
// phase, a cross-fade's selector at exactly one half.
func TestBlendNodeByHand(t *testing.T) {
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

	n, _, x := twoClips(t, NodeLerp, 1, 1)
	n.weight.value = 0.25
	n.reset(x)
	out := anim.NewSoAPose(2)
	n.eval(x, out)
	if !near(out.At(1).Translation[0], 1) { // 0.75·0 + 0.25·4
		t.Fatalf("lerp at 0.25: x = %v, want 1", out.At(1).Translation[0])
	}

	// Synchronized, durations 1 and 2, weights 0.75 and 0.25: the cycle is
	// 0.75·1 + 0.25·2 = 1.25 s, so 0.625 s is half of it, and both clips
	// are half way: 0.5 s and 1 s.
	n, cs, x := twoClips(t, NodeLerp, 1, 2)
	n.weight.value, n.sync = 0.25, true
	n.reset(x)
	if c := n.cycle(); !near(c, 1.25) {
		t.Fatalf("cycle %v, want 1.25", c)
	}
	n.update(x, 0.625)
	if !near(n.phase, 0.5) || !near(cs[0].clock.Local(), 0.5) || !near(cs[1].clock.Local(), 1) {
		t.Fatalf("after 0.625 s: phase %v, clips at %v and %v; want 0.5, 0.5, 1", n.phase, cs[0].clock.Local(), cs[1].clock.Local())
	}
	n.update(x, 0.625) // exactly one cycle: back to the start, not the end
	if n.phase != 0 || cs[0].clock.Local() != 0 || cs[1].clock.Local() != 0 {
		t.Fatalf("after one cycle: phase %v, clips at %v and %v; want 0", n.phase, cs[0].clock.Local(), cs[1].clock.Local())
	}
	for _, c := range cs {
		c.clock.Mode = anim.Once // off the sync clock: no cycle, no phase
	}
	n.update(x, 0.5)
	if n.nd != 0 || n.phase != 0 {
		t.Fatalf("no cycle: nd %v phase %v, want 0 0", n.nd, n.phase)
	}

	// A cross-fade selects its second child from 0.5 on.
	n, _, x = twoClips(t, NodeCrossFade, 1, 1)
	n.duration, n.param.value = 1, 0.5
	n.reset(x)
	if n.w[1] != 1 {
		t.Fatalf("cross-fade reset at 0.5: weights %v, want settled on the second", n.w)
	}
	n.param.value = 0
	n.reset(x)
	n.param.value = 0.5
	n.update(x, 0.25)
	if !near(n.u, 0.25) {
		t.Fatalf("cross-fade towards 0.5: progress %v after 0.25 s of 1 s, want 0.25", n.u)
	}
}

// TestSpecEdges: what Validate accepts at its limits, and that an error
// after a valid entry is still found.
func TestSpecEdges(t *testing.T) {
	if s := NodeType(len(nodeTypeNames)).String(); s == "" {
		t.Fatal("an unknown node type has no name")
	}
	clip := func(name string) *NodeSpec { n := clipNodeSpec(name); return &n }
	machine := func(trs ...TransitionSpec) *Spec {
		return &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "a", Tree: clip("A")}, {Name: "b", Tree: clip("B")}}, Transitions: trs}}}
	}
	for _, tc := range []struct {
		name    string
		spec    *Spec
		wantErr string // "" for valid
	}{
		{"a transition of no duration", machine(TransitionSpec{From: "a", To: "b"}), ""},
		{"a window of one instant", machine(TransitionSpec{From: "a", To: "b", Window: &Window{Begin: 0.5, End: 0.5}}), ""},
		{"a window to the very end", machine(TransitionSpec{From: "a", To: "b", Window: &Window{Begin: 0.75, End: 1}}), ""},
		{"an error after a valid transition", machine(TransitionSpec{From: "a", To: "b"}, TransitionSpec{From: "b", To: "c"}), `unknown state "c"`},
		{"a constant weight that is NaN", &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "a", Tree: &NodeSpec{Type: NodeLerp,
			Children: []NodeSpec{clipNodeSpec("A"), clipNodeSpec("B")}, Weight: &Input{Value: float32(math.NaN())}}}}}}}, "weight"},
		{"an error in a later child", &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "a", Tree: &NodeSpec{Type: NodeLerp,
			Children: []NodeSpec{clipNodeSpec("A"), {Type: NodeType(99)}}, Weight: &Input{Value: 0.5}}}}}}}, "children[1]"},
	} {
		err := tc.spec.Validate()
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: got %v, want an error naming %s", tc.name, err, tc.wantErr)
		}
	}
	two := &Spec{Layers: []LayerSpec{{}, {}}}
	if two.layerName(0) != "base" || two.layerName(1) != "layer1" {
		t.Fatalf("unnamed layers are %q and %q, want base and layer1", two.layerName(0), two.layerName(1))
	}
}

// TestSpecErrorsAfterValidParts: each kind of node and post step with its
// first parts valid and a later one wrong; the error must still be found
// (a check that stopped at its first valid part would miss every one).
func TestSpecErrorsAfterValidParts(t *testing.T) {
	nan := &Input{Value: float32(math.NaN())}
	bad := &NodeSpec{Type: NodeType(99)}
	a, b := clipNodeSpec("A"), clipNodeSpec("B")
	half := &Input{Value: 0.5}
	mask := &MaskSpec{Joints: []string{"j1"}}
	nodes := []struct {
		name, want string
		node       NodeSpec
	}{
		{"blend2d points after params", "points", NodeSpec{Type: NodeBlend2D, Children: []NodeSpec{a, b}, Points: []mgl32.Vec2{{0, 0}}}},
		{"average: a negative constant weight after a valid one", "negative", NodeSpec{Type: NodeAverage, Children: []NodeSpec{a, b}, Weights: []Input{{Value: 1}, {Value: -1}}}},
		{"cross-fade duration after its param", "duration", NodeSpec{Type: NodeCrossFade, Children: []NodeSpec{a, b}, Duration: -1}},
		{"cross-fade children after its ease", "children", NodeSpec{Type: NodeCrossFade, Children: []NodeSpec{a, b, a}}},
		{"additive mask after its weight", "mask", NodeSpec{Type: NodeAdditive, Weight: half, Mask: &MaskSpec{}, Base: &a, Source: &b}},
		{"additive base after its mask", "base", NodeSpec{Type: NodeAdditive, Mask: mask, Base: bad, Source: &b}},
		{"additive source after its base", "source", NodeSpec{Type: NodeAdditive, Base: &a, Source: bad}},
		{"mask node without a mask after its weight", "mask", NodeSpec{Type: NodeMask, Weight: half, Base: &a, Overlay: &b}},
		{"mask node base after its mask", "base", NodeSpec{Type: NodeMask, Mask: mask, Base: bad, Overlay: &b}},
		{"mask node overlay after its base", "overlay", NodeSpec{Type: NodeMask, Mask: mask, Base: &a, Overlay: bad}},
		{"layer mask after its weight", "mask", NodeSpec{Type: NodeLayer, Base: &a, Layers: []NodeLayerSpec{{Node: b, Weight: half, Mask: &MaskSpec{}}}}},
		{"layer node after its mask", "node", NodeSpec{Type: NodeLayer, Base: &a, Layers: []NodeLayerSpec{{Node: *bad, Mask: mask}}}},
		{"second layer after a valid first", "layers[1]", NodeSpec{Type: NodeLayer, Base: &a, Layers: []NodeLayerSpec{{Node: b}, {Node: *bad}}}},
	}
	for _, tc := range nodes {
		n := tc.node
		s := &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "s", Tree: &n}}}}}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error at %s", tc.name, err, tc.want)
		}
	}
	one := []StateSpec{{Name: "s", Tree: &a}}
	posts := []struct {
		name, want string
		post       PostSpec
	}{
		{"IK target after its pole", "target", PostSpec{Type: PostTwoBoneIK, Joints: []string{"a", "b", "c"}, Target: [3]Input{{}, *nan, {}}}},
		{"look-at weight after its target", "weight", PostSpec{Type: PostLookAt, Joints: []string{"a"}, Weight: nan}},
	}
	for _, tc := range posts {
		s := &Spec{Layers: []LayerSpec{{States: one}}, Post: []PostSpec{tc.post}}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error at %s", tc.name, err, tc.want)
		}
	}
	valid := []NodeSpec{{Type: NodeCrossFade, Children: []NodeSpec{a, b}, Duration: 0}}
	for _, n := range valid {
		s := &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "s", Tree: &n}}}}, Post: []PostSpec{{Type: PostLookAt, Joints: []string{"a", "b"}, Shares: []float32{0, 1}}}}
		if err := s.Validate(); err != nil {
			t.Errorf("a cross-fade of no duration and a look-at share of 0: %v", err)
		}
	}
}

// TestSpecJSONForms: a clip by index 0, a Bézier ease as [p1, p2].
func TestSpecJSONForms(t *testing.T) {
	s, err := ParseSpec([]byte(`{"states": [{"name": "a", "tree": {"type": "clip", "clip": 0}}, {"name": "b", "tree": "B"}],
	  "transitions": [{"from": "a", "to": "b", "duration": 0.5, "ease": [0.25, 0.75]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if ref := s.Layers[0].States[0].Tree.Clip; ref.Index != 0 || ref.Name != "" {
		t.Fatalf("clip 0 parsed as %+v", ref)
	}
	if e := s.Layers[0].Transitions[0].Ease; e.Shape != EaseBezier || e.P1 != 0.25 || e.P2 != 0.75 {
		t.Fatalf("ease [0.25, 0.75] parsed as %+v", e)
	}
}
