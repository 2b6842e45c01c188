package scene

import (
	"image/color"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestOnionAndTrail: the two-joint file with its clip turning the root
// instead of the tip, 90° about +Z over one second: at time s the tip is
// at (−sin θ, 1 + cos θ, 0), θ = 90°·s, the root at (0, 1, 0). Seen at
// 0.5 s with onion skins step = 0.2 s apart, the ghost bones at 0.1 and
// 0.3 s are blue, at 0.7 and 0.9 s green, the nearer pair (0.3, 0.7)
// stronger; with the skeleton shown, the tip's trail passes through its
// place at 0 s, (0, 2, 0), in pink. Nothing but the overlay is drawn: the
// file's one triangle is a line.
func TestOnionAndTrail(t *testing.T) {
	m, c := twoJoint(t, "root-turns.gltf", 0, [2]string{`"target": {"node": 1, "path": "rotation"}`, `"target": {"node": 0, "path": "rotation"}`})
	frames := int(math.Round(float64(0.2 * c.FPS())))
	step := float32(frames) / c.FPS()
	tipAt := func(s float32) mgl32.Vec3 {
		th := float64(s) * math.Pi / 2
		return mgl32.Vec3{-float32(math.Sin(th)), 1 + float32(math.Cos(th)), 0}
	}
	onGL(t, func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU, Skeleton: true}, 200, 200)
		if err != nil {
			return err
		}
		defer v.Destroy()
		if v.Joint != -1 {
			t.Errorf("a new view has joint %d picked; want none (−1)", v.Joint)
		}
		v.Onion, v.Joint = frames, m.Skeleton.JointIndex("tip")
		if err := v.PoseAt(0.5); err != nil {
			return err
		}
		if err := v.Draw(); err != nil {
			return err
		}
		img := v.Target.ReadImage()
		at := func(p mgl32.Vec3) color.NRGBA {
			x, y, ok := v.Camera().Project(c.Shown(p), v.W, v.H)
			if !ok {
				t.Errorf("%v is not in view", p)
			}
			return img.NRGBAAt(int(x), int(y))
		}
		blue := func(px color.NRGBA) bool { return int(px.B) > int(px.R)+40 && int(px.B) > int(px.G)+30 }
		green := func(px color.NRGBA) bool { return int(px.G) > int(px.R)+40 && int(px.G) > int(px.B)+40 }
		for _, tc := range []struct {
			what string
			s    float32
			ok   func(color.NRGBA) bool
		}{
			{"2 steps before, faint blue", 0.5 - 2*step, func(px color.NRGBA) bool { return blue(px) && px.B < 180 }},
			{"a step before, strong blue", 0.5 - step, func(px color.NRGBA) bool { return blue(px) && px.B > 190 }},
			{"a step after, strong green", 0.5 + step, func(px color.NRGBA) bool { return green(px) && px.G > 170 }},
			{"2 steps after, faint green", 0.5 + 2*step, func(px color.NRGBA) bool { return green(px) && px.G < 150 }},
		} {
			// Three quarters of the way along the ghost bone, away from
			// the others.
			p := mgl32.Vec3{0, 1, 0}.Add(tipAt(tc.s).Sub(mgl32.Vec3{0, 1, 0}).Mul(0.75))
			if px := at(p); !tc.ok(px) {
				t.Errorf("ghost bone %s (%.2f s) at %v is %v", tc.what, tc.s, p, px)
			}
		}
		if px := at(tipAt(0)); !(px.R > 200 && px.G > 80 && px.G < 170 && px.B > 170) {
			t.Errorf("the tip's trail at its place at 0 s, %v, is %v; want pink", tipAt(0), px)
		}
		// Onion skins without the skeleton: the ghosts, and no trail.
		v.Bones = false
		if err := v.Draw(); err != nil {
			return err
		}
		img = v.Target.ReadImage()
		p := mgl32.Vec3{0, 1, 0}.Add(tipAt(0.5 - step).Sub(mgl32.Vec3{0, 1, 0}).Mul(0.75))
		if px := at(p); !blue(px) {
			t.Errorf("without the skeleton, the ghost bone a step before at %v is %v; want blue", p, px)
		}
		if px := at(tipAt(0)); px.R > 200 && px.B > 170 {
			t.Errorf("without the skeleton, the trail is drawn: %v at %v", px, tipAt(0))
		}
		return nil
	})
}
