package app

import (
	"cmp"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/export"
	"github.com/skinview/skinview/internal/ui"
)

// The offscreen modes: each runs frames of an App whose view draws into a
// target, in a GL context the caller made current.

// Shoot renders the picture -screenshot writes: the character at time t,
// or after the key script when there is one; the HUD only with -hud.
func (a *App) Shoot(t float32, evs []ui.Event) (*image.NRGBA, error) {
	if a.Crowd != nil || len(evs) == 0 {
		// The moment asked for, exactly: every clip at local time t,
		// then a crowd's key script from there.
		if err := a.poseAt(t); err != nil {
			return nil, err
		}
		if err := a.RunKeys(evs); err != nil {
			return nil, err
		}
	} else {
		a.Char.Seek(t)
		if err := a.Update(0); err != nil {
			return nil, err
		}
		if err := a.RunKeys(evs); err != nil {
			return nil, err
		}
	}
	a.UI.HUD = a.opt.HUD
	a.UI.Message = ""
	if !a.opt.HUD {
		a.UI.Help = false
	}
	if err := a.Draw(); err != nil {
		return nil, err
	}
	return a.View.Target.ReadImage(), nil
}

// Record writes the frames of [From, To] at FPS to path: an animated GIF
// (.gif), a video through ffmpeg (.mp4, .mov, .mkv, .webm) or PNGs into a
// folder. It poses each frame at its time, or, with
// -rate or -events, plays the clock from -from for -to − -from seconds
// (default: the clip's length) at the rate asked, through loops and the
// events they fire.
func (a *App) Record(path string) error {
	c, opt := a.Char, a.opt
	play := opt.RateSet || opt.Rate != 0 || opt.Events || c.RootMotionOn()
	if opt.Rate != 0 {
		a.UI.CustomRate, a.UI.Reverse = float32(math.Abs(opt.Rate)), opt.Rate < 0
	}
	if opt.RateSet && opt.Rate == 0 {
		a.UI.Playing = false // -rate 0 holds the pose
	}
	from, to := ClampTime(float32(opt.From), c.Span()), float32(opt.To)
	if opt.To < 0 {
		to = from + c.Span()
	}
	if !play {
		to = ClampTime(to, c.Span())
	}
	fps := float64(opt.FPS)
	if fps == 0 {
		fps = float64(c.FPS())
	}
	n := int(math.Floor(float64(to-from)*fps+1e-4)) + 1
	kind, err := RecordOutput(path)
	if err != nil {
		return err
	}
	var add func(img *image.NRGBA, i int) error
	var finish func() error
	switch kind {
	case "gif":
		// A GIF loops: of the whole clip, a last frame at its end would
		// show its first pose twice (of a part of it, that frame is new).
		if !play && n > 1 && from == 0 && to == c.Span() && math.Abs(float64(to-from)*fps-float64(n-1)) < 1e-3 {
			n--
		}
		g, err := export.NewGIF(fps)
		if err != nil {
			return err
		}
		add = func(img *image.NRGBA, _ int) error { return g.Add(img) }
		finish = func() error {
			f, err := os.Create(path)
			if err != nil {
				return err
			}
			if err := g.Write(f); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		}
	case "video":
		v, err := export.NewVideo(path, fps)
		if err != nil {
			return err
		}
		add = func(img *image.NRGBA, _ int) error { return v.Add(img) }
		finish = v.Close
	default:
		add = func(img *image.NRGBA, i int) error {
			return WritePNG(filepath.Join(path, fmt.Sprintf("frame_%05d.png", i)), img)
		}
		finish = func() error { return nil }
	}
	a.UI.HUD = opt.HUD
	prog := NewProgress(os.Stderr, "recording "+filepath.Base(path), n)
	defer prog.Done()
	for i := 0; i < n; i++ {
		prog.Step(i)
		var err error
		switch {
		case play && i > 0:
			if err = a.Update(float32(1 / fps)); err == nil {
				err = a.Draw()
			}
		default:
			err = a.RenderAt(from + float32(float64(i)/fps))
		}
		if err != nil {
			return err
		}
		if err := add(a.View.Target.ReadImage(), i); err != nil { // a new image per frame
			return err
		}
	}
	if err := finish(); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%.3f s to %.3f s at %g fps) to %s\n", frames(n), from, to, fps, path)
	return nil
}

// RecordOutput is what -record writes to path, by its extension: "gif"
// (an animated GIF), "video" (through ffmpeg: .mp4, .mov, .mkv, .webm) or
// "png" (numbered PNG frames into a folder: a name without an extension,
// or a folder that exists). Any other extension is an error that names
// these, rather than a folder of PNGs called out.avi.
func RecordOutput(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".gif":
		return "gif", nil
	case ".mp4", ".mov", ".mkv", ".webm":
		return "video", nil
	case "":
		return "png", nil
	default:
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return "png", nil
		}
		return "", fmt.Errorf("-record %s: cannot write %s files; give out.gif (an animated GIF), out.mp4, .mov, .mkv or .webm (a video, through ffmpeg) or a folder name for PNG frames", path, ext)
	}
}

// Sheet writes one contact sheet of n evenly spaced frames of [from, to],
// each labelled with its time.
func (a *App) Sheet(path string) error {
	c, opt := a.Char, a.opt
	n := opt.Frames
	from, to := ClampTime(float32(opt.From), c.Span()), float32(opt.To)
	if opt.To < 0 {
		to = c.Span()
	}
	to = ClampTime(to, c.Span())
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	rows := (n + cols - 1) / cols
	out := image.NewNRGBA(image.Rect(0, 0, cols*opt.Width, rows*opt.Height))
	draw.Draw(out, out.Bounds(), image.NewUniform(a.View.Clear), image.Point{}, draw.Src)
	a.UI.HUD = false
	for i := 0; i < n; i++ {
		t := from
		if n > 1 {
			t = from + (to-from)*float32(i)/float32(n-1)
		}
		a.UI.Message = ""
		if err := a.RenderAt(t); err != nil {
			return err
		}
		h, err := a.View.Overlay(1)
		if err != nil {
			return err
		}
		label := fmt.Sprintf("%s  t = %.3f s", a.Char.ChoiceName(), t)
		if h.Measure(label)+16 > float32(opt.Width) {
			label = fmt.Sprintf("t = %.3f s", t) // a cell too narrow for the name keeps the time
		}
		h.Rect(4, 4, h.Measure(label)+8, h.LineHeight()+4, a.View.Clear)
		h.Text(8, 6, label, ui.TextColor)
		h.Flush(a.View.Target, a.View.W, a.View.H)
		img := a.View.Target.ReadImage()
		x, y := (i%cols)*opt.Width, (i/cols)*opt.Height
		draw.Draw(out, image.Rect(x, y, x+opt.Width, y+opt.Height), img, image.Point{}, draw.Src)
	}
	if err := WritePNG(path, out); err != nil {
		return err
	}
	fmt.Printf("wrote a contact sheet of %s (%.3f s to %.3f s) to %s\n", frames(n), from, to, path)
	return nil
}

// RenderAt draws the character with every clip at local time t, or the
// crowd with each member at t past its own offset.
func (a *App) RenderAt(t float32) error {
	if err := a.poseAt(t); err != nil {
		return err
	}
	return a.Draw()
}

// poseAt poses the character with every clip at local time t, the camera
// following where root motion carried it, or the crowd with each member
// at t past its own offset.
func (a *App) poseAt(t float32) error {
	if a.Crowd != nil {
		a.crowdCamera()
		a.Crowd.PoseAt(t)
		a.View.Items = a.Crowd.Items
		return nil
	}
	if err := a.View.PoseAt(t); err != nil {
		return err
	}
	a.followRoot()
	a.lookThrough()
	a.placeLights()
	return nil
}

// frames is "1 frame" or "n frames".
func frames(n int) string {
	if n == 1 {
		return "1 frame"
	}
	return fmt.Sprintf("%d frames", n)
}

// frameStats accumulates per-frame costs for -stats and the HUD.
type frameStats struct {
	frames       int
	anim, render time.Duration
	gpuMs        float64 // scene draws on the GPU, summed over the frames timed
	gpuFrames    int
	drawCalls    int
	shadowCalls  int
	partitions   int
	paletteBytes int
	joints       int
	vertices     int
	// A crowd's members at each update rate and out of view, summed over
	// the frames.
	crowd  bool
	lod    [3]int
	culled int
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
	fmt.Fprintf(w, "frames %d: animation %.3f ms/frame, render %.3f ms/frame (CPU), draw calls %d (+%d for the shadow), partitions %d, upload %d bytes/frame, joints %d, vertices %d\n",
		s.frames, float64(s.anim.Microseconds())/1000/n, float64(s.render.Microseconds())/1000/n,
		s.drawCalls, s.shadowCalls, s.partitions, s.paletteBytes, s.joints, s.vertices)
	if s.crowd {
		fmt.Fprintf(w, "crowd level of detail: %.1f members/frame updated every frame, %.1f every 2nd frame, %.1f every 4th; %.1f out of view\n",
			float64(s.lod[0])/n, float64(s.lod[1])/n, float64(s.lod[2])/n, float64(s.culled)/n)
	}
	if s.gpuFrames > 0 {
		fmt.Fprintf(w, "GPU: %.3f ms/frame drawing the scene (timer queries, %d frames)\n", s.gpuMs/float64(s.gpuFrames), s.gpuFrames)
	}
	fmt.Fprintf(w, "animation kernels: %s\n", anim.KernelPath())
}

// statsFrames is how many frames -stats renders offscreen unless told.
const statsFrames = 120

// Stats renders statsFrames frames, advancing 1/60 s each,
// and prints the averages. The render time includes glFinish so that it
// measures the frame, not only command submission.
func (a *App) Stats(w io.Writer, t float32) error {
	a.UI.HUD = false
	a.Seek(t)
	var st frameStats
	st.partitions, st.joints, st.vertices = a.View.Stats.Partitions, a.View.Stats.Joints, a.View.Stats.Vertices
	if a.Crowd != nil {
		st.joints *= a.Crowd.Len()
		st.partitions *= a.Crowd.Len()
	}
	frames := cmp.Or(a.opt.StatsFrames, statsFrames)
	prog := NewProgress(os.Stderr, "timing frames", frames)
	defer prog.Done()
	for i := 0; i < frames; i++ {
		prog.Step(i)
		start := time.Now()
		if err := a.Update(1.0 / 60); err != nil {
			return err
		}
		mid := time.Now()
		if err := a.Draw(); err != nil {
			return err
		}
		a.View.R.Finish()
		st.add(mid.Sub(start), time.Since(mid), a.View.R.DrawCalls, a.View.R.PaletteUsed+a.View.R.InstanceBytes())
		st.shadowCalls = a.View.R.ShadowCalls
		if a.Crowd != nil {
			st.crowd = true
			for k, c := range a.Crowd.Stats.Rate {
				st.lod[k] += c
			}
			st.culled += a.Crowd.Stats.Culled
		}
		if ms, ok := a.View.R.GPUMillis(); ok {
			st.gpuMs, st.gpuFrames = st.gpuMs+ms, st.gpuFrames+1
		}
	}
	st.print(w)
	return nil
}

// WritePNG writes img to path as PNG, making its folder.
func WritePNG(path string, img image.Image) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// DumpPose writes the pose of c at time t as -dump-pose does, to the file
// path or, for "-", to stdout; allNodes lists every node, not only joints.
func DumpPose(path string, c *character.Character, t float32, allNodes bool) error {
	if path == "-" {
		return c.DumpPose(os.Stdout, t, allNodes)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := c.DumpPose(f, t, allNodes); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
