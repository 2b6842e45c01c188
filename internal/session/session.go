package session

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/report"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
)

// Options are the settings of a session (the viewer's flags that shape it).
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
	// Crowd is -crowd N; Events prints fired markers; HUD draws the HUD
	// in offscreen output.
	Crowd  int
	Events bool
	HUD    bool
	// Keys says a key script plays the clock (-keys).
	Keys bool
	// From, To, FPS and Frames shape -record and -sheet (To < 0: the
	// clip's end; FPS 0: the clip's frame rate); Width and Height are the
	// size of each frame.
	From, To      float64
	FPS, Frames   int
	Width, Height int
}

// viewOptions are the settings a view draws with.
func (o *Options) viewOptions() scene.ViewOptions {
	return scene.ViewOptions{Skinning: o.Skinning, PaletteLimit: o.PaletteLimit, Joint: o.Joint, View: o.View, Skeleton: o.Skeleton}
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
	*scene.Character // the character the keys drive
	opt              *Options
	load             *LoadOptions
	// View draws the character; UI is the key map's state; Scale the
	// HiDPI content scale of the HUD; Snapshot makes the HUD's Info each
	// frame.
	View     *scene.View
	UI       ui.State
	Scale    float32
	Snapshot *Snapshot
	// Timing is the HUD's frame statistics, smoothed.
	Timing struct{ FPS, AnimMs, DrawMs float32 }
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
	edits    edits
	// compressing delivers the clips StartCompression compresses in the
	// background; nil when none are on the way.
	compressing chan compressed
	compressFor *gltfload.Model // the model StartCompression last started on
}

// New builds the view of c (offscreen at w×h when both are positive); lo
// is how c was loaded, for Reload, ApplySpec and Open.
func New(opt *Options, lo *LoadOptions, c *scene.Character, w, h int) (*App, error) {
	v, err := scene.NewView(c, opt.viewOptions(), w, h)
	if err != nil {
		return nil, err
	}
	if n := paletteLimitNote(opt.PaletteLimit, v.Scene.Limit()); n != "" {
		fmt.Fprintln(os.Stderr, "viewer:", n)
	}
	a := &App{Character: c, Stdout: os.Stdout, opt: opt, load: lo, View: v, UI: ui.NewState(), Scale: 1, ShotDir: "screenshots"}
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
		a.Selected = c.Model.Skeleton.JointIndex(opt.Joint) // the inspector starts on it
	}
	if opt.Crowd > 1 && c.RootMotionOn() {
		v.Destroy()
		return nil, errors.New("-crowd and root motion together: a crowd's members do not travel; drop one")
	}
	if opt.Crowd > 1 {
		if a.Crowd, err = scene.NewCrowd(c.Model, float32(opt.Fade), c, v.Scene, opt.Crowd); err != nil {
			v.Destroy()
			return nil, err
		}
		if quickLoops {
			a.Crowd.SetLoopMode(a.UI.Loop)
		}
		a.Crowd.Start()
		if lo, hi, ok := a.Crowd.Bounds(); ok {
			v.BoxLo, v.BoxHi = lo, hi
			v.Home = render.FrameBounds(lo, hi, float32(max(w, 1))/float32(max(h, 1)))
			v.Cam = v.Home
		}
		v.Items = a.Crowd.Items
		v.Stats.Vertices *= opt.Crowd
	}
	return a, nil
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

// ToggleFollow implements ui.Actions: the camera stays put, or follows
// root motion again, catching up with where the character walked to.
func (a *App) ToggleFollow() {
	a.Follow = !a.Follow
	if !a.RootMotionOn() {
		a.UI.Say("no root motion to follow (-root-motion)")
	}
}

// FrameModel implements ui.Actions: the home framing, where root motion
// has carried the character.
func (a *App) FrameModel() {
	if a.RootMotionOn() {
		a.View.Home.Target = a.View.Home.Target.Add(a.Root.Translation.Sub(a.followed))
		a.followed = a.Root.Translation
		a.Follow = true
	}
	a.View.Cam = a.View.Home
}
func (a *App) Screenshot() (string, error) { return a.RequestShot() }

// Seek implements ui.Actions for the crowd too.
func (a *App) Seek(t float32) {
	if a.Crowd != nil {
		a.Crowd.PoseAt(t)
		return
	}
	a.Character.Seek(t)
}

// Step implements ui.Actions: a frame step fires the markers it passes,
// then seeks.
func (a *App) Step(t float32, forward bool) {
	if a.Crowd == nil {
		a.printEvents(a.Ctl.StepEvents(a.Time(), t, forward))
	}
	a.Seek(t)
}

// printEvents writes fired markers as JSON lines when -events asks for
// them: the marker's clip time, its clip and its name.
func (a *App) printEvents(evs []graph.Event) {
	if !a.opt.Events {
		return
	}
	for _, e := range evs {
		clip, _ := json.Marshal(scene.StateName(a.Model, e.Clip))
		name, _ := json.Marshal(e.Name)
		fmt.Fprintf(a.Stdout, "{\"t\":%s,\"clip\":%s,\"event\":%s}\n", strconv.FormatFloat(float64(e.Time), 'g', -1, 32), clip, name)
	}
}

// SetLoopMode implements ui.Actions for the crowd too.
func (a *App) SetLoopMode(m anim.LoopMode) error {
	if a.Crowd != nil && (a.ClipMode || a.OneClock) {
		a.Crowd.SetLoopMode(m)
		return nil
	}
	return a.Character.SetLoopMode(m)
}

// SetBlendWeight implements ui.Actions; a crowd plays its own clips.
func (a *App) SetBlendWeight(i int, w float32) error {
	if a.Crowd != nil {
		return errors.New("each character of a crowd plays its own clips")
	}
	return a.Character.SetBlendWeight(i, w)
}

// ReportState implements ui.Actions: the state line of key S, one JSON
// object on stdout, for bug reports and scripts.
func (a *App) ReportState() {
	in := a.Info()
	fmt.Fprintln(a.Stdout, string(ui.StateLine(&in, &a.UI, a.Scale, a.Snapshot.MorphNode)))
}

// SelectJointAt implements ui.Actions: the joint drawn within 12 pixels
// (at the HUD's scale) of (x, y) becomes the inspector's.
func (a *App) SelectJointAt(x, y float32) bool {
	j := a.View.PickJoint(x, y, 12*a.Scale)
	if j < 0 {
		return false
	}
	a.Selected = j
	// The weights view shows the joint picked.
	a.View.SetWeightJoint(j)
	a.Snapshot.WeightJoint(a.Character, j)
	return true
}

// ToggleBindPose implements ui.Actions.
func (a *App) ToggleBindPose() {
	a.BindPose = !a.BindPose
	if a.BindPose {
		a.UI.Say(bindPoseNote)
	} else if a.UI.Message == bindPoseNote {
		a.UI.Message, a.UI.MessageTTL = "", 0 // it would say what no longer holds
	}
}

// bindPoseNote is what the screen says while B shows the bind pose.
const bindPoseNote = "bind pose (B: back to the animation)"

// FrameStep is the wall time between the frames of a key script: 1/30 s.
const FrameStep = float32(1.0 / 30)

// RequestShot names the next screenshot (model, clip, time) and asks the
// next frame to write it.
func (a *App) RequestShot() (string, error) {
	if err := os.MkdirAll(a.ShotDir, 0o755); err != nil {
		return "", err
	}
	name := strings.TrimSuffix(filepath.Base(a.Model.Name), filepath.Ext(a.Model.Name))
	choice := a.ChoiceName()
	safe := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r == ':' {
			return '_'
		}
		return r
	}, fmt.Sprintf("%s_%s_%.3fs", name, choice, a.Time()))
	path := filepath.Join(a.ShotDir, safe+".png")
	for i := 2; fileExists(path); i++ {
		path = filepath.Join(a.ShotDir, fmt.Sprintf("%s_%d.png", safe, i))
	}
	a.shotPath = path
	return path, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

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
		a.Crowd.Update(dt, a.UI.Rate(), !a.UI.Playing)
		a.Timing.AnimMs = smooth(a.Timing.AnimMs, float32(time.Since(start).Seconds()*1000))
		return nil
	}
	a.Ctl.SetSpeed(a.UI.ClockRate())
	a.Ctl.SetPaused(!a.UI.Playing)
	if err := a.View.Update(dt); err != nil {
		return err
	}
	a.printEvents(a.Ctl.Events())
	if a.UI.LoopOut > a.UI.LoopIn {
		a.UI.InLoop(a)
		a.PoseNow() // the seek's pose, this frame
		if err := a.View.Scene.Refresh(a.View.R, a.Character); err != nil {
			return err
		}
	}
	a.followRoot()
	a.Timing.AnimMs = smooth(a.Timing.AnimMs, float32(time.Since(start).Seconds()*1000))
	return nil
}

// followRoot moves the camera and its home with a character root motion
// carries, while C has it follow.
func (a *App) followRoot() {
	if !a.RootMotionOn() || !a.Follow {
		return
	}
	if d := a.Root.Translation.Sub(a.followed); d != (mgl32.Vec3{}) {
		a.View.Cam.Target = a.View.Cam.Target.Add(d)
		a.View.Home.Target = a.View.Home.Target.Add(d)
	}
	a.followed = a.Root.Translation
}

// CountFrame counts a frame of the window's loop, dt seconds after the
// one before, in the HUD's frame rate.
func (a *App) CountFrame(dt float32) {
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
		v.Grid = scene.GroundGrid(v.Scene, a.Character)
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
	v.KeepInView(a.Character)
	a.followRoot()
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
	return a.Snapshot.Info(a.Character, &a.UI, ui.Stats{Timed: !a.Steady, FPS: a.Timing.FPS, AnimMs: a.Timing.AnimMs, RenderMs: a.Timing.DrawMs,
		DrawCalls: a.View.R.DrawCalls, Parts: a.View.Scene.Parts, Vertices: a.View.Stats.Vertices})
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
