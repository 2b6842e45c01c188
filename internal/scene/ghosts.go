package scene

import (
	"image/color"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/render"
)

// Onion skins and motion trails: poses at other times than the one shown,
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

// Trail is the selected joint's path over the clip the timeline shows:
// its world position at every frame (at most MaxTrail+1 points, the
// clip's start to its end), under the blend and parameters of now. Nil
// without a selected joint, in the bind pose, or for a clip without
// length. The slice is the character's, overwritten by the next call.
func (c *Character) Trail() [][3]float32 {
	j := c.Selected
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
		g.trail = append(g.trail, jointAt(g.models, j))
	}
	return g.trail
}

// jointAt is joint j's origin in model matrices laid out as
// anim.ModelPaletteJob writes them.
func jointAt(models []float32, j int) [3]float32 {
	r := models[j*anim.PaletteFloats:]
	return [3]float32{r[3], r[7], r[11]}
}

// Onion colours: the poses before now cool, after now warm, the nearer
// ones stronger.
var (
	ghostBefore = color.NRGBA{90, 160, 255, 255}
	ghostAfter  = color.NRGBA{120, 225, 110, 255}
)

// drawOnion overlays ghost skeletons at ±frames and ±2·frames frames of
// the clip the timeline shows: two before (blue) and two after (green),
// the nearer pair stronger.
func drawOnion(h *render.HUD, c *Character, frames int, cam render.Camera, w, ht int) {
	step := float32(frames) / c.FPS()
	for _, k := range [4]float32{-2, 2, -1, 1} { // the nearer pair on top
		if !c.poseShifted(k * step) {
			return
		}
		col := ghostAfter
		if k < 0 {
			col = ghostBefore
		}
		col.A = 110
		if k == 1 || k == -1 {
			col.A = 210
		}
		drawBones(h, c, c.ghost.models, cam, w, ht, col, 1.5)
	}
}

// drawBones draws the skin joints' bones of a pose given as model
// matrices.
func drawBones(h *render.HUD, c *Character, models []float32, cam render.Camera, w, ht int, col color.NRGBA, width float32) {
	for j, on := range c.inSkin {
		p := c.Model.Skeleton.Parents[j]
		if !on || p < 0 || !c.inSkin[p] {
			continue
		}
		x0, y0, ok0 := cam.Project(c.Shown(jointAt(models, p)), w, ht)
		x1, y1, ok1 := cam.Project(c.Shown(jointAt(models, j)), w, ht)
		if ok0 && ok1 {
			h.Line(x0, y0, x1, y1, width, col)
		}
	}
}

// drawTrail draws the selected joint's motion trail: a line through its
// positions over the clip, a dot at each, and a ring where it is now.
func drawTrail(h *render.HUD, c *Character, cam render.Camera, w, ht int) {
	pts := c.Trail()
	if len(pts) == 0 {
		return
	}
	line := color.NRGBA{255, 120, 220, 230}
	px, py, pok := cam.Project(c.Shown(pts[0]), w, ht)
	for i, q := range pts {
		x, y, ok := cam.Project(c.Shown(q), w, ht)
		if ok && pok && i > 0 {
			h.Line(px, py, x, y, 1.5, line)
		}
		if ok {
			h.Disc(x, y, 2, line)
		}
		px, py, pok = x, y, ok
	}
}
