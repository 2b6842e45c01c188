package render

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Instanced draws (a crowd: one draw per mesh for every member). An
// InstanceBatch keeps the data of every member of a population on the GPU
// across frames, in an RGBA32F buffer texture of two regions: the members'
// palettes (three texels an entry, member after member, the layout
// graph.Crowd writes them in) and then each member's extras (a texel with
// its offset, then its morph weights four a texel). Only what was set
// since the last frame is uploaded, in runs of neighbouring members; a run
// of palettes can be uploaded straight from the caller's memory
// (SetPalettes). A frame's instanced item draws the members its Members
// list names (a second, small buffer texture), so members out of view
// cost nothing and members not updated cost no upload.

// instanceUnit and memberUnit are the texture units of a batch's records
// and of the members list.
const (
	instanceUnit = 8
	memberUnit   = 9
)

// InstanceBatch is the per-member data of instanced draws of one mesh,
// kept on the GPU. It belongs to the renderer that made it and must be
// used on its GL thread.
type InstanceBatch struct {
	population, joints, targets int
	palTexels, extTexels        int // a member's texels in each region
	buf, tex                    uint32
	list, listTex               uint32 // the members to draw
	listSize                    int    // bytes of list's storage
	// data mirrors the buffer as Set and SetExtras wrote it; dirtyPal and
	// dirtyExt mark the members whose palette or extras wait for upload.
	data               []float32
	dirtyPal, dirtyExt []bool
	anyDirty           bool
	direct             int // bytes SetPalettes uploaded since the last upload
	// Bytes is what the last frame uploaded for this batch.
	Bytes int
}

// NewInstanceBatch makes the records of population members, each with a
// palette of joints entries and targets morph weights.
func (r *Renderer) NewInstanceBatch(population, joints, targets int) (*InstanceBatch, error) {
	b := &InstanceBatch{population: population, joints: joints, targets: targets, palTexels: 3 * joints, extTexels: 1 + (targets+3)/4}
	texels := (b.palTexels + b.extTexels) * population
	var limit int32
	gl.GetIntegerv(gl.MAX_TEXTURE_BUFFER_SIZE, &limit)
	if population < 1 || joints < 1 || texels > int(limit) {
		return nil, fmt.Errorf("render: an instance batch of %d members of %d joints and %d morph targets needs %d texels; the driver's buffer textures hold %d", population, joints, targets, texels, limit)
	}
	b.data = make([]float32, 4*texels)
	b.dirtyPal, b.dirtyExt = make([]bool, population), make([]bool, population)
	gl.GenBuffers(1, &b.buf)
	gl.BindBuffer(gl.TEXTURE_BUFFER, b.buf)
	gl.BufferData(gl.TEXTURE_BUFFER, len(b.data)*4, nil, gl.DYNAMIC_DRAW)
	gl.GenTextures(1, &b.tex)
	gl.BindTexture(gl.TEXTURE_BUFFER, b.tex)
	gl.TexBuffer(gl.TEXTURE_BUFFER, gl.RGBA32F, b.buf)
	gl.GenBuffers(1, &b.list)
	gl.GenTextures(1, &b.listTex)
	gl.BindBuffer(gl.TEXTURE_BUFFER, b.list)
	gl.BufferData(gl.TEXTURE_BUFFER, 4, nil, gl.STREAM_DRAW)
	b.listSize = 4
	gl.BindTexture(gl.TEXTURE_BUFFER, b.listTex)
	gl.TexBuffer(gl.TEXTURE_BUFFER, gl.R32I, b.list)
	gl.BindTexture(gl.TEXTURE_BUFFER, 0)
	gl.BindBuffer(gl.TEXTURE_BUFFER, 0)
	return b, nil
}

// palette is member m's palette in the mirror, extras its extras.
func (b *InstanceBatch) palette(m int) []float32 {
	return b.data[4*m*b.palTexels : 4*(m+1)*b.palTexels]
}

func (b *InstanceBatch) extras(m int) []float32 {
	base := b.population * b.palTexels
	return b.data[4*(base+m*b.extTexels) : 4*(base+(m+1)*b.extTexels)]
}

// Set writes member m's record: its palette (PaletteEntryFloats floats
// an entry, the batch's joints of them), its offset (a translation added
// after skinning) and its morph weights (the batch's targets of them; nil
// for none). The next Draw with the batch uploads it.
func (b *InstanceBatch) Set(m int, palette []float32, offset [3]float32, weights []float32) {
	copy(b.palette(m), palette)
	b.dirtyPal[m] = true
	b.SetExtras(m, offset, weights)
}

// SetExtras writes member m's offset and morph weights only.
func (b *InstanceBatch) SetExtras(m int, offset [3]float32, weights []float32) {
	e := b.extras(m)
	e[0], e[1], e[2], e[3] = offset[0], offset[1], offset[2], 0
	w := e[4:]
	n := copy(w[:b.targets], weights)
	clear(w[n:])
	b.dirtyExt[m], b.anyDirty = true, true
}

// SetPalettes uploads the palettes of members first, first+1, … at once,
// straight from palettes (each the batch's joints entries, one after
// another): the layout graph.Crowd keeps them in, so nothing is copied on
// the way. Record does not see them.
func (b *InstanceBatch) SetPalettes(first int, palettes []float32) {
	if len(palettes) == 0 {
		return
	}
	gl.BindBuffer(gl.TEXTURE_BUFFER, b.buf)
	gl.BufferSubData(gl.TEXTURE_BUFFER, first*b.palTexels*16, len(palettes)*4, unsafe.Pointer(&palettes[0]))
	gl.BindBuffer(gl.TEXTURE_BUFFER, 0)
	b.direct += len(palettes) * 4
}

// Record is member m's record as Set last wrote it: its palette and
// offset.
func (b *InstanceBatch) Record(m int) (palette []float32, offset [3]float32) {
	e := b.extras(m)
	return b.palette(m), [3]float32{e[0], e[1], e[2]}
}

// upload sends the runs of the mirror set since the last upload, and the
// members to draw.
func (b *InstanceBatch) upload(members []int32) {
	b.Bytes, b.direct = b.direct, 0
	gl.BindBuffer(gl.TEXTURE_BUFFER, b.buf)
	if b.anyDirty {
		b.uploadRuns(b.dirtyPal, 0, b.palTexels)
		b.uploadRuns(b.dirtyExt, b.population*b.palTexels, b.extTexels)
		b.anyDirty = false
	}
	gl.BindBuffer(gl.TEXTURE_BUFFER, b.list)
	if size := len(members) * 4; size > b.listSize {
		b.listSize = size
	}
	gl.BufferData(gl.TEXTURE_BUFFER, b.listSize, nil, gl.STREAM_DRAW)
	if len(members) > 0 {
		gl.BufferSubData(gl.TEXTURE_BUFFER, 0, len(members)*4, unsafe.Pointer(&members[0]))
	}
	gl.BindBuffer(gl.TEXTURE_BUFFER, 0)
	b.Bytes += len(members) * 4
}

// uploadRuns uploads, from the mirror, the runs of members dirty marks in
// the region starting at texel base, texels a member, and clears the
// marks.
func (b *InstanceBatch) uploadRuns(dirty []bool, base, texels int) {
	for m := 0; m < b.population; {
		if !dirty[m] {
			m++
			continue
		}
		end := m
		for end < b.population && dirty[end] {
			dirty[end] = false
			end++
		}
		from, to := 4*(base+m*texels), 4*(base+end*texels)
		gl.BufferSubData(gl.TEXTURE_BUFFER, from*4, (to-from)*4, unsafe.Pointer(&b.data[from]))
		b.Bytes += (to - from) * 4
		m = end
	}
}

// Destroy frees the batch's GL objects.
func (b *InstanceBatch) Destroy() {
	if b.buf != 0 {
		gl.DeleteBuffers(1, &b.buf)
		gl.DeleteTextures(1, &b.tex)
		gl.DeleteBuffers(1, &b.list)
		gl.DeleteTextures(1, &b.listTex)
	}
	*b = InstanceBatch{}
}

// InstanceBytes is what the last Draw (or Prepare) uploaded of instance
// records and members lists.
func (r *Renderer) InstanceBytes() int { return r.instanceBytes }

// uploadInstances checks every instanced item and uploads its batch.
func (r *Renderer) uploadInstances(items []DrawItem) error {
	r.instanceBytes = 0
	for i := range items {
		it := &items[i]
		if it.Instances == 0 {
			continue
		}
		b := it.Batch
		if b == nil || b.buf == 0 {
			return fmt.Errorf("render: draw item %d draws %d instances without an instance batch", i, it.Instances)
		}
		if len(it.Members) != it.Instances {
			return fmt.Errorf("render: draw item %d draws %d instances and names %d members", i, it.Instances, len(it.Members))
		}
		if int(it.Mesh) < len(r.meshes) && b.targets < int(r.meshes[it.Mesh].targets) && b.targets > 0 {
			return fmt.Errorf("render: draw item %d's batch holds %d morph weights; its mesh has %d targets", i, b.targets, r.meshes[it.Mesh].targets)
		}
		b.upload(it.Members)
		r.instanceBytes += b.Bytes
	}
	return nil
}

// bindInstances points instanced pipeline pl at item i's batch.
func (r *Renderer) bindInstances(pl *pipeline, it *DrawItem, m *gpuMesh) {
	b := it.Batch
	gl.ActiveTexture(gl.TEXTURE0 + instanceUnit)
	gl.BindTexture(gl.TEXTURE_BUFFER, b.tex)
	gl.ActiveTexture(gl.TEXTURE0 + memberUnit)
	gl.BindTexture(gl.TEXTURE_BUFFER, b.listTex)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.Uniform1i(pl.uInstances, instanceUnit)
	gl.Uniform1i(pl.uMembers, memberUnit)
	gl.Uniform1i(pl.uInstExtras, int32(b.population*b.palTexels))
	gl.Uniform1i(pl.uInstExtraTexels, int32(b.extTexels))
	gl.Uniform1i(pl.uInstJoints, int32(b.joints))
	gl.Uniform1i(pl.uInstTargets, min(int32(b.targets), m.targets))
	gl.Uniform1i(pl.uInstVerts, m.vertices)
}
