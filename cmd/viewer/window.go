package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/report"
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
			win, err = nil, fmt.Errorf("cannot open a window on display %q (%s); for headless use, run under xvfb-run -a", os.Getenv("DISPLAY"), report.OneLine(errors.New(why)))
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

// newApp opens the app on c with the flags' settings (offscreen at w×h
// when both are positive).
func newApp(opt *options, c *character.Character, w, h int) (*app.App, error) {
	return app.New(opt.app(), opt.load(), c, w, h)
}

// runCorpus runs the corpus check (app.Corpus) in a hidden window's
// GL context.
func runCorpus(w io.Writer, dir, out string, width, height int) error {
	files, err := app.CorpusFiles(dir)
	if err != nil {
		return err
	}
	win, err := openWindow(64, 64, "corpus", false)
	if err != nil {
		return err
	}
	defer closeWindow(win)
	return app.Corpus(w, dir, files, out, width, height)
}

// offscreen runs f with a hidden window's GL context and an app drawing
// into a w×h target: -screenshot, -keys, -record, -sheet and -stats.
func offscreen(opt *options, c *character.Character, w, h int, f func(a *app.App) error) error {
	win, err := openWindow(64, 64, "viewer", false)
	if err != nil {
		return err
	}
	defer closeWindow(win)
	a, err := newApp(opt, c, w, h)
	if err != nil {
		return err
	}
	defer a.Destroy()
	return f(a)
}

// interactive runs the window until it is closed or Esc is pressed.
func interactive(opt *options, c *character.Character) error {
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
	defer func() { a.Destroy() }()
	sx, _ := win.GetContentScale()
	if err := a.StartWindow(fw, fh, sx); err != nil {
		return err
	}
	script, err := ui.ParseKeys(opt.keys)
	if err != nil {
		return err
	}

	win.SetKeyCallback(func(w *glfw.Window, key glfw.Key, _ int, action glfw.Action, mods glfw.ModifierKey) {
		if action == glfw.Release {
			return
		}
		if k := uiKey(key); k != ui.KeyNone {
			a.UI.Handle(ui.Event{Key: k, Shift: mods&glfw.ModShift != 0, Ctrl: mods&glfw.ModControl != 0, Alt: mods&glfw.ModAlt != 0}, a)
		}
	})
	var dragging, panning bool
	var lastX, lastY float64
	// fb converts window coordinates to framebuffer pixels (HiDPI).
	fb := func(w *glfw.Window, x, y float64) (float32, float32) {
		ww, wh := w.GetSize()
		fw, fh := a.Size()
		return float32(x) * float32(fw) / float32(max(ww, 1)), float32(y) * float32(fh) / float32(max(wh, 1))
	}
	win.SetMouseButtonCallback(func(w *glfw.Window, b glfw.MouseButton, action glfw.Action, mods glfw.ModifierKey) {
		down := action == glfw.Press
		lastX, lastY = w.GetCursorPos()
		switch b {
		case glfw.MouseButtonLeft:
			// A press on the HUD's timeline or clip list, or on a joint,
			// is the HUD's; anywhere else it orbits.
			if !down {
				a.UI.Release()
				dragging = false
			} else if x, y := fb(w, lastX, lastY); !a.UI.Press(x, y, mods&glfw.ModShift != 0, a) {
				dragging = true
			}
		case glfw.MouseButtonRight, glfw.MouseButtonMiddle:
			panning = down
		}
	})
	win.SetCursorPosCallback(func(w *glfw.Window, x, y float64) {
		dx, dy := float32(x-lastX), float32(y-lastY)
		lastX, lastY = x, y
		fx, fy := fb(w, x, y)
		a.UI.Hover(fx, fy)
		a.UI.Drag(fx, a)
		switch {
		case dragging:
			a.Orbit(-dx*0.01, dy*0.01)
		case panning:
			a.Pan(fb(w, float64(dx), float64(dy))) // window coordinates to framebuffer pixels (HiDPI)
		}
	})
	win.SetScrollCallback(func(_ *glfw.Window, _, dy float64) { a.Zoom(float32(dy)) })
	win.SetDropCallback(func(_ *glfw.Window, names []string) { a.Drop(names) })

	last := time.Now()
	for !win.ShouldClose() && !a.UI.Quit {
		now := time.Now()
		dt := float32(now.Sub(last).Seconds())
		last = now
		a.CountFrame(dt)
		if len(script) > 0 {
			a.UI.Handle(script[0], a)
			script = script[1:]
		}
		a.WatchEdits() // an edit of the model or spec file reloads it
		if err := a.Update(dt); err != nil {
			return err
		}
		// The framebuffer may be larger than the window on HiDPI
		// screens: the viewport follows the framebuffer.
		a.Resize(win.GetFramebufferSize())
		if w, h := a.Size(); w > 0 && h > 0 {
			if err := a.Draw(); err != nil {
				return err
			}
		}
		win.SwapBuffers()
		glfw.PollEvents()
		a.StartCompression() // -compress: once the window shows the model
	}
	return nil
}

// uiKey maps GLFW's keys onto the viewer's key map.
func uiKey(k glfw.Key) ui.Key {
	if u, ok := uiKeys[k]; ok {
		return u
	}
	if k >= glfw.Key0 && k <= glfw.Key9 {
		return ui.Key0 + ui.Key(k-glfw.Key0)
	}
	return ui.KeyNone
}

var uiKeys = map[glfw.Key]ui.Key{
	glfw.KeySpace: ui.KeySpace, glfw.KeyLeft: ui.KeyLeft, glfw.KeyRight: ui.KeyRight, glfw.KeyUp: ui.KeyUp,
	glfw.KeyDown: ui.KeyDown, glfw.KeyHome: ui.KeyHome, glfw.KeyEnd: ui.KeyEnd, glfw.KeyComma: ui.KeyComma,
	glfw.KeyPeriod: ui.KeyPeriod, glfw.KeyR: ui.KeyR, glfw.KeyA: ui.KeyA, glfw.KeyM: ui.KeyM,
	glfw.KeyC: ui.KeyC, glfw.KeyN: ui.KeyN, glfw.KeyEqual: ui.KeyEqual, glfw.KeyKPAdd: ui.KeyEqual,
	glfw.KeyMinus: ui.KeyMinus, glfw.KeyKPSubtract: ui.KeyMinus, glfw.KeyBackspace: ui.KeyBackspace,
	glfw.KeyL: ui.KeyL, glfw.KeyLeftBracket: ui.KeyLeftBracket, glfw.KeyRightBracket: ui.KeyRightBracket,
	glfw.KeyEnter: ui.KeyEnter, glfw.KeyKPEnter: ui.KeyEnter, glfw.KeyTab: ui.KeyTab, glfw.KeyH: ui.KeyH,
	glfw.KeyF1: ui.KeyF1, glfw.KeyF: ui.KeyF, glfw.KeyK: ui.KeyK, glfw.KeyW: ui.KeyW, glfw.KeyV: ui.KeyV,
	glfw.KeyG: ui.KeyG, glfw.KeyP: ui.KeyP, glfw.KeyF12: ui.KeyF12, glfw.KeyU: ui.KeyU, glfw.KeyS: ui.KeyS,
	glfw.KeyB: ui.KeyB, glfw.KeyI: ui.KeyI, glfw.KeyO: ui.KeyO, glfw.KeyEscape: ui.KeyEscape,
}
