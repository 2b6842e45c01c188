package graph

import (
	"fmt"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// ownCaches gives every clip player of c a cache and cursors of its own
// and no pool: the sampling a controller without a pool does.
func ownCaches(c *Controller) {
	for _, p := range c.players {
		p.job.Cache = make([]float32, p.job.Clip.CacheLen())
		p.job.Cursors = make([]int32, p.job.Clip.NumCursors())
	}
	c.ctx.pool = nil
}

// browserSpec is a clip browser over the humanoid's three clips: a state
// per clip and loop mode (loop, ping-pong, once), each reached from any
// other by a 0.2 s cross-fade.
func browserSpec() *Spec {
	ls := LayerSpec{}
	for _, mode := range []anim.LoopMode{anim.Loop, anim.PingPong, anim.Once} {
		for _, clip := range []string{"Idle", "Walk", "Wave"} {
			name := fmt.Sprintf("%s %d", clip, mode)
			ls.States = append(ls.States, StateSpec{Name: name, Tree: &NodeSpec{Type: NodeClip, Clip: ClipNamed(clip), Loop: mode}})
			ls.Transitions = append(ls.Transitions, TransitionSpec{From: "*", To: name, Type: TransitionSmooth, Duration: 0.2})
		}
	}
	return &Spec{Layers: []LayerSpec{ls}}
}

// TestLentCachesSampleAsOwnCaches: a controller whose clip players are
// lent caches from the pool poses every frame bit for bit as a twin whose
// players keep caches of their own, through every state in turn
// (cross-fades, interrupted ones too, parameters moving) and onion-skin
// evaluations at other times: for the character spec (layers, blend
// trees), and for a clip browser of nine states on plain and on
// compressed clips. The browser holds fewer caches than players; the
// character spec, whose frame can evaluate every player, one each.
func TestLentCachesSampleAsOwnCaches(t *testing.T) {
	sk := animtest.Humanoid()
	clips := animtest.HumanoidClips(sk)
	packed := make([]*anim.RuntimeClip, len(clips))
	for i := range clips {
		var err error
		if packed[i], _, err = anim.CompressClip(&clips[i], sk, anim.CompressOptions{Tolerance: 1e-4}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		make  func() (*Controller, error)
		fewer bool
	}{
		{"character spec", func() (*Controller, error) { return NewController(characterSpec(t), sk, clips) }, false},
		{"browser", func() (*Controller, error) { return NewController(browserSpec(), sk, clips) }, true},
		{"browser, compressed clips", func() (*Controller, error) { return NewControllerRuntime(browserSpec(), sk, packed) }, true},
	} {
		lent, err := tc.make()
		if err != nil {
			t.Fatal(err)
		}
		own, err := tc.make()
		if err != nil {
			t.Fatal(err)
		}
		ownCaches(own)
		if !lentAsOwn(t, tc.name, sk, lent, own) {
			continue
		}
		switch pool := lent.ctx.pool; {
		case !tc.fewer && pool != nil:
			t.Errorf("%s: %d players, as many as a frame can evaluate, lent caches", tc.name, len(lent.players))
		case tc.fewer && (pool == nil || len(pool.caches) >= len(lent.players)):
			t.Errorf("%s: %d players keep a cache each", tc.name, len(lent.players))
		}
	}
}

// lentAsOwn drives lent and own alike and reports where their poses first
// differ.
func lentAsOwn(t *testing.T, name string, sk *anim.Skeleton, lent, own *Controller) bool {
	t.Helper()
	a, b := anim.NewPose(sk), anim.NewPose(sk)
	same := func(what string) bool {
		lent.Evaluate(a)
		own.Evaluate(b)
		pa, pb := animtest.FromSoA(a), animtest.FromSoA(b)
		for j := range pa {
			if pa[j] != pb[j] {
				t.Errorf("%s, %s: joint %d is %v with lent caches, %v with its own", name, what, j, pa[j], pb[j])
				return false
			}
		}
		return true
	}
	states := lent.States()
	for k := range 3 * len(states) {
		st := states[k%len(states)]
		for _, c := range []*Controller{lent, own} {
			if err := c.Request(st); err != nil {
				t.Fatal(err)
			}
			for i := range c.Params() {
				c.SetParamIndex(i, float32(k%5)/4)
			}
		}
		// Every 3rd request interrupts the last one's cross-fade.
		for f := range 2 + 10*(k%3) {
			lent.Update(1.0 / 30)
			own.Update(1.0 / 30)
			if !same(st) {
				return false
			}
			if f == 1 {
				lent.EvaluateShifted(-0.4, a)
				own.EvaluateShifted(-0.4, b)
			}
		}
	}
	return true
}
