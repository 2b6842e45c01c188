package main

import (
	"fmt"
	"io"
	"time"

	"github.com/skinview/skinview/internal/scene"
)

// frameStats accumulates per-frame costs for -stats and the HUD.
type frameStats struct {
	frames       int
	anim, render time.Duration
	drawCalls    int
	partitions   int
	paletteBytes int
	joints       int
	vertices     int
}

func (s *frameStats) add(anim, render time.Duration, drawCalls, paletteBytes int) {
	s.frames++
	s.anim += anim
	s.render += render
	s.drawCalls = drawCalls
	s.paletteBytes = paletteBytes
}

func (s *frameStats) print(w io.Writer) {
	n := float64(max(s.frames, 1))
	fmt.Fprintf(w, "frames %d: animation %.3f ms/frame, render %.3f ms/frame (CPU), draw calls %d, partitions %d, palette %d bytes/frame, joints %d, vertices %d\n",
		s.frames, float64(s.anim.Microseconds())/1000/n, float64(s.render.Microseconds())/1000/n,
		s.drawCalls, s.partitions, s.paletteBytes, s.joints, s.vertices)
}

// statsFrames is how many frames -stats renders offscreen.
const statsFrames = 120

// runStats renders statsFrames frames offscreen, advancing 1/60 s each,
// and prints the averages. The render time includes glFinish so that it
// measures the frame, not only command submission.
func runStats(w io.Writer, opt *options, c *scene.Character, t float32) error {
	return offscreen(opt, c, opt.width, opt.height, func(a *app) error {
		a.ui.HUD = false
		a.Seek(t)
		var st frameStats
		st.partitions, st.joints, st.vertices = a.v.Stats.Partitions, a.v.Stats.Joints, a.v.Stats.Vertices
		if a.crowd != nil {
			st.joints *= a.crowd.Len()
			st.partitions *= a.crowd.Len()
		}
		for i := 0; i < statsFrames; i++ {
			start := time.Now()
			if err := a.update(1.0 / 60); err != nil {
				return err
			}
			mid := time.Now()
			if err := a.draw(); err != nil {
				return err
			}
			a.v.R.Finish()
			st.add(mid.Sub(start), time.Since(mid), a.v.R.DrawCalls, a.v.R.PaletteUsed)
		}
		st.print(w)
		return nil
	})
}
