package main

import (
	"math"
	"testing"

	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/ui"
)

// TestGroundGridFollowsRootMotion: G turns the ground grid on; the walker
// carried 10 s by root motion, with the camera following, still stands on
// it, and its lines stay on the crossings they were first laid on.
func TestGroundGridFollowsRootMotion(t *testing.T) {
	withApp(t, options{model: "@edge/root_walk.gltf", clip: "Walk", rootMotion: "xz"}, func(a *app.App) error {
		keys(t, a, "g")
		if err := a.Draw(); err != nil {
			return err
		}
		g := a.View.Grid
		if !a.UI.Grid || g == nil || len(g.Segments) < 12 {
			t.Fatalf("G: grid on %v, %v; want a ground grid", a.UI.Grid, g)
		}
		x0, z0 := g.Segments[0], g.Segments[8] // a line along z, and one along x
		step := g.Segments[12] - g.Segments[0]
		start := a.Char.Root.Translation
		keys(t, a, "wait*300")
		if err := a.Draw(); err != nil {
			return err
		}
		g, p := a.View.Grid, a.Char.Root.Translation
		if d := math.Hypot(float64(p[0]-start[0]), float64(p[2]-start[2])); d < 4 {
			t.Fatalf("the walker moved %.2f m in 10 s; the test wants it well off its first grid", d)
		}
		lo, hi := [2]float32{float32(math.Inf(1)), float32(math.Inf(1))}, [2]float32{float32(math.Inf(-1)), float32(math.Inf(-1))}
		for i := 0; i < len(g.Segments); i += 3 {
			lo[0], hi[0] = min(lo[0], g.Segments[i]), max(hi[0], g.Segments[i])
			lo[1], hi[1] = min(lo[1], g.Segments[i+2]), max(hi[1], g.Segments[i+2])
		}
		if p[0] < lo[0] || p[0] > hi[0] || p[2] < lo[1] || p[2] > hi[1] {
			t.Errorf("the walker at x %.2f, z %.2f is off the grid (x %.2f to %.2f, z %.2f to %.2f)", p[0], p[2], lo[0], hi[0], lo[1], hi[1])
		}
		k := float64((g.Segments[0] - x0) / step)
		m := float64((g.Segments[8] - z0) / step)
		if math.Abs(k-math.Round(k)) > 1e-3 || math.Abs(m-math.Round(m)) > 1e-3 {
			t.Errorf("the grid's lines moved off their crossings: %.4f and %.4f steps", k, m)
		}
		return nil
	})
}

// TestGroundGridUnderTheCrowd: under -crowd, G lays the grid under every
// member (the crowd's box in its members' poses), not the middle one's
// patch alone.
func TestGroundGridUnderTheCrowd(t *testing.T) {
	withApp(t, options{crowd: 20, width: 96, height: 72}, func(a *app.App) error {
		keys(t, a, "g")
		if err := a.Draw(); err != nil {
			return err
		}
		g := a.View.Grid
		if g == nil || len(g.Segments) < 12 {
			t.Fatalf("G under -crowd 20: grid %v; want a ground grid", g)
		}
		blo, bhi, ok := a.Crowd.Bounds()
		if !ok {
			t.Fatal("the crowd has no bounds")
		}
		lo, hi := [2]float32{float32(math.Inf(1)), float32(math.Inf(1))}, [2]float32{float32(math.Inf(-1)), float32(math.Inf(-1))}
		for i := 0; i < len(g.Segments); i += 3 {
			lo[0], hi[0] = min(lo[0], g.Segments[i]), max(hi[0], g.Segments[i])
			lo[1], hi[1] = min(lo[1], g.Segments[i+2]), max(hi[1], g.Segments[i+2])
		}
		if blo[0] < lo[0] || bhi[0] > hi[0] || blo[2] < lo[1] || bhi[2] > hi[1] {
			t.Errorf("the crowd (x %.2f to %.2f, z %.2f to %.2f) reaches past its grid (x %.2f to %.2f, z %.2f to %.2f)",
				blo[0], bhi[0], blo[2], bhi[2], lo[0], hi[0], lo[1], hi[1])
		}
		return nil
	})
}

// TestCrowdScreenshotRunsKeys: -screenshot runs its -keys script under
// -crowd too (it posed the crowd at -time and dropped the script): G
// there shows the grid in the picture.
func TestCrowdScreenshotRunsKeys(t *testing.T) {
	withApp(t, options{crowd: 4, width: 96, height: 72}, func(a *app.App) error {
		evs, err := ui.ParseKeys("g")
		if err != nil {
			return err
		}
		if _, err := a.Shoot(0.5, evs); err != nil {
			return err
		}
		if !a.UI.Grid || a.View.Grid == nil {
			t.Errorf("-crowd 4 -keys g -screenshot: grid on %v, laid out %v; want the grid in the picture", a.UI.Grid, a.View.Grid != nil)
		}
		return nil
	})
}
