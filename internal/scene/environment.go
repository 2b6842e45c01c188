package scene

import (
	"sync"

	"github.com/skinview/skinview/internal/ibl"
	"github.com/skinview/skinview/internal/render"
)

// Sizes of the prefiltered environments: a 128-texel cube, six roughness
// levels, 128 samples a texel, from a 512×256 equirect of the studio.
const (
	envSize    = 128
	envLevels  = 6
	envSamples = 128
)

// studio is the built-in environment, prefiltered once per process.
var studio = sync.OnceValue(func() *render.Environment {
	return Environment(ibl.Studio(512, 256))
})

// Studio is the environment of the viewer's look when no -env file is
// given: the built-in neutral studio, prefiltered. It is shared: callers
// must not change it.
func Studio() *render.Environment { return studio() }

// Environment prefilters an equirect environment for the viewer's look.
func Environment(eq *ibl.Equirect) *render.Environment {
	c := ibl.Prefilter(eq, envSize, envLevels, envSamples)
	return &render.Environment{Size: c.Size, Levels: c.Levels, Faces: c.Faces, SH: ibl.Irradiance(c)}
}
