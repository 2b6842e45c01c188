package graph

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// The runtime form of blend trees. A tree is built once from a NodeSpec by
// NewController; afterwards nothing is allocated. Nodes are dispatched
// through an interface once per node per frame, which costs nothing next to
// the per-joint loops: the fast pipeline's jobs (SampleSoAJob, BlendSoA)
// and the SoA pose operations of blend.go and layers.go.

// evalContext is what nodes read at run time, shared by every tree of a
// controller: the parameter values and a stack of scratch poses.
type evalContext struct {
	// params holds the parameter values, indexed like Controller.Params.
	params []float32
	// dir is the direction clip clocks run this update: 1 forwards, −1
	// backwards, 0 paused (Controller.SetSpeed, Controller.SetPaused).
	dir float32
	// rest is the skeleton's rest pose.
	rest *anim.SoAPose
	// stack holds scratch poses of the joint count: first as many as the
	// deepest nesting any tree needs, computed at build time, then one
	// per layer from index layers, the layer's pose where it is not
	// evaluated straight into the controller's output. A layer's own, not
	// a scratch pose other layers also use, keeps the held stripes its
	// clips leave there (SoAPose.held) from frame to frame, so that
	// sampling copies none of them again; in the stack, a crowd's worker
	// lends its own for every character, as it does the scratch poses.
	stack  []*anim.SoAPose
	top    int
	layers int
	// rm is the root-motion set-up, nil when off; shifted is set while
	// EvaluateShifted poses other times, whose motion nobody reads.
	rm      *anim.RootMotion
	shifted bool
	// pool lends the clip players their sampling caches; nil where each
	// player holds its own.
	pool *cachePool
}

// push takes a scratch pose off the stack; pop gives it back. A node pushes
// for its second child onwards and pops before returning.
func (x *evalContext) push() *anim.SoAPose {
	b := x.stack[x.top]
	x.top++
	return b
}

func (x *evalContext) pop() { x.top-- }

// input is a resolved Input: a parameter index, or −1 and a constant.
type input struct {
	param int
	value float32
}

func (in input) get(x *evalContext) float32 {
	if in.param >= 0 {
		return x.params[in.param]
	}
	return in.value
}

// node is one blend-tree node.
type node interface {
	// reset puts the node at its start: clocks at their offsets, fades on
	// their first child, sync phases at 0.
	reset(x *evalContext)
	// update advances clocks and fades by dt seconds.
	update(x *evalContext, dt float32)
	// eval writes the node's local pose into out, borrowing scratch poses
	// from x's stack.
	eval(x *evalContext, out *anim.SoAPose)
	// cycle is the node's loop length in seconds at its current rate, the
	// quantity phase sync averages; 0 when it has none.
	cycle() float32
	// setPhase puts every clip below at normalized phase p ∈ [0, 1).
	setPhase(p float32)
	// setTime puts every clip below at clip-local time t, in seconds.
	setTime(t float32)
	// progress reports the node's normalized time, how much it moved in the
	// last update (unwrapped), and whether it wraps from 1 to 0.
	progress() (t, delta float32, wraps bool)
	// timeline is the player of the clip that weighs most below the node.
	timeline() *clipNode
}

// clipNode is a clip player: a runtime clip, a clock, and sampling state
// (key pairs and stream cursors) of its own.
type clipNode struct {
	// index is the clip's place in the controller's clips.
	index int
	job   anim.SampleSoAJob
	clock anim.ClipClock
	rate  input
	// authored is the rate input's value at the last update, before the
	// controller's direction is applied.
	authored float32
	offset   float32
	nt, nd   float32
	// e0 is the clock's Elapsed before the last update and adv what that
	// update moved it (0 after a seek or reset): the span events fire on.
	e0, adv float32
	// syncShift is where the sync phase 0 falls in the clip, normalized:
	// the marker a blend syncs on.
	syncShift float32
	// samples counts evaluations; tests use it to check that clips with no
	// weight are not sampled.
	samples int
	// slot is the cache pool's slot the player was last lent (−1: none);
	// job.Cache and job.Cursors are that slot's while it holds it.
	slot int
}

func (n *clipNode) reset(x *evalContext) {
	n.authored = n.rate.get(x)
	n.clock.Rate = n.authored
	n.clock.Elapsed = n.offset
	n.nt, n.nd = n.normalized(), 0
	n.adv = 0
}

func (n *clipNode) normalized() float32 {
	if n.clock.Duration <= 0 {
		return 0
	}
	return n.clock.Local() / n.clock.Duration
}

func (n *clipNode) update(x *evalContext, dt float32) {
	n.authored = n.rate.get(x)
	n.clock.Rate = n.authored * x.dir
	before := n.nt
	n.e0, n.adv = n.clock.Elapsed, dt*n.clock.Rate
	if step := dt * n.clock.Rate; step != 0 {
		// Only a clock that moves wraps: one paused on its end (a seek to
		// it) keeps showing the end.
		n.clock.Advance(dt)
		n.clock.Rewind()
	}
	n.nt = n.normalized()
	if n.wraps() && n.clock.Duration > 0 {
		n.nd = dt * n.clock.Rate / n.clock.Duration
	} else {
		n.nd = n.nt - before
	}
}

// wraps is whether the clock's normalized time jumps from 1 back to 0:
// looping clocks, and repeating ones until their last loop ends.
func (n *clipNode) wraps() bool {
	return n.clock.Mode == anim.Loop || (n.clock.Mode == anim.Repeat && !n.clock.Finished())
}

func (n *clipNode) eval(x *evalContext, out *anim.SoAPose) {
	if p := x.pool; p != nil {
		// The slot n holds, unless another player took it: lend's
		// first case, inline.
		if s := n.slot; s >= 0 && p.owner[s] == n {
			p.used[s] = p.frame
		} else {
			p.lend(n)
		}
	}
	n.job.Time = n.clock.Local()
	n.job.Output = out
	n.job.Run()
	n.samples++
	out.Motion = anim.IdentityTransform
	if x.rm != nil && !x.shifted {
		out.Motion = x.rm.ClipMotion(n.job.Clip, n.clock, n.e0, n.adv)
	}
}

// span is the clip time one normalized cycle covers: a ping-pong cycle
// plays the clip twice.
func (n *clipNode) span() float32 {
	if n.clock.Mode == anim.PingPong {
		return 2 * n.clock.Duration
	}
	return n.clock.Duration
}

func (n *clipNode) cycle() float32 {
	if n.clock.Mode == anim.Once {
		return 0 // not on the sync clock: it plays once on its own
	}
	r := n.authored
	if r < 0 {
		r = -r
	}
	if r == 0 || n.clock.Duration <= 0 {
		return 0
	}
	return n.span() / r
}

func (n *clipNode) setPhase(p float32) {
	if n.clock.Mode == anim.Once {
		return
	}
	if n.authored < 0 {
		p = -p // a backwards clip runs its cycle from the end
	}
	p += n.syncShift
	p -= float32(math.Floor(float64(p)))
	n.clock.Elapsed = n.offset + p*n.span()
	n.nt = n.normalized()
}

func (n *clipNode) setTime(t float32) {
	n.clock.Elapsed = t
	n.adv = 0 // a seek fires nothing
	n.nt, n.nd = n.normalized(), 0
}

func (n *clipNode) progress() (float32, float32, bool) { return n.nt, n.nd, n.wraps() }

func (n *clipNode) timeline() *clipNode { return n }

// blendNode is every node that weighs its children and blends the ones
// with a non-zero weight: lerp, blend1d, blend2d, average and crossfade.
// They differ only in how the weights are found.
type blendNode struct {
	kind     NodeType
	children []node
	// w holds the current weights, one per child, summing to 1 (or all
	// zero for an average whose weights are all zero).
	w []float32

	// weighedAt is the blend1d position w was computed for (NaN before
	// any): update and eval both weigh, and the position seldom moves.
	weighedAt float32

	weight    input     // lerp
	param     input     // blend1d position, crossfade selector
	params    [2]input  // blend2d
	weights   []input   // average
	positions []float32 // blend1d
	points    []mgl32.Vec2
	tris      []triangle
	rect      bool
	lo, hi    mgl32.Vec2
	corner    [4]int

	// Cross-fade state: u is the fade's linear progress towards the second
	// child, eased into the weight.
	duration float32
	ease     Ease
	frozen   bool
	u        float32

	sync  bool
	phase float32
	nlerp bool

	nt, nd float32
	wraps  bool
	// heavy is heaviest() of w, kept by weigh, which alone writes w.
	heavy int
}

// weigh recomputes w from the parameters.
func (n *blendNode) weigh(x *evalContext) {
	w := n.w
	switch n.kind {
	case NodeLerp:
		v := anim.Clamp01(n.weight.get(x))
		w[0], w[1] = 1-v, v
	case NodeBlend1D:
		p := n.param.get(x)
		if p == n.weighedAt {
			return
		}
		n.weighedAt = p
		clear(w)
		pos := n.positions
		last := len(pos) - 1
		switch {
		case last == 0 || !(p > pos[0]): // also catches NaN
			w[0] = 1
		case p >= pos[last]:
			w[last] = 1
		default:
			k := 0
			for k < last-1 && p >= pos[k+1] {
				k++
			}
			u := (p - pos[k]) / (pos[k+1] - pos[k])
			w[k], w[k+1] = 1-u, u
			snapWeights(w)
		}
	case NodeBlend2D:
		p := mgl32.Vec2{n.params[0].get(x), n.params[1].get(x)}
		if n.rect {
			rectWeights(n.lo, n.hi, n.corner, p, w)
		} else {
			triangleWeights(n.points, n.tris, p, w)
		}
	case NodeAverage:
		var sum float32
		for i, in := range n.weights {
			v := in.get(x)
			if !(v > 0) {
				v = 0
			}
			w[i] = v
			sum += v
		}
		if sum > 0 {
			for i := range w {
				w[i] /= sum
			}
		}
	case NodeCrossFade:
		v := n.ease.At(n.u)
		w[0], w[1] = 1-v, v
	}
	n.heavy = n.heaviest()
}

func (n *blendNode) reset(x *evalContext) {
	n.phase, n.u = 0, 0
	if n.kind == NodeCrossFade && n.param.get(x) >= 0.5 {
		n.u = 1 // start settled on the selected child, not fading to it
	}
	for _, c := range n.children {
		c.reset(x)
	}
	if n.sync {
		for _, c := range n.children {
			c.setPhase(0) // aligned from the start (a sync marker shifts them)
		}
	}
	n.weigh(x)
	n.track()
}

func (n *blendNode) update(x *evalContext, dt float32) {
	target := 0
	if n.kind == NodeCrossFade {
		if n.param.get(x) >= 0.5 {
			target = 1
		}
		switch {
		case n.duration <= 0:
			n.u = float32(target)
		case target == 1:
			n.u = min(1, n.u+dt/n.duration)
		default:
			n.u = max(0, n.u-dt/n.duration)
		}
	}
	n.weigh(x)
	for i, c := range n.children {
		if n.frozen && i != target {
			setAdvance(c, 0) // the clip faded away from holds its pose
			continue
		}
		c.update(x, dt)
	}
	if n.sync {
		if d := n.cycle(); d > 0 {
			n.nd = x.dir * dt / d
			n.phase += n.nd
			n.phase -= float32(int(n.phase))
			if n.phase < 0 {
				n.phase++
			}
		} else {
			n.nd = 0
		}
		for _, c := range n.children {
			c.setPhase(n.phase)
			// The clocks moved by the phase, not by their own rates: the
			// span events and root motion read is the phase's.
			setAdvance(c, n.nd)
		}
		n.nt, n.wraps = n.phase, true
		return
	}
	n.track()
}

// setAdvance sets the clip time the last update moved every clip player
// under n by, from a normalized advance nd of a synced phase (0: held).
func setAdvance(n node, nd float32) {
	switch n := n.(type) {
	case *clipNode:
		if n.clock.Mode == anim.Once {
			if nd == 0 {
				n.adv = 0
			}
			return // not on the synced phase (setPhase leaves it)
		}
		adv := nd * n.span()
		if n.authored < 0 {
			adv = -adv
		}
		n.adv = adv
	case *blendNode:
		for _, c := range n.children {
			setAdvance(c, nd)
		}
	case *layerNode:
		setAdvance(n.base, nd)
		for i := range n.layers {
			setAdvance(n.layers[i].n, nd)
		}
	}
}

// track takes the normalized time of the heaviest child as the node's own.
func (n *blendNode) track() {
	if n.sync {
		n.nt, n.nd, n.wraps = n.phase, 0, true
		return
	}
	n.nt, n.nd, n.wraps = n.children[n.heavy].progress()
}

func (n *blendNode) eval(x *evalContext, out *anim.SoAPose) {
	n.weigh(x)
	first, second, active := -1, -1, 0
	for i, w := range n.w {
		if w > 0 {
			switch active {
			case 0:
				first = i
			case 1:
				second = i
			}
			active++
		}
	}
	switch active {
	case 0:
		out.CopyFrom(x.rest)
	case 1:
		n.children[first].eval(x, out)
	case 2:
		n.children[first].eval(x, out)
		tmp := x.push()
		n.children[second].eval(x, tmp)
		anim.BlendSoA(out, out, tmp, n.w[second]/(n.w[first]+n.w[second]), n.nlerp)
		x.pop()
	default:
		n.children[first].eval(x, out)
		anim.AverageStart(out, out, n.w[first])
		total := n.w[first]
		tmp := x.push()
		for i := first + 1; i < len(n.children); i++ {
			if w := n.w[i]; w > 0 {
				n.children[i].eval(x, tmp)
				anim.AverageAdd(out, tmp, w)
				total += w
			}
		}
		x.pop()
		anim.AverageFinish(out, total)
	}
}

// cycle is the weighted duration of the children (GEA §12.10.1's walk and
// run of different lengths): Σ wᵢ·Tᵢ over the children that have one,
// divided by the sum of their weights.
func (n *blendNode) cycle() float32 {
	var sum, wsum float32
	for i, c := range n.children {
		if w := n.w[i]; w > 0 {
			if d := c.cycle(); d > 0 {
				sum += w * d
				wsum += w
			}
		}
	}
	if wsum == 0 {
		return 0
	}
	return sum / wsum
}

func (n *blendNode) setPhase(p float32) {
	if n.sync {
		n.phase = p
	}
	for _, c := range n.children {
		c.setPhase(p)
	}
	if n.sync {
		n.nt = p
	}
}

func (n *blendNode) setTime(t float32) {
	for _, c := range n.children {
		c.setTime(t)
	}
	if n.sync {
		// Keep the phase consistent with the clips for the next update.
		if d := n.cycle(); d > 0 {
			n.phase = t / d
			n.phase -= float32(int(n.phase))
		}
	}
	n.track()
}

func (n *blendNode) progress() (float32, float32, bool) { return n.nt, n.nd, n.wraps }

func (n *blendNode) timeline() *clipNode { return n.children[n.heavy].timeline() }

// heaviest is the index of the child with the largest weight, the first
// of equals.
func (n *blendNode) heaviest() int {
	best := 0
	for i, w := range n.w {
		if w > n.w[best] {
			best = i
		}
	}
	return best
}

// overlay is one layer of a layerNode.
type overlay struct {
	n      node
	mode   LayerMode
	weight input
	mask   []float32     // per joint, nil for every joint
	ref    *anim.SoAPose // the additive reference pose, nil for override
	// diffed says n samples a difference clip built against ref
	// (presubtract): its pose is the difference already.
	diffed bool
	nlerp  bool
}

// layerNode applies overlays on a base: the additive, mask and layer nodes.
type layerNode struct {
	base   node
	layers []overlay
}

func (n *layerNode) reset(x *evalContext) {
	n.base.reset(x)
	for i := range n.layers {
		n.layers[i].n.reset(x)
	}
}

func (n *layerNode) update(x *evalContext, dt float32) {
	n.base.update(x, dt)
	for i := range n.layers {
		n.layers[i].n.update(x, dt)
	}
}

func (n *layerNode) eval(x *evalContext, out *anim.SoAPose) {
	n.base.eval(x, out)
	for i := range n.layers {
		l := &n.layers[i]
		w := l.weight.get(x)
		if w == 0 || (l.mode == LayerOverride && w < 0) {
			continue
		}
		tmp := x.push()
		l.n.eval(x, tmp)
		l.apply(out, tmp, w)
		x.pop()
	}
}

// apply combines the layer's pose p (overwritten for additive layers),
// weighted w, into out.
func (l *overlay) apply(out, p *anim.SoAPose, w float32) {
	if l.mode == LayerAdditive {
		if !l.diffed {
			anim.DifferenceSoA(p, p, l.ref)
		}
		anim.AddSoA(out, out, p, w, l.mask)
		return
	}
	anim.MaskedBlendSoA(out, out, p, w, l.mask, l.nlerp)
}

func (n *layerNode) cycle() float32 { return n.base.cycle() }

func (n *layerNode) setPhase(p float32) {
	n.base.setPhase(p)
	for i := range n.layers {
		n.layers[i].n.setPhase(p)
	}
}

func (n *layerNode) setTime(t float32) {
	n.base.setTime(t)
	for i := range n.layers {
		n.layers[i].n.setTime(t)
	}
}

func (n *layerNode) progress() (float32, float32, bool) { return n.base.progress() }

func (n *layerNode) timeline() *clipNode { return n.base.timeline() }
