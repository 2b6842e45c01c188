package main

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// openWindow creates a GL 4.1 core context in a window, hidden for
// offscreen work.
func openWindow(w, h int, title string, visible bool) (*glfw.Window, error) {
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
	win, err := glfw.CreateWindow(w, h, title, nil, nil)
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

// screenshot renders one frame at time t offscreen and writes it as PNG.
func screenshot(opt *options, c *character, t float32) error {
	win, err := openWindow(64, 64, "viewer", false)
	if err != nil {
		return err
	}
	defer closeWindow(win)
	img, err := renderImage(c, opt, t, opt.width, opt.height)
	if err != nil {
		return err
	}
	if dir := filepath.Dir(opt.screenshot); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(opt.screenshot)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// interactive runs the window until it is closed or Esc is pressed.
func interactive(opt *options, c *character) error {
	win, err := openWindow(opt.width, opt.height, "viewer — "+c.model.Name, true)
	if err != nil {
		return err
	}
	defer closeWindow(win)
	glfw.SwapInterval(1)
	fw, fh := win.GetFramebufferSize()
	v, err := newView(c, opt, 0, 0)
	if err != nil {
		return err
	}
	defer v.destroy()
	v.cam, err = frameClip(v.r, v.scene, c, float32(max(fw, 1))/float32(max(fh, 1)))
	if err != nil {
		return err
	}

	ctl := newPlayback(c.duration(), float32(opt.time))
	win.SetKeyCallback(func(w *glfw.Window, key glfw.Key, _ int, action glfw.Action, mods glfw.ModifierKey) {
		if action == glfw.Release {
			return
		}
		switch key {
		case glfw.KeyEscape:
			w.SetShouldClose(true)
		case glfw.KeySpace:
			if action == glfw.Press {
				ctl.playing = !ctl.playing
			}
		case glfw.KeyLeft:
			ctl.step(-1, mods&glfw.ModShift != 0)
		case glfw.KeyRight:
			ctl.step(+1, mods&glfw.ModShift != 0)
		}
	})
	last := time.Now()
	for !win.ShouldClose() {
		now := time.Now()
		ctl.advance(float32(now.Sub(last).Seconds()))
		last = now
		c.evaluate(ctl.time())
		if err := v.scene.refresh(v.r, c); err != nil {
			return err
		}
		animDone := time.Now()
		// The framebuffer may be larger than the window on HiDPI screens:
		// the viewport follows the framebuffer.
		v.w, v.h = win.GetFramebufferSize()
		if v.w > 0 && v.h > 0 {
			if err := v.draw(); err != nil {
				return err
			}
		}
		v.stats.add(animDone.Sub(now), time.Since(animDone), v.r.DrawCalls, v.r.PaletteUsed)
		win.SwapBuffers()
		glfw.PollEvents()
	}
	return nil
}
