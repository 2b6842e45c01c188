package gltfload

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
)

// maxElements caps any accessor's element count. Real characters stay far
// below it; the cap keeps a hostile count from turning into a huge
// allocation before the data is even looked at.
const maxElements = 1 << 24

// accessorLayout is what reading an accessor needs to know about its type.
type accessorLayout struct {
	comps    int // components per element
	compSize int // bytes per component
	cols     int // matrix columns (1 for vectors and scalars)
	rows     int // components per column
	elemSize int // tightly packed element size, with matrix column padding
}

func layoutOf(a *gltf.Accessor) (accessorLayout, error) {
	var l accessorLayout
	switch a.ComponentType {
	case gltf.ComponentByte, gltf.ComponentUbyte:
		l.compSize = 1
	case gltf.ComponentShort, gltf.ComponentUshort:
		l.compSize = 2
	case gltf.ComponentUint, gltf.ComponentFloat:
		l.compSize = 4
	default:
		return l, fmt.Errorf("unknown componentType %d", a.ComponentType)
	}
	l.comps = a.Type.Components()
	if l.comps == 0 {
		return l, fmt.Errorf("unknown type %d", a.Type)
	}
	l.cols, l.rows = 1, l.comps
	switch a.Type {
	case gltf.AccessorMat2:
		l.cols, l.rows = 2, 2
	case gltf.AccessorMat3:
		l.cols, l.rows = 3, 3
	case gltf.AccessorMat4:
		l.cols, l.rows = 4, 4
	}
	colBytes := l.rows * l.compSize
	if l.cols > 1 {
		// glTF §3.6.2.4: each matrix column starts on a 4-byte boundary.
		colBytes = (colBytes + 3) &^ 3
	}
	l.elemSize = colBytes * l.cols
	return l, nil
}

// viewBytes returns the bytes of bufferView v, checked against its buffer.
func (l *loader) viewBytes(v int) ([]byte, *gltf.BufferView, error) {
	if v < 0 || v >= len(l.doc.BufferViews) || l.doc.BufferViews[v] == nil {
		return nil, nil, fmt.Errorf("bufferView %d does not exist (%d bufferViews)", v, len(l.doc.BufferViews))
	}
	bv := l.doc.BufferViews[v]
	where := fmt.Sprintf("bufferViews[%d]", v)
	if bv.Buffer < 0 || bv.Buffer >= len(l.doc.Buffers) || l.doc.Buffers[bv.Buffer] == nil {
		return nil, nil, fmt.Errorf("%s: buffer %d does not exist (%d buffers)", where, bv.Buffer, len(l.doc.Buffers))
	}
	data := l.doc.Buffers[bv.Buffer].Data
	if bv.ByteOffset < 0 || bv.ByteLength < 0 || int64(bv.ByteOffset)+int64(bv.ByteLength) > int64(len(data)) {
		return nil, nil, fmt.Errorf("%s: bytes [%d, %d) lie outside buffers[%d], which has %d bytes", where, bv.ByteOffset, int64(bv.ByteOffset)+int64(bv.ByteLength), bv.Buffer, len(data))
	}
	return data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], bv, nil
}

// rawAccessor walks accessor i and calls put(element, component, value)
// for every component, as float64 (exact for every glTF component type).
// Normalized integers are converted to [-1, 1] or [0, 1] when normalize is
// set, following glTF §3.11.
func (l *loader) rawAccessor(i int, normalize bool, put func(e, c int, v float64)) (accessorLayout, int, error) {
	where := fmt.Sprintf("accessors[%d]", i)
	if i < 0 || i >= len(l.doc.Accessors) || l.doc.Accessors[i] == nil {
		return accessorLayout{}, 0, fmt.Errorf("accessors[%d] does not exist (%d accessors)", i, len(l.doc.Accessors))
	}
	a := l.doc.Accessors[i]
	lay, err := layoutOf(a)
	if err != nil {
		return lay, 0, fmt.Errorf("%s: %w", where, err)
	}
	if a.Count < 1 || a.Count > maxElements {
		return lay, 0, fmt.Errorf("%s: count %d outside [1, %d]", where, a.Count, maxElements)
	}
	conv := converter(a.ComponentType, normalize && a.Normalized)
	if a.BufferView != nil {
		data, bv, err := l.viewBytes(*a.BufferView)
		if err != nil {
			return lay, 0, fmt.Errorf("%s: %w", where, err)
		}
		stride := lay.elemSize
		if bv.ByteStride != 0 {
			if bv.ByteStride < lay.elemSize {
				return lay, 0, fmt.Errorf("%s: bufferViews[%d].byteStride %d is smaller than one element (%d bytes)", where, *a.BufferView, bv.ByteStride, lay.elemSize)
			}
			stride = bv.ByteStride
		}
		if a.ByteOffset < 0 {
			return lay, 0, fmt.Errorf("%s: negative byteOffset %d", where, a.ByteOffset)
		}
		end := int64(a.ByteOffset) + int64(stride)*int64(a.Count-1) + int64(lay.elemSize)
		if end > int64(len(data)) {
			return lay, 0, fmt.Errorf("%s: %d elements from byteOffset %d (stride %d) need %d bytes; bufferViews[%d] has %d", where, a.Count, a.ByteOffset, stride, end, *a.BufferView, len(data))
		}
		colBytes := lay.elemSize / lay.cols
		for e := 0; e < a.Count; e++ {
			base := a.ByteOffset + e*stride
			for col := 0; col < lay.cols; col++ {
				for r := 0; r < lay.rows; r++ {
					off := base + col*colBytes + r*lay.compSize
					put(e, col*lay.rows+r, conv(data[off:]))
				}
			}
		}
	} else {
		for e := 0; e < a.Count; e++ {
			for c := 0; c < lay.comps; c++ {
				put(e, c, 0)
			}
		}
	}
	if a.Sparse != nil {
		if err := l.applySparse(i, a, lay, conv, put); err != nil {
			return lay, 0, fmt.Errorf("%s.sparse: %w", where, err)
		}
	}
	return lay, a.Count, nil
}

func (l *loader) applySparse(i int, a *gltf.Accessor, lay accessorLayout, conv func([]byte) float64, put func(e, c int, v float64)) error {
	sp := a.Sparse
	if sp.Count < 1 || sp.Count > a.Count {
		return fmt.Errorf("count %d outside [1, %d]", sp.Count, a.Count)
	}
	idata, _, err := l.viewBytes(sp.Indices.BufferView)
	if err != nil {
		return fmt.Errorf("indices: %w", err)
	}
	var isize int
	switch sp.Indices.ComponentType {
	case gltf.ComponentUbyte:
		isize = 1
	case gltf.ComponentUshort:
		isize = 2
	case gltf.ComponentUint:
		isize = 4
	default:
		return fmt.Errorf("indices.componentType must be an unsigned integer type")
	}
	if sp.Indices.ByteOffset < 0 || int64(sp.Indices.ByteOffset)+int64(isize)*int64(sp.Count) > int64(len(idata)) {
		return fmt.Errorf("indices: %d indices from byteOffset %d overrun bufferViews[%d] (%d bytes)", sp.Count, sp.Indices.ByteOffset, sp.Indices.BufferView, len(idata))
	}
	vdata, _, err := l.viewBytes(sp.Values.BufferView)
	if err != nil {
		return fmt.Errorf("values: %w", err)
	}
	if sp.Values.ByteOffset < 0 || int64(sp.Values.ByteOffset)+int64(lay.elemSize)*int64(sp.Count) > int64(len(vdata)) {
		return fmt.Errorf("values: %d elements from byteOffset %d overrun bufferViews[%d] (%d bytes)", sp.Count, sp.Values.ByteOffset, sp.Values.BufferView, len(vdata))
	}
	iconv := converter(sp.Indices.ComponentType, false)
	colBytes := lay.elemSize / lay.cols
	prev := -1
	for k := 0; k < sp.Count; k++ {
		e := int(iconv(idata[sp.Indices.ByteOffset+k*isize:]))
		if e <= prev || e >= a.Count {
			return fmt.Errorf("indices[%d] = %d: sparse indices must increase and stay below count %d", k, e, a.Count)
		}
		prev = e
		base := sp.Values.ByteOffset + k*lay.elemSize
		for col := 0; col < lay.cols; col++ {
			for r := 0; r < lay.rows; r++ {
				put(e, col*lay.rows+r, conv(vdata[base+col*colBytes+r*lay.compSize:]))
			}
		}
	}
	return nil
}

// converter returns a function decoding one little-endian component.
func converter(ct gltf.ComponentType, normalized bool) func([]byte) float64 {
	switch ct {
	case gltf.ComponentByte:
		if normalized {
			return func(b []byte) float64 { return math.Max(float64(int8(b[0]))/127, -1) }
		}
		return func(b []byte) float64 { return float64(int8(b[0])) }
	case gltf.ComponentUbyte:
		if normalized {
			return func(b []byte) float64 { return float64(b[0]) / 255 }
		}
		return func(b []byte) float64 { return float64(b[0]) }
	case gltf.ComponentShort:
		if normalized {
			return func(b []byte) float64 { return math.Max(float64(int16(binary.LittleEndian.Uint16(b)))/32767, -1) }
		}
		return func(b []byte) float64 { return float64(int16(binary.LittleEndian.Uint16(b))) }
	case gltf.ComponentUshort:
		if normalized {
			return func(b []byte) float64 { return float64(binary.LittleEndian.Uint16(b)) / 65535 }
		}
		return func(b []byte) float64 { return float64(binary.LittleEndian.Uint16(b)) }
	case gltf.ComponentUint:
		if normalized {
			return func(b []byte) float64 { return float64(binary.LittleEndian.Uint32(b)) / 4294967295 }
		}
		return func(b []byte) float64 { return float64(binary.LittleEndian.Uint32(b)) }
	default:
		return func(b []byte) float64 { return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))) }
	}
}

// floats reads accessor i as float32 values, comps per element. want lists
// the accepted accessor types; normalized integers are converted.
func (l *loader) floats(i int, want ...gltf.AccessorType) ([]float32, int, error) {
	if err := l.checkType(i, want); err != nil {
		return nil, 0, err
	}
	a := l.doc.Accessors[i]
	comps := a.Type.Components()
	out := make([]float32, a.Count*comps)
	_, _, err := l.rawAccessor(i, true, func(e, c int, v float64) { out[e*comps+c] = float32(v) })
	if err != nil {
		return nil, 0, err
	}
	return out, comps, nil
}

// uints reads accessor i as unsigned integers; it refuses float and signed
// component types.
func (l *loader) uints(i int, want ...gltf.AccessorType) ([]uint32, int, error) {
	if err := l.checkType(i, want); err != nil {
		return nil, 0, err
	}
	a := l.doc.Accessors[i]
	switch a.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return nil, 0, fmt.Errorf("accessors[%d]: componentType %s, want an unsigned integer type", i, a.ComponentType)
	}
	comps := a.Type.Components()
	out := make([]uint32, a.Count*comps)
	_, _, err := l.rawAccessor(i, false, func(e, c int, v float64) { out[e*comps+c] = uint32(v) })
	if err != nil {
		return nil, 0, err
	}
	return out, comps, nil
}

func (l *loader) checkType(i int, want []gltf.AccessorType) error {
	if i < 0 || i >= len(l.doc.Accessors) || l.doc.Accessors[i] == nil {
		return fmt.Errorf("accessors[%d] does not exist (%d accessors)", i, len(l.doc.Accessors))
	}
	a := l.doc.Accessors[i]
	if len(want) == 0 {
		return nil
	}
	for _, w := range want {
		if a.Type == w {
			return nil
		}
	}
	return fmt.Errorf("accessors[%d]: type %s, want %s", i, a.Type, want[0])
}

// warnStride notes a byteStride on a view the specification allows it only
// for vertex attributes: harmless to read (real exporters write it), so it
// is a warning, once per view.
func (l *loader) warnStride(acc int, use string) {
	if acc < 0 || acc >= len(l.doc.Accessors) || l.doc.Accessors[acc] == nil || l.doc.Accessors[acc].BufferView == nil {
		return
	}
	v := *l.doc.Accessors[acc].BufferView
	if v < 0 || v >= len(l.doc.BufferViews) || l.doc.BufferViews[v] == nil || l.doc.BufferViews[v].ByteStride == 0 {
		return
	}
	if l.strideWarned == nil {
		l.strideWarned = map[int]bool{}
	}
	if !l.strideWarned[v] {
		l.strideWarned[v] = true
		l.warnf("bufferViews[%d]: byteStride %d is only allowed for vertex attributes, but accessors[%d] uses it for %s; read with the stride", v, l.doc.BufferViews[v].ByteStride, acc, use)
	}
}
