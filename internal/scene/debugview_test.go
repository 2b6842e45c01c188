package scene

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
)

// TestPartitionTint: hue i·φ⁻¹ (mod 1), φ⁻¹ = 0.6180339887, at full
// saturation and value, taken from HSV to RGB by sextant, then mapped to
// 0.1 + 0.8·c. Draws 0..6 fall in sextants 0, 3, 1, 5, 2, 0, 4:
// e.g. draw 1 has hue 0.618034, h = 3.708204, sextant 3 (green rising to
// blue: r 0, g 1 − (h − 3) = 0.291796, b 1).
func TestPartitionTint(t *testing.T) {
	want := [][4]float32{
		{0.9, 0.1, 0.1, 1},
		{0.1, 0.333437, 0.9, 1},
		{0.566874, 0.9, 0.1, 1},
		{0.9, 0.1, 0.800311, 1},
		{0.1, 0.9, 0.766253, 1},
		{0.9, 0.532816, 0.1, 1},
		{0.299379, 0.1, 0.9, 1},
	}
	for i, w := range want {
		got := partitionTint(i)
		for k := range 4 {
			if d := got[k] - w[k]; d > 1e-5 || d < -1e-5 {
				t.Errorf("partitionTint(%d) = %v, want %v", i, got, w)
				break
			}
		}
	}
}

// debugModel is a five-joint skeleton (hips, spine, head, hand, spare)
// with two skins. Skin 0 maps its joints 0, 1, 2 to hand, head, spine.
// Its mesh (instance 0) weights skin joint 1 (head) on all three
// vertices, skin joint 0 (hand) on one, lists skin joint 2 (spine) on
// all three with weight 0, and names a skin joint 3 the skin does not
// have. Skin 1 (hips, spare) weights hips on five vertices of instance 1;
// instance 2 is rigid.
func debugModel() *gltfload.Model {
	skinned := gltfload.Primitive{
		Joints: []uint16{
			0, 1, 2, 3,
			1, 2, 0, 0,
			2, 1, 0, 0,
		},
		Weights: []float32{
			0.5, 0.25, 0, 0.25,
			1, 0, 0, 0,
			0, 1, 0, 0,
		},
	}
	other := gltfload.Primitive{Joints: make([]uint16, 4*5), Weights: make([]float32, 4*5)}
	for v := range 5 {
		other.Weights[4*v] = 1
	}
	return &gltfload.Model{
		Name: "debug.gltf",
		Skeleton: anim.Skeleton{
			Names:   []string{"hips", "spine", "head", "hand", "spare"},
			Parents: []int{-1, 0, 1, 2, 0},
		},
		Skins:  []anim.Skin{{Joints: []int{3, 2, 1}}, {Joints: []int{0, 4}}},
		Meshes: []gltfload.Mesh{{Primitives: []gltfload.Primitive{skinned}}, {Primitives: []gltfload.Primitive{other}}, {Primitives: []gltfload.Primitive{{}}}},
		Instances: []gltfload.Instance{
			{Node: 0, Mesh: 0, Skin: 0},
			{Node: 1, Mesh: 1, Skin: 1},
			{Node: 2, Mesh: 2, Skin: -1},
		},
	}
}

// TestResolveJoint: -joint names a joint, or gives its skeleton index;
// "" is the joint of the first skin that weights the most vertices
// (weights of 0 and joints outside the skin do not count; other skins'
// meshes do not either), the first in skin order on a tie, and −1 for a
// model without skins.
func TestResolveJoint(t *testing.T) {
	m := debugModel()
	c := &character.Character{Model: m}
	for _, tc := range []struct {
		spec string
		want int
	}{
		{"", 2}, // head: three vertices
		{"hips", 0},
		{"spare", 4},
		{"0", 0},
		{"4", 4},
	} {
		if got, err := resolveJoint(c, tc.spec); err != nil || got != tc.want {
			t.Errorf("-joint %q: %d, %v; want %d", tc.spec, got, err, tc.want)
		}
	}
	for _, spec := range []string{"5", "-1", "neck"} {
		got, err := resolveJoint(c, spec)
		if err == nil || got != -1 || !strings.Contains(err.Error(), `"`+spec+`"`) || !strings.Contains(err.Error(), m.Name) {
			t.Errorf("-joint %q: %d, %v; want -1 and an error naming %q and %s", spec, got, err, spec, m.Name)
		}
	}
	// A tie: vertex 1 on hand instead of head puts both on two vertices.
	m.Meshes[0].Primitives[0].Joints[4] = 0
	if got, err := resolveJoint(c, ""); err != nil || got != 3 {
		t.Errorf("-joint \"\" with hand and head tied: %d, %v; want 3 (hand, first in the skin)", got, err)
	}
	m.Skins = nil
	if got, err := resolveJoint(c, ""); err != nil || got != -1 {
		t.Errorf("-joint \"\" without skins: %d, %v; want -1", got, err)
	}
}

// TestSetDebugView: every item gets its partition tint, and the palette
// entry its draw reads the shown joint's weights from: the skin joint for
// a whole-skin draw, the local entry for a partition, −1 where the draw
// does not have the joint, is rigid or skinned on the CPU, or no joint is
// shown.
func TestSetDebugView(t *testing.T) {
	c := &character.Character{Model: debugModel()}
	s := &GPU{
		items: make([]render.DrawItem, 6),
		draws: []drawSource{
			{instance: 0, gpu: true},                         // skin 0 whole
			{instance: 0, gpu: true, joints: []uint16{2, 1}}, // head is local 1
			{instance: 0, gpu: true, joints: []uint16{0, 2}}, // no head
			{instance: 0, cpu: true},                         // skinned on the CPU
			{instance: 1, gpu: true},                         // skin 1 whole
			{instance: 2},                                    // rigid
		},
	}
	for _, tc := range []struct {
		joint int
		want  []int
	}{
		{2, []int{1, 1, -1, -1, -1, -1}},  // head: skin 0's joint 1
		{0, []int{-1, -1, -1, -1, 0, -1}}, // hips: skin 1's joint 0
		{-1, []int{-1, -1, -1, -1, -1, -1}},
	} {
		s.setDebugView(c, tc.joint)
		for i, it := range s.items {
			if it.WeightJoint != tc.want[i] {
				t.Errorf("joint %d: draw %d reads weights of palette entry %d, want %d", tc.joint, i, it.WeightJoint, tc.want[i])
			}
			if it.Tint != partitionTint(i) {
				t.Errorf("joint %d: draw %d tinted %v, want partitionTint(%d) %v", tc.joint, i, it.Tint, i, partitionTint(i))
			}
		}
	}
}

// TestPickJoint: on the two-joint file at rest, root at (0, 1, 0) and tip
// at (0, 2, 0). A click picks the nearest skin joint within the radius,
// its rim included (a click right on a joint with radius 0), and −1
// where none is that near: 3 px right and 2 px below the tip is
// √13 ≈ 3.61 px from it.
func TestPickJoint(t *testing.T) {
	m, c := twoJoint(t, "two.gltf", -1)
	root, tip := m.Skeleton.JointIndex("root"), m.Skeleton.JointIndex("tip")
	onGL(t, func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU}, 200, 200)
		if err != nil {
			return err
		}
		defer v.Destroy()
		if err := v.PoseAt(0); err != nil {
			return err
		}
		at := func(p mgl32.Vec3) (float32, float32) {
			x, y, ok := v.Camera().Project(c.Shown(p), v.W, v.H)
			if !ok {
				t.Errorf("%v is not in view", p)
			}
			return x, y
		}
		tx, ty := at(mgl32.Vec3{0, 2, 0})
		rx, ry := at(mgl32.Vec3{0, 1, 0})
		far := 2 * max(abs32(tx-rx), abs32(ty-ry)) // both joints within
		for _, tc := range []struct {
			what    string
			x, y, r float32
			want    int
		}{
			{"on the tip, radius 0", tx, ty, 0, tip},
			{"on the root, radius 0", rx, ry, 0, root},
			{"near the tip, both within", tx + 1, ty, far, tip},
			{"near the root, both within", rx, ry - 1, far, root},
			{"3.61 px from the tip, radius 4", tx + 3, ty + 2, 4, tip},
			{"3.61 px from the tip, radius 3.5", tx + 3, ty + 2, 3.5, -1},
			{"3 px from the tip, radius 3.5", tx + 3, ty, 3.5, tip},
		} {
			if got := v.PickJoint(tc.x, tc.y, tc.r); got != tc.want {
				t.Errorf("%s: picked %d, want %d", tc.what, got, tc.want)
			}
		}
		return nil
	})
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }

// TestSkeletonOverlay draws the skeleton over the two-joint file with its
// root scaled 2×: root at (0, 1, 0), tip at (0, 3, 0), no triangle to
// hide them. The bone between them is yellow, the tip's disc orange, the
// shown joint's disc (6 px) white 4 px left of it, and its X axis red for a tenth of the reach
// (scale or not) to the right, not beyond. A shown joint past the
// skeleton's last draws no axes.
func TestSkeletonOverlay(t *testing.T) {
	const root = `{"name": "root", "translation": [0, 1, 0]`
	m, c := twoJoint(t, "scaled.gltf", -1, [2]string{root, root + `, "scale": [2, 2, 2]`})
	onGL(t, func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU, Skeleton: true}, 200, 200)
		if err != nil {
			return err
		}
		defer v.Destroy()
		if err := v.PoseAt(0); err != nil {
			return err
		}
		l := c.Reach() / 10
		for _, joint := range []int{m.Skeleton.JointIndex("root"), m.Skeleton.NumJoints()} {
			v.Joint = joint
			if err := v.Draw(); err != nil {
				return err
			}
			img := v.Target.ReadImage()
			// at is the pixel dx pixels left of p, where the shown
			// joint's disc has no axis over it.
			at := func(p mgl32.Vec3, dx int) color.NRGBA {
				x, y, ok := v.Camera().Project(c.Shown(p), v.W, v.H)
				if !ok {
					t.Errorf("%v is not in view", p)
				}
				return img.NRGBAAt(int(x)-dx, int(y))
			}
			red := func(px color.NRGBA) bool { return int(px.R) > int(px.G)+80 && int(px.R) > int(px.B)+80 }
			axes := joint < m.Skeleton.NumJoints()
			for _, tc := range []struct {
				what string
				p    mgl32.Vec3
				dx   int
				ok   func(color.NRGBA) bool
			}{
				{"the bone", mgl32.Vec3{0, 2, 0}, 0, func(px color.NRGBA) bool { return px.R > 200 && px.G > 170 && px.B < 120 }},
				{"the tip", mgl32.Vec3{0, 3, 0}, 0, func(px color.NRGBA) bool { return px.R > 200 && px.G > 50 && px.G < 130 && px.B < 90 }},
				{"the shown joint", mgl32.Vec3{0, 1, 0}, 4, func(px color.NRGBA) bool { return (px == color.NRGBA{255, 255, 255, 255}) == axes }},
				{"its X axis", mgl32.Vec3{0.7 * l, 1, 0}, 0, func(px color.NRGBA) bool { return red(px) == axes }},
				{"past its X axis", mgl32.Vec3{1.5 * l, 1, 0}, 0, func(px color.NRGBA) bool { return !red(px) }},
			} {
				if px := at(tc.p, tc.dx); !tc.ok(px) {
					t.Errorf("joint %d shown: %s at %v is %v", joint, tc.what, tc.p, px)
				}
			}
		}
		return nil
	})
}
