package anim

import (
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
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
	sk       *Skeleton
	params   []Param
	ctx      evalContext
	machines []machine
	post     []postOp
	// models holds model matrices for post-processing, in
	// ModelPaletteJob.Models' layout.
	models []float32
	// dirty marks the joints modelsBelow recomputes, one per joint.
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
	clocks []ClipClock
	// markers are each clip's markers, the clip's own and the spec's,
	// sorted; events are those the last Update (or StepEvents) fired,
	// firing the clip they fire on and fire the callback that adds one.
	markers [][]Marker
	events  []Event
	firing  int
	fire    func(Marker)
	// motion is the root motion of the last Evaluate, extracted the part
	// of its root that root motion took out.
	motion, extracted Transform
}

// postOp is one post-processing step with its resolved inputs.
type postOp struct {
	typ    PostType
	ik     TwoBoneIKJob
	look   LookAtJob
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
func NewController(spec *Spec, sk *Skeleton, clips []Clip) (*Controller, error) {
	return newController(spec, sk, clips, nil)
}

// NewControllerRuntime is NewController over runtime clips built for sk
// (NewRuntimeClip), which many controllers may share: a crowd keeps one
// copy of its keys.
func NewControllerRuntime(spec *Spec, sk *Skeleton, clips []*RuntimeClip) (*Controller, error) {
	for i, c := range clips {
		if c == nil || c.NumJoints() != sk.NumJoints() {
			return nil, fmt.Errorf("anim: runtime clip %d is not built for a skeleton of %d joints", i, sk.NumJoints())
		}
	}
	return newController(spec, sk, nil, clips)
}

func newController(spec *Spec, sk *Skeleton, clips []Clip, rclips []*RuntimeClip) (*Controller, error) {
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
	c := &Controller{sk: sk, models: make([]float32, PaletteFloats*n), dirty: make([]bool, n), speed: 1}
	c.ctx.dir = 1
	c.ctx.rest = NewPose(sk)
	c.ctx.rest.restFrom(sk.Rest)
	for _, p := range tsPaths { // what clips without those keys hold
		c.ctx.rest.held[p] = tagStripes(p, c.ctx.rest.stripes(p))
	}
	for _, p := range spec.Params {
		v := min(max(p.Default, p.Min), p.Max)
		c.params = append(c.params, Param{Name: p.Name, Value: v, Min: p.Min, Max: p.Max, Default: v})
		c.ctx.params = append(c.ctx.params, v)
	}
	b := &builder{spec: spec, sk: sk, clips: clips, rclips: rclips, c: c}
	if rclips == nil {
		b.rclips = make([]*RuntimeClip, len(clips))
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
				if read && (j == c.post[i].root || isDescendant(sk, j, c.post[i].root)) {
					op.apart[i] = false
					break
				}
			}
		}
	}
	c.ctx.stack, c.ctx.layers = make([]*SoAPose, depth+len(c.machines)), depth
	for i := range c.ctx.stack {
		c.ctx.stack[i] = NewPose(sk)
	}
	c.status = make([]LayerStatus, len(c.machines))
	c.clocks = make([]ClipClock, len(c.players))
	if err := b.events(); err != nil {
		return nil, err
	}
	for i := range c.machines {
		c.machines[i].snap = NewPose(sk)
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
		return fmt.Errorf("anim: unknown parameter %q (parameters: %s)", name, listNames(names, len(names)))
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
	return fmt.Errorf("anim: request %q: no such state or transition (states: %s)", name, listNames(c.stateNames, 32))
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
		Crossings(c.markers[n.index], n.clock.Duration, n.clock.Mode, n.clock.Loops, n.e0, n.adv, c.fire)
	}
}

// Events are the markers the last Update passed on the clip the timeline
// shows (Timeline), in the order passed; a seek (SetTime) fires nothing.
// The slice is the controller's, rewritten by the next Update.
func (c *Controller) Events() []Event { return c.events }

// Markers are clip i's markers, sorted by time: the clip's own and the
// spec's events on it. The slice is the controller's.
func (c *Controller) Markers(i int) []Marker {
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
	case n.clock.Mode == Loop && forward && a < 0:
		a += d
	case n.clock.Mode == Loop && !forward && a > 0:
		a -= d
	}
	mode := n.clock.Mode
	if mode != Loop {
		mode = Once // a step moves in clip time, not around a ping-pong
	}
	c.firing = n.index
	Crossings(c.markers[n.index], d, mode, 1, from, a, c.fire)
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
func (c *Controller) SetLoopMode(mode LoopMode) {
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
	Mode LoopMode
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
		return fmt.Errorf("anim: cut to %q: layer %q has no such state (states: %s)", name, m.name, listNames(c.stateNames, 32))
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
func (c *Controller) Evaluate(out *SoAPose) {
	if out.Len() != c.sk.NumJoints() {
		panic(fmt.Sprintf("anim: Evaluate output has %d joints, skeleton %d", out.Len(), c.sk.NumJoints()))
	}
	x := &c.ctx
	x.top = 0
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
				BlendSoA(out, x.rest, out, f, false)
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
				AddSoA(out, out, buf, w*f, m.mask)
			} else {
				MaskedBlendSoA(out, out, buf, w*f, m.mask, false)
			}
		}
	}
	if rest {
		out.CopyFrom(x.rest)
	}
	c.motion, c.extracted = identityMotion, identityMotion
	if rm := x.rm; rm != nil {
		c.motion = out.Motion
		c.extracted = rm.takeOut(out)
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
func (c *Controller) EvaluateShifted(dt float32, out *SoAPose) {
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
func (c *Controller) postProcess(out *SoAPose) {
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
			modelsOf(c.sk.Parents, out, c.models, op.need)
		case !op.apart[changed]:
			modelsBelow(c.sk.Parents, out, c.models, c.post[changed].root, c.dirty, op.need)
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

// builder resolves a spec against a skeleton and clips.
type builder struct {
	spec *Spec
	sk   *Skeleton
	// clips are the source clips, nil when the runtime clips were given.
	clips []Clip
	// rclips are the runtime clips, built from clips when first used.
	rclips []*RuntimeClip
	c      *Controller
	// nlerp is set while building below a node whose spec asks for Nlerp:
	// its clips sample their rotation keys with Nlerp too.
	nlerp bool
	// syncs are the blend nodes synced by a marker, resolved once every
	// clip's markers are known.
	syncs []markerSync
}

// markerSync is a blend node to align on a named marker.
type markerSync struct {
	n      *blendNode
	marker string
	at     string
}

func (b *builder) input(in Input) input {
	if in.Param == "" {
		return input{param: -1, value: in.Value}
	}
	return input{param: b.c.ParamIndex(in.Param)}
}

func (b *builder) optInput(in *Input, def float32) input {
	if in == nil {
		return input{param: -1, value: def}
	}
	return b.input(*in)
}

// wrapAt attaches a spec path to an error from elsewhere in the package.
func wrapAt(at string, err error) error {
	var se *SpecError
	if errors.As(err, &se) {
		return err
	}
	return &SpecError{Path: at, Err: errors.New(strings.TrimPrefix(err.Error(), "anim: "))}
}

// clipName is clip i's name.
func (b *builder) clipName(i int) string {
	if b.clips != nil {
		return b.clips[i].Name
	}
	return b.rclips[i].Name()
}

// clip resolves a clip reference and builds, once, its runtime clip; index
// is its place in the controller's clips.
func (b *builder) clip(ref ClipRef, at string) (rc *RuntimeClip, index int, err error) {
	i := ref.Index
	if ref.Name != "" {
		i = -1
		for k := range b.rclips {
			if b.clipName(k) == ref.Name {
				i = k
				break
			}
		}
		if i < 0 {
			names := make([]string, len(b.rclips))
			for k := range b.rclips {
				names[k] = b.clipName(k)
			}
			return nil, -1, specErrorf(at, "unknown clip %q (clips: %s)", ref.Name, listNames(names, 24))
		}
	} else if i < 0 || i >= len(b.rclips) {
		return nil, -1, specErrorf(at, "clip index %d out of range; the model has %d clips", i, len(b.rclips))
	}
	if b.rclips[i] == nil {
		rc, err := NewRuntimeClip(&b.clips[i], b.sk)
		if err != nil {
			return nil, -1, wrapAt(at, err)
		}
		b.rclips[i] = rc
	}
	return b.rclips[i], i, nil
}

func clipDuration(c *Clip) float32 {
	if c.Duration > 0 {
		return c.Duration
	}
	return c.ComputeDuration()
}

// events gathers every clip's markers: each runtime clip's own, then the
// spec's events, which must fall inside their clip.
func (b *builder) events() error {
	c := b.c
	c.markers = make([][]Marker, len(b.rclips))
	for i, rc := range b.rclips {
		if rc != nil {
			c.markers[i] = slices.Clone(rc.markers)
		}
	}
	for i, ev := range b.spec.Events {
		at := indexPath("events", i)
		rc, idx, err := b.clip(ev.Clip, joinPath(at, "clip"))
		if err != nil {
			return err
		}
		m := Marker{Time: ev.Time, Name: ev.Name}
		switch {
		case m.Name == "":
			return specErrorf(at, "event without a name")
		case !(m.Time >= 0 && m.Time <= rc.duration):
			return specErrorf(at, "event %q at %v s is outside clip %q (0 to %v s)", m.Name, m.Time, rc.name, rc.duration)
		}
		c.markers[idx] = append(c.markers[idx], m)
		sortMarkers(c.markers[idx])
	}
	if cs := b.spec.Contacts; cs != nil {
		switch {
		case len(cs.Joints) == 0:
			return specErrorf("contacts.joints", "no joints to find contacts for")
		case !(cs.Height > 0) || !(cs.Speed > 0):
			return specErrorf("contacts", "height %v and speed %v must be above 0 (model units: metres, or the file's own)", cs.Height, cs.Speed)
		}
		joints := make([]int, len(cs.Joints))
		for i, name := range cs.Joints {
			if joints[i] = b.sk.JointIndex(name); joints[i] < 0 {
				return wrapAt(indexPath("contacts.joints", i), unknownJoint(b.sk, name))
			}
		}
		for i, rc := range b.rclips {
			if rc != nil && rc.duration > 0 {
				c.markers[i] = append(c.markers[i], contacts(rc, b.sk, joints, cs.Joints, cs.Height, cs.Speed)...)
				sortMarkers(c.markers[i])
			}
		}
	}
	for _, s := range b.syncs {
		for i, child := range s.n.children {
			cn, ok := child.(*clipNode)
			if !ok {
				continue // only clip children have markers to align
			}
			k := slices.IndexFunc(c.markers[cn.index], func(m Marker) bool { return m.Name == s.marker })
			if k < 0 {
				return specErrorf(joinPath(s.at, "syncMarker"), "children[%d]: clip %q has no marker %q", i, b.rclips[cn.index].name, s.marker)
			}
			if span := cn.span(); span > 0 {
				cn.syncShift = c.markers[cn.index][k].Time / span
			}
		}
	}
	c.events = make([]Event, 0, 64)
	c.fire = func(m Marker) { c.events = append(c.events, Event{Clip: c.firing, Marker: m}) }
	return nil
}

// pose samples a PoseRef into a new buffer.
func (b *builder) pose(ref *PoseRef, at string) (*SoAPose, error) {
	clip, _, err := b.clip(ref.Clip, at)
	if err != nil {
		return nil, err
	}
	out := NewPose(b.sk)
	job := clip.NewSampleJob(false, out)
	job.Time = ref.Time
	job.Run()
	return out, nil
}

// firstFrame is the reference of an additive source given none: the
// source's own pose at time 0, which needs the source to be one clip.
func (b *builder) firstFrame(src *NodeSpec, srcAt, refAt string) (*SoAPose, error) {
	if src.Type != NodeClip {
		return nil, specErrorf(refAt, "missing: %s is a %s node, not a clip, so there is no first frame to default to", srcAt, src.Type)
	}
	return b.pose(&PoseRef{Clip: src.Clip}, srcAt)
}

// presubtract makes tree, the source of an additive layer or node, sample
// its clip's difference against ref (differenceClip) where it is one clip,
// and reports whether it does: the caller then takes no difference each
// frame.
func presubtract(tree node, ref *SoAPose) bool {
	cn, ok := tree.(*clipNode)
	if !ok {
		return false
	}
	d := cn.job.Clip.differenceClip(ref)
	if d == nil {
		return false
	}
	cn.job.Clip = d
	return true
}

func (b *builder) mask(m *MaskSpec, at string) ([]float32, error) {
	if m == nil {
		return nil, nil
	}
	// Capacity for the padding, zero there: the layers run their last
	// block in lanes (lanesEnd).
	w := make([]float32, b.sk.NumJoints(), soaPadded(b.sk.NumJoints()))
	for i, j := range m.Joints {
		if b.sk.JointIndex(j) < 0 {
			return nil, specErrorf(indexPath(joinPath(at, "joints"), i), "%v", unknownJoint(b.sk, j))
		}
		if err := SubtreeMask(b.sk, j, m.Falloff, w); err != nil {
			return nil, wrapAt(at, err)
		}
	}
	return w, nil
}

// machine builds layer li; need is the scratch depth it uses below its
// own output buffer.
func (b *builder) machine(li int) (need int, err error) {
	s := b.spec
	ls := &s.Layers[li]
	at := s.layerPath(li)
	m := machine{name: s.layerName(li), mode: ls.Mode, weight: b.optInput(ls.Weight, 1)}
	if m.mask, err = b.mask(ls.Mask, joinPath(at, "mask")); err != nil {
		return 0, err
	}
	var layerRef *SoAPose
	if ls.Reference != nil && ls.Mode == LayerAdditive {
		if layerRef, err = b.pose(ls.Reference, joinPath(at, "reference")); err != nil {
			return 0, err
		}
	}
	for si := range ls.States {
		ss := &ls.States[si]
		st := mstate{name: ss.Name}
		sat := s.statePath(li, si)
		if ss.Tree != nil {
			tree, n, err := b.node(ss.Tree, s.treePath(li, si))
			if err != nil {
				return 0, err
			}
			st.tree = tree
			need = max(need, n)
			if ls.Mode == LayerAdditive {
				switch {
				case ss.Reference != nil:
					st.ref, err = b.pose(ss.Reference, joinPath(sat, "reference"))
				case layerRef != nil:
					st.ref = layerRef
				default:
					st.ref, err = b.firstFrame(ss.Tree, s.treePath(li, si), joinPath(sat, "reference"))
				}
				if err != nil {
					return 0, err
				}
				st.diffed = presubtract(tree, st.ref)
			}
		}
		m.states = append(m.states, st)
		name := ss.Name
		if li > 0 {
			name = m.name + "/" + name
		}
		b.c.stateNames = append(b.c.stateNames, name)
	}
	if ls.Initial != "" {
		m.initial = m.stateIndex(ls.Initial)
	}
	for ti := range ls.Transitions {
		ts := &ls.Transitions[ti]
		tr := mtransition{
			name: ts.Name, to: m.stateIndex(ts.To), typ: ts.Type, duration: ts.Duration, ease: ts.Ease,
			auto: ts.Auto, matchPhase: ts.MatchPhase, sources: make([]bool, len(m.states)),
		}
		if ts.Window != nil {
			tr.window, tr.hasWindow = *ts.Window, true
		}
		for si := range m.states {
			tr.sources[si], _ = path.Match(ts.From, m.states[si].name) // syntax checked by Validate
		}
		m.trans = append(m.trans, tr)
	}
	m.autos = make([][]int, len(m.states))
	for ti, tr := range m.trans {
		for si := range m.states {
			if tr.auto && tr.to != si && tr.sources[si] {
				m.autos[si] = append(m.autos[si], ti)
			}
		}
	}
	b.c.machines = append(b.c.machines, m)
	// Blending two states needs a second buffer, and what each tree needs.
	return need + 1, nil
}

// node builds a tree; need is the number of scratch poses its evaluation
// borrows beyond the output it is given.
func (b *builder) node(ns *NodeSpec, at string) (node, int, error) {
	if ns.Nlerp && !b.nlerp {
		b.nlerp = true
		defer func() { b.nlerp = false }()
	}
	switch ns.Type {
	case NodeClip:
		clip, index, err := b.clip(ns.Clip, at)
		if err != nil {
			return nil, 0, err
		}
		loops := max(ns.Loops, 1)
		n := &clipNode{
			index:  index,
			job:    clip.NewSampleJob(b.nlerp, nil),
			clock:  ClipClock{Duration: clip.Duration(), Rate: 1, Mode: ns.Loop, Loops: loops},
			rate:   b.optInput(ns.Rate, 1),
			offset: ns.Offset,
		}
		b.c.players = append(b.c.players, n)
		return n, 0, nil
	case NodeLerp, NodeBlend1D, NodeBlend2D, NodeAverage, NodeCrossFade:
		return b.blend(ns, at)
	case NodeAdditive, NodeMask, NodeLayer:
		return b.layered(ns, at)
	}
	return nil, 0, specErrorf(joinPath(at, "type"), "unknown node type %d", ns.Type)
}

func (b *builder) blend(ns *NodeSpec, at string) (node, int, error) {
	n := &blendNode{
		kind: ns.Type, w: make([]float32, len(ns.Children)), sync: ns.Sync, nlerp: ns.Nlerp,
		duration: ns.Duration, ease: ns.Ease, frozen: ns.Frozen && ns.Type == NodeCrossFade,
		weighedAt: float32(math.NaN()),
	}
	if ns.SyncMarker != "" {
		b.syncs = append(b.syncs, markerSync{n: n, marker: ns.SyncMarker, at: at})
	}
	need := 0
	for i := range ns.Children {
		c, cn, err := b.node(&ns.Children[i], indexPath(joinPath(at, "children"), i))
		if err != nil {
			return nil, 0, err
		}
		n.children = append(n.children, c)
		need = max(need, cn)
	}
	if len(ns.Children) > 1 {
		need++
	}
	switch ns.Type {
	case NodeLerp:
		n.weight = b.optInput(ns.Weight, 0)
	case NodeBlend1D:
		n.param = b.input(ns.Param)
		n.positions = ns.Positions
		if n.positions == nil {
			n.positions = make([]float32, len(ns.Children))
			for i := range n.positions {
				n.positions[i] = float32(i)
			}
		}
	case NodeBlend2D:
		n.params = [2]input{b.input(ns.Params[0]), b.input(ns.Params[1])}
		n.points = ns.Points
		if ns.Mode != Blend2DTriangulate {
			n.lo, n.hi, n.corner, n.rect = rectCorners(ns.Points)
			if !n.rect && ns.Mode == Blend2DBilinear {
				return nil, 0, specErrorf(joinPath(at, "points"), "bilinear mode needs 4 points on the corners of an axis-aligned rectangle")
			}
		}
		if !n.rect {
			tris, err := triangulate(ns.Points)
			if err != nil {
				return nil, 0, specErrorf(joinPath(at, "points"), "%v", err)
			}
			n.tris = tris
		}
	case NodeAverage:
		for _, w := range ns.Weights {
			n.weights = append(n.weights, b.input(w))
		}
	case NodeCrossFade:
		n.param = b.input(ns.Param)
	}
	return n, need, nil
}

func (b *builder) layered(ns *NodeSpec, at string) (node, int, error) {
	base, need, err := b.node(ns.Base, joinPath(at, "base"))
	if err != nil {
		return nil, 0, err
	}
	n := &layerNode{base: base}
	add := func(child *NodeSpec, childAt string, mode LayerMode, weight *Input, mask *MaskSpec, maskAt string, ref *PoseRef, refAt string) error {
		c, cn, err := b.node(child, childAt)
		if err != nil {
			return err
		}
		need = max(need, cn+1) // the layer's pose is evaluated beside the base
		o := overlay{n: c, mode: mode, weight: b.optInput(weight, 1), nlerp: ns.Nlerp}
		if o.mask, err = b.mask(mask, maskAt); err != nil {
			return err
		}
		if mode == LayerAdditive {
			if ref != nil {
				o.ref, err = b.pose(ref, refAt)
			} else {
				o.ref, err = b.firstFrame(child, childAt, refAt)
			}
			if err != nil {
				return err
			}
			o.diffed = presubtract(c, o.ref)
		}
		n.layers = append(n.layers, o)
		return nil
	}
	switch ns.Type {
	case NodeAdditive:
		err = add(ns.Source, joinPath(at, "source"), LayerAdditive, ns.Weight, ns.Mask, joinPath(at, "mask"), ns.Reference, joinPath(at, "reference"))
	case NodeMask:
		err = add(ns.Overlay, joinPath(at, "overlay"), LayerOverride, ns.Weight, ns.Mask, joinPath(at, "mask"), nil, "")
	case NodeLayer:
		for i := range ns.Layers {
			l := &ns.Layers[i]
			lat := indexPath(joinPath(at, "layers"), i)
			if err = add(&l.Node, joinPath(lat, "node"), l.Mode, l.Weight, l.Mask, joinPath(lat, "mask"), l.Reference, joinPath(lat, "reference")); err != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, 0, err
	}
	return n, need, nil
}

func (b *builder) post(ps *PostSpec, at string) error {
	joints := make([]int, len(ps.Joints))
	for i, name := range ps.Joints {
		if joints[i] = b.sk.JointIndex(name); joints[i] < 0 {
			return specErrorf(indexPath(joinPath(at, "joints"), i), "%v", unknownJoint(b.sk, name))
		}
	}
	op := postOp{typ: ps.Type, weight: b.optInput(ps.Weight, 1)}
	for i := range 3 {
		op.target[i] = b.input(ps.Target[i])
		op.pole[i] = b.input(ps.Pole[i])
	}
	scratch := NewPose(b.sk)
	switch ps.Type {
	case PostTwoBoneIK:
		op.ik = TwoBoneIKJob{Skeleton: b.sk, Start: joints[0], Mid: joints[1], End: joints[2], Models: b.c.models, Pose: scratch}
		if err := op.ik.Validate(); err != nil {
			return wrapAt(joinPath(at, "joints"), err)
		}
		op.ik.Pose = nil
	case PostLookAt:
		fwd := ps.Forward
		if fwd == (mgl32.Vec3{}) {
			fwd = mgl32.Vec3{0, 0, 1}
		}
		op.look = LookAtJob{Skeleton: b.sk, Chain: joints, Shares: ps.Shares, Forward: fwd, Offset: ps.Offset, Limit: ps.Limit * math.Pi / 180, Models: b.c.models, Pose: scratch}
		if err := op.look.Validate(); err != nil {
			return wrapAt(joinPath(at, "joints"), err)
		}
		op.look.Pose = nil
	}
	op.root = joints[0] // IK's Start, the look-at chain's first
	reads := joints
	if ps.Type == PostTwoBoneIK {
		r := op.ik.readsModelOf()
		reads = r[:]
	}
	op.need = make([]bool, b.sk.NumJoints())
	for _, j := range reads {
		for ; j >= 0 && !op.need[j]; j = b.sk.Parents[j] {
			op.need[j] = true
		}
	}
	b.c.post = append(b.c.post, op)
	return nil
}
