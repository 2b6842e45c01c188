package graph

import (
	"github.com/skinview/skinview/internal/anim"
)

// Root motion as a Controller runs it: the joint and mode it takes motion
// from, and what it took out of the last pose.

// SetRootMotion turns root motion on for joint j (mode RootOff turns it
// off). The motion of the next Update on is taken out of the pose.
func (c *Controller) SetRootMotion(j int, mode anim.RootMode) error {
	rm, err := anim.NewRootMotion(c.sk, j, mode)
	if err != nil {
		return err
	}
	c.ctx.rm = rm
	return nil
}

// RootMotion reports the root-motion joint and mode (RootOff: none).
func (c *Controller) RootMotion() (int, anim.RootMode) {
	if c.ctx.rm == nil {
		return -1, anim.RootOff
	}
	return c.ctx.rm.Joint(), c.ctx.rm.Mode()
}

// Motion is the root motion of the last Evaluate's pose: how far the
// character moved and turned since the pose before, in the frame of where
// it stood (translation first, then the turn). Identity with root motion
// off, after a seek, and for an Update of no time.
func (c *Controller) Motion() anim.Transform { return c.motion }

// Extracted is what root motion took out of the last Evaluate's root:
// where the clip puts the character now (identity with root motion off).
// A character starting or seeking anchors its model transform on it.
func (c *Controller) Extracted() anim.Transform { return c.extracted }
