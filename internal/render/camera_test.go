package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// pinhole projects p for camera c into normalized device coordinates the
// textbook way, independently of the camera's matrices: the eye on the
// sphere of radius Distance about the target at (Yaw, Pitch), looking at
// the target with world up +Y; x and y divided by depth × tan(fov/2)
// (× aspect for x). depth ≤ 0 is behind the eye.
func pinhole(c Camera, aspect float32, p mgl32.Vec3) (x, y, depth float64) {
	yaw, pitch, d := float64(c.Yaw), float64(c.Pitch), float64(c.Distance)
	eye := [3]float64{float64(c.Target[0]) + d*math.Cos(pitch)*math.Sin(yaw), float64(c.Target[1]) + d*math.Sin(pitch), float64(c.Target[2]) + d*math.Cos(pitch)*math.Cos(yaw)}
	fwd := [3]float64{-math.Cos(pitch) * math.Sin(yaw), -math.Sin(pitch), -math.Cos(pitch) * math.Cos(yaw)}
	right := [3]float64{math.Cos(yaw), 0, -math.Sin(yaw)} // fwd × up, normalized
	up := [3]float64{right[1]*fwd[2] - right[2]*fwd[1], right[2]*fwd[0] - right[0]*fwd[2], right[0]*fwd[1] - right[1]*fwd[0]}
	v := [3]float64{float64(p[0]) - eye[0], float64(p[1]) - eye[1], float64(p[2]) - eye[2]}
	dot := func(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
	depth = dot(v, fwd)
	tanY := math.Tan(float64(c.FovY) / 2)
	return dot(v, right) / (depth * tanY * float64(aspect)), dot(v, up) / (depth * tanY), depth
}

// TestCameraByHand: the eye, projection, orbit, pan and zoom against
// values worked out by hand.
func TestCameraByHand(t *testing.T) {
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-4 }
	c := Camera{Target: mgl32.Vec3{1, 2, 3}, Distance: 5, FovY: math.Pi / 2, Near: 0.1, Far: 100}
	if e := c.Eye(); !near(e[0], 1) || !near(e[1], 2) || !near(e[2], 8) {
		t.Fatalf("yaw 0: eye %v, want (1, 2, 8): in front, on +Z", e)
	}
	c.Yaw = math.Pi / 2
	if e := c.Eye(); !near(e[0], 6) || !near(e[1], 2) || !near(e[2], 3) {
		t.Fatalf("yaw 90°: eye %v, want (6, 2, 3)", e)
	}
	c.Yaw, c.Pitch = 0, math.Pi/6
	if e := c.Eye(); !near(e[1], 2+2.5) || !near(e[2], 3+5*float32(math.Sqrt(3))/2) {
		t.Fatalf("pitch 30°: eye %v, want y 4.5, z 3+2.5√3", e)
	}
	// From (1, 2, 8) with a 90° field of view on a 200×100 viewport, the
	// point 1 right and 0.5 up of the target, 5 deep: x = 1/(5·1·2) = 0.1,
	// y = 0.5/5 = 0.1 in NDC → pixel (110, 45).
	c.Pitch = 0
	x, y, ok := c.Project(mgl32.Vec3{2, 2.5, 3}, 200, 100)
	if !ok || !near(x, 110) || !near(y, 45) {
		t.Fatalf("projected to (%v, %v, %v), want (110, 45)", x, y, ok)
	}
	c.Orbit(0.25, 10)
	if !near(c.Yaw, 0.25) || !near(c.Pitch, math.Pi/2-0.01) {
		t.Fatalf("orbit: yaw %v pitch %v, want 0.25 and the pole limit π/2−0.01", c.Yaw, c.Pitch)
	}
	c.Orbit(0, -20)
	if !near(c.Pitch, -(math.Pi/2 - 0.01)) {
		t.Fatalf("orbit down: pitch %v, want −(π/2−0.01)", c.Pitch)
	}
	// Yaw 0, pitch 0: right is +X, up +Y. Dragging 10 pixels right on a
	// 100-pixel-high view of a 90° field at distance 5 moves the target by
	// 10 × (2·5·tan 45°/100) = 1 to the left, so the model follows the mouse.
	c.Yaw, c.Pitch, c.Target = 0, 0, mgl32.Vec3{1, 2, 3}
	c.Pan(10, 0, 100)
	if tg := c.Target; !near(tg[0], 0) || !near(tg[1], 2) || !near(tg[2], 3) {
		t.Fatalf("pan right: target %v, want (0, 2, 3)", tg)
	}
	c.Pan(0, 10, 100)
	if tg := c.Target; !near(tg[1], 3) {
		t.Fatalf("pan down: target %v, want y 3", tg)
	}
	c.Zoom(2)
	if !near(c.Distance, 5*0.81) || !near(c.Near, 0.1*0.81) || !near(c.Far, 81) {
		t.Fatalf("zoom 2 steps: distance %v near %v far %v, want 4.05, 0.081, 81", c.Distance, c.Near, c.Far)
	}
}

// TestFrameBoundsFitsEveryCorner projects the box's corners by the pinhole
// model above, not the camera's matrices: all must land inside the view
// and between the clip planes, and at least one near its edge (the framing
// is tight, not just safe).
func TestFrameBoundsFitsEveryCorner(t *testing.T) {
	cases := []struct {
		name     string
		min, max mgl32.Vec3
		aspect   float32
	}{
		{"standing character, landscape", mgl32.Vec3{-0.4, 0, -0.2}, mgl32.Vec3{0.4, 1.8, 0.2}, 4.0 / 3},
		{"standing character, portrait", mgl32.Vec3{-0.4, 0, -0.2}, mgl32.Vec3{0.4, 1.8, 0.2}, 0.8},
		{"long animal in centimetres", mgl32.Vec3{-12, 0, -83}, mgl32.Vec3{22, 77, 64}, 1},
		{"flat box off the origin", mgl32.Vec3{100, 5, 100}, mgl32.Vec3{101, 5, 102}, 1},
		{"wide box, portrait: the width binds", mgl32.Vec3{-2, 0, -0.2}, mgl32.Vec3{2, 1, 0.2}, 0.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := FrameBounds(tc.min, tc.max, tc.aspect)
			edge := 0.0
			for i := 0; i < 8; i++ {
				p := mgl32.Vec3{tc.min[0], tc.min[1], tc.min[2]}
				if i&1 != 0 {
					p[0] = tc.max[0]
				}
				if i&2 != 0 {
					p[1] = tc.max[1]
				}
				if i&4 != 0 {
					p[2] = tc.max[2]
				}
				x, y, depth := pinhole(c, tc.aspect, p)
				if depth < float64(c.Near) || depth > float64(c.Far) || math.Abs(x) > 1 || math.Abs(y) > 1 {
					t.Fatalf("corner %v projects to (%.3f, %.3f) at depth %.3f (clip planes %.3f..%.3f): outside the view", p, x, y, depth, c.Near, c.Far)
				}
				edge = math.Max(edge, math.Max(math.Abs(x), math.Abs(y)))
			}
			if edge < 0.8 {
				t.Fatalf("farthest corner reaches only %.2f of the half-view; framing is loose", edge)
			}
		})
	}
}

// TestFrameBoundsSeesFlatModelsFromAbove: a box whose half-height is under
// half of its larger half-width, along x or along z alike, is seen from
// 8° + 30° × (1 − 2 × that ratio) up; a standing figure from 8°. A rope
// 4 long, 0.2 wide and 0.1 high: 0.05 / 2 gives 36.5°.
func TestFrameBoundsSeesFlatModelsFromAbove(t *testing.T) {
	for _, tc := range []struct {
		name     string
		min, max mgl32.Vec3
		pitch    float64
	}{
		{"rope along z", mgl32.Vec3{-0.1, 0, -2}, mgl32.Vec3{0.1, 0.1, 2}, 36.5},
		{"rope along x", mgl32.Vec3{-2, 0, -0.1}, mgl32.Vec3{2, 0.1, 0.1}, 36.5},
		{"standing figure", mgl32.Vec3{-0.4, 0, -0.2}, mgl32.Vec3{0.4, 1.8, 0.2}, 8},
	} {
		c := FrameBounds(tc.min, tc.max, 1)
		if got := float64(mgl32.RadToDeg(c.Pitch)); math.Abs(got-tc.pitch) > 1e-3 {
			t.Errorf("%s: pitch %.3f°, want %v°", tc.name, got, tc.pitch)
		}
	}
}

func TestProjectCentreAndBehind(t *testing.T) {
	c := FrameBounds(mgl32.Vec3{-1, -1, -1}, mgl32.Vec3{1, 1, 1}, 1)
	x, y, ok := c.Project(c.Target, 200, 100)
	if !ok || math.Abs(float64(x-100)) > 1e-3 || math.Abs(float64(y-50)) > 1e-3 {
		t.Fatalf("the target projects to (%v, %v, %v), want the viewport centre (100, 50)", x, y, ok)
	}
	behind := c.Eye().Add(c.Eye().Sub(c.Target))
	if _, _, ok := c.Project(behind, 200, 100); ok {
		t.Fatal("a point behind the camera projected as visible")
	}
}

// TopInset keeps the top share of the viewport clear: the picture is
// scaled by 1 − f about the bottom edge's centre, so a point on the top
// edge lands f of the height down, the centre f/2 down, and one on the
// bottom edge stays there.
func TestProjectTopInset(t *testing.T) {
	c := FrameBounds(mgl32.Vec3{-1, -1, -1}, mgl32.Vec3{1, 1, 1}, 2)
	const w, h, f = 200, 100, 0.25
	// Points on the target's plane at the top and bottom edges of the view.
	back := c.Eye().Sub(c.Target).Normalize()
	up := back.Cross(mgl32.Vec3{0, 1, 0}.Cross(back).Normalize())
	half := c.Distance * float32(math.Tan(float64(c.FovY)/2))
	inset := c
	inset.TopInset = f
	for _, p := range []struct {
		at    mgl32.Vec3
		wantY float32
	}{{c.Target.Add(up.Mul(half)), f * h}, {c.Target, (1 + f) / 2 * h}, {c.Target.Sub(up.Mul(half)), h}} {
		x, y, ok := inset.Project(p.at, w, h)
		if !ok || math.Abs(float64(x-w/2)) > 1e-3 || math.Abs(float64(y-p.wantY)) > 1e-3 {
			t.Errorf("%v projects to (%v, %v, %v), want (%v, %v)", p.at, x, y, ok, w/2, p.wantY)
		}
	}
}

// LeftInset keeps the left share of the viewport clear: the picture is
// scaled by 1 − f about the right edge's middle, so the target (the
// centre) lands at (1 + f)/2 of the width across and half way down, and a
// point on the left edge of the view f of the width in.
func TestProjectLeftInset(t *testing.T) {
	c := FrameBounds(mgl32.Vec3{-1, -1, -1}, mgl32.Vec3{1, 1, 1}, 2)
	const w, h, f = 200, 100, 0.25
	back := c.Eye().Sub(c.Target).Normalize()
	right := mgl32.Vec3{0, 1, 0}.Cross(back).Normalize()
	half := c.Distance * float32(math.Tan(float64(c.FovY)/2)) * w / h // half the view's width there
	inset := c
	inset.LeftInset = f
	for _, p := range []struct {
		at    mgl32.Vec3
		wantX float32
	}{{c.Target, (1 + f) / 2 * w}, {c.Target.Sub(right.Mul(half)), f * w}, {c.Target.Add(right.Mul(half)), w}} {
		x, y, ok := inset.Project(p.at, w, h)
		if !ok || math.Abs(float64(x-p.wantX)) > 1e-3 || math.Abs(float64(y-h/2)) > 1e-3 {
			t.Errorf("%v projects to (%v, %v, %v), want (%v, %v)", p.at, x, y, ok, p.wantX, h/2)
		}
	}
}

// LookAt puts the eye where it is asked and looks as mgl32.LookAtV does.
func TestLookAt(t *testing.T) {
	for _, c := range []struct{ eye, target mgl32.Vec3 }{
		{mgl32.Vec3{0.2, 0.9, 2.87}, mgl32.Vec3{0.2, 0.18, 0}},
		{mgl32.Vec3{-3, 1, -4}, mgl32.Vec3{1, 2, 3}},
		{mgl32.Vec3{5, -2, 0}, mgl32.Vec3{}},
	} {
		cam, ok := LookAt(c.eye, c.target, mgl32.DegToRad(45))
		if !ok {
			t.Fatalf("LookAt(%v, %v) refused", c.eye, c.target)
		}
		if d := cam.Eye().Sub(c.eye).Len(); d > 1e-5*c.eye.Sub(c.target).Len() {
			t.Errorf("eye %v, want %v", cam.Eye(), c.eye)
		}
		want := mgl32.LookAtV(c.eye, c.target, mgl32.Vec3{0, 1, 0})
		got := cam.View()
		for i := range got {
			if math.Abs(float64(got[i]-want[i])) > 1e-5*float64(1+c.eye.Len()) {
				t.Errorf("view %v, want %v", got, want)
				break
			}
		}
	}
	if _, ok := LookAt(mgl32.Vec3{0, 3, 0}, mgl32.Vec3{}, 1); ok {
		t.Error("an eye straight above the target was taken")
	}
	if _, ok := LookAt(mgl32.Vec3{1, 1, 1}, mgl32.Vec3{1, 1, 1}, 1); ok {
		t.Error("an eye on the target was taken")
	}
}

// A placed camera looks from its world transform: View is that
// transform's inverse (its scale ignored), and a point straight down its
// −Z projects to the viewport's centre.
func TestPlacedCamera(t *testing.T) {
	rot := mgl32.HomogRotate3DY(mgl32.DegToRad(30)).Mul4(mgl32.HomogRotate3DX(mgl32.DegToRad(-20)))
	world := mgl32.Translate3D(1, 2, 3).Mul4(rot)
	c := Camera{Placed: true, World: world.Mul4(mgl32.Scale3D(2, 2, 2)), FovY: mgl32.DegToRad(50), Near: 0.1, Far: 100}
	if e := c.Eye(); e.Sub(mgl32.Vec3{1, 2, 3}).Len() > 1e-6 {
		t.Errorf("eye %v, want (1, 2, 3)", e)
	}
	want := world.Inv()
	got := c.View()
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > 1e-5 {
			t.Fatalf("view %v, want %v", got, want)
		}
	}
	ahead := world.Mul4x1(mgl32.Vec4{0, 0, -5, 1}).Vec3()
	if x, y, ok := c.Project(ahead, 200, 100); !ok || math.Abs(float64(x-100)) > 1e-3 || math.Abs(float64(y-50)) > 1e-3 {
		t.Errorf("a point ahead projects to (%v, %v, %v), want the centre (100, 50)", x, y, ok)
	}
}

// Far 0 is the limit of the perspective matrix as far grows; Ortho is
// mgl32's orthographic matrix; Aspect overrides the viewport's.
func TestProjections(t *testing.T) {
	c := Camera{FovY: 1, Near: 0.5}
	inf, far := c.Proj(1.5), mgl32.Perspective(1, 1.5, 0.5, 1e7)
	for i := range inf {
		if math.Abs(float64(inf[i]-far[i])) > 1e-5 {
			t.Fatalf("infinite projection %v, want the limit %v", inf, far)
		}
	}
	o := Camera{Ortho: true, XMag: 2, YMag: 1, Near: 0.1, Far: 10}
	if got, want := o.Proj(3), mgl32.Ortho(-2, 2, -1, 1, 0.1, 10); got != want {
		t.Errorf("orthographic %v, want %v", got, want)
	}
	a := Camera{FovY: 1, Near: 0.5, Far: 10, Aspect: 2}
	if got, want := a.Proj(0.5), mgl32.Perspective(1, 2, 0.5, 10); got != want {
		t.Errorf("with Aspect 2: %v, want %v", got, want)
	}
}

// TestFrameShownOpensOnThePose: a model that grows from a unit square to
// a pillar 20 units tall. Framing the pillar leaves the square a few per
// cent of the picture; FrameShown draws in until the square's corners
// span the share asked for (measured with pinhole, to a hundredth), and
// no closer; where the pose already spans it, the framing is
// FrameBounds' exactly.
func TestFrameShownOpensOnThePose(t *testing.T) {
	square := []mgl32.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}
	spans := func(c Camera, aspect float32) float64 {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range square {
			x, y, depth := pinhole(c, aspect, p)
			if !(depth > float64(c.Near)) {
				t.Fatalf("corner %v at depth %.3f, before the near plane %.3f", p, depth, c.Near)
			}
			x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
		}
		return math.Max((math.Min(x1, 1)-math.Max(x0, -1))/2, (math.Min(y1, 1)-math.Max(y0, -1))/2)
	}
	for _, aspect := range []float32{4.0 / 3, 0.5} {
		lo, hi := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 20, 1}
		if s := spans(FrameBounds(lo, hi, aspect), aspect); s > 0.2 {
			t.Fatalf("aspect %.2f: the square spans %.2f of the pillar's framing; the case needs it small", aspect, s)
		}
		c := FrameShown(lo, hi, square, aspect, 0.4)
		if s := spans(c, aspect); !(s >= 0.399 && s < 0.41) {
			t.Errorf("aspect %.2f: the square spans %.3f of the picture; want 0.40 to 0.41 (to float32 rounding)", aspect, s)
		}
		// The pillar's own box, a unit cube, is framed as FrameBounds
		// frames it: the square spans well over 0.4 there.
		if got, want := FrameShown(lo, mgl32.Vec3{1, 1, 1}, square, aspect, 0.4), FrameBounds(lo, mgl32.Vec3{1, 1, 1}, aspect); got != want {
			t.Errorf("aspect %.2f: a pose spanning the framing moved the camera: %+v, want %+v", aspect, got, want)
		}
	}
	if got, want := FrameShown(mgl32.Vec3{}, mgl32.Vec3{1, 20, 1}, nil, 1, 0.4), FrameBounds(mgl32.Vec3{}, mgl32.Vec3{1, 20, 1}, 1); got != want {
		t.Errorf("no points: %+v, want FrameBounds' %+v", got, want)
	}
}
