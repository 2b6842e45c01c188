package ui

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/debugview"
)

// fakeViewer records what the keys asked for.
type fakeViewer struct {
	choices   []string
	requested []string
	indexed   []int
	params    []graph.Param
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
	cameras int
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
func (f *fakeViewer) CycleCamera()              { f.cameras++ }
func (f *fakeViewer) Params() []graph.Param     { return f.params }
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
		params:  []graph.Param{{Name: "speed", Value: 0.5, Max: 1, Default: 0.25}, {Name: "aim_x", Value: 0, Min: -1, Max: 1}},
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
		{"toggles", fmt.Sprintf("h,k,w,g,u,v*%d,f", debugview.Count), func(s *State, f *fakeViewer) string {
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
		{"shift+c cycles the file's cameras, c follows", "shift+c,shift+c,c", func(s *State, f *fakeViewer) string {
			if f.cameras != 2 || f.follows != 1 {
				return fmt.Sprintf("%d camera cycles and %d follow toggles, want 2 and 1", f.cameras, f.follows)
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
		Params:    []graph.Param{{Name: "speed", Max: 1}, {Name: "aim_x", Min: -1, Max: 1}},
		Status:    graph.Status{State: "Walk", From: "Idle", Weight: 0.4, Layers: []graph.LayerStatus{{Name: "base", State: "Walk", From: "Idle", Weight: 0.4}}},
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
// its width it falls at, a drag follows the pointer (until U hides the
// HUD), a press elsewhere is the camera's; the bar is where the HUD drew
// it.
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
	// U in the middle of a drag: the hidden HUD has no timeline to scrub.
	if !s.Press(r.X+0.25*r.W, r.Y+r.H/2, false, f) || !near(f.t, 0.5) {
		t.Fatalf("press at a quarter again: %v", f.t)
	}
	s.Handle(Event{Key: KeyU}, f)
	Draw(&recorder{}, &s, in, 800, 600)
	if s.Drag(r.X+0.75*r.W, f); !near(f.t, 0.5) {
		t.Fatalf("dragged on with the HUD hidden: %v, want 0.5, where the press put it", f.t)
	}
	s.Release()
	if s.Press(r.X+0.25*r.W, r.Y+r.H/2, false, f) {
		t.Fatal("the hidden HUD's timeline took a press")
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
