package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

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

// TestEmptyRowsAndBars: a list whose rows have no height holds no row,
// and a bar of no width sets no weight: a press there is the camera's,
// and a drag from it sets nothing.
func TestEmptyRowsAndBars(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y float32
		set  func(s *State)
	}{
		{"clip rows of no height", 100, 180, func(s *State) { s.Clips = Rect{8, 168, 340, 60} }},
		{"morph rows of no height", 1000, 40, func(s *State) { s.Morphs = Rect{980, 36, 300, 60} }},
		{"a weight bar of no width", 150, 0, func(s *State) { s.weighing, s.WeightBar = 0, Rect{X: 100} }},
		{"a morph bar of no width", 150, 0, func(s *State) { s.pinning, s.MorphBar = 0, Rect{X: 100} }},
	} {
		f := newFake()
		f.params, f.morph, f.pinned = nil, []float32{0.5, 0.5}, map[int]bool{1: true}
		s := NewState()
		s.Selected, s.MorphSel = 1, 1
		tc.set(&s)
		taken := s.Press(tc.x, tc.y, true, f)
		s.Drag(tc.x, f)
		if taken || s.Selected != 1 || s.MorphSel != 1 || s.Message != "" || f.morph[0] != 0.5 || len(f.pinned) != 1 || !f.pinned[1] {
			t.Errorf("%s: press at (%v, %v) taken %v, then a drag: selected %d, morph target %d, says %q, morph weights %v pinned %v",
				tc.name, tc.x, tc.y, taken, s.Selected, s.MorphSel, s.Message, f.morph, f.pinned)
		}
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
// frame under it; away from it, nothing: the HUD is as never hovered.
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
	fresh, plain := NewState(), &recorder{}
	Draw(plain, &fresh, in, 800, 600)
	if got, want := strings.Join(rec.texts, "\n"), strings.Join(plain.texts, "\n"); got != want {
		t.Fatalf("the pointer off the timeline: the HUD shows\n%s\nwant, as never hovered:\n%s", got, want)
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

// TestHUDStillModel: a model with nothing to play (no clip, no state, no
// length) says so in one line where the time, the rate and the timeline
// would be, draws none of them (no ▶, no "frame 0/0 @ 0 fps", no "rate
// 1.00x loop") and leaves no timeline to click; in the full panel, three
// rows of 20 px and the pads (3 × 8): 84 px high.
func TestHUDStillModel(t *testing.T) {
	s := NewState()
	in := &Info{Model: "static.gltf", Mode: "clip", Missing: "no animation"}
	tp := &tape{}
	Draw(tp, &s, in, 1280, 720)
	drawn(t, tp, rect(8, 8, 340, 84, panelBG),
		text(16, 16, "static.gltf", textMain),
		text(16, 36, "no animation", accent),
		text(16, 56, "nothing to play: the file's own pose", textDim))
	nowhere(t, tp, "fps", "rate ", "▶", "❚❚", "frame 0")
	if s.Timeline != (Rect{}) {
		t.Errorf("full panel: a timeline at %+v; want none", s.Timeline)
	}
	tp = &tape{}
	Draw(tp, &s, in, 600, 400)
	drawn(t, tp, rect(8, 8, 584, 25, panelBG), mono(12, 10, "no animation  nothing to play: the file's own pose", textMain))
	nowhere(t, tp, "fps", "▶", "❚❚", "frame 0")
	if s.Timeline != (Rect{}) {
		t.Errorf("one-line HUD: a timeline at %+v; want none", s.Timeline)
	}
	// A clip of no length keeps its time row.
	in.Missing, in.Choice, in.Choices = "", "Pose", []string{"Pose"}
	tp = &tape{}
	Draw(tp, &s, in, 1280, 720)
	drawn(t, tp, rect(8, 8, 340, 124, panelBG))
	nowhere(t, tp, "nothing to play")
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
