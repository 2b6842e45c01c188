package main

import (
	"io"
	"testing"

	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
)

// withApp runs f on an offscreen app of opt.model (the built-in character
// when empty) under opt.
func withApp(t *testing.T, opt options, f func(a *app.App) error) {
	t.Helper()
	opt.view, opt.fade = debugview.Shaded, 0.3
	if opt.width == 0 {
		opt.width, opt.height = 64, 64
	}
	if opt.skinning == "" {
		opt.skinning = scene.SkinGPU
	}
	runApp(t, &opt, f)
}

// withArgs runs f on the GL thread with an app made from command-line
// args, parsed as the viewer parses them.
func withArgs(t *testing.T, args []string, f func(a *app.App) error) {
	t.Helper()
	opt, err := parseFlags(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	runApp(t, opt, f)
}

// loadCharacter loads opt's model and makes its character, as run does.
func loadCharacter(opt *options) (*character.Character, error) {
	m, err := asset.Load(opt.model)
	if err != nil {
		return nil, err
	}
	return app.NewCharacter(m, opt.load())
}

// runApp loads opt's model, makes its character and app, and runs f with
// the app on the GL thread.
func runApp(t *testing.T, opt *options, f func(a *app.App) error) {
	t.Helper()
	c, err := loadCharacter(opt)
	if err != nil {
		t.Fatal(err)
	}
	onGL(t, func() error {
		a, err := newApp(opt, c, opt.width, opt.height)
		if err != nil {
			return err
		}
		defer a.Destroy()
		return f(a)
	})
}

// keys replays a key script, one key per frame; it runs on the GL thread,
// so it reports errors with t.Error (t.Fatal there would hang the test).
func keys(t *testing.T, a *app.App, script string) {
	t.Helper()
	evs, err := ui.ParseKeys(script)
	if err != nil {
		t.Error(err)
		return
	}
	for _, ev := range evs {
		a.UI.Handle(ev, a)
		if err := a.Update(app.FrameStep); err != nil {
			t.Error(err)
			return
		}
	}
}
