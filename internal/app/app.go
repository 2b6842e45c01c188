package app

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/ibl"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/report"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
)

// Options are the settings of an app (the viewer's flags that shape it).
type Options struct {
	// Skinning, PaletteLimit, Joint, View and Skeleton are the view's
	// (scene.ViewOptions).
	Skinning     string
	PaletteLimit int
	Joint        string
	View         debugview.Mode
	Skeleton     bool
	// Time is where the clock starts; Onion the onion skin's frame step
	// (0: off); Rate the playback speed, RateSet whether one was given
	// (0 holds the pose); Fade the cross-fade of the clip browser.
	Time    float64
	Onion   int
	Rate    float64
	RateSet bool
	Fade    float64
	// Crowd is -crowd N, CrowdMembers (-crowd-draw members) draws each
	// member by itself, NoLOD (-lod off) updates every member every frame;
	// Events prints fired markers; HUD draws the HUD in offscreen output.
	Crowd        int
	CrowdMembers bool
	// StatsFrames is how many frames -stats times (0: statsFrames).
	StatsFrames int
	NoLOD       bool
	Events      bool
	HUD         bool
	// Keys says a key script plays the clock (-keys).
	Keys bool
	// From, To, FPS and Frames shape -record and -sheet (To < 0: the
	// clip's end; FPS 0: the clip's frame rate); Width and Height are the
	// size of each frame.
	From, To      float64
	FPS, Frames   int
	Width, Height int
	// Stage is where the camera stands, the background and the lighting.
	Stage Stage
}

// viewOptions are the settings a view draws with.
func (o *Options) viewOptions() scene.ViewOptions {
	return scene.ViewOptions{Skinning: o.Skinning, PaletteLimit: o.PaletteLimit, Joint: o.Joint, View: o.View, Skeleton: o.Skeleton,
		Camera: o.Stage.Camera, Clear: o.Stage.Background, Lighting: o.Stage.Lighting, Tonemap: o.Stage.Tonemap, Exposure: o.Stage.Exposure}
}

// ClampTime keeps a requested time inside [0, duration]: -screenshot and
// -dump-pose show one moment of the clip and never loop.
func ClampTime(t, duration float32) float32 {
	if t < 0 || t != t {
		return 0
	}
	if t > duration {
		return duration
	}
	return t
}

// App is the viewer as a user drives it: a character, its view, and the
// key map's state. The window and the offscreen modes (-keys, -record,
// -sheet) run the same frames.
type App struct {
	// Char is the character the keys drive.
	Char *character.Character
	opt  *Options
	load *LoadOptions
	// View draws the character; UI is the key map's state; Scale the
	// HiDPI content scale of the HUD; Snapshot makes the HUD's Info each
	// frame.
	View     *scene.View
	UI       ui.State
	Scale    float32
	Snapshot *Snapshot
	// Timing is the HUD's frame statistics, smoothed.
	Timing struct{ FPS, AnimMs, DrawMs float32 }
	// framed says CountFrame has had the window's first frame, whose dt
	// is no frame interval.
	framed bool
	// ShotDir is where S-key screenshots go; Stdout where the state line
	// and events print.
	ShotDir string
	Stdout  io.Writer
	// shotPath, when set, asks the next frame to save itself there.
	shotPath string
	// Steady leaves wall-clock timings out of the HUD, so that offscreen
	// output (and its goldens) is the same on every run.
	Steady bool
	// Crowd, with -crowd N, animates and draws N characters.
	Crowd *scene.Crowd
	// Follow keeps the camera on a character root motion carries (C);
	// followed is where its root was when the camera last moved.
	Follow   bool
	followed mgl32.Vec3
	// looking is the file camera the view looks through (an index into
	// the model's cameras), −1 for the viewer's own.
	looking int
	// scratch holds lookThrough's and placeLights' working copies.
	scratch struct {
		camera gltfload.Camera
		light  gltfload.Light
	}
	edits edits
	// compressing delivers the clips StartCompression compresses in the
	// background; nil when none are on the way.
	compressing chan compressed
	compressFor *gltfload.Model // the model StartCompression last started on
}

// New builds the view of c (offscreen at w×h when both are positive); lo
// is how c was loaded, for Reload, ApplySpec and Open.
func New(opt *Options, lo *LoadOptions, c *character.Character, w, h int) (*App, error) {
	vo := opt.viewOptions()
	if opt.Stage.EnvFile != "" {
		env, err := LoadEnvironment(opt.Stage.EnvFile)
		if err != nil {
			return nil, err
		}
		vo.Env = env
	}
	v, err := scene.NewView(c, vo, w, h)
	if err != nil {
		return nil, err
	}
	if n := paletteLimitNote(opt.PaletteLimit, v.Scene.Limit()); n != "" {
		fmt.Fprintln(os.Stderr, "viewer:", n)
	}
	a := &App{Char: c, Stdout: os.Stdout, opt: opt, load: lo, View: v, UI: ui.NewState(), Scale: 1, ShotDir: "screenshots", looking: -1}
	if opt.Stage.FileCamera != "" {
		if a.looking, err = a.findCamera(opt.Stage.FileCamera); err != nil {
			v.Destroy()
			return nil, err
		}
	}
	// Where the clock plays (the window, a key script, -record with -rate
	// or -events), a quick blend loops as the clip browser's clip does,
	// until L says otherwise; modes that pose given times hold each clip
	// of it at its end.
	plays := !(w > 0 && h > 0) || opt.Keys || opt.RateSet || opt.Events
	quickLoops := c.OneClock && plays
	if c.ClipMode || quickLoops {
		c.Ctl.SetLoopMode(a.UI.Loop)
	}
	if c.ClipMode {
		a.UI.Selected = max(c.Clip, 0) // [ ] start from the clip shown
	}
	if opt.Time != 0 {
		c.Seek(float32(opt.Time))
		// Offscreen pictures open on the pose at -time (the window
		// reframes as it opens).
		if w > 0 && h > 0 {
			if err := a.Reframe(); err != nil {
				v.Destroy()
				return nil, err
			}
		}
	}
	if c.RootMotionOn() {
		c.Seek(c.Time()) // framing played the clip: start where the clip stands
	}
	a.UI.HUD = true
	a.UI.View, a.UI.Skeleton = opt.View, opt.Skeleton
	if len(c.Model.Instances) == 0 {
		a.UI.Skeleton = true // nothing else shows an animation-only file
	}
	a.UI.Onion = opt.Onion > 0
	a.Follow = true
	if opt.Rate != 0 {
		a.UI.CustomRate, a.UI.Reverse = float32(math.Abs(opt.Rate)), opt.Rate < 0
	}
	if opt.RateSet && opt.Rate == 0 {
		a.UI.Playing = false // -rate 0 holds the pose
	}
	a.Snapshot = NewSnapshot(c, v.Scene.Parts, v.WeightJoint)
	a.Snapshot.Issues, a.Snapshot.IssueLines = report.IssueSummary(&c.Model.Report)
	a.Snapshot.IssueErrors = c.Model.Report.Count(gltfload.Error) > 0
	a.Steady = w > 0 && h > 0
	if opt.Joint != "" {
		a.UI.Joint = c.Model.Skeleton.JointIndex(opt.Joint) // the inspector starts on it
	}
	if opt.Crowd > 1 && c.RootMotionOn() {
		v.Destroy()
		return nil, errors.New("-crowd and root motion together: a crowd's members do not travel; drop one")
	}
	if opt.Crowd > 1 {
		copt := scene.CrowdOptions{BoxLo: v.BoxLo, BoxHi: v.BoxHi, Members: opt.CrowdMembers, NoLOD: opt.NoLOD}
		if a.Crowd, err = scene.NewCrowd(v.R, c.Model, float32(opt.Fade), c, v.Scene, opt.Crowd, copt); err != nil {
			v.Destroy()
			return nil, err
		}
		if quickLoops {
			a.Crowd.SetLoopMode(a.UI.Loop)
		}
		a.Crowd.Start()
		if lo, hi, ok := a.Crowd.Bounds(); ok && !v.Placed {
			v.BoxLo, v.BoxHi = lo, hi
			v.Home = render.FrameBounds(lo, hi, float32(max(w, 1))/float32(max(h, 1)))
			v.Cam = v.Home
		}
		a.crowdCamera()
		a.Crowd.Start() // again, culled by the camera
		v.Items = a.Crowd.Items
		v.Stats.Vertices *= opt.Crowd
	}
	return a, nil
}

// LoadEnvironment reads a Radiance HDR equirect (-env) and prefilters it
// for the viewer's look.
func LoadEnvironment(path string) (*render.Environment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-env: %w", err)
	}
	defer f.Close()
	eq, err := ibl.ParseHDR(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("-env %s: %w", path, err)
	}
	return scene.Environment(eq), nil
}

// crowdCamera hands the crowd the camera the view draws with, by which it
// culls and picks each member's update rate.
func (a *App) crowdCamera() {
	v := a.View
	a.Crowd.SetCamera(v.Camera(), float32(max(v.W, 1))/float32(max(v.H, 1)))
}

// Destroy frees the view, the crowd and the file watch.
func (a *App) Destroy() {
	if a.edits.files != nil {
		a.edits.files.Close()
	}
	if a.Crowd != nil {
		a.Crowd.Close()
	}
	a.View.Destroy()
}

// FrameStep is the wall time between the frames of a key script: 1/30 s.
const FrameStep = float32(1.0 / 30)

// Update advances the animation by dt seconds of wall time as the key
// state says and poses the character.
func (a *App) Update(dt float32) error {
	if a.compressing != nil {
		a.takeCompressed()
	}
	start := time.Now()
	a.UI.Tick(dt)
	// The keys' transport goes to the character's clock, which owns the
	// time; paused, a cross-fade still plays out.
	if a.Crowd != nil {
		a.crowdCamera()
		a.Crowd.Update(dt, a.UI.Rate(), !a.UI.Playing)
		a.View.Items = a.Crowd.Items
		a.Timing.AnimMs = smooth(a.Timing.AnimMs, float32(time.Since(start).Seconds()*1000))
		return nil
	}
	a.Char.Ctl.SetSpeed(a.UI.ClockRate())
	a.Char.Ctl.SetPaused(!a.UI.Playing)
	if err := a.View.Update(dt); err != nil {
		return err
	}
	a.printEvents(a.Char.Ctl.Events())
	if a.UI.LoopOut > a.UI.LoopIn {
		a.UI.InLoop(a)
		a.Char.PoseNow() // the seek's pose, this frame
		if err := a.View.Scene.Refresh(a.View.R, a.Char); err != nil {
			return err
		}
	}
	a.followRoot()
	a.lookThrough()
	a.placeLights()
	a.Timing.AnimMs = smooth(a.Timing.AnimMs, float32(time.Since(start).Seconds()*1000))
	return nil
}

// followRoot moves the camera and its home with a character root motion
// carries, while C has it follow. It runs where the character is posed
// (Update, poseAt), never in Draw, so a frame follows once.
func (a *App) followRoot() {
	if !a.Char.RootMotionOn() || !a.Follow {
		return
	}
	if d := a.Char.Root.Translation.Sub(a.followed); d != (mgl32.Vec3{}) {
		a.View.Cam.Target = a.View.Cam.Target.Add(d)
		a.View.Home.Target = a.View.Home.Target.Add(d)
	}
	a.followed = a.Char.Root.Translation
}

// StartWindow readies the app for the window: a framebuffer of w×h
// pixels at the HiDPI content scale, the camera framing the clip, the
// ground grid on and a pointer to the keys.
func (a *App) StartWindow(w, h int, scale float32) error {
	a.Scale = max(scale, 1)
	a.Resize(w, h)
	if err := a.Reframe(); err != nil {
		return err
	}
	a.UI.Grid = true
	a.UI.Say("H: help")
	return nil
}

// Resize sets the size of the framebuffer the frames draw into, in pixels
// (on HiDPI screens larger than the window); Size is it.
func (a *App) Resize(w, h int)  { a.View.W, a.View.H = w, h }
func (a *App) Size() (w, h int) { return a.View.W, a.View.H }

// Orbit turns the camera about its target by dx, dy radians; Pan moves it
// by dx, dy framebuffer pixels; Zoom moves it in by d wheel steps. Each
// leaves a file camera looked through for the viewer's own.
func (a *App) Orbit(dx, dy float32) { a.leaveCamera(); a.View.Cam.Orbit(dx, dy) }
func (a *App) Pan(dx, dy float32)   { a.leaveCamera(); a.View.Cam.Pan(dx, dy, a.View.H) }
func (a *App) Zoom(d float32)       { a.leaveCamera(); a.View.Cam.Zoom(d) }

// CountFrame counts a frame of the window's loop, dt seconds after the
// one before, in the HUD's frame rate. The first call's dt runs from
// before the loop began, not from a frame, and is left out: a fraction
// of a microsecond, it would seed the smoothed rate with millions of fps
// that a slow scene (a crowd) shows for seconds.
func (a *App) CountFrame(dt float32) {
	if !a.framed {
		a.framed = true
		return
	}
	if dt > 0 {
		a.Timing.FPS = smooth(a.Timing.FPS, 1/dt)
	}
}

func smooth(old, now float32) float32 {
	if old == 0 {
		return now
	}
	return old*0.9 + now*0.1
}

// Draw renders the frame: the scene with the key state's view options,
// the screenshot if one was asked for, then the HUD.
func (a *App) Draw() error {
	start := time.Now()
	v := a.View
	v.Wire = a.UI.Wire
	v.Bones = a.UI.Skeleton
	v.Joint = a.UI.Joint
	v.Onion = 0
	if a.UI.Onion && a.Crowd == nil {
		v.Onion = cmp.Or(max(a.opt.Onion, 0), 2)
	}
	switch {
	case !a.UI.Grid:
		v.Grid = nil
	case v.Grid == nil:
		// Laid out once when turned on, its lines fixed on the ground
		// from then on, and no allocation per frame.
		// Under the whole crowd, not its middle member alone.
		if a.Crowd != nil {
			if lo, hi, ok := a.Crowd.Bounds(); ok {
				v.Grid = scene.GridUnder(lo, hi)
			}
		}
		if v.Grid == nil {
			v.Grid = scene.GroundGrid(v.Scene, a.Char)
		}
	}
	v.Mode = a.UI.View
	// The one-line HUD of a small framebuffer covers its top: the picture
	// goes below it. In a small window the full HUD's panels cover the
	// left: the picture goes right of them (offscreen images keep the
	// whole frame, as -screenshot has always drawn it).
	v.TopInset, v.LeftInset = 0, 0
	if a.UI.HUD && a.shotPath == "" { // a P screenshot has no HUD: the whole picture
		h, err := v.Overlay(a.Scale)
		if err != nil {
			return err
		}
		v.TopInset = ui.CompactBar(h.LineHeight(), v.W) / float32(max(v.H, 1))
		if v.Target == nil {
			v.LeftInset = ui.PanelInset(h.LineHeight(), v.W)
		}
	}
	v.KeepInView(a.Char)
	if v.Grid != nil {
		// The ground goes on under the camera wherever it looks: root
		// motion walks off any fixed patch.
		v.Grid.Follow(v.Cam.Target[0], v.Cam.Target[2])
	}
	if err := v.Draw(); err != nil {
		return err
	}
	if a.shotPath != "" {
		path := a.shotPath
		a.shotPath = ""
		if err := WritePNG(path, a.ReadPixels()); err != nil {
			a.UI.Say("screenshot failed: %v", err)
		}
	}
	if a.UI.HUD || a.UI.Help || a.UI.Message != "" || a.UI.Banner != "" {
		h, err := v.Overlay(a.Scale)
		if err != nil {
			return err
		}
		info := a.Info()
		ui.Draw(h, &a.UI, &info, v.W, v.H)
		h.Flush(v.Target, v.W, v.H)
	}
	a.Timing.DrawMs = smooth(a.Timing.DrawMs, float32(time.Since(start).Seconds()*1000))
	return nil
}

// ReadPixels reads what the view drew, without the HUD.
func (a *App) ReadPixels() *image.NRGBA {
	if a.View.Target != nil {
		return a.View.Target.ReadImage()
	}
	img, _ := render.ReadFramebuffer(a.View.W, a.View.H)
	return img
}

// Info is the HUD's snapshot of the viewer.
func (a *App) Info() ui.Info {
	st := ui.Stats{Timed: !a.Steady, FPS: a.Timing.FPS, AnimMs: a.Timing.AnimMs, RenderMs: a.Timing.DrawMs,
		DrawCalls: a.View.R.DrawCalls, Parts: a.View.Scene.Parts, Vertices: a.View.Stats.Vertices}
	if a.Crowd != nil {
		st.Crowd, st.LOD, st.Culled = true, a.Crowd.Stats.Rate, a.Crowd.Stats.Culled
	}
	return a.Snapshot.Info(a.Char, &a.UI, st)
}

// RunKeys replays a key script offscreen, one key per 1/30 s frame.
func (a *App) RunKeys(evs []ui.Event) error {
	for _, ev := range evs {
		a.UI.Handle(ev, a)
		if err := a.Update(FrameStep); err != nil {
			return err
		}
		if err := a.Draw(); err != nil {
			return err
		}
	}
	return nil
}

// paletteLimitNote is the line that says a -palette-limit of asked joints
// was lowered to used, the most this driver's uniform block holds; ""
// where it was not.
func paletteLimitNote(asked, used int) string {
	if asked <= used {
		return ""
	}
	return fmt.Sprintf("-palette-limit %d is more joints than this driver's uniform block holds; draw calls use at most %d", asked, used)
}
