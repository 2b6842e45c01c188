// Package gltest gives tests an OpenGL 4.1 core context. GL contexts belong
// to one OS thread while tests run on goroutines that move between threads,
// so a test binary's main goroutine serves GL work for every test.
package gltest

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
)

func init() { runtime.LockOSThread() }

var (
	calls  = make(chan func())
	window *glfw.Window
	ctxErr error
)

// Main runs the tests of a package that uses Do; call it from TestMain.
// It must run on the main goroutine, which init has locked to the main
// thread.
func Main(m *testing.M) {
	done := make(chan int)
	go func() { done <- m.Run() }()
	for {
		select {
		case f := <-calls:
			f()
		case code := <-done:
			if window != nil {
				window.Destroy()
				glfw.Terminate()
			}
			os.Exit(code)
		}
	}
}

// Do runs f on the GL thread with a current context (a hidden 64×64
// window made on first use) and fails the test with f's error. f must not
// call t.Fatal: it returns what went wrong instead. Without a display the
// test fails, saying how to run it: a skipped GL test would pass a suite
// that never drew a pixel.
func Do(t testing.TB, f func() error) {
	t.Helper()
	if msg := NoDisplay(); msg != "" {
		t.Fatal(msg)
	}
	errc := make(chan error, 1)
	calls <- func() {
		defer func() {
			if p := recover(); p != nil {
				errc <- fmt.Errorf("panic on the GL thread: %v", p)
			}
		}()
		if window == nil && ctxErr == nil {
			window, ctxErr = open()
		}
		if ctxErr != nil {
			errc <- fmt.Errorf("GL context: %w", ctxErr)
			return
		}
		errc <- f()
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// NoDisplay says how to run GL tests when no X display is set, and is
// empty when one is.
func NoDisplay() string {
	if os.Getenv("DISPLAY") != "" {
		return ""
	}
	return "no X display (DISPLAY is unset): GL tests need one; run them with `make test` or `xvfb-run -a go test ./...`"
}

func open() (*glfw.Window, error) {
	if err := glfw.Init(); err != nil {
		return nil, err
	}
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Visible, glfw.False)
	w, err := glfw.CreateWindow(64, 64, "test", nil, nil)
	if err != nil {
		glfw.Terminate()
		return nil, err
	}
	w.MakeContextCurrent()
	return w, nil
}
