package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// GL contexts belong to one OS thread, and tests run on goroutines that
// may move between threads. So the main goroutine, locked to the main
// thread by init, serves GL work for every test through glCalls.
var glCalls = make(chan func())

func TestMain(m *testing.M) {
	done := make(chan int)
	go func() { done <- m.Run() }()
	var win *glfw.Window
	for {
		select {
		case f := <-glCalls:
			f()
		case code := <-done:
			if win = glWindow; win != nil {
				win.Destroy()
				glfw.Terminate()
			}
			os.Exit(code)
		}
	}
}

var (
	glWindow *glfw.Window
	glErr    error
)

// onGL runs f on the GL thread with a current context (a hidden window made
// on first use). f must not call t.Fatal: it returns what the test checks.
// Without a display it skips locally but fails in CI, where tests run under
// Xvfb and a missing context is a real failure.
func onGL(t *testing.T, f func() error) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" && os.Getenv("CI") == "" {
		t.Skip("no DISPLAY: GL tests run under Xvfb (make test)")
	}
	errc := make(chan error, 1)
	glCalls <- func() {
		defer func() {
			if p := recover(); p != nil {
				errc <- fmt.Errorf("panic on the GL thread: %v", p)
			}
		}()
		if glWindow == nil && glErr == nil {
			glWindow, glErr = openWindow(64, 64, "test", false)
		}
		if glErr != nil {
			errc <- fmt.Errorf("GL context: %w", glErr)
			return
		}
		errc <- f()
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}
