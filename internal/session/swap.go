package session

import (
	"path/filepath"
	"strings"

	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/scene"
)

// Reframe fits the camera to the character over its clip, at the view's
// aspect ratio.
func (a *App) Reframe() error {
	cam, lo, hi, err := scene.FrameClip(a.View.R, a.View.Scene, a.Character, float32(max(a.View.W, 1))/float32(max(a.View.H, 1)))
	if err != nil {
		return err
	}
	a.View.Cam, a.View.Home, a.View.BoxLo, a.View.BoxHi = cam, cam, lo, hi
	return nil
}

// Open swaps in a dropped model; a file that fails keeps the current one
// and says why on screen.
func (a *App) Open(path string) {
	m, err := gltfload.Load(path)
	if err != nil {
		a.UI.Say("%s", OneLine(err))
		return
	}
	lo := *a.load
	lo.Model, lo.Clip, lo.Tree, lo.Blend, lo.Additive, lo.Params = path, "", "", "", "", nil
	c, err := NewCharacter(m, &lo)
	if err != nil {
		a.UI.Say("%s: %s", filepath.Base(path), OneLine(err))
		return
	}
	next, err := New(a.opt, &lo, c, 0, 0)
	if err != nil {
		a.UI.Say("%s: %s", filepath.Base(path), OneLine(err))
		return
	}
	next.Scale, next.Timing.FPS = a.Scale, a.Timing.FPS
	next.View.W, next.View.H = a.View.W, a.View.H
	if err := next.Reframe(); err != nil {
		next.Destroy()
		a.UI.Say("%s: %s", filepath.Base(path), OneLine(err))
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
	if a.ClipMode && a.Clip >= 0 {
		lo.Clip = a.ClipName()
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
	fail := func(err error) string {
		msg := OneLine(err)
		if !strings.Contains(msg, name) {
			msg = name + ": " + msg
		}
		a.UI.Say("%s", msg)
		return msg
	}
	m, err := LoadModel(lo.Model)
	if err != nil {
		a.UI.Say("%s", OneLine(err))
		return a.UI.Message
	}
	if _, err := ImportClips(m, lo); err != nil {
		a.UI.Say("%s", OneLine(err))
		return a.UI.Message
	}
	c, err := NewCharacter(m, lo)
	if err != nil {
		return fail(err)
	}
	for _, p := range a.Params() {
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
	t := a.Time()
	next.Scale, next.Timing.FPS, next.UI, next.Stdout = a.Scale, a.Timing.FPS, a.UI, a.Stdout
	next.View.W, next.View.H = a.View.W, a.View.H
	next.View.Cam, next.View.Home, next.View.BoxLo, next.View.BoxHi = a.View.Cam, a.View.Home, a.View.BoxLo, a.View.BoxHi
	if next.ClipMode || next.OneClock {
		_ = next.Character.SetLoopMode(next.UI.Loop)
	}
	next.Seek(t)
	next.UI.Banner = "" // the files load again
	a.replace(next)
	a.UI.Say("%s %s", verb, name)
	return ""
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
