package main

import (
	"bytes"
	"encoding/json"
	"image/gif"
	"os"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/app"
)

// TestRecordGIF records the built-in Walk (1 s keyed at 30 fps) as a GIF:
// 30 frames at the clip's rate, the end left out so that the loop does not
// show its first pose twice, 100 hundredths in all.
func TestRecordGIF(t *testing.T) {
	g := recordGIF(t, options{clip: "Walk", to: -1})
	sum := 0
	for _, d := range g.Delay {
		sum += d
	}
	if len(g.Image) != 30 || sum != 100 {
		t.Fatalf("%d frames over %d hundredths of a second; want 30 over 100", len(g.Image), sum)
	}
}

// TestRecordGIFPart: a part of a clip keeps its last frame, which is no
// repeat of its first (the whole clip's is, and is dropped).
func TestRecordGIFPart(t *testing.T) {
	if g := recordGIF(t, options{clip: "Walk", from: 0.2, to: 0.5, fps: 10}); len(g.Image) != 4 {
		t.Fatalf("0.2 s to 0.5 s at 10 fps: %d frames, want 4", len(g.Image))
	}
}

// TestRecordCrowdMoves: -crowd with -record poses every member at each
// frame's time; it drew the first pose 30 times over.
func TestRecordCrowdMoves(t *testing.T) {
	g := recordGIF(t, options{clip: "Walk", crowd: 4, to: -1})
	same := 0
	for i := 1; i < len(g.Image); i++ {
		if bytes.Equal(g.Image[i].Pix, g.Image[i-1].Pix) {
			same++
		}
	}
	if len(g.Image) != 30 || same > 0 {
		t.Fatalf("%d frames, %d the same as the one before; want 30 frames of a walking crowd", len(g.Image), same)
	}
}

// recordGIF records an animated GIF under opt and decodes it.
func recordGIF(t *testing.T, opt options) *gif.GIF {
	t.Helper()
	out := t.TempDir() + "/rec.gif"
	withApp(t, opt, func(a *app.App) error {
		return a.Record(out)
	})
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// firedEvents parses -events lines.
func firedEvents(t *testing.T, out string) []string {
	t.Helper()
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var e struct {
			T     float32
			Clip  string
			Event string
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.Clip != "Walk" {
			t.Errorf("event line %q: %v", l, err)
		}
		names = append(names, e.Event)
	}
	return names
}

// TestRecordFiresEvents: -record with -events plays 2 s at the spec's rate
// 1.7: the clip time runs 0 → 3.4 s through three loops and passes the
// markers at 0.1, 0.6, 1.1, … 3.1 s; reversed, 0 → −3.4 s passes 0.6
// (−0.4), 0.1 (−0.9), … down to −3.4 itself.
func TestRecordFiresEvents(t *testing.T) {
	spec := tempFile(t, "events.json", []byte(eventSpec))
	for _, tc := range []struct {
		rate float64
		want string
	}{
		{1, "step_l step_r step_l step_r step_l step_r step_l"},
		{-1, "step_r step_l step_r step_l step_r step_l step_r"},
	} {
		var out bytes.Buffer
		withApp(t, options{tree: spec, events: true, rate: tc.rate, to: 2, fps: 30}, func(a *app.App) error {
			a.Stdout = &out
			return a.Record(t.TempDir())
		})
		if got := strings.Join(firedEvents(t, out.String()), " "); got != tc.want {
			t.Errorf("rate %v: fired %q, want %q", tc.rate, got, tc.want)
		}
	}
}

// TestFrameStepsFireEventsSeeksDoNot: paused, three frame steps from 0
// reach 0.1 s and fire step_l; a step back and forward again fires it
// once more (going forward onto it); Home, End and a timeline click are
// seeks and fire nothing.
func TestFrameStepsFireEventsSeeksDoNot(t *testing.T) {
	spec := tempFile(t, "events.json", []byte(eventSpec))
	withApp(t, options{tree: spec, events: true, width: 800, height: 600}, func(a *app.App) error {
		var out bytes.Buffer
		a.Stdout = &out
		if err := a.Draw(); err != nil {
			return err
		}
		keys(t, a, "space,home,right*3")
		if got := firedEvents(t, out.String()); len(got) != 1 || got[0] != "step_l" {
			t.Errorf("after three steps: %v, want [step_l]", got)
		}
		out.Reset()
		keys(t, a, "left,right")
		if got := firedEvents(t, out.String()); len(got) != 1 {
			t.Errorf("back and forth over the marker: %v, want step_l once", got)
		}
		// A second's step over the 1 s clip, from 0.1 s round to 0.1 s,
		// passes step_r, then step_l again at the end of the cycle; two
		// back pass them in reverse, twice over.
		out.Reset()
		keys(t, a, "shift+right")
		if got := strings.Join(firedEvents(t, out.String()), " "); got != "step_r step_l" {
			t.Errorf("a second's step: %q, want \"step_r step_l\"", got)
		}
		out.Reset()
		keys(t, a, "shift+left*2")
		if got := strings.Join(firedEvents(t, out.String()), " "); got != "step_r step_l step_r step_l" {
			t.Errorf("two seconds back: %q, want \"step_r step_l step_r step_l\"", got)
		}
		out.Reset()
		keys(t, a, "home,end,home")
		r := a.UI.Timeline
		a.UI.Press(r.X+0.8*r.W, r.Y+r.H/2, false, a)
		a.UI.Release()
		keys(t, a, "wait")
		if got := out.String(); got != "" {
			t.Errorf("seeks fired %q", got)
		}
		return nil
	})
}
