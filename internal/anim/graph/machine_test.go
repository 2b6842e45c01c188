package graph

import (
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// machineClips, on joint 0 of a two-joint chain:
//
//	A  x = 10t          (1 s, loops)
//	B  x = 100 + 100t   (1 s, loops)
//	C  x = 1000         (1 s)
//	W  x = 2000 + 1000t (1 s, played once)
func machineClips() []anim.Clip {
	return []anim.Clip{
		animtest.RampClip("A", 1, 0, 0, 10),
		animtest.RampClip("B", 1, 0, 100, 200),
		animtest.ConstClip("C", 1, 0, 1000, 0, 0),
		animtest.RampClip("W", 1, 0, 2000, 3000),
	}
}

// machineSpec exercises every kind of transition. Frames in the test are
// 0.125 s, so normalized times and blend weights are exact binary
// fractions and each expected number below is exact.
const machineSpec = `{
  "states": [
    {"name": "a", "tree": "A"},
    {"name": "b1", "tree": "B"},
    {"name": "b2", "tree": "C"},
    {"name": "once", "tree": {"type": "clip", "clip": "W", "loop": "once"}}
  ],
  "transitions": [
    {"name": "go_b", "from": "a", "to": "b1", "duration": 0.5, "ease": "linear"},
    {"from": "b*", "to": "a", "type": "frozen", "duration": 0.5},
    {"from": "b1", "to": "b2", "type": "immediate"},
    {"from": "*", "to": "once", "duration": 0.25, "window": [0.5, 0.6]},
    {"from": "once", "to": "a", "auto": true, "window": [0.9, 1], "duration": 0.25}
  ]
}`

// frame is one step of a scripted state-machine test: optional requests
// before the update, then the expected pose and status after it.
type frame struct {
	request string  // requested before the update; "" for none
	x       float32 // joint 0's x after the update
	state   string
	from    string
	weight  float32
	pending string
}

func runFrames(t *testing.T, c *Controller, frames []frame) {
	t.Helper()
	for i, f := range frames {
		if f.request != "" {
			if err := c.Request(f.request); err != nil {
				t.Fatalf("frame %d: Request(%q): %v", i+1, f.request, err)
			}
		}
		c.Update(0.125)
		got := x0(c)
		s := c.Status()
		if !animtest.ApproxEqual(got, f.x, 1e-3) || s.State != f.state || s.From != f.from || !animtest.ApproxEqual(s.Weight, f.weight, 1e-6) || s.Layers[0].Pending != f.pending {
			t.Fatalf("frame %d: x %v state %q from %q weight %v pending %q; want x %v state %q from %q weight %v pending %q",
				i+1, got, s.State, s.From, s.Weight, s.Layers[0].Pending, f.x, f.state, f.from, f.weight, f.pending)
		}
	}
}

func TestStateMachine(t *testing.T) {
	spec, err := ParseSpec([]byte(machineSpec))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), machineClips())
	if got := strings.Join(c.States(), ","); got != "a,b1,b2,once" {
		t.Fatalf("States() = %s", got)
	}
	if s := c.Status(); s.State != "a" || s.From != "" || s.Weight != 1 {
		t.Fatalf("initial status %+v", s)
	}
	runFrames(t, c, []frame{
		// Requested by destination; taken at the update: A ran to 0.125,
		// B starts at 0 with weight 0.
		{request: "b1", x: 1.25, state: "b1", from: "a", weight: 0},
		// Smooth: both clocks run. A 0.25 (2.5), B 0.125 (112.5), α ¼.
		{x: 2.5 + 0.25*110, state: "b1", from: "a", weight: 0.25},
		// A 0.375 (3.75), B 0.25 (125), α ½.
		{x: 3.75 + 0.5*(125-3.75), state: "b1", from: "a", weight: 0.5},
		// A 0.5 (5), B 0.375 (137.5), α ¾.
		{x: 5 + 0.75*(137.5-5), state: "b1", from: "a", weight: 0.75},
		// Settled on B at 0.5 s.
		{x: 150, state: "b1", weight: 1},
		// "b*" matches b1. Frozen: the source is held at the start, B at
		// 0.625 s (162.5), and A restarts.
		{request: "a", x: 162.5, state: "a", from: "b1", weight: 0},
		// A 0.125 (1.25) against the frozen 162.5 at α ¼, ½, ¾.
		{x: 162.5 + 0.25*(1.25-162.5), state: "a", from: "b1", weight: 0.25},
		{x: 162.5 + 0.5*(2.5-162.5), state: "a", from: "b1", weight: 0.5},
		{x: 162.5 + 0.75*(3.75-162.5), state: "a", from: "b1", weight: 0.75},
		{x: 5, state: "a", weight: 1},
		{x: 6.25, state: "a", weight: 1},
		// Window [0.5, 0.6] on A's normalized time, now 0.625 → 0.75:
		// the request waits, through the wrap, until A reaches 0.5.
		{request: "once", x: 7.5, state: "a", weight: 1, pending: "once"},
		{x: 8.75, state: "a", weight: 1, pending: "once"},
		{x: 0, state: "a", weight: 1, pending: "once"},
		{x: 1.25, state: "a", weight: 1, pending: "once"},
		{x: 2.5, state: "a", weight: 1, pending: "once"},
		{x: 3.75, state: "a", weight: 1, pending: "once"},
		// A reaches 0.5: taken; W starts at 0.
		{x: 5, state: "once", from: "a", weight: 0},
		// A 0.625 (6.25), W 0.125 (2125) at α ½.
		{x: 6.25 + 0.5*(2125-6.25), state: "once", from: "a", weight: 0.5},
		{x: 2250, state: "once", weight: 1},
		{x: 2375, state: "once", weight: 1},
		{x: 2500, state: "once", weight: 1},
		{x: 2625, state: "once", weight: 1},
		{x: 2750, state: "once", weight: 1},
		{x: 2875, state: "once", weight: 1},
		// W reaches its end, inside the auto transition's window [0.9, 1]:
		// back to A without a request, smoothly (W holds its last frame).
		{x: 3000, state: "a", from: "once", weight: 0},
		{x: 3000 + 0.5*(1.25-3000), state: "a", from: "once", weight: 0.5},
		{x: 2.5, state: "a", weight: 1},
	})
}

// TestSelfTransitionBlendsFromTheLastPose: a transition into the state
// that plays (requested by its name: by destination, the state that plays
// is where the layer is already) restarts it, blending from a snapshot of
// the pose it had (A at 0.625 s, x = 6.25), not from the restarted state
// itself.
func TestSelfTransitionBlendsFromTheLastPose(t *testing.T) {
	spec, err := ParseSpec([]byte(`{"states": [{"name": "a", "tree": "A"}],
	  "transitions": [{"name": "restart", "from": "*", "to": "a", "duration": 0.5, "ease": "linear"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), machineClips())
	runFrames(t, c, []frame{
		{x: 1.25, state: "a", weight: 1}, {x: 2.5, state: "a", weight: 1}, {x: 3.75, state: "a", weight: 1}, {x: 5, state: "a", weight: 1},
		{request: "restart", x: 6.25, state: "a", from: "a", weight: 0},
		{x: 6.25 + 0.25*(1.25-6.25), state: "a", from: "a", weight: 0.25},
		{x: 6.25 + 0.5*(2.5-6.25), state: "a", from: "a", weight: 0.5},
		{x: 6.25 + 0.75*(3.75-6.25), state: "a", from: "a", weight: 0.75},
		{x: 5, state: "a", weight: 1},
	})
}

func TestStateMachineInterruptAndImmediate(t *testing.T) {
	spec, err := ParseSpec([]byte(machineSpec))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), machineClips())
	runFrames(t, c, []frame{
		// Requested by transition name.
		{request: "go_b", x: 1.25, state: "b1", from: "a", weight: 0},
		{x: 30, state: "b1", from: "a", weight: 0.25},
		// Interrupted halfway: the new blend starts from a snapshot of the
		// pose at that instant, A 0.375 and B 0.25 at α ½.
		{request: "a", x: 64.375, state: "a", from: "b1", weight: 0},
		{x: 64.375 + 0.25*(1.25-64.375), state: "a", from: "b1", weight: 0.25},
		{x: 64.375 + 0.5*(2.5-64.375), state: "a", from: "b1", weight: 0.5},
		{x: 64.375 + 0.75*(3.75-64.375), state: "a", from: "b1", weight: 0.75},
		{x: 5, state: "a", weight: 1},
		{request: "b1", x: 6.25, state: "b1", from: "a", weight: 0},
		{x: 7.5 + 0.25*(112.5-7.5), state: "b1", from: "a", weight: 0.25},
		// Immediate: b1 → b2 switches within the update.
		{request: "b2", x: 1000, state: "b2", weight: 1},
	})
	cases := []struct {
		name    string
		request string
		wantErr string
	}{
		{"no transition between the states", "b1", `no transition from state "b2" to "b1"`},
		{"named transition from the wrong state", "go_b", `transition "go_b" cannot start from state "b2"`},
		{"unknown name lists the states", "jump", `"a", "b1", "b2", "once"`},
		{"unknown layer", "upper/a", `unknown layer "upper"`},
	}
	for _, tc := range cases {
		err := c.Request(tc.request)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), "anim: ") {
			t.Errorf("%s: Request(%q) = %v; want an error containing %s", tc.name, tc.request, err, tc.wantErr)
		}
	}
	if err := c.Request("b2"); err != nil {
		t.Errorf("requesting the current state: %v", err)
	}
	if err := c.RequestIndex(9); err == nil {
		t.Error("RequestIndex out of range accepted")
	}
}

func TestLayersAndEmptyStates(t *testing.T) {
	const spec = `{
	  "params": [{"name": "g", "default": 1}],
	  "layers": [
	    {"states": [{"name": "c", "tree": "C"}]},
	    {"name": "gesture", "weight": "g", "initial": "none",
	     "states": [{"name": "none"}, {"name": "d", "tree": "D"}],
	     "transitions": [{"from": "none", "to": "d", "duration": 0.5}, {"from": "d", "to": "none", "duration": 0.5}]},
	    {"name": "sway", "mode": "additive", "initial": "off",
	     "states": [{"name": "off"}, {"name": "b", "tree": "B"}],
	     "transitions": [{"from": "*", "to": "b", "type": "immediate"}, {"from": "*", "to": "off", "type": "immediate"}]}
	  ]
	}`
	s, err := ParseSpec([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	// Clips: C x = 100, D x = 1000, B x = 10 + 10t.
	c := build(t, s, animtest.Chain(2), nodeClips())
	if got := strings.Join(c.States(), ","); got != "c,gesture/none,gesture/d,sway/off,sway/b" {
		t.Fatalf("States() = %s", got)
	}
	steps := []struct {
		request string
		param   float32 // gesture weight
		want    float32
	}{
		{"", 1, 100},          // both upper layers in empty states
		{"gesture/d", 1, 100}, // fade from empty starts at fraction 0
		{"", 1, 325},          // α ¼: 100 + ¼·900
		{"", 1, 550},
		{"", 1, 775},
		{"", 1, 1000},
		{"", 0.5, 550},               // layer weight ½
		{"d", 0.5, 550},              // already there: no-op
		{"sway/b", 0.5, 550},         // immediate, B restarts at its reference
		{"", 0.5, 551.25},            // B 0.125: +1.25
		{"gesture/none", 0.5, 552.5}, // fading out: fraction 1 → 0, B +2.5
		{"", 0.5, 100 + 0.5*0.75*900 + 3.75},
	}
	for i, st := range steps {
		var err error
		switch {
		case st.request == "gesture/d":
			err = c.RequestIndex(indexOf(c.States(), st.request)) // by number key
		case st.request != "":
			err = c.Request(st.request)
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if err := c.SetParam("g", st.param); err != nil {
			t.Fatal(err)
		}
		c.Update(0.125)
		if got := x0(c); !animtest.ApproxEqual(got, st.want, 1e-3) {
			t.Fatalf("step %d: x = %v, want %v (status %+v)", i, got, st.want, c.Status().Layers)
		}
	}
	if l := c.Status().Layers[1]; l.Name != "gesture" || l.State != "none" || l.From != "d" || l.LayerWeight != 0.5 {
		t.Fatalf("gesture layer status %+v", l)
	}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func TestWindowHit(t *testing.T) {
	w := Window{Begin: 0.5, End: 0.6}
	cases := []struct {
		name  string
		t, d  float32
		wraps bool
		want  bool
	}{
		{"inside", 0.55, 0, true, true},
		{"before", 0.4, 0.1, true, false},
		{"jumped over in one long frame", 0.7, 0.3, true, true},
		{"wrapped past the end", 0.05, 0.1, true, false},
		{"wrapped over it", 0.55, 1.0, true, true},
		{"backwards into it", 0.58, -0.1, true, true},
		{"clamped end does not count as the start", 1, 0, false, false},
		{"clamped sweep into it", 0.7, 0.2, false, true},
	}
	for _, tc := range cases {
		if got := windowHit(tc.t, tc.d, tc.wraps, w); got != tc.want {
			t.Errorf("%s: windowHit(%v, %v, %v) = %v, want %v", tc.name, tc.t, tc.d, tc.wraps, got, tc.want)
		}
	}
	start := Window{Begin: 0, End: 0.1}
	if windowHit(1, 0, false, start) {
		t.Error("a clip held at its end is not at its start")
	}
	if !windowHit(0.02, 0.05, true, Window{Begin: 0.95, End: 1}) {
		t.Error("a loop wrapping through the end of the cycle crosses [0.95, 1]")
	}
}

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

func TestMatchPhaseAndReset(t *testing.T) {
	// Walk (1 s) x = 10t; Run (2 s) x = 100 + 20t, inside a synced blend
	// and a layer node, so the phase travels through both.
	spec, err := ParseSpec([]byte(`{
	  "states": [
	    {"name": "walk", "tree": "Walk"},
	    {"name": "run", "tree": {"type": "blend1d", "param": 0, "sync": true, "children": [
	      {"type": "layer", "base": "Run", "layers": [{"node": "Walk", "weight": 0}]}, "Walk"]}}
	  ],
	  "transitions": [{"from": "walk", "to": "run", "type": "immediate", "match_phase": true}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), []anim.Clip{animtest.RampClip("Walk", 1, 0, 0, 10), animtest.RampClip("Run", 2, 0, 100, 140)})
	c.Update(0.25)
	if err := c.Request("run"); err != nil {
		t.Fatal(err)
	}
	// Walk reaches phase ½, then Run starts at phase ½: 1 s of its 2 s.
	c.Update(0.25)
	if got := x0(c); !animtest.ApproxEqual(got, 120, 1e-4) {
		t.Fatalf("x = %v, want 120 (Run at 1 s)", got)
	}
	// The synced blend's cycle is Run's 2 s: 0.5 s more is phase ¾, 1.5 s.
	c.Update(0.5)
	if got := x0(c); !animtest.ApproxEqual(got, 130, 1e-4) {
		t.Fatalf("x = %v, want 130 (Run at 1.5 s)", got)
	}
	c.Reset()
	if s := c.Status(); s.State != "walk" || x0(c) != 0 {
		t.Fatalf("after Reset: state %q x %v; want walk at 0", s.State, x0(c))
	}
}

// TestCutRestartsTheState: a cut starts the state's tree from its start,
// also a state that played before (A is x = 10t, B x = 100 + 100t).
func TestCutRestartsTheState(t *testing.T) {
	spec, err := ParseSpec([]byte(machineSpec))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), machineClips())
	for range 3 {
		c.Update(0.125)
	}
	if x := x0(c); !animtest.ApproxEqual(x, 3.75, 1e-4) {
		t.Fatalf("A after 0.375 s: x %v, want 3.75", x)
	}
	for _, step := range []struct {
		state string
		x     float32
	}{{"b1", 112.5}, {"a", 1.25}} {
		if err := c.Cut(step.state); err != nil {
			t.Fatal(err)
		}
		c.Update(0.125)
		if x := x0(c); !animtest.ApproxEqual(x, step.x, 1e-4) || c.Status().State != step.state {
			t.Fatalf("cut to %s, 0.125 s on: x %v state %q, want x %v: the state from its start", step.state, x, c.Status().State, step.x)
		}
	}
}

// TestFirstLayerOnRest: the first layer is blended over the rest pose (x =
// 0 on joint 0) by its weight, through its mask, or added to it.
func TestFirstLayerOnRest(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		want       float32
	}{
		{"weight ½ of C (x = 100)", `{"params": [{"name": "g", "default": 0.5}], "layers": [{"weight": "g", "states": [{"name": "c", "tree": "C"}]}]}`, 50},
		{"masked to j1: joint 0 keeps its rest", `{"layers": [{"mask": {"joints": ["j1"]}, "states": [{"name": "c", "tree": "C"}]}]}`, 0},
		{"additive B (x = 10 + 10t, reference its start) after 0.125 s", `{"layers": [{"mode": "additive", "states": [{"name": "b", "tree": "B"}]}]}`, 1.25},
	} {
		s, err := ParseSpec([]byte(tc.spec))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		c := build(t, s, animtest.Chain(2), nodeClips())
		c.Update(0.125)
		// Joint 1 is animated by none of them: it keeps its rest, x = 1.
		if p := evalPose(c); !animtest.ApproxEqual(p[0].Translation[0], tc.want, 1e-4) || !animtest.ApproxEqual(p[1].Translation[0], 1, 1e-6) {
			t.Errorf("%s: x = %v and %v, want %v and 1", tc.name, p[0].Translation[0], p[1].Translation[0], tc.want)
		}
	}
}

// TestStatusNamesTheFirstTransition: transition 0 is reported like any.
func TestStatusNamesTheFirstTransition(t *testing.T) {
	spec, err := ParseSpec([]byte(machineSpec))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), machineClips())
	if err := c.Request("go_b"); err != nil {
		t.Fatal(err)
	}
	c.Update(0.125)
	if l := c.Status().Layers[0]; l.Transition != "go_b" || l.State != "b1" {
		t.Fatalf("status %+v, want transition go_b into b1", l)
	}
}

// TestRequestByIndexAndPending: RequestIndex takes every index of States,
// the first (0) included, and refuses the ones outside it with an error;
// a request for the first transition (index 0) that waits for its window
// shows in Status as Pending; a qualified request for a state the base
// layer lacks names the missing state, not the layer, which exists.
func TestRequestByIndexAndPending(t *testing.T) {
	spec, err := ParseSpec([]byte(`{"states": [{"name": "a", "tree": "A"}, {"name": "b", "tree": "B"}], "initial": "b",
	  "transitions": [{"from": "b", "to": "a", "window": [0.5, 0.6], "duration": 0.25}, {"from": "a", "to": "b"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), machineClips())
	requestIndex := func(i int) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = nil
				t.Errorf("RequestIndex(%d) panicked: %v", i, r)
			}
		}()
		return c.RequestIndex(i)
	}
	for _, i := range []int{-1, len(c.States())} {
		if err := requestIndex(i); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("RequestIndex(%d) of %d states: error %v, want out of range", i, len(c.States()), err)
		}
	}
	if err := requestIndex(0); err != nil {
		t.Fatalf("RequestIndex(0): %v", err)
	}
	c.Update(0.125) // B at 0.125 of its cycle: before the window
	if l := c.Status().Layers[0]; l.State != "b" || l.Pending != "a" {
		t.Errorf("status %+v, want state b with a pending", l)
	}
	err = c.Request("base/nowhere")
	if err == nil || !strings.Contains(err.Error(), "no such state") || strings.Contains(err.Error(), "unknown layer") {
		t.Errorf(`Request("base/nowhere"): %v; want no such state`, err)
	}
	if err := c.Request("arms/a"); err == nil || !strings.Contains(err.Error(), `unknown layer "arms"`) {
		t.Errorf(`Request("arms/a"): %v; want unknown layer "arms"`, err)
	}
}
