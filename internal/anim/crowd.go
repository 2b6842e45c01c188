package anim

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// Crowd evaluates many characters that share a skeleton, a skin and a set
// of runtime clips, on several goroutines. Each character loops every clip
// on its own clock and blends the clips with its own weights; a frame
// (Evaluate) advances the clocks, samples, blends, and writes each
// character's palette with the fast pipeline (SampleSoAJob, BlendSoA,
// ModelPaletteJob). Characters are handed to a fixed pool of worker
// goroutines in small chunks, so a slow core does not hold up the frame;
// after the first frame with a given worker count Evaluate allocates
// nothing. A Crowd is not safe for concurrent use; Close stops its
// workers.
type Crowd struct {
	// Nlerp interpolates and blends rotations with Nlerp instead of the
	// polynomial slerp (see SampleSoAJob.Nlerp). Set it between frames.
	Nlerp bool

	sk      *Skeleton
	skin    *Skin
	clips   []*RuntimeClip
	n       int       // characters
	times   []float32 // clip-local time per character and clip, seconds
	weights []float32 // blend weight per character and clip
	cursors []int32   // key cursors per character and clip
	pal     []float32 // palettes, PaletteFloats·len(skin.Joints) per character

	scratch []*crowdScratch // per worker; [0] is the caller's

	// The pool: worker w > 0 waits on wake[w-1] and calls done.Done after
	// each frame.
	wake   []chan struct{}
	done   sync.WaitGroup
	next   atomic.Int64 // next character to hand out this frame
	dt     float32
	closed bool
}

// crowdScratch is one worker's buffers, sized once.
type crowdScratch struct {
	poses  []*SoAPose // one per clip
	models []float32
	sample SampleSoAJob
	mp     ModelPaletteJob
}

// crowdChunk is the number of characters a worker takes at a time: enough
// to make the atomic hand-out negligible, few enough to balance two cores.
const crowdChunk = 8

// NewCrowd returns n characters at time 0 with all the weight on clip 0.
// Every clip must be built for sk; the skin must index sk.
func NewCrowd(sk *Skeleton, skin *Skin, clips []*RuntimeClip, n int) (*Crowd, error) {
	if sk == nil {
		return nil, errNilSkeleton
	}
	if err := sk.Validate(); err != nil {
		return nil, err
	}
	if skin == nil {
		return nil, errors.New("anim: crowd without skin")
	}
	if err := skin.Validate(sk); err != nil {
		return nil, err
	}
	if len(clips) == 0 {
		return nil, errors.New("anim: crowd without clips")
	}
	for i, c := range clips {
		if c == nil || c.NumJoints() != sk.NumJoints() {
			return nil, fmt.Errorf("anim: crowd clip %d is not built for a skeleton of %d joints", i, sk.NumJoints())
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("anim: crowd of %d characters", n)
	}
	k := len(clips)
	c := &Crowd{
		sk: sk, skin: skin, clips: clips, n: n,
		times:   make([]float32, n*k),
		weights: make([]float32, n*k),
		cursors: make([]int32, n*k*clips[0].NumCursors()),
		pal:     make([]float32, n*PaletteFloats*len(skin.Joints)),
	}
	for i := range n {
		c.weights[i*k] = 1
	}
	c.scratch = []*crowdScratch{c.newScratch()}
	return c, nil
}

func (c *Crowd) newScratch() *crowdScratch {
	nj := c.sk.NumJoints()
	s := &crowdScratch{models: make([]float32, PaletteFloats*nj)}
	for range c.clips {
		s.poses = append(s.poses, NewSoAPose(nj))
	}
	s.mp = ModelPaletteJob{Skeleton: c.sk, Skin: c.skin, Models: s.models}
	return s
}

// Len is the number of characters.
func (c *Crowd) Len() int { return c.n }

// SetTime puts character i at time t seconds in every clip (each clip
// wraps t to its own duration).
func (c *Crowd) SetTime(i int, t float32) {
	k := len(c.clips)
	for j, clip := range c.clips {
		c.times[i*k+j] = wrapTime(t, clip.Duration())
	}
}

// SetWeight sets character i's blend weight of clip j; negative weights
// count as 0, and a character whose weights are all 0 holds the rest
// pose.
func (c *Crowd) SetWeight(i, j int, w float32) {
	_ = c.weights[i*len(c.clips)+j] // i or j out of range panics here
	c.weights[i*len(c.clips)+j] = w
}

// Palette is character i's palette from the last Evaluate: PaletteFloats
// floats per skin joint in PaletteJob's layout. The slice belongs to the
// crowd and is rewritten by the next Evaluate.
func (c *Crowd) Palette(i int) []float32 {
	size := PaletteFloats * len(c.skin.Joints)
	return c.pal[i*size : (i+1)*size : (i+1)*size]
}

// Evaluate advances every character by dt seconds (negative or NaN counts
// as 0) and writes every palette, on workers goroutines: the caller's and
// workers−1 from the pool (started at the first call that needs them);
// workers ≤ 0 means runtime.GOMAXPROCS(0).
func (c *Crowd) Evaluate(dt float32, workers int) {
	if c.closed {
		panic("anim: Evaluate on a closed Crowd")
	}
	if !(dt > 0) {
		dt = 0
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, (c.n+crowdChunk-1)/crowdChunk))
	c.grow(workers)
	c.dt = dt
	c.next.Store(0)
	c.done.Add(workers - 1)
	for w := 1; w < workers; w++ {
		c.wake[w-1] <- struct{}{}
	}
	c.work(0)
	c.done.Wait()
}

// grow starts pool workers until there are workers−1 of them.
func (c *Crowd) grow(workers int) {
	for len(c.scratch) < workers {
		w := len(c.scratch)
		c.scratch = append(c.scratch, c.newScratch())
		wake := make(chan struct{})
		c.wake = append(c.wake, wake)
		go func() {
			for range wake {
				c.work(w)
				c.done.Done()
			}
		}()
	}
}

// Close stops the worker goroutines. The crowd cannot be evaluated after.
func (c *Crowd) Close() {
	if c.closed {
		return
	}
	c.closed = true
	for _, w := range c.wake {
		close(w)
	}
	c.wake = nil
}

// work evaluates chunks of characters until none is left.
func (c *Crowd) work(w int) {
	s := c.scratch[w]
	for {
		first := int(c.next.Add(crowdChunk)) - crowdChunk
		if first >= c.n {
			return
		}
		for i := first; i < min(first+crowdChunk, c.n); i++ {
			c.evaluate(i, s)
		}
	}
}

// evaluate runs one character's frame.
func (c *Crowd) evaluate(i int, s *crowdScratch) {
	k := len(c.clips)
	times, weights := c.times[i*k:i*k+k], c.weights[i*k:i*k+k]
	var total float32
	active, first, second := 0, -1, -1
	for j, clip := range c.clips {
		times[j] = wrapTime(times[j]+c.dt, clip.Duration())
		if w := weights[j]; w > 0 {
			total += w
			switch active {
			case 0:
				first = j
			case 1:
				second = j
			}
			active++
		}
	}
	pose := s.poses[0]
	switch active {
	case 0:
		pose.restFrom(c.sk.Rest)
	case 1:
		c.sample(s, i, first, pose)
	case 2:
		c.sample(s, i, first, pose)
		c.sample(s, i, second, s.poses[1])
		BlendSoA(pose, pose, s.poses[1], weights[second]/total, c.Nlerp)
	default:
		for j := range c.clips {
			if weights[j] > 0 {
				c.sample(s, i, j, s.poses[j])
			}
		}
		averageSoA(pose, s.poses, weights, first)
	}
	s.mp.Input = pose
	size := PaletteFloats * len(c.skin.Joints)
	s.mp.Output = c.pal[i*size : (i+1)*size]
	s.mp.Run()
}

// sample samples clip j of character i into out.
func (c *Crowd) sample(s *crowdScratch, i, j int, out *SoAPose) {
	k, nc := len(c.clips), c.clips[0].NumCursors()
	s.sample = SampleSoAJob{Clip: c.clips[j], Time: c.times[i*k+j], Nlerp: c.Nlerp,
		Cursors: c.cursors[(i*k+j)*nc : (i*k+j+1)*nc], Output: out}
	s.sample.Run()
}

// wrapTime puts t in [0, d) for a looping clip of duration d > 0; 0 for
// none.
func wrapTime(t, d float32) float32 {
	if !(d > 0) || t != t {
		return 0
	}
	if t >= d || t < 0 {
		t = float32(posMod(float64(t), float64(d)))
		if t >= d { // rounding of a tiny negative t
			t = 0
		}
	}
	return t
}

// restFrom sets every joint to rest[i].
func (p *SoAPose) restFrom(rest []Transform) {
	for i := range rest {
		p.Set(i, rest[i])
	}
}

// averageSoA is WeightedAveragePose on SoA poses, for three or more
// active clips: poses[j] with weights[j] > 0 (first is the first of them)
// are averaged into out, which is poses[first].
func averageSoA(out *SoAPose, poses []*SoAPose, weights []float32, first int) {
	n := out.n
	src := poses[first]
	w0 := weights[first]
	total := w0
	for i := range n {
		out.tx[i], out.ty[i], out.tz[i] = src.tx[i]*w0, src.ty[i]*w0, src.tz[i]*w0
		out.sx[i], out.sy[i], out.sz[i] = src.sx[i]*w0, src.sy[i]*w0, src.sz[i]*w0
		out.qx[i], out.qy[i], out.qz[i], out.qw[i] = src.qx[i]*w0, src.qy[i]*w0, src.qz[i]*w0, src.qw[i]*w0
	}
	for j := first + 1; j < len(poses); j++ {
		w := weights[j]
		if !(w > 0) {
			continue
		}
		total += w
		p := poses[j]
		for i := range n {
			out.tx[i] += p.tx[i] * w
			out.ty[i] += p.ty[i] * w
			out.tz[i] += p.tz[i] * w
			out.sx[i] += p.sx[i] * w
			out.sy[i] += p.sy[i] * w
			out.sz[i] += p.sz[i] * w
			qw := w
			if out.qx[i]*p.qx[i]+out.qy[i]*p.qy[i]+out.qz[i]*p.qz[i]+out.qw[i]*p.qw[i] < 0 {
				qw = -w // q and −q are one rotation: add the one on our side
			}
			out.qx[i] += p.qx[i] * qw
			out.qy[i] += p.qy[i] * qw
			out.qz[i] += p.qz[i] * qw
			out.qw[i] += p.qw[i] * qw
		}
	}
	inv := 1 / total
	for i := range n {
		out.tx[i], out.ty[i], out.tz[i] = out.tx[i]*inv, out.ty[i]*inv, out.tz[i]*inv
		out.sx[i], out.sy[i], out.sz[i] = out.sx[i]*inv, out.sy[i]*inv, out.sz[i]*inv
		out.qx[i], out.qy[i], out.qz[i], out.qw[i] = normQ(out.qx[i], out.qy[i], out.qz[i], out.qw[i])
	}
}
