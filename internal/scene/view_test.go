package scene

import (
	"image"
	"testing"

	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/character"
)

// TestViewDrawsOffscreen drives the frame step without a window: a view of
// the built-in character draws into an offscreen target, twice the same
// for the same pose, and Update moves the picture on.
func TestViewDrawsOffscreen(t *testing.T) {
	m := assettest.Character(t)
	walk, err := asset.FindClip(m, "Walk")
	if err != nil {
		t.Fatal(err)
	}
	c, err := character.New(m, nil, nil, walk, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 160, 200
	var first, again, later *image.NRGBA
	onGL(t, func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU}, w, h)
		if err != nil {
			return err
		}
		defer v.Destroy()
		shot := func() (*image.NRGBA, error) {
			if err := v.Draw(); err != nil {
				return nil, err
			}
			return v.Target.ReadImage(), nil
		}
		if err := v.PoseAt(0.25); err != nil {
			return err
		}
		if first, err = shot(); err != nil {
			return err
		}
		if again, err = shot(); err != nil {
			return err
		}
		if err := v.Update(0.3); err != nil {
			return err
		}
		later, err = shot()
		return err
	})
	if first.Bounds().Dx() != w || first.Bounds().Dy() != h {
		t.Fatalf("image %v, want %d×%d", first.Bounds(), w, h)
	}
	if got := first.NRGBAAt(1, 1); got != Background {
		t.Errorf("corner %v, want the background %v", got, Background)
	}
	// The camera frames the whole walk: the middle of the picture is the
	// character's torso.
	if got := first.NRGBAAt(w/2, h/2); got == Background {
		t.Errorf("centre is background: the character is not drawn")
	}
	diff := func(a, b *image.NRGBA) int {
		n := 0
		for i := range a.Pix {
			if a.Pix[i] != b.Pix[i] {
				n++
			}
		}
		return n
	}
	if d := diff(first, again); d != 0 {
		t.Errorf("the same pose drawn twice differs in %d bytes (leaked GL state?)", d)
	}
	if d := diff(first, later); d == 0 {
		t.Errorf("Update(0.3) left the picture unchanged: the walk did not move on")
	}
}
