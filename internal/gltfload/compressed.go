package gltfload

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/qmuntal/gltf"

	"github.com/skinview/skinview/internal/gltfload/codec"
)

// Compression says how much data one compression extension held in a file.
type Compression struct {
	// Extension is the extension's name, e.g. "EXT_meshopt_compression".
	Extension string
	// Objects counts what it compressed: bufferViews for meshopt,
	// primitives for Draco.
	Objects int
	// Compressed and Decoded are byte counts before and after decoding.
	Compressed, Decoded int64
}

const (
	extDraco   = "KHR_draco_mesh_compression"
	extMeshopt = "EXT_meshopt_compression"
)

type meshoptView struct {
	Buffer     *int   `json:"buffer"`
	ByteOffset int    `json:"byteOffset"`
	ByteLength *int   `json:"byteLength"`
	ByteStride *int   `json:"byteStride"`
	Count      *int   `json:"count"`
	Mode       string `json:"mode"`
	Filter     string `json:"filter"`
}

type meshoptBuffer struct {
	Fallback bool `json:"fallback"`
}

type dracoPrimitive struct {
	BufferView *int           `json:"bufferView"`
	Attributes map[string]int `json:"attributes"`
}

// extension decodes extension name of an object into dst; false when the
// object does not have it.
func extension(exts gltf.Extensions, name string, dst any) (bool, error) {
	v, ok := exts[name]
	if !ok {
		return false, nil
	}
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return true, err
		}
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return true, fmt.Errorf("extensions.%s: %v", name, err)
	}
	return true, nil
}

// isFallback says whether buffer i only stands in for data that
// EXT_meshopt_compression views decode: marked fallback, or carrying the
// extension without a uri. Such a buffer is never read and needs no bytes.
func (l *loader) isFallback(i int) bool {
	b := l.doc.Buffers[i]
	if b == nil {
		return false
	}
	var ext meshoptBuffer
	ok, err := extension(b.Extensions, extMeshopt, &ext)
	return ok && err == nil && (ext.Fallback || b.URI == "")
}

// decompress decodes every EXT_meshopt_compression bufferView and every
// KHR_draco_mesh_compression primitive into buffers of their own, after
// which the file reads as an uncompressed one: a meshopt view points at its
// decoded bytes, a Draco accessor at a view of its values written as the
// accessor declares them. Every output is charged to the file's budget at
// the size the file declares before it is allocated.
func (l *loader) decompress() error {
	if err := l.decodeMeshopt(); err != nil {
		return err
	}
	if err := l.decodeDraco(); err != nil {
		return err
	}
	// Decoded bytes are bytes the file holds: reading them is budgeted
	// as if they had been stored uncompressed.
	var decoded int64
	for _, c := range l.model.Compression {
		decoded += c.Decoded
	}
	if decoded > 0 {
		left := l.budget
		l.setBudget(l.budgetBase + decoded)
		l.budget = left + budgetFactor*decoded
	}
	return nil
}

// addBuffer appends a buffer holding data and returns its index.
func (l *loader) addBuffer(data []byte) int {
	l.doc.Buffers = append(l.doc.Buffers, &gltf.Buffer{ByteLength: len(data), Data: data})
	return len(l.doc.Buffers) - 1
}

func (l *loader) noteCompression(ext string, compressed, decoded int64) {
	cs := l.model.Compression
	k := slices.IndexFunc(cs, func(c Compression) bool { return c.Extension == ext })
	if k < 0 {
		l.model.Compression = append(cs, Compression{Extension: ext})
		k = len(l.model.Compression) - 1
	}
	c := &l.model.Compression[k]
	c.Objects++
	c.Compressed += compressed
	c.Decoded += decoded
}

func (l *loader) decodeMeshopt() error {
	for v, bv := range l.doc.BufferViews {
		if bv == nil {
			continue
		}
		where := fmt.Sprintf("bufferViews[%d].extensions.%s", v, extMeshopt)
		var ext meshoptView
		ok, err := extension(bv.Extensions, extMeshopt, &ext)
		if err != nil {
			return fmt.Errorf("bufferViews[%d]: %w", v, err)
		}
		if !ok {
			continue
		}
		if ext.Buffer == nil || ext.ByteLength == nil || ext.ByteStride == nil || ext.Count == nil {
			return fmt.Errorf("%s: buffer, byteLength, byteStride and count are required", where)
		}
		b := *ext.Buffer
		if b < 0 || b >= len(l.doc.Buffers) || l.doc.Buffers[b] == nil {
			return fmt.Errorf("%s.buffer: buffers[%d] does not exist (%d buffers)", where, b, len(l.doc.Buffers))
		}
		if l.isFallback(b) {
			return fmt.Errorf("%s.buffer: buffers[%d] is a fallback buffer, which holds no compressed data", where, b)
		}
		data := l.doc.Buffers[b].Data
		off, n := ext.ByteOffset, *ext.ByteLength
		if off < 0 || n < 1 || off > len(data) || n > len(data)-off {
			return fmt.Errorf("%s: bytes [%d, %d) lie outside buffers[%d], which has %d bytes", where, off, int64(off)+int64(n), b, len(data))
		}
		count, stride := *ext.Count, *ext.ByteStride
		if count < 1 || count > maxElements || stride < 1 || stride > 256 {
			return fmt.Errorf("%s: count %d and byteStride %d, want count in [1, %d] and byteStride in [1, 256]", where, count, stride, maxElements)
		}
		if int64(count)*int64(stride) > int64(bv.ByteLength) {
			return fmt.Errorf("%s: count %d × byteStride %d is more than the view's byteLength %d", where, count, stride, bv.ByteLength)
		}
		if err := l.charge(where, int64(bv.ByteLength)); err != nil {
			return err
		}
		out := make([]byte, bv.ByteLength)
		if err := codec.Meshopt(out[:count*stride], data[off:off+n], count, stride, ext.Mode, ext.Filter); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		bv.Buffer, bv.ByteOffset = l.addBuffer(out), 0
		l.noteCompression(extMeshopt, int64(n), int64(count*stride))
	}
	return nil
}

func (l *loader) decodeDraco() error {
	done := map[int]bool{}
	for mi, m := range l.doc.Meshes {
		if m == nil {
			continue
		}
		for pi, p := range m.Primitives {
			if p == nil {
				continue
			}
			where := fmt.Sprintf("meshes[%d].primitives[%d].extensions.%s", mi, pi, extDraco)
			var ext dracoPrimitive
			ok, err := extension(p.Extensions, extDraco, &ext)
			if err != nil {
				return fmt.Errorf("meshes[%d].primitives[%d]: %w", mi, pi, err)
			}
			if !ok {
				continue
			}
			if err := l.decodeDracoPrimitive(where, p, ext, done); err != nil {
				return err
			}
		}
	}
	return nil
}

// dracoOut is one accessor a Draco primitive fills.
type dracoOut struct {
	acc, id int
	sem     string
	lay     accessorLayout
}

func (l *loader) decodeDracoPrimitive(where string, p *gltf.Primitive, ext dracoPrimitive, done map[int]bool) error {
	if ext.BufferView == nil {
		return fmt.Errorf("%s: bufferView is required", where)
	}
	src, _, err := l.viewBytes(*ext.BufferView)
	if err != nil {
		return fmt.Errorf("%s.bufferView: %w", where, err)
	}
	var outs []dracoOut
	var declared int64
	sems := make([]string, 0, len(ext.Attributes))
	for sem := range ext.Attributes {
		sems = append(sems, sem)
	}
	slices.Sort(sems)
	for _, sem := range sems {
		acc, ok := p.Attributes[sem]
		if !ok {
			return fmt.Errorf("%s.attributes.%s: the primitive has no such attribute", where, sem)
		}
		o, err := l.dracoTarget(where+".attributes."+sem, acc)
		if err != nil {
			return err
		}
		o.id, o.sem = ext.Attributes[sem], sem
		if !done[acc] {
			outs = append(outs, o)
			declared += int64(l.doc.Accessors[acc].Count) * int64(o.lay.elemSize)
		}
	}
	idx := -1
	if p.Indices != nil && !done[*p.Indices] {
		o, err := l.dracoTarget(where+" indices", *p.Indices)
		if err != nil {
			return err
		}
		if o.lay.comps != 1 || codec.CompSize(glComponent(l.doc.Accessors[o.acc].ComponentType)) == 0 {
			return fmt.Errorf("%s: indices accessors[%d] is not SCALAR", where, o.acc)
		}
		idx = o.acc
		declared += int64(l.doc.Accessors[idx].Count) * int64(o.lay.elemSize)
	}
	if len(outs) == 0 && idx < 0 {
		return nil
	}
	if err := l.charge(where, declared); err != nil {
		return err
	}
	dm, err := codec.DecodeDraco(src)
	if err != nil {
		return fmt.Errorf("%s: bufferViews[%d]: %w", where, *ext.BufferView, err)
	}
	defer dm.Close()
	if err := l.dracoCounts(where, p, ext, outs, idx, dm.NumPoints(), 3*dm.NumFaces()); err != nil {
		return err
	}
	size := 0
	for _, o := range outs {
		size += l.doc.Accessors[o.acc].Count * o.lay.elemSize
	}
	if idx >= 0 {
		size += l.doc.Accessors[idx].Count * codec.CompSize(glComponent(l.doc.Accessors[idx].ComponentType))
	}
	data := make([]byte, 0, size)
	type span struct{ acc, off, n int }
	var spans []span
	for _, o := range outs {
		a := l.doc.Accessors[o.acc]
		off := len(data)
		data = data[:off+a.Count*o.lay.elemSize]
		if err := dm.Attribute(o.id, glComponent(a.ComponentType), o.lay.comps, a.Normalized, data[off:]); err != nil {
			return fmt.Errorf("%s.attributes.%s: %w", where, o.sem, err)
		}
		spans = append(spans, span{o.acc, off, a.Count * o.lay.elemSize})
	}
	if idx >= 0 {
		a := l.doc.Accessors[idx]
		off := len(data)
		data = data[:off+a.Count*codec.CompSize(glComponent(a.ComponentType))]
		if err := dm.Indices(data[off:], glComponent(a.ComponentType)); err != nil {
			return fmt.Errorf("%s: indices accessors[%d]: %w", where, idx, err)
		}
		spans = append(spans, span{idx, off, len(data) - off})
	}
	buf := l.addBuffer(data)
	for _, s := range spans {
		l.doc.BufferViews = append(l.doc.BufferViews, &gltf.BufferView{Buffer: buf, ByteOffset: s.off, ByteLength: s.n})
		v := len(l.doc.BufferViews) - 1
		a := l.doc.Accessors[s.acc]
		a.BufferView, a.ByteOffset, a.Sparse = &v, 0, nil
		done[s.acc] = true
	}
	l.dracoDecoded = done
	l.noteCompression(extDraco, int64(len(src)), int64(len(data)))
	return nil
}

// dracoCounts checks that the accessors a Draco primitive fills, outs and
// the indices idx (-1: none), declare the points and corners (three per
// triangle) libdraco decoded. Older encoders wrote the counts from before
// Draco split vertices, which the specification does not allow; where
// the decoded geometry is all the primitive draws (every attribute and the
// indices come from it, and it has no morph targets, whose displacements
// would be counted the old way) it is consistent in itself: the accessors
// take the decoded counts, the extra bytes are charged to the budget and
// the report warns. Otherwise a count that differs is refused.
func (l *loader) dracoCounts(where string, p *gltf.Primitive, ext dracoPrimitive, outs []dracoOut, idx, points, corners int) error {
	var first error
	var extra int64
	for _, o := range outs {
		if a := l.doc.Accessors[o.acc]; a.Count != points {
			if first == nil {
				first = fmt.Errorf("%s.attributes.%s: libdraco decoded %d vertices, accessors[%d] declares %d", where, o.sem, points, o.acc, a.Count)
			}
			extra += int64(points-a.Count) * int64(o.lay.elemSize)
		}
	}
	mismatch := first != nil
	if idx >= 0 {
		if a := l.doc.Accessors[idx]; a.Count != corners {
			mismatch = true
			extra += int64(corners-a.Count) * int64(codec.CompSize(glComponent(a.ComponentType)))
		}
	}
	if !mismatch {
		return nil
	}
	whole := len(outs) == len(ext.Attributes) && len(p.Attributes) == len(ext.Attributes) && len(p.Targets) == 0 && idx >= 0 && points > 0 && points <= maxElements && corners <= maxElements
	if !whole {
		if first == nil {
			return nil // the indices are refused as they are read
		}
		return first
	}
	if extra > 0 {
		if err := l.charge(where, extra); err != nil {
			return err
		}
	}
	var names []string
	for _, o := range outs {
		if a := l.doc.Accessors[o.acc]; a.Count != points {
			names = append(names, fmt.Sprintf("accessors[%d] %d", o.acc, a.Count))
			a.Count = points
		}
	}
	if a := l.doc.Accessors[idx]; a.Count != corners {
		names = append(names, fmt.Sprintf("indices accessors[%d] %d", idx, a.Count))
		a.Count = corners
	}
	l.issue("VIEWER_DRACO_COUNT", strings.TrimSuffix(where, ".extensions."+extDraco),
		"libdraco decoded %d vertices and %d indices, where the file declares %s (counted before compression, which glTF does not allow); the decoded geometry is drawn",
		points, corners, strings.Join(names, ", "))
	return nil
}

// dracoTarget checks an accessor a Draco primitive decodes into.
func (l *loader) dracoTarget(where string, acc int) (dracoOut, error) {
	if acc < 0 || acc >= len(l.doc.Accessors) || l.doc.Accessors[acc] == nil {
		return dracoOut{}, fmt.Errorf("%s: accessors[%d] does not exist (%d accessors)", where, acc, len(l.doc.Accessors))
	}
	a := l.doc.Accessors[acc]
	lay, err := layoutOf(a)
	if err != nil {
		return dracoOut{}, fmt.Errorf("%s: accessors[%d]: %w", where, acc, err)
	}
	if lay.cols != 1 {
		return dracoOut{}, fmt.Errorf("%s: accessors[%d] is a matrix, which Draco does not hold", where, acc)
	}
	if a.Count < 1 || a.Count > maxElements {
		return dracoOut{}, fmt.Errorf("%s: accessors[%d] count %d is outside [1, %d]", where, acc, a.Count, maxElements)
	}
	return dracoOut{acc: acc, lay: lay}, nil
}

// glComponent is a component type as glTF's JSON numbers it (5120-5126).
func glComponent(ct gltf.ComponentType) int {
	if int(ct) < len(componentTypes) {
		return componentTypes[ct].gl
	}
	return 0
}
