package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
)

// failing is a fakeViewer whose loop mode, requests and screenshots fail.
type failing struct{ *fakeViewer }

func (f failing) SetLoopMode(anim.LoopMode) error   { return errors.New("no loop here") }
func (f failing) Request(int, bool) error           { return errors.New("no such clip") }
func (f failing) Screenshot() (string, error)       { return "", errors.New("disk full") }
func (f failing) SetBlendWeight(int, float32) error { return errors.New("weights refused") }
func (f failing) BlendWeight(int) (float32, bool)   { return 0.5, true }

// TestSpacePlaysAgain: in once mode, Space at the end (exactly, in the
// way it plays) of the clip or the region starts it again from the
// other end; anywhere else, or looping, it pauses and plays.
func TestSpacePlaysAgain(t *testing.T) {
	for _, tc := range []struct {
		name         string
		loop         anim.LoopMode
		reverse      bool
		in, out, t   float32
		want         float32
		wantPlaying  bool
		playingFirst bool
	}{
		{"once at the end", anim.Once, false, 0, 0, 2, 0, true, true},
		{"once, paused at the end", anim.Once, false, 0, 0, 2, 0, true, false},
		{"once, reversed at the start", anim.Once, true, 0, 0, 0, 2, true, true},
		{"once, before the end", anim.Once, false, 0, 0, 1.99, 1.99, false, true},
		{"once, reversed, after the start", anim.Once, true, 0, 0, 0.01, 0.01, false, true},
		{"once, reversed at the end", anim.Once, true, 0, 0, 2, 2, false, true},
		{"once at the region's out point", anim.Once, false, 0.5, 1.2, 1.2, 0.5, true, false},
		{"once, reversed at the region's in point", anim.Once, true, 0.5, 1.2, 0.5, 1.2, true, false},
		{"once, past the region", anim.Once, false, 0.5, 1.2, 1.5, 0.5, true, false},
		{"looping at the end", anim.Loop, false, 0, 0, 2, 2, false, true},
		{"ping-pong at the end", anim.PingPong, false, 0, 0, 2, 2, false, true},
		{"looping, paused at the end", anim.Loop, false, 0, 0, 2, 2, true, false},
	} {
		f := newFake()
		s := NewState()
		s.Loop, s.Reverse, s.LoopIn, s.LoopOut, s.Playing = tc.loop, tc.reverse, tc.in, tc.out, tc.playingFirst
		f.t = tc.t
		s.Handle(Event{Key: KeySpace}, f)
		if !near(f.t, tc.want) || s.Playing != tc.wantPlaying {
			t.Errorf("%s: at %v, playing %v; want %v, playing %v", tc.name, f.t, s.Playing, tc.want, tc.wantPlaying)
		}
	}
}

// TestRates: , and . step the ladder (0.1 … 4) and leave a custom rate;
// a custom rate of 0 is the ladder's.
func TestRates(t *testing.T) {
	f := newFake()
	s := NewState()
	s.CustomRate = 0.3
	if s.Rate() != 0.3 {
		t.Fatalf("custom rate 0.3: %v", s.Rate())
	}
	s.Handle(Event{Key: KeyComma}, f)
	if s.Rate() != 0.75 || s.CustomRate != 0 {
		t.Fatalf("custom 0.3, then ,: %v (custom %v); want the ladder's 0.75", s.Rate(), s.CustomRate)
	}
	s.CustomRate = 3.5
	s.Handle(Event{Key: KeyPeriod}, f)
	if s.Rate() != 1 {
		t.Fatalf("custom 3.5, then .: %v; want the ladder's 1", s.Rate())
	}
	s.CustomRate, s.Reverse = 2.5, true
	if s.Rate() != -2.5 || s.ClockRate() != -2.5 {
		t.Fatalf("custom 2.5 reversed: rate %v, clock %v", s.Rate(), s.ClockRate())
	}
}

// TestLoopKey: L goes loop → once → ping-pong → loop, from repeat too,
// each mode starting forward; a mode the viewer refuses is said.
func TestLoopKey(t *testing.T) {
	f := newFake()
	s := NewState()
	for _, want := range []anim.LoopMode{anim.Once, anim.PingPong, anim.Loop} {
		s.bounce = true
		s.Handle(Event{Key: KeyL}, f)
		if s.Loop != want || f.loop != want || s.bounce {
			t.Fatalf("L: %v (viewer %v, bounce %v), want %v", s.Loop, f.loop, s.bounce, want)
		}
	}
	s.Loop = anim.Repeat
	s.Handle(Event{Key: KeyL}, f)
	if s.Loop != anim.Loop {
		t.Fatalf("L from repeat: %v, want loop", s.Loop)
	}
	if s.Message != "" {
		t.Fatalf("accepted modes said %q", s.Message)
	}
	s.Handle(Event{Key: KeyL}, failing{f})
	if s.Message != "no loop here" {
		t.Fatalf("a refused mode says %q", s.Message)
	}
}

// TestKeysWithoutChoices: [ ] Enter and A do nothing with nothing to
// choose; Tab, Up and 0 nothing without parameters or blend weights;
// N, = and - nothing without morph targets.
func TestKeysWithoutChoices(t *testing.T) {
	f := newFake()
	f.choices, f.params, f.morph = nil, nil, nil
	s := NewState()
	s.Selected, s.Param, s.MorphSel = 2, 1, 1
	for _, k := range []Key{KeyLeftBracket, KeyRightBracket, KeyEnter, KeyA, KeyTab, KeyUp, KeyDown, Key0, KeyN, KeyEqual, KeyMinus} {
		s.Handle(Event{Key: k}, f)
	}
	if s.Selected != 2 || s.Param != 1 || s.MorphSel != 1 || len(f.requested) != 0 || s.Message != "" {
		t.Fatalf("selected %d, param %d, morph %d, requested %v, message %q", s.Selected, s.Param, s.MorphSel, f.requested, s.Message)
	}
}

// TestKeyErrorsSaid: a refused request, screenshot or blend weight is
// said on screen; the selection wraps before it is requested.
func TestKeyErrorsSaid(t *testing.T) {
	f := newFake()
	f.params = nil
	s := NewState()
	s.Selected = 4
	for _, tc := range []struct {
		ev   Event
		want string
	}{
		{Event{Key: KeyEnter}, "no such clip"}, {Event{Key: KeyP}, "screenshot failed: disk full"},
		{Event{Key: KeyA}, "weights refused"}, {Event{Key: KeyUp}, "weights refused"},
	} {
		s.Message = ""
		s.Handle(tc.ev, failing{f})
		if s.Message != tc.want || s.MessageTTL != 4 {
			t.Errorf("%+v: says %q for %v s, want %q for 4", tc.ev, s.Message, s.MessageTTL, tc.want)
		}
	}
	s.Handle(Event{Key: KeyEnter, Shift: true}, f)
	if len(f.requested) != 1 || f.requested[0] != "cut:Walk" {
		t.Fatalf("Shift+Enter with choice 4 of 3: %v, want cut:Walk", f.requested)
	}
}

// TestTick: a message lasts 4 s of Tick, and is gone at exactly 0; one
// set without a time to live stays.
func TestTick(t *testing.T) {
	s := NewState()
	s.Say("hello %d", 1)
	s.Tick(3)
	if s.Message != "hello 1" || s.MessageTTL != 1 {
		t.Fatalf("after 3 s: %q, %v left", s.Message, s.MessageTTL)
	}
	s.Tick(1)
	if s.Message != "" {
		t.Fatalf("after 4 s: %q still shown", s.Message)
	}
	s.Message, s.MessageTTL = "kept", 0
	s.Tick(1)
	if s.Message != "kept" || s.MessageTTL != 0 {
		t.Fatalf("a message without a time to live: %q, %v", s.Message, s.MessageTTL)
	}
}

// TestScrubEnds: Home and End and frame steps clamp in once and ping-pong
// modes; in a loop a step past either end wraps.
func TestScrubEnds(t *testing.T) {
	for _, tc := range []struct {
		loop   anim.LoopMode
		from   float32
		script string
		want   float32
	}{
		{anim.Once, 1.95, "right", 2}, {anim.Once, 1.95, "right*3", 2}, {anim.Once, 0.05, "left*2", 0},
		{anim.PingPong, 0.05, "left*2", 0}, {anim.Loop, 0.05, "left*2", 1.8}, {anim.Loop, 0, "left", 1.9},
		{anim.Once, 1, "end", 2}, {anim.Once, 1, "home", 0}, {anim.Loop, 1.95, "right*2", 0.1},
	} {
		f := newFake()
		s := NewState()
		s.Loop = tc.loop
		f.t = tc.from
		evs, err := ParseKeys(tc.script)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			s.Handle(ev, f)
		}
		if !near(f.t, tc.want) || s.Playing {
			t.Errorf("%v from %v, %s: %v (playing %v), want %v paused", tc.loop, tc.from, tc.script, f.t, s.Playing, tc.want)
		}
	}
}

// TestSecondStepsPassMarkers: in a 2 s loop, a step of a second or more
// goes in parts of at most half the clip, each a Step the markers see;
// a step of less is one Step; once, one Step whatever its length.
func TestSecondStepsPassMarkers(t *testing.T) {
	for _, tc := range []struct {
		loop  anim.LoopMode
		ev    Event
		steps int
		want  float32
	}{
		{anim.Loop, Event{Key: KeyRight, Shift: true}, 2, 1},    // 0 → 1: exactly half, a part and the rest
		{anim.Loop, Event{Key: KeyLeft, Shift: true}, 2, 1},     // 0 → −1, wrapped to 1
		{anim.Loop, Event{Key: KeyRight}, 1, 0.1},               // one frame
		{anim.Once, Event{Key: KeyRight, Shift: true}, 1, 1},    // no wraps to see
		{anim.Loop, Event{Key: KeyLeft}, 1, 1.9},                // one frame back, wrapped
		{anim.PingPong, Event{Key: KeyLeft, Shift: true}, 1, 0}, // clamped
	} {
		f := newFake()
		s := NewState()
		s.Loop = tc.loop
		s.Handle(tc.ev, f)
		if f.steps != tc.steps || !near(f.t, tc.want) {
			t.Errorf("%v %+v from 0: %d steps to %v, want %d to %v", tc.loop, tc.ev, f.steps, f.t, tc.steps, tc.want)
		}
	}
}

// TestSecondStepOfSlowFrames: with frames 3 s apart (a 9 s clip) a
// second's worth of frames rounds to none; Shift+arrow still steps one
// frame, the way the arrow points, from frame 1 (3 s) to 6 s or 0 s.
func TestSecondStepOfSlowFrames(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  Key
		want float32
	}{{"Right", KeyRight, 6}, {"Left", KeyLeft, 0}} {
		f := newFake()
		f.t = 3
		s := NewState()
		s.Handle(Event{Key: tc.key, Shift: true}, sized{f, 9, 3})
		if f.t != tc.want || f.steps != 1 {
			t.Errorf("Shift+%s from 3 s, frames 3 s apart: %d steps to %v, want 1 to %v", tc.name, f.steps, f.t, tc.want)
		}
	}
}

// TestRegionKeys: I puts the in point at the play head, the out point at
// the end when it would not be after it (also when equal); O the out
// point, the in point at 0 when it would not be before it.
func TestRegionKeys(t *testing.T) {
	f := newFake()
	s := NewState()
	for _, c := range []struct {
		name            string
		in, out, head   float32 // the region and the play head before the key
		key             Key
		wantIn, wantOut float32
	}{
		{"I at the out point", 0.2, 1, 1, KeyI, 1, 2},
		{"I before the out point", 1, 2, 1.5, KeyI, 1.5, 2},
		{"O at the in point", 1, 1.8, 1, KeyO, 0, 1},
		{"O after the in point", 0.5, 1, 1.5, KeyO, 0.5, 1.5},
	} {
		s.LoopIn, s.LoopOut, f.t = c.in, c.out, c.head
		s.Handle(Event{Key: c.key}, f)
		if s.LoopIn != c.wantIn || s.LoopOut != c.wantOut {
			t.Errorf("%s: [%v, %v], want [%v, %v]", c.name, s.LoopIn, s.LoopOut, c.wantIn, c.wantOut)
		}
	}
}

// TestHideHUDEndsHover: U hides the HUD and forgets the pointer over the
// timeline, so showing it again shows no stale tag.
func TestHideHUDEndsHover(t *testing.T) {
	f := newFake()
	s := NewState()
	in := &Info{Model: "m", Duration: 2, FPS: 30}
	Draw(&tape{}, &s, in, 1280, 720)
	s.Hover(s.Timeline.X+10, s.Timeline.Y)
	s.Handle(Event{Key: KeyU}, f)
	s.Handle(Event{Key: KeyU}, f)
	tp := &tape{}
	Draw(tp, &s, in, 1280, 720)
	fresh, plain := NewState(), &tape{}
	Draw(plain, &fresh, in, 1280, 720)
	if strings.Join(tp.ops, "\n") != strings.Join(plain.ops, "\n") {
		t.Errorf("after U, U the HUD is not as it was never hovered:\n%s\nwant:\n%s", strings.Join(tp.ops, "\n"), strings.Join(plain.ops, "\n"))
	}
}

// TestMorphKeys: N wraps, Shift+N goes back from the first to the last;
// - from 0 pins −0.05; the selection wraps before pinning; M selects the
// first target.
func TestMorphKeys(t *testing.T) {
	f := newFake()
	f.morph = []float32{0, 0.2}
	s := NewState()
	s.Handle(Event{Key: KeyN, Shift: true}, f)
	if s.MorphSel != 1 {
		t.Fatalf("Shift+N from the first: %d, want 1", s.MorphSel)
	}
	s.Handle(Event{Key: KeyN}, f)
	if s.MorphSel != 0 {
		t.Fatalf("N from the last: %d, want 0", s.MorphSel)
	}
	s.Handle(Event{Key: KeyMinus}, f)
	if !near(f.morph[0], -0.05) || !f.pinned[0] {
		t.Fatalf("- on 0: %v pinned %v", f.morph[0], f.pinned)
	}
	s.MorphSel = 3 // of 2: the second
	s.Handle(Event{Key: KeyEqual}, f)
	if !near(f.morph[1], 0.25) {
		t.Fatalf("= on the second (0.2): %v", f.morph[1])
	}
	s.Handle(Event{Key: KeyM}, f)
	if s.MorphSel != 0 || f.cycled != 1 {
		t.Fatalf("M: selected %d, cycled %d", s.MorphSel, f.cycled)
	}
}

// TestParamKeysClamp: Down clamps at the minimum; Shift+Up is 0.01;
// values are rounded to thousandths; Tab wraps.
func TestParamKeysClamp(t *testing.T) {
	f := newFake()
	s := run(t, "down*20", f)
	if f.params[0].Value != 0 {
		t.Fatalf("speed after Down×20: %v, want its minimum 0", f.params[0].Value)
	}
	s.Handle(Event{Key: KeyUp, Shift: true}, f)
	if f.params[0].Value != 0.01 {
		t.Fatalf("Shift+Up from 0: %v, want 0.01", f.params[0].Value)
	}
	s.Handle(Event{Key: KeyTab}, f)
	s.Handle(Event{Key: KeyTab}, f)
	if s.Param != 0 {
		t.Fatalf("Tab twice of 2 parameters: %d, want 0", s.Param)
	}
	s.Param = 3 // of 2: aim_x
	s.Handle(Event{Key: KeyDown}, f)
	s.Handle(Event{Key: Key0}, f)
	if f.params[1].Value != 0 || f.params[0].Value != 0.01 {
		t.Fatalf("Down then 0 on parameter 3 of 2: %v", f.params)
	}
}

// TestNeighbourKey: a key within 1e-5 s of the play head, or exactly
// that far, is where it is, not the next; with none further, the play
// head stays.
func TestNeighbourKey(t *testing.T) {
	keys := []float32{0, 0.5, 1.2, 2}
	for _, tc := range []struct {
		t    float32
		next bool
		want float32
	}{
		{0.5, true, 1.2}, {0.499999, true, 1.2}, {0.49, true, 0.5}, {0.5, false, 0}, {0.500001, false, 0}, {0.51, false, 0.5},
		{2, true, 2}, {0, false, 0}, {2.5, false, 2}, {-1, true, 0},
	} {
		if got := neighbourKey(keys, tc.t, tc.next); got != tc.want {
			t.Errorf("neighbourKey(%v, next %v) = %v, want %v", tc.t, tc.next, got, tc.want)
		}
	}
	// Exactly 1e-5 s away (in float32) is not more: the key beyond it.
	at := float32(0.25)
	for _, tc := range []struct {
		k, want float32
		next    bool
	}{{at + 1e-5, 1, true}, {at - 1e-5, 0, false}} {
		if got := neighbourKey([]float32{0, tc.k, 1}, at, tc.next); got != tc.want {
			t.Errorf("neighbourKey([0 %v 1], %v, next %v) = %v, want %v", tc.k, at, tc.next, got, tc.want)
		}
	}
}

// TestRectContains: the edges belong to the rectangle, and slack widens
// it on every side; an empty one holds nothing.
func TestRectContains(t *testing.T) {
	r := Rect{10, 20, 30, 40}
	for _, tc := range []struct {
		x, y, slack float32
		want        bool
	}{
		{10, 20, 0, true}, {40, 60, 0, true}, {9.9, 30, 0, false}, {40.1, 30, 0, false}, {20, 19.9, 0, false}, {20, 60.1, 0, false},
		{6, 30, 4, true}, {44, 30, 4, true}, {20, 16, 4, true}, {20, 64, 4, true}, {5.9, 30, 4, false}, {20, 64.1, 4, false},
	} {
		if got := r.Contains(tc.x, tc.y, tc.slack); got != tc.want {
			t.Errorf("%+v.Contains(%v, %v, %v) = %v", r, tc.x, tc.y, tc.slack, got)
		}
	}
	if (Rect{10, 20, 0, 40}).Contains(10, 30, 4) {
		t.Error("an empty rectangle holds a point")
	}
}

// TestStateLineFields: the state line in window pixels (scale 2 halves
// the framebuffer's), the blend it shows, the region, the morph panel and
// the joint.
func TestStateLineFields(t *testing.T) {
	s := NewState()
	s.Timeline = Rect{16, 138, 324, 13}
	s.Clips, s.RowHeight, s.ClipFirst, s.WeightBar = Rect{8, 168, 340, 60}, 20, 2, Rect{236, 0, 64, 6}
	s.LoopIn, s.LoopOut, s.MorphSel, s.Playing, s.HUD = 0.5, 1.5, 3, false, false
	in := &Info{Model: "m", Mode: "blend tree", Choice: "Walk", Status: graph.Status{State: "Walk", From: "Idle", Weight: 0.25},
		Params: []graph.Param{{Name: "speed", Value: 0.5}},
		Morph:  &MorphPanel{Rows: []MorphRow{{Name: "a", Weight: 0.5}, {Name: "b", Pinned: true}}},
		Joint:  &JointInfo{Name: "hips"}}
	var got map[string]any
	if err := json.Unmarshal(StateLine(in, &s, 2, "Face"), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"state": "Walk", "paused": true, "hud_hidden": true, "loop_in": 0.5, "loop_out": 1.5, "selected_joint": "hips",
		"weights":   map[string]any{"Idle": 0.75, "Walk": 0.25},
		"params":    map[string]any{"speed": 0.5},
		"timeline":  map[string]any{"x": 8.0, "y": 69.0, "w": 162.0, "h": 6.5},
		"clip_list": map[string]any{"x": 4.0, "y": 84.0, "w": 170.0, "h": 30.0, "row_height": 10.0, "first": 2.0, "weight_x": 118.0, "weight_w": 32.0},
		"morph":     map[string]any{"node": "Face", "selected": "b", "weights": map[string]any{"a": 0.5, "b": 0.0}, "pinned": []any{"b"}},
	}
	for k, w := range want {
		if g, _ := json.Marshal(got[k]); string(g) != mustJSON(w) {
			t.Errorf("%s: %s, want %s", k, g, mustJSON(w))
		}
	}
	// A clip with no fade weighs 1; the clip browser's weights are its
	// live ones, those in the pose only; no region, no list, no panel (a
	// morph panel without targets is none).
	s = NewState()
	for _, tc := range []struct {
		in   *Info
		want string
	}{
		{&Info{Mode: "clip", Choice: "Walk", Status: graph.Status{State: "x"}}, `{"Walk":1}`},
		{&Info{Mode: "clip", Clips: []ClipRow{{Name: "a", Live: 0.25}, {Name: "b"}}}, `{"a":0.25}`},
		{&Info{Mode: "clip"}, `{}`},
		{&Info{Mode: "clip", Morph: &MorphPanel{Title: "Face"}}, `{}`},
	} {
		line := string(StateLine(tc.in, &s, 1, ""))
		if !strings.Contains(line, `"weights":`+tc.want) || strings.Contains(line, `"state"`) ||
			!strings.Contains(line, `"loop_in":null`) || strings.Contains(line, "clip_list") || strings.Contains(line, "morph") ||
			strings.Contains(line, "hud_hidden") || !strings.Contains(line, `"selected_joint":null`) {
			t.Errorf("state line %s; want weights %s, no state, region, list, morph panel or joint", line, tc.want)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestParseKeysBounds: repeats from 1 to 10000; a blank script is no
// keys; an error names the key by its place in the script.
func TestParseKeysBounds(t *testing.T) {
	for _, tc := range []struct {
		script string
		n      int
	}{{"right*1", 1}, {"wait*10000", 10000}, {"  ", 0}, {"", 0}, {"ctrl+alt+shift+left", 1}} {
		evs, err := ParseKeys(tc.script)
		if err != nil || len(evs) != tc.n {
			t.Errorf("ParseKeys(%q): %d keys, %v; want %d", tc.script, len(evs), err, tc.n)
		}
	}
	if evs, _ := ParseKeys("ctrl+alt+shift+left"); len(evs) != 1 || evs[0] != (Event{Key: KeyLeft, Shift: true, Ctrl: true, Alt: true}) {
		t.Errorf("ctrl+alt+shift+left: %+v", evs)
	}
	for _, tc := range []struct{ script, want string }{
		{"space,right*10001", `key 2 "right*10001": repeat count must be 1 to 10000`},
		{"space,space,spacebar", `key 3 "spacebar" is not a key name`},
		{"*3", `key 1 "*3" is not a key name`},
	} {
		if _, err := ParseKeys(tc.script); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseKeys(%q): %v, want %q", tc.script, err, tc.want)
		}
	}
}

// TestPressEdges: a press 4 px either side of a weight bar is on it, the
// first row's bar as the others'; one below the last clip or morph target
// shown takes the press but selects nothing; Release says whether a drag
// was under way; a clip that cannot play says why.
func TestPressEdges(t *testing.T) {
	f := newFake()
	f.params = nil
	f.weights = make([]float32, 3)
	s := NewState()
	Draw(&tape{}, &s, &Info{Model: "m", Clips: []ClipRow{{Name: "Idle"}, {Name: "Walk"}, {Name: "Run"}}}, 1280, 720)
	// Rows at y 168, 188, 208; the bar from 236 to 300.
	for _, tc := range []struct {
		x, y, want float32
		row        int
	}{{232, 190, 0, 1}, {304, 190, 1, 1}, {236 + 16, 190, 0.25, 1}, {236 + 32, 170, 0.5, 0}} {
		if !s.Press(tc.x, tc.y, false, f) || !near(f.weights[tc.row], tc.want) || s.Selected != tc.row {
			t.Errorf("press at (%v, %v): weights %v, selected %d; want %v on row %d", tc.x, tc.y, f.weights, s.Selected, tc.want, tc.row)
		}
		if !s.Release() {
			t.Errorf("release after a press on row %d's bar at %v: no drag", tc.row, tc.x)
		}
	}
	if s.Release() {
		t.Error("a second release reports a drag")
	}
	// x 231: off the bar, on the name: plays Run.
	if !s.Press(231, 210, false, f) || len(f.requested) != 1 || f.requested[0] != "fade:Run" || s.Release() || s.Message != "" {
		t.Errorf("press left of Run's bar: requested %v, says %q", f.requested, s.Message)
	}
	if s.Press(231, 210, false, failing{f}); s.Message != "no such clip" {
		t.Errorf("press on a clip that cannot play: says %q, want %q", s.Message, "no such clip")
	}
	f.choices = f.choices[:2]
	s.Selected = 0
	if !s.Press(100, 210, false, f) || s.Selected != 0 {
		t.Errorf("press on a row past the choices: selected %d, want 0 and the press taken", s.Selected)
	}
	// Shift+press on a clip in the blend takes it out, on one out adds it.
	f.choices = []string{"Idle", "Walk", "Run"}
	f.weights = []float32{0.5, 0.25, 0}
	s.Press(100, 170, true, f)
	s.Press(100, 210, true, f)
	if f.weights[0] != 0 || f.weights[2] != 1 || s.Selected != 2 {
		t.Errorf("Shift+press on Idle (0.5) and Run (0): weights %v, selected %d; want 0 and 1, Run", f.weights, s.Selected)
	}

	g := newFake()
	g.morph = []float32{0, 0}
	s = NewState()
	Draw(&tape{}, &s, &Info{Model: "m", Morph: &MorphPanel{Title: "Face", Rows: []MorphRow{{Name: "a"}, {Name: "b"}, {Name: "c"}}}}, 1280, 720)
	// Rows at y 36, 56, 76; the bar from 1104 to 1184.
	if !s.Press(1100, 58, false, g) || g.morph[1] != 0 || !g.pinned[1] || s.MorphSel != 1 || !s.Release() {
		t.Errorf("press 4 px left of b's bar: %v pinned %v, selected %d", g.morph, g.pinned, s.MorphSel)
	}
	if !s.Press(1188, 38, false, g) || g.morph[0] != 1 || !g.pinned[0] {
		t.Errorf("press 4 px right of a's bar: %v pinned %v", g.morph, g.pinned)
	}
	s.Drag(1104+20, g)
	if g.morph[0] != 0.25 {
		t.Errorf("dragged a quarter along: %v, want 0.25", g.morph[0])
	}
	if !s.Release() {
		t.Error("release after a drag on the first target's bar: no drag")
	}
	if !s.Press(1100, 78, false, g) || s.MorphSel != 0 {
		t.Errorf("press on a row past the targets: selected %d, want 0 and the press taken", s.MorphSel)
	}
}

// sized is a fakeViewer whose clip is d seconds long, its frames step
// seconds apart.
type sized struct {
	*fakeViewer
	d, step float32
}

func (f sized) Duration() float32  { return f.d }
func (f sized) FrameStep() float32 { return f.step }

// TestNewStateAndEdges: a new State plays, with the HUD on, no joint
// inspected, nothing hovered or dragged. Space in once mode on a clip of
// no length pauses (it has no end to play again from), and a frame step
// on it is one step; Shift+Tab of 3
// parameters goes from the first to the last.
func TestNewStateAndEdges(t *testing.T) {
	s := NewState()
	if !s.Playing || !s.HUD || s.Joint != -1 || s.hover != -1 || s.weighing != -1 || s.pinning != -1 || s.Rate() != 1 || s.Loop != anim.Loop {
		t.Fatalf("new state %+v", s)
	}
	f := newFake()
	s.Loop = anim.Once
	s.Handle(Event{Key: KeySpace}, sized{f, 0, 0.1})
	if s.Playing {
		t.Error("Space on a clip of no length in once mode: still playing")
	}
	// A frame step on it, looping: one Step, one frame on.
	s.Loop = anim.Loop
	s.Handle(Event{Key: KeyRight}, sized{f, 0, 0.1})
	if f.steps != 1 || !near(f.t, 0.1) {
		t.Errorf("Right on a clip of no length: %d steps to %v, want 1 to 0.1", f.steps, f.t)
	}
	f.params = append(f.params, graph.Param{Name: "third", Max: 1})
	s.Handle(Event{Key: KeyTab, Shift: true}, f)
	if s.Param != 2 {
		t.Errorf("Shift+Tab from the first of 3 parameters: %d, want 2", s.Param)
	}
	s.Handle(Event{Key: KeyTab, Shift: true}, f)
	if s.Param != 1 {
		t.Errorf("Shift+Tab again: %d, want 1", s.Param)
	}
}

// TestReleaseEveryPin: Backspace releases every pinned morph weight, and
// V steps the debug view one forward.
func TestReleaseEveryPin(t *testing.T) {
	f := newFake()
	f.morph = []float32{0, 0, 0}
	s := NewState()
	for _, ev := range []Event{{Key: KeyEqual}, {Key: KeyN}, {Key: KeyEqual}, {Key: KeyN}, {Key: KeyEqual}} {
		s.Handle(ev, f)
	}
	if len(f.pinned) != 3 {
		t.Fatalf("=, N, =, N, =: pinned %v, want all 3", f.pinned)
	}
	s.Handle(Event{Key: KeyBackspace}, f)
	if len(f.pinned) != 0 {
		t.Errorf("Backspace left %v pinned", f.pinned)
	}
	s.Handle(Event{Key: KeyV}, f)
	if s.View != 1 {
		t.Errorf("V from the shaded picture: view %d, want the next one, 1", s.View)
	}
}

// stepTimes is a fakeViewer that notes the time of every Step.
type stepTimes struct {
	*fakeViewer
	at []float32
}

func (f *stepTimes) Step(t float32, forward bool) {
	f.at = append(f.at, t)
	f.fakeViewer.Step(t, forward)
}

// TestStepParts: a second's step in a 2 s loop goes in parts of half the
// clip: from 0 forwards a part to 1 s and the step to 1 s; backwards a
// part to −1 s, wrapped to 1, and the step there.
func TestStepParts(t *testing.T) {
	for _, tc := range []struct {
		key  Key
		want [2]float32
	}{{KeyRight, [2]float32{1, 1}}, {KeyLeft, [2]float32{1, 1}}} {
		f := &stepTimes{fakeViewer: newFake()}
		s := NewState()
		s.Handle(Event{Key: tc.key, Shift: true}, f)
		if len(f.at) != 2 || !near(f.at[0], tc.want[0]) || !near(f.at[1], tc.want[1]) {
			t.Errorf("Shift+%v from 0: steps at %v, want %v", tc.key, f.at, tc.want)
		}
	}
	// From 0.5 a second on: a part to 1.5, then 1.5.
	f := &stepTimes{fakeViewer: newFake()}
	f.t = 0.5
	s := NewState()
	s.Handle(Event{Key: KeyRight, Shift: true}, f)
	if len(f.at) != 2 || !near(f.at[0], 1.5) || !near(f.at[1], 1.5) {
		t.Errorf("Shift+Right from 0.5: steps at %v, want [1.5 1.5]", f.at)
	}
}

// TestWrapToStart: in a 1 s loop a second's step back from 0 lands on −1
// s, a whole cycle, which wraps to the start (0), not the end; a region
// of no length holds nothing.
func TestWrapToStart(t *testing.T) {
	f := newFake()
	s := NewState()
	s.Handle(Event{Key: KeyLeft, Shift: true}, sized{f, 1, 0.1})
	if f.t != 0 {
		t.Errorf("Shift+Left from 0 in a 1 s loop: %v, want 0", f.t)
	}
	s = NewState()
	s.LoopIn, s.LoopOut = 1, 1
	f.t = 1.5
	s.InLoop(f)
	if f.t != 1.5 {
		t.Errorf("a region of no length moved the play head to %v", f.t)
	}
}
