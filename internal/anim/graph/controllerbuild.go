package graph

import (
	"errors"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// builder resolves a spec against a skeleton and clips.
type builder struct {
	spec *Spec
	sk   *anim.Skeleton
	// clips are the source clips, nil when the runtime clips were given.
	clips []anim.Clip
	// rclips are the runtime clips, built from clips when first used.
	rclips []*anim.RuntimeClip
	c      *Controller
	// nlerp is set while building below a node whose spec asks for Nlerp:
	// its clips sample their rotation keys with Nlerp too.
	nlerp bool
	// syncs are the blend nodes synced by a marker, resolved once every
	// clip's markers are known.
	syncs []markerSync
	// lent is how many clip players a frame can evaluate: for each layer,
	// three times its largest state's (an interrupted blend of two states
	// snapshotted, then the new one), the cache pool's size where it is
	// fewer than the players.
	lent int
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
func (b *builder) clip(ref ClipRef, at string) (rc *anim.RuntimeClip, index int, err error) {
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
			return nil, -1, specErrorf(at, "unknown clip %q (clips: %s)", ref.Name, anim.ListNames(names, 24))
		}
	} else if i < 0 || i >= len(b.rclips) {
		return nil, -1, specErrorf(at, "clip index %d out of range; the model has %d clips", i, len(b.rclips))
	}
	if b.rclips[i] == nil {
		rc, err := anim.NewRuntimeClip(&b.clips[i], b.sk)
		if err != nil {
			return nil, -1, wrapAt(at, err)
		}
		b.rclips[i] = rc
	}
	return b.rclips[i], i, nil
}

// events gathers every clip's markers: each runtime clip's own, then the
// spec's events, which must fall inside their clip.
func (b *builder) events() error {
	c := b.c
	c.markers = make([][]anim.Marker, len(b.rclips))
	for i, rc := range b.rclips {
		if rc != nil {
			c.markers[i] = slices.Clone(rc.Markers())
		}
	}
	for i, ev := range b.spec.Events {
		at := indexPath("events", i)
		rc, idx, err := b.clip(ev.Clip, joinPath(at, "clip"))
		if err != nil {
			return err
		}
		m := anim.Marker{Time: ev.Time, Name: ev.Name}
		switch {
		case m.Name == "":
			return specErrorf(at, "event without a name")
		case !(m.Time >= 0 && m.Time <= rc.Duration()):
			return specErrorf(at, "event %q at %v s is outside clip %q (0 to %v s)", m.Name, m.Time, rc.Name(), rc.Duration())
		}
		c.markers[idx] = append(c.markers[idx], m)
		anim.SortMarkers(c.markers[idx])
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
			var err error
			if joints[i], err = b.sk.FindJoint(name); err != nil {
				return wrapAt(indexPath("contacts.joints", i), err)
			}
		}
		for i, rc := range b.rclips {
			if rc != nil && rc.Duration() > 0 {
				c.markers[i] = append(c.markers[i], anim.Contacts(rc, b.sk, joints, cs.Joints, cs.Height, cs.Speed)...)
				anim.SortMarkers(c.markers[i])
			}
		}
	}
	for _, s := range b.syncs {
		for i, child := range s.n.children {
			cn, ok := child.(*clipNode)
			if !ok {
				continue // only clip children have markers to align
			}
			k := slices.IndexFunc(c.markers[cn.index], func(m anim.Marker) bool { return m.Name == s.marker })
			if k < 0 {
				return specErrorf(joinPath(s.at, "syncMarker"), "children[%d]: clip %q has no marker %q", i, b.rclips[cn.index].Name(), s.marker)
			}
			if span := cn.span(); span > 0 {
				cn.syncShift = c.markers[cn.index][k].Time / span
			}
		}
	}
	c.events = make([]Event, 0, 64)
	c.fire = func(m anim.Marker) { c.events = append(c.events, Event{Clip: c.firing, Marker: m}) }
	return nil
}

// pose samples a PoseRef into a new buffer.
func (b *builder) pose(ref *PoseRef, at string) (*anim.SoAPose, error) {
	clip, _, err := b.clip(ref.Clip, at)
	if err != nil {
		return nil, err
	}
	out := anim.NewPose(b.sk)
	job := clip.NewSampleJob(false, out)
	job.Time = ref.Time
	job.Run()
	return out, nil
}

// firstFrame is the reference of an additive source given none: the
// source's own pose at time 0, which needs the source to be one clip.
func (b *builder) firstFrame(src *NodeSpec, srcAt, refAt string) (*anim.SoAPose, error) {
	if src.Type != NodeClip {
		return nil, specErrorf(refAt, "missing: %s is a %s node, not a clip, so there is no first frame to default to", srcAt, src.Type)
	}
	return b.pose(&PoseRef{Clip: src.Clip}, srcAt)
}

// presubtract makes tree, the source of an additive layer or node, sample
// its clip's difference against ref (DifferenceClip) where it is one clip,
// and reports whether it does: the caller then takes no difference each
// frame.
func presubtract(tree node, ref *anim.SoAPose) bool {
	cn, ok := tree.(*clipNode)
	if !ok {
		return false
	}
	d := cn.job.Clip.DifferenceClip(ref)
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
	w := anim.NewMask(b.sk)
	for i, j := range m.Joints {
		if _, err := b.sk.FindJoint(j); err != nil {
			return nil, specErrorf(indexPath(joinPath(at, "joints"), i), "%v", err)
		}
		if err := anim.SubtreeMask(b.sk, j, m.Falloff, w); err != nil {
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
	var layerRef *anim.SoAPose
	if ls.Reference != nil && ls.Mode == LayerAdditive {
		if layerRef, err = b.pose(ls.Reference, joinPath(at, "reference")); err != nil {
			return 0, err
		}
	}
	largest := 0
	for si := range ls.States {
		ss := &ls.States[si]
		st := mstate{name: ss.Name}
		sat := s.statePath(li, si)
		if ss.Tree != nil {
			before := len(b.c.players)
			tree, n, err := b.node(ss.Tree, s.treePath(li, si))
			if err != nil {
				return 0, err
			}
			largest = max(largest, len(b.c.players)-before)
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
	b.lent += 3 * largest
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
			slot:   -1,
			clock:  anim.ClipClock{Duration: clip.Duration(), Rate: 1, Mode: ns.Loop, Loops: loops},
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
		var err error
		if joints[i], err = b.sk.FindJoint(name); err != nil {
			return specErrorf(indexPath(joinPath(at, "joints"), i), "%v", err)
		}
	}
	op := postOp{typ: ps.Type, weight: b.optInput(ps.Weight, 1)}
	for i := range 3 {
		op.target[i] = b.input(ps.Target[i])
		op.pole[i] = b.input(ps.Pole[i])
	}
	scratch := anim.NewPose(b.sk)
	switch ps.Type {
	case PostTwoBoneIK:
		op.ik = anim.TwoBoneIKJob{Skeleton: b.sk, Start: joints[0], Mid: joints[1], End: joints[2], Models: b.c.models, Pose: scratch}
		if err := op.ik.Validate(); err != nil {
			return wrapAt(joinPath(at, "joints"), err)
		}
		op.ik.Pose = nil
	case PostLookAt:
		fwd := ps.Forward
		if fwd == (mgl32.Vec3{}) {
			fwd = mgl32.Vec3{0, 0, 1}
		}
		op.look = anim.LookAtJob{Skeleton: b.sk, Chain: joints, Shares: ps.Shares, Forward: fwd, Offset: ps.Offset, Limit: ps.Limit * math.Pi / 180, Models: b.c.models, Pose: scratch}
		if err := op.look.Validate(); err != nil {
			return wrapAt(joinPath(at, "joints"), err)
		}
		op.look.Pose = nil
	}
	op.root = joints[0] // IK's Start, the look-at chain's first
	reads := joints
	if ps.Type == PostTwoBoneIK {
		r := op.ik.ReadsModelOf()
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
