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
}

// Eye is the camera's position.
func (c Camera) Eye() mgl32.Vec3 {
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
	return mgl32.LookAtV(c.Eye(), c.Target, mgl32.Vec3{0, 1, 0})
}

// Proj is the perspective projection for a viewport of the given aspect
// ratio (width / height).
func (c Camera) Proj(aspect float32) mgl32.Mat4 {
	return mgl32.Perspective(c.FovY, aspect, c.Near, c.Far)
}

// FrameBounds returns a camera that shows the whole box [min, max] from
// three-quarter front, whatever the viewport's aspect ratio. It fits the
// box's height and its horizontal extent (under any yaw) separately, which
// frames a standing character much tighter than a bounding sphere.
func FrameBounds(min, max mgl32.Vec3, aspect float32) Camera {
	c := Camera{Yaw: mgl32.DegToRad(25), Pitch: mgl32.DegToRad(8), FovY: mgl32.DegToRad(40)}
	ext := max.Sub(min)
	halfH := float64(ext[1]) / 2
	halfW := math.Hypot(float64(ext[0]), float64(ext[2])) / 2
	if !(halfH+halfW > 0) || math.IsInf(halfH+halfW, 0) {
		halfH, halfW = 1, 1
	}
	tanY := math.Tan(float64(c.FovY) / 2)
	tanX := tanY * float64(aspect)
	// The box's near face is halfW closer than its centre and looks larger.
	d := math.Max(halfH/tanY, halfW/tanX) + halfW
	c.Target = min.Add(max).Mul(0.5)
	c.Distance = float32(d * 1.08)
	radius := float32(math.Hypot(halfH, halfW))
	c.Near = c.Distance / 100
	c.Far = c.Distance + radius*4
	return c
}
