package main

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/skin"
)

// background is the clear colour of every view.
var background = color.NRGBA{R: 46, G: 50, B: 58, A: 255}

// gpuScene is a character's meshes on the GPU and the draw list that
// shows them; rigid palettes are sized once here.
type gpuScene struct {
	items   []render.DrawItem
	sources []source // per item: what it draws
	rigid   [][]float32
	scratch []float32
}

// source names the model instance and primitive a draw item shows.
type source struct{ instance, primitive int }

// upload sends every drawn primitive of c to the renderer.
func upload(r *render.Renderer, c *character) (*gpuScene, error) {
	m := c.model
	s := &gpuScene{}
	textures := make([]render.TextureID, len(m.Textures))
	for i, img := range m.Textures {
		textures[i] = render.NoTexture
		if img != nil {
			textures[i] = r.AddTexture(img)
		}
	}
	for ii, inst := range m.Instances {
		var rigid []float32
		if inst.Skin < 0 {
			rigid = make([]float32, anim.PaletteFloats)
		}
		for pi := range m.Meshes[inst.Mesh].Primitives {
			p := &m.Meshes[inst.Mesh].Primitives[pi]
			if len(p.Indices) == 0 {
				continue
			}
			if p.Normals == nil {
				flat := p.WithFlatNormals()
				p = &flat
			}
			d := render.MeshData{Positions: p.Positions, Normals: p.Normals, UV: p.UV0, Colors: p.Colors, Indices: p.Indices}
			if inst.Skin >= 0 && p.Joints != nil {
				d.Joints, d.Weights = p.Joints, p.Weights
			}
			id, err := r.AddMesh(d)
			if err != nil {
				return nil, err
			}
			mat := gltfload.DefaultMaterial
			if p.Material >= 0 {
				mat = m.Materials[p.Material]
			}
			rm := render.Material{BaseColor: mat.BaseColor, Texture: render.NoTexture, DoubleSided: mat.DoubleSided}
			if mat.BaseColorTexture >= 0 {
				rm.Texture = textures[mat.BaseColorTexture]
			}
			it := render.DrawItem{Mesh: id, Material: rm}
			switch {
			case inst.Skin >= 0 && p.Joints != nil:
				it.Palette = c.palettes[inst.Skin]
			case inst.Skin >= 0:
				// A primitive without joints under a skinned node: glTF
				// draws it with the skin's joints ignored, at the node.
				fallthrough
			default:
				if rigid == nil {
					rigid = make([]float32, anim.PaletteFloats)
				}
				it.Palette = rigid
			}
			s.items = append(s.items, it)
			s.sources = append(s.sources, source{ii, pi})
		}
		s.rigid = append(s.rigid, rigid)
	}
	return s, nil
}

// refresh writes the rigid instances' node transforms for the current pose
// (skinned items read the character's palettes directly).
func (s *gpuScene) refresh(c *character) {
	for ii, inst := range c.model.Instances {
		if rp := s.rigid[ii]; rp != nil {
			w := c.nodeWorld(inst.Node)
			anim.WritePaletteEntry(rp, &w)
		}
	}
}

// bounds is the box around every drawn vertex in the current pose, skinned
// on the CPU the way the shader does it.
func (s *gpuScene) bounds(c *character) (mgl32.Vec3, mgl32.Vec3, bool) {
	var lo, hi mgl32.Vec3
	any := false
	for i, it := range s.items {
		inst := c.model.Instances[s.sources[i].instance]
		p := &c.model.Meshes[inst.Mesh].Primitives[s.sources[i].primitive]
		if cap(s.scratch) < len(p.Positions) {
			s.scratch = make([]float32, len(p.Positions))
		}
		out := s.scratch[:len(p.Positions)]
		if inst.Skin >= 0 && p.Joints != nil {
			if skin.Positions(out, p.Positions, p.Joints, p.Weights, 4, it.Palette) != nil {
				continue
			}
		} else {
			skin.Transform(out, p.Positions, it.Palette)
		}
		mn, mx, ok := skin.Bounds(out)
		if !ok {
			continue
		}
		if !any {
			lo, hi, any = mn, mx, true
			continue
		}
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], mn[k])
			hi[k] = max(hi[k], mx[k])
		}
	}
	return lo, hi, any
}
