package character

import (
	"math"
	"testing"

	"github.com/skinview/skinview/internal/gltfload"
)

// morphWant is target i of glTF node n's weight in the pose shown, and
// whether it is pinned.
type morphWant struct {
	n, i   int
	w      float32
	pinned bool
}

// TestMorphPanel walks the morph panel over morphGLTF: nodes 2 (body,
// channels 0 and 1) and 3 (statue, channels 2 and 3) have two targets
// each, the joints 0 and 1 none. At 0.5 s the body's animated weights
// are (0.5, 0.25), at 0 s (0, 0); the statue holds node.weights (1, 0).
// Pins hold whatever the clip says until released, one at a time or all
// (i < 0); indices out of a node's targets pin and release nothing.
func TestMorphPanel(t *testing.T) {
	m, err := gltfload.Decode(morphGLTF(t), nil, "morph.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, nil, nil, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.MorphNodes(); len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Fatalf("MorphNodes %v, want [2 3]", got)
	}
	for k, want := range map[int]int{-1: -1, 0: 2, 1: 3, 2: -1} {
		if got := c.MorphNode(k); got != want {
			t.Errorf("MorphNode(%d) = %d, want %d", k, got, want)
		}
	}
	for n, want := range map[int]int{-1: 0, 0: 0, 1: 0, 2: 2, 3: 2} {
		if got := c.NumMorph(n); got != want {
			t.Errorf("NumMorph(%d) = %d, want %d", n, got, want)
		}
	}
	steps := []struct {
		name string
		do   func()
		at   float32
		now  bool // the pose shown has the want before it is evaluated again
		want []morphWant
	}{
		{"as animated at 0.5 s", func() {}, 0.5, false, []morphWant{
			{2, 0, 0.5, false}, {2, 1, 0.25, false}, {3, 0, 1, false}, {3, 1, 0, false},
			{2, 2, 0, false}, {2, -1, 0, false}, {0, 0, 0, false}}},
		{"pinned body 0, statue 1; out of range and NaN ignored", func() {
			c.PinMorph(2, 0, 0.9)
			c.PinMorph(3, 1, 0.75)
			c.PinMorph(2, 2, 0.3)
			c.PinMorph(2, -1, 0.3)
			c.PinMorph(3, 0, float32(math.NaN()))
		}, 0.5, true, []morphWant{{2, 0, 0.9, true}, {2, 1, 0.25, false}, {3, 0, 1, false}, {3, 1, 0.75, true}}},
		{"pins hold at 0 s", func() {}, 0, false, []morphWant{
			{2, 0, 0.9, true}, {2, 1, 0, false}, {3, 0, 1, false}, {3, 1, 0.75, true}}},
		{"statue 0 pinned, statue 1 released, out of range released nothing", func() {
			c.PinMorph(3, 0, 0.6)
			c.ReleaseMorph(2, 2)
			c.ReleaseMorph(3, 1)
		}, 0, false, []morphWant{{2, 0, 0.9, true}, {2, 1, 0, false}, {3, 0, 0.6, true}, {3, 1, 0, false}}},
		{"body 0 released alone", func() { c.ReleaseMorph(2, 0) }, 0, false, []morphWant{
			{2, 0, 0, false}, {3, 0, 0.6, true}}},
		{"all released", func() { c.ReleaseMorph(0, -1) }, 0, false, []morphWant{
			{2, 0, 0, false}, {3, 0, 1, false}, {3, 1, 0, false}}},
	}
	for _, s := range steps {
		s.do()
		check := func(when string) {
			for _, w := range s.want {
				if got, pinned := c.MorphWeight(w.n, w.i); math.Abs(float64(got-w.w)) > 1e-5 || pinned != w.pinned {
					t.Errorf("%s (%s): MorphWeight(%d, %d) = %v pinned %v, want %v pinned %v", s.name, when, w.n, w.i, got, pinned, w.w, w.pinned)
				}
			}
		}
		if s.now {
			check("at once")
		}
		c.Evaluate(s.at)
		check("evaluated")
	}
}
