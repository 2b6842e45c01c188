package graph

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// A Spec is the editable description of an animation controller: named
// parameters, layers of state machines whose states are blend trees, and
// post-processing (IK, look-at). It is plain data, written in JSON (see
// docs/spec.md and ParseSpec) or built in Go (DefaultSpec, BlendSpec,
// AdditiveSpec); NewController turns it into the runtime form against a
// skeleton and its clips. Clips and joints are referred to by name, so one
// spec serves every model whose names match.
type Spec struct {
	// Params are the named control values that node inputs bind to; their
	// order is the order Controller.Params reports.
	Params []ParamSpec
	// Layers are combined bottom-up into one pose: Layers[0] is the base,
	// applied over the skeleton's rest pose. At least one.
	Layers []LayerSpec
	// Post lists the IK and look-at operations run, in order, on the
	// blended local pose.
	Post []PostSpec
	// Events adds markers to clips, beside those the clips carry.
	Events []EventSpec
	// Contacts, when not nil, detects foot contacts as markers.
	Contacts *ContactSpec
	// RootMotion, when not nil, asks for root motion.
	RootMotion *RootMotionSpec

	// form records which JSON shorthand the spec was read from, so that
	// errors found later name paths as they appear in the file.
	form specForm
}

type specForm uint8

const (
	formLayers specForm = iota // {"layers": [...]}
	formStates                 // {"states": [...], "transitions": [...]}: one layer
	formTree                   // {"tree": {...}}: one layer with one state
)

// ParamSpec declares a named control parameter.
type ParamSpec struct {
	// Name is how inputs and Controller.SetParam refer to the parameter;
	// unique, not empty.
	Name string
	// Min and Max bound the values SetParam accepts (it clamps); Min ≤ Max.
	Min, Max float32
	// Default is the value at construction; clamped to [Min, Max].
	Default float32
}

// Input is a node input: a constant, or bound to a parameter by name.
type Input struct {
	// Param names the parameter; empty for a constant.
	Param string
	// Value is the constant when Param is empty.
	Value float32
}

// Const returns a constant input.
func Const(v float32) Input { return Input{Value: v} }

// Bind returns an input that follows the named parameter.
func Bind(param string) Input { return Input{Param: param} }

// String is the parameter name, or the constant.
func (in Input) String() string {
	if in.Param != "" {
		return in.Param
	}
	return fmt.Sprint(in.Value)
}

// ClipRef selects one of the model's clips: by Name when it is not empty,
// otherwise by Index into the clips given to NewController.
type ClipRef struct {
	// Name of the clip; the first clip with this name is used.
	Name string
	// Index into the clip list, used when Name is empty.
	Index int
}

// ClipNamed refers to a clip by name.
func ClipNamed(name string) ClipRef { return ClipRef{Name: name} }

// String is the quoted name, or #index.
func (r ClipRef) String() string {
	if r.Name != "" {
		return fmt.Sprintf("%q", r.Name)
	}
	return fmt.Sprintf("#%d", r.Index)
}

// PoseRef is a static pose: a clip sampled at one time. It is the reference
// an additive difference is taken against.
type PoseRef struct {
	// Clip is the clip sampled.
	Clip ClipRef
	// Time in seconds, clip-local, clamped to the clip.
	Time float32
}

// MaskSpec describes a per-joint weight mask: the union of the subtrees
// under Joints, each ramping in over its first Falloff joints (see
// SubtreeMask).
type MaskSpec struct {
	// Joints are the subtree roots, by joint name; at least one.
	Joints []string
	// Falloff is the number of joints over which the weight ramps up from
	// each root; 0 for a hard edge.
	Falloff int
}

// NodeType is the kind of a blend-tree node.
type NodeType uint8

const (
	// NodeClip is a leaf: a clip player with its own clock.
	NodeClip NodeType = iota
	// NodeLerp blends two children by Weight (0 → first, 1 → second).
	NodeLerp
	// NodeBlend1D places children at Positions on an axis; Param picks the
	// point, and the two neighbours around it are blended.
	NodeBlend1D
	// NodeBlend2D places children at Points on a plane; Params pick the
	// point. Four points on an axis-aligned rectangle blend bilinearly,
	// anything else is Delaunay-triangulated and the triangle containing
	// the point is blended by barycentric weights (three points: one
	// triangle).
	NodeBlend2D
	// NodeAverage is the flat weighted average of its children by Weights,
	// normalized to sum to 1.
	NodeAverage
	// NodeCrossFade fades from its first child to its second when Param
	// rises to ½ or above, and back when it falls, over Duration with Ease.
	NodeCrossFade
	// NodeAdditive adds the difference of Source against Reference to Base.
	NodeAdditive
	// NodeMask blends Overlay over Base joint by joint through Mask.
	NodeMask
	// NodeLayer applies a stack of override and additive Layers on Base.
	NodeLayer
)

var nodeTypeNames = [...]string{"clip", "lerp", "blend1d", "blend2d", "average", "crossfade", "additive", "mask", "layer"}

// String is the JSON name of the node type.
func (t NodeType) String() string { return enumName(t, nodeTypeNames[:], "NodeType") }

// Blend2DMode chooses how a NodeBlend2D weighs its points.
type Blend2DMode uint8

const (
	// Blend2DAuto is bilinear for four points on an axis-aligned rectangle
	// and triangulated otherwise.
	Blend2DAuto Blend2DMode = iota
	// Blend2DBilinear requires four rectangle corners.
	Blend2DBilinear
	// Blend2DTriangulate always triangulates.
	Blend2DTriangulate
)

// LayerMode is how a layer combines with the pose below it.
type LayerMode uint8

const (
	// LayerOverride blends the layer's pose over the pose below by its
	// weight (times the mask per joint).
	LayerOverride LayerMode = iota
	// LayerAdditive adds the layer's difference against its reference pose.
	LayerAdditive
)

// String is the JSON name of the mode.
func (m LayerMode) String() string {
	if m == LayerAdditive {
		return "additive"
	}
	return "override"
}

// NodeSpec describes one blend-tree node. Which fields apply depends on
// Type; the others must be left zero. Children are held by value: a tree is
// a tree, no node is shared.
type NodeSpec struct {
	// Type selects the node kind.
	Type NodeType

	// Clip is the clip a NodeClip plays.
	Clip ClipRef
	// Rate scales a NodeClip's playback (negative plays backwards, 0
	// holds); nil is 1.
	Rate *Input
	// Loop is what a NodeClip does at the end of its clip.
	Loop anim.LoopMode
	// Loops is the play count of a NodeClip in Repeat mode; 0 means 1.
	Loops int
	// Offset is a NodeClip's start time in seconds, clip-local.
	Offset float32

	// Children of NodeLerp (2), NodeBlend1D (≥ 1), NodeBlend2D (≥ 3),
	// NodeAverage (≥ 1) and NodeCrossFade (2).
	Children []NodeSpec
	// Positions of a NodeBlend1D's children on its axis, strictly
	// increasing, len = len(Children); nil places them at 0, 1, 2, ….
	Positions []float32
	// Points of a NodeBlend2D's children, len = len(Children), distinct
	// and not all on one line.
	Points []mgl32.Vec2
	// Mode of a NodeBlend2D.
	Mode Blend2DMode
	// Param is a NodeBlend1D's position on the axis (clamped to the end
	// positions), or a NodeCrossFade's selector (< ½ first child, ≥ ½
	// second).
	Param Input
	// Params are a NodeBlend2D's x and y (clamped to the samples' hull).
	Params [2]Input
	// Weights of a NodeAverage's children, len = len(Children), ≥ 0 and
	// normalized at run time.
	Weights []Input
	// Weight of a NodeLerp (required: 0 is the first child, 1 the second),
	// or of a NodeAdditive or NodeMask (nil: 1).
	Weight *Input
	// Sync puts the looping clips under a NodeLerp, NodeBlend1D,
	// NodeBlend2D or NodeAverage on one normalized clock that advances by
	// dt over the weighted duration of the children.
	Sync bool
	// SyncMarker, when set, syncs (Sync) with the clips aligned on their
	// first marker of this name instead of on their starts: every clip
	// child shows that marker at the same moment.
	SyncMarker string
	// Nlerp makes a node interpolate rotations with Nlerp instead of
	// Slerp: in its own blend and in sampling the rotation keys of every
	// clip below it (cheaper, and only approximately constant in speed).
	Nlerp bool

	// Duration of a NodeCrossFade's fade, seconds; 0 switches at once.
	Duration float32
	// Ease shapes a NodeCrossFade's fade.
	Ease Ease
	// Frozen stops the clock of the child a NodeCrossFade fades out of.
	Frozen bool

	// Base is the pose that NodeAdditive, NodeMask and NodeLayer modify.
	Base *NodeSpec
	// Source is the pose whose difference a NodeAdditive adds.
	Source *NodeSpec
	// Overlay is the pose a NodeMask blends over Base.
	Overlay *NodeSpec
	// Reference of a NodeAdditive; nil is the first frame (time 0) of
	// Source, which must then be a NodeClip.
	Reference *PoseRef
	// Mask weighs a NodeAdditive's or NodeMask's effect per joint; required
	// for NodeMask, nil means every joint for NodeAdditive.
	Mask *MaskSpec
	// Layers of a NodeLayer, applied in order over Base.
	Layers []NodeLayerSpec
}

// NodeLayerSpec is one layer of a NodeLayer.
type NodeLayerSpec struct {
	// Node produces the layer's pose.
	Node NodeSpec
	// Mode is override or additive.
	Mode LayerMode
	// Weight of the layer; nil is 1. As LayerSpec.Weight.
	Weight *Input
	// Mask weighs the layer per joint; nil is every joint.
	Mask *MaskSpec
	// Reference of an additive layer; nil is the first frame of Node,
	// which must then be a NodeClip.
	Reference *PoseRef
}

// LayerSpec is one state machine and how its pose combines with the layers
// below it.
type LayerSpec struct {
	// Name of the layer, unique; it qualifies state names ("gesture/wave")
	// for layers above the base. Empty names become "layer<i>" (the base:
	// "base").
	Name string
	// Mode is override or additive. The base layer is applied over the
	// rest pose.
	Mode LayerMode
	// Weight of the layer; nil is 1. An override layer's weight is read
	// within [0, 1]: 0 and below leave the pose below, 1 and above replace
	// it. An additive layer's scales its difference (AddSoA): above 1
	// exaggerates it, below 0 applies its inverse.
	Weight *Input
	// Mask weighs the layer per joint; nil is every joint.
	Mask *MaskSpec
	// Reference is the default additive reference for the layer's states.
	Reference *PoseRef
	// Initial is the state the layer starts in; empty is States[0].
	Initial string
	// States of the machine; at least one, names unique.
	States []StateSpec
	// Transitions between states, searched in order.
	Transitions []TransitionSpec
}

// StateSpec is one state: a blend tree, or nothing.
type StateSpec struct {
	// Name, unique in its layer, not empty, without '/'.
	Name string
	// Tree is the state's blend tree. A nil tree is an empty state: the
	// layer contributes nothing while in it, so transitions to and from it
	// fade the whole layer out and in (the rest pose on the base layer).
	Tree *NodeSpec
	// Reference of a state in an additive layer; nil falls back to the
	// layer's Reference, then to the first frame of Tree if Tree is a
	// NodeClip.
	Reference *PoseRef
}

// TransitionType is how a transition blends its two states.
type TransitionType uint8

const (
	// TransitionSmooth cross-fades with both states' clocks running.
	TransitionSmooth TransitionType = iota
	// TransitionFrozen cross-fades from the source pose frozen at the
	// moment the transition starts.
	TransitionFrozen
	// TransitionImmediate switches at once; Duration and Ease are ignored.
	TransitionImmediate
)

var transitionTypeNames = [...]string{"smooth", "frozen", "immediate"}

// String is the JSON name of the transition type.
func (t TransitionType) String() string { return enumName(t, transitionTypeNames[:], "TransitionType") }

// Window is a range of normalized time, both ends included.
type Window struct {
	// Begin and End bound the range: 0 ≤ Begin ≤ End ≤ 1.
	Begin, End float32
}

// TransitionSpec is an edge of a state machine (GEA §12.10.4).
type TransitionSpec struct {
	// Name lets Controller.Request take this transition by name; may be
	// empty, and several transitions from different sources may share one.
	Name string
	// From is the source state, or a pattern of path.Match syntax: "*" is
	// every state, "walk*" every state whose name starts with walk.
	From string
	// To is the destination state.
	To string
	// Type of blend.
	Type TransitionType
	// Duration of the cross-fade in seconds.
	Duration float32
	// Ease shapes the cross-fade's weight over its duration.
	Ease Ease
	// Window, if not nil, restricts the transition to moments where the
	// source's normalized time is inside it; a request outside waits for
	// the window to open.
	Window *Window
	// Auto transitions are taken without a request, as soon as the source
	// is settled (not blending) and the window is open.
	Auto bool
	// MatchPhase starts the destination at the source's normalized time
	// instead of its beginning: walk to run keeps the feet in step.
	MatchPhase bool
}

// PostType is the kind of a post-processing operation.
type PostType uint8

const (
	// PostTwoBoneIK is a TwoBoneIKJob.
	PostTwoBoneIK PostType = iota
	// PostLookAt is a LookAtJob.
	PostLookAt
)

var postTypeNames = [...]string{"two_bone_ik", "look_at"}

// String is the JSON name of the post-processing type.
func (t PostType) String() string { return enumName(t, postTypeNames[:], "PostType") }

// PostSpec describes one IK or look-at operation. Targets and poles are
// inputs, so parameters (sliders) can move them.
type PostSpec struct {
	// Type selects the operation.
	Type PostType
	// Joints by name: start, middle and end for PostTwoBoneIK; the chain
	// from the joint nearest the root to the aiming one for PostLookAt.
	Joints []string
	// Target in model space, metres.
	Target [3]Input
	// Pole of a PostTwoBoneIK: the model-space direction the middle joint
	// bends towards; all zero keeps the current bending plane.
	Pole [3]Input
	// Forward is a PostLookAt's aim axis in the last joint's local space;
	// zero means +Z.
	Forward mgl32.Vec3
	// Offset is a PostLookAt's eye position in the last joint's space.
	Offset mgl32.Vec3
	// Shares of a PostLookAt's chain joints; nil is equal shares.
	Shares []float32
	// Limit of a PostLookAt, in degrees, 0 to 180: the furthest it turns
	// the aim, fading to no turn for a target straight behind
	// (LookAtJob.Limit); 0 is no limit.
	Limit float32
	// Weight of the operation, 0…1; nil is 1.
	Weight *Input
}

// SpecError is an error in a spec, with the JSON path of the offending
// value (`states[1].tree.children[0]`).
type SpecError struct {
	// Path of the value in the spec's JSON form; empty for the whole spec.
	Path string
	// Err says what is wrong.
	Err error
}

// Error is "anim: spec PATH: what is wrong".
func (e *SpecError) Error() string {
	if e.Path == "" {
		return "anim: spec: " + e.Err.Error()
	}
	return "anim: spec " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *SpecError) Unwrap() error { return e.Err }

func specErrorf(at, format string, args ...any) error {
	return &SpecError{Path: at, Err: fmt.Errorf(format, args...)}
}

// joinPath appends a field name to a JSON path.
func joinPath(at, field string) string {
	if at == "" {
		return field
	}
	return at + "." + field
}

func indexPath(at string, i int) string { return fmt.Sprintf("%s[%d]", at, i) }

// pathForm is the form whose paths errors use: the form the spec was read
// in, unless it was edited since into a shape that form cannot express.
func (s *Spec) pathForm() specForm {
	switch {
	case len(s.Layers) != 1:
		return formLayers
	case s.form == formTree && len(s.Layers[0].States) != 1:
		return formStates
	}
	return s.form
}

// The paths of a spec's parts, as they read in the form the spec was
// written in.
func (s *Spec) layerPath(li int) string {
	if s.pathForm() == formLayers {
		return indexPath("layers", li)
	}
	return ""
}

func (s *Spec) statePath(li, si int) string {
	if s.pathForm() == formTree {
		return ""
	}
	return indexPath(joinPath(s.layerPath(li), "states"), si)
}

func (s *Spec) treePath(li, si int) string { return joinPath(s.statePath(li, si), "tree") }

// layerName is the layer's name, or the one it is given when empty.
func (s *Spec) layerName(li int) string {
	if n := s.Layers[li].Name; n != "" {
		return n
	}
	if li == 0 {
		return "base"
	}
	return fmt.Sprintf("layer%d", li)
}

func finite(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }

// ClipWeight is one entry of a fixed blend: a clip by name and its weight.
type ClipWeight struct {
	// Clip is the clip's name.
	Clip string
	// Weight is relative; weights are normalized by their sum.
	Weight float32
}

// DefaultSpec is the spec for a model that comes without one: every clip,
// looping, on a NodeBlend1D at positions 0, 1, …, len(clips)−1, driven by
// the parameter "blend" (default 0, the first clip). Clips are referenced
// by index, so unnamed or duplicate names are fine. With no clips the single
// state is empty and the controller holds the rest pose.
func DefaultSpec(clips []anim.Clip) *Spec {
	st := StateSpec{Name: "default"}
	var params []ParamSpec
	if len(clips) > 0 {
		tree := &NodeSpec{Type: NodeBlend1D, Param: Bind("blend")}
		for i := range clips {
			tree.Children = append(tree.Children, NodeSpec{Type: NodeClip, Clip: ClipRef{Index: i}, Loop: anim.Loop})
		}
		st.Tree = tree
		params = []ParamSpec{{Name: "blend", Min: 0, Max: float32(len(clips) - 1)}}
	}
	return &Spec{Params: params, Layers: []LayerSpec{{States: []StateSpec{st}}}, form: formTree}
}

// BlendSpec is a fixed blend of clips (the viewer's -blend Walk:0.7,Run:0.3):
// a NodeAverage of looping players that all start at time 0 and run at rate
// 1, so they are at the same local time (modulo their lengths), weighted by
// the normalized weights. Weights are constants, not parameters.
func BlendSpec(weights []ClipWeight) *Spec {
	tree := &NodeSpec{Type: NodeAverage}
	for _, cw := range weights {
		tree.Children = append(tree.Children, NodeSpec{Type: NodeClip, Clip: ClipNamed(cw.Clip), Loop: anim.Loop})
		tree.Weights = append(tree.Weights, Const(cw.Weight))
	}
	return &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "default", Tree: tree}}}}, form: formTree}
}

// AdditiveSpec plays base looping with the difference of additive (also
// looping) against additive's own pose at refTime added on top, with the
// weight bound to the parameter "additive" (default weight, range 0 to
// max(1, weight)). It is the viewer's -additive CLIP:W[@REFTIME].
func AdditiveSpec(base, additive string, weight, refTime float32) *Spec {
	tree := &NodeSpec{
		Type:      NodeAdditive,
		Base:      &NodeSpec{Type: NodeClip, Clip: ClipNamed(base), Loop: anim.Loop},
		Source:    &NodeSpec{Type: NodeClip, Clip: ClipNamed(additive), Loop: anim.Loop},
		Reference: &PoseRef{Clip: ClipNamed(additive), Time: refTime},
		Weight:    &Input{Param: "additive"},
	}
	return &Spec{
		Params: []ParamSpec{{Name: "additive", Min: 0, Max: max(1, weight), Default: weight}},
		Layers: []LayerSpec{{States: []StateSpec{{Name: "default", Tree: tree}}}},
		form:   formTree,
	}
}

// ParseClipWeights reads the -blend flag's syntax, "Walk:0.7,Run:0.3": a
// comma-separated list of NAME:WEIGHT, weights ≥ 0 and not all zero.
func ParseClipWeights(s string) ([]ClipWeight, error) {
	var out []ClipWeight
	var total float32
	for _, item := range strings.Split(s, ",") {
		name, w, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok || name == "" {
			return nil, fmt.Errorf("anim: blend entry %q: want NAME:WEIGHT", item)
		}
		f, err := parseFloat32(w)
		if err != nil || !(f >= 0) {
			return nil, fmt.Errorf("anim: blend entry %q: weight %q is not a number ≥ 0", item, w)
		}
		out = append(out, ClipWeight{Clip: name, Weight: f})
		total += f
	}
	if total <= 0 {
		return nil, fmt.Errorf("anim: blend %q: weights sum to zero", s)
	}
	return out, nil
}

// ParseAdditive reads the -additive flag's syntax, "CLIP:W[@REFTIME]", and
// returns the clip name, the weight and the reference time (0 if absent).
func ParseAdditive(s string) (clip string, weight, refTime float32, err error) {
	clip, rest, ok := strings.Cut(s, ":")
	if !ok || clip == "" {
		return "", 0, 0, fmt.Errorf("anim: additive %q: want CLIP:WEIGHT[@REFTIME]", s)
	}
	ws, ts, hasTime := strings.Cut(rest, "@")
	if weight, err = parseFloat32(ws); err != nil {
		return "", 0, 0, fmt.Errorf("anim: additive %q: weight %q is not a number", s, ws)
	}
	if hasTime {
		if refTime, err = parseFloat32(ts); err != nil {
			return "", 0, 0, fmt.Errorf("anim: additive %q: reference time %q is not a number", s, ts)
		}
	}
	return clip, weight, refTime, nil
}

// parseFloat32 parses a finite number, surrounding spaces allowed.
func parseFloat32(s string) (float32, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 32)
	if err != nil {
		return 0, err
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("%v is not finite", f)
	}
	return float32(f), nil
}

// EventSpec places a marker on a clip of a spec.
type EventSpec struct {
	Clip ClipRef
	Time float32
	Name string
}

// ContactSpec detects foot contacts: on every clip the spec plays, a
// marker "JOINT:down" where one of Joints comes down, its height above its
// lowest point in the clip under Height and its vertical speed under Speed
// (model space, metres and metres per second; vertical because a cycle
// animated in place slides the planted foot back at the walking speed).
type ContactSpec struct {
	Joints        []string
	Height, Speed float32
}

// RootMotionSpec turns root motion on for a spec: Joint names the root
// joint ("" for the top joint of the skeleton's first skin, which the
// caller, knowing the skins, resolves and passes to
// Controller.SetRootMotion).
type RootMotionSpec struct {
	Joint string
	Mode  anim.RootMode
}

// enumName is the String of the package's byte-sized enums: the value's
// entry in names, or typeName(n) for a value past the table, so that a
// corrupt value still prints as something to debug.
func enumName[E ~uint8](v E, names []string, typeName string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typeName, uint8(v))
}
