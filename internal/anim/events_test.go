package anim

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// simulate is the reference for Crossings: it moves a ClipClock in small
// steps and fires a marker each time the clip-local time passes it while
// the time moves continuously (a wrap jumps, passing nothing).
func simulate(markers []Marker, d float32, mode LoopMode, loops int, e0, a float32) []string {
	clock := ClipClock{Duration: d, Mode: mode, Loops: loops, Rate: 1, Elapsed: e0}
	const steps = 100000
	var out []string
	prev := clock.Local()
	for i := 1; i <= steps; i++ {
		clock.Elapsed = e0 + a*float32(i)/steps
		cur := clock.Local()
		if diff := cur - prev; diff < d/2 && diff > -d/2 {
			lo, hi := prev, cur
			if cur < prev {
				lo, hi = cur, prev
			}
			// The order within one small step does not matter: markers
			// are apart by more than a step.
			for _, m := range markers {
				if m.Time > lo && m.Time <= hi && prev != cur {
					out = append(out, m.Name)
				}
			}
		}
		prev = cur
	}
	return out
}

func TestCrossingsMatchASimulatedClock(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := range 300 {
		d := 0.5 + 2*rng.Float32()
		var ms []Marker
		for k := range 1 + rng.Intn(4) {
			ms = append(ms, Marker{Time: d * (0.05 + 0.9*rng.Float32()), Name: fmt.Sprintf("m%d", k)})
		}
		SortMarkers(ms)
		mode := []LoopMode{Loop, Once, PingPong, Repeat}[trial%4]
		loops := 1 + rng.Intn(3)
		e0 := d * (4*rng.Float32() - 1)
		if mode == Once || mode == Repeat {
			e0 = d * 2 * rng.Float32()
		}
		a := d * (6*rng.Float32() - 3)
		var got []string
		Crossings(ms, d, mode, loops, e0, a, func(m Marker) { got = append(got, m.Name) })
		if want := simulate(ms, d, mode, loops, e0, a); !slices.Equal(got, want) {
			t.Fatalf("trial %d: %v clock of %v s, markers %v, from %v by %v: fired %v, want %v", trial, mode, d, ms, e0, a, got, want)
		}
	}
}

func TestCrossingsEnds(t *testing.T) {
	ms := []Marker{{0, "start"}, {0.5, "mid"}, {1, "end"}}
	var got []string
	fire := func(m Marker) { got = append(got, m.Name) }
	// Looping forward across the wrap: the clip's end, then the next
	// cycle's start, both at elapsed 1.
	Crossings(ms, 1, Loop, 0, 0.75, 0.5, fire)
	if want := []string{"end", "start"}; !slices.Equal(got, want) {
		t.Errorf("across the wrap: %v, want %v", got, want)
	}
	got = nil
	Crossings(ms, 1, Loop, 0, 0.6, 0, fire)
	if got != nil {
		t.Errorf("no advance fired %v", got)
	}
	// Once, backwards from the end to before the start.
	Crossings(ms, 1, Once, 0, 1, -2, fire)
	if want := []string{"mid", "start"}; !slices.Equal(got, want) {
		t.Errorf("once backwards: %v, want %v", got, want)
	}
	got = nil
	if n := testing.AllocsPerRun(10, func() { Crossings(ms, 1, PingPong, 0, 0.2, 3.1, func(Marker) {}) }); n != 0 {
		t.Errorf("Crossings allocates %v times", n)
	}
}

// TestClipMarkerErrors: a clip marker outside the clip, or without a
// name, is an error naming the clip and the marker's index (among the
// markers sorted by time), not a spec path.
func TestClipMarkerErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		markers []Marker
		want    string
	}{
		{"late", []Marker{{0.5, "a"}, {2.5, "late"}}, `anim: clip "A": markers[1]: marker "late" at 2.5 s is outside the clip (0 to 2 s)`},
		{"negative", []Marker{{-1, "early"}}, `anim: clip "A": markers[0]: marker "early" at -1 s is outside the clip (0 to 2 s)`},
		{"unnamed", []Marker{{1, "a"}, {0.5, ""}}, `anim: clip "A": markers[0]: marker without a name`},
	} {
		clip := rampClip("A", 2, 0, 0, 1)
		clip.Markers = tc.markers
		_, err := NewRuntimeClip(&clip, chain(2))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
}

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
	c := build(t, spec, chain(2), nodeClips())
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
	if _, err := NewController(spec, chain(2), nodeClips()); err == nil || !strings.Contains(err.Error(), `events[0]: event "late" at 2.5 s is outside clip "A" (0 to 2 s)`) {
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
	c := build(t, spec, chain(2), nodeClips())
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
	if _, err := NewController(spec, chain(2), nodeClips()); err == nil || !strings.Contains(err.Error(), `children[1]: clip "B" has no marker "m"`) {
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
	clips := append(nodeClips(), rampClip("B4", 4, 0, 0, 1))
	c := build(t, spec, chain(2), clips)
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
	c := build(t, spec, chain(2), nodeClips())
	if a, b := c.players[0].clock.Local(), c.players[1].clock.Local(); !approxEqual(a, 0.5, 1e-6) || !approxEqual(b, 0.1, 1e-6) {
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
			_, err = NewController(spec, chain(2), nodeClips())
		}
		if err == nil || !strings.Contains(err.Error(), "contacts") {
			t.Errorf("%s: %v", src, err)
		}
	}
}
