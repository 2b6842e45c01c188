package main

import (
	"image"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/render"
)

// view is one character drawn by one renderer: into the window's
// framebuffer, or into an offscreen target when it has one.
type view struct {
	r      *render.Renderer
	hud    *render.HUD // overlays; nil until a view needs one
	c      *character
	mode   render.View
	bones  bool // draw the skeleton over the mesh
	scene  *gpuScene
	target *render.Target
	cam    render.Camera
	home   render.Camera // the framing F returns to
	// boxLo, boxHi is what home frames; a pose leaving it widens it.
	boxLo, boxHi mgl32.Vec3
	wire         bool
	grid         *render.Grid // ground grid, or nil
	// items replaces scene.items when set: a crowd's draws.
	items []render.DrawItem
	w, h  int
	stats frameStats
}

// newView uploads the character and frames it over its clip. With w and h
// positive it draws offscreen into a w×h target. A GL context must be
// current.
func newView(c *character, opt *options, w, h int) (*view, error) {
	r, err := render.New()
	if err != nil {
		return nil, err
	}
	v := &view{r: r, w: w, h: h, c: c}
	if v.scene, err = upload(r, c, opt.skinning, opt.paletteLimit); err != nil {
		v.destroy()
		return nil, err
	}
	if w > 0 && h > 0 {
		if v.target, err = render.NewTarget(w, h, 4); err != nil {
			v.destroy()
			return nil, err
		}
	}
	aspect := float32(max(w, 1)) / float32(max(h, 1))
	if v.cam, v.boxLo, v.boxHi, err = frameClip(r, v.scene, c, aspect); err != nil {
		v.destroy()
		return nil, err
	}
	v.home = v.cam
	joint, err := resolveJoint(c, opt.joint)
	if err != nil {
		v.destroy()
		return nil, err
	}
	v.scene.setDebugView(c, joint)
	switch opt.view {
	case viewPartitions:
		v.mode = render.Partitions
	case viewWeights:
		v.mode = render.Weights
	case viewSkeleton:
		v.bones = true
	}
	v.stats.partitions = v.scene.parts
	v.stats.joints = c.model.Skeleton.NumJoints()
	for _, d := range v.scene.draws {
		v.stats.vertices += d.prim.NumVertices()
	}
	return v, nil
}

// draw renders the current state of the scene.
func (v *view) draw() error {
	if v.target != nil {
		v.target.Bind()
	}
	items := v.scene.items
	if v.items != nil {
		items = v.items
	}
	frame := render.Frame{Width: v.w, Height: v.h, Camera: v.cam, Clear: background, Items: items,
		Skinning: v.scene.method(), View: v.mode, Wireframe: v.wire, Grid: v.grid}
	if err := v.r.Draw(&frame); err != nil {
		return err
	}
	if v.bones {
		h, err := v.overlay(1)
		if err != nil {
			return err
		}
		drawSkeleton(h, v.c, v.cam, v.w, v.h)
		h.Flush(v.w, v.h)
	}
	return nil
}

// overlay is the view's 2D layer, made on first use at the given HiDPI
// scale.
func (v *view) overlay(scale float32) (*render.HUD, error) {
	if v.hud == nil {
		h, err := render.NewHUD(scale)
		if err != nil {
			return nil, err
		}
		v.hud = h
	}
	return v.hud, nil
}

// groundGrid is a grid under the character's current box, with lines at a
// round spacing (1, 2 or 5 × a power of ten), five to twelve across.
func groundGrid(s *gpuScene, c *character) *render.Grid {
	lo, hi, ok := s.bounds(c)
	if !ok {
		return nil
	}
	size := max(hi[0]-lo[0], hi[2]-lo[2], (hi[1]-lo[1])/2)
	step := float32(math.Pow(10, math.Floor(math.Log10(float64(size)/5))))
	if size/step > 25 {
		step *= 5
	} else if size/step > 12 {
		step *= 2
	}
	g := render.MakeGrid((lo[0]+hi[0])/2, (lo[2]+hi[2])/2, lo[1], step, step*float32(math.Ceil(float64(size/step))))
	return &g
}

func (v *view) destroy() {
	if v.hud != nil {
		v.hud.Destroy()
	}
	if v.target != nil {
		v.target.Destroy()
	}
	v.r.Destroy()
}

// frameClip frames the character over its whole clip so that no pose
// leaves the view and the camera holds still while it plays.
func frameClip(r *render.Renderer, s *gpuScene, c *character, aspect float32) (render.Camera, mgl32.Vec3, mgl32.Vec3, error) {
	var lo, hi mgl32.Vec3
	found := false
	const samples = 12
	for k := 0; k <= samples; k++ {
		c.evaluate(c.duration() * float32(k) / samples)
		if err := s.refresh(r, c); err != nil {
			return render.Camera{}, lo, hi, err
		}
		mn, mx, ok := s.bounds(c)
		if !ok {
			continue
		}
		if !found {
			lo, hi, found = mn, mx, true
			continue
		}
		for i := 0; i < 3; i++ {
			lo[i], hi[i] = min(lo[i], mn[i]), max(hi[i], mx[i])
		}
	}
	if !found {
		lo, hi = mgl32.Vec3{-1, -1, -1}, mgl32.Vec3{1, 1, 1}
	}
	return render.FrameBounds(lo, hi, aspect), lo, hi, nil
}

// keepInView widens the framing when the current pose leaves the box the
// camera was framed on (a state machine or layer can reach poses no clip
// sample showed), unless the user has moved the camera.
func (v *view) keepInView(c *character) {
	lo, hi, ok := v.scene.bounds(c)
	if !ok || v.cam != v.home || v.items != nil {
		return
	}
	grown := false
	for k := 0; k < 3; k++ {
		if lo[k] < v.boxLo[k] {
			v.boxLo[k], grown = lo[k], true
		}
		if hi[k] > v.boxHi[k] {
			v.boxHi[k], grown = hi[k], true
		}
	}
	if grown {
		v.home = render.FrameBounds(v.boxLo, v.boxHi, float32(max(v.w, 1))/float32(max(v.h, 1)))
		v.cam = v.home
	}
}

// renderImage draws the character at clip time t into a w×h image. A GL
// context must be current.
func renderImage(c *character, opt *options, t float32, w, h int) (*image.NRGBA, error) {
	v, err := newView(c, opt, w, h)
	if err != nil {
		return nil, err
	}
	defer v.destroy()
	c.evaluate(t)
	if err := v.scene.refresh(v.r, c); err != nil {
		return nil, err
	}
	if err := v.draw(); err != nil {
		return nil, err
	}
	return v.target.ReadImage(), nil
}
