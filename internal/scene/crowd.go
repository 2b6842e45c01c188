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

// Crowd is -Crowd N: N copies of the character on a grid, each with its
// own controller, time offset and parameters, animated by graph.Crowd on
// all cores and drawn from the one uploaded set of meshes with their own
// palettes.
type Crowd struct {
	anim    *graph.Crowd
	model   *gltfload.Model
	members []member
	Items   []render.DrawItem // every member's draw items, for one Draw
	scene   *GPU              // the uploaded meshes all members share
	workers int
	offsets []float32 // per member: time offset in seconds
}

// member is where one character of the crowd stands and what it draws.
type member struct {
	offset  mgl32.Vec3 // grid position added to every palette entry
	pals    [][]float32
	weights []float32 // its morph weights, which its draws read
}

// NewCrowd builds n characters of model m laid out around the first one's
// framing box, each starting at its own time and, when the spec has
// parameters, its own value of the first one. Member 0 is first: its
// controller is the one the HUD shows. In the clip browser every member
// loops its clip on its own clock.
func NewCrowd(m *gltfload.Model, fade float32, first *character.Character, s *GPU, n int) (*Crowd, error) {
	if s.mode != SkinGPU {
		return nil, fmt.Errorf("-crowd draws with -skinning gpu, not %s", s.mode)
	}
	cr := &Crowd{model: m, scene: s, workers: max(runtime.GOMAXPROCS(0), 1)}
	lo, hi, ok := s.Bounds(first)
	if !ok {
		lo, hi = mgl32.Vec3{-0.5, 0, -0.5}, mgl32.Vec3{0.5, 1, 0.5}
	}
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
			cr.Items = append(cr.Items, it)
		}
		cr.members = append(cr.members, mb)
		cr.offsets = append(cr.offsets, float32(math.Mod(float64(i)*0.377, float64(max(first.Span(), 1e-3)))))
	}
	if cr.anim, err = graph.NewCrowd(&m.Skeleton, m.Skins, ctls); err != nil {
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
	return cr, nil
}

// Len is the number of characters in the crowd.
func (cr *Crowd) Len() int { return len(cr.members) }

// Update advances every member by dt seconds of wall time at the given
// speed (or paused) and writes its draw palettes.
func (cr *Crowd) Update(dt, speed float32, paused bool) {
	for i := range cr.members {
		ctl := cr.anim.Controller(i)
		ctl.SetSpeed(speed)
		ctl.SetPaused(paused)
	}
	cr.anim.Evaluate(dt, cr.workers)
	for i := range cr.members {
		cr.members[i].place(cr, i)
	}
}

// PoseAt puts every member at time t plus its offset (for screenshots).
func (cr *Crowd) PoseAt(t float32) {
	for i := range cr.members {
		cr.anim.Controller(i).SetTime(t + cr.offsets[i])
	}
	cr.anim.Evaluate(0, cr.workers)
	for i := range cr.members {
		cr.members[i].place(cr, i)
	}
}

// SetLoopMode sets every member's loop mode.
func (cr *Crowd) SetLoopMode(m anim.LoopMode) {
	for i := range cr.members {
		cr.anim.Controller(i).SetLoopMode(m)
	}
}

// Start spreads the members' clocks.
func (cr *Crowd) Start() { cr.PoseAt(0) }

func (cr *Crowd) Close() { cr.anim.Close() }

// place writes member i's draw palettes from its pose, moved to its place.
func (mb *member) place(cr *Crowd, i int) {
	s := cr.scene
	copy(mb.weights, cr.anim.Weights(i))
	for k := range s.draws {
		d := &s.draws[k]
		inst := cr.model.Instances[d.instance]
		dst := mb.pals[k]
		switch {
		case d.joints != nil:
			skin.GatherPalette(dst, cr.anim.Palette(i, inst.Skin), d.joints)
		case d.gpu:
			copy(dst, cr.anim.Palette(i, inst.Skin))
		default:
			w := anim.ModelMat4(cr.anim.Models(i), cr.model.JointOfNode[inst.Node])
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
			return mb.weights[k : k+cr.model.Meshes[cr.model.NodeMesh[n]].Targets]
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
