package ui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
)

// tape is a Painter that writes down every call, one line each, with
// the metrics the layouts below are worked out by hand for: a line is
// 17 px high, Text measures 7 px a byte and Mono 8 px a byte (so "…",
// three bytes, is 21 px wide).
type tape struct{ ops []string }

func (t *tape) add(format string, a ...any) { t.ops = append(t.ops, fmt.Sprintf(format, a...)) }

func (t *tape) Text(x, y float32, s string, c color.NRGBA) float32 {
	t.add("%s", text(x, y, s, c))
	return t.Measure(s)
}
func (t *tape) Mono(x, y float32, s string, c color.NRGBA) float32 {
	t.add("%s", mono(x, y, s, c))
	return t.MeasureMono(s)
}
func (t *tape) Measure(s string) float32     { return float32(7 * len(s)) }
func (t *tape) MeasureMono(s string) float32 { return float32(8 * len(s)) }
func (t *tape) LineHeight() float32          { return 17 }
func (t *tape) Rect(x, y, w, h float32, c color.NRGBA) {
	t.add("%s", rect(x, y, w, h, c))
}
func (t *tape) Frame(x, y, w, h, th float32, c color.NRGBA) {
	t.add("frame %g %g %g %g %g %v", x, y, w, h, th, c)
}
func (t *tape) Line(x0, y0, x1, y1, w float32, c color.NRGBA) {
	t.add("%s", seg(x0, y0, x1, y1, w, c))
}
func (t *tape) Disc(x, y, r float32, c color.NRGBA) { t.add("%s", disc(x, y, r, c)) }

func text(x, y float32, s string, c color.NRGBA) string {
	return fmt.Sprintf("text %g %g %q %v", x, y, s, c)
}
func mono(x, y float32, s string, c color.NRGBA) string {
	return fmt.Sprintf("mono %g %g %q %v", x, y, s, c)
}
func rect(x, y, w, h float32, c color.NRGBA) string {
	return fmt.Sprintf("rect %g %g %g %g %v", x, y, w, h, c)
}
func frame(x, y, w, h float32) string { // every frame is 1 px of panelLine
	return fmt.Sprintf("frame %g %g %g %g 1 %v", x, y, w, h, panelLine)
}
func seg(x0, y0, x1, y1, w float32, c color.NRGBA) string {
	return fmt.Sprintf("line %g %g %g %g %g %v", x0, y0, x1, y1, w, c)
}
func disc(x, y, r float32, c color.NRGBA) string {
	return fmt.Sprintf("disc %g %g %g %v", x, y, r, c)
}

// lit is the selected row's highlight.
var lit = color.NRGBA{60, 80, 120, 180}

// drawn checks that the tape holds want, in that order (other calls may
// come between).
func drawn(t *testing.T, tp *tape, want ...string) {
	t.Helper()
	i := 0
	for _, op := range tp.ops {
		if i < len(want) && op == want[i] {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("missing, in order: %s\n(after %q)\ntape:\n%s", want[i], want[:i], strings.Join(tp.ops, "\n"))
	}
}

// absent checks that no call of the tape starts with any of the prefixes.
func absent(t *testing.T, tp *tape, prefixes ...string) {
	t.Helper()
	notDrawn(t, tp, strings.HasPrefix, prefixes)
}

// nowhere checks that no call of the tape contains any of the parts.
func nowhere(t *testing.T, tp *tape, parts ...string) {
	t.Helper()
	notDrawn(t, tp, strings.Contains, parts)
}

// notDrawn checks that no call of the tape matches any of the strings.
func notDrawn(t *testing.T, tp *tape, match func(op, s string) bool, ss []string) {
	t.Helper()
	for _, op := range tp.ops {
		for _, s := range ss {
			if match(op, s) {
				t.Errorf("drawn, and should not be: %s\ntape:\n%s", op, strings.Join(tp.ops, "\n"))
			}
		}
	}
}

// TestPanelLayout: the main panel, worked out by hand. Rows are lh + 3 =
// 20 px apart; the panel (x 8, width 340) holds 5 rows, one per
// parameter, one for the view, one for the issues and one per issue line,
// one for the state and one per layer: 12 here, so 12 × 20 + 3 × 8 = 264
// px high. Text starts a padding in, at (16, 16).
func TestPanelLayout(t *testing.T) {
	s := NewState()
	s.LoopIn, s.LoopOut = 0.5, 1.5
	in := &Info{Model: "m", Issues: "1 error", IssueLines: []string{"bad accessor"}, IssueErrors: true,
		Mode: "clip", Choice: "Walk", Selected: "Run", Time: 0.5, Duration: 2, Frame: 15, Frames: 60, FPS: 29.97,
		View: "normals", Keys: []float32{0, 1, 1.001, 2, 3}, Markers: []anim.Marker{{Time: 0.5, Name: "step"}},
		Fade:   &Fade{From: "Idle", To: "Walk", Weight: 0.25},
		Params: []graph.Param{{Name: "speed", Value: 0.5, Max: 2}, {Name: "aim", Min: -1, Max: 1}}, HasStates: true,
		Status: graph.Status{From: "Idle", State: "Walk", Weight: 0.25,
			Layers: []graph.LayerStatus{{Name: "upper", State: "Aim", Pending: "Wave"}}}}
	tp := &tape{}
	Draw(tp, &s, in, 1280, 720)
	drawn(t, tp,
		rect(8, 8, 340, 264, panelBG), frame(8, 8, 340, 264),
		text(16, 16, "m", textMain),
		text(16, 36, "1 error (viewer -info lists them)", issueText),
		text(24, 56, "bad accessor", textDim),
		// "clip: " is 42 px, "Walk" 28.
		text(16, 76, "clip: ", textDim), text(58, 76, "Walk", accent), text(86, 76, "   [Enter: Run]", textDim),
		mono(16, 96, "▶  0.500/2.000 s  frame 15/60 @ 29.97 fps", textMain),
		mono(16, 116, "rate 1.00x  loop", textDim),
		// The timeline: x 16, y 136 + 2, 340 − 16 wide, 17 − 4 high; t s
		// at 16 + 324 t/2: the region 0.5…1.5 s from 97 to 259.
		rect(16, 138, 324, 13, sliderBG), rect(97, 138, 162, 13, loopFill),
		// Key marks at 0, 1 (1.001 s falls in its pixel column), 2 (3 s,
		// clamped to the end, in the same column).
		seg(16, 147, 16, 151, 1, keyMark), seg(178, 147, 178, 151, 1, keyMark), seg(340, 147, 340, 151, 1, keyMark),
		seg(97, 135, 97, 151, 1, eventMark), disc(97, 135, 2.5, eventMark),
		rect(16, 138, 81, 3, fadeFill),
		seg(97, 136, 97, 153, 2, playHead),
		text(16, 156, "normals", accent),
		// Sliders: the bar 120 px in, 324 − 176 wide, at the row's middle
		// less 3; the value 50 px from the right.
		rect(12, 175, 332, 19, lit), text(16, 176, "► speed", textMain),
		rect(136, 181.5, 148, 6, sliderBG), rect(136, 181.5, 37, 6, accent), mono(290, 176, "  0.50", textMain),
		text(16, 196, "aim", textDim),
		rect(136, 201.5, 148, 6, sliderBG), rect(136, 201.5, 74, 6, sliderFG), mono(290, 196, "  0.00", textDim),
		text(16, 216, "state: Idle → Walk  25%", textMain),
		text(16, 236, "  upper: Aim (waiting: Wave)", textDim),
	)
	if n := strings.Count(strings.Join(tp.ops, "\n"), "1 "+fmt.Sprint(keyMark)); n != 3 {
		t.Errorf("%d key marks, want 3 (0, 1 and 2 s)", n)
	}
	// Under a state machine the fade shows in the state line, not on the
	// rate line.
	absent(t, tp, `text 16 116`, `text 128 116`, "text 144 116")
	nowhere(t, tp, "fade Idle")
}

// TestPanelLayoutPaused: what is missing in place of the clip, the bind
// pose, a paused clip playing backwards at −0.5x in ping-pong, and a fade
// cut in its middle to the room left on the rate line.
func TestPanelLayoutPaused(t *testing.T) {
	s := NewState()
	s.Playing, s.Reverse, s.RateStep = false, true, 2
	in := &Info{Model: "m", Missing: "no animation", BindPose: true, Mode: "clip", Choice: "Walk", Selected: "Walk",
		Loop: anim.PingPong, Backward: true, Fade: &Fade{From: "Idle", To: "Run", Weight: 0.5}}
	tp := &tape{}
	Draw(tp, &s, in, 1280, 720)
	// The rate line is 32 bytes, 256 px: the fade starts 2 pads after it,
	// at 288, with 16 + 340 − 16 − 288 = 52 px: 31 once "…" is taken
	// out, "0%" (14 px, at most half) kept at the end and "fa" in front.
	drawn(t, tp,
		rect(8, 8, 340, 124, panelBG),
		text(16, 36, "no animation", accent), text(100, 36, "  (bind pose)", textDim),
		mono(16, 56, "❚❚  0.000/0.000 s  frame 0/0 @ 0 fps", textMain),
		mono(16, 76, "rate -0.50x  ping-pong  backward", textDim),
		text(288, 76, "fa…0%", textMain),
		rect(16, 98, 324, 13, sliderBG),
	)
	// A clip of no length has a bare timeline: no play head, no fade.
	absent(t, tp, "line ", "text 58 36", "text 16 36 \"clip", "rect 16 98 162")
	// The choice playing is not offered again.
	nowhere(t, tp, "Enter")
}

// TestPanelStatesSettled: a settled state is its name alone; a layer
// blending shows from, to and the weight.
func TestPanelStatesSettled(t *testing.T) {
	s := NewState()
	s.CustomRate = 0.3
	in := &Info{Model: "m", Mode: "blend tree", Choice: "Walk", HasStates: true, View: strings.Repeat("v", 60),
		Status: graph.Status{State: "Walk", Layers: []graph.LayerStatus{{Name: "upper", From: "A", State: "B", Weight: 0.5}, {Name: "lower", State: "C"}}}}
	tp := &tape{}
	Draw(tp, &s, in, 1280, 720)
	// 5 + 1 (view) + 1 + 2 rows: 9 × 20 + 24 = 204. The view's label is
	// cut to 324 px: 303 once "…" is out, 43 bytes.
	drawn(t, tp, rect(8, 8, 340, 204, panelBG),
		mono(16, 76, "rate 0.30x  loop", textDim),
		text(16, 116, strings.Repeat("v", 43)+"…", accent),
		text(16, 136, "state: Walk", textMain), text(16, 156, "  upper: A → B  50%", textDim), text(16, 176, "  lower: C", textDim))
	// No other choice selected: no Enter hint.
	nowhere(t, tp, "Enter")
}

// TestSliderEnds: a parameter's bar fills by (value − min) / (max −
// min), clamped to the bar; a parameter with no range has no fill; Tab's
// choice wraps (Param 4 of 3 lights the second).
func TestSliderEnds(t *testing.T) {
	s := NewState()
	s.Param = 4
	in := &Info{Model: "m", Mode: "clip", Choice: "Walk", Params: []graph.Param{
		{Name: "a", Value: 5, Min: 1, Max: 3}, {Name: "b", Value: -4, Min: -2, Max: 2}, {Name: "c", Value: 1, Min: 1, Max: 1}}}
	tp := &tape{}
	Draw(tp, &s, in, 1280, 720)
	// Rows from y 116 (after the model, clip, time, rate and timeline).
	drawn(t, tp,
		text(16, 116, "a", textDim), rect(136, 121.5, 148, 6, sliderFG), mono(290, 116, "  5.00", textDim),
		rect(12, 135, 332, 19, lit), text(16, 136, "► b", textMain), rect(136, 141.5, 0, 6, accent),
		mono(290, 136, " -4.00", textMain),
		text(16, 156, "c", textDim), rect(136, 161.5, 148, 6, sliderBG), mono(290, 156, "  1.00", textDim))
	for _, op := range tp.ops {
		if strings.HasPrefix(op, "rect 136 161.5") && op != rect(136, 161.5, 148, 6, sliderBG) {
			t.Errorf("a parameter with no range has a fill: %s", op)
		}
	}
}

// TestStatsLine: the statistics line sits a line and a pad above the
// bottom, on a box 2 pads wider than its text; timings only when timed,
// the crowd's counts only for a crowd.
func TestStatsLine(t *testing.T) {
	for _, tc := range []struct {
		st   Stats
		want string
	}{
		{Stats{DrawCalls: 3, Parts: 4, Joints: 20, Vertices: 1000}, "draws 3  parts 4  joints 20  verts 1000"},
		{Stats{Timed: true, FPS: 59.6, AnimMs: 0.25, RenderMs: 3.5, DrawCalls: 1},
			" 60 fps  anim 0.25 ms  render 3.50 ms  draws 1  parts 0  joints 0  verts 0"},
		{Stats{Crowd: true, LOD: [3]int{5, 6, 7}, Culled: 8},
			"draws 0  parts 0  joints 0  verts 0  every frame 5 2nd 6 4th 7  out of view 8"},
	} {
		s := NewState()
		tp := &tape{}
		Draw(tp, &s, &Info{Model: "m", Stats: tc.st}, 1280, 720)
		// 720 − 17 − 8 = 695.
		drawn(t, tp, rect(8, 691, 8*float32(len(tc.want))+16, 25, panelBG), mono(16, 695, tc.want, textDim))
	}
}

// TestMessageAndBanner: the message centred 3 lines and a pad above the
// bottom (720 − 51 − 8 = 661) on a box a pad wider each side and 4 px
// taller each side; the banner a line and 12 px above it, or in its
// place when it already ends with the message.
func TestMessageAndBanner(t *testing.T) {
	s := NewState()
	s.HUD = false
	s.Message, s.Banner = "saved", "reload failed: x"
	tp := &tape{}
	Draw(tp, &s, &Info{}, 1280, 720)
	// "saved" is 35 px: x (1280 − 35)/2; the banner 112 px: x 584.
	drawn(t, tp,
		rect(614.5, 657, 51, 25, panelBG), text(622.5, 661, "saved", accent),
		rect(576, 628, 128, 25, bannerBG), text(584, 632, "reload failed: x", TextColor))
	if len(tp.ops) != 4 {
		t.Errorf("with the HUD hidden, %d calls; want the message's and the banner's 4:\n%s", len(tp.ops), strings.Join(tp.ops, "\n"))
	}
	s.Message = "failed: x"
	tp = &tape{}
	Draw(tp, &s, &Info{}, 1280, 720)
	drawn(t, tp, rect(576, 657, 128, 25, bannerBG), text(584, 661, "reload failed: x", TextColor))
	if len(tp.ops) != 2 {
		t.Errorf("a message the banner ends with is drawn again:\n%s", strings.Join(tp.ops, "\n"))
	}
}

// TestHoverTagPlace: the tag under the pointer reads the time and frame
// there and is centred on it, kept within the bar at both ends; its box
// is 4 px wider each side, 4 px below the bar.
func TestHoverTagPlace(t *testing.T) {
	in := &Info{Model: "m", Mode: "clip", Choice: "Walk", Duration: 2, FPS: 30}
	bg := color.NRGBA{18, 20, 26, 235}
	// The bar: x 16, y 98, 324 × 13.
	for _, tc := range []struct {
		x      float32
		tag    string
		tx     float32 // the tag's left edge
		tw     float32
		offBar bool
	}{
		{259, "1.500 s  frame 45", 259 - 68, 136, false},  // 3/4 along
		{16, "0.000 s  frame 0", 16, 128, false},          // the start: not left of the bar
		{340, "2.000 s  frame 60", 340 - 136, 136, false}, // the end: not right of it
		{12, "0.000 s  frame 0", 16, 128, true},           // 4 px before it: still the start
		{344, "2.000 s  frame 60", 340 - 136, 136, true},
	} {
		s := NewState()
		Draw(&tape{}, &s, in, 1280, 720)
		s.Hover(tc.x, 104)
		tp := &tape{}
		Draw(tp, &s, in, 1280, 720)
		drawn(t, tp, seg(tc.x, 98, tc.x, 111, 1, textMain), rect(tc.tx-4, 115, tc.tw+8, 21, bg), mono(tc.tx, 117, tc.tag, textMain))
	}
	// No tag for a clip without a frame rate or a length, or off the bar.
	for _, in := range []*Info{{Model: "m", Duration: 2}, {Model: "m", FPS: 30}} {
		s := NewState()
		Draw(&tape{}, &s, &Info{Model: "m", Duration: 2, FPS: 30}, 1280, 720)
		s.Hover(100, 104)
		tp := &tape{}
		Draw(tp, &s, in, 1280, 720)
		absent(t, tp, "line 100 ")
		// (A model with no length and nothing to choose has a shorter
		// panel: nothing to play.)
		if !strings.HasPrefix(tp.ops[0], "rect 8 8 340 ") {
			t.Errorf("%+v: the panel is not drawn first:\n%s", in, strings.Join(tp.ops, "\n"))
		}
	}
	s := NewState()
	Draw(&tape{}, &s, in, 1280, 720)
	s.Hover(100, 98+13+5) // 5 px below the bar
	tp := &tape{}
	Draw(tp, &s, in, 1280, 720)
	absent(t, tp, "line 100 ")
	s.Hover(100, 98-4) // 4 px above it: on
	tp = &tape{}
	Draw(tp, &s, in, 1280, 720)
	drawn(t, tp, seg(100, 98, 100, 111, 1, textMain))
	// The HUD hidden: no bar, no tag.
	s.HUD = false
	tp = &tape{}
	Draw(tp, &s, in, 1280, 720)
	absent(t, tp, "line 100 ")
}

// TestTimelineEnds: a loop region of no length is not drawn; a marker
// before the clip's start sits at the bar's start; with no choice
// selected apart from the one playing, no Enter hint.
func TestTimelineEnds(t *testing.T) {
	s := NewState()
	s.LoopIn, s.LoopOut = 1, 1
	in := &Info{Model: "m", Mode: "clip", Choice: "Walk", Duration: 2, FPS: 30, Time: 2,
		Markers: []anim.Marker{{Time: -1, Name: "early"}}}
	tp := &tape{}
	Draw(tp, &s, in, 1280, 720)
	drawn(t, tp, rect(16, 98, 324, 13, sliderBG), seg(16, 95, 16, 111, 1, eventMark), disc(16, 95, 2.5, eventMark),
		seg(340, 96, 340, 113, 2, playHead))
	nowhere(t, tp, fmt.Sprint(loopFill), "Enter")
}
