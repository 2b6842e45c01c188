package scene

import (
	"fmt"
	"io"
	"time"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
)

// progressEvery is how long a clip's compression runs before it says how
// far it has got, and then how often.
var progressEvery = time.Second

// CompressClips compresses every clip of m within tolerance model units
// (anim.CompressClip) and sets m.Runtime, so that every character and
// crowd of m plays the compressed clips. A clip that takes longer than a
// second says how far it has got on progress, about once a second.
func CompressClips(m *gltfload.Model, tolerance float64, progress io.Writer) ([]anim.CompressReport, error) {
	runtime := make([]*anim.RuntimeClip, len(m.Clips))
	reports := make([]anim.CompressReport, len(m.Clips))
	for i := range m.Clips {
		c := &m.Clips[i]
		start := time.Now()
		next := start.Add(progressEvery)
		opt := anim.CompressOptions{Tolerance: tolerance, Progress: func(done float64) {
			if now := time.Now(); progress != nil && now.After(next) {
				next = now.Add(progressEvery)
				fmt.Fprintf(progress, "compressing %s clip %d/%d %q: %.0f%% (%.1f s)\n", m.Name, i+1, len(m.Clips), c.Name, 100*done, now.Sub(start).Seconds())
			}
		}}
		rc, rep, err := anim.CompressClip(c, &m.Skeleton, opt)
		if err != nil {
			return nil, fmt.Errorf("%s: clip %d %q: %w", m.Name, i, c.Name, err)
		}
		runtime[i], reports[i] = rc, rep
	}
	m.Runtime = runtime
	return reports, nil
}
