package render

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Environment is the image-based lighting of the viewer's look: a radiance
// cube map prefiltered for the GGX lobe, level k holding perceptual
// roughness k/(Levels−1) (level 0 the environment itself, sides Size>>k),
// and the irradiance as nine spherical-harmonic coefficients.
type Environment struct {
	Size, Levels int
	// Faces[k][f] is level k's face f (GL order +X, −X, +Y, −Y, +Z, −Z),
	// linear RGB, row-major, row 0 at t = 0 of GL's cube-map face table.
	Faces [][6][]float32
	// SH are the radiance's coefficients L00, L1−1, L10, L11, L2−2, L2−1,
	// L20, L21, L22 (RGB), which lit.frag convolves with the clamped cosine
	// (Ramamoorthi and Hanrahan 2001) into irradiance.
	SH [9][3]float32
}

// check says what is wrong with e's sizes, or nil.
func (e *Environment) check() error {
	if e.Size < 1 || e.Levels < 1 || len(e.Faces) != e.Levels || e.Size>>(e.Levels-1) < 1 {
		return fmt.Errorf("render: environment of side %d with %d levels (%d given): want side ≥ 1 at every level", e.Size, e.Levels, len(e.Faces))
	}
	for k := range e.Faces {
		s := e.Size >> k
		for f := range 6 {
			if len(e.Faces[k][f]) != s*s*3 {
				return fmt.Errorf("render: environment level %d face %d has %d floats; want %d", k, f, len(e.Faces[k][f]), s*s*3)
			}
		}
	}
	return nil
}

// SetEnvironment uploads e as the environment of the viewer's look,
// replacing the one before. Until it is called the environment is a
// uniform grey.
func (r *Renderer) SetEnvironment(e *Environment) error {
	if err := e.check(); err != nil {
		return err
	}
	if r.env == 0 {
		gl.GenTextures(1, &r.env)
	}
	gl.BindTexture(gl.TEXTURE_CUBE_MAP, r.env)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	for k := range e.Faces {
		s := int32(e.Size >> k)
		for f := range 6 {
			px := e.Faces[k][f]
			gl.TexImage2D(gl.TEXTURE_CUBE_MAP_POSITIVE_X+uint32(f), int32(k), gl.RGB16F, s, s, 0, gl.RGB, gl.FLOAT, unsafe.Pointer(&px[0]))
		}
	}
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_BASE_LEVEL, 0)
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAX_LEVEL, int32(e.Levels-1))
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR)
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	for _, p := range []uint32{gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T, gl.TEXTURE_WRAP_R} {
		gl.TexParameteri(gl.TEXTURE_CUBE_MAP, p, gl.CLAMP_TO_EDGE)
	}
	gl.BindTexture(gl.TEXTURE_CUBE_MAP, 0)
	r.envLevels = float32(e.Levels - 1)
	r.envSH = e.SH
	return nil
}

// UniformEnvironment is an environment of radiance l in every direction:
// its irradiance is πl wherever a surface faces.
func UniformEnvironment(l float32) *Environment {
	e := &Environment{Size: 1, Levels: 1, Faces: make([][6][]float32, 1)}
	for f := range 6 {
		e.Faces[0][f] = []float32{l, l, l}
	}
	// Y00 = 1/(2√π): a constant l projects to L00 = l·2√π.
	c := l * float32(2*math.Sqrt(math.Pi))
	e.SH[0] = [3]float32{c, c, c}
	return e
}
