package app

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/character"
)

// TestClampTime: a moment of the clip, never outside it: below 0 and NaN
// are 0, past the end is the end.
func TestClampTime(t *testing.T) {
	for _, c := range []struct{ t, want float32 }{
		{-1, 0}, {float32(math.NaN()), 0}, {0, 0}, {1.25, 1.25}, {2, 2}, {3, 2}, {float32(math.Inf(1)), 2},
	} {
		if got := ClampTime(c.t, 2); got != c.want {
			t.Errorf("ClampTime(%v, 2) = %v, want %v", c.t, got, c.want)
		}
	}
}

// TestShotNames: a screenshot is named after the model, what plays and
// the time, with path separators, spaces and colons made underscores, and
// a second one of the same moment gets _2 rather than replacing it.
func TestShotNames(t *testing.T) {
	m, err := asset.Load("")
	if err != nil {
		t.Fatal(err)
	}
	m.Name = "a b.glb"
	c, err := character.New(m, nil, nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.Model.Clips[0].Name = `W/a\l:k`
	dir := t.TempDir()
	a := &App{Char: c, ShotDir: dir}
	first, err := a.RequestShot()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "a_b_"+"W_a_l_k"+"_0.000s.png"); first != want {
		t.Fatalf("shot %q; want %q", first, want)
	}
	if err := os.WriteFile(first, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := a.RequestShot()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "a_b_W_a_l_k_0.000s_2.png"); second != want {
		t.Errorf("second shot of the moment %q; want %q", second, want)
	}
}
