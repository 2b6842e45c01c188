package anim

import "fmt"

// Root motion as a Controller runs it: the joint and mode it takes motion
// from, and what it took out of the last pose.

// SetRootMotion turns root motion on for joint j (mode RootOff turns it
// off). The motion of the next Update on is taken out of the pose.
func (c *Controller) SetRootMotion(j int, mode RootMode) error {
	if mode == RootOff {
		c.ctx.rm = nil
		return nil
	}
	if j < 0 || j >= c.sk.NumJoints() {
		return fmt.Errorf("anim: root motion joint %d of %d", j, c.sk.NumJoints())
	}
	rm := &rootMotion{joint: j, mode: mode, parent: c.sk.RestModel(c.sk.Parents[j])}
	rm.parentIn = rm.parent.Inv()
	c.ctx.rm = rm
	return nil
}

// RootMotion reports the root-motion joint and mode (RootOff: none).
func (c *Controller) RootMotion() (int, RootMode) {
	if c.ctx.rm == nil {
		return -1, RootOff
	}
	return c.ctx.rm.joint, c.ctx.rm.mode
}

// Motion is the root motion of the last Evaluate's pose: how far the
// character moved and turned since the pose before, in the frame of where
// it stood (translation first, then the turn). Identity with root motion
// off, after a seek, and for an Update of no time.
func (c *Controller) Motion() Transform { return c.motion }

// Extracted is what root motion took out of the last Evaluate's root:
// where the clip puts the character now (identity with root motion off).
// A character starting or seeking anchors its model transform on it.
func (c *Controller) Extracted() Transform { return c.extracted }
