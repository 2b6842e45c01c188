package asset

import (
	"fmt"
	"io"
	goruntime "runtime"
	"sync"
	"time"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
)

// progressEvery is how long a clip's compression runs before it says how
// far it has got, and then how often.
var progressEvery = time.Second

// CompressClips compresses every clip of m within tolerance model units
// (anim.CompressClip; the morph weights with MorphDisplacements), as many
// at once as there are cores, into the runtime clips a character plays
// (one per clip of m, in order) and a report per clip. It only reads m
// (its clips, skeleton and meshes), so it may run beside a frame that
// draws m. A clip that takes longer than a second says how far it has got
// on progress (nil: nowhere), about once a second.
func CompressClips(m *gltfload.Model, tolerance float64, progress io.Writer) ([]*anim.RuntimeClip, []anim.CompressReport, error) {
	runtime := make([]*anim.RuntimeClip, len(m.Clips))
	reports := make([]anim.CompressReport, len(m.Clips))
	errs := make([]error, len(m.Clips))
	var mu sync.Mutex // one progress line at a time
	var wg sync.WaitGroup
	slots := make(chan struct{}, goruntime.GOMAXPROCS(0))
	disp := MorphDisplacements(m)
	for i := range m.Clips {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			c := &m.Clips[i]
			start := time.Now()
			next := start.Add(progressEvery)
			opt := anim.CompressOptions{Tolerance: tolerance, MorphDisplacement: disp, Progress: func(done float64) {
				if now := time.Now(); progress != nil && now.After(next) {
					next = now.Add(progressEvery)
					mu.Lock()
					fmt.Fprintf(progress, "compressing %s clip %d/%d %q: %.0f%% (%.1f s)\n", m.Name, i+1, len(m.Clips), ClipName(m, i), 100*done, now.Sub(start).Seconds())
					mu.Unlock()
				}
			}}
			rc, rep, err := anim.CompressClip(c, &m.Skeleton, opt)
			if err != nil {
				errs[i] = fmt.Errorf("%s: clip %d %q: %w", m.Name, i, ClipName(m, i), err)
				return
			}
			rep.Clip = ClipName(m, i) // as the clip browser and -clip name it: "clip 0" when unnamed
			runtime[i], reports[i] = rc, rep
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return runtime, reports, nil
}

// RuntimeClips are m's clips in runtime form as loaded, uncompressed: what
// many controllers of one model (a crowd) share.
func RuntimeClips(m *gltfload.Model) ([]*anim.RuntimeClip, error) {
	clips := make([]*anim.RuntimeClip, len(m.Clips))
	for i := range m.Clips {
		rc, err := anim.NewRuntimeClip(&m.Clips[i], &m.Skeleton)
		if err != nil {
			return nil, fmt.Errorf("clip %q: %w", ClipName(m, i), err)
		}
		clips[i] = rc
	}
	return clips, nil
}
