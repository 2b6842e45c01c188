package character

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/gltfload"
)

// Character owns a loaded model, the animation controller that poses it,
// and every per-frame buffer, sized once so that a frame allocates nothing.
type Character struct {
	Model *gltfload.Model
	// Runtime are the clips the controller plays, one per clip of Model in
	// runtime form (asset.CompressClips); nil: Model's clips as loaded.
	Runtime []*anim.RuntimeClip
	Ctl     *graph.Controller
	Spec    *graph.Spec // what ctl was built from
	// ClipMode: the controller is the generated clip browser, whose
	// base-layer states are the model's clips in order; otherwise it runs a
	// blend-tree spec.
	ClipMode bool
	// OneClock: the spec is QuickSpec's (-blend, -additive), clips on one
	// local clock, whose loop mode follows the timeline's L as the clip
	// browser's does.
	OneClock bool
	Clip     int // clip mode: the clip requested last; -1 when there are none
	pose     *anim.SoAPose
	models   []float32 // model matrices, anim.ModelPaletteJob's layout
	// mp is the palette job of the first skin and pjs those of the
	// others, kept from frame to frame with what they keep of their skins
	// (the inverse binds in row layout).
	mp       anim.ModelPaletteJob
	pjs      []anim.PaletteJob
	Palettes [][]float32 // per skin
	// BindPose shows the skeleton's rest pose instead of the animation,
	// whose clock goes on.
	BindPose bool
	// reach is the distance from the root to the farthest joint in the
	// rest pose, the scale of the inspector's axes.
	reach float32
	// inSkin marks the joints of any skin, for the skeleton overlay;
	// every joint when the model has no skin.
	inSkin []bool
	// blendState is the clip browser's state that mixes its clips by the
	// clip panel's weights, the parameters blendParams (per clip); live
	// holds ClipWeights' answer.
	blendState  string
	blendParams []int
	live        []float32
	// MorphOverride pins morph channels (Skeleton.MorphRest's order) at a
	// weight whatever the animation says; NaN leaves a channel to it.
	MorphOverride []float32
	// morphList lists the nodes with morph targets, made once.
	morphList []int
	// Root is the model transform root motion has carried the character
	// to (the identity with root motion off); root is its state.
	Root anim.Transform
	root rootState
	// ghost holds the poses of onion skins and trails.
	ghost ghosts
	// choices, keys and rates are laid out once (timeline).
	choices []string
	keys    [][]float32
	rates   []float32
	// clipNames are ClipName's, made on first use.
	clipNames []string
}

// ClipSpec is the clip browser: one state per clip, each reachable from any
// state by a smooth cross-fade of fade seconds (requested by the state's
// name) or by a cut (requested as "cut:NAME"). The window's clips play once
// so that a time past the end holds the last frame and the timeline loops
// them; a crowd's loop on their own clocks.
func ClipSpec(m *gltfload.Model, initial int, fade float32, loop anim.LoopMode) *graph.Spec {
	ls := graph.LayerSpec{Name: "clips"}
	for i := range m.Clips {
		name := asset.ClipName(m, i)
		ls.States = append(ls.States, graph.StateSpec{Name: name, Tree: &graph.NodeSpec{Type: graph.NodeClip, Clip: graph.ClipRef{Index: i}, Loop: loop}})
		ls.Transitions = append(ls.Transitions,
			graph.TransitionSpec{From: "*", To: name, Type: graph.TransitionSmooth, Duration: fade, Ease: graph.EaseInOut},
			graph.TransitionSpec{Name: "cut:" + name, From: "*", To: name, Type: graph.TransitionImmediate})
	}
	if initial >= 0 && initial < len(m.Clips) {
		ls.Initial = asset.ClipName(m, initial)
	}
	if len(ls.States) == 0 {
		ls.States = []graph.StateSpec{{Name: "rest"}}
	}
	return &graph.Spec{Layers: []graph.LayerSpec{ls}}
}

// addBlendState gives the clip browser's spec its blend state: every clip,
// looping, mixed by a weight parameter each (0 to 1, none at first), which
// a cross-fade of fade seconds reaches from any clip at the clip's phase.
// It returns the state's name: "blend", made unique among the clips'.
func addBlendState(spec *graph.Spec, m *gltfload.Model, fade float32) string {
	if len(m.Clips) == 0 {
		return ""
	}
	name := "blend"
	for taken := true; taken; {
		taken = false
		for i := range m.Clips {
			if asset.ClipName(m, i) == name {
				name += "+"
				taken = true
			}
		}
	}
	tree := &graph.NodeSpec{Type: graph.NodeAverage}
	for i := range m.Clips {
		tree.Children = append(tree.Children, graph.NodeSpec{Type: graph.NodeClip, Clip: graph.ClipRef{Index: i}, Loop: anim.Once})
		tree.Weights = append(tree.Weights, graph.Bind(blendParam(m, i)))
		spec.Params = append(spec.Params, graph.ParamSpec{Name: blendParam(m, i), Max: 1})
	}
	ls := &spec.Layers[0]
	ls.States = append(ls.States, graph.StateSpec{Name: name, Tree: tree})
	ls.Transitions = append(ls.Transitions,
		graph.TransitionSpec{From: "*", To: name, Type: graph.TransitionSmooth, Duration: fade, Ease: graph.EaseInOut, MatchPhase: true})
	return name
}

// blendParam is the parameter of clip i's weight in the blend state.
func blendParam(m *gltfload.Model, i int) string { return "weight:" + asset.ClipName(m, i) }

// New builds the character for a model, playing its clips in runtime form
// (nil: as loaded): with a nil spec, the clip browser starting on clip
// (the first when clip is -1).
func New(m *gltfload.Model, runtime []*anim.RuntimeClip, spec *graph.Spec, clip int, fade float32) (*Character, error) {
	if err := m.Skeleton.Validate(); err != nil {
		return nil, err
	}
	n := m.Skeleton.NumJoints()
	if runtime != nil && len(runtime) != len(m.Clips) {
		return nil, fmt.Errorf("%s: %d runtime clips for %d clips", m.Name, len(runtime), len(m.Clips))
	}
	c := &Character{Model: m, Runtime: runtime, Clip: -1, pose: anim.NewPose(&m.Skeleton), models: make([]float32, anim.PaletteFloats*n)}
	c.MorphOverride = make([]float32, len(m.Skeleton.MorphRest))
	for k := range c.MorphOverride {
		c.MorphOverride[k] = float32(math.NaN())
	}
	if spec == nil {
		c.ClipMode = true
		if len(m.Clips) > 0 {
			c.Clip = max(clip, 0)
		}
		spec = ClipSpec(m, c.Clip, fade, anim.Once)
		c.blendState = addBlendState(spec, m, fade)
	}
	c.Spec = spec
	ctl, err := c.newController()
	if err != nil {
		return nil, err
	}
	c.Ctl = ctl
	if c.ClipMode {
		c.live = make([]float32, len(m.Clips))
		c.blendParams = make([]int, len(m.Clips))
		for i := range m.Clips {
			c.blendParams[i] = ctl.ParamIndex(blendParam(m, i))
		}
	}
	c.timeline()
	c.inSkin = make([]bool, m.Skeleton.NumJoints())
	for _, s := range m.Skins {
		for _, j := range s.Joints {
			if j >= 0 && j < len(c.inSkin) {
				c.inSkin[j] = true
			}
		}
	}
	if len(m.Skins) == 0 {
		// Without a skin the overlay shows the node hierarchy: for an
		// animation-only file, all there is to see.
		for j := range c.inSkin {
			c.inSkin[j] = true
		}
	}
	for i := range m.Skins {
		if err := m.Skins[i].Validate(&m.Skeleton); err != nil {
			return nil, err
		}
		c.Palettes = append(c.Palettes, make([]float32, anim.PaletteFloats*len(m.Skins[i].Joints)))
	}
	c.Root = rootIdentity
	c.BindPose = true
	c.PoseNow()
	c.BindPose = false
	if rm := spec.RootMotion; rm != nil {
		if err := c.SetRootMotion(rm.Joint, rm.Mode); err != nil {
			return nil, fmt.Errorf("spec rootMotion.joint: %w", err)
		}
	}
	for j := range m.Skeleton.NumJoints() {
		c.reach = max(c.reach, c.JointWorld(j).Col(3).Vec3().Sub(c.JointWorld(0).Col(3).Vec3()).Len())
	}
	return c, nil
}

// ClipName is the clip shown in clip mode, as the browser names it
// (asset.ClipName: "clip 2" for an unnamed clip), "" under a blend tree.
func (c *Character) ClipName() string {
	if !c.ClipMode || c.Clip < 0 {
		return ""
	}
	// The HUD asks every frame; the names ("clip 3" for an unnamed one)
	// are made once, not formatted each time.
	if len(c.clipNames) != len(c.Model.Clips) {
		c.clipNames = make([]string, len(c.Model.Clips))
		for i := range c.clipNames {
			c.clipNames[i] = asset.ClipName(c.Model, i)
		}
	}
	return c.clipNames[c.Clip]
}

// Span is the timeline's length: the clip's in clip mode, the longest
// clip's under a blend tree.
func (c *Character) Span() float32 {
	if c.ClipMode {
		if c.Clip < 0 {
			return 0
		}
		return c.Model.Clips[c.Clip].Duration
	}
	var d float32
	for i := range c.Model.Clips {
		d = max(d, c.Model.Clips[i].Duration)
	}
	return d
}

// Evaluate poses the character with every clip at local time t and
// rebuilds the palettes: the deterministic pose of -screenshot and
// -dump-pose.
//
// With root motion on, the character plays from 0 for t seconds of clip
// time at speed 1, so that its model transform (Root) has travelled the
// loops played.
func (c *Character) Evaluate(t float32) {
	if !c.root.on {
		c.Ctl.SetTime(t)
		c.Ctl.Update(0)
		c.PoseNow()
		return
	}
	speed, paused := c.Ctl.Speed(), c.Ctl.Paused()
	c.Ctl.SetSpeed(1)
	c.Ctl.SetPaused(false)
	c.Ctl.SetTime(0)
	c.Ctl.Update(0)
	c.PoseNow()
	c.anchorRoot()
	if t != 0 {
		if t < 0 { // played backwards from 0
			c.Ctl.SetSpeed(-1)
		}
		c.Ctl.Update(float32(math.Abs(float64(t))))
		c.PoseNow()
		c.Root = anim.Then(c.Root, c.Ctl.Motion())
		c.pushTrail()
	}
	c.Ctl.SetSpeed(speed)
	c.Ctl.SetPaused(paused)
}

// PoseNow evaluates the controller as it stands into model matrices and
// every skin's palette.
func (c *Character) PoseNow() {
	if c.BindPose {
		c.pose.FromRest(&c.Model.Skeleton)
	} else {
		c.Ctl.Evaluate(c.pose)
	}
	for k, v := range c.MorphOverride {
		if v == v {
			c.pose.W[k] = v
		}
	}
	mp := &c.mp
	mp.Skeleton, mp.Input, mp.Models, mp.Skin, mp.Output = &c.Model.Skeleton, c.pose, c.models, nil, nil
	if len(c.Model.Skins) > 0 {
		mp.Skin, mp.Output = &c.Model.Skins[0], c.Palettes[0]
	}
	mp.Run()
	if len(c.pjs) != max(len(c.Model.Skins)-1, 0) {
		c.pjs = make([]anim.PaletteJob, max(len(c.Model.Skins)-1, 0))
	}
	for i := 1; i < len(c.Model.Skins); i++ {
		pj := &c.pjs[i-1]
		pj.Skin, pj.Models, pj.Output = &c.Model.Skins[i], c.models, c.Palettes[i]
		pj.Run()
	}
}

// Joint describes skeleton joint j for the inspector: its name, its
// parent's ("" for a root), its local transform in the current pose and
// its world position.
func (c *Character) Joint(j int) (name, parent string, local anim.Transform, world mgl32.Vec3) {
	sk := &c.Model.Skeleton
	name = sk.Names[j]
	if p := sk.Parents[j]; p >= 0 {
		parent = sk.Names[p]
	}
	return name, parent, c.pose.At(j), c.JointWorld(j).Col(3).Vec3()
}

// MorphWeights are the morph target weights of glTF node n in the current
// pose (one per target of its mesh), nil when its mesh has none. The slice
// is the character's.
func (c *Character) MorphWeights(n int) []float32 {
	k := c.Model.NodeMorph[n]
	if k < 0 {
		return nil
	}
	return c.pose.W[k : k+c.Model.Meshes[c.Model.NodeMesh[n]].Targets]
}

// Channels are the current pose's float channels: every node's morph
// weights (Model.NodeMorph) then the animated material factors
// (Model.MaterialChannels). The slice is the character's.
func (c *Character) Channels() []float32 { return c.pose.W }

// NodeWorld is the global transform of glTF node n in the current pose.
func (c *Character) NodeWorld(n int) mgl32.Mat4 {
	return c.JointWorld(c.Model.JointOfNode[n])
}

// JointWorld is skeleton joint j's model matrix in the current pose.
func (c *Character) JointWorld(j int) mgl32.Mat4 {
	return anim.ModelMat4(c.models, j)
}

// newController builds a controller of c's spec on its clips: Runtime
// where it is set, else the model's clips as loaded.
func (c *Character) newController() (*graph.Controller, error) {
	m := c.Model
	if c.Runtime != nil {
		return graph.NewControllerRuntime(c.Spec, &m.Skeleton, c.Runtime)
	}
	return graph.NewController(c.Spec, &m.Skeleton, m.Clips)
}

// SharedClips are the clips the character plays in runtime form, which
// other controllers of its model may share (a crowd's): Runtime, or the
// model's clips as loaded when Runtime is nil.
func (c *Character) SharedClips() ([]*anim.RuntimeClip, error) {
	if c.Runtime != nil {
		return c.Runtime, nil
	}
	return asset.RuntimeClips(c.Model)
}

// CopyController is a controller of c's spec on c's clips with c's
// parameter values, at its start: a shadow to play through (framing, say)
// that leaves c's own as it was.
func (c *Character) CopyController() (*graph.Controller, error) {
	ctl, err := c.newController()
	if err != nil {
		return nil, err
	}
	for i, p := range c.Ctl.Params() {
		ctl.SetParamIndex(i, p.Value)
	}
	return ctl, nil
}

// UseController makes ctl, built on spec, the character's controller (a
// crowd's first member, whose clips loop on its own clock). The clip
// browser's blend of clips goes with the old one: each member of a crowd
// plays its own clip.
func (c *Character) UseController(ctl *graph.Controller, spec *graph.Spec) {
	c.Ctl, c.Spec = ctl, spec
	if c.ClipMode {
		c.blendState, c.blendParams = "", nil
	}
}

// InSkin reports whether joint j is a joint of any skin, which the
// skeleton overlay draws: every joint when the model has no skin.
func (c *Character) InSkin(j int) bool { return c.inSkin[j] }

// Reach is the distance from the root to the farthest joint in the rest
// pose, the scale of the inspector's axes.
func (c *Character) Reach() float32 { return c.reach }

// QuickSpec builds the spec of a weighted blend of clips (blend, as
// graph.ParseClipWeights reads it: "Walk:0.7,Run:0.3") and an additive
// layer over it (additive, as graph.ParseAdditive reads it), or over clip
// (or the first clip) when blend is "". Clips play once, as the clip
// browser's states do; the app then sets the loop mode the timeline
// shows (Character.OneClock), as it does for -clip.
func QuickSpec(m *gltfload.Model, blend, additive string, clip int) (*graph.Spec, error) {
	var base *graph.NodeSpec
	if blend != "" {
		ws, err := graph.ParseClipWeights(blend)
		if err != nil {
			return nil, err
		}
		spec := graph.BlendSpec(ws)
		base = spec.Layers[0].States[0].Tree
		for i := range base.Children {
			// By name, the clip browser's name ("clip 0" for an unnamed
			// clip) or index, as -clip finds a clip.
			k, err := asset.FindClip(m, ws[i].Clip)
			if err != nil {
				return nil, fmt.Errorf("-blend %s: %w", blend, err)
			}
			base.Children[i].Clip = graph.ClipRef{Index: k}
			base.Children[i].Loop = anim.Once
		}
		if additive == "" {
			return spec, nil
		}
	}
	name, w, ref, err := graph.ParseAdditive(additive)
	if err != nil {
		return nil, err
	}
	k, err := asset.FindClip(m, name)
	if err != nil {
		return nil, fmt.Errorf("-additive %s: %w", additive, err)
	}
	// A spec clamps its reference times; a time typed on the command line
	// outside the clip is a slip (frames for seconds, say). The end as
	// -info prints it, to the millisecond, is in.
	if d := m.Clips[k].Duration; ref < 0 || ref > d+0.0005 {
		return nil, fmt.Errorf("-additive %s: reference time %g s is outside clip %q (0 to %.3f s)", additive, ref, asset.ClipName(m, k), d)
	}
	// The clips are referred to by index (names may repeat or be empty):
	// the base is the -blend tree, or the chosen clip, or the first (the
	// model has clips: the additive one was found).
	spec := graph.AdditiveSpec("", name, w, ref)
	tree := spec.Layers[0].States[0].Tree
	tree.Source.Clip, tree.Reference.Clip = graph.ClipRef{Index: k}, graph.ClipRef{Index: k}
	if base != nil {
		tree.Base = base
	} else {
		tree.Base.Clip = graph.ClipRef{Index: max(clip, 0)}
	}
	tree.Base.Loop = anim.Once
	tree.Source.Loop = anim.Once
	return spec, nil
}

// JointBounds is the box of the joints' positions in the current pose,
// widened to a tenth of its diagonal (at least 0.1) so that a single
// joint or a straight chain still makes a box to frame; ok is false
// without joints.
func (c *Character) JointBounds() (lo, hi mgl32.Vec3, ok bool) {
	n := c.Model.Skeleton.NumJoints()
	for j := 0; j < n; j++ {
		p := c.Shown(c.JointWorld(j).Col(3).Vec3())
		if j == 0 {
			lo, hi = p, p
			continue
		}
		for i := 0; i < 3; i++ {
			lo[i], hi[i] = min(lo[i], p[i]), max(hi[i], p[i])
		}
	}
	if n == 0 {
		return lo, hi, false
	}
	pad := max(hi.Sub(lo).Len()/10, 0.1)
	d := mgl32.Vec3{pad, pad, pad}
	return lo.Sub(d), hi.Add(d), true
}
