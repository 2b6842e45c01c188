package render

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Morph targets on the GPU. A mesh's displacements live in a buffer
// texture (RGB32F texels, no fixed target count): for target t, texels
// 2t·n … 2t·n+n−1 hold the position displacements of its n vertices and
// the next n those of the normals. Each draw binds a Morph uniform block
// listing its targets of non-zero weight as (index, weight) pairs, two per
// vec4, after a head of (count, n); skin.vert and skin_dq.vert add
// Σ w·displacement to the vertex before skinning, so a target of weight 0
// costs nothing.

// MorphTarget is one morph target's displacements, xyz per vertex; a nil
// slice displaces nothing.
type MorphTarget struct {
	Positions, Normals []float32
}

// MaxActiveTargets is how many targets of non-zero weight one draw
// applies; beyond it the first MaxActiveTargets are applied and the draw
// reports the rest as dropped (Renderer.MorphDropped).
const MaxActiveTargets = 128

// morphBlockBytes is the Morph block: a head vec4 and a vec4 per two
// pairs.
const morphBlockBytes = 16 + MaxActiveTargets/2*16

// uploadTargets makes a mesh's displacement buffer texture.
func (m *gpuMesh) uploadTargets(n int, targets []MorphTarget) error {
	if len(targets) == 0 || n == 0 {
		return nil
	}
	var limit int32
	gl.GetIntegerv(gl.MAX_TEXTURE_BUFFER_SIZE, &limit)
	if texels := 2 * len(targets) * n; texels > int(limit) {
		return fmt.Errorf("render: %d morph targets of %d vertices need %d texels; the driver's buffer textures hold %d", len(targets), n, texels, limit)
	}
	data := make([]float32, 2*len(targets)*n*3)
	for t, tg := range targets {
		for k, d := range [2][]float32{tg.Positions, tg.Normals} {
			if d == nil {
				continue
			}
			if len(d) != n*3 {
				return fmt.Errorf("render: morph target %d has %d displacements for %d vertices", t, len(d)/3, n)
			}
			copy(data[(2*t+k)*n*3:], d)
		}
	}
	gl.GenBuffers(1, &m.morphBuf)
	gl.BindBuffer(gl.TEXTURE_BUFFER, m.morphBuf)
	gl.BufferData(gl.TEXTURE_BUFFER, len(data)*4, gl.Ptr(data), gl.STATIC_DRAW)
	gl.GenTextures(1, &m.morphTex)
	gl.BindTexture(gl.TEXTURE_BUFFER, m.morphTex)
	gl.TexBuffer(gl.TEXTURE_BUFFER, gl.RGB32F, m.morphBuf)
	gl.BindTexture(gl.TEXTURE_BUFFER, 0)
	gl.BindBuffer(gl.TEXTURE_BUFFER, 0)
	m.targets = int32(len(targets))
	return nil
}

// freeTargets deletes a mesh's displacement texture.
func (m *gpuMesh) freeTargets() {
	if m.morphTex != 0 {
		gl.DeleteTextures(1, &m.morphTex)
		gl.DeleteBuffers(1, &m.morphBuf)
		m.morphTex, m.morphBuf, m.targets = 0, 0, 0
	}
}

// uploadMorph packs each item's Morph block (the first block, all zero,
// serves the items without targets) and uploads them.
func (r *Renderer) uploadMorph(items []DrawItem) {
	r.morphOffsets = r.morphOffsets[:0]
	r.MorphDropped = 0
	stride := (morphBlockBytes + r.uboAlign - 1) / r.uboAlign * r.uboAlign
	size := stride // the zero block
	for _, it := range items {
		off := 0
		if it.Morph != nil && it.Instances == 0 && int(it.Mesh) < len(r.meshes) && r.meshes[it.Mesh].targets > 0 {
			off = size
			size += stride
		}
		r.morphOffsets = append(r.morphOffsets, off)
	}
	if size == stride && r.morphSize >= stride {
		return // no morphs this frame: the zero block in place serves all
	}
	if cap(r.morphData) < size/4 {
		r.morphData = make([]float32, size/4)
	}
	buf := r.morphData[:size/4]
	clear(buf[:morphBlockBytes/4])
	for i, it := range items {
		off := r.morphOffsets[i] / 4
		if off == 0 {
			continue
		}
		m := &r.meshes[it.Mesh]
		block := buf[off : off+morphBlockBytes/4]
		count := 0
		for t, w := range it.Morph[:min(len(it.Morph), int(m.targets))] {
			if w == 0 {
				continue
			}
			if count == MaxActiveTargets {
				r.MorphDropped++
				continue
			}
			block[4+2*count], block[4+2*count+1] = float32(t), w
			count++
		}
		block[0], block[1], block[2], block[3] = float32(count), float32(m.vertices), 0, 0
	}
	gl.BindBuffer(gl.UNIFORM_BUFFER, r.morphUBO)
	if size > r.morphSize {
		r.morphSize = size
	}
	gl.BufferData(gl.UNIFORM_BUFFER, r.morphSize, nil, gl.STREAM_DRAW)
	gl.BufferSubData(gl.UNIFORM_BUFFER, 0, size, unsafe.Pointer(&buf[0]))
}

// bindMorph binds item i's Morph block and its mesh's displacements (a
// mesh without targets gets an empty texture it never reads).
func (r *Renderer) bindMorph(i int, m *gpuMesh) {
	gl.BindBufferRange(gl.UNIFORM_BUFFER, 1, r.morphUBO, r.morphOffsets[i], morphBlockBytes)
	gl.ActiveTexture(gl.TEXTURE1)
	tex := m.morphTex
	if tex == 0 {
		tex = r.noMorph
	}
	gl.BindTexture(gl.TEXTURE_BUFFER, tex)
	gl.ActiveTexture(gl.TEXTURE0)
}

// bindMorphBlock attaches a program's Morph block to binding point 1 (an
// instanced program has none: its weights are in the instance records)
// and its displacement sampler to texture unit 1.
func bindMorphBlock(p program, file string, instanced bool) error {
	if !instanced {
		blk := gl.GetUniformBlockIndex(uint32(p), gl.Str("Morph\x00"))
		if blk == gl.INVALID_INDEX {
			return fmt.Errorf("render: %s has no Morph uniform block", file)
		}
		gl.UniformBlockBinding(uint32(p), blk, 1)
	}
	gl.UseProgram(uint32(p))
	gl.Uniform1i(p.uniform("uMorphDeltas"), 1)
	gl.UseProgram(0)
	return nil
}

// newNoMorph makes the empty displacement texture of meshes without
// targets: one zero texel.
func newNoMorph() (buf, tex uint32) {
	zero := [3]float32{}
	gl.GenBuffers(1, &buf)
	gl.BindBuffer(gl.TEXTURE_BUFFER, buf)
	gl.BufferData(gl.TEXTURE_BUFFER, 12, gl.Ptr(&zero[0]), gl.STATIC_DRAW)
	gl.GenTextures(1, &tex)
	gl.BindTexture(gl.TEXTURE_BUFFER, tex)
	gl.TexBuffer(gl.TEXTURE_BUFFER, gl.RGB32F, buf)
	gl.BindTexture(gl.TEXTURE_BUFFER, 0)
	gl.BindBuffer(gl.TEXTURE_BUFFER, 0)
	return buf, tex
}
