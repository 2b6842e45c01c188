package graph

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/skinview/skinview/internal/anim"
)

// Crowd evaluates many characters that share a skeleton and its skins,
// each driven by a Controller of its own (its own spec state, clocks and
// parameters), on several goroutines. A frame (Evaluate) updates every
// controller, evaluates its pose and writes its model matrices and
// palettes with ModelPaletteJob, the same engine a single character runs.
// Characters are handed to a fixed pool of worker goroutines in small
// chunks, so a slow core does not hold up the frame; after the first frame
// with a given worker count Evaluate allocates nothing. A Crowd is not safe
// for concurrent use; Close stops its workers.
type Crowd struct {
	sk    *anim.Skeleton
	skins []anim.Skin
	ctls  []*Controller
	// models holds PaletteFloats·joints floats per character once
	// KeepModels is called (nil before: each worker computes them in its
	// scratch); pals[s] holds skin s's palettes,
	// PaletteFloats·len(skins[s].Joints) floats per character.
	models []float32
	pals   [][]float32
	// weights holds the morph weights, len(sk.MorphRest) per character.
	weights []float32
	// hold[i] keeps character i's pose, palettes and weights from its
	// last evaluation; owed[i] is the time its controller has not yet
	// been advanced by while held (Hold).
	hold []bool
	owed []float32
	// shared[i]: character i's controller is driven from outside too
	// (Share), so a hold still advances it every frame.
	shared []bool

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
	pose *anim.SoAPose
	// stack stands in for each controller's scratch poses while the
	// worker evaluates it (as deep as the deepest controller's): the
	// poses a blend tree fills and reads within a frame then stay in the
	// worker's cache, not one set per character.
	stack  []*anim.SoAPose
	models []float32 // the character's model matrices, unless kept
	mp     anim.ModelPaletteJob
	pjs    []anim.PaletteJob // the second and later skins', kept as mp is
}

// crowdChunk is the number of characters a worker takes at a time: enough
// to make the atomic hand-out negligible, few enough to balance two cores.
const crowdChunk = 8

// NewCrowd returns a crowd of one character per controller. Every
// controller must be built for sk; every skin must index sk. The crowd
// keeps the controllers: change their parameters and requests between
// frames through Controller.
func NewCrowd(sk *anim.Skeleton, skins []anim.Skin, ctls []*Controller) (*Crowd, error) {
	if sk == nil {
		return nil, errNilSkeleton
	}
	if err := sk.Validate(); err != nil {
		return nil, err
	}
	for i := range skins {
		if err := skins[i].Validate(sk); err != nil {
			return nil, err
		}
	}
	seen := make(map[*Controller]int, len(ctls))
	for i, ctl := range ctls {
		if ctl == nil || ctl.sk != sk {
			return nil, fmt.Errorf("anim: crowd controller %d is not built for the crowd's skeleton", i)
		}
		if k, ok := seen[ctl]; ok {
			// Two workers would run it at once.
			return nil, fmt.Errorf("anim: crowd controllers %d and %d are one controller", k, i)
		}
		seen[ctl] = i
	}
	n := len(ctls)
	c := &Crowd{sk: sk, skins: skins, ctls: ctls, weights: make([]float32, n*len(sk.MorphRest)), hold: make([]bool, n), owed: make([]float32, n), shared: make([]bool, n)}
	for i := range skins {
		c.pals = append(c.pals, make([]float32, n*anim.PaletteFloats*len(skins[i].Joints)))
	}
	c.scratch = []*crowdScratch{c.newScratch()}
	return c, nil
}

func (c *Crowd) newScratch() *crowdScratch {
	s := &crowdScratch{pose: anim.NewPose(c.sk), models: make([]float32, anim.PaletteFloats*c.sk.NumJoints())}
	s.mp = anim.ModelPaletteJob{Skeleton: c.sk, Input: s.pose}
	if len(c.skins) > 1 {
		s.pjs = make([]anim.PaletteJob, len(c.skins)-1)
	}
	for _, ctl := range c.ctls {
		for len(s.stack) < len(ctl.ctx.stack) {
			s.stack = append(s.stack, anim.NewPose(c.sk))
		}
	}
	return s
}

// KeepModels makes Evaluate keep every character's model matrices, for
// Models (a model's rigid, unskinned meshes follow them). Without it a
// frame writes palettes and morph weights only: half the memory a frame
// touches. Call it before the first Evaluate.
func (c *Crowd) KeepModels() {
	if c.models == nil {
		c.models = make([]float32, len(c.ctls)*anim.PaletteFloats*c.sk.NumJoints())
	}
}

// Hold makes the next Evaluates skip character i: its palettes, model
// matrices and weights stay those of the last frame it was evaluated in,
// and its controller (clock, states, transitions) is not touched; the
// time those frames pass is owed to it and given in one step when it is
// next evaluated, or when Controller hands it out. Level of detail and
// culling hold the characters that are small on screen or out of view: a
// held character costs a flag and an addition a frame, and its first
// evaluation after shows it where its clock has got to (its events then
// fire, late by the frames it was held).
func (c *Crowd) Hold(i int, hold bool) { c.hold[i] = hold }

// Share says that character i's controller is also read and set from
// outside the crowd (a timeline, keys): a Hold keeps its pose but still
// advances its controller every frame, so that what is read is current
// and a time set on it is not moved by time owed.
func (c *Crowd) Share(i int) { c.shared[i] = true }

// Len is the number of characters.
func (c *Crowd) Len() int { return len(c.ctls) }

// Controller is character i's controller, first advanced by the time a
// Hold owes it, so that what it says and what is set on it (a time, a
// speed) hold from now on.
func (c *Crowd) Controller(i int) *Controller {
	if c.owed[i] != 0 {
		c.ctls[i].Update(c.owed[i])
		c.owed[i] = 0
	}
	return c.ctls[i]
}

// Models is character i's model matrices from the last Evaluate, in
// ModelPaletteJob.Models' layout, once KeepModels was called (nil
// before). The slice belongs to the crowd and is rewritten by the next
// Evaluate.
func (c *Crowd) Models(i int) []float32 {
	if c.models == nil {
		return nil
	}
	size := anim.PaletteFloats * c.sk.NumJoints()
	return c.models[i*size : (i+1)*size : (i+1)*size]
}

// Weights is character i's morph weights from the last Evaluate, in
// Skeleton.MorphRest's order. The slice belongs to the crowd and is
// rewritten by the next Evaluate.
func (c *Crowd) Weights(i int) []float32 {
	size := len(c.sk.MorphRest)
	return c.weights[i*size : (i+1)*size : (i+1)*size]
}

// Palette is character i's palette of skin s from the last Evaluate:
// PaletteFloats floats per skin joint in ModelPaletteJob.Output's layout.
// The slice belongs to the crowd and is rewritten by the next Evaluate.
func (c *Crowd) Palette(i, s int) []float32 {
	size := anim.PaletteFloats * len(c.skins[s].Joints)
	return c.pals[s][i*size : (i+1)*size : (i+1)*size]
}

// PaletteRun is the palettes of skin s of characters first to
// first+n−1 from the last Evaluate, one after another in one slice (each
// as Palette gives it). The slice belongs to the crowd and is rewritten by
// the next Evaluate.
func (c *Crowd) PaletteRun(first, n, s int) []float32 {
	size := anim.PaletteFloats * len(c.skins[s].Joints)
	return c.pals[s][first*size : (first+n)*size : (first+n)*size]
}

// Evaluate advances every character by dt seconds (negative or NaN counts
// as 0) and writes every palette, on workers goroutines: the caller's and
// workers−1 from the pool (started at the first call that needs them);
// workers ≤ 0 means runtime.GOMAXPROCS(0), and a frame uses at most one
// worker per crowdChunk characters.
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
	workers = max(1, min(workers, (len(c.ctls)+crowdChunk-1)/crowdChunk))
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
	n := len(c.ctls)
	for {
		first := int(c.next.Add(crowdChunk)) - crowdChunk
		if first >= n {
			return
		}
		for i := first; i < min(first+crowdChunk, n); i++ {
			c.evaluate(i, s)
		}
	}
}

// evaluate runs one character's frame.
func (c *Crowd) evaluate(i int, s *crowdScratch) {
	ctl := c.ctls[i]
	switch {
	case c.hold[i] && c.shared[i]:
		ctl.Update(c.dt)
		return
	case c.hold[i]:
		c.owed[i] += c.dt
		return
	}
	ctl.Update(c.owed[i] + c.dt)
	c.owed[i] = 0
	own := ctl.ctx.stack
	ctl.ctx.stack = s.stack[:len(own)]
	ctl.Evaluate(s.pose)
	ctl.ctx.stack = own
	copy(c.Weights(i), s.pose.W)
	s.mp.Models = s.models
	if c.models != nil {
		s.mp.Models = c.Models(i)
	}
	s.mp.Skin, s.mp.Output = nil, nil
	if len(c.skins) > 0 {
		s.mp.Skin, s.mp.Output = &c.skins[0], c.Palette(i, 0)
	}
	s.mp.Run()
	for k := 1; k < len(c.skins); k++ {
		pj := &s.pjs[k-1]
		pj.Skin, pj.Models, pj.Output = &c.skins[k], s.mp.Models, c.Palette(i, k)
		pj.Run()
	}
}
