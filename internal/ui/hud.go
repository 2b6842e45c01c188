package ui

import (
	"cmp"
	"image/color"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
)

// Painter draws 2D overlays in framebuffer pixels, origin top-left;
// render.HUD implements it. Text and Mono draw s at once and keep no
// reference to it: the HUD builds its lines in buffers it reuses.
type Painter interface {
	Text(x, y float32, s string, c color.NRGBA) float32
	Mono(x, y float32, s string, c color.NRGBA) float32
	Measure(s string) float32
	MeasureMono(s string) float32
	LineHeight() float32
	Rect(x, y, w, h float32, c color.NRGBA)
	Frame(x, y, w, h, thickness float32, c color.NRGBA)
	Line(x0, y0, x1, y1, width float32, c color.NRGBA)
	Disc(x, y, r float32, c color.NRGBA)
}

// Info is a snapshot of the viewer for one HUD frame.
type Info struct {
	Model      string
	Issues     string   // "2 errors, 1 warning" from the model's validation report, or ""
	IssueLines []string // the report's first errors and warnings
	// IssueErrors: the report has errors (Issues is drawn in the error
	// colour, else in the warning colour).
	IssueErrors bool
	Mode        string   // "clip" or "blend tree"
	Choice      string   // the clip or state playing
	Choices     []string // what [ ] select
	Selected    string   // the choice [ ] point at, which Enter requests
	Time        float32  // local time in seconds
	Duration    float32
	Frame       int           // the frame shown: Time × FPS, rounded down
	Frames      int           // the last frame: the one shown at Duration
	FPS         float32       // the clip's frame rate
	Loop        anim.LoopMode // what the clip shown does at its ends
	Backward    bool          // the clip shown plays backwards now
	BindPose    bool          // the bind pose is shown instead of the animation
	View        string        // what the debug view shows, "" for the shaded picture
	Joint       *JointInfo    // the joint the inspector shows, or nil
	Keys        []float32     // key times of the clip shown, for marks
	Markers     []anim.Marker // event markers of the clip shown
	Clips       []ClipRow     // the clip browser's list (nil under a spec), one row per choice
	Morph       *MorphPanel   // the morph targets of one mesh, or nil
	Fade        *Fade         // a cross-fade in progress, or nil
	Params      []graph.Param
	Status      graph.Status
	HasStates   bool // the spec has a state machine worth showing
	Space       *Space2D
	Stats       Stats
	// Missing says what the model lacks, in place of the clip line:
	// "no animation", "nothing to draw"; "" when it has what it needs.
	Missing string
}

// JointInfo is the joint inspector's content: the joint's name, its
// parent's ("" for a root), its local translation, rotation (x, y, z, w)
// and scale in the current pose, and its world position.
type JointInfo struct {
	Name, Parent string
	T, S, World  [3]float32
	R            [4]float32
	// WorldR and WorldS are the rotation and scale of the joint's world
	// matrix (World its translation); a mirror shows as a negative X scale.
	WorldR [4]float32
	WorldS [3]float32
}

// ClipRow is one clip of the clip list: its name and length, how much it
// weighs in the pose now (Live, 0…1) and its weight in the blend (Blend,
// the value its bar sets).
type ClipRow struct {
	Name     string
	Duration float32
	Live     float32
	Blend    float32
}

// MorphPanel is the morph targets of the mesh on one node: a title
// naming them, and a row per target.
type MorphPanel struct {
	Title string
	Rows  []MorphRow
}

// MorphRow is one morph target: its name, its weight in the pose shown,
// and whether that weight is pinned by hand.
type MorphRow struct {
	Name   string
	Weight float32
	Pinned bool
}

// Fade is a transition in progress.
type Fade struct {
	From, To string
	Weight   float32 // 0…1
}

// Space2D is a 2D blend space to plot: its sample points, its triangles
// (triples of point indices) or, when Rect, the rectangle its four corner
// samples span (bilinear weights), and the current parameter point.
type Space2D struct {
	XParam, YParam string
	Points         [][2]float32
	Triangles      [][3]int
	Rect           bool
	Current        [2]float32
}

// Stats are the frame statistics line.
type Stats struct {
	// Timed says FPS, AnimMs and RenderMs were measured; offscreen output
	// leaves them out so that it is the same on every run.
	Timed                bool
	FPS                  float32
	AnimMs, RenderMs     float32
	DrawCalls, Parts     int
	Joints, Vertices     int
	PaletteBytesPerFrame int
	// Crowd says a crowd is drawn: LOD counts its members updated every
	// frame, every 2nd and every 4th, Culled those out of view.
	Crowd  bool
	LOD    [3]int
	Culled int
}

// TextColor is the HUD's main text colour, for labels drawn outside it.
var TextColor = textMain

// Colours of the HUD (sRGB, as drawn).
var (
	panelBG   = color.NRGBA{18, 20, 26, 200}
	panelLine = color.NRGBA{90, 96, 110, 255}
	textMain  = color.NRGBA{235, 238, 245, 255}
	textDim   = color.NRGBA{150, 158, 172, 255}
	accent    = color.NRGBA{255, 176, 64, 255}
	sliderBG  = color.NRGBA{55, 60, 72, 255}
	sliderFG  = color.NRGBA{90, 150, 235, 255}
	playHead  = color.NRGBA{235, 70, 60, 255}
	fadeFill  = color.NRGBA{90, 200, 120, 150}
	keyMark   = color.NRGBA{170, 176, 190, 255}
	loopFill  = color.NRGBA{90, 150, 235, 90}
	issueText = color.NRGBA{255, 120, 100, 255}
	warnText  = color.NRGBA{240, 205, 90, 255}
	bannerBG  = color.NRGBA{120, 28, 24, 220}
	eventMark = color.NRGBA{120, 220, 255, 255}
)

// fitText cuts s to at most w wide, ending it with "…" where cut; a cut
// line is built in l, so the result is valid until l's next reset.
func fitText(p Painter, l *line, s string, w float32) string {
	if p.Measure(s) <= w {
		return s
	}
	w -= p.Measure("…")
	k := len(s)
	for k > 0 && p.Measure(s[:k]) > w {
		k--
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
	}
	return l.reset().s(s[:k]).s("…").str()
}

// elideMiddle cuts s to at most w wide by taking out its middle, for "…":
// names alike up to a distinguishing end ("flamingo_…_012") keep it, as a
// header keeps its last words. The cut line is built in l, valid until
// l's next reset.
func elideMiddle(p Painter, l *line, s string, w float32) string {
	if p.Measure(s) <= w {
		return s
	}
	w -= p.Measure("…")
	tail := len(s) // s[tail:] is kept, as wide as half the room at most
	for tail > 0 {
		k := tail - 1
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		if p.Measure(s[k:]) > w/2 {
			break
		}
		tail = k
	}
	head := 0 // s[:head] fills the rest
	for head < tail {
		k := head + 1
		for k < tail && !utf8.RuneStart(s[k]) {
			k++
		}
		if p.Measure(s[:k])+p.Measure(s[tail:]) > w {
			break
		}
		head = k
	}
	return l.reset().s(s[:head]).s("…").s(s[tail:]).str()
}

const pad = 8

// Draw lays out the HUD for a w×h framebuffer: the clip panel top-left
// with the timeline, parameters and state machine below, statistics
// bottom-left, the blend space top-right, the message bottom-centre and,
// when s.Help, the key map over everything.
func Draw(p Painter, s *State, in *Info, w, h int) {
	s.Timeline, s.Clips, s.Morphs = Rect{}, Rect{}, Rect{}
	switch {
	case s.HUD && compact(p.LineHeight(), w):
		drawCompact(p, s, in, w)
	case s.HUD:
		bottom := drawPanel(p, s, in)
		rise := drawStats(p, &s.line, in, w, h)
		if len(in.Clips) > 0 {
			// Down to the statistics lines, which stay clear.
			drawClipList(p, s, in, bottom+pad, float32(h)-2*p.LineHeight()-3*pad-rise)
		}
		top := float32(pad)
		if in.Space != nil {
			drawSpace(p, &s.line, in.Space, float32(w)-180-pad, top)
			top += 180 + pad
		}
		if in.Joint != nil {
			top += drawJoint(p, &s.line, in.Joint, float32(w)-pad, top) + pad
		}
		if in.Morph != nil {
			drawMorph(p, s, in.Morph, float32(w)-pad, top, float32(h)-2*p.LineHeight()-3*pad)
		}
	}
	lh := p.LineHeight()
	y := float32(h) - 3*lh - pad
	// The banner's line says all the message would while a reload fails;
	// the message's slot then goes to it rather than repeat it.
	if s.Message != "" && !strings.HasSuffix(s.Banner, s.Message) {
		tw := p.Measure(s.Message)
		x := (float32(w) - tw) / 2
		p.Rect(x-pad, y-4, tw+2*pad, lh+8, panelBG)
		p.Text(x, y, s.Message, accent)
		y -= lh + 12
	}
	if s.Banner != "" {
		tw := p.Measure(s.Banner)
		x := (float32(w) - tw) / 2
		p.Rect(x-pad, y-4, tw+2*pad, lh+8, bannerBG)
		p.Text(x, y, s.Banner, TextColor)
	}
	drawHoverTag(p, s, in)
	if s.Help {
		drawHelp(p, &s.line, w, h)
	}
}

// CompactWidth is the framebuffer width, at the HUD's unscaled text size,
// below which the HUD folds into one line and the timeline, so as not to
// cover the model in a small window.
const CompactWidth = 700

// compact reports whether a w pixels wide framebuffer gets the one-line
// HUD, at text of line height lh.
func compact(lh float32, w int) bool { return float32(w) < CompactWidth*lh/17 }

// CompactBar is the height of the framebuffer's top that the one-line HUD
// covers, at text of line height lh in a w pixels wide framebuffer; 0
// where the HUD is the full panel. The view keeps the picture below it
// (render.Camera.TopInset).
func CompactBar(lh float32, w int) float32 {
	if !compact(lh, w) {
		return 0
	}
	return pad + 2*lh + 3*pad/2 + pad/2
}

// PanelInset is the share of a w pixels wide framebuffer's width that the
// full HUD's left column of panels covers, at text of line height lh,
// where that is more than a quarter of it (a small window); 0 otherwise
// and under the one-line HUD. The window keeps the picture right of it
// (render.Camera.LeftInset).
func PanelInset(lh float32, w int) float32 {
	if compact(lh, w) || w <= 0 {
		return 0
	}
	cover := (2*pad + panelWidth) * lh / 17
	if cover <= float32(w)/4 {
		return 0
	}
	return cover / float32(w)
}

// panelWidth is the width of the main panel and the clip list.
const panelWidth = 340

// drawCompact is the one-line HUD: what plays, time and frame, then the
// timeline under it.
func drawCompact(p Painter, s *State, in *Info, w int) {
	lh := p.LineHeight()
	width := float32(w) - 2*pad
	if still(in) {
		// One line, no timeline to click.
		p.Rect(pad, pad, width, lh+pad, panelBG)
		p.Mono(pad+pad/2, pad+pad/4, s.line.reset().s(cmp.Or(in.Missing, in.Choice)).s("  ").s(nothingToPlay).str(), textMain)
		s.Timeline = Rect{}
		return
	}
	play := playIcon(s, in)
	line := s.line.reset().s(play).s(" ").s(cmp.Or(in.Missing, in.Choice)).s("  ").f(in.Time, 3, 0).s("/").f(in.Duration, 3, 0).
		s(" s  frame ").i(in.Frame, 0).s("/").i(in.Frames, 0).str()
	p.Rect(pad, pad, width, 2*lh+3*pad/2, panelBG)
	p.Mono(pad+pad/2, pad+pad/4, line, textMain)
	s.Timeline = Rect{pad + pad/2, pad + lh + pad/2, width - pad, lh / 2}
	drawTimeline(p, s, in, s.Timeline.X, s.Timeline.Y, s.Timeline.W, s.Timeline.H)
}

// drawPanel draws the main panel and returns its bottom edge.
func drawPanel(p Painter, s *State, in *Info) float32 {
	lh := p.LineHeight()
	x, y := float32(pad), float32(pad)
	width := float32(panelWidth)
	rows := 5 + len(in.Params)
	if still(in) {
		rows -= 2 // one line says so, in place of time, rate and timeline
	}
	if in.View != "" {
		rows++
	}
	if in.Issues != "" {
		rows += 1 + len(in.IssueLines)
	}
	if in.HasStates {
		rows += 1 + len(in.Status.Layers)
	}
	height := float32(rows)*(lh+3) + 3*pad
	p.Rect(x, y, width, height, panelBG)
	p.Frame(x, y, width, height, 1, panelLine)
	x += pad
	y += pad
	p.Text(x, y, in.Model, textMain)
	y += lh + 3
	if in.Issues != "" {
		col := warnText
		if in.IssueErrors {
			col = issueText
		}
		p.Text(x, y, in.Issues+" (viewer -info lists them)", col)
		y += lh + 3
		for _, l := range in.IssueLines {
			p.Text(x+pad, y, fitText(p, &s.line, l, width-3*pad), textDim)
			y += lh + 3
		}
	}
	var cx float32
	if in.Missing != "" {
		cx = x + p.Text(x, y, in.Missing, accent)
	} else {
		mode := s.line.reset().s(in.Mode).s(": ").str()
		cx = x + p.Text(x, y, mode, textDim)
		cx += p.Text(cx, y, in.Choice, accent)
	}
	if in.BindPose {
		cx += p.Text(cx, y, "  (bind pose)", textDim)
	}
	if in.Selected != "" && in.Selected != in.Choice {
		p.Text(cx, y, s.line.reset().s("   [Enter: ").s(in.Selected).s("]").str(), textDim)
	}
	y += lh + 3
	if still(in) {
		p.Text(x, y, nothingToPlay, textDim)
		y += lh + 3
		s.Timeline = Rect{}
	} else {
		y = drawPlayRows(p, s, in, x, y, width)
	}
	if in.View != "" {
		p.Text(x, y, fitText(p, &s.line, in.View, width-2*pad), accent)
		y += lh + 3
	}
	for i, prm := range in.Params {
		drawSlider(p, &s.line, prm, i == s.Param%max(len(in.Params), 1), x, y, width-2*pad)
		y += lh + 3
	}
	if in.HasStates {
		st := in.Status
		l := s.line.reset().s("state: ")
		if st.From != "" {
			l.s(st.From).s(" → ").s(st.State).s(" ").f(100*st.Weight, 0, 3).s("%")
		} else {
			l.s(st.State)
		}
		p.Text(x, y, l.str(), textMain)
		y += lh + 3
		for _, l := range st.Layers {
			t := s.line.reset().s("  ").s(l.Name).s(": ")
			if l.From != "" {
				t.s(l.From).s(" → ").s(l.State).s(" ").f(100*l.Weight, 0, 3).s("%")
			} else {
				t.s(l.State)
			}
			if l.Pending != "" {
				t.s(" (waiting: ").s(l.Pending).s(")")
			}
			p.Text(x, y, t.str(), textDim)
			y += lh + 3
		}
	}
	return pad + height
}

// nothingToPlay stands in the HUD for the time, rate and timeline of a
// model with nothing to play.
const nothingToPlay = "nothing to play: the file's own pose"

// still says the model has nothing to play: no clip, state or parameter
// to choose and no length. A clip of no length keeps its (bare) timeline.
func still(in *Info) bool {
	return in.Choice == "" && len(in.Choices) == 0 && len(in.Clips) == 0 && len(in.Params) == 0 &&
		!in.HasStates && in.Duration <= 0
}

// drawPlayRows draws the time and frame, the rate and loop mode (and a
// cross-fade) and the timeline from y, and returns the y below them.
func drawPlayRows(p Painter, s *State, in *Info, x, y, width float32) float32 {
	lh := p.LineHeight()
	play := playIcon(s, in)
	p.Mono(x, y, s.line.reset().s(play).s(" ").f(in.Time, 3, 6).s("/").f(in.Duration, 3, 0).s(" s  frame ").
		i(in.Frame, 0).s("/").i(in.Frames, 0).s(" @ ").g(float32(math.Round(float64(in.FPS)*100)/100)).s(" fps").str(), textMain)
	y += lh + 3
	// A cross-fade shows on the rate line, not on a row of its own: the
	// clip list below keeps its place while one runs.
	rx := x + p.Mono(x, y, s.line.reset().s("rate ").s(sign(s.Reverse)).f(float32(math.Abs(float64(s.Rate()))), 2, 0).s("x  ").
		s(in.Loop.String()).s(direction(in, "", "  backward")).str(), textDim)
	if in.Fade != nil && !in.HasStates {
		rx += 2 * pad
		fade := s.line.reset().s("fade ").s(in.Fade.From).s(" → ").s(in.Fade.To).s(" ").f(100*in.Fade.Weight, 0, 0).s("%").str()
		p.Text(rx, y, elideMiddle(p, &s.fit, fade, x+width-2*pad-rx), textMain)
	}
	y += lh + 3
	s.Timeline = Rect{x, y + 2, width - 2*pad, lh - 4}
	drawTimeline(p, s, in, x, y+2, width-2*pad, lh-4)
	y += lh + 3
	return y
}

// drawClipList is the clip browser's list from y down to at most bottom:
// each clip's name, length, blend weight bar and live weight, the
// selected one lit, those in the pose in the accent colour. A list longer
// than the room scrolls to keep the selected clip in view.
func drawClipList(p Painter, s *State, in *Info, y, bottom float32) {
	lh := p.LineHeight()
	row := lh + 3
	x, width := float32(pad), float32(panelWidth)
	visible := min(len(in.Clips), int((bottom-y-2*pad-row)/row))
	if visible < 1 {
		return
	}
	sel := s.Selected % len(in.Clips)
	first := min(max(sel-visible/2, 0), len(in.Clips)-visible)
	height := float32(visible+1)*row + 2*pad
	p.Rect(x, y, width, height, panelBG)
	p.Frame(x, y, width, height, 1, panelLine)
	x, y = x+pad, y+pad
	head := s.line.reset().s("clips (").i(len(in.Clips), 0).s(")")
	if first > 0 || first+visible < len(in.Clips) {
		head.s("  ").i(first+1, 0).s("–").i(first+visible, 0)
	}
	p.Text(x, y, head.str(), textDim)
	p.Text(x+width-2*pad-p.Measure("length  weight   now"), y, "length  weight   now", textDim)
	y += row
	inner := width - 2*pad
	nowX := x + inner - p.MeasureMono("100%")
	bar := Rect{nowX - 8 - 64, 0, 64, 6}
	durX := bar.X - 8 - p.MeasureMono("00.00 s")
	s.Clips = Rect{x - pad, y, width, float32(visible) * row}
	s.ClipFirst, s.RowHeight, s.WeightBar = first, row, bar
	for k := 0; k < visible; k++ {
		i := first + k
		c := &in.Clips[i]
		col := textDim
		if i == sel {
			p.Rect(x-4, y-1, inner+8, lh+2, color.NRGBA{60, 80, 120, 180})
		}
		if c.Live > 0 {
			col = accent
		} else if i == sel {
			col = textMain
		}
		p.Text(x, y, fitText(p, &s.line, c.Name, durX-x-8), col)
		p.Mono(durX, y, s.line.reset().f(c.Duration, 2, 5).s(" s").str(), textDim)
		p.Rect(bar.X, y+lh/2-3, bar.W, bar.H, sliderBG)
		p.Rect(bar.X, y+lh/2-3, bar.W*min(max(c.Blend, 0), 1), bar.H, sliderFG)
		p.Mono(nowX, y, s.line.reset().f(100*c.Live, 0, 3).s("%").str(), col)
		y += row
	}
}

// playIcon is ❚❚ paused or standing still at the end of a clip played
// once (its loop region's, in the way it plays: Space plays it again),
// else ▶ or, playing backwards, ◀.
func playIcon(s *State, in *Info) string {
	switch {
	case !s.Playing || onceEnded(s, in):
		return "❚❚"
	case in.Backward:
		return "◀"
	}
	return "▶"
}

// onceEnded says the clip shown plays once and has reached the end of
// its loop region, or else of the clip, in the way it plays.
func onceEnded(s *State, in *Info) bool {
	lo, hi := float32(0), in.Duration
	if s.LoopOut > s.LoopIn {
		lo, hi = s.LoopIn, s.LoopOut
	}
	return in.Loop == anim.Once && hi > lo && ((!in.Backward && in.Time >= hi) || (in.Backward && in.Time <= lo))
}

// direction is fwd or, when the clip shown plays backwards, back.
func direction(in *Info, fwd, back string) string {
	if in.Backward {
		return back
	}
	return fwd
}

func sign(rev bool) string {
	if rev {
		return "-"
	}
	return ""
}

// drawTimeline is the bar with the loop region, key marks, the fade and
// the play head.
func drawTimeline(p Painter, s *State, in *Info, x, y, w, h float32) {
	p.Rect(x, y, w, h, sliderBG)
	if in.Duration <= 0 {
		return
	}
	at := func(t float32) float32 { return x + w*min(max(t/in.Duration, 0), 1) }
	if s.LoopOut > s.LoopIn {
		p.Rect(at(s.LoopIn), y, at(s.LoopOut)-at(s.LoopIn), h, loopFill)
	}
	col := math.MinInt
	for _, k := range in.Keys {
		// Every key, keys in one pixel column merged into one mark.
		kx := at(k)
		if c := int(math.Floor(float64(kx))); c != col {
			col = c
			p.Line(kx, y+h-4, kx, y+h, 1, keyMark)
		}
	}
	for _, m := range in.Markers {
		// A tick through the bar and a dot above it.
		mx := at(m.Time)
		p.Line(mx, y-3, mx, y+h, 1, eventMark)
		p.Disc(mx, y-3, 2.5, eventMark)
	}
	if in.Fade != nil {
		p.Rect(x, y, w*in.Fade.Weight, 3, fadeFill)
	}
	hx := at(in.Time)
	p.Line(hx, y-2, hx, y+h+2, 2, playHead)
}

// drawHoverTag is the time and frame under the pointer over the timeline
// (s.Timeline, as last drawn), in a tag below the bar: drawn after every
// panel, which it may overlap.
func drawHoverTag(p Painter, s *State, in *Info) {
	x, y, w, h := s.Timeline.X, s.Timeline.Y, s.Timeline.W, s.Timeline.H
	if s.hover < 0 || !(in.FPS > 0) || !(w > 0) || in.Duration <= 0 {
		return
	}
	t := in.Duration * min(max((s.hover-x)/w, 0), 1)
	tag := s.line.reset().f(t, 3, 0).s(" s  frame ").i(int(FrameAt(t, 1/in.FPS)), 0).str()
	tw := p.MeasureMono(tag)
	lh := p.LineHeight()
	tx := min(max(s.hover-tw/2, x), x+w-tw)
	p.Line(s.hover, y, s.hover, y+h, 1, textMain)
	p.Rect(tx-4, y+h+4, tw+8, lh+4, color.NRGBA{18, 20, 26, 235})
	p.Mono(tx, y+h+6, tag, textMain)
}

// drawMorph is the morph panel, its right edge at x, from y down to at
// most bottom: the title, then per target its name, a bar of its weight
// (0 to 1) and the value, pinned ones marked; the selected one lit. A long
// list scrolls to keep the selected target in view.
func drawMorph(p Painter, s *State, mp *MorphPanel, x, y, bottom float32) {
	lh := p.LineHeight()
	row := lh + 3
	width := float32(300)
	n := len(mp.Rows)
	visible := min(n, int((bottom-y-2*pad-row)/row))
	if visible < 1 || n == 0 {
		return
	}
	sel := s.MorphSel % n
	first := min(max(sel-visible/2, 0), n-visible)
	x -= width
	height := float32(visible+1)*row + 2*pad
	p.Rect(x, y, width, height, panelBG)
	p.Frame(x, y, width, height, 1, panelLine)
	x, y = x+pad, y+pad
	p.Text(x, y, elideMiddle(p, &s.line, mp.Title, width-2*pad), textDim)
	y += row
	inner := width - 2*pad
	valX := x + inner - p.MeasureMono("-0.00 pin")
	bar := Rect{valX - 8 - 80, 0, 80, 6}
	s.Morphs = Rect{x - pad, y, width, float32(visible) * row}
	s.MorphFirst, s.RowHeight, s.MorphBar = first, row, bar
	for k := range visible {
		i := first + k
		r := &mp.Rows[i]
		col := textDim
		if i == sel {
			p.Rect(x-4, y-1, inner+8, lh+2, color.NRGBA{60, 80, 120, 180})
			col = textMain
		}
		if r.Weight != 0 {
			col = accent
		}
		p.Text(x, y, elideMiddle(p, &s.line, r.Name, bar.X-x-8), col)
		p.Rect(bar.X, y+lh/2-3, bar.W, bar.H, sliderBG)
		fill := sliderFG
		if r.Pinned {
			fill = accent
		}
		p.Rect(bar.X, y+lh/2-3, bar.W*min(max(r.Weight, 0), 1), bar.H, fill)
		l := s.line.reset().f(r.Weight, 2, 5)
		if r.Pinned {
			l.s(" pin")
		}
		p.Mono(valX, y, l.str(), col)
		y += row
	}
}

// drawJoint is the joint inspector's box, its right edge at x; it returns
// the box's height.
func drawJoint(p Painter, l *line, j *JointInfo, x, y float32) float32 {
	lh := p.LineHeight()
	width := 8*p.MeasureMono("0") + 3*p.MeasureMono("-0.000 ") + 2*pad
	width = max(width, p.Measure(j.Name)+p.Measure("joint: ")+2*pad)
	x -= width
	height := 9*(lh+2) + 2*pad
	p.Rect(x, y, width, height, panelBG)
	p.Frame(x, y, width, height, 1, panelLine)
	x, y = x+pad, y+pad
	l.reset().s("joint: ").s(j.Name)
	p.Text(x, y, l.str(), accent)
	y += lh + 2
	if j.Parent != "" {
		p.Text(x, y, l.reset().s("parent: ").s(j.Parent).str(), textDim)
	} else {
		p.Text(x, y, "a root", textDim)
	}
	row := func(label string, v []float32, c color.NRGBA) {
		y += lh + 2
		l.reset().s(label)
		for _, c := range v {
			l.s(" ").f(c, 3, 6)
		}
		p.Mono(x, y, l.str(), c)
	}
	// Local, then world: translation, rotation (x y z w), scale.
	row("T", j.T[:], textMain)
	row("R", j.R[:], textMain)
	row("S", j.S[:], textMain)
	y += lh + 2
	p.Text(x, y, "world", textDim)
	row("T", j.World[:], textDim)
	row("R", j.WorldR[:], textDim)
	row("S", j.WorldS[:], textDim)
	return height
}

// drawSlider is one parameter: name, bar, value; the selected one lit.
func drawSlider(p Painter, l *line, prm graph.Param, selected bool, x, y, w float32) {
	lh := p.LineHeight()
	l.reset()
	col := textDim
	fill := sliderFG
	if selected {
		p.Rect(x-4, y-1, w+8, lh+2, color.NRGBA{60, 80, 120, 180})
		l.s("► ")
		col = textMain
		fill = accent
	}
	p.Text(x, y, l.s(prm.Name).str(), col)
	bx, bw := x+120, w-120-56
	p.Rect(bx, y+lh/2-3, bw, 6, sliderBG)
	if prm.Max > prm.Min {
		f := (prm.Value - prm.Min) / (prm.Max - prm.Min)
		p.Rect(bx, y+lh/2-3, bw*min(max(f, 0), 1), 6, fill)
	}
	p.Mono(x+w-50, y, l.reset().f(prm.Value, 2, 6).str(), col)
}

// drawStats draws the frame statistics bottom-left and returns how much
// higher than one line they reach: a crowd's level-of-detail counts that
// would run past the framebuffer's right edge (w) go on a line of their
// own above the rest.
func drawStats(p Painter, l *line, in *Info, w, h int) float32 {
	lh := p.LineHeight()
	st := in.Stats
	l.reset()
	if st.Timed {
		l.f(st.FPS, 0, 3).s(" fps  anim ").f(st.AnimMs, 2, 0).s(" ms  render ").f(st.RenderMs, 2, 0).s(" ms  ")
	}
	l.s("draws ").i(st.DrawCalls, 0).s("  parts ").i(st.Parts, 0).s("  joints ").i(st.Joints, 0).
		s("  verts ").i(st.Vertices, 0)
	split := len(l.b)
	if st.Crowd {
		l.s("  every frame ").i(st.LOD[0], 0).s(" 2nd ").i(st.LOD[1], 0).s(" 4th ").i(st.LOD[2], 0).s("  out of view ").i(st.Culled, 0)
	}
	all := l.str()
	y := float32(h) - lh - pad
	var rise float32
	if p.MeasureMono(all)+3*pad > float32(w) && split < len(all) {
		rise = lh + 8
		crowd := strings.TrimLeft(all[split:], " ")
		p.Rect(pad, y-rise-4, p.MeasureMono(crowd)+2*pad, lh+8, panelBG)
		p.Mono(2*pad, y-rise, crowd, textDim)
		all = all[:split]
	}
	p.Rect(pad, y-4, p.MeasureMono(all)+2*pad, lh+8, panelBG)
	p.Mono(2*pad, y, all, textDim)
	return rise
}

// drawSpace plots a 2D blend space in a 180×180 box.
func drawSpace(p Painter, l *line, sp *Space2D, x, y float32) {
	const size = 180
	p.Rect(x, y, size, size, panelBG)
	p.Frame(x, y, size, size, 1, panelLine)
	if len(sp.Points) == 0 {
		return
	}
	lo, hi := sp.Points[0], sp.Points[0]
	for _, q := range sp.Points {
		lo = [2]float32{min(lo[0], q[0]), min(lo[1], q[1])}
		hi = [2]float32{max(hi[0], q[0]), max(hi[1], q[1])}
	}
	span := [2]float32{max(hi[0]-lo[0], 1e-6), max(hi[1]-lo[1], 1e-6)}
	in := float32(24)
	at := func(q [2]float32) (float32, float32) {
		return x + in + (q[0]-lo[0])/span[0]*(size-2*in), y + size - in - (q[1]-lo[1])/span[1]*(size-2*in)
	}
	if sp.Rect {
		x0, y0 := at(lo)
		x1, y1 := at(hi)
		p.Frame(min(x0, x1), min(y0, y1), max(x1-x0, x0-x1), max(y1-y0, y0-y1), 1, panelLine)
	}
	for _, t := range sp.Triangles {
		for k := 0; k < 3; k++ {
			ax, ay := at(sp.Points[t[k]])
			bx, by := at(sp.Points[t[(k+1)%3]])
			p.Line(ax, ay, bx, by, 1, panelLine)
		}
	}
	for _, q := range sp.Points {
		px, py := at(q)
		p.Disc(px, py, 4, color.NRGBA{110, 210, 120, 255})
	}
	cx, cy := at(sp.Current)
	p.Disc(cx, cy, 5, accent)
	p.Text(x+4, y+2, l.reset().s(sp.XParam).s(" / ").s(sp.YParam).str(), textDim)
}

// drawHelp is the key map over a dimmed screen: one column where the
// window is tall enough, else as many as it takes, their descriptions cut
// to fit.
func drawHelp(p Painter, l *line, w, h int) {
	lh := p.LineHeight()
	p.Rect(0, 0, float32(w), float32(h), color.NRGBA{0, 0, 0, 120})
	col := float32(0)
	for _, k := range KeyMap {
		col = max(col, p.Measure(k[0]))
	}
	text := float32(0)
	for _, k := range KeyMap {
		text = max(text, p.Measure(k[1]))
	}
	// Rows close up to fit a short window, down to the text's own height;
	// below that the map takes more columns.
	fit := max(int((float32(h)-4*pad)/lh)-2, 1)
	cols := (len(KeyMap) + fit - 1) / fit
	rows := (len(KeyMap) + cols - 1) / cols
	row := max(min(lh+2, (float32(h)-4*pad)/float32(rows+2)), lh)
	colW := col + 24 + text
	if cols > 1 {
		colW = min(colW, (float32(w)-4*pad-float32(cols-1)*2*pad)/float32(cols))
	}
	width := float32(cols)*colW + float32(cols-1)*2*pad
	height := float32(rows+2) * row
	x0 := max((float32(w)-width)/2, 2*pad)
	y0 := max((float32(h)-height)/2, 2*pad)
	p.Rect(x0-pad, y0-pad, width+2*pad, height+2*pad, color.NRGBA{18, 20, 26, 235})
	p.Frame(x0-pad, y0-pad, width+2*pad, height+2*pad, 1, panelLine)
	p.Text(x0, y0, "Keys", accent)
	for i, k := range KeyMap {
		x := x0 + float32(i/rows)*(colW+2*pad)
		y := y0 + float32(2+i%rows)*row
		p.Text(x, y, k[0], textMain)
		p.Text(x+col+24, y, fitText(p, l, k[1], colW-col-24), textDim)
	}
}
