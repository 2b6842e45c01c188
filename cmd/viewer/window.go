package main

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/render"
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

// screenshot renders one frame at time t offscreen and writes it as PNG.
func screenshot(opt *options, c *character, t float32) error {
	win, err := openWindow(64, 64, "viewer", false)
	if err != nil {
		return err
	}
	defer glfw.Terminate()
	defer win.Destroy()
	img, err := renderImage(c, t, opt.width, opt.height)
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
	defer glfw.Terminate()
	defer win.Destroy()
	glfw.SwapInterval(1)
	r, err := render.New()
	if err != nil {
		return err
	}
	defer r.Destroy()
	scene, err := upload(r, c)
	if err != nil {
		return err
	}
	cam := frameClip(scene, c, float32(opt.width)/float32(opt.height))

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
		scene.refresh(c)
		fw, fh := win.GetFramebufferSize()
		if fw > 0 && fh > 0 {
			// The framebuffer may be larger than the window on HiDPI
			// screens: the viewport follows the framebuffer.
			frame := render.Frame{Width: fw, Height: fh, Camera: cam, Clear: background, Items: scene.items}
			if err := r.Draw(&frame); err != nil {
				return err
			}
		}
		win.SwapBuffers()
		glfw.PollEvents()
	}
	return nil
}

// frameClip frames the character over its whole clip so that no pose
// leaves the view.
func frameClip(s *gpuScene, c *character, aspect float32) render.Camera {
	var lo, hi mgl32.Vec3
	found := false
	const samples = 12
	for k := 0; k <= samples; k++ {
		c.evaluate(c.duration() * float32(k) / samples)
		s.refresh(c)
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
	return render.FrameBounds(lo, hi, aspect)
}
