package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"log"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/skinview/skinview/internal/export"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
)

// openWindow creates a GL 4.1 core context in a window, hidden for
// offscreen work.
func openWindow(w, h int, title string, visible bool) (win *glfw.Window, err error) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, errors.New("no display to open a window on (DISPLAY is not set); for headless use, run under xvfb-run -a")
	}
	// GLFW logs platform failures (a display that does not answer) and
	// panics on the next call: catch both and make one error of them.
	var glfwLog bytes.Buffer
	log.SetOutput(&glfwLog)
	defer func() {
		log.SetOutput(os.Stderr)
		why := strings.TrimSpace(glfwLog.String())
		if p := recover(); p != nil {
			if why == "" {
				why = fmt.Sprint(p)
			}
			win, err = nil, fmt.Errorf("cannot open a window on display %q (%s); for headless use, run under xvfb-run -a", os.Getenv("DISPLAY"), oneLine(errors.New(why)))
		} else if why != "" {
			fmt.Fprintln(os.Stderr, why)
		}
	}()
	if err := glfw.Init(); err != nil {
		return nil, fmt.Errorf("no display to open a window on (%v); for headless use, run under xvfb-run -a", err)
	}
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Samples, 4)
	glfw.WindowHint(glfw.ScaleToMonitor, glfw.True)
	if visible {
		glfw.WindowHint(glfw.Visible, glfw.True)
	} else {
		glfw.WindowHint(glfw.Visible, glfw.False)
	}
	win, err = glfw.CreateWindow(w, h, title, nil, nil)
	if err != nil {
		glfw.Terminate()
		return nil, fmt.Errorf("cannot create an OpenGL 4.1 core window: %w", err)
	}
	win.MakeContextCurrent()
	return win, nil
}

func closeWindow(win *glfw.Window) {
	win.Destroy()
	glfw.Terminate()
}

// offscreen runs f with a hidden window's GL context and an app drawing
// into a w×h target: -screenshot, -keys, -record and -sheet.
func offscreen(opt *options, c *scene.Character, w, h int, f func(a *app) error) error {
	win, err := openWindow(64, 64, "viewer", false)
	if err != nil {
		return err
	}
	defer closeWindow(win)
	a, err := newApp(opt, c, w, h)
	if err != nil {
		return err
	}
	defer a.destroy()
	return f(a)
}

// screenshot renders one frame at time t offscreen (after the -keys
// script, if any) and writes it as PNG; the HUD only with -hud.
func screenshot(opt *options, c *scene.Character, t float32) error {
	evs, err := ui.ParseKeys(opt.keys)
	if err != nil {
		return err
	}
	return offscreen(opt, c, opt.width, opt.height, func(a *app) error {
		img, err := a.shoot(t, evs)
		if err != nil {
			return err
		}
		return writePNG(opt.screenshot, img)
	})
}

// shoot renders the picture -screenshot writes: the character at time t,
// or after the key script when there is one; the HUD only with -hud.
func (a *app) shoot(t float32, evs []ui.Event) (*image.NRGBA, error) {
	c := a.Character
	if a.crowd != nil {
		a.crowd.PoseAt(t)
	} else if len(evs) == 0 {
		// The moment asked for, exactly: every clip at local time t.
		if err := a.v.PoseAt(t); err != nil {
			return nil, err
		}
	} else {
		c.Seek(t)
		if err := a.update(0); err != nil {
			return nil, err
		}
		if err := a.runKeys(evs); err != nil {
			return nil, err
		}
	}
	a.ui.HUD = a.opt.hud
	a.ui.Message = ""
	if !a.opt.hud {
		a.ui.Help = false
	}
	if err := a.draw(); err != nil {
		return nil, err
	}
	return a.v.Target.ReadImage(), nil
}

// record writes the frames of [from, to] at -fps (default: the clip's
// frame rate) as an animated GIF, a video through ffmpeg, or a numbered
// PNG sequence into a folder, by the name's extension.
func record(opt *options, c *scene.Character) error {
	return offscreen(opt, c, opt.width, opt.height, func(a *app) error { return a.record(opt) })
}

// record is record on a's view. It poses each frame at its time, or, with
// -rate or -events, plays the clock from -from for -to − -from seconds
// (default: the clip's length) at the rate asked, through loops and the
// events they fire.
func (a *app) record(opt *options) error {
	c := a.Character
	play := opt.rateSet || opt.rate != 0 || opt.events || c.RootMotionOn()
	if opt.rate != 0 {
		a.ui.CustomRate, a.ui.Reverse = float32(math.Abs(opt.rate)), opt.rate < 0
	}
	if opt.rateSet && opt.rate == 0 {
		a.ui.Playing = false // -rate 0 holds the pose
	}
	from, to := clampTime(float32(opt.from), c.Span()), float32(opt.to)
	if opt.to < 0 {
		to = from + c.Span()
	}
	if !play {
		to = clampTime(to, c.Span())
	}
	fps := float64(opt.fps)
	if fps == 0 {
		fps = float64(c.FPS())
	}
	n := int(math.Floor(float64(to-from)*fps+1e-4)) + 1
	var add func(img *image.NRGBA, i int) error
	var finish func() error
	switch strings.ToLower(filepath.Ext(opt.record)) {
	case ".gif":
		// A GIF loops: a last frame at the clip's end would show its first
		// pose twice.
		if !play && n > 1 && math.Abs(float64(to-from)*fps-float64(n-1)) < 1e-3 {
			n--
		}
		g, err := export.NewGIF(fps)
		if err != nil {
			return err
		}
		add = func(img *image.NRGBA, _ int) error { return g.Add(img) }
		finish = func() error {
			f, err := os.Create(opt.record)
			if err != nil {
				return err
			}
			if err := g.Write(f); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		}
	case ".mp4", ".mov", ".mkv", ".webm":
		v, err := export.NewVideo(opt.record, fps)
		if err != nil {
			return err
		}
		add = func(img *image.NRGBA, _ int) error { return v.Add(img) }
		finish = v.Close
	default:
		add = func(img *image.NRGBA, i int) error {
			return writePNG(filepath.Join(opt.record, fmt.Sprintf("frame_%05d.png", i)), img)
		}
		finish = func() error { return nil }
	}
	a.ui.HUD = opt.hud
	for i := 0; i < n; i++ {
		var err error
		switch {
		case play && i > 0:
			if err = a.update(float32(1 / fps)); err == nil {
				err = a.draw()
			}
		default:
			err = a.renderAt(from + float32(float64(i)/fps))
		}
		if err != nil {
			return err
		}
		if err := add(a.v.Target.ReadImage(), i); err != nil { // a new image per frame
			return err
		}
	}
	if err := finish(); err != nil {
		return err
	}
	fmt.Printf("wrote %d frames (%.3f s to %.3f s at %g fps) to %s\n", n, from, to, fps, opt.record)
	return nil
}

// sheet writes one contact sheet of n evenly spaced frames of [from, to],
// each labelled with its time.
func sheet(opt *options, c *scene.Character) error {
	n := opt.frames
	from, to := clampTime(float32(opt.from), c.Span()), float32(opt.to)
	if opt.to < 0 {
		to = c.Span()
	}
	to = clampTime(to, c.Span())
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	rows := (n + cols - 1) / cols
	out := image.NewNRGBA(image.Rect(0, 0, cols*opt.width, rows*opt.height))
	draw.Draw(out, out.Bounds(), image.NewUniform(scene.Background), image.Point{}, draw.Src)
	err := offscreen(opt, c, opt.width, opt.height, func(a *app) error {
		a.ui.HUD = false
		for i := 0; i < n; i++ {
			t := from
			if n > 1 {
				t = from + (to-from)*float32(i)/float32(n-1)
			}
			a.ui.Message = ""
			if err := a.renderAt(t); err != nil {
				return err
			}
			h, err := a.v.Overlay(1)
			if err != nil {
				return err
			}
			label := fmt.Sprintf("%s  t = %.3f s", a.ChoiceName(), t)
			h.Rect(4, 4, h.Measure(label)+8, h.LineHeight()+4, scene.Background)
			h.Text(8, 6, label, ui.TextColor)
			h.Flush(a.v.W, a.v.H)
			img := a.v.Target.ReadImage()
			x, y := (i%cols)*opt.width, (i/cols)*opt.height
			draw.Draw(out, image.Rect(x, y, x+opt.width, y+opt.height), img, image.Point{}, draw.Src)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := writePNG(opt.sheet, out); err != nil {
		return err
	}
	fmt.Printf("wrote a contact sheet of %d frames (%.3f s to %.3f s) to %s\n", n, from, to, opt.sheet)
	return nil
}

// renderAt draws the character with every clip at local time t.
func (a *app) renderAt(t float32) error {
	if err := a.v.PoseAt(t); err != nil {
		return err
	}
	return a.draw()
}

// interactive runs the window until it is closed or Esc is pressed.
func interactive(opt *options, c *scene.Character) error {
	win, err := openWindow(opt.width, opt.height, "viewer — "+c.Model.Name, true)
	if err != nil {
		return err
	}
	defer closeWindow(win)
	glfw.SwapInterval(1)
	fw, fh := win.GetFramebufferSize()
	a, err := newApp(opt, c, 0, 0)
	if err != nil {
		return err
	}
	defer func() { a.destroy() }()
	sx, _ := win.GetContentScale()
	a.scale = max(sx, 1)
	a.v.W, a.v.H = fw, fh
	if err := a.reframe(); err != nil {
		return err
	}
	script, err := ui.ParseKeys(opt.keys)
	if err != nil {
		return err
	}
	// A window opens with the floor under the model and a pointer to the
	// keys.
	a.ui.Grid = true
	a.ui.Say("H: help")

	win.SetKeyCallback(func(w *glfw.Window, key glfw.Key, _ int, action glfw.Action, mods glfw.ModifierKey) {
		if action == glfw.Release {
			return
		}
		if k := uiKey(key); k != ui.KeyNone {
			a.ui.Handle(ui.Event{Key: k, Shift: mods&glfw.ModShift != 0, Ctrl: mods&glfw.ModControl != 0, Alt: mods&glfw.ModAlt != 0}, a)
		}
	})
	var dragging, panning bool
	var lastX, lastY float64
	// fb converts window coordinates to framebuffer pixels (HiDPI).
	fb := func(w *glfw.Window, x, y float64) (float32, float32) {
		ww, wh := w.GetSize()
		return float32(x) * float32(a.v.W) / float32(max(ww, 1)), float32(y) * float32(a.v.H) / float32(max(wh, 1))
	}
	win.SetMouseButtonCallback(func(w *glfw.Window, b glfw.MouseButton, action glfw.Action, mods glfw.ModifierKey) {
		down := action == glfw.Press
		lastX, lastY = w.GetCursorPos()
		switch b {
		case glfw.MouseButtonLeft:
			// A press on the HUD's timeline or clip list, or on a joint,
			// is the HUD's; anywhere else it orbits.
			if !down {
				a.ui.Release()
				dragging = false
			} else if x, y := fb(w, lastX, lastY); !a.ui.Press(x, y, mods&glfw.ModShift != 0, a) {
				dragging = true
			}
		case glfw.MouseButtonRight, glfw.MouseButtonMiddle:
			panning = down
		}
	})
	win.SetCursorPosCallback(func(w *glfw.Window, x, y float64) {
		dx, dy := float32(x-lastX), float32(y-lastY)
		lastX, lastY = x, y
		ww, wh := w.GetSize()
		fx, fy := fb(w, x, y)
		a.ui.Hover(fx, fy)
		a.ui.Drag(fx, a)
		switch {
		case dragging:
			a.v.Cam.Orbit(-dx*0.01, dy*0.01)
		case panning && ww > 0:
			// Window coordinates to framebuffer pixels (HiDPI).
			a.v.Cam.Pan(dx*float32(a.v.W)/float32(ww), dy*float32(a.v.H)/float32(max(wh, 1)), a.v.H)
		}
	})
	win.SetScrollCallback(func(_ *glfw.Window, _, dy float64) { a.v.Cam.Zoom(float32(dy)) })
	win.SetDropCallback(func(_ *glfw.Window, names []string) {
		if len(names) == 0 {
			return
		}
		if strings.EqualFold(filepath.Ext(names[0]), ".json") {
			a.applySpec(names[0])
			return
		}
		a.load(names[0])
	})
	// The model and spec files are watched: an edit reloads them.
	var files *watcher
	rewatch := func() {
		if files != nil {
			files.close()
		}
		model := a.opt.model
		if strings.HasPrefix(model, "@") {
			model = "" // built in
		}
		if files, err = watch(model, a.opt.tree); err != nil {
			a.ui.Say("not watching the files for changes: %v", err)
			files = nil
		}
	}
	rewatch()
	defer func() {
		if files != nil {
			files.close()
		}
	}()
	watched := [2]string{a.opt.model, a.opt.tree}

	last := time.Now()
	for !win.ShouldClose() && !a.ui.Quit {
		now := time.Now()
		dt := float32(now.Sub(last).Seconds())
		last = now
		if dt > 0 {
			a.fps = smooth(a.fps, 1/dt)
		}
		if len(script) > 0 {
			a.ui.Handle(script[0], a)
			script = script[1:]
		}
		if files != nil && files.Changed() {
			a.reload()
		}
		if now := [2]string{a.opt.model, a.opt.tree}; now != watched {
			watched = now // a drop changed what is shown
			rewatch()
		}
		if err := a.update(dt); err != nil {
			return err
		}
		// The framebuffer may be larger than the window on HiDPI
		// screens: the viewport follows the framebuffer.
		a.v.W, a.v.H = win.GetFramebufferSize()
		if a.v.W > 0 && a.v.H > 0 {
			if err := a.draw(); err != nil {
				return err
			}
		}
		win.SwapBuffers()
		glfw.PollEvents()
	}
	return nil
}

// reframe fits the camera to the window's aspect ratio.
func (a *app) reframe() error {
	cam, lo, hi, err := scene.FrameClip(a.v.R, a.v.Scene, a.Character, float32(max(a.v.W, 1))/float32(max(a.v.H, 1)))
	if err != nil {
		return err
	}
	a.v.Cam, a.v.Home, a.v.BoxLo, a.v.BoxHi = cam, cam, lo, hi
	return nil
}

// load swaps in a dropped model; a file that fails keeps the current one
// and says why on screen.
func (a *app) load(path string) {
	m, err := gltfload.Load(path)
	if err != nil {
		a.ui.Say("%s", oneLine(err))
		return
	}
	opt := *a.opt
	opt.model, opt.clip, opt.tree, opt.blend, opt.additive, opt.params = path, "", "", "", "", nil
	c, err := characterFor(m, &opt)
	if err != nil {
		a.ui.Say("%s: %s", filepath.Base(path), oneLine(err))
		return
	}
	next, err := newApp(&opt, c, 0, 0)
	if err != nil {
		a.ui.Say("%s: %s", filepath.Base(path), oneLine(err))
		return
	}
	next.scale, next.fps = a.scale, a.fps
	next.v.W, next.v.H = a.v.W, a.v.H
	if err := next.reframe(); err != nil {
		next.destroy()
		a.ui.Say("%s: %s", filepath.Base(path), oneLine(err))
		return
	}
	a.destroy()
	*a = *next
	a.ui.Say("loaded %s", filepath.Base(path))
}

// reload reads the model and spec files again and swaps them in, keeping
// what plays, its time, the parameters' values and the camera. A file
// that fails to load or parse (or is half written) leaves everything as
// it was and says why on screen.
func (a *app) reload() {
	opt := *a.opt
	if a.ClipMode && a.Clip >= 0 {
		opt.clip = a.ClipName()
	}
	a.swap(&opt, "reloaded")
}

// applySpec runs the spec file path (a dropped .json) on the model shown.
func (a *app) applySpec(path string) {
	opt := *a.opt
	opt.tree, opt.clip, opt.blend, opt.additive = path, "", "", ""
	a.swap(&opt, "applied")
}

// swap builds the app opt asks for and takes its place, keeping the
// time, the parameters, the camera and the keys' state; on an error the
// current app stays and the message names the file.
func (a *app) swap(opt *options, verb string) {
	name := filepath.Base(opt.model)
	if opt.tree != "" {
		name = filepath.Base(opt.tree)
	}
	fail := func(err error) {
		if msg := oneLine(err); strings.Contains(msg, name) {
			a.ui.Say("%s", msg)
		} else {
			a.ui.Say("%s: %s", name, msg)
		}
	}
	m, err := loadModel(opt.model)
	if err != nil {
		a.ui.Say("%s", oneLine(err))
		return
	}
	if _, err := importClips(m, opt); err != nil {
		a.ui.Say("%s", oneLine(err))
		return
	}
	c, err := characterFor(m, opt)
	if err != nil {
		fail(err)
		return
	}
	for _, p := range a.Params() {
		_ = c.Ctl.SetParam(p.Name, p.Value) // a parameter the new spec lacks is dropped
	}
	w, h := 0, 0
	if a.v.Target != nil {
		w, h = a.v.W, a.v.H
	}
	next, err := newApp(opt, c, w, h)
	if err != nil {
		fail(err)
		return
	}
	t := a.Time()
	next.scale, next.fps, next.ui, next.stdout = a.scale, a.fps, a.ui, a.stdout
	next.v.W, next.v.H = a.v.W, a.v.H
	next.v.Cam, next.v.Home, next.v.BoxLo, next.v.BoxHi = a.v.Cam, a.v.Home, a.v.BoxLo, a.v.BoxHi
	if next.ClipMode {
		_ = next.Character.SetLoopMode(next.ui.Loop)
	}
	next.Seek(t)
	a.destroy()
	*a = *next
	a.opt = opt
	a.ui.Say("%s %s", verb, name)
}

// uiKey maps GLFW's keys onto the viewer's key map.
func uiKey(k glfw.Key) ui.Key {
	switch k {
	case glfw.KeySpace:
		return ui.KeySpace
	case glfw.KeyLeft:
		return ui.KeyLeft
	case glfw.KeyRight:
		return ui.KeyRight
	case glfw.KeyUp:
		return ui.KeyUp
	case glfw.KeyDown:
		return ui.KeyDown
	case glfw.KeyHome:
		return ui.KeyHome
	case glfw.KeyEnd:
		return ui.KeyEnd
	case glfw.KeyComma:
		return ui.KeyComma
	case glfw.KeyPeriod:
		return ui.KeyPeriod
	case glfw.KeyR:
		return ui.KeyR
	case glfw.KeyA:
		return ui.KeyA
	case glfw.KeyM:
		return ui.KeyM
	case glfw.KeyC:
		return ui.KeyC
	case glfw.KeyN:
		return ui.KeyN
	case glfw.KeyEqual, glfw.KeyKPAdd:
		return ui.KeyEqual
	case glfw.KeyMinus, glfw.KeyKPSubtract:
		return ui.KeyMinus
	case glfw.KeyBackspace:
		return ui.KeyBackspace
	case glfw.KeyL:
		return ui.KeyL
	case glfw.KeyLeftBracket:
		return ui.KeyLeftBracket
	case glfw.KeyRightBracket:
		return ui.KeyRightBracket
	case glfw.KeyEnter, glfw.KeyKPEnter:
		return ui.KeyEnter
	case glfw.KeyTab:
		return ui.KeyTab
	case glfw.KeyH:
		return ui.KeyH
	case glfw.KeyF1:
		return ui.KeyF1
	case glfw.KeyF:
		return ui.KeyF
	case glfw.KeyK:
		return ui.KeyK
	case glfw.KeyW:
		return ui.KeyW
	case glfw.KeyV:
		return ui.KeyV
	case glfw.KeyG:
		return ui.KeyG
	case glfw.KeyP:
		return ui.KeyP
	case glfw.KeyF12:
		return ui.KeyF12
	case glfw.KeyU:
		return ui.KeyU
	case glfw.KeyS:
		return ui.KeyS
	case glfw.KeyB:
		return ui.KeyB
	case glfw.KeyI:
		return ui.KeyI
	case glfw.KeyO:
		return ui.KeyO
	case glfw.KeyEscape:
		return ui.KeyEscape
	}
	if k >= glfw.Key0 && k <= glfw.Key9 {
		return ui.Key0 + ui.Key(k-glfw.Key0)
	}
	return ui.KeyNone
}
