package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Camera orbits a target point. Angles in radians; Yaw 0 looks at the
// target from +Z (the side a glTF character faces), positive Pitch looks
// from above.
type Camera struct {
	Target   mgl32.Vec3
	Distance float32 // from the target, in model units
	Yaw      float32
	Pitch    float32
	FovY     float32 // vertical field of view
	Near     float32
	Far      float32
	// TopInset is the share of the viewport's height kept clear at the
	// top (for a HUD bar): the picture is scaled by 1 − TopInset about
	// the bottom edge's centre, so all the camera frames shows below it.
	TopInset float32
	// LeftInset is the share of the viewport's width kept clear at the
	// left (for HUD panels): the picture is scaled by 1 − LeftInset about
	// the right edge's middle, so all the camera frames shows right of it.
	LeftInset float32
	// Placed, when set, puts the camera at World (rotation and
	// translation; scale is ignored), looking down its −Z with +Y up, as
	// a glTF camera's node does, instead of the orbit above.
	Placed bool
	World  mgl32.Mat4
	// Ortho projects orthographically, XMag and YMag the half-extents,
	// instead of with FovY. Aspect, when positive, is the width/height
	// the projection keeps whatever the viewport's. Far 0 is infinitely
	// far (perspective only).
	Ortho      bool
	XMag, YMag float32
	Aspect     float32
}

// Eye is the camera's position.
func (c Camera) Eye() mgl32.Vec3 {
	if c.Placed {
		return c.World.Col(3).Vec3()
	}
	cp := float32(math.Cos(float64(c.Pitch)))
	dir := mgl32.Vec3{
		cp * float32(math.Sin(float64(c.Yaw))),
		float32(math.Sin(float64(c.Pitch))),
		cp * float32(math.Cos(float64(c.Yaw))),
	}
	return c.Target.Add(dir.Mul(c.Distance))
}

// View is the world-to-camera matrix.
func (c Camera) View() mgl32.Mat4 {
	if c.Placed {
		// The inverse of the rigid part of World: its rotation's columns
		// made unit length, transposed, and the translation undone.
		x, y, z := c.World.Col(0).Vec3().Normalize(), c.World.Col(1).Vec3().Normalize(), c.World.Col(2).Vec3().Normalize()
		t := c.World.Col(3).Vec3()
		return mgl32.Mat4{x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -x.Dot(t), -y.Dot(t), -z.Dot(t), 1}
	}
	return mgl32.LookAtV(c.Eye(), c.Target, mgl32.Vec3{0, 1, 0})
}

// Proj is the perspective projection for a viewport of the given aspect
// ratio (width / height).
func (c Camera) Proj(aspect float32) mgl32.Mat4 {
	if c.Aspect > 0 {
		aspect = c.Aspect
	}
	var p mgl32.Mat4
	switch {
	case c.Ortho:
		p = mgl32.Ortho(-c.XMag, c.XMag, -c.YMag, c.YMag, c.Near, c.Far)
	case c.Far == 0:
		// The limit of the perspective matrix as far goes to infinity.
		f := 1 / float32(math.Tan(float64(c.FovY)/2))
		p = mgl32.Mat4{f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, -1, -1, 0, 0, -2 * c.Near, 0}
	default:
		p = mgl32.Perspective(c.FovY, aspect, c.Near, c.Far)
	}
	if f := c.TopInset; f > 0 && f < 1 {
		// Clip-space x and y scaled by 1 − f and y moved down by f: NDC
		// y ∈ [−1, 1] lands on [−1, 1 − 2f].
		p = mgl32.Translate3D(0, -f, 0).Mul4(mgl32.Scale3D(1-f, 1-f, 1)).Mul4(p)
	}
	if f := c.LeftInset; f > 0 && f < 1 {
		// NDC x ∈ [−1, 1] lands on [−1 + 2f, 1], y on [−(1 − f), 1 − f].
		p = mgl32.Translate3D(f, 0, 0).Mul4(mgl32.Scale3D(1-f, 1-f, 1)).Mul4(p)
	}
	return p
}

// FrameBounds returns a camera that shows the whole box [min, max] from
// three-quarter front, whatever the viewport's aspect ratio: each corner
// of the box, seen from the camera's direction, must fit both fields of
// view, which frames long or tall models tighter than a bounding sphere.
func FrameBounds(min, max mgl32.Vec3, aspect float32) Camera {
	c := Camera{Yaw: mgl32.DegToRad(25), Pitch: mgl32.DegToRad(8), FovY: mgl32.DegToRad(40)}
	c.Target = min.Add(max).Mul(0.5)
	half := max.Sub(min).Mul(0.5)
	// A flat model (a crawling creature, a rope on the ground) is seen from
	// higher up, or it would be a line on the screen.
	if flat := float64(half[1]) / math.Max(math.Max(float64(half[0]), float64(half[2])), 1e-9); flat < 0.5 {
		c.Pitch = mgl32.DegToRad(float32(8 + 30*(1-2*flat)))
	}
	if !(half.Len() > 0) || math.IsInf(float64(half.Len()), 0) {
		half = mgl32.Vec3{1, 1, 1}
	}
	// Camera axes: back points from the target towards the eye.
	c.Distance = 1
	back := c.Eye().Sub(c.Target).Normalize()
	right := mgl32.Vec3{0, 1, 0}.Cross(back).Normalize()
	up := back.Cross(right)
	tanY := math.Tan(float64(c.FovY) / 2)
	tanX := tanY * float64(aspect)
	d := 0.0
	for i := 0; i < 8; i++ {
		corner := mgl32.Vec3{half[0] * sign(i&1), half[1] * sign(i&2), half[2] * sign(i&4)}
		x, y, z := float64(corner.Dot(right)), float64(corner.Dot(up)), float64(corner.Dot(back))
		d = math.Max(d, z+math.Abs(x)/tanX)
		d = math.Max(d, z+math.Abs(y)/tanY)
	}
	c.Distance = float32(d * 1.06)
	radius := half.Len()
	// The planes reach well past the box: the ground grid and the trail
	// root motion leaves run out of it, towards the camera too.
	c.Near = c.Distance / 20
	c.Far = float32(math.Max(float64(c.Distance+radius*2), float64(c.Distance)*4))
	return c
}

// LookAt is the camera at eye looking at target with a vertical field of
// view of fovY radians, its clip planes at a hundredth and a hundred times
// their distance. Ok is false where eye and target coincide or eye is
// straight above or below target (the orbit camera keeps Y up and has no
// yaw there).
func LookAt(eye, target mgl32.Vec3, fovY float32) (c Camera, ok bool) {
	d := eye.Sub(target)
	dist := d.Len()
	if !(dist > 0) || math.IsInf(float64(dist), 0) || math.Abs(float64(d[1]/dist)) > 0.9999 || !(fovY > 0 && fovY < math.Pi) {
		return Camera{}, false
	}
	return Camera{Target: target, Distance: dist, Yaw: float32(math.Atan2(float64(d[0]), float64(d[2]))),
		Pitch: float32(math.Asin(float64(d[1] / dist))), FovY: fovY, Near: dist / 100, Far: dist * 100}, true
}

func sign(bit int) float32 {
	if bit != 0 {
		return 1
	}
	return -1
}

// Orbit turns the camera around its target by dYaw and dPitch radians,
// keeping it off the poles.
func (c *Camera) Orbit(dYaw, dPitch float32) {
	c.Yaw += dYaw
	lim := float32(math.Pi/2 - 0.01)
	c.Pitch = min(max(c.Pitch+dPitch, -lim), lim)
}

// Pan moves the target in the view plane by dx, dy pixels of a viewport
// height pixels tall, so the model follows the mouse.
func (c *Camera) Pan(dx, dy float32, height int) {
	back := c.Eye().Sub(c.Target).Normalize()
	right := mgl32.Vec3{0, 1, 0}.Cross(back).Normalize()
	up := back.Cross(right)
	perPixel := 2 * c.Distance * float32(math.Tan(float64(c.FovY)/2)) / float32(max(height, 1))
	c.Target = c.Target.Sub(right.Mul(dx * perPixel)).Add(up.Mul(dy * perPixel))
}

// Zoom moves the camera towards the target (steps > 0) or away, by 10%
// per step, and keeps the clip planes around it.
func (c *Camera) Zoom(steps float32) {
	f := float32(math.Pow(0.9, float64(steps)))
	c.Distance *= f
	c.Near *= f
	c.Far *= f
}

// Project maps a world point to framebuffer pixels (origin top-left) of a
// w×h viewport; ok is false for points behind the camera.
func (c Camera) Project(p mgl32.Vec3, w, h int) (x, y float32, ok bool) {
	vp := c.Proj(float32(w) / float32(max(h, 1))).Mul4(c.View())
	q := vp.Mul4x1(p.Vec4(1))
	if q[3] <= 0 {
		return 0, 0, false
	}
	return (q[0]/q[3]*0.5 + 0.5) * float32(w), (0.5 - q[1]/q[3]*0.5) * float32(h), true
}

// FrameShown is FrameBounds(min, max, aspect) unless the points shown,
// the pose a picture opens on, then span less than least of the
// picture's width and of its height: a model that grows during its clip
// (morph targets, a wide dance) would open as a speck. The box is then
// drawn in from [min, max] towards the points' own box, as little as
// makes them span least one way; the poses that reach past it leave the
// picture. An empty points keeps FrameBounds.
func FrameShown(min, max mgl32.Vec3, shown []mgl32.Vec3, aspect, least float32) Camera {
	c := FrameBounds(min, max, aspect)
	if len(shown) == 0 || spanOf(c, shown, aspect) >= least {
		return c
	}
	slo, shi := shown[0], shown[0]
	for _, p := range shown[1:] {
		for k := range 3 {
			slo[k], shi[k] = float32(math.Min(float64(slo[k]), float64(p[k]))), float32(math.Max(float64(shi[k]), float64(p[k])))
		}
	}
	// at(f) is the box f of the way from the points' box to [min, max]:
	// the points' own framing at 0, the whole box at 1.
	at := func(f float32) Camera {
		return FrameBounds(slo.Add(min.Sub(slo).Mul(f)), shi.Add(max.Sub(shi).Mul(f)), aspect)
	}
	lo, hi := float32(0), float32(1)
	for range 24 {
		if mid := (lo + hi) / 2; spanOf(at(mid), shown, aspect) >= least {
			lo = mid
		} else {
			hi = mid
		}
	}
	return at(lo)
}

// spanOf is the larger of the shares of a picture's width and height
// that the points cover through camera c, counting only what lies inside
// the picture; a point behind the camera covers it all.
func spanOf(c Camera, pts []mgl32.Vec3, aspect float32) float32 {
	vp := c.Proj(aspect).Mul4(c.View())
	x0, y0, x1, y1 := float32(1), float32(1), float32(-1), float32(-1)
	for _, p := range pts {
		q := vp.Mul4x1(p.Vec4(1))
		if q[3] <= 0 {
			return 1
		}
		x, y := q[0]/q[3], q[1]/q[3]
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	w := (min(x1, 1) - max(x0, -1)) / 2
	h := (min(y1, 1) - max(y0, -1)) / 2
	return max(w, h, 0)
}
