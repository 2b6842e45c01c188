package ui

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/debugview"
)

// fakeViewer records what the keys asked for.
type fakeViewer struct {
	choices   []string
	requested []string
	indexed   []int
	params    []anim.Param
	shots     int
	framed    int
	// t and loop stand for the character's clock.
	t       float32
	loop    anim.LoopMode
	reports int
	bind    bool
	joint   string
	// weights stand for the clip browser's blend; nil: under a spec.
	weights []float32
	// morph are the morph panel's weights, pinned those pinned; cycled
	// counts M.
	morph  []float32
	pinned map[int]bool
	cycled int
	steps  int // frame steps (Step) among the seeks
	// follows counts C.
	follows int
}

func (f *fakeViewer) Choices() []string { return f.choices }
func (f *fakeViewer) Request(i int, instant bool) error {
	mode := "fade"
	if instant {
		mode = "cut"
	}
	f.requested = append(f.requested, mode+":"+f.choices[i])
	return nil
}
func (f *fakeViewer) RequestIndex(i int) error {
	if i >= len(f.choices) {
		return errors.New("no such state")
	}
	f.indexed = append(f.indexed, i)
	return nil
}
func (f *fakeViewer) BlendWeight(i int) (float32, bool) {
	if f.weights == nil {
		return 0, false
	}
	return f.weights[i], true
}
func (f *fakeViewer) SetBlendWeight(i int, w float32) error {
	if f.weights == nil {
		return errors.New("under a spec")
	}
	f.weights[i] = w
	return nil
}
func (f *fakeViewer) Step(t float32, forward bool) { f.t = t; f.steps++ }
func (f *fakeViewer) NumMorph() int                { return len(f.morph) }
func (f *fakeViewer) MorphWeight(i int) (float32, bool) {
	return f.morph[i], f.pinned != nil && f.pinned[i]
}
func (f *fakeViewer) PinMorph(i int, w float32) {
	if f.pinned == nil {
		f.pinned = map[int]bool{}
	}
	f.morph[i], f.pinned[i] = w, true
}
func (f *fakeViewer) ReleaseMorph(i int) {
	if i < 0 {
		f.pinned = nil
		return
	}
	delete(f.pinned, i)
}
func (f *fakeViewer) CycleMorph()               { f.cycled++ }
func (f *fakeViewer) ToggleFollow()             { f.follows++ }
func (f *fakeViewer) Params() []anim.Param      { return f.params }
func (f *fakeViewer) SetParam(i int, v float32) { f.params[i].Value = v }
func (f *fakeViewer) Duration() float32         { return 2 }
func (f *fakeViewer) Time() float32             { return f.t }
func (f *fakeViewer) Keys() []float32           { return []float32{0, 0.5, 1.2, 2} }
func (f *fakeViewer) ReportState()              { f.reports++ }
func (f *fakeViewer) ToggleBindPose()           { f.bind = !f.bind }

// SelectJointAt stands for a joint drawn at (100, 100).
func (f *fakeViewer) SelectJointAt(x, y float32) bool {
	if (x-100)*(x-100)+(y-100)*(y-100) <= 100 {
		f.joint = "elbow"
		return true
	}
	return false
}
func (f *fakeViewer) Seek(t float32) { f.t = t }
func (f *fakeViewer) SetLoopMode(m anim.LoopMode) error {
	f.loop = m
	return nil
}
func (f *fakeViewer) FrameStep() float32 { return 0.1 }
func (f *fakeViewer) Screenshot() (string, error) {
	f.shots++
	return "screenshots/x.png", nil
}
func (f *fakeViewer) FrameModel() { f.framed++ }

func newFake() *fakeViewer {
	return &fakeViewer{
		choices: []string{"Idle", "Walk", "Run"},
		params:  []anim.Param{{Name: "speed", Value: 0.5, Max: 1, Default: 0.25}, {Name: "aim_x", Value: 0, Min: -1, Max: 1}},
	}
}

func run(t *testing.T, script string, f *fakeViewer) *State {
	t.Helper()
	evs, err := ParseKeys(script)
	if err != nil {
		t.Fatal(err)
	}
	s := NewState()
	for _, ev := range evs {
		s.Handle(ev, f)
	}
	return &s
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

func TestKeys(t *testing.T) {
	cases := []struct {
		name   string
		script string
		check  func(*State, *fakeViewer) string
	}{
		{"space pauses", "space", func(s *State, f *fakeViewer) string {
			if s.Playing {
				return "still playing"
			}
			return ""
		}},
		{"right steps frames and pauses", "right*3", func(s *State, f *fakeViewer) string {
			if s.Playing || !near(f.t, 0.3) {
				return "want paused at 0.3"
			}
			return ""
		}},
		{"shift+right steps a second, left wraps the loop", "shift+right,left*12", func(s *State, f *fakeViewer) string {
			if !near(f.t, 1.8) { // 1 − 1.2 wraps to 1.8 in a 2 s loop
				return "want 1.8"
			}
			return ""
		}},
		{"end in a loop is the end, not frame 0", "end", func(s *State, f *fakeViewer) string {
			if !near(f.t, 2) {
				return "want the end, 2"
			}
			return ""
		}},
		{"right from the last frame but one reaches the end", "end,left,right", func(s *State, f *fakeViewer) string {
			if !near(f.t, 2) {
				return "want 2: 1.9 + one frame is the end, not a wrap to 0"
			}
			return ""
		}},
		{"right from the end wraps to frame 1", "end,right", func(s *State, f *fakeViewer) string {
			if !near(f.t, 0.1) {
				return "want 0.1: the end and frame 0 are one pose in a loop"
			}
			return ""
		}},
		{"steps land on frames", "right*2", func(s *State, f *fakeViewer) string {
			// From 0.05, between frames 0 and 1: frames 1 and 2.
			if !near(f.t, 0.2) {
				return "want 0.2, on frame 2"
			}
			return ""
		}},
		{"ctrl+right jumps from key to key", "ctrl+right*2", func(s *State, f *fakeViewer) string {
			if !near(f.t, 1.2) || s.Playing {
				return "want the third key, 1.2, paused"
			}
			return ""
		}},
		{"ctrl+left from between keys goes to the key before", "right*7,ctrl+left", func(s *State, f *fakeViewer) string {
			if !near(f.t, 0.5) { // 0.7 → 0.5
				return "want 0.5"
			}
			return ""
		}},
		{"ctrl+left on the first key stays", "ctrl+left", func(s *State, f *fakeViewer) string {
			if !near(f.t, 0) {
				return "want 0"
			}
			return ""
		}},
		{"b toggles the bind pose", "b", func(s *State, f *fakeViewer) string {
			if !f.bind {
				return "want the bind pose"
			}
			return ""
		}},
		{"i and o set the loop region at the play head", "right*3,i,right*5,o", func(s *State, f *fakeViewer) string {
			if !near(s.LoopIn, 0.3) || !near(s.LoopOut, 0.8) {
				return "want the region [0.3, 0.8]"
			}
			return ""
		}},
		{"alt+i clears the loop region", "right*3,i,alt+i", func(s *State, f *fakeViewer) string {
			if s.LoopOut > s.LoopIn {
				return "want no region"
			}
			return ""
		}},
		{"s reports the state", "s,s", func(s *State, f *fakeViewer) string {
			if f.reports != 2 {
				return "want two reports"
			}
			return ""
		}},
		{"end then home", "end,home", func(s *State, f *fakeViewer) string {
			if !near(f.t, 0) {
				return "want 0"
			}
			return ""
		}},
		{"faster to the top of the ladder", "period*20", func(s *State, f *fakeViewer) string {
			if s.Rate() != 4 {
				return "want 4x"
			}
			return ""
		}},
		{"slower and reversed", "comma*20,r", func(s *State, f *fakeViewer) string {
			if !near(s.Rate(), -0.1) {
				return "want -0.1x"
			}
			return ""
		}},
		{"loop modes cycle", "l,l", func(s *State, f *fakeViewer) string {
			if s.Loop != anim.PingPong || f.loop != anim.PingPong {
				return "want ping-pong after two presses"
			}
			return ""
		}},
		{"brackets wrap and enter fades", "[,enter,],],shift+enter", func(s *State, f *fakeViewer) string {
			if strings.Join(f.requested, " ") != "fade:Run cut:Walk" {
				return "requests " + strings.Join(f.requested, " ")
			}
			return ""
		}},
		{"tab selects and arrows change the parameter", "tab,up*4,shift+down", func(s *State, f *fakeViewer) string {
			if s.Param != 1 || !near(f.params[1].Value, 0.19) {
				return "want aim_x = 0.19"
			}
			return ""
		}},
		{"values clamp at max", "up*20", func(s *State, f *fakeViewer) string {
			if f.params[0].Value != 1 {
				return "want speed clamped to 1"
			}
			return ""
		}},
		{"zero resets to default", "up,0", func(s *State, f *fakeViewer) string {
			if f.params[0].Value != 0.25 {
				return "want the default 0.25"
			}
			return ""
		}},
		{"shift+tab goes back", "shift+tab", func(s *State, f *fakeViewer) string {
			if s.Param != 1 {
				return "want the last parameter"
			}
			return ""
		}},
		{"number keys request states", "2,9", func(s *State, f *fakeViewer) string {
			if len(f.indexed) != 1 || f.indexed[0] != 1 || !strings.Contains(s.Message, "no such state") {
				return "want state 1 requested and an error shown for 9"
			}
			return ""
		}},
		{"toggles", "h,k,w,g,u,v,v,v,f", func(s *State, f *fakeViewer) string {
			if !s.Help || !s.Skeleton || !s.Wire || !s.Grid || s.HUD || s.View != debugview.Shaded || f.framed != 1 {
				return "toggles wrong"
			}
			return ""
		}},
		{"screenshot says where", "p,f12", func(s *State, f *fakeViewer) string {
			if f.shots != 2 || !strings.Contains(s.Message, "screenshots/x.png") {
				return "want two screenshots and the path on screen"
			}
			return ""
		}},
		{"escape quits", "esc", func(s *State, f *fakeViewer) string {
			if !s.Quit {
				return "not quitting"
			}
			return ""
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			if strings.HasPrefix(tc.name, "steps land") {
				f.t = 0.05 // between frames 0 and 1
			}
			s := run(t, tc.script, f)
			if msg := tc.check(s, f); msg != "" {
				t.Fatalf("%s: %s (state %+v)", tc.script, msg, *s)
			}
		})
	}
}

func TestParseKeysErrors(t *testing.T) {
	for _, bad := range []string{"spacebar", "right*0", "right*x", "shift+"} {
		if _, err := ParseKeys(bad); err == nil {
			t.Errorf("ParseKeys(%q) accepted it", bad)
		}
	}
	evs, err := ParseKeys("space, right*2 ,shift+tab")
	if err != nil || len(evs) != 4 || evs[3] != (Event{Key: KeyTab, Shift: true}) {
		t.Fatalf("got %v %v", evs, err)
	}
}

func TestHUDShowsTheState(t *testing.T) {
	s := NewState()
	s.Param = 1
	s.Help = true
	in := &Info{Model: "fox.glb", Mode: "clip", Choice: "Walk", Time: 0.5, Duration: 2, Frame: 15,
		Params:    []anim.Param{{Name: "speed", Max: 1}, {Name: "aim_x", Min: -1, Max: 1}},
		Status:    anim.Status{State: "Walk", From: "Idle", Weight: 0.4, Layers: []anim.LayerStatus{{Name: "base", State: "Walk", From: "Idle", Weight: 0.4}}},
		HasStates: true}
	r := &recorder{}
	Draw(r, &s, in, 800, 600)
	all := strings.Join(r.texts, "\n")
	for _, want := range []string{"fox.glb", "Walk", "frame 15", "► aim_x", "Idle → Walk  40%", "Keys", "quit"} {
		if !strings.Contains(all, want) {
			t.Errorf("HUD lacks %q in:\n%s", want, all)
		}
	}
	for _, k := range KeyMap {
		if !strings.Contains(all, k[0]) {
			t.Errorf("help overlay lacks key %q", k[0])
		}
	}
}

// TestHUDBlendSpaceAndStats: a bilinear space is drawn as its rectangle,
// not triangles; offscreen statistics leave out the timings they do not
// have instead of printing zeros.
func TestHUDBlendSpaceAndStats(t *testing.T) {
	s := NewState()
	corners := [][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	for _, tc := range []struct {
		name   string
		sp     Space2D
		lines  int
		frames int
	}{
		{"bilinear", Space2D{Points: corners, Rect: true}, 0, 1},
		{"triangles", Space2D{Points: corners, Triangles: [][3]int{{0, 1, 2}, {1, 3, 2}}}, 6, 0},
	} {
		r := &recorder{}
		drawSpace(r, &line{}, &tc.sp, 0, 0)
		// The box around the plot is a Frame of its own.
		if r.lines != tc.lines || r.frames-1 != tc.frames {
			t.Errorf("%s: %d lines and %d rectangles, want %d and %d", tc.name, r.lines, r.frames-1, tc.lines, tc.frames)
		}
	}
	for _, timed := range []bool{false, true} {
		r := &recorder{}
		in := &Info{Stats: Stats{Timed: timed, FPS: 60, DrawCalls: 3}}
		Draw(r, &s, in, 800, 600)
		all := strings.Join(r.texts, "\n")
		if strings.Contains(all, " fps  anim ") != timed || !strings.Contains(all, "draws 3") {
			t.Errorf("timed=%v: statistics %q", timed, all)
		}
	}
}

// TestTimelineMouse: a press on the timeline bar seeks to the fraction of
// its width it falls at, a drag follows the pointer, a press elsewhere is
// the camera's; the bar is where the HUD drew it.
func TestTimelineMouse(t *testing.T) {
	s := NewState()
	f := newFake()
	in := &Info{Duration: 2}
	Draw(&recorder{}, &s, in, 800, 600)
	r := s.Timeline
	if r.W <= 0 || r.H <= 0 {
		t.Fatalf("timeline rectangle %+v after drawing the HUD", r)
	}
	if s.Press(r.X+r.W+50, r.Y, false, f) || s.Release() {
		t.Fatal("a press beside the timeline scrubbed")
	}
	if !s.Press(r.X+0.25*r.W, r.Y+r.H/2, false, f) || !near(f.t, 0.5) || s.Playing {
		t.Fatalf("press at a quarter of the bar: time %v, playing %v; want 0.5 (¼ of 2 s), paused", f.t, s.Playing)
	}
	s.Drag(r.X+0.75*r.W, f)
	if !near(f.t, 1.5) {
		t.Fatalf("dragged to three quarters: %v, want 1.5", f.t)
	}
	s.Drag(r.X+2*r.W, f) // past the end holds the end
	if !near(f.t, 2) {
		t.Fatalf("dragged past the end: %v, want 2", f.t)
	}
	if !s.Release() {
		t.Fatal("release did not end the scrub")
	}
	s.Drag(r.X, f)
	if !near(f.t, 2) {
		t.Fatal("a drag after the release still scrubbed")
	}
	s.HUD = false
	Draw(&recorder{}, &s, in, 800, 600)
	if s.Press(r.X+0.25*r.W, r.Y+r.H/2, false, f) {
		t.Fatal("the hidden HUD's timeline took a press")
	}
}

// TestInLoop: the region [0.5, 1.2] (0.7 s) in each loop mode. Looping,
// past the out point by 0.05 s goes on 0.05 s after the in point (and
// backwards likewise), so a cycle keeps the region's length; ping-pong
// turns round 0.05 s inside; once stops at the end and pauses. Before the
// region the play head goes to its start; paused, or without a region,
// nothing moves.
func TestInLoop(t *testing.T) {
	for _, tc := range []struct {
		mode        anim.LoopMode
		t, want     float32
		reverse     bool
		wantReverse bool
		wantPlaying bool
	}{
		{anim.Loop, 1.25, 0.55, false, false, true}, {anim.Loop, 0.8, 0.8, false, false, true}, {anim.Loop, 0.2, 0.5, false, false, true},
		{anim.Loop, 0.45, 1.15, true, true, true}, {anim.Loop, 0.9, 0.9, true, true, true},
		{anim.PingPong, 1.25, 1.15, false, true, true}, {anim.PingPong, 0.45, 0.55, true, false, true},
		{anim.Once, 1.25, 1.2, false, false, false}, {anim.Once, 0.45, 0.5, true, true, false},
	} {
		f := newFake()
		s := NewState()
		s.LoopIn, s.LoopOut, s.Loop = 0.5, 1.2, tc.mode
		f.t, s.Reverse = tc.t, tc.reverse
		s.InLoop(f)
		if !near(f.t, tc.want) || s.back() != tc.wantReverse || s.Playing != tc.wantPlaying {
			t.Errorf("%s at %v (reverse %v): %v (reverse %v, playing %v), want %v (reverse %v, playing %v)",
				tc.mode, tc.t, tc.reverse, f.t, s.back(), s.Playing, tc.want, tc.wantReverse, tc.wantPlaying)
		}
	}
	f := newFake()
	s := NewState()
	s.LoopIn, s.LoopOut = 0.5, 1.2
	f.t, s.Reverse, s.Playing = 1.5, false, false
	if s.InLoop(f); f.t != 1.5 {
		t.Error("paused, the play head moved")
	}

	// A region ending at the clip's end (2 s): played on from inside it,
	// the clip's own loop wraps 2.05 to 0.05, which is past the out point
	// by 0.05 s, not before the in point. Started before the region, the
	// play head goes to its start.
	f, s = newFake(), NewState()
	s.LoopIn, s.LoopOut = 1.5, 2
	f.t = 1.9
	s.InLoop(f)
	f.t = 0.05
	if s.InLoop(f); !near(f.t, 1.55) {
		t.Errorf("wrapped by the clip past a region at its end: %v, want 1.55", f.t)
	}
	f, s = newFake(), NewState()
	s.LoopIn, s.LoopOut = 1.5, 2
	f.t = 0.05
	if s.InLoop(f); !near(f.t, 1.5) {
		t.Errorf("playing from before the region: %v, want its start 1.5", f.t)
	}

	// Played once, the region stops at its out point; Space plays it
	// again from its in point.
	f, s = newFake(), NewState()
	s.LoopIn, s.LoopOut, s.Loop = 0.5, 1.2, anim.Once
	f.t = 1.25
	s.InLoop(f)
	s.Handle(Event{Key: KeySpace}, f)
	if s.InLoop(f); !s.Playing || !near(f.t, 0.5) {
		t.Errorf("Space on a once region at its end: playing %v at %v, want playing from 0.5", s.Playing, f.t)
	}
}

// TestPressSelectsJoints: with the skeleton overlay on, a press on a joint
// selects it (and is not the camera's); without the overlay, or off every
// joint, it is the camera's.
func TestPressSelectsJoints(t *testing.T) {
	s := NewState()
	f := newFake()
	if s.Press(103, 98, false, f) || f.joint != "" {
		t.Fatal("a press selected a joint without the skeleton overlay")
	}
	s.Skeleton = true
	if s.Press(300, 300, false, f) || f.joint != "" {
		t.Fatal("a press off every joint selected one")
	}
	if !s.Press(103, 98, false, f) || f.joint != "elbow" {
		t.Fatal("a press on the joint did not select it")
	}
	r := &recorder{}
	in := &Info{Joint: &JointInfo{Name: "elbow", Parent: "shoulder", T: [3]float32{0, 0.25, 0}, R: [4]float32{0, 0, 0.7071, 0.7071}, S: [3]float32{1, 1, 1}, World: [3]float32{0.1, 1.2, -0.05},
		WorldR: [4]float32{0, 0.6, 0, 0.8}, WorldS: [3]float32{-1, 2, 2}}}
	Draw(r, &s, in, 800, 600)
	all := strings.Join(r.texts, "\n")
	for _, want := range []string{"joint: elbow", "parent: shoulder", "T  0.000  0.250  0.000", "R  0.000  0.000  0.707  0.707", "world", "T  0.100  1.200 -0.050", "R  0.000  0.600  0.000  0.800", "S -1.000  2.000  2.000"} {
		if !strings.Contains(all, want) {
			t.Errorf("the inspector lacks %q in:\n%s", want, all)
		}
	}
}

// The model's validation report shows under its name: the count, then
// each issue line cut with "…" to the panel's width: 340 px less three
// paddings is 316 px, and the recorder measures 7 px a byte, so 42 x's
// and the 3-byte "…" (315 px) fit where 43 would not.
func TestHUDShowsTheReport(t *testing.T) {
	s := NewState()
	long := strings.Repeat("x", 60)
	in := &Info{Model: "fox.glb", Issues: "2 errors, 0 warnings", IssueLines: []string{"accessors[0].max[2]: declared 1", long}, Mode: "clip", Choice: "Walk"}
	r := &recorder{}
	Draw(r, &s, in, 800, 600)
	if len(r.texts) < 4 || r.texts[1] != "2 errors, 0 warnings (viewer -info lists them)" || r.texts[2] != "accessors[0].max[2]: declared 1" {
		t.Fatalf("HUD texts %q; want the model, the count, then the issues", r.texts)
	}
	if cut := r.texts[3]; cut != strings.Repeat("x", 42)+"…" {
		t.Fatalf("long issue drawn as %q (%d runes)", cut, len([]rune(cut)))
	}
	r = &recorder{}
	in.Issues, in.IssueLines = "", nil
	Draw(r, &s, in, 800, 600)
	if strings.Contains(strings.Join(r.texts, "\n"), "errors") {
		t.Fatal("a clean model's HUD mentions errors")
	}
}

// clipInfo is a clip browser of the fake's three clips, Walk playing.
func clipInfo() *Info {
	return &Info{Duration: 2, FPS: 30, Clips: []ClipRow{
		{Name: "Idle", Duration: 3}, {Name: "Walk", Duration: 1, Live: 1}, {Name: "Run", Duration: 0.7}}}
}

// TestClipListMouse: a click on a row plays that clip, Shift+click adds it
// to the blend (weight 1) or takes it out, a press on a weight bar sets the
// weight at the fraction of the bar it falls at and a drag follows; the
// rows are where the HUD drew them.
func TestClipListMouse(t *testing.T) {
	s := NewState()
	f := newFake()
	f.params = nil
	f.weights = make([]float32, 3)
	in := clipInfo()
	r := &recorder{}
	Draw(r, &s, in, 800, 600)
	c, h, bar := s.Clips, s.RowHeight, s.WeightBar
	if c.W <= 0 || h <= 0 || bar.W <= 0 || s.ClipFirst != 0 || c.H != 3*h {
		t.Fatalf("clip list %+v, rows %v apart from %d, weight bar %+v", c, h, s.ClipFirst, bar)
	}
	all := strings.Join(r.texts, "\n")
	for _, want := range []string{"clips (3)", "Walk", " 3.00 s", " 0.70 s", "100%", "  0%"} {
		if !strings.Contains(all, want) {
			t.Errorf("the clip list does not show %q:\n%s", want, all)
		}
	}
	row := func(i int) float32 { return c.Y + (float32(i)+0.5)*h }
	if !s.Press(c.X+10, row(2), false, f) || len(f.requested) != 1 || f.requested[0] != "fade:Run" || s.Selected != 2 {
		t.Fatalf("click on Run: requested %v, selected %d", f.requested, s.Selected)
	}
	s.Release()
	if !s.Press(c.X+10, row(0), true, f) || f.weights[0] != 1 || len(f.requested) != 1 {
		t.Fatalf("Shift+click on Idle: weights %v, requested %v", f.weights, f.requested)
	}
	s.Release()
	if s.Press(c.X+10, row(0), true, f); f.weights[0] != 0 {
		t.Fatalf("a second Shift+click on Idle left weight %v", f.weights[0])
	}
	s.Release()
	if !s.Press(bar.X+0.25*bar.W, row(1), false, f) || !near(f.weights[1], 0.25) {
		t.Fatalf("press at a quarter of Walk's bar: weight %v, want 0.25", f.weights[1])
	}
	s.Drag(bar.X+0.6*bar.W, f)
	if !near(f.weights[1], 0.6) || f.t != 0 {
		t.Fatalf("dragged to 0.6: weight %v, time %v", f.weights[1], f.t)
	}
	s.Drag(bar.X+3*bar.W, f)
	if f.weights[1] != 1 {
		t.Fatalf("dragged past the bar's end: %v, want 1", f.weights[1])
	}
	if !s.Release() {
		t.Fatal("release did not end the weight drag")
	}
	s.Drag(bar.X, f)
	if f.weights[1] != 1 {
		t.Fatal("a drag after the release still set the weight")
	}
	if s.Press(c.X+10, c.Y+c.H+h, false, f) {
		t.Fatal("a press below the last row was the list's")
	}
	// Under a spec there is no list.
	in.Clips = nil
	Draw(&recorder{}, &s, in, 800, 600)
	if s.Clips.W != 0 || s.Press(c.X+10, row(0), false, f) {
		t.Fatal("a spec's HUD has a clip list")
	}
}

// TestClipListScrolls: a list longer than the window shows the rows
// around the selected clip, and a click maps to the clip it shows.
func TestClipListScrolls(t *testing.T) {
	s := NewState()
	f := newFake()
	in := &Info{Duration: 1, FPS: 30}
	f.choices = nil
	for i := range 60 {
		name := fmt.Sprintf("clip%02d", i)
		f.choices = append(f.choices, name)
		in.Clips = append(in.Clips, ClipRow{Name: name, Duration: 1})
	}
	s.Selected = 40
	r := &recorder{}
	Draw(r, &s, in, 800, 600)
	shown := int(s.Clips.H / s.RowHeight)
	if shown < 5 || shown >= 60 || s.ClipFirst > 40 || s.ClipFirst+shown <= 40 {
		t.Fatalf("%d rows from %d shown; want clip 40 among them", shown, s.ClipFirst)
	}
	all := strings.Join(r.texts, "\n")
	if !strings.Contains(all, "clip40") || strings.Contains(all, "clip00") {
		t.Fatalf("rows drawn:\n%s", all)
	}
	s.Press(s.Clips.X+10, s.Clips.Y+1.5*s.RowHeight, false, f)
	if want := "fade:" + f.choices[s.ClipFirst+1]; len(f.requested) != 1 || f.requested[0] != want {
		t.Fatalf("click on the second row shown: %v, want %s", f.requested, want)
	}
}

// TestBlendWeightKeys: A adds the selected clip to the blend or takes it
// out; Up/Down change its weight when there are no parameters; under a
// spec A says why it does nothing.
func TestBlendWeightKeys(t *testing.T) {
	f := newFake()
	f.params = nil
	f.weights = make([]float32, 3)
	s := run(t, "],a", f) // Walk
	if f.weights[1] != 1 {
		t.Fatalf("A on Walk: weights %v", f.weights)
	}
	run2 := func(script string) {
		evs, _ := ParseKeys(script)
		for _, ev := range evs {
			s.Handle(ev, f)
		}
	}
	run2("down*3,shift+down")
	if !near(f.weights[1], 0.84) {
		t.Fatalf("Walk's weight after Down×3, Shift+Down: %v, want 0.84", f.weights[1])
	}
	run2("a")
	if f.weights[1] != 0 {
		t.Fatalf("A again: %v, want 0", f.weights[1])
	}
	run2("],up*2")
	if !near(f.weights[2], 0.1) {
		t.Fatalf("Run after ], Up×2: %v, want 0.1", f.weights[2])
	}
	g := newFake() // a spec: parameters, no blend weights
	s = run(t, "a", g)
	if !strings.Contains(s.Message, "spec") {
		t.Fatalf("A under a spec says %q", s.Message)
	}
}

// TestTimelineHover: the pointer over the timeline shows the time and
// frame under it; away from it, nothing.
func TestTimelineHover(t *testing.T) {
	s := NewState()
	in := &Info{Duration: 2, FPS: 30, Time: 0.5}
	Draw(&recorder{}, &s, in, 800, 600)
	r := s.Timeline
	s.Hover(r.X+0.75*r.W, r.Y+r.H/2)
	rec := &recorder{}
	Draw(rec, &s, in, 800, 600)
	all := strings.Join(rec.texts, "\n")
	if !strings.Contains(all, "1.500 s  frame 45") {
		t.Fatalf("hovering at ¾ of a 2 s timeline shows:\n%s", all)
	}
	s.Hover(r.X+0.75*r.W, r.Y+200)
	rec = &recorder{}
	Draw(rec, &s, in, 800, 600)
	if strings.Contains(strings.Join(rec.texts, "\n"), "frame 45") {
		t.Fatal("the tag stays after the pointer left the timeline")
	}
}

// TestOnionKey: Shift+O toggles the onion skin; O alone still sets the
// loop region's out point.
func TestOnionKey(t *testing.T) {
	f := newFake()
	f.t = 1
	s := run(t, "shift+o", f)
	if !s.Onion || s.LoopOut != 0 {
		t.Fatalf("Shift+O: onion %v, loop out %v", s.Onion, s.LoopOut)
	}
	s.Handle(Event{Key: KeyO}, f)
	if !s.Onion || s.LoopOut != 1 {
		t.Fatalf("O: onion %v, loop out %v", s.Onion, s.LoopOut)
	}
	s.Handle(Event{Key: KeyO, Shift: true}, f)
	if s.Onion {
		t.Fatal("a second Shift+O left the onion skin on")
	}
}

// TestViewLabel: the debug view's label is a line of the panel.
func TestViewLabel(t *testing.T) {
	s := NewState()
	r := &recorder{}
	Draw(r, &s, &Info{Duration: 1, FPS: 30, View: "view: weights of hip"}, 800, 600)
	if !strings.Contains(strings.Join(r.texts, "\n"), "view: weights of hip") {
		t.Fatalf("the panel does not name the view:\n%s", strings.Join(r.texts, "\n"))
	}
}

// TestMorphPanel: M cycles the mesh, N and Shift+N select a target, = and
// - pin its weight 0.05 up or down from where it is, Backspace releases
// every pin; on the panel a press on a bar pins the weight at that
// fraction (and a drag follows), a press on a name releases it.
func TestMorphPanel(t *testing.T) {
	f := newFake()
	f.morph = []float32{0.1, 0.5, 0.9}
	s := run(t, "m,n,n,shift+n", f)
	if f.cycled != 1 || s.MorphSel != 1 {
		t.Fatalf("after M, N, N, Shift+N: cycled %d, selected %d; want 1 and 1", f.cycled, s.MorphSel)
	}
	for _, ev := range []Event{{Key: KeyEqual}, {Key: KeyEqual}, {Key: KeyMinus}} {
		s.Handle(ev, f)
	}
	if !near(f.morph[1], 0.55) || !f.pinned[1] {
		t.Fatalf("=, =, - on target 1: %v pinned %v; want 0.55 pinned", f.morph[1], f.pinned)
	}
	s.Handle(Event{Key: KeyBackspace}, f)
	if len(f.pinned) != 0 {
		t.Fatalf("Backspace left %v pinned", f.pinned)
	}
	in := &Info{Duration: 1, FPS: 30, Morph: &MorphPanel{Title: "morph: Trunk", Rows: []MorphRow{{Name: "bulge"}, {Name: "squash", Weight: 0.5, Pinned: true}, {Name: "lean"}}}}
	r := &recorder{}
	Draw(r, s, in, 800, 600)
	all := strings.Join(r.texts, "\n")
	for _, want := range []string{"morph: Trunk", "bulge", " 0.50 pin", " 0.00"} {
		if !strings.Contains(all, want) {
			t.Errorf("the panel does not show %q:\n%s", want, all)
		}
	}
	m, bar := s.Morphs, s.MorphBar
	if m.W <= 0 || bar.W <= 0 {
		t.Fatalf("morph panel %+v, bar %+v", m, bar)
	}
	row := func(i int) float32 { return m.Y + (float32(i)+0.5)*s.RowHeight }
	if !s.Press(bar.X+0.3*bar.W, row(2), false, f) || !near(f.morph[2], 0.3) || !f.pinned[2] || s.MorphSel != 2 {
		t.Fatalf("press at 0.3 of lean's bar: %v pinned %v selected %d", f.morph[2], f.pinned, s.MorphSel)
	}
	s.Drag(bar.X+0.8*bar.W, f)
	if !near(f.morph[2], 0.8) {
		t.Fatalf("dragged to 0.8: %v", f.morph[2])
	}
	s.Release()
	s.Press(m.X+12, row(2), false, f)
	if f.pinned[2] {
		t.Fatal("a press on lean's name did not release it")
	}
}

// TestTimelineEventMarks: each event marker of the clip shown is a tick
// and a dot on the timeline.
func TestTimelineEventMarks(t *testing.T) {
	s := NewState()
	count := func(in *Info) int {
		r := &recorder{}
		Draw(r, &s, in, 800, 600)
		return r.lines
	}
	plain := count(&Info{Duration: 2, FPS: 30})
	marked := count(&Info{Duration: 2, FPS: 30, Markers: []anim.Marker{{Time: 0.5, Name: "a"}, {Time: 1.5, Name: "b"}}})
	if marked-plain != 2 {
		t.Fatalf("two markers drew %d more lines, want 2", marked-plain)
	}
}

// TestFollowKey: C asks the viewer to follow root motion, or stop.
func TestFollowKey(t *testing.T) {
	f := newFake()
	run(t, "c,c", f)
	if f.follows != 2 {
		t.Fatalf("C twice: %d toggles", f.follows)
	}
}

// TestHUDSaysWhatIsMissing: a model without clips shows "no animation"
// where the clip line is, in the full panel and the compact one, and no
// "clip: " with nothing after it.
func TestHUDSaysWhatIsMissing(t *testing.T) {
	for _, size := range [][2]int{{800, 600}, {400, 300}} {
		s := NewState()
		in := &Info{Model: "static.gltf", Mode: "clip", Missing: "no animation"}
		r := &recorder{}
		Draw(r, &s, in, size[0], size[1])
		all := strings.Join(r.texts, "\n")
		if !strings.Contains(all, "no animation") {
			t.Errorf("%dx%d: HUD lacks \"no animation\" in:\n%s", size[0], size[1], all)
		}
		if strings.Contains(all, "clip: ") {
			t.Errorf("%dx%d: HUD shows an empty clip line in:\n%s", size[0], size[1], all)
		}
	}
}

// TestBannerStays: the banner of a file that no longer loads is drawn
// whatever the HUD shows and outlives any message; the message that says
// the same error is not drawn twice, and another one still is.
func TestBannerStays(t *testing.T) {
	s := NewState()
	s.HUD = false
	s.Say("walk.json: no clip \"Nope\"")
	s.Banner = "showing the last good version: walk.json: no clip \"Nope\""
	s.Tick(10)
	r := &recorder{}
	Draw(r, &s, &Info{}, 800, 600)
	if all := strings.Join(r.texts, "\n"); all != s.Banner {
		t.Errorf("drawn %q; want the banner alone", all)
	}
	s.Say("screenshot saved")
	r = &recorder{}
	Draw(r, &s, &Info{}, 800, 600)
	if all := strings.Join(r.texts, "\n"); len(r.texts) != 2 || !strings.Contains(all, s.Banner) || !strings.Contains(all, "screenshot saved") {
		t.Errorf("drawn %q; want the banner and the new message", r.texts)
	}
	r = &recorder{}
	s.Say("walk.json: no clip \"Nope\"")
	Draw(r, &s, &Info{}, 800, 600)
	if len(r.texts) != 1 {
		t.Errorf("drawn %q; want the banner once, not its error again", r.texts)
	}
}
