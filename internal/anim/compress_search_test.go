package anim_test

import (
	"math"
	"slices"
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

// The encoder's search for the smallest packing, over packers whose
// errors and sizes are simple functions of the shares, with the answers
// worked out by hand.

// linearPacker is a packer whose joint j's worst error is the sum, over j
// and its ancestors k, of c[k]·share[k] (an error each joint passes down
// to its subtree), less where edit says otherwise; bytes of a packing is
// size of its shares. It records the shares of every packing made.
type linearPacker struct {
	parents []int
	c       []float64
	edit    func(share, worst []float64)
	size    func(share []float64) int
	made    [][]float64
	byClip  map[*anim.RuntimeClip][]float64
}

func (lp *linearPacker) search() anim.Search {
	lp.byClip = map[*anim.RuntimeClip][]float64{}
	return anim.NewSearch(lp.parents,
		func(share []float64, stage func(float64)) (*anim.RuntimeClip, []float64, []float32) {
			stage(0)
			worst := make([]float64, len(share))
			for j := range share {
				for k := j; k >= 0; k = lp.parents[k] {
					worst[j] += lp.c[k] * share[k]
				}
			}
			if lp.edit != nil {
				lp.edit(share, worst)
			}
			stage(1)
			rc := &anim.RuntimeClip{}
			lp.made = append(lp.made, slices.Clone(share))
			lp.byClip[rc] = slices.Clone(share)
			return rc, worst, nil
		},
		func(rc *anim.RuntimeClip) int { return lp.size(lp.byClip[rc]) })
}

// Halving: every joint over the target and each of its ancestors once;
// a joint within it, exactly at it included, is left; the last tries keep
// every key of those joints (share 0).
func TestCompressCutShares(t *testing.T) {
	tree := []int{-1, 0, 1, 0} // 0 → 1 → 2, and 3 below 0
	for _, c := range []struct {
		parents      []int
		share, worst []float64
		keepAll      bool
		want         []float64
	}{
		{tree, []float64{1, 1, 1, 1}, []float64{0.5, 0.5, 2, 0.5}, false, []float64{0.5, 0.5, 0.5, 1}},
		{tree, []float64{1, 1, 1, 1}, []float64{1, 1, 1, 1}, false, []float64{1, 1, 1, 1}},
		{tree, []float64{1, 1, 1, 1}, []float64{0, 0, 0, 3}, false, []float64{0.5, 1, 1, 0.5}},
		{tree, []float64{1, 1, 1, 1}, []float64{2, 0, 0, 0}, false, []float64{0.5, 1, 1, 1}},
		{tree, []float64{2, 0.5, 0.25, 4}, []float64{0, 5, 5, 5}, false, []float64{1, 0.25, 0.125, 2}},
		{tree, []float64{0.25, 0.5, 0.125, 1}, []float64{0, 0, 2, 0}, true, []float64{0, 0, 0, 1}},
		{[]int{-1, 0, -1, 2}, []float64{1, 1, 1, 1}, []float64{0, 0, 0, 2}, false, []float64{1, 1, 0.5, 0.5}},
	} {
		share := slices.Clone(c.share)
		anim.CutShares(share, c.worst, c.parents, 1, c.keepAll)
		if !slices.Equal(share, c.want) {
			t.Errorf("shares %v, worst %v against 1 (keep all %v): %v; want %v", c.share, c.worst, c.keepAll, share, c.want)
		}
	}
}

// Raising: every joint whose subtree is within half the target (strictly)
// and whose share is in (0, 64) doubles; nil when none does.
func TestCompressRaiseShares(t *testing.T) {
	tree := []int{-1, 0, 1, 0}
	for _, c := range []struct {
		share, worst []float64
		want         []float64
	}{
		{[]float64{1, 1, 1, 1}, []float64{0.1, 0.2, 0.4, 0.3}, []float64{2, 2, 2, 2}},
		// Joint 2's 0.5 holds back 1 and 0 above it; 3 is on its own.
		{[]float64{1, 1, 1, 1}, []float64{0.1, 0.2, 0.5, 0.3}, []float64{1, 1, 1, 2}},
		{[]float64{0, 64, 32, 1}, []float64{0.1, 0.1, 0.1, 0.1}, []float64{0, 64, 64, 2}},
		{[]float64{1, 1, 1, 1}, []float64{0.1, 0.1, 0.1, 0.5}, []float64{1, 2, 2, 1}},
		{[]float64{1, 1, 1, 1}, []float64{0.5, 0.5, 0.5, 0.5}, nil},
	} {
		before := slices.Clone(c.share)
		got := anim.RaiseShares(c.share, c.worst, tree, 1)
		if !slices.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("shares %v, worst %v against 1: %v; want %v", c.share, c.worst, got, c.want)
		}
		if !slices.Equal(c.share, before) {
			t.Errorf("shares %v changed to %v; want them left", before, c.share)
		}
	}
}

// fit: halve until within the target, then double where there is room,
// up to FitRounds rounds, keeping a round only while within the target.
func TestCompressFit(t *testing.T) {
	if anim.FitTries != 12 || anim.FitRounds != 4 {
		t.Fatalf("fit's bounds are %d tries and %d rounds; the cases below are worked out for 12 and 4", anim.FitTries, anim.FitRounds)
	}
	tree := []int{-1, 0, 1, 0}
	quantized := func(share, worst []float64) { // over whenever it is packed at all
		worst[0] = 0
		if share[0] > 0 {
			worst[0] = 5
		}
	}
	halvings := func(k int, last ...float64) [][]float64 {
		var s [][]float64
		for i := range k {
			s = append(s, []float64{math.Ldexp(1, -i)})
		}
		for _, v := range last {
			s = append(s, []float64{v})
		}
		return s
	}
	for _, c := range []struct {
		name      string
		lp        linearPacker
		made      [][]float64 // the shares of each packing, in turn
		fitOn     int         // the packings made halving (the rest raise)
		keep      int         // which packing is returned
		wantWorst []float64
	}{
		{
			// Joint 2 is over (1.2): it, 1 and 0 halve, 3 does not (0.4);
			// then 3 alone has room, for the four rounds (sub 0.15 + 0.01·s).
			name: "halve then raise", lp: linearPacker{parents: tree, c: []float64{0.3, 0.3, 0.6, 0.01}},
			made:  [][]float64{{1, 1, 1, 1}, {0.5, 0.5, 0.5, 1}, {0.5, 0.5, 0.5, 2}, {0.5, 0.5, 0.5, 4}, {0.5, 0.5, 0.5, 8}, {0.5, 0.5, 0.5, 16}},
			fitOn: 2, keep: 5, wantWorst: []float64{0.15, 0.3, 0.6, 0.31},
		},
		{
			// The round raising 3 to 4 lands over the target: the one
			// before is kept.
			name: "a round over", lp: linearPacker{parents: tree, c: []float64{0.3, 0.3, 0.6, 0.1},
				edit: func(share, worst []float64) {
					if share[3] >= 4 {
						worst[3] = 1.0000001
					}
				}},
			made:  [][]float64{{1, 1, 1, 1}, {0.5, 0.5, 0.5, 1}, {0.5, 0.5, 0.5, 2}, {0.5, 0.5, 0.5, 4}},
			fitOn: 2, keep: 2, wantWorst: []float64{0.15, 0.3, 0.6, 0.35},
		},
		{
			// Exactly the target is within: that round is kept, and no
			// joint has room after it.
			name: "a round at the target", lp: linearPacker{parents: tree, c: []float64{0.3, 0.3, 0.6, 0.1},
				edit: func(share, worst []float64) {
					if share[3] >= 4 {
						worst[3] = 1
					}
				}},
			made:  [][]float64{{1, 1, 1, 1}, {0.5, 0.5, 0.5, 1}, {0.5, 0.5, 0.5, 2}, {0.5, 0.5, 0.5, 4}},
			fitOn: 2, keep: 3, wantWorst: []float64{0.15, 0.3, 0.6, 1},
		},
		{
			// Two roots, one exactly at the target from the start: no
			// halving; the other doubles while under half of it.
			name: "at the target", lp: linearPacker{parents: []int{-1, -1}, c: []float64{1, 0.1}},
			made:  [][]float64{{1, 1}, {1, 2}, {1, 4}, {1, 8}},
			fitOn: 1, keep: 3, wantWorst: []float64{1, 0.8},
		},
		{
			// Over at every share but 0: nine halvings, then every key
			// kept (share 0) on the tenth try, within; 0 is not raised.
			name: "keep every key", lp: linearPacker{parents: []int{-1}, c: []float64{0}, edit: quantized},
			made:  halvings(10, 0),
			fitOn: 11, keep: 10, wantWorst: []float64{0},
		},
		{
			// Never within: twelve packings, the last returned.
			name: "never within", lp: linearPacker{parents: []int{-1}, c: []float64{0},
				edit: func(share, worst []float64) { worst[0] = 5 }},
			made:  halvings(10, 0, 0),
			fitOn: 12, keep: 11, wantWorst: []float64{5},
		},
	} {
		var progress []float64
		rc, worst, _, share := c.lp.search().Fit(1, func(f float64) { progress = append(progress, f) })
		if !slices.EqualFunc(c.lp.made, c.made, slices.Equal[[]float64]) {
			t.Errorf("%s: packed %v; want %v", c.name, c.lp.made, c.made)
			continue
		}
		if got := c.lp.byClip[rc]; !slices.Equal(got, c.made[c.keep]) || !slices.Equal(share, c.made[c.keep]) {
			t.Errorf("%s: returned the packing of %v (shares %v); want %v", c.name, got, share, c.made[c.keep])
		}
		for j := range worst {
			if math.Abs(worst[j]-c.wantWorst[j]) > 1e-12 {
				t.Errorf("%s: worst %v; want %v", c.name, worst, c.wantWorst)
				break
			}
		}
		// Progress: each try ends at 0.8·(try+1)/12, each round at
		// 0.8 + 0.2·(round+1)/4, never going back.
		for i := range c.made {
			want := 0.8 * float64(i+1) / anim.FitTries
			if i >= c.fitOn {
				want = 0.8 + 0.2*float64(i-c.fitOn+1)/anim.FitRounds
			}
			if got := progress[2*i+1]; math.Abs(got-want) > 1e-12 {
				t.Errorf("%s: packing %d ends at progress %v; want %v", c.name, i, got, want)
			}
		}
		if !slices.IsSorted(progress) {
			t.Errorf("%s: progress %v goes back", c.name, progress)
		}
	}
}

// refine: one joint at a time, most room first, doubling then raising by
// √2 (from 1/64 at 0) while within the target and smaller, up to 64;
// joints of no room left as they are.
func TestCompressRefine(t *testing.T) {
	log2 := func(s float64) float64 { return math.Log2(s) }
	// Joint 1 (room 30) goes first: 2 fits (0.3 + 0.5), 4 does not (1.3);
	// joint 0 at 2 does not (0.6 + 0.5); joint 2 has no room. Then by √2:
	// joint 1 at 2√2 does not (1.007), joint 0 at √2 does (0.924) and at
	// 2 not. Bytes: 100 less 10 a doubling of 1's share and 6 of 0's.
	lp := linearPacker{parents: []int{-1, 0, -1}, c: []float64{0.3, 0.25, 0.1},
		size: func(s []float64) int { return int(math.Round(100 - 10*log2(s[1]) - 6*log2(s[0]))) }}
	s := lp.search()
	rc0 := &anim.RuntimeClip{}
	lp.byClip[rc0] = []float64{1, 1, 1}
	var progress []float64
	rc, worst, _ := s.Refine(1, []float64{1, 1, 1}, []int{10, 30, 0}, rc0, []float64{0.3, 0.55, 0.1}, nil,
		func(f float64) { progress = append(progress, f) })
	r2 := math.Sqrt2
	want := [][]float64{{1, 2, 1}, {1, 4, 1}, {2, 2, 1}, {1, 2 * r2, 1}, {r2, 2, 1}, {r2 * r2, 2, 1}}
	if !slices.EqualFunc(lp.made, want, slices.Equal[[]float64]) {
		t.Errorf("packed %v; want %v", lp.made, want)
	} else if got := lp.byClip[rc]; !slices.Equal(got, want[4]) || math.Abs(worst[1]-(0.3*r2+0.5)) > 1e-12 {
		t.Errorf("returned %v, worst %v; want %v at %v", got, worst, want[4], 0.3*r2+0.5)
	}
	if !slices.IsSorted(progress) || len(progress) == 0 || progress[len(progress)-1] >= 1 {
		t.Errorf("progress %v; want it forward and under 1", progress)
	}

	// A packing no smaller is not kept: joint 0's share does not change
	// the size here, so joint 0 stays at 1 even where it fits.
	lp = linearPacker{parents: []int{-1, 0}, c: []float64{0.25, 0.25},
		size: func(s []float64) int { return int(math.Round(100 - 10*log2(s[1]))) }}
	s = lp.search()
	rc0 = &anim.RuntimeClip{}
	lp.byClip[rc0] = []float64{1, 1}
	rc, _, _ = s.Refine(1, []float64{1, 1}, []int{10, 30}, rc0, []float64{0.25, 0.5}, nil, func(float64) {})
	if got := lp.byClip[rc]; !slices.Equal(got, []float64{1, 2 * r2}) {
		t.Errorf("same size: kept %v (made %v); want [1 2√2]", got, lp.made)
	}

	// Exactly the target is within, where refine starts and for a
	// packing it makes: joint 1 goes to 2 (0.5) and 4 (1), not 8.
	lp = linearPacker{parents: []int{-1, -1}, c: []float64{1, 0.25},
		size: func(s []float64) int { return int(math.Round(100 - 10*log2(s[1]))) }}
	s = lp.search()
	rc0 = &anim.RuntimeClip{}
	lp.byClip[rc0] = []float64{1, 1}
	rc, _, _ = s.Refine(1, []float64{1, 1}, []int{0, 50}, rc0, []float64{1, 0.25}, nil, func(float64) {})
	if got := lp.byClip[rc]; len(lp.made) != 4 || !slices.Equal(got, []float64{1, 4}) {
		t.Errorf("at the target: packed %v, kept %v; want [1 2] … [1 4√2], [1 4] kept", lp.made, got)
	}

	// From share 0 (every key kept) the first step is 1/64, then doubling
	// up to 64 and no further: 13 packings, none by √2.
	lp = linearPacker{parents: []int{-1}, c: []float64{0.001},
		size: func(s []float64) int {
			if s[0] == 0 {
				return 1000
			}
			return int(math.Round(200 - 10*log2(s[0])))
		}}
	s = lp.search()
	rc0 = &anim.RuntimeClip{}
	lp.byClip[rc0] = []float64{0}
	rc, _, _ = s.Refine(1, []float64{0}, []int{50}, rc0, []float64{0}, nil, func(float64) {})
	if got := lp.byClip[rc]; len(lp.made) != 13 || !slices.Equal(lp.made[0], []float64{1.0 / 64}) || !slices.Equal(got, []float64{64}) {
		t.Errorf("from 0: packed %v, kept %v; want 1/64 … 64 doubling, 64 kept", lp.made, got)
	}

	// A packing over the target is returned as it is, nothing tried.
	lp = linearPacker{parents: []int{-1}, c: []float64{2}, size: func([]float64) int { return 10 }}
	s = lp.search()
	rc0 = &anim.RuntimeClip{}
	if rc, _, _ = s.Refine(1, []float64{1}, []int{50}, rc0, []float64{2}, nil, func(float64) {}); rc != rc0 || len(lp.made) != 0 {
		t.Errorf("over the target: %d packings made; want the given one back, none made", len(lp.made))
	}
}
