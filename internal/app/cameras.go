package app

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
)

// The file's cameras: -camera picks one to look through, Shift+C cycles
// them (after the last, the viewer's own camera again), and each frame the
// view follows the camera's node as the clip moves it.

// findCamera is the index in the model's cameras of -camera's choice: a
// glTF camera index or a camera's name.
func (a *App) findCamera(choice string) (int, error) {
	cams := a.Char.Model.Cameras
	if i, err := strconv.Atoi(choice); err == nil {
		for k, c := range cams {
			if c.Index == i {
				return k, nil
			}
		}
	}
	for k, c := range cams {
		if c.Name == choice {
			return k, nil
		}
	}
	if len(cams) == 0 {
		return -1, fmt.Errorf("-camera %q: the model's scene has no camera to look through (viewer -info: its report says why a camera cannot be)", choice)
	}
	sorted := slices.SortedFunc(slices.Values(cams), func(a, b gltfload.Camera) int { return cmp.Compare(a.Index, b.Index) })
	names := ""
	for k, c := range sorted {
		if k > 0 {
			names += ", "
		}
		names += fmt.Sprintf("%d %q", c.Index, c.Name)
	}
	return -1, fmt.Errorf("-camera %q: no camera by that index or name to look through; the scene's are %s (viewer -info: its report says why a camera cannot be)", choice, names)
}

// CycleCamera implements ui.Actions: the next of the file's cameras, or,
// after the last, the viewer's own.
func (a *App) CycleCamera() {
	n := len(a.Char.Model.Cameras)
	if n == 0 {
		a.UI.Say("the model has no camera")
		return
	}
	a.looking++
	if a.looking >= n {
		a.looking = -1
		a.View.Cam = a.View.Home
		a.UI.Say("camera: the viewer's")
		return
	}
	a.lookThrough()
	a.UI.Say("camera: %s (%d of %d)", a.Char.Model.Cameras[a.looking].Name, a.looking+1, n)
}

// lookThrough puts the view's camera where the chosen file camera's node
// is in the current pose.
func (a *App) lookThrough() {
	if a.looking < 0 {
		return
	}
	// A field, not a local: Param's pointers into a local would move it
	// to the heap every frame.
	c := &a.scratch.camera
	*c = a.Char.Model.Cameras[a.looking]
	w := a.Char.Channels()
	for _, cc := range a.Char.Model.CameraChannels {
		if cc.Index == c.Index {
			*c.Param(cc.Param) = w[cc.Channel]
		}
	}
	a.View.Cam = render.Camera{Placed: true, World: a.Char.NodeWorld(c.Node), Ortho: c.Orthographic, FovY: c.YFov,
		XMag: c.XMag, YMag: c.YMag, Aspect: c.Aspect, Near: c.ZNear, Far: c.ZFar}
}

// placeLights puts the file's punctual lights where their nodes are in
// the current pose, with their animated parameters.
func (a *App) placeLights() {
	m := a.Char.Model
	if len(m.Lights) == 0 {
		return
	}
	if a.View.Lights == nil {
		a.View.Lights = make([]render.Light, len(m.Lights))
	}
	w := a.Char.Channels()
	g := &a.scratch.light // a field, as in lookThrough
	for i := range m.Lights {
		*g = m.Lights[i]
		for _, lc := range m.LightChannels {
			if lc.Index == g.Index {
				copy(g.Field(lc.Param), w[lc.Channel:lc.Channel+lc.Count])
			}
		}
		world := a.Char.NodeWorld(g.Node)
		a.View.Lights[i] = render.Light{Kind: render.LightKind(g.Kind), Position: world.Col(3).Vec3(),
			Direction: world.Col(2).Vec3().Mul(-1).Normalize(), Color: mgl32.Vec3(g.Color).Mul(g.Intensity), Range: g.Range,
			CosOuter: float32(math.Cos(float64(g.OuterCone))), CosInner: float32(math.Cos(float64(g.InnerCone)))}
	}
}

// leaveCamera returns to the viewer's camera when the user moves it.
func (a *App) leaveCamera() {
	if a.looking >= 0 {
		a.looking = -1
		a.View.Cam = a.View.Home
	}
}
