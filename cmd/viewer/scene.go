package main

import (
	"fmt"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
)

// character owns a loaded model, the animation controller that poses it,
// and every per-frame buffer, sized once so that a frame allocates nothing.
type character struct {
	model *gltfload.Model
	ctl   *anim.Controller
	spec  *anim.Spec // what ctl was built from
	// clipMode: the controller is the generated clip browser, whose
	// base-layer states are the model's clips in order; otherwise it runs a
	// blend-tree spec.
	clipMode bool
	clip     int // clip mode: the clip requested last; -1 when there are none
	pose     *anim.SoAPose
	models   []float32   // model matrices, anim.ModelPaletteJob's layout
	palettes [][]float32 // per skin
}

// clipSpec is the clip browser: one state per clip, each reachable from any
// state by a smooth cross-fade of fade seconds (requested by the state's
// name) or by a cut (requested as "cut:NAME"). The window's clips play once
// so that a time past the end holds the last frame and the timeline loops
// them; a crowd's loop on their own clocks.
func clipSpec(m *gltfload.Model, initial int, fade float32, loop anim.LoopMode) *anim.Spec {
	ls := anim.LayerSpec{Name: "clips"}
	for i := range m.Clips {
		name := stateName(m, i)
		ls.States = append(ls.States, anim.StateSpec{Name: name, Tree: &anim.NodeSpec{Type: anim.NodeClip, Clip: anim.ClipRef{Index: i}, Loop: loop}})
		ls.Transitions = append(ls.Transitions,
			anim.TransitionSpec{From: "*", To: name, Type: anim.TransitionSmooth, Duration: fade, Ease: anim.EaseInOut},
			anim.TransitionSpec{Name: "cut:" + name, From: "*", To: name, Type: anim.TransitionImmediate})
	}
	if initial >= 0 && initial < len(m.Clips) {
		ls.Initial = stateName(m, initial)
	}
	if len(ls.States) == 0 {
		ls.States = []anim.StateSpec{{Name: "rest"}}
	}
	return &anim.Spec{Layers: []anim.LayerSpec{ls}}
}

// stateName is clip i's state in the clip browser: its name, made unique.
func stateName(m *gltfload.Model, i int) string {
	name := m.Clips[i].Name
	if name == "" {
		return "clip " + strconv.Itoa(i)
	}
	for j := 0; j < i; j++ {
		if m.Clips[j].Name == name {
			return name + " #" + strconv.Itoa(i)
		}
	}
	return name
}

// findClip resolves -clip: a clip name, else an index.
func findClip(m *gltfload.Model, spec string) (int, error) {
	for i := range m.Clips {
		if m.Clips[i].Name == spec {
			return i, nil
		}
	}
	i, err := strconv.Atoi(spec)
	if err != nil || i < 0 || i >= len(m.Clips) {
		names := ""
		for k := range m.Clips {
			if k > 0 {
				names += ", "
			}
			names += fmt.Sprintf("%d:%q", k, m.Clips[k].Name)
		}
		return -1, fmt.Errorf("no clip %q in %s (%d clips: %s)", spec, m.Name, len(m.Clips), names)
	}
	return i, nil
}

// newCharacter builds the character for a model: with a nil spec, the
// clip browser starting on clip (the first when clip is -1).
func newCharacter(m *gltfload.Model, spec *anim.Spec, clip int, fade float32) (*character, error) {
	if err := m.Skeleton.Validate(); err != nil {
		return nil, err
	}
	n := m.Skeleton.NumJoints()
	c := &character{model: m, clip: -1, pose: anim.NewSoAPose(n), models: make([]float32, anim.PaletteFloats*n)}
	if spec == nil {
		c.clipMode = true
		if len(m.Clips) > 0 {
			c.clip = max(clip, 0)
		}
		spec = clipSpec(m, c.clip, fade, anim.Once)
	}
	ctl, err := anim.NewController(spec, &m.Skeleton, m.Clips)
	if err != nil {
		return nil, err
	}
	c.ctl = ctl
	c.spec = spec
	for i := range m.Skins {
		if err := m.Skins[i].Validate(&m.Skeleton); err != nil {
			return nil, err
		}
		c.palettes = append(c.palettes, make([]float32, anim.PaletteFloats*len(m.Skins[i].Joints)))
	}
	return c, nil
}

// clipName is the name -dump-pose reports: the clip shown in clip mode,
// "" under a blend tree.
func (c *character) clipName() string {
	if !c.clipMode || c.clip < 0 {
		return ""
	}
	return c.model.Clips[c.clip].Name
}

// duration is the timeline's length: the clip's in clip mode, the longest
// clip's under a blend tree.
func (c *character) duration() float32 {
	if c.clipMode {
		if c.clip < 0 {
			return 0
		}
		return c.model.Clips[c.clip].Duration
	}
	var d float32
	for i := range c.model.Clips {
		d = max(d, c.model.Clips[i].Duration)
	}
	return d
}

// evaluate poses the character with every clip at local time t and
// rebuilds the palettes: the deterministic pose of -screenshot and
// -dump-pose.
func (c *character) evaluate(t float32) {
	c.ctl.SetTime(t)
	c.ctl.Update(0)
	c.poseNow()
}

// poseNow evaluates the controller as it stands into model matrices and
// every skin's palette.
func (c *character) poseNow() {
	c.ctl.Evaluate(c.pose)
	mp := anim.ModelPaletteJob{Skeleton: &c.model.Skeleton, Input: c.pose, Models: c.models}
	if len(c.model.Skins) > 0 {
		mp.Skin, mp.Output = &c.model.Skins[0], c.palettes[0]
	}
	mp.Run()
	for i := 1; i < len(c.model.Skins); i++ {
		pj := anim.PaletteJob{Skin: &c.model.Skins[i], Models: c.models, Output: c.palettes[i]}
		pj.Run()
	}
}

// nodeWorld is the global transform of glTF node n in the current pose.
func (c *character) nodeWorld(n int) mgl32.Mat4 {
	return c.jointWorld(c.model.JointOfNode[n])
}

// jointWorld is skeleton joint j's model matrix in the current pose.
func (c *character) jointWorld(j int) mgl32.Mat4 {
	return anim.ModelMat4(c.models, j)
}
