package scene

import (
	"image"
	"image/color"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/render"
)

// View is one character drawn by one renderer: into the window's
// framebuffer, or into an offscreen target when it has one.
type View struct {
	R   *render.Renderer
	hud *render.HUD // overlays; nil until a view needs one
	// trail is the root-motion trail drawn in the scene, its points
	// rewritten each frame in place.
	trail render.Path
	c     *character.Character
	Mode  debugview.Mode
	Bones bool // draw the skeleton over the mesh, and Joint's axes and trail
	// Joint is the skeleton joint the inspector shows, −1 for none.
	Joint int
	// Onion, when positive, overlays ghost skeletons Onion and 2·Onion
	// frames before and after the pose shown.
	Onion  int
	Scene  *GPU
	Target *render.Target
	Cam    render.Camera
	Home   render.Camera // the framing F returns to
	// Placed says Home was given (-eye, -target), not framed: it is kept
	// whatever the pose does and however the model reloads, until F
	// returns to Framed, the framing.
	Placed bool
	Framed render.Camera
	// Clear is the background colour.
	Clear color.NRGBA
	// Lighting is how the shaded view lights; Lights the file's punctual
	// lights in the current pose (the reference stage adds them).
	Lighting render.Lighting
	Lights   []render.Light
	// Tonemap and Exposure map the viewer's look to the display; Shadow
	// draws the key light's shadow on the ground under the framing box.
	Tonemap  render.Tonemap
	Exposure float32
	Shadow   bool
	// TopInset is the share of the height a HUD bar covers at the top,
	// which the picture keeps clear (render.Camera.TopInset).
	TopInset float32
	// LeftInset is the share of the width HUD panels cover at the left,
	// which the picture keeps clear (render.Camera.LeftInset).
	LeftInset float32
	// BoxLo, BoxHi is what home frames; a pose leaving it widens it.
	BoxLo, BoxHi mgl32.Vec3
	Wire         bool
	Grid         *render.Grid // ground grid, or nil
	// Items replaces scene.Items when set: a crowd's draws.
	Items []render.DrawItem
	W, H  int
	Stats SizeStats
	// WeightJoint is the skeleton joint whose weights the Weights view
	// shows, −1 for none.
	WeightJoint int
}

// SizeStats is how much a view draws.
type SizeStats struct {
	Partitions int // draw calls of skinned primitives
	Joints     int // skeleton joints
	Vertices   int // vertices drawn
}

// ViewOptions are how a view draws its character.
type ViewOptions struct {
	// Skinning is SkinGPU (default), SkinCPU or SkinDQ.
	Skinning string
	// PaletteLimit caps the joints of one draw call; 0 is the renderer's
	// capacity.
	PaletteLimit int
	// Joint is the weights view's joint, by name or index; "" picks the
	// joint with the most vertices.
	Joint string
	// View is the debug view (debugview.Shaded by default); Skeleton
	// draws the skeleton over the mesh.
	View     debugview.Mode
	Skeleton bool
	// Camera, when set, is where the view looks from instead of the
	// framing (View.Placed).
	Camera *render.Camera
	// Clear is the background colour; zero is Background.
	Clear color.NRGBA
	// Lighting is how the shaded view lights (-lighting); Tonemap and
	// Exposure map the viewer's look to the display (-tonemap,
	// -exposure).
	Lighting render.Lighting
	Tonemap  render.Tonemap
	Exposure float32
	// Env lights the viewer's look; nil is the built-in studio.
	Env *render.Environment
}

// NewView uploads the character and frames it over its clip. With w and h
// positive it draws offscreen into a w×h target. A GL context must be
// current.
func NewView(c *character.Character, opt ViewOptions, w, h int) (*View, error) {
	r, err := render.New()
	if err != nil {
		return nil, err
	}
	v := &View{R: r, W: w, H: h, c: c, Joint: -1}
	if v.Scene, err = upload(r, c, opt.Skinning, opt.PaletteLimit); err != nil {
		v.Destroy()
		return nil, err
	}
	if w > 0 && h > 0 {
		if v.Target, err = render.NewTarget(w, h, 4); err != nil {
			v.Destroy()
			return nil, err
		}
	}
	aspect := float32(max(w, 1)) / float32(max(h, 1))
	if v.Cam, v.BoxLo, v.BoxHi, err = FrameClip(r, v.Scene, c, aspect); err != nil {
		v.Destroy()
		return nil, err
	}
	v.Framed = v.Cam
	if opt.Camera != nil {
		v.Cam, v.Placed = *opt.Camera, true
	}
	v.Home = v.Cam
	v.Clear, v.Lighting = opt.Clear, opt.Lighting
	v.Tonemap, v.Exposure, v.Shadow = opt.Tonemap, opt.Exposure, true
	env := opt.Env
	if env == nil {
		env = Studio()
	}
	if err := r.SetEnvironment(env); err != nil {
		v.Destroy()
		return nil, err
	}
	if v.Clear == (color.NRGBA{}) {
		v.Clear = Background
	}
	joint, err := resolveJoint(c, opt.Joint)
	if err != nil {
		v.Destroy()
		return nil, err
	}
	v.SetWeightJoint(joint)
	v.Mode, v.Bones = opt.View, opt.Skeleton
	v.Stats.Partitions = v.Scene.Parts
	v.Stats.Joints = c.Model.Skeleton.NumJoints()
	for _, d := range v.Scene.draws {
		v.Stats.Vertices += d.prim.NumVertices()
	}
	return v, nil
}

// SetWeightJoint makes skeleton joint j (−1: none) the one whose weights
// the Weights view shows.
func (v *View) SetWeightJoint(j int) {
	v.Scene.setDebugView(v.c, j)
	v.WeightJoint = j
}

// Update is the frame step: the character's controller advances by dt
// seconds of wall time (at the speed, direction and pause it was told)
// and the new pose goes to the GPU.
func (v *View) Update(dt float32) error {
	v.c.Advance(dt)
	return v.Scene.Refresh(v.R, v.c)
}

// PoseAt poses the character with every clip at local time t, the
// deterministic pose of screenshots and pose dumps, and uploads it.
func (v *View) PoseAt(t float32) error {
	v.c.Evaluate(t)
	return v.Scene.Refresh(v.R, v.c)
}

// rootTrailColor is the root-motion trail's, sRGB.
var rootTrailColor = [4]float32{1, 0.78, 0.31, 1}

// Draw renders the current state of the scene.
func (v *View) Draw() error {
	items := v.Scene.items
	if v.Items != nil {
		items = v.Items
	}
	cam := v.Camera()
	frame := render.Frame{Target: v.Target, Width: v.W, Height: v.H, Camera: cam, Clear: v.Clear, Items: items, Lighting: v.Lighting, Lights: v.Lights,
		Skinning: v.Scene.method(), View: v.Mode, Wireframe: v.Wire, Grid: v.Grid, Model: v.c.RootMatrix(),
		Tonemap: v.Tonemap, Exposure: v.Exposure, Shadow: v.Shadow, GroundY: v.BoxLo[1]}
	if v.c.RootMotionOn() {
		v.trail.Color = rootTrailColor
		v.trail.Points = v.trail.Points[:0]
		v.c.RootTrail(func(p mgl32.Vec3) { v.trail.Points = append(v.trail.Points, p[0], p[1], p[2]) })
		frame.Trail = &v.trail
	}
	if err := v.R.Draw(&frame); err != nil {
		return err
	}
	if v.Bones || v.Onion > 0 {
		h, err := v.Overlay(1)
		if err != nil {
			return err
		}
		if v.Onion > 0 {
			drawOnion(h, v.c, v.Onion, cam, v.W, v.H)
		}
		if v.Bones {
			drawTrail(h, v.c, v.Joint, cam, v.W, v.H)
			drawSkeleton(h, v.c, v.Joint, cam, v.W, v.H)
		}
		h.Flush(v.Target, v.W, v.H)
	}
	return nil
}

// Overlay is the view's 2D layer, made on first use at the given HiDPI
// scale.
func (v *View) Overlay(scale float32) (*render.HUD, error) {
	if v.hud == nil {
		h, err := render.NewHUD(scale)
		if err != nil {
			return nil, err
		}
		v.hud = h
	}
	return v.hud, nil
}

// GroundGrid is a grid under the character's current box (GridUnder).
func GroundGrid(s *GPU, c *character.Character) *render.Grid {
	lo, hi, ok := s.Bounds(c)
	if !ok {
		return nil
	}
	return GridUnder(lo, hi)
}

// GridUnder is a grid at the floor of the box lo–hi reaching past its
// sides, with lines at a round spacing (1, 2 or 5 × a power of ten), five
// to twelve across.
func GridUnder(lo, hi mgl32.Vec3) *render.Grid {
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

func (v *View) Destroy() {
	if v.hud != nil {
		v.hud.Destroy()
	}
	if v.Target != nil {
		v.Target.Destroy()
	}
	v.R.Destroy()
}

// FrameClip frames the character over its whole clip so that no pose
// leaves the view and the camera holds still while it plays, unless the
// pose shown now would then cover less than leastShown of the picture
// (render.FrameShown): a model that grows during its clip is framed
// closer, and its largest poses reach past the picture. Lo and hi are
// the whole clip's box either way. With root motion the camera follows
// the character and frames the whole clip.
func FrameClip(r *render.Renderer, s *GPU, c *character.Character, aspect float32) (render.Camera, mgl32.Vec3, mgl32.Vec3, error) {
	var lo, hi mgl32.Vec3
	var shown []mgl32.Vec3
	found := false
	if !c.RootMotionOn() {
		c.PoseNow()
		if err := s.Refresh(r, c); err != nil {
			return render.Camera{}, lo, hi, err
		}
		shown = s.PosePoints(nil, c, 1<<16)
		if len(shown) == 0 {
			// Nothing drawn: the skeleton overlay shows its joints.
			for j := range c.Model.Skeleton.NumJoints() {
				shown = append(shown, c.Shown(c.JointWorld(j).Col(3).Vec3()))
			}
		}
		// Sampling the span plays a controller through it, clock, states
		// and transitions: a copy of the character's, with its parameters,
		// so that the one shown stays as it was (the window reframes once
		// it opens, after -time was applied, and a spec's first state may
		// be a once state that framing would otherwise play out).
		if shadow, err := c.CopyController(); err == nil {
			shown := c.Ctl
			c.Ctl = shadow
			defer func() {
				c.Ctl = shown
				c.PoseNow()
			}()
		} else {
			defer c.Evaluate(c.Time())
		}
	}
	const samples = 12
	for k := 0; k <= samples; k++ {
		c.Evaluate(c.Span() * float32(k) / samples)
		if err := s.Refresh(r, c); err != nil {
			return render.Camera{}, lo, hi, err
		}
		mn, mx, ok := s.Bounds(c)
		if !ok {
			// Nothing drawn (an animation-only file): frame its nodes,
			// which the skeleton overlay shows.
			mn, mx, ok = c.JointBounds()
		}
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
	return render.FrameShown(lo, hi, shown, aspect, leastShown), lo, hi, nil
}

// Camera is the camera the view draws with: Cam, with TopInset and
// LeftInset.
func (v *View) Camera() render.Camera {
	c := v.Cam
	c.TopInset, c.LeftInset = v.TopInset, v.LeftInset
	return c
}

// KeepInView widens the framing when the current pose leaves the box the
// camera was framed on (a state machine or layer can reach poses no clip
// sample showed), unless the user has moved the camera or it was placed.
func (v *View) KeepInView(c *character.Character) {
	lo, hi, ok := v.Scene.Bounds(c)
	if !ok || v.Cam != v.Home || v.Items != nil || c.RootMotionOn() || v.Placed {
		return // a character root motion carries is followed instead
	}
	grown := false
	for k := 0; k < 3; k++ {
		if lo[k] < v.BoxLo[k] {
			v.BoxLo[k], grown = lo[k], true
		}
		if hi[k] > v.BoxHi[k] {
			v.BoxHi[k], grown = hi[k], true
		}
	}
	if grown {
		v.Home = render.FrameBounds(v.BoxLo, v.BoxHi, float32(max(v.W, 1))/float32(max(v.H, 1)))
		v.Cam = v.Home
	}
}

// RenderImage draws the character at clip time t into a w×h image. A GL
// context must be current.
func RenderImage(c *character.Character, opt ViewOptions, t float32, w, h int) (*image.NRGBA, error) {
	v, err := NewView(c, opt, w, h)
	if err != nil {
		return nil, err
	}
	defer v.Destroy()
	if err := v.PoseAt(t); err != nil {
		return nil, err
	}
	if err := v.Draw(); err != nil {
		return nil, err
	}
	return v.Target.ReadImage(), nil
}
