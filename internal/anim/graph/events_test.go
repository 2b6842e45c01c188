package graph

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim/animtest"
)

// TestControllerEvents plays a 2 s looping clip at rate 1.7 with markers
// at 0.5 s ("a") and 1.5 s ("b") for 4 s of frames, then backwards for 4
// s: the clip time runs 0 → 6.8 → 0, passing a b a b a b a each way (at
// 0.5, 1.5, 2.5, … 6.5); a seek fires nothing; a frame step does.
func TestControllerEvents(t *testing.T) {
	spec, err := ParseSpec([]byte(`{"tree": {"type": "clip", "clip": "A", "rate": 1.7},
	  "events": [{"clip": "A", "time": 1.5, "name": "b"}, {"clip": "A", "time": 0.5, "name": "a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), nodeClips())
	var got []string
	play := func(speed float32) {
		c.SetSpeed(speed)
		for range 120 {
			c.Update(1.0 / 30)
			for _, e := range c.Events() {
				if e.Clip != 0 {
					t.Fatalf("event on clip %d", e.Clip)
				}
				got = append(got, e.Name)
			}
		}
	}
	play(1)
	play(-1)
	if want := []string{"a", "b", "a", "b", "a", "b", "a", "a", "b", "a", "b", "a", "b", "a"}; !slices.Equal(got, want) {
		t.Fatalf("fired %v, want %v", got, want)
	}
	c.SetTime(1.9)
	if c.Update(0); len(c.Events()) != 0 {
		t.Fatalf("a seek fired %v", c.Events())
	}
	// A frame step from 1.9 s to 0.4 s forward goes round the loop's end
	// and fires nothing; from 0.4 s to 0.6 s fires a; back from 0.6 s to
	// 1.4 s (round the start) fires a, then b.
	if ev := c.StepEvents(1.9, 0.4, true); len(ev) != 0 {
		t.Fatalf("step round the end fired %v", ev)
	}
	if ev := c.StepEvents(0.4, 0.6, true); len(ev) != 1 || ev[0].Name != "a" {
		t.Fatalf("step over a fired %v", ev)
	}
	if ev := c.StepEvents(0.6, 1.4, false); len(ev) != 2 || ev[0].Name != "a" || ev[1].Name != "b" {
		t.Fatalf("step back round the start fired %v", ev)
	}
	// A marker outside its clip is a spec error naming it.
	spec, _ = ParseSpec([]byte(`{"tree": {"type": "clip", "clip": "A"}, "events": [{"clip": "A", "time": 2.5, "name": "late"}]}`))
	if _, err := NewController(spec, animtest.Chain(2), nodeClips()); err == nil || !strings.Contains(err.Error(), `events[0]: event "late" at 2.5 s is outside clip "A" (0 to 2 s)`) {
		t.Fatalf("a marker past the clip's end: %v", err)
	}
}

// TestSyncMarker: a synced lerp of A (2 s, marker "m" at 0.5 s, a quarter
// in) and B (1 s, marker "m" at 0.5 s, half-way) keeps both on their
// marker at the same moment: A's normalized time less ¼ equals B's less ½,
// modulo 1, frame after frame. A missing marker is an error naming it.
func TestSyncMarker(t *testing.T) {
	spec, err := ParseSpec([]byte(`{"tree": {"type": "lerp", "weight": 0.5, "syncMarker": "m", "children": ["A", "B"]},
	  "events": [{"clip": "A", "time": 0.5, "name": "m"}, {"clip": "B", "time": 0.5, "name": "m"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), nodeClips())
	frac := func(x float64) float64 { return x - math.Floor(x) }
	for k := range 50 {
		c.Update(0.037)
		a, b := float64(c.players[0].clock.Local())/2, float64(c.players[1].clock.Local())
		if d := frac(a-0.25-(b-0.5)+0.5) - 0.5; math.Abs(d) > 1e-4 {
			t.Fatalf("frame %d: A at %.4f of its cycle, B at %.4f: not aligned on the marker", k, a, b)
		}
	}
	spec, _ = ParseSpec([]byte(`{"tree": {"type": "lerp", "weight": 0.5, "syncMarker": "m", "children": ["A", "B"]},
	  "events": [{"clip": "A", "time": 0.5, "name": "m"}]}`))
	if _, err := NewController(spec, animtest.Chain(2), nodeClips()); err == nil || !strings.Contains(err.Error(), `children[1]: clip "B" has no marker "m"`) {
		t.Fatalf("missing marker: %v", err)
	}
}

// TestSyncedEventsFireOncePerCycle: A (2 s, marker at 1 s) and B (4 s)
// synced at 0.6/0.4 share a cycle of 2.8 s; in 28 s A passes its marker
// exactly ten times, however its own rate differs from the phase's.
func TestSyncedEventsFireOncePerCycle(t *testing.T) {
	spec, err := ParseSpec([]byte(`{"tree": {"type": "lerp", "weight": 0.4, "sync": true, "children": ["A", "B4"]},
	  "events": [{"clip": "A", "time": 1, "name": "m"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	clips := append(nodeClips(), animtest.RampClip("B4", 4, 0, 0, 1))
	c := build(t, spec, animtest.Chain(2), clips)
	fired := 0
	for range 840 {
		c.Update(1.0 / 30)
		fired += len(c.Events())
	}
	if fired != 10 {
		t.Fatalf("the marker fired %d times in ten cycles", fired)
	}
}

// TestSyncMarkerFromTheStart: synced on marker L (A at 0.5 s of 2 s, B at
// 0.1 s of 1 s), both stand on it from the start, before any update.
func TestSyncMarkerFromTheStart(t *testing.T) {
	spec, err := ParseSpec([]byte(`{"tree": {"type": "lerp", "weight": 0.5, "syncMarker": "L", "children": ["A", "B"]},
	  "events": [{"clip": "A", "time": 0.5, "name": "L"}, {"clip": "B", "time": 0.1, "name": "L"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := build(t, spec, animtest.Chain(2), nodeClips())
	if a, b := c.players[0].clock.Local(), c.players[1].clock.Local(); !animtest.ApproxEqual(a, 0.5, 1e-6) || !animtest.ApproxEqual(b, 0.1, 1e-6) {
		t.Fatalf("at the start A is at %v, B at %v; want both on L (0.5, 0.1)", a, b)
	}
}

// TestContactSpecErrors: contacts without joints or with thresholds that
// cannot hold are spec errors.
func TestContactSpecErrors(t *testing.T) {
	for _, src := range []string{
		`{"tree": {"type": "clip", "clip": "A"}, "contacts": {"joints": []}}`,
		`{"tree": {"type": "clip", "clip": "A"}, "contacts": {"joints": ["j0"], "height": -1}}`,
	} {
		spec, err := ParseSpec([]byte(src))
		if err == nil {
			_, err = NewController(spec, animtest.Chain(2), nodeClips())
		}
		if err == nil || !strings.Contains(err.Error(), "contacts") {
			t.Errorf("%s: %v", src, err)
		}
	}
}
