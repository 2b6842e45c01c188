package scene

import (
	"fmt"
	"image/color"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/skin"
)

// The palettes scene hands render are anim's layout: the build fails here
// (an index out of range) if render's entry is not anim.PaletteFloats.
var _ = [1]struct{}{}[render.PaletteEntryFloats-anim.PaletteFloats]

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
	sets   map[int]bool // per glTF node with morph targets: together's answer
	// matChannels and materials are the model's animated material
	// factors and its materials, which Refresh applies to the draws.
	matChannels []gltfload.MaterialChannel
	materials   []gltfload.Material
	tex         gpuTextures
	animated    gltfload.Material // animateMaterial's scratch
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
	// frame indexes GPU.frames: the bounds of the drawn primitive.
	frame int
	// animated says the primitive's material has animated factors
	// (gltfload.Model.MaterialChannels).
	animated bool
}

// gpuTextures are a model's textures on the GPU: as colour (sRGB) and as
// data (linear), each uploaded only where a material uses it so.
type gpuTextures struct{ colour, data []render.TextureID }

// uploadTextures uploads every decoded texture of m in the colour spaces
// its materials read it in.
func uploadTextures(r *render.Renderer, m *gltfload.Model) gpuTextures {
	t := gpuTextures{make([]render.TextureID, len(m.Textures)), make([]render.TextureID, len(m.Textures))}
	colour, data := make([]bool, len(m.Textures)), make([]bool, len(m.Textures))
	for _, mat := range m.Materials {
		for _, ref := range []gltfload.TextureRef{mat.BaseColorTexture, mat.EmissiveTexture} {
			if ref.Texture >= 0 {
				colour[ref.Texture] = true
			}
		}
		for _, ref := range []gltfload.TextureRef{mat.MetallicRoughnessTexture, mat.NormalTexture, mat.OcclusionTexture} {
			if ref.Texture >= 0 {
				data[ref.Texture] = true
			}
		}
	}
	for i, img := range m.Textures {
		t.colour[i], t.data[i] = render.NoTexture, render.NoTexture
		if img == nil {
			continue
		}
		s := m.Samplers[i]
		rs := render.Sampler{MagFilter: s.MagFilter, MinFilter: s.MinFilter, WrapS: s.WrapS, WrapT: s.WrapT}
		if colour[i] {
			t.colour[i] = r.AddTexture(img, rs, true)
		}
		if data[i] {
			t.data[i] = r.AddTexture(img, rs, false)
		}
	}
	return t
}

// material is how the renderer draws glTF material mat.
func (t gpuTextures) material(mat *gltfload.Material) render.Material {
	rm := render.Material{BaseColor: mat.BaseColor, Texture: render.NoTexture, DoubleSided: mat.DoubleSided,
		Alpha: alphaModes[mat.AlphaMode], AlphaCutoff: mat.AlphaCutoff,
		Metallic: mat.Metallic, Roughness: mat.Roughness, NormalScale: mat.NormalScale,
		OcclusionStrength: mat.OcclusionStrength, Unlit: mat.Unlit}
	for c := range 3 {
		rm.Emissive[c] = mat.Emissive[c] * mat.EmissiveStrength
	}
	if ref := mat.BaseColorTexture; ref.Texture >= 0 {
		rm.Texture, rm.UV, rm.Set = t.colour[ref.Texture], ref.UVMatrix(), ref.TexCoord
	}
	for k, ref := range [4]gltfload.TextureRef{mat.MetallicRoughnessTexture, mat.NormalTexture, mat.OcclusionTexture, mat.EmissiveTexture} {
		if ref.Texture < 0 {
			continue
		}
		ids := t.data
		if k == render.EmissiveMap {
			ids = t.colour
		}
		rm.Maps[k] = render.MapOf(ids[ref.Texture], ref.UVMatrix())
		rm.Maps[k].Set = ref.TexCoord
	}
	return rm
}

// alphaModes maps glTF's alpha modes to the renderer's.
var alphaModes = map[gltfload.AlphaMode]render.AlphaMode{
	gltfload.AlphaOpaque: render.Opaque, gltfload.AlphaMask: render.Mask, gltfload.AlphaBlend: render.Blend,
}

// upload sends every drawn primitive of c to the renderer, partitioned so
// that no draw uses more than limit joints (0: the renderer's capacity).
func upload(r *render.Renderer, c *character.Character, mode string, limit int) (*GPU, error) {
	m := c.Model
	if limit <= 0 || limit > r.MaxJoints() {
		limit = r.MaxJoints()
	}
	s := &GPU{mode: mode, limit: limit, matChannels: m.MaterialChannels, materials: m.Materials}
	tex := uploadTextures(r, m)
	s.tex = tex
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
			rm := tex.material(&mat)
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

// mirrored reports whether the global transform m of a node mirrors its
// mesh: a negative determinant, which turns the mesh's triangles
// clockwise (glTF §3.7.4).
func mirrored(m mgl32.Mat4) bool { return m.Mat3().Det() < 0 }

func identityEntry() []float32 {
	return []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}
}

// partitionPrimitive builds the vertex arrays one partition draws: its
// contiguous range of the plan's output vertices, with local joint indices.
func partitionPrimitive(p *gltfload.Primitive, plan *skin.Plan, part *skin.Partition) *gltfload.Primitive {
	q := &gltfload.Primitive{Material: p.Material, FlatNormals: p.FlatNormals}
	first, n := part.FirstVertex, part.NumVertices
	q.Targets = make([]gltfload.MorphTarget, len(p.Targets))
	for o := first; o < first+n; o++ {
		src := plan.Source[o]
		q.Positions = append(q.Positions, p.Positions[src*3:src*3+3]...)
		q.Normals = append(q.Normals, p.Normals[src*3:src*3+3]...)
		if p.UV0 != nil {
			q.UV0 = append(q.UV0, p.UV0[src*2:src*2+2]...)
		}
		if p.UV1 != nil {
			q.UV1 = append(q.UV1, p.UV1[src*2:src*2+2]...)
		}
		if p.Tangents != nil {
			q.Tangents = append(q.Tangents, p.Tangents[src*4:src*4+4]...)
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
	d := render.MeshData{Positions: p.Positions, Normals: p.Normals, UV: p.UV0, UV1: p.UV1, Tangents: p.Tangents, Colors: p.Colors, Indices: p.Indices, Dynamic: src.cpu || src.morphCPU, FlatNormals: p.FlatNormals}
	if src.cpu {
		d.Tangents = nil // the vertices arrive skinned, their tangents would not: the shader's derivative frame instead
	}
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
	src.frame = len(s.frames) - 1 // add follows the primitive's addBounds
	for _, mc := range s.matChannels {
		src.animated = src.animated || mc.Material == src.prim.Material
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
func (s *GPU) Refresh(r *render.Renderer, c *character.Character) error {
	for ii, inst := range c.Model.Instances {
		if ii < len(s.rigid) && s.rigid[ii] != nil {
			w := c.NodeWorld(inst.Node)
			anim.WritePaletteEntry(s.rigid[ii], &w)
		}
	}
	for i := range s.draws {
		d := &s.draws[i]
		inst := c.Model.Instances[d.instance]
		s.items[i].Mirrored = mirrored(c.NodeWorld(inst.Node))
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
		if d.animated {
			s.animateMaterial(&s.items[i].Material, d.prim.Material, c.Channels())
		}
		if s.items[i].Material.Alpha == render.Blend {
			s.items[i].Center = s.center(c, &s.frames[d.frame])
		}
	}
	return nil
}

// animateMaterial sets on rm glTF material mi with the factors clips
// animate taken from the pose's channels w.
func (s *GPU) animateMaterial(rm *render.Material, mi int, w []float32) {
	mat := &s.animated // a field: a local whose fields are sliced would move to the heap every frame
	*mat = s.materials[mi]
	for _, mc := range s.matChannels {
		if mc.Material == mi {
			copy(mat.Field(mc.Property, mc.Slot), w[mc.Channel:mc.Channel+mc.Count])
		}
	}
	*rm = s.tex.material(mat)
}

// center is the middle of primitive f's box in the current pose, by
// which the renderer sorts blended draws.
func (s *GPU) center(c *character.Character, f *boundsOf) [3]float32 {
	pal := f.rigid
	if pal == nil {
		pal = c.Palettes[c.Model.Instances[f.instance].Skin]
	}
	box := f.still
	if lo, hi, ok := skin.PosedBounds(f.boxes, pal); ok {
		box.Add(lo[0], lo[1], lo[2])
		box.Add(hi[0], hi[1], hi[2])
	}
	if box.Empty() {
		return [3]float32{}
	}
	return [3]float32{(box.Min[0] + box.Max[0]) / 2, (box.Min[1] + box.Max[1]) / 2, (box.Min[2] + box.Max[2]) / 2}
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
// rigid primitive a single box moved by its node, and for each morph
// target the box of its displacements over the same vertices. Only
// vertices that a triangle draws count: exporters keep vertices no index
// uses, sometimes far away. It depends on the model alone, so every
// skinning mode and palette limit frames the same.
type boundsOf struct {
	instance int
	node     int        // the glTF node, whose morph weights apply
	boxes    []skin.Box // base positions
	// still holds a skinned primitive's vertices without any weight,
	// which skinning leaves at their bind position.
	still skin.Box
	// shapes and stillShapes bound, as boxes and still do, the shapes
	// the model's author made (each target at weight 1, and all of them
	// at once where a clip moves them all together), whatever the
	// weights of the moment: a frame that holds them holds the model as
	// its clips blend targets between the frames sampled.
	shapes      []skin.Box
	stillShapes skin.Box
	// together: the shapes hold the sum of every target (see together).
	together bool
	rigid    []float32 // the instance's node palette entry, or nil when skinned
	// prim, used and per let a frame bound its morphed vertices exactly
	// and find the pose's drawn points: the primitive, the vertices its
	// triangles draw, influences per vertex (0 when rigid). morphed is
	// that frame's boxes.
	prim    *gltfload.Primitive
	used    []uint32
	per     int
	morphed []skin.Box
}

func (s *GPU) addBounds(c *character.Character, instance int, p *gltfload.Primitive, rigid []float32) error {
	inst := c.Model.Instances[instance]
	groups := 1
	if rigid == nil {
		groups = len(c.Model.Skins[inst.Skin].Joints)
	}
	nt := len(p.Targets)
	f := boundsOf{instance: instance, node: inst.Node, rigid: rigid, still: skin.EmptyBox(), stillShapes: skin.EmptyBox(),
		boxes: emptyBoxes(groups), shapes: emptyBoxes(groups), morphed: make([]skin.Box, groups)}
	n := p.NumVertices()
	per := 0
	if rigid == nil {
		if per = len(p.Joints) / max(n, 1); n > 0 && (per < 1 || len(p.Joints) != n*per || len(p.Weights) != len(p.Joints)) {
			return fmt.Errorf("scene: %d vertices with %d joints and %d weights are not a whole number of influences per vertex", n, len(p.Joints), len(p.Weights))
		}
	}
	all := s.together(c, inst.Node, nt)
	// add puts vertex v's position into base, and the authored shapes
	// into shapes: each target at weight 1, and, where the clips move
	// them all together, every target at weight 1. Combinations of some
	// targets are left to the weights each frame has (posedBounds): the
	// sum of all fourteen frames of a flapping bird's wing, each a target
	// its clip shows alone, is no shape it takes.
	add := func(v int, base *skin.Box, shapes *skin.Box) {
		x, y, z := p.Positions[v*3], p.Positions[v*3+1], p.Positions[v*3+2]
		base.Add(x, y, z)
		if nt == 0 {
			return
		}
		shapes.Add(x, y, z)
		for _, mt := range p.Targets {
			if mt.Positions != nil {
				d := mt.Positions[v*3 : v*3+3]
				shapes.Add(x+d[0], y+d[1], z+d[2])
			}
		}
		if all {
			sx, sy, sz := x, y, z
			for _, mt := range p.Targets {
				if d := mt.Positions; d != nil {
					sx, sy, sz = sx+d[v*3], sy+d[v*3+1], sz+d[v*3+2]
				}
			}
			shapes.Add(sx, sy, sz)
		}
	}
	seen := make([]bool, n)
	for _, i := range p.Indices {
		v := int(i)
		if seen[v] {
			continue
		}
		seen[v] = true
		f.used = append(f.used, i)
		if rigid != nil {
			add(v, &f.boxes[0], &f.shapes[0])
			continue
		}
		weighted := false
		for k := v * per; k < v*per+per; k++ {
			if p.Weights[k] == 0 {
				continue
			}
			j := int(p.Joints[k])
			if j >= groups {
				return fmt.Errorf("scene: vertex %d uses joint %d; the skin has %d", v, j, groups)
			}
			weighted = true
			add(v, &f.boxes[j], &f.shapes[j])
		}
		if !weighted {
			add(v, &f.still, &f.stillShapes)
		}
	}
	f.prim, f.per, f.together = p, per, all
	s.frames = append(s.frames, f)
	return nil
}

// together reports whether some clip of the character's model, or the
// rest weights, give all nt morph targets of node n weight at the same
// time (at a key, or between two keys that it interpolates), so that the
// sum of every target is a shape the model takes. Found once per node.
func (s *GPU) together(c *character.Character, n, nt int) bool {
	m := c.Model
	first := m.NodeMorph[n]
	if first < 0 || nt < 2 {
		return false
	}
	if s.sets == nil {
		s.sets = map[int]bool{}
	}
	if all, ok := s.sets[n]; ok {
		return all
	}
	active := make([]bool, nt)
	// mark sets active[t] for the targets that vals, the weights of pose
	// channels ch onwards, give a non-zero weight.
	mark := func(vals []float32, ch int) {
		for k, w := range vals {
			if t := ch + k - first; t >= 0 && t < nt && w != 0 {
				active[t] = true
			}
		}
	}
	full := func() bool { return !slices.Contains(active, false) }
	mark(m.Skeleton.MorphRest[first:first+nt], first)
	all := full()
	for ci := 0; ci < len(m.Clips) && !all; ci++ {
		for _, tr := range m.Clips[ci].Morph {
			if tr.Channel+tr.Count <= first || tr.Channel >= first+nt {
				continue
			}
			stride, off := tr.Count, 0
			if tr.Interp == anim.CubicSpline {
				stride, off = 3*tr.Count, tr.Count
			}
			for k := range tr.Times {
				clear(active)
				for _, kk := range []int{k, k + 1} {
					if kk < len(tr.Times) && (kk == k || tr.Interp != anim.Step) && (kk+1)*stride <= len(tr.Values) {
						mark(tr.Values[kk*stride+off:kk*stride+off+tr.Count], tr.Channel)
					}
				}
				if all = full(); all {
					break
				}
			}
		}
	}
	s.sets[n] = all
	return all
}

// morph bounds the primitive's drawn vertices morphed by weights w, one
// box per joint into f.morphed and the unweighted vertices' box returned:
// exact, where a box of each target's displacements would reach corners
// no vertex does. It allocates nothing.
func (f *boundsOf) morph(w []float32) skin.Box {
	p := f.prim
	for j := range f.morphed {
		f.morphed[j] = skin.EmptyBox()
	}
	still := skin.EmptyBox()
	for _, i := range f.used {
		v := int(i)
		x, y, z := p.Positions[v*3], p.Positions[v*3+1], p.Positions[v*3+2]
		for t, mt := range p.Targets {
			if t < len(w) && w[t] != 0 && mt.Positions != nil {
				x, y, z = x+w[t]*mt.Positions[v*3], y+w[t]*mt.Positions[v*3+1], z+w[t]*mt.Positions[v*3+2]
			}
		}
		if f.rigid != nil {
			f.morphed[0].Add(x, y, z)
			continue
		}
		weighted := false
		for k := v * f.per; k < v*f.per+f.per; k++ {
			if p.Weights[k] != 0 {
				f.morphed[p.Joints[k]].Add(x, y, z)
				weighted = true
			}
		}
		if !weighted {
			still.Add(x, y, z)
		}
	}
	return still
}

// amongShapes reports whether a primitive of nt targets, morphed by
// weights w, stays within the authored shapes' bounds (boundsOf.shapes)
// for sure: with weights in [0, 1] that sum to at most 1, each vertex
// lies among its rest place and its targets' (a convex combination of
// them); with two targets whose sum is among the shapes (together), the
// rest, each and the sum bound every weight in [0, 1]². Other weights (a
// negative weight, a cubic spline's overshoot, two of three targets at
// full weight, an additive layer's sum) are bounded exactly, as they are.
func amongShapes(w []float32, nt int, together bool) bool {
	var sum float32
	for _, x := range w {
		if !(x >= 0 && x <= 1) {
			return false
		}
		sum += x
	}
	return sum <= 1+1e-5 || (nt == 2 && together)
}

func emptyBoxes(n int) []skin.Box {
	b := make([]skin.Box, n)
	for i := range b {
		b[i] = skin.EmptyBox()
	}
	return b
}

// Bounds is a box around every drawn vertex in the current pose and morph
// weights, from each joint's box under its palette entry: conservative, and
// cheap enough for every frame. (Dual-quaternion skinning ignores joint
// scale; the box of the linear blend stays a good frame for it.)
func (s *GPU) Bounds(c *character.Character) (mgl32.Vec3, mgl32.Vec3, bool) {
	return s.posedBounds(c.Model, func(k int) []float32 { return c.Palettes[k] }, nil, c.MorphWeights)
}

// posedBounds is bounds for the palettes of each skin that palette gives,
// for the rigid instances the node palette entry that rigid gives (nil:
// the character's, as Refresh wrote it), and the morph weights of each
// node that weights gives.
func (s *GPU) posedBounds(m *gltfload.Model, palette func(skin int) []float32, rigid func(instance int) []float32, weights func(node int) []float32) (mgl32.Vec3, mgl32.Vec3, bool) {
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
		boxes, still := f.boxes, f.still
		if w := weights(f.node); len(f.prim.Targets) > 0 && !amongShapes(w, len(f.prim.Targets), f.together) {
			still = f.morph(w)
			boxes = f.morphed
		}
		if lo, hi, ok := skin.PosedBounds(boxes, pal); ok {
			out.Add(lo[0], lo[1], lo[2])
			out.Add(hi[0], hi[1], hi[2])
		}
		if lo, hi, ok := skin.PosedBounds(f.shapes, pal); ok {
			out.Add(lo[0], lo[1], lo[2])
			out.Add(hi[0], hi[1], hi[2])
		}
		out.Union(still) // skinning leaves these where they are
		out.Union(f.stillShapes)
	}
	if out.Empty() {
		return mgl32.Vec3{}, mgl32.Vec3{}, false
	}
	return out.Min, out.Max, true
}
