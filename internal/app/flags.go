package app

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/render"
)

// ParamFlags collects repeated -param NAME=VALUE flags: a flag.Value.
type ParamFlags []Param

func (p *ParamFlags) String() string { return fmt.Sprint(*p) }

// Set adds one NAME=VALUE.
func (p *ParamFlags) Set(s string) error {
	name, v, ok := strings.Cut(s, "=")
	f, err := strconv.ParseFloat(v, 32)
	if !ok || name == "" || err != nil || f != f {
		return fmt.Errorf("want NAME=VALUE, like speed=0.5")
	}
	*p = append(*p, Param{Name: name, Value: float32(f)})
	return nil
}

// Stage is what the stage flags set: a placed camera instead of the
// framing (nil: framed), the background (zero: scene.Background), the
// lighting of the shaded view, its tone mapping and exposure, and the
// environment file of the viewer's look ("": the built-in studio).
type Stage struct {
	// FileCamera is -camera: a camera of the file to look through, by
	// glTF index or name.
	FileCamera string
	Camera     *render.Camera
	Background color.NRGBA
	Lighting   render.Lighting
	Tonemap    render.Tonemap
	Exposure   float32
	EnvFile    string
}

// StageFlags are -eye, -target, -fov (FovSet: given), -bg, -lighting,
// -camera, -tonemap, -exposure and -env as typed.
type StageFlags struct {
	Eye, Target, Bg, Lighting, Camera string
	Tonemap, Env                      string
	Fov, Exposure                     float64
	FovSet                            bool
}

// Register adds the stage flags to fs.
func (f *StageFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Camera, "camera", "", "look through a camera of the file, by glTF `index or name` (animated cameras follow their node; Shift+C cycles them in the window)")
	fs.StringVar(&f.Eye, "eye", "", "place the camera at `X,Y,Z` (world units of the file) for -screenshot, -record, -sheet and the window's start, looking at -target")
	fs.StringVar(&f.Target, "target", "", "the `X,Y,Z` the -eye camera looks at")
	fs.Float64Var(&f.Fov, "fov", 40, "vertical field of view of the -eye camera, `degrees`")
	fs.StringVar(&f.Lighting, "lighting", "default", "`stage` of the shaded view: default (the environment, a key light and its shadow on the ground, tone mapped), or three (three.js r187's MeshStandardMaterial under its HemisphereLight(0xffffff, 0x444444, 1.5) and DirectionalLight(0xffffff, 2.0) at 1,2,3, no environment, shadow or tone mapping: a verification mode, not a look)")
	fs.StringVar(&f.Bg, "bg", "", "background colour, `R,G,B` in sRGB 0–255 (default 46,50,58)")
	fs.StringVar(&f.Tonemap, "tonemap", "neutral", "tone `mapping` of the default lighting: neutral (Khronos PBR Neutral), aces or none")
	fs.Float64Var(&f.Exposure, "exposure", 0, "exposure of the default lighting in `EV` (stops): +1 doubles the light")
	fs.StringVar(&f.Env, "env", "", "light the default look by this Radiance HDR `file` (equirectangular .hdr) instead of the built-in studio")
}

// ParseStage reads the stage flags.
func ParseStage(f StageFlags) (Stage, error) {
	s := Stage{FileCamera: f.Camera, EnvFile: f.Env}
	var err error
	if s.Background, err = ParseBackground(f.Bg); err != nil {
		return s, err
	}
	placed := f.Eye != "" || f.Target != ""
	switch {
	case f.Camera != "" && placed:
		return s, errors.New("-camera and -eye/-target both place the camera; give one")
	case f.FovSet && !placed:
		return s, fmt.Errorf("-fov %v is the -eye camera's field of view: give -eye and -target too (a file camera has its own)", f.Fov)
	}
	switch lighting := f.Lighting; lighting {
	case "", "default":
	case "three":
		s.Lighting = render.ReferenceStage
	default:
		return s, fmt.Errorf("-lighting %q: want default or three", lighting)
	}
	if s.Tonemap, err = render.ParseTonemap(f.Tonemap); err != nil {
		return s, err
	}
	if !(f.Exposure >= -20 && f.Exposure <= 20) {
		return s, fmt.Errorf("-exposure %v: want stops between -20 and 20", f.Exposure)
	}
	s.Exposure = float32(f.Exposure)
	s.Camera, err = PlaceCamera(f.Eye, f.Target, f.Fov)
	return s, err
}

// ParseBackground reads -bg, "R,G,B" in sRGB 0–255; "" is the zero colour
// (scene.Background).
func ParseBackground(s string) (color.NRGBA, error) {
	if s == "" {
		return color.NRGBA{}, nil
	}
	c, err := parseTriple(s, 0, 255)
	if err != nil || c != [3]float64{float64(int(c[0])), float64(int(c[1])), float64(int(c[2]))} {
		return color.NRGBA{}, fmt.Errorf("-bg %q: want R,G,B, whole numbers from 0 to 255, like 255,255,255", s)
	}
	return color.NRGBA{uint8(c[0]), uint8(c[1]), uint8(c[2]), 255}, nil
}

// PlaceCamera reads -eye and -target ("X,Y,Z" each, both or neither) and
// -fov (vertical degrees): the camera they place, or nil for neither.
func PlaceCamera(eye, target string, fovDeg float64) (*render.Camera, error) {
	if eye == "" && target == "" {
		return nil, nil
	}
	e, err1 := parseTriple(eye, -1e30, 1e30)
	t, err2 := parseTriple(target, -1e30, 1e30)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("-eye %q -target %q: want both, each X,Y,Z, like -eye 0,1.5,4 -target 0,1,0", eye, target)
	}
	if !(fovDeg > 0 && fovDeg < 180) {
		return nil, fmt.Errorf("-fov %v: want vertical degrees between 0 and 180", fovDeg)
	}
	v := func(c [3]float64) mgl32.Vec3 { return mgl32.Vec3{float32(c[0]), float32(c[1]), float32(c[2])} }
	cam, ok := render.LookAt(v(e), v(t), mgl32.DegToRad(float32(fovDeg)))
	if !ok {
		return nil, fmt.Errorf("-eye %s -target %s: the eye must be a finite distance from the target, not straight above or below it", eye, target)
	}
	return &cam, nil
}

// parseTriple reads "X,Y,Z", each finite and within [lo, hi].
func parseTriple(s string, lo, hi float64) ([3]float64, error) {
	var c [3]float64
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return c, errors.New("want three numbers")
	}
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !(f >= lo && f <= hi) {
			return c, errors.New("not a number in range")
		}
		c[i] = f
	}
	return c, nil
}
