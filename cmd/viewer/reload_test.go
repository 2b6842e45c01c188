package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/app"
)

// TestDroppedFiles follows what dropping files on the window does: a file
// that fails to load leaves the model and says why on screen; a good one
// replaces it.
func TestDroppedFiles(t *testing.T) {
	bad := tempFile(t, "broken.gltf", []byte(`{"asset": {"version": "2.0"}, "nodes": [{"mesh": 4}]}`))
	data, err := assets.EdgeFS.ReadFile("edge/two_skins.gltf")
	if err != nil {
		t.Fatal(err)
	}
	good := tempFile(t, "two_skins.gltf", data)
	var afterBad, afterGood, message string
	withApp(t, options{}, func(a *app.App) error {
		a.Open(bad)
		afterBad, message = a.Char.Model.Name, a.UI.Message
		a.Open(good)
		afterGood = a.Char.Model.Name
		return a.Draw()
	})
	if afterBad != "character.glb" {
		t.Errorf("after a broken file the model is %q, want the character kept", afterBad)
	}
	if !strings.Contains(message, "nodes[0].mesh") {
		t.Errorf("on-screen message %q does not name the object at fault", message)
	}
	if afterGood != "two_skins.gltf" {
		t.Errorf("after a good file the model is %q, want two_skins.gltf", afterGood)
	}
}

// TestReloadKeepsTheScene writes a broken spec and then a good one under a
// running app: the error is shown and the last good spec stays, then the
// new one takes over with the time kept; a model file edited on disk
// reloads with the clip that played and its time.
func TestReloadKeepsTheScene(t *testing.T) {
	spec := tempFile(t, "walk.json", []byte(`{"params": [{"name": "speed", "max": 1, "default": 0.5}],
	  "tree": {"type": "blend1d", "param": "speed", "children": ["Idle", "Walk"]}}`))
	write := func(path, text string) { writeFile(t, path, []byte(text)) }
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-4 }
	t.Run("spec", func(t *testing.T) {
		withApp(t, options{tree: spec}, func(a *app.App) error {
			a.UI.Playing = false
			a.Seek(0.5)
			keys(t, a, "wait")
			write(spec, `{"params": [{"name": "speed", "max": 1}],
			  "tree": {"type": "blend1d", "param": "speed", "children": ["Idle", "Nope"]}}`)
			a.Reload()
			if !strings.Contains(a.UI.Message, "walk.json") || !strings.Contains(a.UI.Message, "Nope") {
				t.Errorf("after a broken spec the message is %q; want the file and the unknown clip named", a.UI.Message)
			}
			if a.Char.Ctl.ParamIndex("speed") < 0 || !near(a.Time(), 0.5) {
				t.Errorf("the broken spec replaced the good one (speed %d, time %v)", a.Char.Ctl.ParamIndex("speed"), a.Time())
			}
			write(spec, `{"params": [{"name": "speed", "max": 1}, {"name": "lean", "max": 1}],
			  "tree": {"type": "blend1d", "param": "speed", "children": ["Walk", "Run"]}}`)
			a.Reload()
			if a.Char.Ctl.ParamIndex("lean") < 0 {
				t.Errorf("the edited spec was not applied: parameters %v", a.Params())
			}
			if p := a.Params()[a.Char.Ctl.ParamIndex("speed")]; !near(p.Value, 0.5) {
				t.Errorf("speed is %v after the reload, want 0.5 kept", p.Value)
			}
			if !near(a.Time(), 0.5) || a.UI.Playing {
				t.Errorf("time %v, playing %v after the reload; want 0.5, paused", a.Time(), a.UI.Playing)
			}
			return nil
		})
	})
	t.Run("a narrowed range clamps -param", func(t *testing.T) {
		// -param speed=0.8 fits the spec as loaded; an edit that narrows
		// speed to 0.5 reloads with it clamped (the first load refuses a
		// value outside the range, a reload must not).
		write(spec, `{"params": [{"name": "speed", "max": 1}], "tree": {"type": "blend1d", "param": "speed", "children": ["Idle", "Walk"]}}`)
		withApp(t, options{tree: spec, params: paramList{{Name: "speed", Value: 0.8}}}, func(a *app.App) error {
			write(spec, `{"params": [{"name": "speed", "max": 0.5}], "tree": {"type": "blend1d", "param": "speed", "children": ["Idle", "Walk"]}}`)
			a.Reload()
			if i := a.Char.Ctl.ParamIndex("speed"); i < 0 || !near(a.Params()[i].Max, 0.5) || !strings.Contains(a.UI.Message, "reloaded") {
				t.Errorf("after narrowing speed: parameters %v, message %q; want the edit applied", a.Params(), a.UI.Message)
			}
			return nil
		})
	})
	t.Run("dropped spec", func(t *testing.T) {
		write(spec, `{"params": [{"name": "speed", "max": 1, "default": 0.25}],
		  "tree": {"type": "blend1d", "param": "speed", "children": ["Idle", "Walk"]}}`)
		withApp(t, options{clip: "Wave"}, func(a *app.App) error {
			a.ApplySpec(spec)
			if a.Char.ClipMode || a.Char.Ctl.ParamIndex("speed") < 0 || !strings.Contains(a.UI.Message, "walk.json") {
				t.Errorf("after dropping a spec: clip mode %v, parameters %v, message %q", a.Char.ClipMode, a.Params(), a.UI.Message)
			}
			return nil
		})
	})
	t.Run("model", func(t *testing.T) {
		model := tempFile(t, "character.glb", assets.CharacterGLB)
		withApp(t, options{model: model, clip: "Wave"}, func(a *app.App) error {
			if err := a.Request(3, true); err != nil { // Run
				return err
			}
			a.UI.Playing = false
			keys(t, a, "wait")
			a.Seek(0.4)
			write(model, "not a model")
			a.Reload()
			if a.Char.ClipName() != "Run" || !strings.Contains(a.UI.Message, "character.glb") {
				t.Errorf("broken model: clip %q, message %q; want Run kept and the file named", a.Char.ClipName(), a.UI.Message)
			}
			writeFile(t, model, assets.CharacterGLB)
			a.Reload()
			if a.Char.ClipName() != "Run" || !near(a.Time(), 0.4) {
				t.Errorf("after the model's reload: clip %q at %v s; want Run at 0.4", a.Char.ClipName(), a.Time())
			}
			return nil
		})
	})
}

// TestWatchEditsReloads: the window's once-a-frame WatchEdits picks up a
// spec edited on disk and reloads it, as the running viewer does.
func TestWatchEditsReloads(t *testing.T) {
	spec := tempFile(t, "edit.json", []byte(`{"tree": {"type": "clip", "clip": "Idle"}}`))
	withApp(t, options{tree: spec}, func(a *app.App) error {
		a.WatchEdits() // starts watching
		writeFile(t, spec, []byte(`{"params": [{"name": "lean", "max": 1}], "tree": {"type": "clip", "clip": "Walk"}}`))
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if a.WatchEdits(); a.Char.Ctl.ParamIndex("lean") >= 0 {
				break
			}
		}
		if a.Char.Ctl.ParamIndex("lean") < 0 || !strings.Contains(a.UI.Message, "reloaded edit.json") {
			t.Errorf("after an edit on disk: message %q, parameters %v; want the edited spec reloaded", a.UI.Message, a.Params())
		}
		return nil
	})
}

// TestReloadRefusesAMissingClip: a model saved without the clip that
// plays is refused, naming the file and the clip, and the last good model
// keeps playing that clip; the clip back in the file reloads again.
func TestReloadRefusesAMissingClip(t *testing.T) {
	data, err := assets.EdgeFS.ReadFile("edge/cubic_step.gltf")
	if err != nil {
		t.Fatal(err)
	}
	model := tempFile(t, "steps.gltf", data)
	withApp(t, options{model: model, clip: "Step"}, func(a *app.App) error {
		a.UI.Playing = false
		a.Seek(0.25)
		writeFile(t, model, []byte(strings.Replace(string(data), `"Step"`, `"Hop"`, 1)))
		a.Reload()
		if a.Char.ClipName() != "Step" || math.Abs(float64(a.Time()-0.25)) > 1e-4 {
			t.Errorf("after a reload without Step: clip %q at %v s; want Step kept at 0.25", a.Char.ClipName(), a.Time())
		}
		if m := a.UI.Message; !strings.Contains(m, "steps.gltf") || !strings.Contains(m, `"Step"`) || strings.Contains(m, "\n") {
			t.Errorf("after a reload without Step the message is %q; want one line naming steps.gltf and the clip", m)
		}
		writeFile(t, model, data)
		a.Reload()
		if a.Char.ClipName() != "Step" || !strings.Contains(a.UI.Message, "reloaded") {
			t.Errorf("with Step back: clip %q, message %q; want Step reloaded", a.Char.ClipName(), a.UI.Message)
		}
		return nil
	})
}

// TestBrokenReloadKeepsABanner: a spec saved broken says so, with the
// error, for as long as it stays broken (not for a few seconds), and the
// screen says the last good version is shown; a good save clears it.
func TestBrokenReloadKeepsABanner(t *testing.T) {
	spec := tempFile(t, "walk.json", []byte(`{"tree": {"type": "clip", "clip": "Walk"}}`))
	withApp(t, options{tree: spec}, func(a *app.App) error {
		writeFile(t, spec, []byte(`{"tree": {"type": "clip", "clip": "Nope"}}`))
		a.Reload()
		keys(t, a, "wait*150") // 5 s, past any message's time on screen
		if b := a.UI.Banner; !strings.Contains(b, "last good version") || !strings.Contains(b, "walk.json") || !strings.Contains(b, "Nope") {
			t.Errorf("5 s after a broken save the banner is %q; want the last good version shown, with the file and its error", b)
		}
		if err := a.Draw(); err != nil {
			return err
		}
		writeFile(t, spec, []byte(`{"tree": {"type": "clip", "clip": "Idle"}}`))
		a.Reload()
		if a.UI.Banner != "" || !strings.Contains(a.UI.Message, "reloaded walk.json") {
			t.Errorf("after a good save: banner %q, message %q; want the banner gone and the reload said", a.UI.Banner, a.UI.Message)
		}
		return nil
	})
}

// TestBindPoseNoteGoesWithB: B's note that the bind pose is shown goes
// when B turns it off, not seconds later.
func TestBindPoseNoteGoesWithB(t *testing.T) {
	withApp(t, options{clip: "Walk"}, func(a *app.App) error {
		keys(t, a, "b")
		if !a.Char.BindPose || !strings.Contains(a.UI.Message, "bind pose") {
			t.Errorf("after B: bind pose %v, message %q; want the bind pose and its note", a.Char.BindPose, a.UI.Message)
		}
		keys(t, a, "b")
		if a.Char.BindPose || a.UI.Message != "" {
			t.Errorf("after B again: bind pose %v, message %q; want the animation and no note", a.Char.BindPose, a.UI.Message)
		}
		return nil
	})
}
