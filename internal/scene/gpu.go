package scene

import (
	"fmt"
	"image/color"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/skin"
)

// Background is the clear colour of every view.
var Background = color.NRGBA{R: 46, G: 50, B: 58, A: 255}

// Skinning modes of -skinning.
const (
	SkinGPU = "gpu"
	SkinCPU = "cpu"
	SkinDQ  = "dq" // dual-quaternion skinning on the GPU, for comparison
)

// GPU is a character's meshes on the GPU and the draw list that shows
// them. Everything a frame writes (rigid and partition palettes, CPU-skinned
// vertices) is sized here once.
type GPU struct {
	items  []render.DrawItem
	draws  []drawSource // per item
	rigid  [][]float32  // per instance: one palette entry, nil when skinned
	mode   string
	limit  int // joints per draw call
	Parts  int // partitions over all skinned primitives
	Dup    int // vertices duplicated by partitioning
	frames []boundsOf
}

// drawSource is what one draw item shows and how its data is refreshed.
type drawSource struct {
	instance, primitive int
	prim                *gltfload.Primitive // the drawn copy (flat normals, partition subset)
	joints              []uint16            // partition: local palette entry → skin joint; nil: the whole skin
	palette             []float32           // partition palette, gathered each frame
	cpu                 bool                // skinned on the CPU into pos/nrm
	gpu                 bool                // skinned by skin.vert with palette
	source              []uint32            // partition: drawn vertex → vertex of the model's primitive
	dq                  []float32           // -skinning dq: palette as dual quaternions, what the item draws with
	pos, nrm            []float32
	// morphCPU morphs the primitive in Go each frame (-skinning cpu):
	// into pos/nrm for a rigid draw, into mpos/mnrm before skinning.
	morphCPU   bool
	mpos, mnrm []float32
}

// upload sends every drawn primitive of c to the renderer, partitioned so
// that no draw uses more than limit joints (0: the renderer's capacity).
func upload(r *render.Renderer, c *Character, mode string, limit int) (*GPU, error) {
	m := c.Model
	if limit <= 0 || limit > r.MaxJoints() {
		limit = r.MaxJoints()
	}
	s := &GPU{mode: mode, limit: limit}
	textures := make([]render.TextureID, len(m.Textures))
	for i, img := range m.Textures {
		textures[i] = render.NoTexture
		if img != nil {
			textures[i] = r.AddTexture(img)
		}
	}
	for ii, inst := range m.Instances {
		var rigid []float32
		weights := c.MorphWeights(inst.Node)
		for pi := range m.Meshes[inst.Mesh].Primitives {
			p := &m.Meshes[inst.Mesh].Primitives[pi]
			if len(p.Indices) == 0 {
				continue
			}
			if p.Normals == nil {
				flat := p.WithFlatNormals()
				p = &flat
			}
			mat := gltfload.DefaultMaterial
			if p.Material >= 0 {
				mat = m.Materials[p.Material]
			}
			rm := render.Material{BaseColor: mat.BaseColor, Texture: render.NoTexture, DoubleSided: mat.DoubleSided}
			if mat.BaseColorTexture >= 0 {
				rm.Texture = textures[mat.BaseColorTexture]
			}
			skinned := inst.Skin >= 0 && p.Joints != nil
			if !skinned && rigid == nil {
				rigid = make([]float32, anim.PaletteFloats)
			}
			var boundsRigid []float32
			if !skinned {
				boundsRigid = rigid
			}
			if err := s.addBounds(c, ii, p, boundsRigid); err != nil {
				return nil, fmt.Errorf("meshes[%d].primitives[%d]: %w", inst.Mesh, pi, err)
			}
			morphCPU := mode == SkinCPU && len(p.Targets) > 0
			if !skinned {
				// Rigid, or a primitive without joints under a skinned node
				// (glTF draws it at the node): one palette entry.
				src := drawSource{instance: ii, primitive: pi, prim: p, palette: rigid, morphCPU: morphCPU}
				if morphCPU {
					src.pos, src.nrm = make([]float32, len(p.Positions)), make([]float32, len(p.Normals))
				}
				if err := s.add(r, weights, src, rm); err != nil {
					return nil, err
				}
				continue
			}
			if mode == SkinCPU {
				src := drawSource{instance: ii, primitive: pi, prim: p, cpu: true,
					pos: make([]float32, len(p.Positions)), nrm: make([]float32, len(p.Normals)),
					palette: identityEntry(), morphCPU: morphCPU}
				if morphCPU {
					src.mpos, src.mnrm = make([]float32, len(p.Positions)), make([]float32, len(p.Normals))
				}
				if err := s.add(r, weights, src, rm); err != nil {
					return nil, err
				}
				continue
			}
			plan, err := skin.PlanPartitions(p.Indices, p.Joints, p.Weights, limit)
			if err != nil {
				return nil, fmt.Errorf("meshes[%d].primitives[%d]: %w", inst.Mesh, pi, err)
			}
			if len(plan.Partitions) == 1 && len(m.Skins[inst.Skin].Joints) <= limit {
				// Fits: draw with the skin's whole palette, no copy.
				s.Parts++
				if err := s.add(r, weights, drawSource{instance: ii, primitive: pi, prim: p, palette: c.Palettes[inst.Skin], gpu: true}, rm); err != nil {
					return nil, err
				}
				continue
			}
			s.Dup += plan.Duplicated
			for k := range plan.Partitions {
				part := &plan.Partitions[k]
				sub := partitionPrimitive(p, plan, part)
				src := drawSource{instance: ii, primitive: pi, prim: sub, joints: part.Joints, gpu: true,
					source:  plan.Source[part.FirstVertex : part.FirstVertex+part.NumVertices],
					palette: make([]float32, len(part.Joints)*anim.PaletteFloats)}
				s.Parts++
				if err := s.add(r, weights, src, rm); err != nil {
					return nil, err
				}
			}
		}
		s.rigid = append(s.rigid, rigid)
	}
	return s, nil
}

func identityEntry() []float32 {
	return []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}
}

// partitionPrimitive builds the vertex arrays one partition draws: its
// contiguous range of the plan's output vertices, with local joint indices.
func partitionPrimitive(p *gltfload.Primitive, plan *skin.Plan, part *skin.Partition) *gltfload.Primitive {
	q := &gltfload.Primitive{Material: p.Material}
	first, n := part.FirstVertex, part.NumVertices
	q.Targets = make([]gltfload.MorphTarget, len(p.Targets))
	for o := first; o < first+n; o++ {
		src := plan.Source[o]
		q.Positions = append(q.Positions, p.Positions[src*3:src*3+3]...)
		q.Normals = append(q.Normals, p.Normals[src*3:src*3+3]...)
		if p.UV0 != nil {
			q.UV0 = append(q.UV0, p.UV0[src*2:src*2+2]...)
		}
		if p.Colors != nil {
			q.Colors = append(q.Colors, p.Colors[src*4:src*4+4]...)
		}
		for t, mt := range p.Targets {
			if mt.Positions != nil {
				q.Targets[t].Positions = append(q.Targets[t].Positions, mt.Positions[src*3:src*3+3]...)
			}
			if mt.Normals != nil {
				q.Targets[t].Normals = append(q.Targets[t].Normals, mt.Normals[src*3:src*3+3]...)
			}
		}
	}
	q.Joints = plan.LocalJoints[first*4 : (first+n)*4]
	q.Weights = plan.Weights[first*4 : (first+n)*4]
	q.Indices = make([]uint32, len(part.Indices))
	for i, oi := range part.Indices {
		q.Indices[i] = oi - uint32(first)
	}
	return q
}

// add uploads one draw; weights are the morph weights of its node (nil
// for none), which the character rewrites in place with every pose.
func (s *GPU) add(r *render.Renderer, weights []float32, src drawSource, mat render.Material) error {
	p := src.prim
	drawn := src.palette
	if s.mode == SkinDQ {
		src.dq = make([]float32, len(src.palette)/anim.PaletteFloats*skin.DualQuatFloats)
		drawn = src.dq
	}
	d := render.MeshData{Positions: p.Positions, Normals: p.Normals, UV: p.UV0, Colors: p.Colors, Indices: p.Indices, Dynamic: src.cpu || src.morphCPU}
	if src.gpu {
		d.Joints, d.Weights = p.Joints, p.Weights
	}
	if !src.morphCPU {
		for _, mt := range p.Targets {
			d.Targets = append(d.Targets, render.MorphTarget{Positions: mt.Positions, Normals: mt.Normals})
		}
	}
	id, err := r.AddMesh(d)
	if err != nil {
		return err
	}
	it := render.DrawItem{Mesh: id, Material: mat, Palette: drawn}
	if len(d.Targets) > 0 {
		it.Morph = weights // read when the item is drawn
	}
	s.items = append(s.items, it)
	s.draws = append(s.draws, src)
	return nil
}

// Refresh brings the draw list to the character's current pose: rigid
// node transforms, partition palettes gathered from the skin palette, and
// CPU-skinned vertices.
func (s *GPU) Refresh(r *render.Renderer, c *Character) error {
	for ii, inst := range c.Model.Instances {
		if ii < len(s.rigid) && s.rigid[ii] != nil {
			w := c.NodeWorld(inst.Node)
			anim.WritePaletteEntry(s.rigid[ii], &w)
		}
	}
	for i := range s.draws {
		d := &s.draws[i]
		inst := c.Model.Instances[d.instance]
		switch {
		case d.joints != nil:
			skin.GatherPalette(d.palette, c.Palettes[inst.Skin], d.joints)
		case d.cpu:
			pos, nrm := d.prim.Positions, d.prim.Normals
			if d.morphCPU {
				d.prim.Morph(d.mpos, d.mnrm, c.MorphWeights(inst.Node))
				pos, nrm = d.mpos, d.mnrm
			}
			if err := skin.Skin4(d.pos, d.nrm, pos, nrm, d.prim.Joints, d.prim.Weights, c.Palettes[inst.Skin]); err != nil {
				return err
			}
			if err := r.UpdateVertices(s.items[i].Mesh, d.pos, d.nrm); err != nil {
				return err
			}
		case d.morphCPU:
			d.prim.Morph(d.pos, d.nrm, c.MorphWeights(inst.Node))
			if err := r.UpdateVertices(s.items[i].Mesh, d.pos, d.nrm); err != nil {
				return err
			}
		}
		if d.dq != nil {
			skin.WriteDualQuats(d.dq, d.palette)
		}
	}
	return nil
}

// method is the vertex shader the scene's palettes are laid out for.
// Limit is the most joints one draw call uses: the palette limit asked
// for, or the renderer's capacity where none was asked or more than it.
func (s *GPU) Limit() int { return s.limit }

func (s *GPU) method() render.Skinning {
	if s.mode == SkinDQ {
		return render.DualQuat
	}
	return render.LinearBlend
}

// boundsOf is what frames one drawn primitive: the bind-space box of the
// vertices each skin joint moves (boxes[i] for skin joint i), or for a
// rigid primitive a single box moved by its node. It depends on the model
// alone, so every skinning mode and palette limit frames the same.
type boundsOf struct {
	instance int
	boxes    []skin.Box
	rigid    []float32 // the instance's node palette entry, or nil when skinned
}

func (s *GPU) addBounds(c *Character, instance int, p *gltfload.Primitive, rigid []float32) error {
	inst := c.Model.Instances[instance]
	// The shapes the box must hold: the base, and with morph targets each
	// target at weight 1 and all of them at once (weights are meant to
	// stay in 0…1).
	shapes := [][]float32{p.Positions}
	if len(p.Targets) > 0 {
		all := slices.Clone(p.Positions)
		for _, mt := range p.Targets {
			if mt.Positions == nil {
				continue
			}
			moved := slices.Clone(p.Positions)
			for i, d := range mt.Positions[:len(moved)] {
				moved[i] += d
				all[i] += d
			}
			shapes = append(shapes, moved)
		}
		shapes = append(shapes, all)
	}
	if rigid == nil {
		var boxes []skin.Box
		for _, pos := range shapes {
			b, err := skin.JointBounds(pos, p.Joints, p.Weights, len(c.Model.Skins[inst.Skin].Joints))
			if err != nil {
				return err
			}
			if boxes == nil {
				boxes = b
				continue
			}
			for j := range boxes {
				boxes[j].Union(b[j])
			}
		}
		s.frames = append(s.frames, boundsOf{instance: instance, boxes: boxes})
		return nil
	}
	box := skin.EmptyBox()
	for _, pos := range shapes {
		for v := 0; v+2 < len(pos); v += 3 {
			box.Add(pos[v], pos[v+1], pos[v+2])
		}
	}
	s.frames = append(s.frames, boundsOf{instance: instance, boxes: []skin.Box{box}, rigid: rigid})
	return nil
}

// Bounds is a box around every drawn vertex in the current pose, from each
// joint's box under its palette entry: conservative, and cheap enough for
// every frame. (Dual-quaternion skinning ignores joint scale; the box of
// the linear blend stays a good frame for it.)
func (s *GPU) Bounds(c *Character) (mgl32.Vec3, mgl32.Vec3, bool) {
	return s.posedBounds(c.Model, func(k int) []float32 { return c.Palettes[k] }, nil)
}

// posedBounds is bounds for the palettes of each skin that palette gives,
// and for the rigid instances the node palette entry that rigid gives
// (nil: the character's, as Refresh wrote it).
func (s *GPU) posedBounds(m *gltfload.Model, palette func(skin int) []float32, rigid func(instance int) []float32) (mgl32.Vec3, mgl32.Vec3, bool) {
	out := skin.EmptyBox()
	for i := range s.frames {
		f := &s.frames[i]
		pal := f.rigid
		switch {
		case pal == nil:
			pal = palette(m.Instances[f.instance].Skin)
		case rigid != nil:
			pal = rigid(f.instance)
		}
		if lo, hi, ok := skin.PosedBounds(f.boxes, pal); ok {
			out.Add(lo[0], lo[1], lo[2])
			out.Add(hi[0], hi[1], hi[2])
		}
	}
	if out.Empty() {
		return mgl32.Vec3{}, mgl32.Vec3{}, false
	}
	return out.Min, out.Max, true
}
