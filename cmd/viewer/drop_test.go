package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/session"
)

// TestDroppedFiles follows what dropping files on the window does: a file
// that fails to load leaves the model and says why on screen; a good one
// replaces it.
func TestDroppedFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.gltf")
	good := filepath.Join(dir, "two_skins.gltf")
	writeFile(t, bad, []byte(`{"asset": {"version": "2.0"}, "nodes": [{"mesh": 4}]}`))
	data, err := assets.EdgeFS.ReadFile("edge/two_skins.gltf")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, good, data)
	opt := &options{skinning: scene.SkinGPU, view: debugview.Shaded, width: 64, height: 64, fade: 0.3}
	m, err := session.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	c, err := session.NewCharacter(m, opt.load())
	if err != nil {
		t.Fatal(err)
	}
	var afterBad, afterGood, message string
	onGL(t, func() error {
		a, err := newApp(opt, c, opt.width, opt.height)
		if err != nil {
			return err
		}
		a.Open(bad)
		afterBad, message = a.Model.Name, a.UI.Message
		a.Open(good)
		afterGood = a.Model.Name
		defer a.Destroy()
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
