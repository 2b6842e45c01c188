package anim_test

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// simulate is the reference for Crossings: it moves a ClipClock in small
// steps and fires a marker each time the clip-local time passes it while
// the time moves continuously (a wrap jumps, passing nothing).
func simulate(markers []anim.Marker, d float32, mode anim.LoopMode, loops int, e0, a float32) []string {
	clock := anim.ClipClock{Duration: d, Mode: mode, Loops: loops, Rate: 1, Elapsed: e0}
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

// innerMarkers draws n markers, m0, m1, …, at random times between 5%
// and 95% of a clip of d s, sorted by time.
func innerMarkers(rng *rand.Rand, d float32, n int) []anim.Marker {
	var ms []anim.Marker
	for k := range n {
		ms = append(ms, anim.Marker{Time: d * (0.05 + 0.9*rng.Float32()), Name: fmt.Sprintf("m%d", k)})
	}
	anim.SortMarkers(ms)
	return ms
}

// checkCrossings fails the test unless Crossings fires, for markers ms on
// a clip of d s whose clock in mode (with loops) moves from elapsed e0 by
// a, the markers that reference fires.
func checkCrossings(t *testing.T, trial int, reference func(ms []anim.Marker, d float32, mode anim.LoopMode, loops int, e0, a float32) []string,
	ms []anim.Marker, d float32, mode anim.LoopMode, loops int, e0, a float32) {
	t.Helper()
	var got []string
	anim.Crossings(ms, d, mode, loops, e0, a, func(m anim.Marker) { got = append(got, m.Name) })
	if want := reference(ms, d, mode, loops, e0, a); !slices.Equal(got, want) {
		t.Fatalf("trial %d: %v clock (loops %d) of %v s, markers %v, from %v by %v: fired %v, want %v", trial, mode, loops, d, ms, e0, a, got, want)
	}
}

// loopModes are the clock's modes, in the order trials take them.
var loopModes = []anim.LoopMode{anim.Loop, anim.Once, anim.PingPong, anim.Repeat}

func TestCrossingsMatchASimulatedClock(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := range 300 {
		d := 0.5 + 2*rng.Float32()
		ms := innerMarkers(rng, d, 1+rng.Intn(4))
		mode, loops := loopModes[trial%4], 1+rng.Intn(3)
		e0 := d * (4*rng.Float32() - 1)
		if mode == anim.Once || mode == anim.Repeat {
			e0 = d * 2 * rng.Float32()
		}
		checkCrossings(t, trial, simulate, ms, d, mode, loops, e0, d*(6*rng.Float32()-3))
	}
}

func TestCrossingsEnds(t *testing.T) {
	ms := []anim.Marker{{0, "start"}, {0.5, "mid"}, {1, "end"}}
	var got []string
	fire := func(m anim.Marker) { got = append(got, m.Name) }
	// Looping forward across the wrap: the clip's end, then the next
	// cycle's start, both at elapsed 1.
	anim.Crossings(ms, 1, anim.Loop, 0, 0.75, 0.5, fire)
	if want := []string{"end", "start"}; !slices.Equal(got, want) {
		t.Errorf("across the wrap: %v, want %v", got, want)
	}
	got = nil
	anim.Crossings(ms, 1, anim.Loop, 0, 0.6, 0, fire)
	if got != nil {
		t.Errorf("no advance fired %v", got)
	}
	// Once, backwards from the end to before the start.
	anim.Crossings(ms, 1, anim.Once, 0, 1, -2, fire)
	if want := []string{"mid", "start"}; !slices.Equal(got, want) {
		t.Errorf("once backwards: %v, want %v", got, want)
	}
	got = nil
	if n := testing.AllocsPerRun(10, func() { anim.Crossings(ms, 1, anim.PingPong, 0, 0.2, 3.1, func(anim.Marker) {}) }); n != 0 {
		t.Errorf("Crossings allocates %v times", n)
	}
}

// TestClipMarkerErrors: a clip marker outside the clip, or without a
// name, is an error naming the clip and the marker's index (among the
// markers sorted by time), not a spec path.
func TestClipMarkerErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		markers []anim.Marker
		want    string
	}{
		{"late", []anim.Marker{{0.5, "a"}, {2.5, "late"}}, `anim: clip "A": markers[1]: marker "late" at 2.5 s is outside the clip (0 to 2 s)`},
		{"negative", []anim.Marker{{-1, "early"}}, `anim: clip "A": markers[0]: marker "early" at -1 s is outside the clip (0 to 2 s)`},
		{"unnamed", []anim.Marker{{1, "a"}, {0.5, ""}}, `anim: clip "A": markers[0]: marker without a name`},
	} {
		clip := animtest.RampClip("A", 2, 0, 0, 1)
		clip.Markers = tc.markers
		_, err := anim.NewRuntimeClip(&clip, animtest.Chain(2))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
	// At its very ends a marker is inside the clip.
	clip := animtest.RampClip("A", 2, 0, 0, 1)
	clip.Markers = []anim.Marker{{0, "start"}, {2, "end"}}
	if _, err := anim.NewRuntimeClip(&clip, animtest.Chain(2)); err != nil {
		t.Errorf("markers at 0 and 2 s of a 2 s clip: %v", err)
	}
}

// TestSortMarkersKeepsTheOrderOfTies: markers at one time keep the order
// they were given in (an exporter's order for a footstep and its sound),
// twenty of them, more than a sort does by insertion.
func TestSortMarkersKeepsTheOrderOfTies(t *testing.T) {
	var ms, want []anim.Marker
	for k := range 20 {
		ms = append(ms, anim.Marker{Time: 0.5, Name: fmt.Sprintf("tie%d", k)})
	}
	want = append(want, anim.Marker{Time: 0.25, Name: "first"})
	want = append(want, ms...)
	ms = append(ms, anim.Marker{Time: 0.25, Name: "first"})
	anim.SortMarkers(ms)
	if !slices.Equal(ms, want) {
		t.Errorf("sorted %v; want %v", ms, want)
	}
}

// TestCrossingsOfNoDuration: a clip of no length (one key) fires none of
// its markers, in every mode, and the call returns.
func TestCrossingsOfNoDuration(t *testing.T) {
	ms := []anim.Marker{{Time: 0, Name: "only"}}
	for _, mode := range loopModes {
		done := make(chan []string, 1)
		go func() {
			var fired []string
			anim.Crossings(ms, 0, mode, 2, 0.25, 0.5, func(m anim.Marker) { fired = append(fired, m.Name) })
			done <- fired
		}()
		select {
		case fired := <-done:
			if len(fired) != 0 {
				t.Errorf("%v clock of no duration fired %v", mode, fired)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%v clock of no duration: Crossings did not return in 5 s", mode)
		}
	}
}

// TestCrossingsFromAMarker: a clock that starts exactly on a marker does
// not fire it, forwards or backwards (it fired on the frame that arrived
// there); the next marker it reaches it fires.
func TestCrossingsFromAMarker(t *testing.T) {
	ms := []anim.Marker{{Time: 0.25, Name: "a"}, {Time: 0.5, Name: "b"}, {Time: 0.75, Name: "c"}}
	for _, c := range []struct {
		e0, a float32
		want  []string
	}{{0.5, 0.1, nil}, {0.5, -0.1, nil}, {0.5, 0.25, []string{"c"}}, {0.5, -0.25, []string{"a"}}} {
		var fired []string
		anim.Crossings(ms, 1, anim.Once, 1, c.e0, c.a, func(m anim.Marker) { fired = append(fired, m.Name) })
		if !slices.Equal(fired, c.want) {
			t.Errorf("from %v by %v: fired %v, want %v", c.e0, c.a, fired, c.want)
		}
	}
}
