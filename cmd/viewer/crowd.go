package main

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/skin"
)

// crowd is -crowd N: N copies of the character on a grid, each with its
// own controller, time offset and parameters, animated in parallel and
// drawn from the one uploaded set of meshes with their own palettes.
type crowd struct {
	members []member
	items   []render.DrawItem // every member's draw items, for one Draw
	scene   *gpuScene         // the uploaded meshes all members share
	workers int
	work    []chan float32 // per worker: the frame's dt
	done    sync.WaitGroup
	offsets []float32 // per member: time offset in seconds
}

// member is one character of the crowd.
type member struct {
	c      *character
	offset mgl32.Vec3 // grid position added to every palette entry
	pals   [][]float32
	t      float32 // clip browser: the member's own looping time
}

// newCrowd builds n characters of model m laid out around the first one's
// framing box, each starting at its own time and, when the spec has
// parameters, its own value of the first one.
func newCrowd(m *gltfload.Model, opt *options, first *character, s *gpuScene, n int) (*crowd, error) {
	if s.mode != skinGPU {
		return nil, fmt.Errorf("-crowd draws with -skinning gpu, not %s", s.mode)
	}
	cr := &crowd{scene: s, workers: max(runtime.GOMAXPROCS(0), 1)}
	lo, hi, ok := s.bounds(first)
	if !ok {
		lo, hi = mgl32.Vec3{-0.5, 0, -0.5}, mgl32.Vec3{0.5, 1, 0.5}
	}
	spacing := 1.3 * max(hi[0]-lo[0], hi[2]-lo[2], (hi[1]-lo[1])*0.4)
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	for i := 0; i < n; i++ {
		c := first
		if i > 0 {
			var err error
			if c, err = characterFor(m, opt); err != nil {
				return nil, err
			}
		}
		if ps := c.ctl.Params(); len(ps) > 0 && i > 0 {
			// A fixed spread, so every run shows the same crowd.
			f := float32(math.Mod(float64(i)*0.618034, 1))
			c.ctl.SetParamIndex(0, ps[0].Min+f*(ps[0].Max-ps[0].Min))
		}
		row, col := i/cols, i%cols
		mb := member{c: c, offset: mgl32.Vec3{(float32(col) - float32(cols-1)/2) * spacing, 0, -float32(row) * spacing}}
		for _, it := range s.items {
			p := make([]float32, len(it.Palette))
			mb.pals = append(mb.pals, p)
			it.Palette = p
			cr.items = append(cr.items, it)
		}
		cr.members = append(cr.members, mb)
		cr.offsets = append(cr.offsets, float32(math.Mod(float64(i)*0.377, float64(max(first.duration(), 1e-3)))))
	}
	for w := 0; w < cr.workers; w++ {
		ch := make(chan float32)
		cr.work = append(cr.work, ch)
		go cr.worker(w, ch)
	}
	return cr, nil
}

// worker animates members w, w+workers, … each time a dt arrives.
func (cr *crowd) worker(w int, frames chan float32) {
	for dt := range frames {
		for i := w; i < len(cr.members); i += cr.workers {
			cr.members[i].update(cr.scene, dt)
		}
		cr.done.Done()
	}
}

// update advances every member by dt on all workers and waits for them.
func (cr *crowd) update(dt float32) {
	cr.done.Add(cr.workers)
	for _, ch := range cr.work {
		ch <- dt
	}
	cr.done.Wait()
}

// poseAt puts every member at time t plus its offset (for screenshots).
func (cr *crowd) poseAt(t float32) {
	for i := range cr.members {
		cr.members[i].t = t + cr.offsets[i]
		cr.members[i].c.ctl.SetTime(cr.members[i].t)
	}
	cr.update(0)
}

// start spreads the members' clocks.
func (cr *crowd) start() { cr.poseAt(0) }

func (cr *crowd) close() {
	for _, ch := range cr.work {
		close(ch)
	}
}

// update poses one member and writes its palettes, moved to its place.
func (mb *member) update(s *gpuScene, dt float32) {
	c := mb.c
	c.ctl.Update(dt)
	if c.clipMode {
		// The clip browser plays its clips once; a crowd loops them.
		mb.t += dt
		if d := c.duration(); d > 0 {
			mb.t = float32(math.Mod(float64(mb.t), float64(d)))
		}
		c.ctl.SetTime(mb.t)
	}
	c.poseNow()
	for i := range s.draws {
		d := &s.draws[i]
		inst := c.model.Instances[d.instance]
		dst := mb.pals[i]
		switch {
		case d.joints != nil:
			skin.GatherPalette(dst, c.palettes[inst.Skin], d.joints)
		case d.gpu:
			copy(dst, c.palettes[inst.Skin])
		default:
			w := c.nodeWorld(inst.Node)
			anim.WritePaletteEntry(dst, &w)
		}
		// Moving the whole model adds the offset to each entry's
		// translation column: T·M for an affine M.
		for e := 0; e+anim.PaletteFloats <= len(dst); e += anim.PaletteFloats {
			dst[e+3] += mb.offset[0]
			dst[e+7] += mb.offset[1]
			dst[e+11] += mb.offset[2]
		}
	}
}

// bounds is the box around the whole grid in the members' current poses.
func (cr *crowd) bounds() (mgl32.Vec3, mgl32.Vec3, bool) {
	var lo, hi mgl32.Vec3
	found := false
	for i := range cr.members {
		mb := &cr.members[i]
		l, h, ok := cr.scene.bounds(mb.c)
		if !ok {
			continue
		}
		l, h = l.Add(mb.offset), h.Add(mb.offset)
		if !found {
			lo, hi, found = l, h, true
			continue
		}
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = min(lo[k], l[k]), max(hi[k], h[k])
		}
	}
	return lo, hi, found
}
