package scene

import (
	"sync"

	"github.com/skinview/skinview/internal/render"
)

// studio is the built-in environment, prefiltered once per process.
var studio = sync.OnceValue(func() *render.Environment {
	return render.UniformEnvironment(0.5)
})

// Studio is the environment of the viewer's look when no -env file is
// given: the built-in neutral studio, prefiltered. It is shared: callers
// must not change it.
func Studio() *render.Environment { return studio() }
