package scene

import (
	"fmt"
	"math"
	"runtime"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/skin"
)

// Crowd is -crowd N: N copies of the character on a grid, each with its
// own controller, time offset and parameters, animated by graph.Crowd on
// all cores and drawn from the one uploaded set of meshes. By default each
// mesh draws every member in one instanced call (each member's palette,
// offset and morph weights in one upload a frame); members far away update
// their pose less often, and members out of view neither update nor draw.
type Crowd struct {
	anim    *graph.Crowd
	model   *gltfload.Model
	members []member
	// Items are the draws of the frame: one instanced item per mesh, or
	// every visible member's own items (CrowdOptions.Members). They are
	// rebuilt by Update and PoseAt and never nil.
	Items   []render.DrawItem
	scene   *GPU // the uploaded meshes all members share
	workers int
	offsets []float32 // per member: time offset in seconds
	opt     CrowdOptions
	// inst[k] is draw k's instanced item, drawing members of batch[k];
	// pal[k] gathers a member's palette of draw k. mirror[k] says
	// whether draw k's node mirrors its mesh in the first character's
	// pose when the crowd was made: the winding of members whose model
	// matrices the crowd does not keep.
	inst    []render.DrawItem
	mirror  []bool
	batch   []*render.InstanceBatch
	pal     [][]float32
	visible []int32 // members drawn this frame, in order
	fresh   []int32 // members evaluated this frame
	inView  []bool  // members drawn last frame
	frame   int
	cam     render.Camera
	aspect  float32
	haveCam bool
	// speed and paused were last set on every member; set says they were.
	speed       float32
	paused, set bool
	radius      float32    // of a member's framing box
	centre      mgl32.Vec3 // of member 0's framing box, before its offset
	height      float32    // of a member's framing box
	Stats       CrowdStats
}

// CrowdOptions are how a crowd is drawn and updated.
type CrowdOptions struct {
	// BoxLo, BoxHi bound one member over its clip (the view's framing
	// box): culling and level of detail measure it.
	BoxLo, BoxHi mgl32.Vec3
	// Members draws each member with draw calls of its own instead of one
	// instanced call per mesh: the same pictures, for comparison.
	Members bool
	// NoLOD updates every member in view every frame.
	NoLOD bool
}

// CrowdStats is what the last frame did with the members: how many were
// updated at each rate (every frame, every 2nd, every 4th) and how many
// were out of view.
type CrowdStats struct {
	Rate   [3]int
	Culled int
}

// lodRates are the update rates of the level-of-detail bands: every
// frame, every 2nd, every 4th.
var lodRates = [3]int{1, 2, 4}

// lodBand is the band of a member whose framing box is share of the
// frame's height tall: an eighth of the frame or more updates every
// frame, a twentieth or more every 2nd, smaller every 4th.
func lodBand(share float32) int {
	switch {
	case share >= 1.0/8:
		return 0
	case share >= 1.0/20:
		return 1
	}
	return 2
}

// member is where one character of the crowd stands and what it draws.
type member struct {
	offset  mgl32.Vec3 // grid position added to every palette entry
	pals    [][]float32
	items   []render.DrawItem // its own draws (CrowdOptions.Members)
	weights []float32         // its morph weights, which its draws read
}

// NewCrowd builds n characters of model m laid out around the first one's
// framing box, each starting at its own time and, when the spec has
// parameters, its own value of the first one. Member 0 is first: its
// controller is the one the HUD shows. In the clip browser every member
// loops its clip on its own clock.
func NewCrowd(r *render.Renderer, m *gltfload.Model, fade float32, first *character.Character, s *GPU, n int, opt CrowdOptions) (*Crowd, error) {
	if s.mode != SkinGPU {
		return nil, fmt.Errorf("-crowd draws with -skinning gpu, not %s", s.mode)
	}
	cr := &Crowd{model: m, scene: s, workers: max(runtime.GOMAXPROCS(0), 1), opt: opt}
	lo, hi, ok := s.Bounds(first)
	if !ok {
		lo, hi = mgl32.Vec3{-0.5, 0, -0.5}, mgl32.Vec3{0.5, 1, 0.5}
	}
	if opt.BoxLo == opt.BoxHi {
		opt.BoxLo, opt.BoxHi = lo, hi
	}
	cr.centre = opt.BoxLo.Add(opt.BoxHi).Mul(0.5)
	cr.radius = opt.BoxHi.Sub(opt.BoxLo).Len() / 2
	cr.height = max(opt.BoxHi[1]-opt.BoxLo[1], cr.radius*0.5)
	spec := first.Spec
	if first.ClipMode {
		spec = character.ClipSpec(m, first.Clip, fade, anim.Loop)
	}
	clips, err := first.SharedClips()
	if err != nil {
		return nil, err
	}
	ctls := make([]*graph.Controller, n)
	spacing := 1.3 * max(hi[0]-lo[0], hi[2]-lo[2], (hi[1]-lo[1])*0.4)
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	for i := range n {
		ctl, err := graph.NewControllerRuntime(spec, &m.Skeleton, clips)
		if err != nil {
			return nil, err
		}
		if ps := ctl.Params(); len(ps) > 0 {
			if i == 0 {
				for k, p := range first.Ctl.Params() {
					ctl.SetParamIndex(k, p.Value)
				}
			} else {
				// A fixed spread, so every run shows the same crowd.
				f := float32(math.Mod(float64(i)*0.618034, 1))
				ctl.SetParamIndex(0, ps[0].Min+f*(ps[0].Max-ps[0].Min))
			}
		}
		ctls[i] = ctl
		row, col := i/cols, i%cols
		mb := member{offset: mgl32.Vec3{(float32(col) - float32(cols-1)/2) * spacing, 0, -float32(row) * spacing}}
		if opt.Members {
			mb.weights = make([]float32, len(m.Skeleton.MorphRest))
			for k, it := range s.items {
				p := make([]float32, len(it.Palette))
				mb.pals = append(mb.pals, p)
				it.Palette = p
				if it.Morph != nil {
					// The member's own weights of the draw's node.
					c := m.NodeMorph[m.Instances[s.draws[k].instance].Node]
					it.Morph = mb.weights[c : c+len(it.Morph)]
				}
				mb.items = append(mb.items, it)
			}
		}
		cr.members = append(cr.members, mb)
		cr.offsets = append(cr.offsets, float32(math.Mod(float64(i)*0.377, float64(max(first.Span(), 1e-3)))))
	}
	if !opt.Members {
		for _, it := range s.items {
			b, err := r.NewInstanceBatch(n, len(it.Palette)/anim.PaletteFloats, len(it.Morph))
			if err != nil {
				cr.destroyBatches()
				return nil, err
			}
			for i := range n {
				// Offsets never change; a member's palette and weights
				// come with each evaluation.
				b.SetExtras(i, cr.members[i].offset, nil)
			}
			cr.batch = append(cr.batch, b)
			cr.pal = append(cr.pal, make([]float32, len(it.Palette)))
			it.Palette, it.Morph = nil, nil
			cr.inst = append(cr.inst, it)
		}
	}
	for k := range s.draws {
		cr.mirror = append(cr.mirror, mirrored(first.NodeWorld(m.Instances[s.draws[k].instance].Node)))
	}
	cr.Items = make([]render.DrawItem, 0, max(len(s.items)*n, 1))
	cr.visible = make([]int32, 0, n)
	cr.fresh = make([]int32, 0, n)
	cr.inView = make([]bool, n)
	if cr.anim, err = graph.NewCrowd(&m.Skeleton, m.Skins, ctls); err != nil {
		cr.destroyBatches()
		return nil, err
	}
	for k := range s.draws {
		if d := &s.draws[k]; d.joints == nil && !d.gpu {
			cr.anim.KeepModels() // a rigid mesh follows its node's model matrix (place)
			break
		}
	}
	// The HUD and the keys drive member 0. A crowd's clip browser has no
	// blend of clips (each member plays its own clip).
	first.UseController(ctls[0], spec)
	cr.anim.Share(0)
	return cr, nil
}

// Len is the number of characters in the crowd.
func (cr *Crowd) Len() int { return len(cr.members) }

// SetCamera is the camera the next frames are drawn with, at the
// viewport's aspect ratio: culling and level of detail measure the
// members against it. Without one every member updates and draws.
func (cr *Crowd) SetCamera(cam render.Camera, aspect float32) {
	cr.cam, cr.aspect, cr.haveCam = cam, aspect, true
}

// Update advances every member by dt seconds of wall time at the given
// speed (or paused), evaluates the members in view whose turn it is, and
// rebuilds the draws.
func (cr *Crowd) Update(dt, speed float32, paused bool) {
	// Set only when changed: handing out a held member's controller
	// advances it by the time it is owed.
	if !cr.set || speed != cr.speed || paused != cr.paused {
		for i := range cr.members {
			ctl := cr.anim.Controller(i)
			ctl.SetSpeed(speed)
			ctl.SetPaused(paused)
		}
		cr.speed, cr.paused, cr.set = speed, paused, true
	}
	cr.frame++
	cr.schedule(!cr.opt.NoLOD)
	cr.anim.Evaluate(dt, cr.workers)
	cr.build()
}

// PoseAt puts every member at time t plus its offset (for screenshots):
// every member in view is evaluated.
func (cr *Crowd) PoseAt(t float32) {
	for i := range cr.members {
		cr.anim.Controller(i).SetTime(t + cr.offsets[i])
	}
	cr.schedule(false)
	cr.anim.Evaluate(0, cr.workers)
	cr.build()
}

// schedule decides which members this frame evaluates and draws: those
// out of the camera's view neither; of the others, those that were out of
// view last frame and, with lod, those whose band's rate comes round this
// frame (members of a band take turns lodRun neighbours at a time, so each
// frame evaluates about the same number and their records upload in
// runs), without lod, all.
func (cr *Crowd) schedule(lod bool) {
	cr.Stats = CrowdStats{}
	cr.visible, cr.fresh = cr.visible[:0], cr.fresh[:0]
	var planes [6]mgl32.Vec4
	var eye mgl32.Vec3
	var tanHalf float32
	if cr.haveCam {
		planes = frustumPlanes(cr.cam.Proj(cr.aspect).Mul4(cr.cam.View()))
		eye = cr.cam.Eye()
		tanHalf = float32(math.Tan(float64(cr.cam.FovY) / 2))
	}
	for i := range cr.members {
		c := cr.centre.Add(cr.members[i].offset)
		if cr.haveCam && !sphereInside(planes, c, cr.radius) {
			cr.Stats.Culled++
			cr.anim.Hold(i, true)
			cr.inView[i] = false
			continue
		}
		cr.visible = append(cr.visible, int32(i))
		band := 0
		if lod && cr.haveCam && !cr.cam.Ortho && !cr.cam.Placed {
			band = lodBand(cr.height / (2 * tanHalf * max(c.Sub(eye).Len(), 1e-6)))
		}
		cr.Stats.Rate[band]++
		fresh := !cr.inView[i] || (cr.frame+i/lodRun)%lodRates[band] == 0
		cr.inView[i] = true
		cr.anim.Hold(i, !fresh)
		if fresh {
			cr.fresh = append(cr.fresh, int32(i))
		}
	}
}

// lodRun is how many neighbouring members of a band take their turn
// together.
const lodRun = 16

// frustumPlanes are the six planes (a, b, c, d; inside where
// a·x + b·y + c·z + d ≥ 0) of the view-projection matrix vp, from its
// rows (Gribb and Hartmann): left, right, bottom, top, near, far; each
// scaled to a unit normal, so that a·x + b·y + c·z + d is a distance (a
// degenerate plane, all zero, has every point on it).
func frustumPlanes(vp mgl32.Mat4) [6]mgl32.Vec4 {
	r0, r1, r2, r3 := vp.Row(0), vp.Row(1), vp.Row(2), vp.Row(3)
	planes := [6]mgl32.Vec4{r3.Add(r0), r3.Sub(r0), r3.Add(r1), r3.Sub(r1), r3.Add(r2), r3.Sub(r2)}
	for i, p := range planes {
		if l := p.Vec3().Len(); l > 0 {
			planes[i] = p.Mul(1 / l)
		} else {
			planes[i] = mgl32.Vec4{}
		}
	}
	return planes
}

// sphereInside says whether the sphere about c of radius r reaches inside
// every plane of frustumPlanes.
func sphereInside(planes [6]mgl32.Vec4, c mgl32.Vec3, r float32) bool {
	for _, p := range planes {
		if p[0]*c[0]+p[1]*c[1]+p[2]*c[2]+p[3] < -r {
			return false
		}
	}
	return true
}

// SetLoopMode sets every member's loop mode.
func (cr *Crowd) SetLoopMode(m anim.LoopMode) {
	for i := range cr.members {
		cr.anim.Controller(i).SetLoopMode(m)
	}
}

// Start spreads the members' clocks.
func (cr *Crowd) Start() { cr.PoseAt(0) }

// Close stops the crowd's workers and frees its instance batches.
func (cr *Crowd) Close() {
	cr.anim.Close()
	cr.destroyBatches()
}

func (cr *Crowd) destroyBatches() {
	for _, b := range cr.batch {
		b.Destroy()
	}
	cr.batch = nil
}

// build writes the draws of the visible members: the records of those
// evaluated this frame into the batches (a held member's record stays as
// it was), or in CrowdOptions.Members each member's own palettes.
func (cr *Crowd) build() {
	cr.Items = cr.Items[:0]
	if cr.opt.Members {
		for _, i := range cr.visible {
			mb := &cr.members[i]
			for k := range mb.pals {
				cr.palette(mb.pals[k], int(i), k)
				moveEntries(mb.pals[k], mb.offset)
			}
			copy(mb.weights, cr.anim.Weights(int(i)))
			for k := range mb.items {
				mb.items[k].Mirrored = cr.mirrored(int(i), k)
			}
			cr.Items = append(cr.Items, mb.items...)
		}
		return
	}
	for k := range cr.inst {
		d := &cr.scene.draws[k]
		b := cr.batch[k]
		morph := len(cr.scene.items[k].Morph)
		node := cr.model.NodeMorph[cr.model.Instances[d.instance].Node]
		if d.gpu && d.joints == nil {
			// The whole skin's palettes, as the crowd keeps them: each run
			// of neighbours evaluated goes up straight from its memory.
			skin := cr.model.Instances[d.instance].Skin
			for f := 0; f < len(cr.fresh); {
				e := f + 1
				for e < len(cr.fresh) && cr.fresh[e] == cr.fresh[e-1]+1 {
					e++
				}
				b.SetPalettes(int(cr.fresh[f]), cr.anim.PaletteRun(int(cr.fresh[f]), e-f, skin))
				f = e
			}
			if morph > 0 {
				for _, i := range cr.fresh {
					b.SetExtras(int(i), cr.members[i].offset, cr.anim.Weights(int(i))[node:node+morph])
				}
			}
		} else {
			for _, i := range cr.fresh {
				cr.palette(cr.pal[k], int(i), k)
				var w []float32
				if morph > 0 {
					w = cr.anim.Weights(int(i))[node : node+morph]
				}
				b.Set(int(i), cr.pal[k], cr.members[i].offset, w)
			}
		}
		if len(cr.visible) == 0 {
			continue
		}
		it := cr.inst[k]
		it.Instances, it.Members, it.Batch = len(cr.visible), cr.visible, cr.batch[k]
		// One call draws every member with one winding: the first's.
		it.Mirrored = cr.mirrored(int(cr.visible[0]), k)
		cr.Items = append(cr.Items, it)
	}
}

// mirrored reports whether member i's pose mirrors the mesh of draw k
// (see mirrored), where the crowd keeps its model matrices, else whether
// the first character's did when the crowd was made.
func (cr *Crowd) mirrored(i, k int) bool {
	models := cr.anim.Models(i)
	if models == nil {
		return cr.mirror[k]
	}
	inst := cr.model.Instances[cr.scene.draws[k].instance]
	return mirrored(anim.ModelMat4(models, cr.model.JointOfNode[inst.Node]))
}

// palette writes member i's palette of draw k into dst, from its pose,
// where the character stands (no crowd offset).
func (cr *Crowd) palette(dst []float32, i, k int) {
	d := &cr.scene.draws[k]
	inst := cr.model.Instances[d.instance]
	switch {
	case d.joints != nil:
		skin.GatherPalette(dst, cr.anim.Palette(i, inst.Skin), d.joints)
	case d.gpu:
		copy(dst, cr.anim.Palette(i, inst.Skin))
	default:
		w := anim.ModelMat4(cr.anim.Models(i), cr.model.JointOfNode[inst.Node])
		anim.WritePaletteEntry(dst, &w)
	}
}

// moveEntries adds offset to each palette entry's translation column:
// T·M for an affine M.
func moveEntries(pal []float32, offset mgl32.Vec3) {
	for e := 0; e+anim.PaletteFloats <= len(pal); e += anim.PaletteFloats {
		pal[e+3] += offset[0]
		pal[e+7] += offset[1]
		pal[e+11] += offset[2]
	}
}

// Bounds is the box around the whole grid in the members' current poses.
func (cr *Crowd) Bounds() (mgl32.Vec3, mgl32.Vec3, bool) {
	var lo, hi mgl32.Vec3
	found := false
	var entry [anim.PaletteFloats]float32
	for i := range cr.members {
		mb := &cr.members[i]
		// A rigid mesh is where its node is in this member's pose.
		rigid := func(inst int) []float32 {
			w := anim.ModelMat4(cr.anim.Models(i), cr.model.JointOfNode[cr.model.Instances[inst].Node])
			anim.WritePaletteEntry(entry[:], &w)
			return entry[:]
		}
		weights := func(n int) []float32 {
			k := cr.model.NodeMorph[n]
			if k < 0 {
				return nil
			}
			return cr.anim.Weights(i)[k : k+cr.model.Meshes[cr.model.NodeMesh[n]].Targets]
		}
		l, h, ok := cr.scene.posedBounds(cr.model, func(k int) []float32 { return cr.anim.Palette(i, k) }, rigid, weights)
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
