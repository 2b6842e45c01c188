package graph

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// Param is a control parameter's declaration and current value.
type Param struct {
	// Name as declared in the spec.
	Name string
	// Value is the current value, in [Min, Max].
	Value float32
	// Min and Max bound the value.
	Min, Max float32
	// Default is the value at construction.
	Default float32
}

// Status describes what the controller is doing, for a HUD. The top-level
// fields repeat the base layer's.
type Status struct {
	// State is the base layer's current state (the destination while
	// blending).
	State string
	// From is the state being blended from, "" when settled.
	From string
	// Weight is the blend's eased progress from From to State, 0…1; 1 when
	// settled.
	Weight float32
	// Layers holds one entry per layer, base first. The slice belongs to
	// the controller and is overwritten by the next Status call.
	Layers []LayerStatus
}

// LayerStatus is one layer's part of a Status.
type LayerStatus struct {
	// Name of the layer.
	Name string
	// State is the current state (the destination while blending).
	State string
	// From is the state being blended from, "" when settled.
	From string
	// Transition is the name of the transition in progress, "" when none
	// or unnamed.
	Transition string
	// Weight is the blend's eased progress, 0…1; 1 when settled.
	Weight float32
	// Time is State's normalized time, 0…1.
	Time float32
	// Pending is the destination of a request waiting for its window, ""
	// when none.
	Pending string
	// LayerWeight is the layer's weight input now.
	LayerWeight float32
}

// Controller is the runtime animation engine of one character: it owns the
// parameters, state machines, blend trees, clip clocks and every scratch
// buffer, all sized by NewController. Update and Evaluate allocate
// nothing. A Controller is not safe for concurrent use.
type Controller struct {
	sk       *anim.Skeleton
	params   []Param
	ctx      evalContext
	machines []machine
	post     []postOp
	// models holds model matrices for post-processing, in
	// ModelPaletteJob.Models' layout.
	models []float32
	// dirty marks the joints ModelsBelow recomputes, one per joint.
	dirty []bool
	// stateNames are the requestable states, qualified by layer above the
	// base ("gesture/wave"); States returns it.
	stateNames []string
	status     []LayerStatus
	// players lists every clip player in build order; tests read their
	// clocks and sample counts.
	players []*clipNode
	// speed scales and signs the advance of every clip clock (SetSpeed);
	// paused stops them while fades still play out (SetPaused).
	speed  float32
	paused bool
	// clocks saves the players' clocks while EvaluateShifted moves them.
	clocks []anim.ClipClock
	// markers are each clip's markers, the clip's own and the spec's,
	// sorted; events are those the last Update (or StepEvents) fired,
	// firing the clip they fire on and fire the callback that adds one.
	markers [][]anim.Marker
	events  []Event
	firing  int
	fire    func(anim.Marker)
	// motion is the root motion of the last Evaluate, extracted the part
	// of its root that root motion took out.
	motion, extracted anim.Transform
}

// postOp is one post-processing step with its resolved inputs.
type postOp struct {
	typ    PostType
	ik     anim.TwoBoneIKJob
	look   anim.LookAtJob
	target [3]input
	pole   [3]input
	weight input
	// need marks the joints whose model matrices this step and the steps
	// after it read, and their ancestors, one per joint up to the last one
	// marked: what must be current before it runs.
	need []bool
	// apart[i] says that no joint need marks lies at or below the first
	// joint step i turns (its root): after step i, nothing this step reads
	// is stale.
	apart []bool
	// root is the first joint this step turns; every joint it turns
	// descends from it.
	root int
}

// NewController builds the runtime form of spec for a skeleton and its
// clips. Clips are resolved by name (first match) or index; joints by name.
// The clips the spec uses are turned into runtime clips; every buffer is
// allocated here. Errors are *SpecError naming the spec path, except for an
// invalid skeleton. The controller keeps sk (it reads it every frame); it
// must not change afterwards.
func NewController(spec *Spec, sk *anim.Skeleton, clips []anim.Clip) (*Controller, error) {
	return newController(spec, sk, clips, nil)
}

// NewControllerRuntime is NewController over runtime clips built for sk
// (NewRuntimeClip), which many controllers may share: a crowd keeps one
// copy of its keys.
func NewControllerRuntime(spec *Spec, sk *anim.Skeleton, clips []*anim.RuntimeClip) (*Controller, error) {
	for i, c := range clips {
		if c == nil || c.NumJoints() != sk.NumJoints() {
			return nil, fmt.Errorf("anim: runtime clip %d is not built for a skeleton of %d joints", i, sk.NumJoints())
		}
	}
	return newController(spec, sk, nil, clips)
}

// errNilSkeleton is the error for a controller or crowd of no skeleton.
var errNilSkeleton = errors.New("anim: nil skeleton")

func newController(spec *Spec, sk *anim.Skeleton, clips []anim.Clip, rclips []*anim.RuntimeClip) (*Controller, error) {
	if spec == nil {
		return nil, errors.New("anim: nil spec")
	}
	if sk == nil {
		return nil, errNilSkeleton
	}
	if err := sk.Validate(); err != nil {
		return nil, err
	}
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	n := sk.NumJoints()
	c := &Controller{sk: sk, models: make([]float32, anim.PaletteFloats*n), dirty: make([]bool, n), speed: 1}
	c.ctx.dir = 1
	c.ctx.rest = anim.NewRestPose(sk)
	for _, p := range spec.Params {
		v := min(max(p.Default, p.Min), p.Max)
		c.params = append(c.params, Param{Name: p.Name, Value: v, Min: p.Min, Max: p.Max, Default: v})
		c.ctx.params = append(c.ctx.params, v)
	}
	b := &builder{spec: spec, sk: sk, clips: clips, rclips: rclips, c: c}
	if rclips == nil {
		b.rclips = make([]*anim.RuntimeClip, len(clips))
	}
	depth := 0
	for li := range spec.Layers {
		need, err := b.machine(li)
		if err != nil {
			return nil, err
		}
		depth = max(depth, need)
	}
	for i := range spec.Post {
		if err := b.post(&spec.Post[i], indexPath("post", i)); err != nil {
			return nil, err
		}
	}
	for i := len(c.post) - 2; i >= 0; i-- {
		for j, later := range c.post[i+1].need {
			c.post[i].need[j] = c.post[i].need[j] || later
		}
	}
	for i := range c.post {
		// Past the last joint a step reads, there is nothing to compute.
		need := c.post[i].need
		for len(need) > 0 && !need[len(need)-1] {
			need = need[:len(need)-1]
		}
		c.post[i].need = need
	}
	for k := range c.post {
		op := &c.post[k]
		op.apart = make([]bool, len(c.post))
		for i := range c.post {
			op.apart[i] = true
			for j, read := range op.need {
				if read && (j == c.post[i].root || sk.IsDescendant(j, c.post[i].root)) {
					op.apart[i] = false
					break
				}
			}
		}
	}
	c.ctx.stack, c.ctx.layers = make([]*anim.SoAPose, depth+len(c.machines)), depth
	for i := range c.ctx.stack {
		c.ctx.stack[i] = anim.NewPose(sk)
	}
	c.status = make([]LayerStatus, len(c.machines))
	c.clocks = make([]anim.ClipClock, len(c.players))
	if b.lent < len(c.players) {
		// Fewer caches than players: they are lent. Otherwise each player
		// keeps the one it was built with, next to it in memory.
		c.ctx.pool = newCachePool(c.players, b.lent)
	}
	if err := b.events(); err != nil {
		return nil, err
	}
	for i := range c.machines {
		c.machines[i].snap = anim.NewPose(sk)
		c.machines[i].reset(&c.ctx)
	}
	return c, nil
}

// NumJoints is the length of the pose Evaluate writes.
func (c *Controller) NumJoints() int { return c.sk.NumJoints() }

// Params returns the parameters in declaration order, values current. The
// slice belongs to the controller: read it, change values with SetParam.
func (c *Controller) Params() []Param { return c.params }

// ParamIndex returns the index of the named parameter in Params, or −1.
func (c *Controller) ParamIndex(name string) int {
	for i := range c.params {
		if c.params[i].Name == name {
			return i
		}
	}
	return -1
}

// SetParam sets a parameter by name, clamped to its range. An unknown
// name or a NaN is an error that lists the known names.
func (c *Controller) SetParam(name string, v float32) error {
	i := c.ParamIndex(name)
	if i < 0 {
		names := make([]string, len(c.params))
		for k, p := range c.params {
			names[k] = p.Name
		}
		return fmt.Errorf("anim: unknown parameter %q (parameters: %s)", name, anim.ListNames(names, len(names)))
	}
	if v != v {
		return fmt.Errorf("anim: parameter %q set to NaN", name)
	}
	c.SetParamIndex(i, v)
	return nil
}

// SetParamIndex sets the parameter at index i of Params, clamped to its
// range; for per-frame use without the name lookup. A NaN is ignored; an
// index out of range panics.
func (c *Controller) SetParamIndex(i int, v float32) {
	if v != v {
		return
	}
	p := &c.params[i]
	v = min(max(v, p.Min), p.Max)
	p.Value = v
	c.ctx.params[i] = v
}

// States lists the states that Request and RequestIndex accept, layer by
// layer: base-layer states by name, the others qualified as "layer/state".
// The slice belongs to the controller.
func (c *Controller) States() []string { return c.stateNames }

// Request asks for a transition, named either by the transition's name or
// by its destination state; "layer/name" restricts the search to one layer,
// otherwise layers are searched base first. The first transition in spec
// order whose source pattern matches the current state is chosen. It is
// taken at the next Update, or, if it has a window, at the first Update
// where the source's normalized time is inside it; a later request
// replaces a waiting one. Requesting the state the layer is already in (or
// blending to) does nothing.
func (c *Controller) Request(name string) error {
	layer, key, qualified := strings.Cut(name, "/")
	if !qualified {
		key = name
	}
	for i := range c.machines {
		m := &c.machines[i]
		if qualified && m.name != layer {
			continue
		}
		if handled, err := m.request(key); handled {
			return err
		}
	}
	if qualified && c.machineIndex(layer) < 0 {
		return fmt.Errorf("anim: request %q: unknown layer %q", name, layer)
	}
	return fmt.Errorf("anim: request %q: no such state or transition (states: %s)", name, anim.ListNames(c.stateNames, 32))
}

func (c *Controller) machineIndex(name string) int {
	for i := range c.machines {
		if c.machines[i].name == name {
			return i
		}
	}
	return -1
}

// RequestIndex is Request(States()[i]), for number keys.
func (c *Controller) RequestIndex(i int) error {
	if i < 0 || i >= len(c.stateNames) {
		return fmt.Errorf("anim: state index %d out of range [0, %d)", i, len(c.stateNames))
	}
	return c.Request(c.stateNames[i])
}

// Update advances the character by dt seconds of wall time (negative or
// NaN dt counts as 0): every clip clock by dt·Speed (backwards for a
// negative speed), cross-fades and transitions by dt·|Speed|; while paused
// the clip clocks stand still and fades play out in wall time. It takes
// requested and automatic transitions whose window is open. It allocates
// nothing.
func (c *Controller) Update(dt float32) {
	if !(dt > 0) {
		dt = 0
	}
	switch {
	case c.paused:
		c.ctx.dir = 0
	case c.speed < 0:
		c.ctx.dir, dt = -1, -dt*c.speed
	default:
		c.ctx.dir, dt = 1, dt*c.speed
	}
	c.ctx.top = 0 // transitions may evaluate a snapshot
	for i := range c.machines {
		c.machines[i].update(&c.ctx, dt)
	}
	c.events = c.events[:0]
	if n := c.timelineNode(); n != nil && n.adv != 0 {
		c.firing = n.index
		anim.Crossings(c.markers[n.index], n.clock.Duration, n.clock.Mode, n.clock.Loops, n.e0, n.adv, c.fire)
	}
}

// Event is a marker fired by an Update: its clip (an index into the
// controller's clips) and the marker.
type Event struct {
	Clip int
	anim.Marker
}

// Events are the markers the last Update passed on the clip the timeline
// shows (Timeline), in the order passed; a seek (SetTime) fires nothing.
// The slice is the controller's, rewritten by the next Update.
func (c *Controller) Events() []Event { return c.events }

// Markers are clip i's markers, sorted by time: the clip's own and the
// spec's events on it. The slice is the controller's.
func (c *Controller) Markers(i int) []anim.Marker {
	if i < 0 || i >= len(c.markers) {
		return nil
	}
	return c.markers[i]
}

// StepEvents fires the markers of the clip the timeline shows that a frame
// step from clip time from to clip time to passes, forward or backward
// (across the clip's end in a loop), as Events lists them after it.
func (c *Controller) StepEvents(from, to float32, forward bool) []Event {
	c.events = c.events[:0]
	n := c.timelineNode()
	if n == nil {
		return c.events
	}
	a := to - from
	d := n.clock.Duration
	switch {
	case n.clock.Mode == anim.Loop && forward && a < 0:
		a += d
	case n.clock.Mode == anim.Loop && !forward && a > 0:
		a -= d
	}
	mode := n.clock.Mode
	if mode != anim.Loop {
		mode = anim.Once // a step moves in clip time, not around a ping-pong
	}
	c.firing = n.index
	anim.Crossings(c.markers[n.index], d, mode, 1, from, a, c.fire)
	return c.events
}

// timelineNode is the clip player Timeline reports, or nil.
func (c *Controller) timelineNode() *clipNode {
	if len(c.machines) == 0 {
		return nil
	}
	m := &c.machines[0]
	if tree := m.states[m.cur].tree; tree != nil {
		return tree.timeline()
	}
	return nil
}

// SetSpeed sets the playback speed of every clock: 1 is authored speed,
// 0.5 half, negative plays backwards. It multiplies the rates the spec
// gives. A NaN is ignored.
func (c *Controller) SetSpeed(s float32) {
	if s == s {
		c.speed = s
	}
}

// Speed is the playback speed SetSpeed set; 1 by default.
func (c *Controller) Speed() float32 { return c.speed }

// SetPaused stops (true) or restarts the clip clocks. Transitions and
// cross-fades under way still play out while paused, in wall time, so a
// change requested on a paused frame is seen to happen.
func (c *Controller) SetPaused(p bool) { c.paused = p }

// Paused reports what SetPaused set.
func (c *Controller) Paused() bool { return c.paused }

// SetLoopMode makes every clip player loop, play once or ping-pong (mode)
// at its ends, whatever the spec said, keeping each clip at the time it
// shows now.
func (c *Controller) SetLoopMode(mode anim.LoopMode) {
	for _, p := range c.players {
		p.clock.Elapsed = p.clock.Local()
		p.clock.Mode = mode
		p.nt = p.normalized()
	}
}

// Timeline is what a timeline shows of a character: the clip that weighs
// most in its base layer's current state (the state's only clip in a clip
// browser) and where that clip is.
type Timeline struct {
	// Time is the clip-local time in seconds, in [0, Duration].
	Time float32
	// Duration is the clip's length in seconds.
	Duration float32
	// Clip is the clip's index in the clips the controller was built
	// with, −1 for an empty state (Time and Duration are then 0).
	Clip int
	// Mode is what the clip does at its ends.
	Mode anim.LoopMode
}

// Timeline reports what the base layer shows now.
func (c *Controller) Timeline() Timeline {
	if len(c.machines) == 0 {
		return Timeline{Clip: -1}
	}
	m := &c.machines[0]
	tree := m.states[m.cur].tree
	if tree == nil {
		return Timeline{Clip: -1}
	}
	n := tree.timeline()
	return Timeline{Time: n.clock.Local(), Duration: n.clock.Duration, Clip: n.index, Mode: n.clock.Mode}
}

// Cut switches the base layer (or, for "layer/state", that layer) to the
// named state at once, from any state and without a blend, its tree at its
// start: the cut an animator asks for, whatever transitions the spec
// defines.
func (c *Controller) Cut(name string) error {
	layer, state, qualified := strings.Cut(name, "/")
	mi := 0
	if qualified {
		if mi = c.machineIndex(layer); mi < 0 {
			return fmt.Errorf("anim: cut to %q: unknown layer %q", name, layer)
		}
	} else {
		state = name
	}
	m := &c.machines[mi]
	si := m.stateIndex(state)
	if si < 0 {
		return fmt.Errorf("anim: cut to %q: layer %q has no such state (states: %s)", name, m.name, anim.ListNames(c.stateNames, 32))
	}
	m.cut(&c.ctx, si)
	return nil
}

// SetTime puts every clip player of every state at clip-local time t
// seconds, ignoring offsets (for screenshots: all clips at the same local
// time). Loop modes still apply: a looping clip shorter than t wraps.
// Transitions and parameters are not touched.
func (c *Controller) SetTime(t float32) {
	for i := range c.machines {
		for _, st := range c.machines[i].states {
			if st.tree != nil {
				st.tree.setTime(t)
			}
		}
	}
}

// Reset puts every layer back in its initial state with its clocks at their
// start; parameters keep their values.
func (c *Controller) Reset() {
	for i := range c.machines {
		c.machines[i].reset(&c.ctx)
	}
}

// Evaluate writes the local pose of every joint into out (Len() =
// NumJoints()): the layers combined over the rest pose, then the
// post-processing (IK, look-at) applied. Model matrices are not part of the
// output: run a ModelPaletteJob over out afterwards, which is the "global
// pose recomputed after IK" of GEA §12.9. It allocates nothing.
func (c *Controller) Evaluate(out *anim.SoAPose) {
	if out.Len() != c.sk.NumJoints() {
		panic(fmt.Sprintf("anim: Evaluate output has %d joints, skeleton %d", out.Len(), c.sk.NumJoints()))
	}
	x := &c.ctx
	x.top = 0
	if x.pool != nil {
		x.pool.frame++
	}
	rest := true // out still has to start from the rest pose
	for i := range c.machines {
		m := &c.machines[i]
		w := m.weight.get(x)
		if w == 0 || (m.mode == LayerOverride && w < 0) {
			continue
		}
		if rest && m.mode == LayerOverride && m.mask == nil && w >= 1 {
			// The first layer covers the rest pose where it fills the
			// layer: it is evaluated straight into out, without a copy of
			// the rest pose and a blend that copies it over.
			switch f := m.evalInto(x, out); {
			case f <= 0:
				out.CopyFrom(x.rest)
			case f < 1:
				anim.BlendSoA(out, x.rest, out, f, false)
			}
			rest = false
			continue
		}
		if rest {
			out.CopyFrom(x.rest)
			rest = false
		}
		buf := x.stack[x.layers+i]
		if f := m.evalInto(x, buf); f > 0 {
			if m.mode == LayerAdditive {
				anim.AddSoA(out, out, buf, w*f, m.mask)
			} else {
				anim.MaskedBlendSoA(out, out, buf, w*f, m.mask, false)
			}
		}
	}
	if rest {
		out.CopyFrom(x.rest)
	}
	c.motion, c.extracted = anim.IdentityTransform, anim.IdentityTransform
	if rm := x.rm; rm != nil {
		c.motion = out.Motion
		c.extracted = rm.TakeOut(out)
	}
	c.postProcess(out)
}

// EvaluateShifted writes into out the pose Evaluate would write if every
// clip clock stood dt seconds of playback further on (earlier for a
// negative dt) at its authored rate, paused or not, in its own loop mode, with the
// transitions, cross-fades and parameters as they are now: the ghost poses
// of an onion skin and the points of a motion trail. Clips under a synced
// blend move at their own rates rather than on the shared phase. The
// controller is left exactly as it was. It allocates nothing.
func (c *Controller) EvaluateShifted(dt float32, out *anim.SoAPose) {
	for i, p := range c.players {
		c.clocks[i] = p.clock
		p.clock.Elapsed += dt * p.authored
	}
	motion, extracted := c.motion, c.extracted
	c.ctx.shifted = true // no motion to compute: the frame's is kept
	c.Evaluate(out)
	c.ctx.shifted = false
	c.motion, c.extracted = motion, extracted
	for i, p := range c.players {
		p.clock = c.clocks[i]
	}
}

// postProcess runs the IK and look-at steps. Each one reads model matrices
// of the pose as the steps before it left it: before the first step that
// runs, one pass computes those it and the later steps read and their
// ancestors' (postOp.need; the palette job computes them all afterwards),
// and after each step those of the joints below the first one it turned
// (every joint a step turns descends from it, as Validate checks) are
// computed again where a later step reads them: not at all where it reads
// none (postOp.apart), as a look-at's head and an arm's IK.
func (c *Controller) postProcess(out *anim.SoAPose) {
	x := &c.ctx
	changed := -1 // the step that ran last; -1 before any
	for i := range c.post {
		op := &c.post[i]
		w := op.weight.get(x)
		if !(w > 0) {
			continue
		}
		switch {
		case changed < 0:
			anim.ModelsOf(c.sk.Parents, out, c.models, op.need)
		case !op.apart[changed]:
			anim.ModelsBelow(c.sk.Parents, out, c.models, c.post[changed].root, c.dirty, op.need)
		}
		target := mgl32.Vec3{op.target[0].get(x), op.target[1].get(x), op.target[2].get(x)}
		switch op.typ {
		case PostTwoBoneIK:
			op.ik.Target = target
			op.ik.Pole = mgl32.Vec3{op.pole[0].get(x), op.pole[1].get(x), op.pole[2].get(x)}
			op.ik.Weight = w
			op.ik.Pose = out
			op.ik.Run()
			op.ik.Pose = nil
		case PostLookAt:
			op.look.Target = target
			op.look.Weight = w
			op.look.Pose = out
			op.look.Run()
			op.look.Pose = nil
		}
		changed = i
	}
}

// Status reports the state of every layer. The returned Layers slice is
// the controller's and is rewritten by the next call; nothing is allocated.
func (c *Controller) Status() Status {
	for i := range c.machines {
		m := &c.machines[i]
		t, _, _ := m.progress()
		ls := LayerStatus{
			Name:        m.name,
			State:       m.states[m.cur].name,
			From:        m.fromName,
			Weight:      m.alpha(),
			Time:        t,
			LayerWeight: m.weight.get(&c.ctx),
		}
		if m.active >= 0 {
			ls.Transition = m.trans[m.active].name
		}
		if m.pending >= 0 {
			ls.Pending = m.states[m.trans[m.pending].to].name
		}
		c.status[i] = ls
	}
	s := Status{Layers: c.status}
	if len(c.status) > 0 {
		s.State, s.From, s.Weight = c.status[0].State, c.status[0].From, c.status[0].Weight
	}
	return s
}
