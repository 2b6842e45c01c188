package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/skinview/skinview/assets"
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
	withApp(t, options{}, func(a *app) error {
		a.Open(bad)
		afterBad, message = a.Model.Name, a.UI.Message
		a.Open(good)
		afterGood = a.Model.Name
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
		withApp(t, options{tree: spec}, func(a *app) error {
			a.UI.Playing = false
			a.Seek(0.5)
			keys(t, a, "wait")
			write(spec, `{"params": [{"name": "speed", "max": 1}],
			  "tree": {"type": "blend1d", "param": "speed", "children": ["Idle", "Nope"]}}`)
			a.Reload()
			if !strings.Contains(a.UI.Message, "walk.json") || !strings.Contains(a.UI.Message, "Nope") {
				t.Errorf("after a broken spec the message is %q; want the file and the unknown clip named", a.UI.Message)
			}
			if a.Ctl.ParamIndex("speed") < 0 || !near(a.Time(), 0.5) {
				t.Errorf("the broken spec replaced the good one (speed %d, time %v)", a.Ctl.ParamIndex("speed"), a.Time())
			}
			write(spec, `{"params": [{"name": "speed", "max": 1}, {"name": "lean", "max": 1}],
			  "tree": {"type": "blend1d", "param": "speed", "children": ["Walk", "Run"]}}`)
			a.Reload()
			if a.Ctl.ParamIndex("lean") < 0 {
				t.Errorf("the edited spec was not applied: parameters %v", a.Params())
			}
			if p := a.Params()[a.Ctl.ParamIndex("speed")]; !near(p.Value, 0.5) {
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
		withApp(t, options{tree: spec, params: paramList{{Name: "speed", Value: 0.8}}}, func(a *app) error {
			write(spec, `{"params": [{"name": "speed", "max": 0.5}], "tree": {"type": "blend1d", "param": "speed", "children": ["Idle", "Walk"]}}`)
			a.Reload()
			if i := a.Ctl.ParamIndex("speed"); i < 0 || !near(a.Params()[i].Max, 0.5) || !strings.Contains(a.UI.Message, "reloaded") {
				t.Errorf("after narrowing speed: parameters %v, message %q; want the edit applied", a.Params(), a.UI.Message)
			}
			return nil
		})
	})
	t.Run("dropped spec", func(t *testing.T) {
		write(spec, `{"params": [{"name": "speed", "max": 1, "default": 0.25}],
		  "tree": {"type": "blend1d", "param": "speed", "children": ["Idle", "Walk"]}}`)
		withApp(t, options{clip: "Wave"}, func(a *app) error {
			a.ApplySpec(spec)
			if a.ClipMode || a.Ctl.ParamIndex("speed") < 0 || !strings.Contains(a.UI.Message, "walk.json") {
				t.Errorf("after dropping a spec: clip mode %v, parameters %v, message %q", a.ClipMode, a.Params(), a.UI.Message)
			}
			return nil
		})
	})
	t.Run("model", func(t *testing.T) {
		model := tempFile(t, "character.glb", assets.CharacterGLB)
		withApp(t, options{model: model, clip: "Wave"}, func(a *app) error {
			if err := a.Request(3, true); err != nil { // Run
				return err
			}
			a.UI.Playing = false
			keys(t, a, "wait")
			a.Seek(0.4)
			write(model, "not a model")
			a.Reload()
			if a.ClipName() != "Run" || !strings.Contains(a.UI.Message, "character.glb") {
				t.Errorf("broken model: clip %q, message %q; want Run kept and the file named", a.ClipName(), a.UI.Message)
			}
			writeFile(t, model, assets.CharacterGLB)
			a.Reload()
			if a.ClipName() != "Run" || !near(a.Time(), 0.4) {
				t.Errorf("after the model's reload: clip %q at %v s; want Run at 0.4", a.ClipName(), a.Time())
			}
			return nil
		})
	})
}

// TestWatchEditsReloads: the window's once-a-frame WatchEdits picks up a
// spec edited on disk and reloads it, as the running viewer does.
func TestWatchEditsReloads(t *testing.T) {
	spec := tempFile(t, "edit.json", []byte(`{"tree": {"type": "clip", "clip": "Idle"}}`))
	withApp(t, options{tree: spec}, func(a *app) error {
		a.WatchEdits() // starts watching
		writeFile(t, spec, []byte(`{"params": [{"name": "lean", "max": 1}], "tree": {"type": "clip", "clip": "Walk"}}`))
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if a.WatchEdits(); a.Ctl.ParamIndex("lean") >= 0 {
				break
			}
		}
		if a.Ctl.ParamIndex("lean") < 0 || !strings.Contains(a.UI.Message, "reloaded edit.json") {
			t.Errorf("after an edit on disk: message %q, parameters %v; want the edited spec reloaded", a.UI.Message, a.Params())
		}
		return nil
	})
}
