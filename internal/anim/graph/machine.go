package graph

import (
	"fmt"
	"math"

	"github.com/skinview/skinview/internal/anim"
)

// machine is the runtime form of a LayerSpec: an action state machine
// (GEA §12.10) whose states are blend trees.
//
// A blend in progress goes from a source to the current state. The source
// is a state whose clock keeps running (smooth), or a snapshot: a pose taken
// when the transition started and held still. Frozen transitions use a
// snapshot, and so does any transition that interrupts another or restarts
// the current state, so that the new blend starts exactly from what was on
// screen whatever was blending before.
//
// Empty states (no tree) contribute nothing. The machine's output is
// therefore a pose and a fraction f ∈ [0, 1] of the layer it fills: 1 in a
// state with a tree, 0 in an empty one, and in between while fading to or
// from an empty state.
type machine struct {
	name   string
	mode   LayerMode
	weight input
	mask   []float32 // per joint, nil for every joint
	states []mstate
	trans  []mtransition
	// autos lists, per state, the automatic transitions that leave it
	// (in trans order): those update tests every frame.
	autos [][]int
	// initial is the index of the state the machine starts in.
	initial int

	// cur is the current state: the destination while blending.
	cur int
	// from is the source of the blend in progress: a state index,
	// fromSnapshot, or noState when settled.
	from int
	// fromName names the source for Status, snapshots included.
	fromName string
	// active is the transition in progress, or -1.
	active int
	// elapsed is the time spent in the active transition, seconds.
	elapsed float32
	// pending is a requested transition waiting for its window, or -1.
	pending int
	// snap is the snapshot pose and snapF its fraction.
	snap  *anim.SoAPose
	snapF float32
}

const (
	noState      = -1
	fromSnapshot = -2
)

type mstate struct {
	name string
	tree node          // nil for an empty state
	ref  *anim.SoAPose // additive layers: the reference pose
	// diffed says tree samples a difference clip (DifferenceClip) built
	// against ref: its pose is the difference already.
	diffed bool
}

type mtransition struct {
	name string
	// sources[s] says whether the From pattern matches state s; patterns
	// are matched once, when the machine is built.
	sources    []bool
	to         int
	typ        TransitionType
	duration   float32
	ease       Ease
	window     Window
	hasWindow  bool
	auto       bool
	matchPhase bool
}

// reset puts the machine in its initial state, settled, with that state's
// tree at its start.
func (m *machine) reset(x *evalContext) {
	m.cur, m.from, m.fromName, m.active, m.pending, m.elapsed = m.initial, noState, "", -1, -1, 0
	for i := range m.states {
		if t := m.states[i].tree; t != nil {
			t.reset(x)
		}
	}
}

func (m *machine) settle() {
	m.from, m.fromName, m.active, m.elapsed = noState, "", -1, 0
}

// update advances the running clocks and the blend, then takes a pending
// request or an automatic transition if its window is open.
func (m *machine) update(x *evalContext, dt float32) {
	if m.from == fromSnapshot {
		m.snap.Motion = anim.IdentityTransform // a held pose travels no further
	}
	if m.from >= 0 {
		if t := m.states[m.from].tree; t != nil {
			t.update(x, dt)
		}
	}
	if t := m.states[m.cur].tree; t != nil {
		t.update(x, dt)
	}
	if m.active >= 0 {
		m.elapsed += dt
		if m.elapsed >= m.trans[m.active].duration {
			m.settle()
		}
	}
	switch {
	case m.pending >= 0:
		if m.windowOpen(m.pending) {
			ti := m.pending
			m.pending = -1
			m.start(x, ti)
		}
	case m.active < 0:
		for _, ti := range m.autos[m.cur] {
			if m.windowOpen(ti) {
				m.start(x, ti)
				break
			}
		}
	}
}

// progress is the current state's normalized time (see node.progress).
func (m *machine) progress() (float32, float32, bool) {
	if t := m.states[m.cur].tree; t != nil {
		return t.progress()
	}
	return 0, 0, false
}

// windowOpen reports whether transition ti may be taken now: it has no
// window, or the current state's normalized time passed through the window
// during the last update. Testing the swept interval rather than the
// instant means a short window is not skipped by a long frame.
func (m *machine) windowOpen(ti int) bool {
	tr := &m.trans[ti]
	if !tr.hasWindow {
		return true
	}
	t, d, wraps := m.progress()
	return windowHit(t, d, wraps, tr.window)
}

// windowHit reports whether normalized time, having moved by d to t, met
// the window. A wrapping time is unwrapped: the window recurs at [k+b, k+e]
// for every integer k. A clamped one (a clip played once) must meet [b, e]
// itself, so that its end at 1 does not count as the next loop's start.
func windowHit(t, d float32, wraps bool, w Window) bool {
	lo, hi := t-d, t
	if lo > hi {
		lo, hi = hi, lo
	}
	if !wraps {
		return hi >= w.Begin && lo <= w.End
	}
	return math.Floor(float64(hi-w.Begin)) >= math.Ceil(float64(lo-w.End))
}

// start takes transition ti from the current state.
func (m *machine) start(x *evalContext, ti int) {
	tr := &m.trans[ti]
	phase, _, _ := m.progress()
	source := m.states[m.cur].name
	blends := tr.typ != TransitionImmediate && tr.duration > 0
	if blends && (m.active >= 0 || tr.to == m.cur || tr.typ == TransitionFrozen) {
		// The snapshot keeps the travel of the update it is taken in (its
		// pose shows that update's advance); update clears it after.
		m.snapF = m.evalInto(x, m.snap)
		m.from = fromSnapshot
	} else {
		m.from = m.cur
	}
	m.fromName = source
	m.cur = tr.to
	if t := m.states[m.cur].tree; t != nil {
		t.reset(x)
		if tr.matchPhase {
			t.setPhase(phase)
		}
	}
	if !blends {
		m.settle()
		return
	}
	m.active, m.elapsed = ti, 0
}

// cut switches to state s at once, settled, its tree at its start.
func (m *machine) cut(x *evalContext, s int) {
	m.cur, m.pending = s, -1
	m.settle()
	if t := m.states[s].tree; t != nil {
		t.reset(x)
	}
}

// alpha is the eased progress of the blend in progress, 1 when settled.
func (m *machine) alpha() float32 {
	if m.active < 0 {
		return 1
	}
	tr := &m.trans[m.active]
	return tr.ease.At(m.elapsed / tr.duration)
}

// fraction of the layer that state s (or the snapshot) fills.
func (m *machine) fraction(s int) float32 {
	switch {
	case s == fromSnapshot:
		return m.snapF
	case s >= 0 && m.states[s].tree != nil:
		return 1
	}
	return 0
}

// evalState writes state s's pose (or the snapshot) into out; in an
// additive layer, its difference against the state's reference.
func (m *machine) evalState(x *evalContext, s int, out *anim.SoAPose) {
	if s == fromSnapshot {
		out.CopyFrom(m.snap)
		return
	}
	st := &m.states[s]
	st.tree.eval(x, out)
	if m.mode == LayerAdditive && !st.diffed {
		anim.DifferenceSoA(out, out, st.ref)
	}
}

// evalInto writes the machine's pose into out and returns the fraction of
// the layer it fills; out is left alone when that is 0. Blending to or
// from an empty state keeps the other pose and scales the fraction; between
// two poses with fractions fA and fB at progress α the fraction is
// (1−α)·fA + α·fB and the poses are lerped by α·fB over it, which keeps the
// layer's contribution continuous when a blend interrupts another.
func (m *machine) evalInto(x *evalContext, out *anim.SoAPose) float32 {
	fB := m.fraction(m.cur)
	if m.from == noState {
		if fB > 0 {
			m.evalState(x, m.cur, out)
		}
		return fB
	}
	a := m.alpha()
	fA := m.fraction(m.from)
	f := (1-a)*fA + a*fB
	if f <= 0 {
		return 0
	}
	u := a * fB / f
	switch {
	case u <= 0:
		m.evalState(x, m.from, out)
	case u >= 1:
		m.evalState(x, m.cur, out)
	default:
		m.evalState(x, m.from, out)
		tmp := x.push()
		m.evalState(x, m.cur, tmp)
		anim.BlendSoA(out, out, tmp, u, false)
		x.pop()
	}
	return f
}

// stateIndex finds a state by name, or −1.
func (m *machine) stateIndex(name string) int {
	for i := range m.states {
		if m.states[i].name == name {
			return i
		}
	}
	return -1
}

// request asks for a transition by its name or by destination state.
// handled is false when the name is neither in this layer.
func (m *machine) request(name string) (handled bool, err error) {
	named := false
	for ti := range m.trans {
		tr := &m.trans[ti]
		if tr.name != name {
			continue
		}
		named = true
		if tr.sources[m.cur] {
			m.pending = ti
			return true, nil
		}
	}
	if named {
		return true, fmt.Errorf("anim: layer %q: transition %q cannot start from state %q", m.name, name, m.states[m.cur].name)
	}
	to := m.stateIndex(name)
	if to < 0 {
		return false, nil
	}
	if to == m.cur {
		m.pending = -1 // already there or on the way
		return true, nil
	}
	for ti := range m.trans {
		if tr := &m.trans[ti]; tr.to == to && tr.sources[m.cur] {
			m.pending = ti
			return true, nil
		}
	}
	return true, fmt.Errorf("anim: layer %q has no transition from state %q to %q", m.name, m.states[m.cur].name, name)
}
