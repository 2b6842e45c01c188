package main

import (
	"fmt"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
)

// character owns a loaded model and every per-frame buffer its evaluation
// needs, sized once so that a frame allocates nothing.
type character struct {
	model    *gltfload.Model
	clip     int // index into model.Clips, -1 when the model has none
	pose     []anim.Transform
	models   []mgl32.Mat4
	cursors  [][]int     // per clip, per track
	palettes [][]float32 // per skin
}

func newCharacter(m *gltfload.Model) (*character, error) {
	if err := m.Skeleton.Validate(); err != nil {
		return nil, err
	}
	n := m.Skeleton.NumJoints()
	c := &character{
		model:  m,
		clip:   -1,
		pose:   make([]anim.Transform, n),
		models: make([]mgl32.Mat4, n),
	}
	for i := range m.Clips {
		c.cursors = append(c.cursors, make([]int, len(m.Clips[i].Tracks)))
	}
	if len(m.Clips) > 0 {
		c.clip = 0
	}
	for i := range m.Skins {
		if err := m.Skins[i].Validate(&m.Skeleton); err != nil {
			return nil, err
		}
		c.palettes = append(c.palettes, make([]float32, anim.PaletteFloats*len(m.Skins[i].Joints)))
	}
	return c, nil
}

// selectClip resolves -clip: a clip name, else an index.
func (c *character) selectClip(spec string) error {
	if spec == "" {
		return nil
	}
	for i := range c.model.Clips {
		if c.model.Clips[i].Name == spec {
			c.clip = i
			return nil
		}
	}
	i, err := strconv.Atoi(spec)
	if err != nil || i < 0 || i >= len(c.model.Clips) {
		return fmt.Errorf("no clip %q in %s (%d clips: %s)", spec, c.model.Name, len(c.model.Clips), c.clipNames())
	}
	c.clip = i
	return nil
}

func (c *character) clipNames() string {
	s := ""
	for i := range c.model.Clips {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d:%q", i, c.model.Clips[i].Name)
	}
	return s
}

// clipName is what the viewer shows for the current clip.
func (c *character) clipName() string {
	if c.clip < 0 {
		return ""
	}
	if n := c.model.Clips[c.clip].Name; n != "" {
		return n
	}
	return fmt.Sprintf("clip %d", c.clip)
}

func (c *character) duration() float32 {
	if c.clip < 0 {
		return 0
	}
	return c.model.Clips[c.clip].Duration
}

// evaluate poses the skeleton at clip-local time t and rebuilds every
// skin's palette.
func (c *character) evaluate(t float32) {
	if c.clip >= 0 {
		job := anim.SampleJob{Clip: &c.model.Clips[c.clip], Time: t, Rest: c.model.Skeleton.Rest, Cursors: c.cursors[c.clip], Output: c.pose}
		job.Run()
	} else {
		copy(c.pose, c.model.Skeleton.Rest)
	}
	l2m := anim.LocalToModelJob{Skeleton: &c.model.Skeleton, Input: c.pose, Output: c.models}
	l2m.Run()
	for i := range c.model.Skins {
		pj := anim.PaletteJob{Skin: &c.model.Skins[i], Models: c.models, Output: c.palettes[i]}
		pj.Run()
	}
}

// nodeWorld is the global transform of glTF node n in the current pose.
func (c *character) nodeWorld(n int) mgl32.Mat4 {
	return c.models[c.model.JointOfNode[n]]
}
