package render

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Instanced draws (a crowd: one draw per mesh for every member). Each
// member's record sits in one RGBA32F buffer texture a frame: its palette
// rows (three texels an entry), a texel with its offset, then its morph
// weights four a texel. Records of one item have one stride; the items'
// runs follow each other. The buffer is orphaned and refilled every frame:
// one upload.

// instanceUnit is the texture unit of the instance records.
const instanceUnit = 8

// instances is the frame's instance records.
type instances struct {
	buf, tex uint32
	size     int       // bytes of the buffer's storage
	data     []float32 // the records, reused frame to frame
	// per item: first texel of its records, texels a record, palette
	// entries and morph targets a record (0 for items not instanced)
	base, stride, joints, targets []int32
	limit                         int // texels the driver's buffer textures hold
	// Bytes is what the last frame uploaded.
	Bytes int
}

// InstanceBytes is the size of the instance records the last Draw
// uploaded.
func (r *Renderer) InstanceBytes() int { return r.instances.Bytes }

// uploadInstances packs the records of every instanced item and uploads
// them.
func (r *Renderer) uploadInstances(items []DrawItem) error {
	in := &r.instances
	in.base, in.stride, in.joints, in.targets = in.base[:0], in.stride[:0], in.joints[:0], in.targets[:0]
	in.Bytes = 0
	texels := 0
	for i := range items {
		it := &items[i]
		var stride, joints, targets int
		if n := it.Instances; n > 0 {
			if len(it.Palette)%(n*PaletteEntryFloats) != 0 || len(it.Palette) == 0 {
				return fmt.Errorf("render: draw item %d has %d instances and a palette of %d floats; want a positive multiple of %d", i, n, len(it.Palette), n*PaletteEntryFloats)
			}
			if len(it.Offsets) != 3*n {
				return fmt.Errorf("render: draw item %d has %d instances and %d offset floats; want %d", i, n, len(it.Offsets), 3*n)
			}
			joints = len(it.Palette) / n / PaletteEntryFloats
			if it.Morph != nil && int(it.Mesh) < len(r.meshes) {
				targets = int(r.meshes[it.Mesh].targets)
				if len(it.Morph) != n*len(it.Morph)/n || len(it.Morph)/n < targets {
					return fmt.Errorf("render: draw item %d has %d instances and %d morph weights; want %d", i, n, len(it.Morph), n*targets)
				}
			}
			stride = 3*joints + 1 + (targets+3)/4
		}
		in.base = append(in.base, int32(texels))
		in.stride = append(in.stride, int32(stride))
		in.joints = append(in.joints, int32(joints))
		in.targets = append(in.targets, int32(targets))
		texels += stride * it.Instances
	}
	if texels == 0 {
		return nil
	}
	if in.buf == 0 {
		var limit int32
		gl.GetIntegerv(gl.MAX_TEXTURE_BUFFER_SIZE, &limit)
		in.limit = int(limit)
		gl.GenBuffers(1, &in.buf)
		gl.GenTextures(1, &in.tex)
	}
	if texels > in.limit {
		return fmt.Errorf("render: the crowd's instance records need %d texels; the driver's buffer textures hold %d", texels, in.limit)
	}
	if cap(in.data) < texels*4 {
		in.data = make([]float32, texels*4)
	}
	data := in.data[:texels*4]
	for i := range items {
		it := &items[i]
		if it.Instances == 0 {
			continue
		}
		stride, joints, targets := int(in.stride[i]), int(in.joints[i]), int(in.targets[i])
		perMorph := len(it.Morph) / it.Instances
		for k := range it.Instances {
			rec := data[(int(in.base[i])+k*stride)*4 : (int(in.base[i])+(k+1)*stride)*4]
			pal := joints * PaletteEntryFloats
			copy(rec, it.Palette[k*pal:(k+1)*pal])
			o := rec[pal : pal+4]
			o[0], o[1], o[2], o[3] = it.Offsets[3*k], it.Offsets[3*k+1], it.Offsets[3*k+2], 0
			if targets > 0 {
				w := rec[pal+4:]
				copy(w, it.Morph[k*perMorph:k*perMorph+targets])
				clear(w[targets:])
			}
		}
	}
	gl.BindBuffer(gl.TEXTURE_BUFFER, in.buf)
	if size := len(data) * 4; size > in.size {
		in.size = size
	}
	gl.BufferData(gl.TEXTURE_BUFFER, in.size, nil, gl.STREAM_DRAW)
	gl.BufferSubData(gl.TEXTURE_BUFFER, 0, len(data)*4, unsafe.Pointer(&data[0]))
	gl.BindTexture(gl.TEXTURE_BUFFER, in.tex)
	gl.TexBuffer(gl.TEXTURE_BUFFER, gl.RGBA32F, in.buf)
	gl.BindTexture(gl.TEXTURE_BUFFER, 0)
	gl.BindBuffer(gl.TEXTURE_BUFFER, 0)
	in.Bytes = len(data) * 4
	return nil
}

// bindInstances points instanced pipeline pl at item i's records.
func (r *Renderer) bindInstances(pl *pipeline, i int, m *gpuMesh) {
	in := &r.instances
	gl.ActiveTexture(gl.TEXTURE0 + instanceUnit)
	gl.BindTexture(gl.TEXTURE_BUFFER, in.tex)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.Uniform1i(pl.uInstances, instanceUnit)
	gl.Uniform1i(pl.uInstBase, in.base[i])
	gl.Uniform1i(pl.uInstStride, in.stride[i])
	gl.Uniform1i(pl.uInstJoints, in.joints[i])
	gl.Uniform1i(pl.uInstTargets, in.targets[i])
	gl.Uniform1i(pl.uInstVerts, m.vertices)
}

func (in *instances) destroy() {
	if in.buf != 0 {
		gl.DeleteBuffers(1, &in.buf)
		gl.DeleteTextures(1, &in.tex)
	}
	*in = instances{}
}
