package ui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"
)

// TestClipListLayout: under the main panel (which ends at 8 + 5 × 20 +
// 24 = 132) the list starts a pad lower, at 140: a header row, then a
// row per clip 20 px apart, 2 pads of margin. Right to left in a row:
// the live weight in 4 mono characters ending at the inner edge (16 +
// 324 = 340, so from 308), 8 px, the 64 px weight bar (236…300), 8 px,
// the length in 7 mono characters (from 172), and the name, cut 8 px
// before it.
func TestClipListLayout(t *testing.T) {
	s := NewState()
	s.Selected = 4 // of 3: the second
	in := &Info{Model: "m", Clips: []ClipRow{
		{Name: "Idle", Duration: 1.5, Blend: 0.25},
		{Name: "Run", Duration: 0.8, Live: 0.6, Blend: 1.5},
		{Name: "Walk_cycle_with_a_long_name", Duration: 12.25, Blend: -0.5}}}
	tp := &tape{}
	Draw(tp, &s, in, 1280, 720)
	drawn(t, tp,
		rect(8, 140, 340, 96, panelBG), frame(8, 140, 340, 96),
		text(16, 148, "clips (3)", textDim), text(200, 148, "length  weight   now", textDim),
		text(16, 168, "Idle", textDim), mono(172, 168, " 1.50 s", textDim),
		rect(236, 173.5, 64, 6, sliderBG), rect(236, 173.5, 16, 6, sliderFG), mono(308, 168, "  0%", textDim),
		rect(12, 187, 332, 19, lit), text(16, 188, "Run", accent), mono(172, 188, " 0.80 s", textDim),
		rect(236, 193.5, 64, 6, sliderBG), rect(236, 193.5, 64, 6, sliderFG), mono(308, 188, " 60%", accent),
		// 148 px for the name: 127 once "…" is out, 18 bytes.
		text(16, 208, "Walk_cycle_with_a_…", textDim), mono(172, 208, "12.25 s", textDim),
		rect(236, 213.5, 0, 6, sliderFG), mono(308, 208, "  0%", textDim))
	if want := (Rect{8, 168, 340, 60}); s.Clips != want || s.ClipFirst != 0 || s.RowHeight != 20 ||
		s.WeightBar != (Rect{236, 0, 64, 6}) {
		t.Errorf("rows at %+v from %d, %v apart, bar %+v; want %+v from 0, 20 apart, bar {236 0 64 6}",
			s.Clips, s.ClipFirst, s.RowHeight, s.WeightBar, want)
	}
	// The selected clip, not playing, is in the main text colour.
	in.Clips[1].Live = 0
	tp = &tape{}
	Draw(tp, &s, in, 1280, 720)
	drawn(t, tp, text(16, 188, "Run", textMain), mono(308, 188, "  0%", textMain))
}

// rowColour is a list row's text colour, not playing: lit when selected.
func rowColour(selected bool) color.NRGBA {
	if selected {
		return textMain
	}
	return textDim
}

// TestClipListScrollsAndFolds: a list longer than the room keeps the
// selected clip mid-list, within the list's ends, and says which rows
// show; where not even one row fits there is no list.
func TestClipListScrollsAndFolds(t *testing.T) {
	var clips []ClipRow
	for i := range 30 {
		clips = append(clips, ClipRow{Name: fmt.Sprintf("c%02d", i)})
	}
	// 400 px high: the list may reach 400 − 34 − 24 = 342; from 140,
	// (342 − 140 − 16 − 20) / 20 = 8.3, so 8 rows.
	for _, tc := range []struct {
		sel, first int
		head       string
	}{{0, 0, "clips (30)  1–8"}, {20, 16, "clips (30)  17–24"}, {29, 22, "clips (30)  23–30"}, {4, 0, "clips (30)  1–8"}, {5, 1, "clips (30)  2–9"}} {
		s := NewState()
		s.Selected = tc.sel
		tp := &tape{}
		Draw(tp, &s, &Info{Model: "m", Clips: clips}, 1280, 400)
		drawn(t, tp, rect(8, 140, 340, 196, panelBG), text(16, 148, tc.head, textDim),
			text(16, 168, fmt.Sprintf("c%02d", tc.first), rowColour(tc.first == tc.sel)),
			text(16, 308, fmt.Sprintf("c%02d", tc.first+7), rowColour(tc.first+7 == tc.sel)))
		if s.ClipFirst != tc.first || s.Clips.H != 160 {
			t.Errorf("selected %d: rows from %d, %v high; want from %d, 160", tc.sel, s.ClipFirst, s.Clips.H, tc.first)
		}
		absent(t, tp, fmt.Sprintf("text 16 328 %q", fmt.Sprintf("c%02d", tc.first+8)))
	}
	// 260 px: (202 − 176) / 20 = 1.3, one row; 250 px: 0.8, none.
	s := NewState()
	Draw(&tape{}, &s, &Info{Model: "m", Clips: clips}, 1280, 260)
	if s.Clips != (Rect{8, 168, 340, 20}) {
		t.Errorf("260 px high: rows at %+v; want one at {8 168 340 20}", s.Clips)
	}
	tp := &tape{}
	Draw(tp, &s, &Info{Model: "m", Clips: clips}, 1280, 250)
	if s.Clips != (Rect{}) {
		t.Errorf("250 px high: rows at %+v; want none", s.Clips)
	}
	absent(t, tp, "text 16 148")
}

// TestMorphLayout: the morph panel, 300 px wide, its right edge a pad
// from the window's: x 972. Its rows start after the title (y 36); the
// value ends at the inner edge in 9 mono characters (from 1192), the 80
// px bar 8 px before it (1104).
func TestMorphLayout(t *testing.T) {
	s := NewState()
	s.MorphSel = 4 // of 3: the second
	mp := &MorphPanel{Title: "Face", Rows: []MorphRow{
		{Name: "smile", Weight: 0.5}, {Name: "blink", Pinned: true}, {Name: "frown", Weight: -0.25, Pinned: true}}}
	tp := &tape{}
	Draw(tp, &s, &Info{Model: "m", Morph: mp}, 1280, 720)
	drawn(t, tp,
		rect(972, 8, 300, 96, panelBG), frame(972, 8, 300, 96),
		text(980, 16, "Face", textDim),
		text(980, 36, "smile", accent), rect(1104, 41.5, 80, 6, sliderBG), rect(1104, 41.5, 40, 6, sliderFG),
		mono(1192, 36, " 0.50", accent),
		rect(976, 55, 292, 19, lit), text(980, 56, "blink", textMain), rect(1104, 61.5, 80, 6, sliderBG),
		rect(1104, 61.5, 0, 6, accent), mono(1192, 56, " 0.00 pin", textMain),
		text(980, 76, "frown", accent), rect(1104, 81.5, 0, 6, accent), mono(1192, 76, "-0.25 pin", accent))
	if s.Morphs != (Rect{972, 36, 300, 60}) || s.MorphFirst != 0 || s.RowHeight != 20 || s.MorphBar != (Rect{1104, 0, 80, 6}) {
		t.Errorf("morph rows %+v from %d, %v apart, bar %+v", s.Morphs, s.MorphFirst, s.RowHeight, s.MorphBar)
	}
	// A weight over 1 fills the bar, no more.
	mp.Rows[0].Weight = 1.5
	tp = &tape{}
	Draw(tp, &s, &Info{Model: "m", Morph: mp}, 1280, 720)
	drawn(t, tp, rect(1104, 41.5, 80, 6, sliderFG))
	// A long title is cut in its middle to 284 px: 263 once "…" is out,
	// the end at most half (18 bytes), the start the rest (19); a name
	// to the 116 px before the bar: 95, so 6 bytes of the end and 7 of
	// the start.
	tp = &tape{}
	title := strings.Repeat("t", 30) + strings.Repeat("u", 30)
	Draw(tp, &s, &Info{Model: "m", Morph: &MorphPanel{Title: title, Rows: []MorphRow{{Name: "abcdefghijklmnopqrstuvwxyz"}}}}, 1280, 720)
	drawn(t, tp, text(980, 16, strings.Repeat("t", 19)+"…"+strings.Repeat("u", 18), textDim),
		text(980, 36, "abcdefg…uvwxyz", textMain))
	// No rows, or no room for one: no panel.
	for _, tc := range []struct {
		rows int
		h    int
	}{{0, 720}, {3, 90}} {
		s := NewState()
		tp := &tape{}
		Draw(tp, &s, &Info{Model: "m", Morph: &MorphPanel{Title: "Face", Rows: mp.Rows[:tc.rows]}}, 1280, tc.h)
		absent(t, tp, "rect 972 ")
		if s.Morphs != (Rect{}) {
			t.Errorf("%d rows, %d px: morph rows at %+v", tc.rows, tc.h, s.Morphs)
		}
	}
}

// TestMorphScrolls: 40 targets in 720 px: (662 − 8 − 16 − 20) / 20 =
// 30.9, 30 rows, the selected one mid-list within the ends.
func TestMorphScrolls(t *testing.T) {
	mp := &MorphPanel{Title: "Face"}
	for i := range 40 {
		mp.Rows = append(mp.Rows, MorphRow{Name: fmt.Sprintf("m%02d", i)})
	}
	for _, tc := range []struct{ sel, first int }{{0, 0}, {15, 0}, {16, 1}, {39, 10}} {
		s := NewState()
		s.MorphSel = tc.sel
		tp := &tape{}
		Draw(tp, &s, &Info{Model: "m", Morph: mp}, 1280, 720)
		if s.MorphFirst != tc.first || s.Morphs.H != 600 {
			t.Errorf("selected %d: rows from %d, %v high; want from %d, 600", tc.sel, s.MorphFirst, s.Morphs.H, tc.first)
		}
		drawn(t, tp, rect(972, 8, 300, 636, panelBG), text(980, 36, fmt.Sprintf("m%02d", tc.first), rowColour(tc.first == tc.sel)))
	}
}

// TestJointLayout: the inspector is 8 + 3 × 7 mono characters and 2
// pads wide (248), or its title's width and 2 pads where wider; 9 rows
// of lh + 2 and 2 pads high (187); right-aligned a pad from the edge.
// With a blend space above it, it starts 180 + 8 lower; the morph panel
// follows it a pad below.
func TestJointLayout(t *testing.T) {
	j := &JointInfo{Name: "hips", Parent: "root", T: [3]float32{1, -2.5, 0}, R: [4]float32{0, 0, 0, 1},
		S: [3]float32{1, 1, 1}, World: [3]float32{0.5, 1, 2}, WorldR: [4]float32{0, 0.5, 0, 0.5}, WorldS: [3]float32{-1, 1, 1}}
	s := NewState()
	tp := &tape{}
	Draw(tp, &s, &Info{Model: "m", Joint: j}, 1280, 720)
	drawn(t, tp,
		rect(1024, 8, 248, 187, panelBG), frame(1024, 8, 248, 187),
		text(1032, 16, "joint: hips", accent), text(1032, 35, "parent: root", textDim),
		mono(1032, 54, "T  1.000 -2.500  0.000", textMain),
		mono(1032, 73, "R  0.000  0.000  0.000  1.000", textMain),
		mono(1032, 92, "S  1.000  1.000  1.000", textMain),
		text(1032, 111, "world", textDim),
		mono(1032, 130, "T  0.500  1.000  2.000", textDim),
		mono(1032, 149, "R  0.000  0.500  0.000  0.500", textDim),
		mono(1032, 168, "S -1.000  1.000  1.000", textDim))
	// A root; a name of 30 bytes: 210 + 49 + 16 = 275 wide.
	j.Name, j.Parent = strings.Repeat("n", 30), ""
	mp := &MorphPanel{Title: "Face", Rows: []MorphRow{{Name: "smile"}}}
	tp = &tape{}
	Draw(tp, &s, &Info{Model: "m", Joint: j, Morph: mp, Space: &Space2D{}}, 1280, 720)
	drawn(t, tp,
		rect(1092, 8, 180, 180, panelBG),
		rect(997, 196, 275, 187, panelBG), text(1005, 223, "a root", textDim),
		rect(972, 391, 300, 56, panelBG))
}

// TestSpaceLayout: the blend space's box is 180 px square a pad from the
// top right (x 1092); its points span it less 24 px each side, y up: x
// 1116 + 132 (px − lo) / spanX, y 164 − 132 (py − lo) / spanY; here lo is
// (1, 1) and the span (2, 1).
func TestSpaceLayout(t *testing.T) {
	green := color.NRGBA{110, 210, 120, 255}
	sp := &Space2D{XParam: "speed", YParam: "turn", Points: [][2]float32{{3, 2}, {1, 1}, {3, 1}, {1, 2}},
		Triangles: [][3]int{{0, 1, 2}}, Rect: true, Current: [2]float32{2, 1.5}}
	s := NewState()
	tp := &tape{}
	Draw(tp, &s, &Info{Model: "m", Space: sp}, 1280, 720)
	drawn(t, tp,
		rect(1092, 8, 180, 180, panelBG), frame(1092, 8, 180, 180),
		frame(1116, 32, 132, 132),
		seg(1248, 32, 1116, 164, 1, panelLine), seg(1116, 164, 1248, 164, 1, panelLine), seg(1248, 164, 1248, 32, 1, panelLine),
		disc(1248, 32, 4, green), disc(1116, 164, 4, green), disc(1248, 164, 4, green), disc(1116, 32, 4, green),
		disc(1182, 98, 5, accent), text(1096, 10, "speed / turn", textDim))
	// Not a rectangle: no inner frame.
	sp.Rect = false
	tp = &tape{}
	Draw(tp, &s, &Info{Model: "m", Space: sp}, 1280, 720)
	absent(t, tp, "frame 1116 ")
	// A span of 2 both ways: (3, 3) from (1, 1) is the top right corner.
	tp = &tape{}
	Draw(tp, &s, &Info{Model: "m", Space: &Space2D{Points: [][2]float32{{1, 1}, {3, 3}}, Current: [2]float32{2, 2}}}, 1280, 720)
	drawn(t, tp, disc(1116, 164, 4, green), disc(1248, 32, 4, green), disc(1182, 98, 5, accent))
	// One point: no span, it sits at the low corner.
	tp = &tape{}
	Draw(tp, &s, &Info{Model: "m", Space: &Space2D{Points: [][2]float32{{3, 3}}, Current: [2]float32{3, 3}}}, 1280, 720)
	drawn(t, tp, disc(1116, 164, 4, green), disc(1116, 164, 5, accent))
}

// TestHelpLayout: the key map, here three made-up keys (names 7 and 14
// px, descriptions up to 70), 24 px between the columns of names and
// descriptions: 108 px a column. Rows are lh + 2 apart, two rows for the
// title; the box a pad round it.
func TestHelpLayout(t *testing.T) {
	saved := KeyMap
	defer func() { KeyMap = saved }()
	KeyMap = [][2]string{{"A", "one"}, {"BB", "abcdefghij"}, {"C", "x"}}
	dim, box := color.NRGBA{0, 0, 0, 120}, color.NRGBA{18, 20, 26, 235}

	// 1280 × 720: (720 − 32) / 17 − 2 = 38 rows fit, one column, 5 rows
	// 19 px apart: 108 × 95, centred at (586, 312.5).
	s := NewState()
	s.HUD, s.Help = false, true
	tp := &tape{}
	Draw(tp, &s, &Info{}, 1280, 720)
	drawn(t, tp, rect(0, 0, 1280, 720, dim), rect(578, 304.5, 124, 111, box), frame(578, 304.5, 124, 111),
		text(586, 312.5, "Keys", accent),
		text(586, 350.5, "A", textMain), text(624, 350.5, "one", textDim),
		text(586, 369.5, "BB", textMain), text(624, 369.5, "abcdefghij", textDim),
		text(586, 388.5, "C", textMain), text(624, 388.5, "x", textDim))

	// 600 × 110: int(78 / 17) − 2 = 2 rows fit, so 2 columns of 2 rows,
	// min(19, 78 / 4) = 19 apart; 2 × 108 + 16 = 232 wide, 76 high, at
	// (184, 17).
	tp = &tape{}
	Draw(tp, &s, &Info{}, 600, 110)
	drawn(t, tp, rect(176, 9, 248, 92, box), text(184, 17, "Keys", accent),
		text(184, 55, "A", textMain), text(184, 74, "BB", textMain),
		text(308, 55, "C", textMain), text(346, 55, "x", textDim))

	// 600 × 104: 2 columns of 2 rows again, closed up to 72 / 4 = 18 px
	// apart: 72 high at y (104 − 72) / 2 = 16.
	tp = &tape{}
	Draw(tp, &s, &Info{}, 600, 104)
	drawn(t, tp, rect(176, 8, 248, 88, box), text(184, 16, "Keys", accent),
		text(184, 52, "A", textMain), text(184, 70, "BB", textMain), text(308, 52, "C", textMain))

	// 200 × 110: the columns shrink to (200 − 32 − 16) / 2 = 76, leaving
	// 38 px for a description: "ab…".
	tp = &tape{}
	Draw(tp, &s, &Info{}, 200, 110)
	drawn(t, tp, rect(8, 9, 184, 92, box),
		text(16, 55, "A", textMain), text(54, 55, "one", textDim),
		text(54, 74, "ab…", textDim), text(108, 55, "C", textMain))

	// 600 × 60: no room even for one row a column: one row of 3 columns,
	// rows closed up to the text's height (17).
	tp = &tape{}
	Draw(tp, &s, &Info{}, 600, 60)
	// 3 × 108 + 2 × 16 = 356 wide at x 122; 3 × 17 = 51 high at y 16.
	drawn(t, tp, rect(114, 8, 372, 67, box),
		text(122, 50, "A", textMain), text(246, 50, "BB", textMain), text(370, 50, "C", textMain))
}

// TestCompactLayout: below 700 px (at line height 17) the HUD is one line
// and the timeline: a box a pad in, 2 lines and 1.5 pads high, the line
// a half and a quarter pad in, the timeline under it half a line high.
func TestCompactLayout(t *testing.T) {
	s := NewState()
	in := &Info{Model: "m", Mode: "clip", Choice: "Walk", Time: 0.5, Duration: 2, Frame: 15, Frames: 60, FPS: 30,
		Clips: []ClipRow{{Name: "Walk"}}, Morph: &MorphPanel{Rows: []MorphRow{{Name: "a"}}}, Space: &Space2D{}, Joint: &JointInfo{}}
	tp := &tape{}
	Draw(tp, &s, in, 600, 400)
	drawn(t, tp, rect(8, 8, 584, 46, panelBG), mono(12, 10, "▶ Walk  0.500/2.000 s  frame 15/60", textMain),
		rect(12, 29, 576, 8.5, sliderBG), seg(156, 27, 156, 39.5, 2, playHead))
	if s.Timeline != (Rect{12, 29, 576, 8.5}) || s.Clips != (Rect{}) || s.Morphs != (Rect{}) {
		t.Errorf("one-line HUD: timeline %+v, clips %+v, morphs %+v; want the timeline at {12 29 576 8.5} and no lists",
			s.Timeline, s.Clips, s.Morphs)
	}
	if len(tp.ops) != 4 {
		t.Errorf("one-line HUD: %d calls, want the box, the line, the bar and the play head:\n%s", len(tp.ops), strings.Join(tp.ops, "\n"))
	}
	in.Missing = "no animation"
	s.Playing = false
	tp = &tape{}
	Draw(tp, &s, in, 699, 400)
	drawn(t, tp, mono(12, 10, "❚❚ no animation  0.500/2.000 s  frame 15/60", textMain))
	// At 700 px the full panel.
	tp = &tape{}
	Draw(tp, &s, in, 700, 400)
	drawn(t, tp, rect(8, 8, 340, 124, panelBG))
	// A hidden HUD draws nothing and leaves no timeline to click.
	s.HUD = false
	tp = &tape{}
	Draw(tp, &s, in, 600, 400)
	if len(tp.ops) != 0 || s.Timeline != (Rect{}) {
		t.Errorf("hidden HUD: timeline %+v, calls:\n%s", s.Timeline, strings.Join(tp.ops, "\n"))
	}
}

// TestCompactBar: the one-line HUD covers a pad, 2 lines, 1.5 pads and
// half a pad: 58 px at line height 17, 92 at 34; nothing where the HUD
// is full (700 px at 17, 1400 at 34).
func TestCompactBar(t *testing.T) {
	for _, tc := range []struct {
		lh   float32
		w    int
		want float32
	}{{17, 600, 58}, {17, 699, 58}, {17, 700, 0}, {34, 1399, 92}, {34, 1400, 0}} {
		if got := CompactBar(tc.lh, tc.w); got != tc.want {
			t.Errorf("line height %v, %d px: %v, want %v", tc.lh, tc.w, got, tc.want)
		}
	}
}

// TestPanelInsetBoundary: the left column is 356 px at line height 17:
// a quarter of 1424 px exactly, which keeps the whole picture; at 1423
// px it covers 356/1423. At line height 34 (712 px) the one-line HUD
// starts at 1400.
func TestPanelInsetBoundary(t *testing.T) {
	for _, tc := range []struct {
		lh   float32
		w    int
		want float32
	}{{17, 1424, 0}, {17, 1423, 356.0 / 1423}, {17, 700, 356.0 / 700}, {34, 1400, 712.0 / 1400}, {34, 1399, 0}, {34, 2848, 0}} {
		if got := PanelInset(tc.lh, tc.w); got != tc.want {
			t.Errorf("line height %v, %d px: %v, want %v", tc.lh, tc.w, got, tc.want)
		}
	}
}

// TestHelpNarrowColumn: in a window too narrow for its one column (100 ×
// 720) the key map keeps the column's width (108) and starts 2 pads in.
func TestHelpNarrowColumn(t *testing.T) {
	saved := KeyMap
	defer func() { KeyMap = saved }()
	KeyMap = [][2]string{{"A", "one"}, {"BB", "abcdefghij"}, {"C", "x"}}
	s := NewState()
	s.HUD, s.Help = false, true
	tp := &tape{}
	Draw(tp, &s, &Info{}, 100, 720)
	drawn(t, tp, rect(8, 304.5, 124, 111, color.NRGBA{18, 20, 26, 235}), text(16, 312.5, "Keys", accent),
		text(54, 369.5, "abcdefghij", textDim))
}
