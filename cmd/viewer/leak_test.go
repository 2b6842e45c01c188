package main

import (
	"runtime"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/gltest"
	"github.com/skinview/skinview/internal/scene"
)

// TestSwitchModelsDoesNotLeak loads, renders and unloads models 100 times,
// as dropping files on the viewer does, and checks that GL objects and the
// Go heap come back to where they started.
func TestSwitchModelsDoesNotLeak(t *testing.T) {
	models := []string{"@character", "@twist", "@edge/two_skins.gltf", "@stress"}
	opt := &options{skinning: scene.SkinGPU, view: debugview.Shaded, width: 96, height: 96, hud: true, fade: 0.3}
	during := 0
	cycle := func(i int) error {
		o := *opt
		o.model = models[i%len(models)]
		c, err := loadCharacter(&o)
		if err != nil {
			return err
		}
		a, err := newApp(&o, c, o.width, o.height)
		if err != nil {
			return err
		}
		defer a.Destroy()
		if err := a.Update(1.0 / 30); err != nil {
			return err
		}
		if err := a.Draw(); err != nil { // the HUD too: its atlas and buffers must go as well
			return err
		}
		during = gltest.LiveObjects(4096)
		return nil
	}
	var before, after int
	var heapBefore, heapAfter uint64
	onGL(t, func() error {
		// One warm-up cycle: the driver and the runtime allocate once.
		if err := cycle(0); err != nil {
			return err
		}
		before = gltest.LiveObjects(4096)
		heapBefore = heapInUse()
		for i := 0; i < 100; i++ {
			if err := cycle(i); err != nil {
				return err
			}
		}
		after = gltest.LiveObjects(4096)
		heapAfter = heapInUse()
		return nil
	})
	if during <= before {
		t.Fatalf("LiveObjects sees %d objects while a model is shown, %d without: it does not count", during, before)
	}
	if after != before {
		t.Errorf("GL objects: %d before 100 model switches, %d after", before, after)
	}
	const slack = 8 << 20
	if heapAfter > heapBefore+slack {
		t.Errorf("Go heap grew from %d to %d bytes over 100 model switches", heapBefore, heapAfter)
	}
	t.Logf("GL objects %d → %d (%d while shown); heap %.1f → %.1f MB", before, after, during, float64(heapBefore)/1e6, float64(heapAfter)/1e6)
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestReloadsDoNotLeak reloads one model 100 times in one app, as the
// file watcher does on every save, drawing each, and checks that GL
// objects and the Go heap come back to where they started.
func TestReloadsDoNotLeak(t *testing.T) {
	var before, after int
	var heapBefore, heapAfter uint64
	msg := ""
	withApp(t, options{hud: true}, func(a *app.App) error {
		cycle := func() error {
			a.Reload()
			if err := a.Update(1.0 / 30); err != nil {
				return err
			}
			return a.Draw()
		}
		if err := cycle(); err != nil { // the first reload allocates once
			return err
		}
		before, heapBefore = gltest.LiveObjects(4096), heapInUse()
		for i := 0; i < 100; i++ {
			if err := cycle(); err != nil {
				return err
			}
		}
		after, heapAfter, msg = gltest.LiveObjects(4096), heapInUse(), a.UI.Message
		return nil
	})
	if !strings.HasPrefix(msg, "reloaded") {
		t.Errorf("message %q after the reloads; want \"reloaded ...\"", msg)
	}
	if before == 0 || after != before {
		t.Errorf("GL objects: %d before 100 reloads, %d after", before, after)
	}
	const slack = 8 << 20
	if heapAfter > heapBefore+slack {
		t.Errorf("Go heap grew from %d to %d bytes over 100 reloads", heapBefore, heapAfter)
	}
	t.Logf("GL objects %d → %d; heap %.1f → %.1f MB over 100 reloads", before, after, float64(heapBefore)/1e6, float64(heapAfter)/1e6)
}
