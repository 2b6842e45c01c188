package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/report"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
)

// app is the viewer as a user drives it: a character, its view, and the
// key map's state. The window and the offscreen modes (-keys, -record,
// -sheet) run the same frames.
type app struct {
	*scene.Character // the character the keys drive
	opt              *options
	v                *scene.View
	ui               ui.State
	scale            float32 // HiDPI content scale of the HUD
	// hud makes the HUD's Info each frame.
	hud     *ui.Snapshot
	fps     float32
	animMs  float32
	drawMs  float32
	shotDir string
	stdout  io.Writer // where key S prints
	// shotPath, when set, asks the next frame to save itself there.
	shotPath string
	// steady leaves wall-clock timings out of the HUD, so that offscreen
	// output (and its goldens) is the same on every run.
	steady bool
	// crowd, with -crowd N, animates and draws N characters.
	crowd *scene.Crowd
	// follow keeps the camera on a character root motion carries (C);
	// followed is where its root was when the camera last moved.
	follow   bool
	followed mgl32.Vec3
}

// newApp builds the view of c (offscreen at w×h when both are positive).
func newApp(opt *options, c *scene.Character, w, h int) (*app, error) {
	v, err := scene.NewView(c, opt.viewOptions(), w, h)
	if err != nil {
		return nil, err
	}
	a := &app{Character: c, stdout: os.Stdout, opt: opt, v: v, ui: ui.NewState(), scale: 1, shotDir: "screenshots"}
	if c.ClipMode {
		// The timeline loops the clip shown until L says otherwise.
		c.Ctl.SetLoopMode(a.ui.Loop)
		a.ui.Selected = max(c.Clip, 0) // [ ] start from the clip shown
	}
	if opt.time != 0 {
		c.Seek(float32(opt.time))
	}
	if c.RootMotionOn() {
		c.Seek(c.Time()) // framing played the clip: start where the clip stands
	}
	a.ui.HUD = true
	a.ui.View, a.ui.Skeleton = opt.view, opt.skeleton
	a.ui.Onion = opt.onion > 0
	a.follow = true
	if opt.rate != 0 {
		a.ui.CustomRate, a.ui.Reverse = float32(math.Abs(opt.rate)), opt.rate < 0
	}
	if opt.rateSet && opt.rate == 0 {
		a.ui.Playing = false // -rate 0 holds the pose
	}
	a.hud = ui.NewSnapshot(c, v.Scene.Parts, v.WeightJoint)
	a.hud.Issues, a.hud.IssueLines = report.IssueSummary(&c.Model.Report)
	a.steady = w > 0 && h > 0
	if opt.joint != "" {
		a.Selected = c.Model.Skeleton.JointIndex(opt.joint) // the inspector starts on it
	}
	if opt.crowd > 1 && c.RootMotionOn() {
		v.Destroy()
		return nil, errors.New("-crowd and root motion together: a crowd's members do not travel; drop one")
	}
	if opt.crowd > 1 {
		if a.crowd, err = scene.NewCrowd(c.Model, float32(opt.fade), c, v.Scene, opt.crowd); err != nil {
			v.Destroy()
			return nil, err
		}
		a.crowd.Start()
		if lo, hi, ok := a.crowd.Bounds(); ok {
			v.BoxLo, v.BoxHi = lo, hi
			v.Home = render.FrameBounds(lo, hi, float32(max(w, 1))/float32(max(h, 1)))
			v.Cam = v.Home
		}
		v.Items = a.crowd.Items
		v.Stats.Vertices *= opt.crowd
	}
	return a, nil
}

func (a *app) destroy() {
	if a.crowd != nil {
		a.crowd.Close()
	}
	a.v.Destroy()
}

// ToggleFollow implements ui.Actions: the camera stays put, or follows
// root motion again, catching up with where the character walked to.
func (a *app) ToggleFollow() {
	a.follow = !a.follow
	if !a.RootMotionOn() {
		a.ui.Say("no root motion to follow (-root-motion)")
	}
}

// FrameModel implements ui.Actions: the home framing, where root motion
// has carried the character.
func (a *app) FrameModel() {
	if a.RootMotionOn() {
		a.v.Home.Target = a.v.Home.Target.Add(a.Root.Translation.Sub(a.followed))
		a.followed = a.Root.Translation
		a.follow = true
	}
	a.v.Cam = a.v.Home
}
func (a *app) Screenshot() (string, error) { return a.requestShot() }

// Seek implements ui.Actions for the crowd too.
func (a *app) Seek(t float32) {
	if a.crowd != nil {
		a.crowd.PoseAt(t)
		return
	}
	a.Character.Seek(t)
}

// Step implements ui.Actions: a frame step fires the markers it passes,
// then seeks.
func (a *app) Step(t float32, forward bool) {
	if a.crowd == nil {
		a.printEvents(a.Ctl.StepEvents(a.Time(), t, forward))
	}
	a.Seek(t)
}

// printEvents writes fired markers as JSON lines when -events asks for
// them: the marker's clip time, its clip and its name.
func (a *app) printEvents(evs []anim.Event) {
	if !a.opt.events {
		return
	}
	for _, e := range evs {
		clip, _ := json.Marshal(scene.StateName(a.Model, e.Clip))
		name, _ := json.Marshal(e.Name)
		fmt.Fprintf(a.stdout, "{\"t\":%s,\"clip\":%s,\"event\":%s}\n", strconv.FormatFloat(float64(e.Time), 'g', -1, 32), clip, name)
	}
}

// SetLoopMode implements ui.Actions for the crowd too.
func (a *app) SetLoopMode(m anim.LoopMode) error {
	if a.crowd != nil && a.ClipMode {
		a.crowd.SetLoopMode(m)
		return nil
	}
	return a.Character.SetLoopMode(m)
}

// SetBlendWeight implements ui.Actions; a crowd plays its own clips.
func (a *app) SetBlendWeight(i int, w float32) error {
	if a.crowd != nil {
		return errors.New("each character of a crowd plays its own clips")
	}
	return a.Character.SetBlendWeight(i, w)
}

// ReportState implements ui.Actions: the state line of key S, one JSON
// object on stdout, for bug reports and scripts.
func (a *app) ReportState() {
	in := a.info()
	fmt.Fprintln(a.stdout, string(ui.StateLine(&in, &a.ui, a.scale, a.hud.MorphNode)))
}

// SelectJointAt implements ui.Actions: the joint drawn within 12 pixels
// (at the HUD's scale) of (x, y) becomes the inspector's.
func (a *app) SelectJointAt(x, y float32) bool {
	j := a.v.PickJoint(x, y, 12*a.scale)
	if j < 0 {
		return false
	}
	a.Selected = j
	return true
}

// ToggleBindPose implements ui.Actions.
func (a *app) ToggleBindPose() {
	a.BindPose = !a.BindPose
	if a.BindPose {
		a.ui.Say("bind pose (B: back to the animation)")
	}
}

// frameStep is the wall time between the frames of a key script: 1/30 s.
const frameStep = float32(1.0 / 30)

// requestShot names the next screenshot (model, clip, time) and asks the
// next frame to write it.
func (a *app) requestShot() (string, error) {
	if err := os.MkdirAll(a.shotDir, 0o755); err != nil {
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
	path := filepath.Join(a.shotDir, safe+".png")
	for i := 2; fileExists(path); i++ {
		path = filepath.Join(a.shotDir, fmt.Sprintf("%s_%d.png", safe, i))
	}
	a.shotPath = path
	return path, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// update advances the animation by dt seconds of wall time as the key
// state says and poses the character.
func (a *app) update(dt float32) error {
	start := time.Now()
	a.ui.Tick(dt)
	// The keys' transport goes to the character's clock, which owns the
	// time; paused, a cross-fade still plays out.
	if a.crowd != nil {
		a.crowd.Update(dt, a.ui.Rate(), !a.ui.Playing)
		a.animMs = smooth(a.animMs, float32(time.Since(start).Seconds()*1000))
		return nil
	}
	a.Ctl.SetSpeed(a.ui.Rate())
	a.Ctl.SetPaused(!a.ui.Playing)
	if err := a.v.Update(dt); err != nil {
		return err
	}
	a.printEvents(a.Ctl.Events())
	if a.ui.LoopOut > a.ui.LoopIn {
		a.ui.InLoop(a)
		a.PoseNow() // the seek's pose, this frame
		if err := a.v.Scene.Refresh(a.v.R, a.Character); err != nil {
			return err
		}
	}
	a.followRoot()
	a.animMs = smooth(a.animMs, float32(time.Since(start).Seconds()*1000))
	return nil
}

// followRoot moves the camera and its home with a character root motion
// carries, while C has it follow.
func (a *app) followRoot() {
	if !a.RootMotionOn() || !a.follow {
		return
	}
	if d := a.Root.Translation.Sub(a.followed); d != (mgl32.Vec3{}) {
		a.v.Cam.Target = a.v.Cam.Target.Add(d)
		a.v.Home.Target = a.v.Home.Target.Add(d)
	}
	a.followed = a.Root.Translation
}

func smooth(old, now float32) float32 {
	if old == 0 {
		return now
	}
	return old*0.9 + now*0.1
}

// draw renders the frame: the scene with the key state's view options,
// the screenshot if one was asked for, then the HUD.
func (a *app) draw() error {
	start := time.Now()
	v := a.v
	v.Wire = a.ui.Wire
	v.Bones = a.ui.Skeleton
	v.Onion = 0
	if a.ui.Onion && a.crowd == nil {
		v.Onion = cmp.Or(max(a.opt.onion, 0), 2)
	}
	switch {
	case !a.ui.Grid:
		v.Grid = nil
	case v.Grid == nil:
		// Laid out once when turned on: a floor that stays put, and no
		// allocation per frame.
		v.Grid = scene.GroundGrid(v.Scene, a.Character)
	}
	v.Mode = a.ui.View
	v.KeepInView(a.Character)
	a.followRoot()
	if err := v.Draw(); err != nil {
		return err
	}
	if a.shotPath != "" {
		path := a.shotPath
		a.shotPath = ""
		if err := writePNG(path, a.readPixels()); err != nil {
			a.ui.Say("screenshot failed: %v", err)
		}
	}
	if a.ui.HUD || a.ui.Help || a.ui.Message != "" {
		h, err := v.Overlay(a.scale)
		if err != nil {
			return err
		}
		info := a.info()
		ui.Draw(h, &a.ui, &info, v.W, v.H)
		h.Flush(v.W, v.H)
	}
	a.drawMs = smooth(a.drawMs, float32(time.Since(start).Seconds()*1000))
	return nil
}

// readPixels reads what the view drew, without the HUD.
func (a *app) readPixels() *image.NRGBA {
	if a.v.Target != nil {
		return a.v.Target.ReadImage()
	}
	img, _ := render.ReadFramebuffer(a.v.W, a.v.H)
	return img
}

// info is the HUD's snapshot of the viewer.
func (a *app) info() ui.Info {
	return a.hud.Info(a.Character, &a.ui, ui.Stats{Timed: !a.steady, FPS: a.fps, AnimMs: a.animMs, RenderMs: a.drawMs,
		DrawCalls: a.v.R.DrawCalls, Parts: a.v.Scene.Parts, Vertices: a.v.Stats.Vertices})
}

// runKeys replays a key script offscreen, one key per 1/30 s frame.
func (a *app) runKeys(evs []ui.Event) error {
	for _, ev := range evs {
		a.ui.Handle(ev, a)
		if err := a.update(frameStep); err != nil {
			return err
		}
		if err := a.draw(); err != nil {
			return err
		}
	}
	return nil
}

func writePNG(path string, img image.Image) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
