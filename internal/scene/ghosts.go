package scene

import (
	"image/color"

	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/render"
)

// Onion skins and motion trails drawn over the picture: the character's
// ghost poses (character.Character.GhostPose, Trail) as skeletons and
// paths.

// Onion colours: the poses before now cool, after now warm, the nearer
// ones stronger.
var (
	ghostBefore = color.NRGBA{90, 160, 255, 255}
	ghostAfter  = color.NRGBA{120, 225, 110, 255}
)

// drawOnion overlays ghost skeletons at ±frames and ±2·frames frames of
// the clip the timeline shows: two before (blue) and two after (green),
// the nearer pair stronger.
func drawOnion(h *render.HUD, c *character.Character, frames int, cam render.Camera, w, ht int) {
	step := float32(frames) / c.FPS()
	for _, k := range [4]float32{-2, 2, -1, 1} { // the nearer pair on top
		models, ok := c.GhostPose(k * step)
		if !ok {
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
		drawBones(h, c, models, cam, w, ht, col, 1.5)
	}
}

// drawBones draws the skin joints' bones of a pose given as model
// matrices.
func drawBones(h *render.HUD, c *character.Character, models []float32, cam render.Camera, w, ht int, col color.NRGBA, width float32) {
	for j := range c.Model.Skeleton.NumJoints() {
		p := c.Model.Skeleton.Parents[j]
		if !c.InSkin(j) || p < 0 || !c.InSkin(p) {
			continue
		}
		x0, y0, ok0 := cam.Project(c.Shown(character.JointAt(models, p)), w, ht)
		x1, y1, ok1 := cam.Project(c.Shown(character.JointAt(models, j)), w, ht)
		if ok0 && ok1 {
			h.Line(x0, y0, x1, y1, width, col)
		}
	}
}

// drawTrail draws joint j's motion trail: a line through its positions
// over the clip, a dot at each, and a ring where it is now.
func drawTrail(h *render.HUD, c *character.Character, j int, cam render.Camera, w, ht int) {
	pts := c.Trail(j)
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
