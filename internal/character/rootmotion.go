package character

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/asset"
)

// Root motion in the viewer: the controller takes the root's travel and
// turn out of the pose (graph.Controller.SetRootMotion); the character
// accumulates them into its model transform, Root, which moves the drawn
// character, its overlays, and the trail of where it has been.

// rootTrailLen is how many frames of the root's path the trail keeps.
const rootTrailLen = 900

// rootState is a character's root motion.
type rootState struct {
	on       bool
	reanchor bool // the next frame puts Root where the clip stands
	trail    [rootTrailLen]mgl32.Vec3
	head, n  int
}

// SetRootMotion turns root motion on (mode anim.RootXZ or anim.RootAll)
// for the named joint, "" for the top joint of the first skin, or off
// (anim.RootOff).
func (c *Character) SetRootMotion(joint string, mode anim.RootMode) error {
	if mode == anim.RootOff {
		c.root.on = false
		c.Root = rootIdentity
		return c.Ctl.SetRootMotion(-1, anim.RootOff)
	}
	j := asset.TopJoint(c.Model)
	if joint != "" {
		if j = c.Model.Skeleton.JointIndex(joint); j < 0 {
			return fmt.Errorf("root motion: %s has no joint %q", c.Model.Name, joint)
		}
	}
	if j < 0 {
		return fmt.Errorf("root motion: %s has no skin to take a root joint from; name one", c.Model.Name)
	}
	if err := c.Ctl.SetRootMotion(j, mode); err != nil {
		return err
	}
	if c.ClipMode {
		c.Ctl.SetLoopMode(anim.Loop) // a walk walks on, loop after loop
	}
	c.root.on = true
	c.PoseNow()
	c.anchorRoot()
	return nil
}

// RootMotionOn reports whether root motion moves the character.
func (c *Character) RootMotionOn() bool { return c.root.on }

var rootIdentity = anim.Transform{Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}

// anchorRoot puts the model transform where the clip puts the character
// now, and starts the trail there.
func (c *Character) anchorRoot() {
	c.Root = c.Ctl.Extracted()
	c.root.n, c.root.head = 0, 0
	c.pushTrail()
}

// Advance is the frame step: the controller advances by dt seconds of
// wall time (at the speed, direction and pause it was told), the
// character takes the pose, and root motion carries it.
func (c *Character) Advance(dt float32) {
	c.Ctl.Update(dt)
	c.PoseNow()
	c.advanceRoot()
}

// advanceRoot adds the last update's root motion to the model transform
// (after a seek, the character is put where the clip stands instead).
func (c *Character) advanceRoot() {
	if !c.root.on {
		return
	}
	if c.root.reanchor {
		c.root.reanchor = false
		c.anchorRoot()
		return
	}
	c.Root = anim.Then(c.Root, c.Ctl.Motion())
	c.pushTrail()
}

func (c *Character) pushTrail() {
	r := &c.root
	r.trail[r.head] = c.Root.Translation
	r.head = (r.head + 1) % rootTrailLen
	r.n = min(r.n+1, rootTrailLen)
}

// RootTrail calls f with the root's positions, oldest first.
func (c *Character) RootTrail(f func(p mgl32.Vec3)) {
	r := &c.root
	for i := range r.n {
		f(r.trail[(r.head-r.n+i+2*rootTrailLen)%rootTrailLen])
	}
}

// RootMatrix is the model transform root motion has moved the character
// to (the identity with root motion off).
func (c *Character) RootMatrix() mgl32.Mat4 {
	if !c.root.on {
		return mgl32.Ident4()
	}
	return c.Root.Mat4()
}

// Shown is a model-space point where it is drawn: moved by Root.
func (c *Character) Shown(p mgl32.Vec3) mgl32.Vec3 {
	if !c.root.on {
		return p
	}
	return c.Root.Translation.Add(c.Root.Rotation.Rotate(p))
}
