package character

import (
	"github.com/skinview/skinview/internal/anim"
)

// Ghost poses, of onion skins and motion trails: poses at other times than the one shown,
// evaluated by the character's own controller with every clip clock moved
// (graph.Controller.EvaluateShifted), so they show what the blend, fade and
// parameters of now would give there. They leave the controller as it was
// and allocate nothing after the first use.

// MaxTrail is the most points a motion trail has: one per frame of the
// clip up to this many, then evenly spread.
const MaxTrail = 120

// ghosts is the scratch of the poses at other times.
type ghosts struct {
	pose   *anim.SoAPose
	models []float32
	trail  [][3]float32 // the selected joint's world positions
}

// GhostPose is the pose dt seconds of playback from now, as model
// matrices (anim.ModelPaletteJob's layout); false in the bind pose, which
// has no other times. The slice is the character's, overwritten by the
// next call of GhostPose or Trail.
func (c *Character) GhostPose(dt float32) ([]float32, bool) {
	if !c.poseShifted(dt) {
		return nil, false
	}
	return c.ghost.models, true
}

// poseShifted evaluates the pose dt seconds of playback from now into the
// ghost buffers; false in the bind pose, which has no other times.
func (c *Character) poseShifted(dt float32) bool {
	if c.BindPose {
		return false
	}
	g := &c.ghost
	if g.pose == nil {
		n := c.Model.Skeleton.NumJoints()
		g.pose, g.models = anim.NewPose(&c.Model.Skeleton), make([]float32, anim.PaletteFloats*n)
		g.trail = make([][3]float32, 0, MaxTrail+1)
	}
	c.Ctl.EvaluateShifted(dt, g.pose)
	mp := anim.ModelPaletteJob{Skeleton: &c.Model.Skeleton, Input: g.pose, Models: g.models}
	mp.Run()
	return true
}

// Trail is joint j's path over the clip the timeline shows: its world
// position at every frame (at most MaxTrail+1 points, the clip's start to
// its end), under the blend and parameters of now. Nil for no joint (j <
// 0), in the bind pose, or for a clip without length. The slice is the
// character's, overwritten by the next call.
func (c *Character) Trail(j int) [][3]float32 {
	tl := c.Ctl.Timeline()
	if j < 0 || j >= c.Model.Skeleton.NumJoints() || !(tl.Duration > 0) || c.BindPose {
		return nil
	}
	n := min(max(int(tl.Duration*c.FPS()+0.5), 1), MaxTrail)
	c.poseShifted(0) // sizes the buffers
	g := &c.ghost
	g.trail = g.trail[:0]
	for k := 0; k <= n; k++ {
		c.poseShifted(tl.Duration*float32(k)/float32(n) - tl.Time)
		g.trail = append(g.trail, JointAt(g.models, j))
	}
	return g.trail
}

// JointAt is joint j's origin in model matrices laid out as
// anim.ModelPaletteJob writes them.
func JointAt(models []float32, j int) [3]float32 {
	r := models[j*anim.PaletteFloats:]
	return [3]float32{r[3], r[7], r[11]}
}
