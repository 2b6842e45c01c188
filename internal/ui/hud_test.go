package ui

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
)

// recorder is a Painter that keeps the text it was asked to draw (and
// its colour) and the key marks.
type recorder struct {
	texts  []string
	colors []color.NRGBA // each text's
	lines  int           // Line calls
	frames int           // Frame calls
	// marks are the x of each short vertical line (a key mark's).
	marks []float32
}

func (r *recorder) Text(x, y float32, s string, c color.NRGBA) float32 {
	r.texts = append(r.texts, strings.Clone(s)) // s is the HUD's buffer: copy
	r.colors = append(r.colors, c)
	return r.Measure(s)
}
func (r *recorder) Mono(x, y float32, s string, c color.NRGBA) float32 { return r.Text(x, y, s, c) }
func (r *recorder) Measure(s string) float32                           { return float32(7 * len(s)) }
func (r *recorder) MeasureMono(s string) float32                       { return float32(8 * len(s)) }
func (r *recorder) LineHeight() float32                                { return 17 }
func (r *recorder) Rect(x, y, w, h float32, c color.NRGBA)             {}
func (r *recorder) Frame(x, y, w, h, th float32, c color.NRGBA)        { r.frames++ }
func (r *recorder) Line(x0, y0, x1, y1, w float32, c color.NRGBA) {
	r.lines++
	if x0 == x1 && y1-y0 == 4 {
		r.marks = append(r.marks, x0)
	}
}
func (r *recorder) Disc(x, y, rad float32, c color.NRGBA) {}

// TestRegionPingPongDirection: ping-pong in a loop region turns the play
// head round without changing the user's rate; leaving ping-pong and
// clearing the region plays forwards again at that rate.
func TestRegionPingPongDirection(t *testing.T) {
	f := newFake()
	s := NewState()
	s.Handle(Event{Key: KeyPeriod}, f) // 1.5x
	s.LoopIn, s.LoopOut, s.Loop = 0.5, 1.2, anim.PingPong
	f.t = 1.25
	s.InLoop(f) // past the out point: turns round
	if s.Rate() != 1.5 || s.ClockRate() != -1.5 {
		t.Fatalf("turned round: rate %v, clock %v; want the user's 1.5 and the clock -1.5", s.Rate(), s.ClockRate())
	}
	s.Handle(Event{Key: KeyL}, f) // ping-pong → loop
	s.Handle(Event{Key: KeyI, Alt: true}, f)
	s.InLoop(f)
	if s.Rate() != 1.5 || s.ClockRate() != 1.5 {
		t.Fatalf("loop mode, no region: rate %v, clock %v; want 1.5 forwards", s.Rate(), s.ClockRate())
	}
}

// TestDirectionShown: a clip playing backwards (Info.Backward) shows ◀
// and reads "direction":"backward" with the user's rate; forwards ▶ and
// "forward".
func TestDirectionShown(t *testing.T) {
	for _, back := range []bool{false, true} {
		s := NewState()
		in := &Info{Model: "m", Mode: "clip", Choice: "Walk", Duration: 2, FPS: 30, Loop: anim.PingPong, Backward: back}
		r := &recorder{}
		Draw(r, &s, in, 1280, 720)
		icon, word := "▶", `"direction":"forward"`
		if back {
			icon, word = "◀", `"direction":"backward"`
		}
		if !strings.Contains(strings.Join(r.texts, "\n"), icon+" ") {
			t.Errorf("backward %v: no %s in %q", back, icon, r.texts)
		}
		line := string(StateLine(in, &s, 1, ""))
		if !strings.Contains(line, word) || !strings.Contains(line, `"rate":1,`) {
			t.Errorf("backward %v: state line %s, want %s and rate 1", back, line, word)
		}
	}
}

// TestKeyMarksCoverTheClip: 1309 keys at 37.5 Hz over 34.9 s, more than
// the timeline's pixels, still mark its whole length, at most one mark
// per pixel column.
func TestKeyMarksCoverTheClip(t *testing.T) {
	var keys []float32
	for k := 0; float64(k)/37.5 <= 34.9; k++ {
		keys = append(keys, float32(float64(k)/37.5))
	}
	s := NewState()
	in := &Info{Model: "m", Mode: "clip", Choice: "Walk", Duration: 34.9, FPS: 37.5, Keys: keys}
	r := &recorder{}
	Draw(r, &s, in, 1280, 720)
	tl := s.Timeline
	last := keys[len(keys)-1] / 34.9 // the last key, as a share of the bar
	if len(r.marks) == 0 || r.marks[len(r.marks)-1] < tl.X+last*tl.W-1 {
		t.Fatalf("key marks end at x %v; the last key is at %v (bar %+v)", r.marks[len(r.marks)-1], tl.X+last*tl.W, tl)
	}
	cols := map[int]bool{}
	for _, x := range r.marks {
		if cols[int(x)] {
			t.Fatalf("two marks in pixel column %d", int(x))
		}
		cols[int(x)] = true
	}
}

// TestMorphNamesElideInTheMiddle: 13 targets named alike up to their
// number keep their numbers when cut, and a long header still shows
// "M: next".
func TestMorphNamesElideInTheMiddle(t *testing.T) {
	mp := &MorphPanel{Title: `morph: flamingo_body_mesh_node (mesh "flamingo_body_mesh") · M: next`}
	for i := range 13 {
		mp.Rows = append(mp.Rows, MorphRow{Name: fmt.Sprintf("flamingo_flyA_%03d", i)})
	}
	s := NewState()
	r := &recorder{}
	Draw(r, &s, &Info{Model: "m", Mode: "clip", Morph: mp}, 1280, 720)
	all := strings.Join(r.texts, "\n")
	if !strings.Contains(all, "M: next") {
		t.Errorf("the morph header hides M: next:\n%s", all)
	}
	for i := range 13 {
		end := fmt.Sprintf("_%03d", i)
		found := false
		for _, txt := range r.texts {
			if strings.HasPrefix(txt, "flam") && strings.HasSuffix(txt, end) {
				found = true
			}
		}
		if !found {
			t.Errorf("no morph row ends %q:\n%s", end, all)
		}
	}
}

// TestHoverTagOnTop: the time tag under the pointer over the timeline is
// drawn after the parameter rows below the timeline, which would cover it.
func TestHoverTagOnTop(t *testing.T) {
	s := NewState()
	in := &Info{Model: "m", Mode: "blend tree", Choice: "Walk", Duration: 2, FPS: 30, HasStates: true,
		Params: []graph.Param{{Name: "speed", Max: 1}, {Name: "aim_x", Min: -1, Max: 1}},
		Status: graph.Status{State: "Walk"}}
	Draw(&recorder{}, &s, in, 1280, 720)
	s.Hover(s.Timeline.X+s.Timeline.W/2, s.Timeline.Y+s.Timeline.H/2)
	r := &recorder{}
	Draw(r, &s, in, 1280, 720)
	tag, last := -1, -1
	for i, txt := range r.texts {
		if strings.Contains(txt, " s  frame ") && strings.HasPrefix(txt, "1.000") {
			tag = i
		}
		if strings.Contains(txt, "aim_x") || strings.Contains(txt, "speed") || strings.HasPrefix(txt, "state:") {
			last = i
		}
	}
	if tag < 0 || tag < last {
		t.Fatalf("hover tag drawn at %d, before the rows below the timeline (last at %d):\n%s", tag, last, strings.Join(r.texts, "\n"))
	}
}

// TestIssueColour: a report of warnings only is drawn in the warning
// colour, not the error colour; with errors, the error colour.
func TestIssueColour(t *testing.T) {
	for _, tc := range []struct {
		issues string
		errors bool
	}{{"0 errors, 631 warnings", false}, {"2 errors, 1 warning", true}} {
		s := NewState()
		r := &recorder{}
		Draw(r, &s, &Info{Model: "m", Mode: "clip", Issues: tc.issues, IssueErrors: tc.errors}, 1280, 720)
		for i, txt := range r.texts {
			if strings.HasPrefix(txt, tc.issues) && (r.colors[i] == issueText) != tc.errors {
				t.Errorf("%q drawn in %v (error colour %v)", tc.issues, r.colors[i], issueText)
			}
		}
	}
}

// TestPanelInset: the full HUD's left column (pad + 340 + pad = 356 px at
// line height 17) is kept clear of the picture where it covers more than
// a quarter of the framebuffer's width: at 800 px it is 356/800; at
// 1600 px (22 %) and under the one-line HUD (600 px) nothing is.
func TestPanelInset(t *testing.T) {
	for _, tc := range []struct {
		w    int
		want float32
	}{{800, 356.0 / 800}, {1600, 0}, {600, 0}} {
		if got := PanelInset(17, tc.w); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("%d px wide: inset %v, want %v", tc.w, got, tc.want)
		}
	}
}

// TestClipListStaysPutDuringAFade: the clip browser's rows do not move
// when a cross-fade starts, so a click lands on the clip under it; the
// fade still shows (on the rate line).
func TestClipListStaysPutDuringAFade(t *testing.T) {
	in := &Info{Model: "m", Mode: "clip", Choice: "Run", Duration: 2, FPS: 30,
		Clips: []ClipRow{{Name: "Idle"}, {Name: "Run"}, {Name: "Walk"}}}
	s := NewState()
	Draw(&recorder{}, &s, in, 1280, 720)
	still := s.Clips
	if still.W == 0 {
		t.Fatal("no clip list drawn")
	}
	in.Fade = &Fade{From: "Idle", To: "Run", Weight: 0.26}
	r := &recorder{}
	Draw(r, &s, in, 1280, 720)
	if s.Clips != still {
		t.Errorf("clip list at %+v during the fade, %+v before", s.Clips, still)
	}
	if !strings.Contains(strings.Join(r.texts, "\n"), "fade Idle → Run 26%") {
		t.Errorf("the fade is not shown: %q", r.texts)
	}
}

// TestCrowdStatsFit: a crowd's statistics line at a 960 px window ran past
// its right edge ("out of view" cut off); the crowd's counts go on a line
// above, and each line fits.
func TestCrowdStatsFit(t *testing.T) {
	s := NewState()
	r := &recorder{}
	in := &Info{Model: "m", Mode: "clip", Stats: Stats{Timed: true, FPS: 12, AnimMs: 0.24, RenderMs: 78.37,
		DrawCalls: 1, Parts: 1, Joints: 22, Vertices: 65460, Crowd: true, LOD: [3]int{19, 0, 0}}}
	Draw(r, &s, in, 960, 720)
	var stats []string
	for _, txt := range r.texts {
		if strings.Contains(txt, "verts ") || strings.Contains(txt, "out of view") {
			stats = append(stats, txt)
		}
	}
	if len(stats) == 0 || !strings.Contains(strings.Join(stats, "\n"), "out of view 0") {
		t.Fatalf("no crowd statistics drawn: %q", stats)
	}
	for _, txt := range stats {
		if x := 2*pad + float32(8*len(txt)); x > 960 {
			t.Errorf("%q ends at x = %g, past the 960 px framebuffer", txt, x)
		}
	}
}

// TestOnceEndedShowsStopped: a clip played once that has reached its end
// (in the way it plays) stands still; the HUD showed ▶ over a frozen
// 2.000/2.000 s (AnimatedCube after L). It shows ❚❚, as Space there
// plays it again; short of its end it shows ▶.
func TestOnceEndedShowsStopped(t *testing.T) {
	for _, tc := range []struct {
		time float32
		back bool
		want string
	}{{2, false, "❚❚"}, {1, false, "▶"}, {0, true, "❚❚"}, {2, true, "◀"}} {
		s := NewState()
		in := &Info{Model: "m", Mode: "clip", Choice: "Spin", Time: tc.time, Duration: 2, FPS: 1, Loop: anim.Once, Backward: tc.back}
		r := &recorder{}
		Draw(r, &s, in, 1280, 720)
		if !strings.Contains(strings.Join(r.texts, "\n"), tc.want+" ") {
			t.Errorf("once at %v s, backward %v: no %s in %q", tc.time, tc.back, tc.want, r.texts)
		}
	}
}
