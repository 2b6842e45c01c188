package graph

import (
	"math"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

func TestParams(t *testing.T) {
	spec := treeSpec(clipNodeSpec("A"),
		ParamSpec{Name: "speed", Min: 0, Max: 2, Default: 1},
		ParamSpec{Name: "aim_x", Min: -1, Max: 1, Default: 5}) // default clamped to 1
	c := build(t, spec, animtest.Chain(2), nodeClips())
	p := c.Params()
	if len(p) != 2 || p[0] != (Param{Name: "speed", Value: 1, Min: 0, Max: 2, Default: 1}) || p[1].Value != 1 || p[1].Default != 1 {
		t.Fatalf("Params() = %+v", p)
	}
	cases := []struct {
		name    string
		param   string
		v       float32
		want    float32
		wantErr string
	}{
		{"in range", "speed", 1.5, 1.5, ""},
		{"clamped above", "speed", 9, 2, ""},
		{"clamped below", "aim_x", -3, -1, ""},
		{"unknown lists the names", "sped", 0, 0, `unknown parameter "sped" (parameters: "speed", "aim_x")`},
		{"NaN", "speed", float32(math.NaN()), 0, "NaN"},
	}
	for _, tc := range cases {
		err := c.SetParam(tc.param, tc.v)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want %s", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := c.Params()[c.ParamIndex(tc.param)].Value; got != tc.want {
			t.Errorf("%s: value %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSetTime(t *testing.T) {
	// Every clip, in every state, at the same local time; loop modes apply.
	spec, err := ParseSpec([]byte(`{
	  "states": [
	    {"name": "a", "tree": {"type": "lerp", "weight": 0.5, "children": ["A", {"type": "clip", "clip": "B", "offset": 0.5}]}},
	    {"name": "b", "tree": {"type": "clip", "clip": "B", "loop": "once"}}
	  ]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), nodeClips())
	c.Update(0.3)
	c.SetTime(1.25)
	// A (2 s) at 1.25; B (1 s, looping) wraps to 0.25; B once holds 1.
	want := []float32{1.25, 0.25, 1}
	for i, p := range c.players {
		if got := p.clock.Local(); !animtest.ApproxEqual(got, want[i], 1e-6) {
			t.Errorf("player %d at %v, want %v", i, got, want[i])
		}
	}
	// (1.25 + 12.5)/2
	if got := x0(c); !animtest.ApproxEqual(got, 6.875, 1e-5) {
		t.Fatalf("x = %v, want 6.875", got)
	}
}

// everyNodeSpec uses every node type, two layers, transitions and both
// post-processing operations on the humanoid.
const everyNodeSpec = `{
  "params": [
    {"name": "speed", "max": 2}, {"name": "x"}, {"name": "y"}, {"name": "sel"}, {"name": "w", "default": 0.5},
    {"name": "over", "default": 0.5}, {"name": "ik", "default": 1}, {"name": "look", "default": 1}
  ],
  "layers": [
    {"name": "base", "states": [
      {"name": "all", "tree": {"type": "layer",
        "base": {"type": "mask",
          "base": {"type": "blend1d", "param": "speed", "sync": true,
                   "children": ["Idle", "Walk", {"type": "lerp", "weight": "w", "children": ["Walk", "Idle"]}]},
          "overlay": {"type": "crossfade", "param": "sel", "duration": 0.3, "ease": "s-curve", "frozen": true,
                      "children": ["Wave", {"type": "average", "weights": [1, "w"], "children": ["Idle", "Wave"]}]},
          "mask": {"joints": ["chest"], "falloff": 2}},
        "layers": [
          {"node": {"type": "blend2d", "params": ["x", "y"], "points": [[0, 0], [1, 0], [0, 1], [1, 1], [0.5, 0.4]],
                    "children": ["Idle", "Walk", "Wave", "Idle", "Walk"]}, "weight": "over"},
          {"node": {"type": "additive", "base": "Idle", "source": "Wave", "weight": 0.5, "mask": {"joints": ["spine"]}}, "weight": 0.3},
          {"node": "Wave", "mode": "additive", "weight": 0.2}
        ]}},
      {"name": "walk", "tree": {"type": "blend2d", "params": ["x", "y"], "points": [[0, 0], [1, 0], [0, 1], [1, 1]], "children": ["Idle", "Walk", "Wave", "Idle"]}},
      {"name": "wave", "tree": {"type": "clip", "clip": "Wave", "loop": "pingpong"}}
    ],
    "transitions": [
      {"from": "*", "to": "walk", "duration": 0.2, "ease": "ease-in"},
      {"from": "*", "to": "all", "type": "frozen", "duration": 0.2},
      {"from": "*", "to": "wave", "duration": 0.1, "window": [0.1, 0.9], "match_phase": true}
    ]},
    {"name": "add", "mode": "additive", "reference": {"clip": "Idle", "time": 0},
     "states": [{"name": "on", "tree": "Idle"}, {"name": "off"}],
     "transitions": [{"from": "*", "to": "on", "duration": 0.3}, {"from": "*", "to": "off", "duration": 0.3}]}
  ],
  "post": [
    {"type": "look_at", "joints": ["spine", "neck", "head"], "target": [0.5, 1.7, 2], "weight": "look"},
    {"type": "two_bone_ik", "joints": ["upper_arm.R", "forearm.R", "hand.R"], "target": ["x", 1.2, "y"], "pole": [0, 0, -1], "weight": "ik"}
  ]
}`

func TestUpdateEvaluateAllocatesNothing(t *testing.T) {
	spec, err := ParseSpec([]byte(everyNodeSpec))
	if err != nil {
		t.Fatal(err)
	}
	sk := animtest.Humanoid()
	c := build(t, spec, sk, animtest.HumanoidClips(sk))
	pose := anim.NewSoAPose(sk.NumJoints())
	requests := []string{"walk", "add/off", "wave", "all", "add/on", "walk", "all"}
	frame := 0
	allocs := testing.AllocsPerRun(500, func() {
		frame++
		f := float32(frame)
		_ = c.SetParam("speed", float32(frame%200)/100)
		_ = c.SetParam("x", 0.5+0.5*sin32(f*0.05))
		_ = c.SetParam("y", 0.5+0.5*sin32(f*0.03))
		_ = c.SetParam("sel", float32((frame/40)%2))
		if frame%13 == 0 {
			_ = c.Request(requests[(frame/13)%len(requests)])
		}
		c.Update(1.0 / 60)
		c.Evaluate(pose)
		_ = c.Status()
	})
	if allocs != 0 {
		t.Fatalf("Update+Evaluate allocates %v times per frame; want 0", allocs)
	}
	// The run must have gone through transitions, not just idled.
	if s := c.Status(); s.State == "" {
		t.Fatal("no state")
	}
}

func sin32(x float32) float32 { return float32(math.Sin(float64(x))) }

// TestTimelineFollowsHeaviestChild: a blend1d of Idle (3 s), Walk (1 s)
// and Wave (2 s) at 0, 0.5 and 1 shows on the timeline, and gives its
// layer the normalized time of, the child its parameter weighs most, as
// the parameter moves and as it stays between updates.
func TestTimelineFollowsHeaviestChild(t *testing.T) {
	spec, err := ParseSpec([]byte(`{"params": [{"name": "p", "min": 0, "max": 1}],
	  "tree": {"type": "blend1d", "param": "p", "positions": [0, 0.5, 1], "children": ["Idle", "Walk", "Wave"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	sk := animtest.Humanoid()
	c := build(t, spec, sk, animtest.HumanoidClips(sk))
	// p, then the clip it weighs most (by the positions: 0.4 gives Walk
	// 0.8, 0.9 gives Wave 0.8) and that clip's length.
	for i, step := range []struct {
		p    float32
		clip int
		d    float32
	}{{0.2, 0, 3}, {0.4, 1, 1}, {0.4, 1, 1}, {0.9, 2, 2}, {0.9, 2, 2}, {0.1, 0, 3}, {0.75, 1, 1}, {0.76, 2, 2}} {
		if err := c.SetParam("p", step.p); err != nil {
			t.Fatal(err)
		}
		c.Update(0.1)
		tl := c.Timeline()
		if tl.Clip != step.clip || tl.Duration != step.d {
			t.Fatalf("step %d, p = %v: timeline shows clip %d of %v s; want clip %d of %v s", i, step.p, tl.Clip, tl.Duration, step.clip, step.d)
		}
		if got, want := c.Status().Layers[0].Time, tl.Time/tl.Duration; !animtest.ApproxEqual(got, want, 1e-6) {
			t.Fatalf("step %d, p = %v: layer time %v; want the clip's %v", i, step.p, got, want)
		}
	}
}

// TestTransport drives one controller with the commands a viewer sends —
// speed, reverse, pause, loop mode, seek — and checks the clock it owns.
// The clip ramps joint 0's x from 0 to 4 over 2 s, so x = 2t.
func TestTransport(t *testing.T) {
	spec, err := ParseSpec([]byte(`{
	  "states": [{"name": "ramp", "tree": "Ramp"}, {"name": "hold", "tree": "Hold"}],
	  "transitions": [{"from": "*", "to": "hold", "duration": 1, "ease": "linear"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(1), []anim.Clip{animtest.RampClip("Ramp", 2, 0, 0, 4), animtest.ConstClip("Hold", 2, 0, 10, 0, 0)})
	x := func() float32 { return evalPose(c)[0].Translation[0] }
	timeline := func(want, wantD float32) {
		t.Helper()
		if tl := c.Timeline(); !animtest.ApproxEqual(tl.Time, want, 1e-5) || tl.Duration != wantD {
			t.Fatalf("timeline %v of %v s, want %v of %v", tl.Time, tl.Duration, want, wantD)
		}
	}
	c.Update(0.5)
	timeline(0.5, 2)
	c.SetSpeed(0.5)
	c.Update(1) // 0.5 + 1·0.5
	timeline(1, 2)
	c.SetSpeed(-2)
	c.Update(0.25) // backwards: 1 − 0.25·2
	timeline(0.5, 2)
	if got := x(); !animtest.ApproxEqual(got, 1, 1e-5) {
		t.Fatalf("x = %v at 0.5 s, want 1", got)
	}
	c.Update(0.5) // 0.5 − 1 wraps to 1.5 in a loop
	timeline(1.5, 2)
	c.SetLoopMode(anim.Once)
	timeline(1.5, 2) // the picture stays where it is
	c.Update(1)      // 1.5 − 2 stops at the start
	timeline(0, 2)
	c.SetSpeed(1)
	c.SetTime(1.75)
	timeline(1.75, 2)
	c.Update(1) // once: holds the end
	timeline(2, 2)
	c.SetLoopMode(anim.PingPong)
	c.SetTime(1.5)
	c.Update(1) // bounces off the end: 2 − 0.5
	timeline(1.5, 2)

	// Paused, the clip stands still but a fade requested now plays out:
	// after 0.5 s of a 1 s linear fade x is halfway from 3 to 10.
	c.SetPaused(true)
	if err := c.Request("hold"); err != nil {
		t.Fatal(err)
	}
	c.Update(0) // takes the transition
	c.Update(0.5)
	if got := x(); !animtest.ApproxEqual(got, 6.5, 1e-4) {
		t.Fatalf("paused half-way through the fade: x = %v, want 6.5", got)
	}
	c.Update(0.6)
	if s := c.Status(); s.From != "" || s.State != "hold" {
		t.Fatalf("status %+v after the fade, want settled in hold", s)
	}
	timeline(0, 2) // hold's clock has not moved
	if c.Speed() != 1 || !c.Paused() {
		t.Fatalf("speed %v paused %v", c.Speed(), c.Paused())
	}
}

// TestTimelineCutAndOnceUnderSync checks what a timeline reads under a
// spec, an animator's cut to a state, and that phase sync leaves a clip
// that plays once on its own clock.
func TestTimelineCutAndOnceUnderSync(t *testing.T) {
	spec, err := ParseSpec([]byte(`{
	  "states": [
	    {"name": "mix", "tree": {"type": "blend1d", "param": 0.25, "sync": true,
	      "children": ["A", {"type": "clip", "clip": "B", "loop": "once"}]}},
	    {"name": "b", "tree": {"type": "clip", "clip": "B", "loop": "once"}}],
	  "transitions": [{"from": "*", "to": "b", "duration": 10}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(1), nodeClips())
	// A (2 s, looping) weighs 0.75: it is the timeline. Synced alone
	// (B plays once), its cycle is its own 2 s.
	c.Update(0.5)
	tl := c.Timeline()
	if tl.Clip != 0 || tl.Duration != 2 || !animtest.ApproxEqual(tl.Time, 0.5, 1e-6) || tl.Mode != anim.Loop {
		t.Fatalf("timeline %+v, want clip 0 (A) at 0.5 of 2 s, looping", tl)
	}
	// B plays once at its own speed: 0.5 s in, not A's phase 0.25.
	if got := c.players[1].clock.Local(); !animtest.ApproxEqual(got, 0.5, 1e-6) {
		t.Fatalf("once-clip under sync at %v, want 0.5 (its own clock)", got)
	}
	c.Update(1) // B holds its end; A goes on
	if got := c.players[1].clock.Local(); got != 1 {
		t.Fatalf("once-clip under sync at %v after 1.5 s, want held at its end 1", got)
	}
	// A cut to b: no blend, B's clock at its start, the timeline on B.
	if err := c.Cut("b"); err != nil {
		t.Fatal(err)
	}
	if s := c.Status(); s.State != "b" || s.From != "" {
		t.Fatalf("status %+v after the cut, want settled in b", s)
	}
	if tl := c.Timeline(); tl.Clip != 1 || tl.Time != 0 || tl.Mode != anim.Once {
		t.Fatalf("timeline %+v after the cut, want B (1) at 0, once", tl)
	}
	if err := c.Cut("nope"); err == nil {
		t.Fatal("a cut to an unknown state was accepted")
	}
	// A seek to the very end of a looping clip shows the end, not 0.
	c2 := build(t, spec, animtest.Chain(1), nodeClips())
	c2.SetTime(2)
	if tl := c2.Timeline(); tl.Time != 2 {
		t.Fatalf("seek to the end of a 2 s loop: %v, want 2", tl.Time)
	}
}

func TestEvaluateShifted(t *testing.T) {
	// A (2 s, looping: x = t) and B (1 s, once, rate 2: x = 10 + 10·t)
	// averaged; the clocks stand at A 0.3, B 0.6 and are paused.
	spec := treeSpec(NodeSpec{Type: NodeLerp, Weight: inPtr(Const(0.5)), Children: []NodeSpec{
		clipNodeSpec("A"),
		{Type: NodeClip, Clip: ClipNamed("B"), Loop: anim.Once, Rate: inPtr(Const(2))},
	}})
	c := build(t, spec, animtest.Chain(2), nodeClips())
	c.Update(0.3)
	c.SetPaused(true)
	c.Update(0.1)
	out := anim.NewSoAPose(2)
	cases := []struct {
		dt, want float32
	}{
		{0, (0.3 + 16) / 2},
		{0.5, (0.8 + 20) / 2},   // B runs past its end and holds it
		{-0.4, (1.9 + 10) / 2},  // A wraps back to 1.9, B holds its start
		{0.25, (0.55 + 20) / 2}, // B at 0.6 + 0.5 = 1.1 holds the end
	}
	for _, tc := range cases {
		c.EvaluateShifted(tc.dt, out)
		if got := out.At(0).Translation[0]; !animtest.ApproxEqual(got, tc.want, 1e-5) {
			t.Errorf("shifted by %v: x = %v, want %v", tc.dt, got, tc.want)
		}
	}
	// The controller is as it was: the pose now, then playing on from it.
	if got := x0(c); !animtest.ApproxEqual(got, 8.15, 1e-5) {
		t.Errorf("after the shifted evaluations x = %v, want 8.15", got)
	}
	c.SetPaused(false)
	c.Update(0.1)
	if got := x0(c); !animtest.ApproxEqual(got, (0.4+18)/2, 1e-5) {
		t.Errorf("playing on: x = %v, want 9.2", got)
	}
	if n := testing.AllocsPerRun(10, func() { c.EvaluateShifted(0.2, out) }); n != 0 {
		t.Errorf("EvaluateShifted allocates %v times", n)
	}
}
