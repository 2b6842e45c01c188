package app

import (
	"cmp"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/ui"
)

// Snapshot builds the HUD's ui.Info from a character each frame, keeping
// what it lays out once (the blend space, the clip list, the morph panel,
// the debug views' labels) and the values it points ui.Info at, so that a
// frame allocates nothing.
type Snapshot struct {
	// Issues and IssueLines are the HUD's summary of the model's
	// validation report; IssueErrors says it has errors.
	Issues      string
	IssueLines  []string
	IssueErrors bool
	// space is the 2D blend space plot; spaceParams are the parameter
	// indices of its two axes (−1: a constant).
	space       *ui.Space2D
	spaceParams [2]int
	jointInfo   ui.JointInfo // the inspector's, filled each frame
	fade        ui.Fade      // the fade in progress, filled each frame
	// ViewLabels name what each debug view shows.
	ViewLabels [debugview.Count]string
	// morph is the morph panel, laid out for the node morphFor, named
	// MorphNode.
	morph     ui.MorphPanel
	morphFor  int
	MorphNode string
	// clipRows is the clip list, one row per clip (clip browser).
	clipRows []ui.ClipRow
	// missing is what the model lacks (ui.Info.Missing).
	missing string
}

// NewSnapshot lays out the HUD of c: parts is the view's draw-call count
// and weightJoint the joint of the weights view (−1 for none).
func NewSnapshot(c *character.Character, parts, weightJoint int) *Snapshot {
	s := &Snapshot{morphFor: -1}
	s.space, s.spaceParams = blendSpace(c)
	s.ViewLabels[debugview.Partitions] = fmt.Sprintf("view: partitions, a colour per draw call (%d)", parts)
	s.ViewLabels[debugview.BaseColor] = "view: base colour, unlit"
	s.ViewLabels[debugview.Normal] = "view: shading normal, (n+1)/2"
	s.ViewLabels[debugview.Metallic] = "view: metallic"
	s.ViewLabels[debugview.Roughness] = "view: roughness"
	s.ViewLabels[debugview.Occlusion] = "view: occlusion"
	s.ViewLabels[debugview.Emissive] = "view: emissive"
	s.ViewLabels[debugview.Alpha] = "view: alpha"
	s.WeightJoint(c, weightJoint)
	s.missing = Missing(c.Model, c.ClipMode)
	if c.ClipMode {
		for i, name := range c.Choices() {
			s.clipRows = append(s.clipRows, ui.ClipRow{Name: name, Duration: c.Model.Clips[i].Duration})
		}
	}
	return s
}

// WeightJoint names joint j (−1: none) of c in the weights view's label.
func (s *Snapshot) WeightJoint(c *character.Character, j int) {
	s.ViewLabels[debugview.Weights] = "view: weights, no joint"
	if j >= 0 {
		name := cmp.Or(c.Model.Skeleton.Names[j], fmt.Sprintf("joint %d", j))
		s.ViewLabels[debugview.Weights] = fmt.Sprintf("view: weights of %s (blue 0, green ½, red 1)", name)
	}
}

// ui.Info is the HUD's picture of c under the key state st this frame, with
// the frame statistics stats (Joints is filled here).
func (s *Snapshot) Info(c *character.Character, st *ui.State, stats ui.Stats) ui.Info {
	status := c.Ctl.Status()
	stats.Joints = c.Model.Skeleton.NumJoints()
	in := ui.Info{
		Model: c.Model.Name, Choices: c.Choices(),
		Params: c.Params(), Status: status, HasStates: !c.ClipMode, Stats: stats,
	}
	in.Issues, in.IssueLines, in.IssueErrors = s.Issues, s.IssueLines, s.IssueErrors
	in.Missing = s.missing
	if ch := in.Choices; len(ch) > 0 {
		in.Selected = ch[st.Selected%len(ch)]
	}
	tl := c.Ctl.Timeline()
	in.Time, in.Duration, in.Loop, in.FPS, in.Backward = tl.Time, tl.Duration, tl.Mode, c.FPS(), c.Ctl.Backward()
	in.BindPose = c.BindPose
	in.View = s.ViewLabels[st.View]
	if j := st.Joint; j >= 0 && j < c.Model.Skeleton.NumJoints() {
		ji := &s.jointInfo
		var local anim.Transform
		var world mgl32.Vec3
		ji.Name, ji.Parent, local, world = c.Joint(j)
		ji.T, ji.S, ji.World = local.Translation, local.Scale, world
		wt := anim.DecomposeMat4(c.JointWorld(j))
		ji.WorldS = wt.Scale
		ji.WorldR = [4]float32{wt.Rotation.V[0], wt.Rotation.V[1], wt.Rotation.V[2], wt.Rotation.W}
		ji.R = [4]float32{local.Rotation.V[0], local.Rotation.V[1], local.Rotation.V[2], local.Rotation.W}
		in.Joint = ji
	}
	in.Frame = int(ui.FrameAt(tl.Time, 1/in.FPS))
	// The last frame is the one shown at the clip's end, so End reads
	// N/N where the length is no whole number of frames.
	in.Frames = int(ui.FrameAt(tl.Duration, 1/in.FPS))
	if tl.Clip >= 0 {
		in.Keys = c.KeyTimes(tl.Clip)
		in.Markers = c.Ctl.Markers(tl.Clip)
	}
	if c.ClipMode {
		in.Mode, in.Choice = "clip", c.ClipName()
		if in.Choice == "" && c.Clip >= 0 {
			in.Choice = c.Choices()[c.Clip]
		}
		if c.InBlend() {
			in.Choice = "blend"
		}
		if live := c.ClipWeights(); len(live) == len(s.clipRows) {
			blending := c.InBlend()
			for i := range s.clipRows {
				s.clipRows[i].Live = live[i]
				s.clipRows[i].Blend, _ = c.BlendWeight(i)
				if !blending {
					// A clip playing alone is the blend Shift+click starts.
					s.clipRows[i].Blend = 0
					if i == c.Clip {
						s.clipRows[i].Blend = 1
					}
				}
			}
			in.Clips = s.clipRows
		}
	} else {
		in.Mode, in.Choice = "state", status.State
	}
	if status.From != "" {
		s.fade = ui.Fade{From: status.From, To: status.State, Weight: status.Weight}
		in.Fade = &s.fade
	}
	if n := c.MorphNode(st.MorphShown); n >= 0 {
		if s.morphFor != n { // laid out when the node shown changes
			s.morphFor = n
			me := &c.Model.Meshes[c.Model.NodeMesh[n]]
			s.MorphNode = cmp.Or(c.Model.NodeNames[n], fmt.Sprintf("node %d", n))
			s.morph.Title = fmt.Sprintf("morph: %s (mesh %q) · M: next", s.MorphNode, me.Name)
			s.morph.Rows = make([]ui.MorphRow, me.Targets)
			for i := range s.morph.Rows {
				s.morph.Rows[i].Name = cmp.Or(me.TargetNames[i], fmt.Sprintf("target %d", i))
			}
		}
		for i := range s.morph.Rows {
			s.morph.Rows[i].Weight, s.morph.Rows[i].Pinned = c.MorphWeight(n, i)
		}
		in.Morph = &s.morph
	}
	if sp := s.space; sp != nil {
		for k, i := range s.spaceParams {
			if i >= 0 {
				sp.Current[k] = c.Ctl.Params()[i].Value
			}
		}
		in.Space = sp
	}
	return in
}

// blendSpace lays out the first 2D blend space of the spec for the HUD's
// plot: its samples, and its triangles unless it is bilinear; params are
// the indices of the parameters on its axes (−1 for a constant).
func blendSpace(c *character.Character) (sp *ui.Space2D, params [2]int) {
	params = [2]int{-1, -1}
	if c.Spec == nil {
		return nil, params
	}
	var found *graph.NodeSpec
	var walk func(n *graph.NodeSpec)
	walk = func(n *graph.NodeSpec) {
		if n == nil || found != nil {
			return
		}
		if n.Type == graph.NodeBlend2D {
			found = n
			return
		}
		for i := range n.Children {
			walk(&n.Children[i])
		}
		walk(n.Base)
		walk(n.Source)
		walk(n.Overlay)
		for i := range n.Layers {
			walk(&n.Layers[i].Node)
		}
	}
	for _, l := range c.Spec.Layers {
		for _, s := range l.States {
			walk(s.Tree)
		}
	}
	if found == nil {
		return nil, params
	}
	sp = &ui.Space2D{XParam: found.Params[0].String(), YParam: found.Params[1].String()}
	for _, p := range found.Points {
		sp.Points = append(sp.Points, [2]float32{p[0], p[1]})
	}
	if sp.Rect = graph.Bilinear(found.Points, found.Mode); !sp.Rect {
		if tris, err := graph.Triangulate(found.Points); err == nil {
			sp.Triangles = tris
		}
	}
	for k := 0; k < 2; k++ {
		in := found.Params[k]
		sp.Current[k] = in.Value
		if in.Param != "" {
			params[k] = c.Ctl.ParamIndex(in.Param)
		}
	}
	return sp, params
}

// Missing is what the HUD says a model lacks: "nothing to draw" for a
// scene without meshes or nodes, "no mesh: its skeleton is shown" for
// nodes without meshes (an animation-only file), "no animation" for a
// model without clips in the clip browser (a spec drives its own
// states), or "" when it has both.
func Missing(m *gltfload.Model, clipMode bool) string {
	noClips := clipMode && len(m.Clips) == 0
	switch {
	case len(m.Instances) == 0 && m.Skeleton.NumJoints() == 0:
		return "nothing to draw"
	case len(m.Instances) == 0 && noClips:
		return "no mesh, no animation: its nodes are shown"
	case len(m.Instances) == 0:
		return "no mesh: its nodes are shown"
	case noClips:
		return "no animation"
	}
	return ""
}
