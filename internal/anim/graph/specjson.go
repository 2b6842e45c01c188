package graph

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// ParseSpec reads a spec from JSON (the format is documented in docs/spec.md)
// and validates it (Spec.Validate). Errors are *SpecError and name the JSON
// path of the offending value, or the line and column of a syntax error.
// Every object may carry a "comment" string, which is ignored; any other
// unknown field is an error, so typos do not pass silently.
func ParseSpec(data []byte) (*Spec, error) {
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, jsonSyntaxError(data, err)
	}
	o, err := parseObject(raw, "", "spec", "params", "tree", "states", "transitions", "initial", "layers", "post", "events", "contacts", "rootMotion")
	if err != nil {
		return nil, err
	}
	s := &Spec{}
	for i, p := range o.list("params") {
		s.Params = append(s.Params, parseParam(p, indexPath("params", i), o))
	}
	forms := 0
	for _, k := range []string{"tree", "states", "layers"} {
		if o.has(k) {
			forms++
		}
	}
	if forms != 1 && o.err == nil {
		return nil, specErrorf("", "want exactly one of \"tree\", \"states\" or \"layers\"")
	}
	switch {
	case o.has("tree"):
		if o.has("transitions") || o.has("initial") {
			return nil, specErrorf("", "\"transitions\" and \"initial\" need \"states\", not \"tree\"")
		}
		s.form = formTree
		tree := parseNode(o.m["tree"], "tree", o)
		s.Layers = []LayerSpec{{States: []StateSpec{{Name: "default", Tree: &tree}}}}
	case o.has("states"):
		s.form = formStates
		s.Layers = []LayerSpec{parseMachine(o, "")}
	case o.has("layers"):
		if o.has("transitions") || o.has("initial") {
			return nil, specErrorf("", "\"transitions\" and \"initial\" belong inside each layer")
		}
		s.form = formLayers
		for i, l := range o.list("layers") {
			s.Layers = append(s.Layers, parseLayer(l, indexPath("layers", i), o))
		}
	}
	for i, p := range o.list("post") {
		s.Post = append(s.Post, parsePost(p, indexPath("post", i), o))
	}
	for i, e := range o.list("events") {
		at := indexPath("events", i)
		eo := o.child(e, at, "event", "clip", "time", "name")
		if eo.failed() {
			break
		}
		s.Events = append(s.Events, EventSpec{Clip: eo.clipRef("clip"), Time: eo.num("time", 0), Name: eo.str("name")})
	}
	if o.has("rootMotion") {
		ro := o.child(o.m["rootMotion"], "rootMotion", "root motion", "joint", "mode")
		if !ro.failed() {
			mode, err := anim.ParseRootMode(cmp.Or(ro.str("mode"), "xz"))
			if err != nil {
				ro.fail("mode", "%v", err)
			}
			s.RootMotion = &RootMotionSpec{Joint: ro.str("joint"), Mode: mode}
		}
	}
	if o.has("contacts") {
		co := o.child(o.m["contacts"], "contacts", "foot contacts", "joints", "height", "speed")
		if !co.failed() {
			s.Contacts = &ContactSpec{Joints: co.strs("joints"), Height: co.num("height", 0.03), Speed: co.num("speed", 0.25)}
		}
	}
	if o.err != nil {
		return nil, o.err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// jsonSyntaxError turns a decoding error into one with a line and column.
func jsonSyntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, the offending one included.
		pos := int(max(0, min(se.Offset-1, int64(len(data)))))
		line := 1 + bytes.Count(data[:pos], []byte("\n"))
		col := pos - bytes.LastIndexByte(data[:pos], '\n')
		return &SpecError{Err: fmt.Errorf("line %d, column %d: %w", line, col, err)}
	}
	return &SpecError{Err: err}
}

// object is one JSON object being read. Its getters record the first error
// in *errp (shared by the whole parse) and return zero values after it, so
// the parse reads straight through and reports the first problem.
type object struct {
	at   string
	m    map[string]json.RawMessage
	errp *error
	err  error // only used on the root; others share the root's
}

func parseObject(raw json.RawMessage, at, kind string, allowed ...string) (*object, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, specErrorf(at, "want a JSON object (%s)", kind)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != "comment" && !slices.Contains(allowed, k) {
			return nil, specErrorf(at, "unknown field %q in %s (fields: %s)", k, kind, strings.Join(allowed, ", "))
		}
	}
	o := &object{at: at, m: m}
	o.errp = &o.err
	return o, nil
}

// child opens a nested object that shares the parent's error.
func (o *object) child(raw json.RawMessage, at, kind string, allowed ...string) *object {
	if *o.errp != nil {
		return nil
	}
	c, err := parseObject(raw, at, kind, allowed...)
	if err != nil {
		*o.errp = err
		return nil
	}
	c.errp = o.errp
	return c
}

func (o *object) failed() bool { return o == nil || *o.errp != nil }

func (o *object) fail(field, format string, args ...any) {
	if *o.errp == nil {
		*o.errp = specErrorf(joinPath(o.at, field), format, args...)
	}
}

func (o *object) has(k string) bool {
	if o == nil {
		return false
	}
	_, ok := o.m[k]
	return ok
}

func (o *object) str(k string) string {
	if o.failed() || !o.has(k) {
		return ""
	}
	var s string
	if err := json.Unmarshal(o.m[k], &s); err != nil {
		o.fail(k, "want a string")
	}
	return s
}

func (o *object) num(k string, def float32) float32 {
	if o.failed() || !o.has(k) {
		return def
	}
	return o.numRaw(o.m[k], k)
}

func (o *object) numRaw(raw json.RawMessage, field string) float32 {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		o.fail(field, "want a number")
		return 0
	}
	if math.Abs(f) > math.MaxFloat32 {
		o.fail(field, "%g is out of range", f)
		return 0
	}
	return float32(f)
}

func (o *object) integer(k string, def int) int {
	if o.failed() || !o.has(k) {
		return def
	}
	var i int
	if err := json.Unmarshal(o.m[k], &i); err != nil {
		o.fail(k, "want an integer")
	}
	return i
}

func (o *object) boolean(k string) bool {
	if o.failed() || !o.has(k) {
		return false
	}
	var b bool
	if err := json.Unmarshal(o.m[k], &b); err != nil {
		o.fail(k, "want true or false")
	}
	return b
}

func (o *object) list(k string) []json.RawMessage {
	if o.failed() || !o.has(k) {
		return nil
	}
	var l []json.RawMessage
	if err := json.Unmarshal(o.m[k], &l); err != nil {
		o.fail(k, "want an array")
	}
	return l
}

func (o *object) strs(k string) []string {
	var out []string
	for i, raw := range o.list(k) {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			o.fail(indexPath(k, i), "want a string")
			return nil
		}
		out = append(out, s)
	}
	return out
}

func (o *object) nums(k string) []float32 {
	var out []float32
	for i, raw := range o.list(k) {
		out = append(out, o.numRaw(raw, indexPath(k, i)))
	}
	return out
}

func (o *object) vec3(k string) mgl32.Vec3 {
	var v mgl32.Vec3
	l := o.list(k)
	if l == nil {
		return v
	}
	if len(l) != 3 {
		o.fail(k, "want 3 numbers, got %d", len(l))
		return v
	}
	for i := range v {
		v[i] = o.numRaw(l[i], indexPath(k, i))
	}
	return v
}

// inputRaw reads a number (a constant) or a string (a parameter name).
func (o *object) inputRaw(raw json.RawMessage, field string) Input {
	if o.failed() {
		return Input{}
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || s == "" {
			o.fail(field, "want a parameter name or a number")
		}
		return Bind(s)
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		o.fail(field, "want a parameter name or a number")
	}
	return Const(float32(f))
}

func (o *object) input(k string) Input {
	if !o.has(k) {
		return Input{}
	}
	return o.inputRaw(o.m[k], k)
}

func (o *object) optInput(k string) *Input {
	if !o.has(k) {
		return nil
	}
	in := o.inputRaw(o.m[k], k)
	return &in
}

func (o *object) inputs(k string, n int) []Input {
	l := o.list(k)
	if l == nil {
		return nil
	}
	if n > 0 && len(l) != n {
		o.fail(k, "want %d values, got %d", n, len(l))
		return nil
	}
	out := make([]Input, len(l))
	for i, raw := range l {
		out[i] = o.inputRaw(raw, indexPath(k, i))
	}
	return out
}

func (o *object) input3(k string) [3]Input {
	var v [3]Input
	copy(v[:], o.inputs(k, 3))
	return v
}

func (o *object) clipRef(k string) ClipRef {
	if o.failed() || !o.has(k) {
		return ClipRef{}
	}
	raw := o.m[k]
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || s == "" {
			o.fail(k, "want a clip name or index")
		}
		return ClipNamed(s)
	}
	var i int
	if err := json.Unmarshal(raw, &i); err != nil || i < 0 {
		o.fail(k, "want a clip name or an index ≥ 0")
	}
	return ClipRef{Index: i}
}

func (o *object) ease(k string) Ease {
	if o.failed() || !o.has(k) {
		return Ease{}
	}
	raw := o.m[k]
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		c := o.nums(k)
		if len(c) != 2 {
			o.fail(k, "a Bézier ease is [p1, p2]")
			return Ease{}
		}
		return Ease{Shape: EaseBezier, P1: c[0], P2: c[1]}
	}
	e, err := ParseEase(o.str(k))
	if err != nil {
		o.fail(k, "%v", strings.TrimPrefix(err.Error(), "anim: "))
	}
	return e
}

func (o *object) poseRef(k string) *PoseRef {
	if !o.has(k) {
		return nil
	}
	r := o.child(o.m[k], joinPath(o.at, k), "reference", "clip", "time")
	if r.failed() {
		return nil
	}
	if !r.has("clip") {
		r.fail("clip", "reference needs a clip")
	}
	return &PoseRef{Clip: r.clipRef("clip"), Time: r.num("time", 0)}
}

func (o *object) mask(k string) *MaskSpec {
	if !o.has(k) {
		return nil
	}
	m := o.child(o.m[k], joinPath(o.at, k), "mask", "joints", "falloff")
	if m.failed() {
		return nil
	}
	return &MaskSpec{Joints: m.strs("joints"), Falloff: m.integer("falloff", 0)}
}

func parseParam(raw json.RawMessage, at string, parent *object) ParamSpec {
	o := parent.child(raw, at, "parameter", "name", "min", "max", "default")
	if o.failed() {
		return ParamSpec{}
	}
	p := ParamSpec{Name: o.str("name"), Min: o.num("min", 0), Max: o.num("max", 1)}
	p.Default = o.num("default", min(max(0, p.Min), p.Max))
	return p
}

func parseLayer(raw json.RawMessage, at string, parent *object) LayerSpec {
	o := parent.child(raw, at, "layer", "name", "mode", "weight", "mask", "reference", "initial", "states", "transitions")
	if o.failed() {
		return LayerSpec{}
	}
	l := parseMachine(o, at)
	l.Name = o.str("name")
	l.Mode, l.Weight, l.Mask, l.Reference = o.layerMix()
	return l
}

// layerMix reads what a machine layer and a layer node's entry share: how
// the layer combines, its weight, mask and additive reference.
func (o *object) layerMix() (mode LayerMode, weight *Input, mask *MaskSpec, ref *PoseRef) {
	switch m := o.str("mode"); m {
	case "", "override":
	case "additive":
		mode = LayerAdditive
	default:
		o.fail("mode", "unknown layer mode %q (want override or additive)", m)
	}
	return mode, o.optInput("weight"), o.mask("mask"), o.poseRef("reference")
}

// parseMachine reads the states, transitions and initial state of a layer
// object, or of the top-level object in the "states" form.
func parseMachine(o *object, at string) LayerSpec {
	var l LayerSpec
	l.Initial = o.str("initial")
	if o.has("states") && len(o.list("states")) == 0 {
		o.fail("states", "want at least one state")
	}
	for i, raw := range o.list("states") {
		sat := indexPath(joinPath(at, "states"), i)
		so := o.child(raw, sat, "state", "name", "tree", "reference")
		if so.failed() {
			break
		}
		st := StateSpec{Name: so.str("name"), Reference: so.poseRef("reference")}
		if so.has("tree") && !bytes.Equal(bytes.TrimSpace(so.m["tree"]), []byte("null")) {
			tree := parseNode(so.m["tree"], joinPath(sat, "tree"), so)
			st.Tree = &tree
		}
		l.States = append(l.States, st)
	}
	for i, raw := range o.list("transitions") {
		l.Transitions = append(l.Transitions, parseTransition(raw, indexPath(joinPath(at, "transitions"), i), o))
	}
	return l
}

// defaultFadeDuration is the cross-fade length of a JSON transition that
// gives none: long enough to hide a pop, short enough to feel responsive.
const defaultFadeDuration = 0.2

func parseTransition(raw json.RawMessage, at string, parent *object) TransitionSpec {
	o := parent.child(raw, at, "transition", "name", "from", "to", "type", "duration", "ease", "window", "auto", "match_phase")
	if o.failed() {
		return TransitionSpec{}
	}
	t := TransitionSpec{Name: o.str("name"), From: o.str("from"), To: o.str("to"), Auto: o.boolean("auto"), MatchPhase: o.boolean("match_phase")}
	if !o.has("from") {
		o.fail("from", "transition needs a source state (or \"*\")")
	}
	if !o.has("to") {
		o.fail("to", "transition needs a destination state")
	}
	switch ty := o.str("type"); ty {
	case "", "smooth":
	case "frozen":
		t.Type = TransitionFrozen
	case "immediate":
		t.Type = TransitionImmediate
	default:
		o.fail("type", "unknown transition type %q (want smooth, frozen or immediate)", ty)
	}
	t.Duration = o.num("duration", defaultFadeDuration)
	t.Ease = o.ease("ease")
	if o.has("window") {
		w := o.nums("window")
		if len(w) != 2 {
			o.fail("window", "want [begin, end]")
		} else {
			t.Window = &Window{Begin: w[0], End: w[1]}
		}
	}
	return t
}

func parsePost(raw json.RawMessage, at string, parent *object) PostSpec {
	o := parent.child(raw, at, "post-processing", "type", "joints", "target", "pole", "weight", "forward", "offset", "shares", "limit")
	if o.failed() {
		return PostSpec{}
	}
	var p PostSpec
	switch ty := o.str("type"); ty {
	case "two_bone_ik":
		p.Type = PostTwoBoneIK
		for _, k := range []string{"forward", "offset", "shares", "limit"} {
			if o.has(k) {
				o.fail(k, "%s does not apply to two_bone_ik", k)
			}
		}
	case "look_at":
		p.Type = PostLookAt
		if o.has("pole") {
			o.fail("pole", "pole does not apply to look_at")
		}
	default:
		o.fail("type", "unknown post-processing type %q (want two_bone_ik or look_at)", ty)
	}
	p.Joints = o.strs("joints")
	if !o.has("target") {
		o.fail("target", "needs a target [x, y, z]")
	}
	p.Target = o.input3("target")
	p.Pole = o.input3("pole")
	p.Weight = o.optInput("weight")
	p.Forward = o.vec3("forward")
	p.Offset = o.vec3("offset")
	if o.has("shares") {
		p.Shares = o.nums("shares")
	}
	p.Limit = o.num("limit", 0)
	return p
}

// nodeFields lists the fields each node type accepts besides "type".
var nodeFields = [...][]string{
	NodeClip:      {"clip", "rate", "loop", "loops", "offset"},
	NodeLerp:      {"children", "weight", "sync", "syncMarker", "nlerp"},
	NodeBlend1D:   {"children", "positions", "param", "sync", "syncMarker", "nlerp"},
	NodeBlend2D:   {"children", "points", "params", "mode", "sync", "syncMarker"},
	NodeAverage:   {"children", "weights", "sync", "syncMarker"},
	NodeCrossFade: {"children", "param", "duration", "ease", "frozen", "nlerp"},
	NodeAdditive:  {"base", "source", "weight", "reference", "mask"},
	NodeMask:      {"base", "overlay", "weight", "mask", "nlerp"},
	NodeLayer:     {"base", "layers"},
}

// parseNode reads a node object, or a bare string, which is shorthand for
// a looping clip player of that clip.
func parseNode(raw json.RawMessage, at string, parent *object) NodeSpec {
	if parent.failed() {
		return NodeSpec{}
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '"' {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil || name == "" {
			*parent.errp = specErrorf(at, "want a node object or a clip name")
		}
		return NodeSpec{Type: NodeClip, Clip: ClipNamed(name)}
	}
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		*parent.errp = specErrorf(at, "want a node object or a clip name")
		return NodeSpec{}
	}
	if head.Type == nil {
		*parent.errp = specErrorf(at, "node without a \"type\" (%s)", strings.Join(nodeTypeNames[:], ", "))
		return NodeSpec{}
	}
	ty := slices.Index(nodeTypeNames[:], *head.Type)
	if ty < 0 {
		*parent.errp = specErrorf(joinPath(at, "type"), "unknown node type %q (want %s)", *head.Type, strings.Join(nodeTypeNames[:], ", "))
		return NodeSpec{}
	}
	n := NodeSpec{Type: NodeType(ty)}
	o := parent.child(raw, at, n.Type.String()+" node", append([]string{"type"}, nodeFields[ty]...)...)
	if o.failed() {
		return n
	}
	children := func() {
		for i, c := range o.list("children") {
			n.Children = append(n.Children, parseNode(c, indexPath(joinPath(at, "children"), i), o))
		}
	}
	sub := func(k string) *NodeSpec {
		if !o.has(k) {
			return nil
		}
		c := parseNode(o.m[k], joinPath(at, k), o)
		return &c
	}
	n.Sync = o.boolean("sync")
	if o.has("syncMarker") {
		n.SyncMarker = o.str("syncMarker")
		n.Sync = true
	}
	n.Nlerp = o.boolean("nlerp")
	switch n.Type {
	case NodeClip:
		if !o.has("clip") {
			o.fail("clip", "clip node needs a clip")
		}
		n.Clip = o.clipRef("clip")
		n.Rate = o.optInput("rate")
		n.Loops = o.integer("loops", 0)
		n.Offset = o.num("offset", 0)
		switch m := o.str("loop"); m {
		case "", "loop":
			n.Loop = anim.Loop
		case "once":
			n.Loop = anim.Once
		case "pingpong", "ping-pong":
			n.Loop = anim.PingPong
		case "repeat":
			n.Loop = anim.Repeat
		default:
			o.fail("loop", "unknown loop mode %q (want loop, once, pingpong or repeat)", m)
		}
	case NodeLerp:
		n.Weight = o.optInput("weight")
		children()
	case NodeBlend1D:
		n.Param = o.input("param")
		if o.has("positions") {
			n.Positions = o.nums("positions")
		}
		children()
	case NodeBlend2D:
		copy(n.Params[:], o.inputs("params", 2))
		for i, raw := range o.list("points") {
			var p [2]float32
			if err := json.Unmarshal(raw, &p); err != nil {
				o.fail(indexPath("points", i), "want [x, y]")
				break
			}
			n.Points = append(n.Points, mgl32.Vec2{p[0], p[1]})
		}
		switch m := o.str("mode"); m {
		case "", "auto":
		case "bilinear":
			n.Mode = Blend2DBilinear
		case "triangulate":
			n.Mode = Blend2DTriangulate
		default:
			o.fail("mode", "unknown blend2d mode %q (want auto, bilinear or triangulate)", m)
		}
		children()
	case NodeAverage:
		n.Weights = o.inputs("weights", 0)
		children()
	case NodeCrossFade:
		n.Param = o.input("param")
		n.Duration = o.num("duration", defaultFadeDuration)
		n.Ease = o.ease("ease")
		n.Frozen = o.boolean("frozen")
		children()
	case NodeAdditive:
		n.Weight = o.optInput("weight")
		n.Reference = o.poseRef("reference")
		n.Mask = o.mask("mask")
		n.Base = sub("base")
		n.Source = sub("source")
	case NodeMask:
		n.Weight = o.optInput("weight")
		n.Mask = o.mask("mask")
		n.Base = sub("base")
		n.Overlay = sub("overlay")
	case NodeLayer:
		n.Base = sub("base")
		for i, raw := range o.list("layers") {
			lat := indexPath(joinPath(at, "layers"), i)
			lo := o.child(raw, lat, "layer entry", "node", "mode", "weight", "mask", "reference")
			if lo.failed() {
				break
			}
			var l NodeLayerSpec
			if !lo.has("node") {
				lo.fail("node", "layer entry needs a node")
				break
			}
			l.Node = parseNode(lo.m["node"], joinPath(lat, "node"), lo)
			l.Mode, l.Weight, l.Mask, l.Reference = lo.layerMix()
			n.Layers = append(n.Layers, l)
		}
	}
	return n
}
