package app

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/report"

	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/scene"
)

// Reframe fits the camera to the character over its clip (with -crowd,
// to the whole crowd), at the view's aspect ratio; a placed camera (-eye,
// -target) stays where it is.
func (a *App) Reframe() error {
	aspect := float32(max(a.View.W, 1)) / float32(max(a.View.H, 1))
	cam, lo, hi, err := scene.FrameClip(a.View.R, a.View.Scene, a.Char, aspect)
	if err != nil {
		return err
	}
	if a.Crowd != nil {
		// The window reframes as it opens: the crowd, not its one
		// character at the middle, as offscreen pictures frame it.
		if clo, chi, ok := a.Crowd.Bounds(); ok {
			lo, hi, cam = clo, chi, render.FrameBounds(clo, chi, aspect)
		}
		defer a.crowdCamera() // culling and update rates by the new camera
	}
	a.View.BoxLo, a.View.BoxHi, a.View.Framed = lo, hi, cam
	if !a.View.Placed {
		a.View.Cam, a.View.Home = cam, cam
	}
	return nil
}

// Open swaps in a dropped model; a file that fails keeps the current one
// and says why on screen.
func (a *App) Open(path string) {
	m, err := gltfload.Load(path)
	if err != nil {
		a.UI.Say("%s", report.OneLine(err))
		return
	}
	lo := *a.load
	lo.Model, lo.Clip, lo.Tree, lo.Blend, lo.Additive, lo.Params = path, "", "", "", "", nil
	c, err := NewCharacter(m, &lo)
	if err != nil {
		a.UI.Say("%s: %s", filepath.Base(path), report.OneLine(err))
		return
	}
	next, err := New(a.opt, &lo, c, 0, 0)
	if err != nil {
		a.UI.Say("%s: %s", filepath.Base(path), report.OneLine(err))
		return
	}
	next.Scale, next.Timing.FPS = a.Scale, a.Timing.FPS
	next.View.W, next.View.H = a.View.W, a.View.H
	if err := next.Reframe(); err != nil {
		next.Destroy()
		a.UI.Say("%s: %s", filepath.Base(path), report.OneLine(err))
		return
	}
	a.replace(next)
	a.UI.Say("loaded %s", filepath.Base(path))
}

// Reload reads the model and spec files again and swaps them in, keeping
// what plays, its time, the parameters' values and the camera. A file
// that fails to load or parse (or is half written) leaves everything as
// it was and says why on screen.
func (a *App) Reload() {
	lo := *a.load
	if a.Char.ClipMode && a.Char.Clip >= 0 {
		lo.Clip = a.Char.ClipName()
	}
	if msg := a.swap(&lo, "reloaded"); msg != "" {
		a.UI.Banner = "showing the last good version: " + msg
	}
}

// ApplySpec runs the spec file path (a dropped .json) on the model shown.
func (a *App) ApplySpec(path string) {
	lo := *a.load
	lo.Tree, lo.Clip, lo.Blend, lo.Additive = path, "", "", ""
	a.swap(&lo, "applied")
}

// swap builds the app lo asks for and takes its place, keeping the
// time, the parameters, the camera and the keys' state; on an error the
// current app stays and the message, which it returns, names the file.
func (a *App) swap(lo *LoadOptions, verb string) (failed string) {
	lo.Reloading = true
	name := filepath.Base(lo.Model)
	if lo.Tree != "" {
		name = filepath.Base(lo.Tree)
	}
	m, err := asset.Load(lo.Model)
	if err != nil {
		a.UI.Say("%s", report.OneLine(err))
		return a.UI.Message
	}
	if _, err := ImportClips(m, lo); err != nil {
		a.UI.Say("%s", report.OneLine(err))
		return a.UI.Message
	}
	runtime, _, err := CompressModel(m, lo)
	if err != nil {
		a.UI.Say("%s", report.OneLine(err))
		return a.UI.Message
	}
	return a.swapModel(m, runtime, lo, name, verb)
}

// swapModel is swap on a model at hand, playing its clips in runtime form
// (nil: as loaded); name is the file the messages name.
func (a *App) swapModel(m *gltfload.Model, runtime []*anim.RuntimeClip, lo *LoadOptions, name, verb string) (failed string) {
	fail := func(err error) string {
		msg := report.OneLine(err)
		if !strings.Contains(msg, name) {
			msg = name + ": " + msg
		}
		a.UI.Say("%s", msg)
		return msg
	}
	c, err := NewCharacterRuntime(m, runtime, lo)
	if err != nil {
		return fail(err)
	}
	for _, p := range a.Char.Params() {
		_ = c.Ctl.SetParam(p.Name, p.Value) // a parameter the new spec lacks is dropped
	}
	w, h := 0, 0
	if a.View.Target != nil {
		w, h = a.View.W, a.View.H
	}
	next, err := New(a.opt, lo, c, w, h)
	if err != nil {
		return fail(err)
	}
	t := a.Char.Time()
	next.Scale, next.Timing.FPS, next.UI, next.Stdout = a.Scale, a.Timing.FPS, a.UI, a.Stdout
	next.View.W, next.View.H = a.View.W, a.View.H
	next.View.Cam, next.View.Home, next.View.BoxLo, next.View.BoxHi = a.View.Cam, a.View.Home, a.View.BoxLo, a.View.BoxHi
	if next.Char.ClipMode || next.Char.OneClock {
		_ = next.Char.SetLoopMode(next.UI.Loop)
	}
	next.Seek(t)
	next.UI.Banner = "" // the files load again
	a.replace(next)
	a.UI.Say("%s %s", verb, name)
	a.StartCompression()
	return ""
}

// compressed is what compressing a model's clips in the background gave.
type compressed struct {
	model   *gltfload.Model
	runtime []*anim.RuntimeClip
	reports []anim.CompressReport
	err     error
}

// StartCompression compresses the clips of the model shown in the
// background when -compress asked for it after the window opened
// (LoadOptions.CompressLater); Update swaps the compressed clips in when
// they are ready, keeping what plays. The window calls it after its first
// frame.
func (a *App) StartCompression() {
	m := a.Char.Model
	if a.load.Compress == 0 || !a.load.CompressLater || a.Char.Runtime != nil || len(m.Clips) == 0 || a.compressFor == m {
		return
	}
	a.compressFor = m
	done := make(chan compressed, 1)
	tolerance := a.load.Compress / 100
	go func() {
		rt, reports, err := asset.CompressClips(m, tolerance, os.Stderr)
		done <- compressed{model: m, runtime: rt, reports: reports, err: err}
	}()
	a.compressing = done
	a.UI.Say("compressing %d clips (-compress %g cm); the clips as loaded play meanwhile", len(m.Clips), a.load.Compress)
}

// takeCompressed swaps in the compressed clips once StartCompression's
// work is done; it does nothing while it runs.
func (a *App) takeCompressed() {
	var r compressed
	select {
	case r = <-a.compressing:
	default:
		return
	}
	a.compressing = nil
	if r.model != a.Char.Model {
		return // another model was loaded meanwhile
	}
	if r.err != nil {
		a.UI.Say("-compress: %s", report.OneLine(r.err))
		return
	}
	raw, packed := 0, 0
	for _, rep := range r.reports {
		raw, packed = raw+rep.RawBytes, packed+rep.Bytes
	}
	lo := *a.load
	if a.Char.ClipMode && a.Char.Clip >= 0 {
		lo.Clip = a.Char.ClipName()
	}
	if msg := a.swapModel(r.model, r.runtime, &lo, filepath.Base(lo.Model), "compressed clips of"); msg != "" {
		return
	}
	a.UI.Say("playing the compressed clips: %d bytes, %d as loaded", packed, raw)
}

// replace makes a the app next, keeping the file watch.
func (a *App) replace(next *App) {
	w := a.edits
	a.edits = edits{}
	a.Destroy()
	*a = *next
	a.edits = w
}

// edits is an app's watch on its model and spec files.
type edits struct {
	files    *Watcher
	watched  [2]string // model and spec watched
	watching bool
}

// WatchEdits reloads the character when its model or spec file changes on
// disk; the window calls it once a frame. It starts watching again when
// what is shown changes (a drop), and says on screen when the files cannot
// be watched.
func (a *App) WatchEdits() {
	if src := [2]string{a.load.Model, a.load.Tree}; !a.edits.watching || src != a.edits.watched {
		a.edits.watching, a.edits.watched = true, src
		if a.edits.files != nil {
			a.edits.files.Close()
			a.edits.files = nil
		}
		model := src[0]
		if strings.HasPrefix(model, "@") {
			model = "" // built in
		}
		files, err := Watch(model, src[1])
		if err != nil {
			a.UI.Say("not watching the files for changes: %v", err)
		}
		a.edits.files = files
	}
	if a.edits.files != nil && a.edits.files.Changed() {
		a.Reload()
	}
}

// Drop takes files dropped on the window: a .json spec runs on the model
// shown, a model replaces it.
func (a *App) Drop(names []string) {
	if len(names) == 0 {
		return
	}
	if strings.EqualFold(filepath.Ext(names[0]), ".json") {
		a.ApplySpec(names[0])
		return
	}
	a.Open(names[0])
}
