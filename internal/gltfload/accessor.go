package gltfload

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

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
	if int(a.ComponentType) >= len(componentTypes) {
		return l, fmt.Errorf("unknown componentType %d", a.ComponentType)
	}
	l.compSize = componentTypes[a.ComponentType].size
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

// readSize is the bytes of one element that are read: a matrix's last
// column ends without the padding that would align a next column (glTF
// §3.6.2.4), so a view may end there.
func (l accessorLayout) readSize() int {
	return l.elemSize/l.cols*(l.cols-1) + l.rows*l.compSize
}

// deferUnknownType takes an accessor type glTF does not define (at path,
// from the schema check) as a report line, not a refusal: an accessor
// nothing reads is unused data. Reading it is refused (checkAccessor).
func (l *loader) deferUnknownType(path []any, typ string) bool {
	if len(path) != 3 || path[0] != "accessors" || path[2] != "type" {
		return false
	}
	i, ok := path[1].(int)
	if !ok {
		return false
	}
	if l.unknownType == nil {
		l.unknownType = map[int]string{}
	}
	l.unknownType[i] = typ
	l.issue("VALUE_NOT_IN_LIST", fmt.Sprintf("accessors[%d].type", i), "%q is not one of %s; the accessor cannot be read", typ, accessorTypes)
	return true
}

const accessorTypes = "SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3, MAT4"

// checkViews checks every bufferView against its buffer, used or not: a
// view outside its buffer is a broken file, not unused data.
func (l *loader) checkViews() error {
	for v := range l.doc.BufferViews {
		if _, _, err := l.viewBytes(v); err != nil && !errors.Is(err, errNoBytes) {
			return err
		}
		bv := l.doc.BufferViews[v]
		if bv.ByteStride < 0 || bv.ByteStride > 252 {
			return fmt.Errorf("bufferViews[%d].byteStride: %d is outside [4, 252]", v, bv.ByteStride)
		}
		if s := bv.ByteStride; s != 0 && (s < 4 || s%4 != 0) {
			// Reads here are byte-wise, so alignment is not needed to be safe.
			l.issue("VALUE_MULTIPLE_OF", fmt.Sprintf("bufferViews[%d].byteStride", v), "%d is not a multiple of 4 in [4, 252]; read anyway", s)
		}
	}
	return nil
}

// viewBytes returns the bytes of bufferView v, checked against its buffer.
func (l *loader) viewBytes(v int) ([]byte, *gltf.BufferView, error) {
	if v < 0 || v >= len(l.doc.BufferViews) || l.doc.BufferViews[v] == nil {
		return nil, nil, fmt.Errorf("bufferViews[%d] does not exist (%d bufferViews)", v, len(l.doc.BufferViews))
	}
	bv := l.doc.BufferViews[v]
	where := fmt.Sprintf("bufferViews[%d]", v)
	if bv.Buffer < 0 || bv.Buffer >= len(l.doc.Buffers) || l.doc.Buffers[bv.Buffer] == nil {
		return nil, nil, fmt.Errorf("%s: buffers[%d] does not exist (%d buffers)", where, bv.Buffer, len(l.doc.Buffers))
	}
	data := l.doc.Buffers[bv.Buffer].Data
	why, missing := l.bufferMissing[bv.Buffer]
	size := len(data)
	if missing {
		size = l.doc.Buffers[bv.Buffer].ByteLength
	}
	if bv.ByteOffset < 0 || bv.ByteLength < 0 || bv.ByteOffset > size || bv.ByteLength > size || bv.ByteOffset+bv.ByteLength > size {
		return nil, nil, fmt.Errorf("%s: bytes [%d, %d) lie outside buffers[%d], which has %d bytes", where, bv.ByteOffset, int64(bv.ByteOffset)+int64(bv.ByteLength), bv.Buffer, size)
	}
	if missing {
		// The view is checked against the declared length; bv lets the
		// caller check its own ranges against the view's.
		return nil, bv, fmt.Errorf("%s: buffers[%d] %s: %w", where, bv.Buffer, why, errNoBytes)
	}
	return data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], bv, nil
}

// checkAllAccessors checks every accessor's structure up front.
func (l *loader) checkAllAccessors() error {
	l.accChecked = make([]bool, len(l.doc.Accessors))
	for i := range l.doc.Accessors {
		if _, unknown := l.unknownType[i]; unknown {
			continue
		}
		if err := l.checkAccessor(i); err != nil && !errors.Is(err, errNoBytes) {
			return err
		}
	}
	return nil
}

// checkAccessor validates accessor i without decoding it: type, count,
// the byte ranges of its elements and sparse arrays, and the sparse
// indices. After it, reading cannot go out of bounds.
func (l *loader) checkAccessor(i int) error {
	where := fmt.Sprintf("accessors[%d]", i)
	if i < 0 || i >= len(l.doc.Accessors) || l.doc.Accessors[i] == nil {
		return fmt.Errorf("%s does not exist (%d accessors)", where, len(l.doc.Accessors))
	}
	if l.accChecked[i] {
		return nil
	}
	if typ, unknown := l.unknownType[i]; unknown {
		return fmt.Errorf("%s.type: %q is not one of %s", where, typ, accessorTypes)
	}
	a := l.doc.Accessors[i]
	lay, err := layoutOf(a)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	if a.Count < 1 || a.Count > maxElements {
		return fmt.Errorf("%s: count %d is outside [1, %d]", where, a.Count, maxElements)
	}
	if a.Normalized {
		switch a.ComponentType {
		case gltf.ComponentFloat:
			// Harmless: a float needs no normalization.
			l.issue("ACCESSOR_NORMALIZED_INVALID", where+".normalized", "set on FLOAT components, where glTF forbids it; ignored")
			a.Normalized = false
		case gltf.ComponentUint:
			return fmt.Errorf("%s: normalized UNSIGNED_INT is not allowed", where)
		}
	}
	if a.ByteOffset < 0 || a.ByteOffset > maxJSONInt {
		return fmt.Errorf("%s: byteOffset %d is outside [0, %d]", where, a.ByteOffset, int64(maxJSONInt))
	}
	if a.BufferView == nil {
		if a.ByteOffset != 0 {
			l.issue("UNSATISFIED_DEPENDENCY", where+".byteOffset", "%d without a bufferView is ignored", a.ByteOffset)
		}
		// Zeros (and sparse values) with no bytes behind them: the count is
		// only believable as far as the file's budget goes.
		if need := int64(a.Count) * int64(lay.comps) * 4; need > l.budgetTotal {
			return fmt.Errorf("%s: count %d without a bufferView declares %d bytes of data, more than this file can justify (%d bytes)", where, a.Count, need, l.budgetTotal)
		}
	} else {
		v := *a.BufferView
		data, bv, err := l.viewBytes(v)
		missing := errors.Is(err, errNoBytes)
		if err != nil && !missing {
			return fmt.Errorf("%s: %w", where, err)
		}
		viewLen := len(data)
		if missing {
			viewLen = bv.ByteLength
		}
		stride := lay.elemSize
		if bv.ByteStride != 0 {
			if bv.ByteStride < lay.elemSize {
				return fmt.Errorf("%s: bufferViews[%d].byteStride %d is smaller than one element (%d bytes)", where, v, bv.ByteStride, lay.elemSize)
			}
			stride = bv.ByteStride
		}
		end := int64(a.ByteOffset) + int64(stride)*int64(a.Count-1) + int64(lay.readSize())
		if end > int64(viewLen) {
			return fmt.Errorf("%s: %d elements from byteOffset %d (stride %d) need %d bytes; bufferViews[%d] has %d", where, a.Count, a.ByteOffset, stride, end, v, viewLen)
		}
		if missing {
			return fmt.Errorf("%s: %w", where, err)
		}
		if a.ByteOffset%lay.compSize != 0 {
			l.issue("ACCESSOR_OFFSET_ALIGNMENT", where+".byteOffset", "%d is not a multiple of its %d-byte components; read anyway", a.ByteOffset, lay.compSize)
		} else if (bv.ByteOffset+a.ByteOffset)%lay.compSize != 0 {
			l.issue("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", where, "byteOffset %d in bufferViews[%d] (at %d) is not aligned to its %d-byte components; read anyway", a.ByteOffset, v, bv.ByteOffset, lay.compSize)
		}
	}
	if a.Sparse != nil {
		if err := l.checkSparse(a, lay); err != nil {
			return fmt.Errorf("%s.sparse: %w", where, err)
		}
	}
	l.accChecked[i] = true
	return nil
}

// sparseIndexSize is the size in bytes of a sparse index of type ct, 0
// for the types sparse indices may not have (float and signed).
func sparseIndexSize(ct gltf.ComponentType) int {
	switch ct {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
		return componentTypes[ct].size
	}
	return 0
}

func (l *loader) checkSparse(a *gltf.Accessor, lay accessorLayout) error {
	sp := a.Sparse
	if sp.Count < 1 || sp.Count > a.Count {
		return fmt.Errorf("count %d is outside [1, %d] (the accessor's count)", sp.Count, a.Count)
	}
	isize := sparseIndexSize(sp.Indices.ComponentType)
	if isize == 0 {
		return fmt.Errorf("indices.componentType %s, want UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT", componentName(sp.Indices.ComponentType))
	}
	idata, _, err := l.viewBytes(sp.Indices.BufferView)
	if err != nil {
		return fmt.Errorf("indices: %w", err)
	}
	if sp.Indices.ByteOffset < 0 || sp.Indices.ByteOffset > len(idata) || int64(sp.Indices.ByteOffset)+int64(isize)*int64(sp.Count) > int64(len(idata)) {
		return fmt.Errorf("indices: %d indices from byteOffset %d overrun bufferViews[%d] (%d bytes)", sp.Count, sp.Indices.ByteOffset, sp.Indices.BufferView, len(idata))
	}
	vdata, _, err := l.viewBytes(sp.Values.BufferView)
	if err != nil {
		return fmt.Errorf("values: %w", err)
	}
	if sp.Values.ByteOffset < 0 || sp.Values.ByteOffset > len(vdata) || int64(sp.Values.ByteOffset)+int64(lay.elemSize)*int64(sp.Count-1)+int64(lay.readSize()) > int64(len(vdata)) {
		return fmt.Errorf("values: %d elements from byteOffset %d overrun bufferViews[%d] (%d bytes)", sp.Count, sp.Values.ByteOffset, sp.Values.BufferView, len(vdata))
	}
	iconv := converter(sp.Indices.ComponentType, false)
	prev := int64(-1)
	for k := 0; k < sp.Count; k++ {
		e := int64(iconv(idata[sp.Indices.ByteOffset+k*isize:]))
		if e <= prev {
			return fmt.Errorf("indices[%d] is %d after %d; sparse indices must strictly increase", k, e, prev)
		}
		if e >= int64(a.Count) {
			return fmt.Errorf("indices[%d] is %d; the accessor has %d elements", k, e, a.Count)
		}
		prev = e
	}
	return nil
}

// rawAccessor walks accessor i and calls put(element, component, value)
// for every component, as float64 (exact for every glTF component type).
// Normalized integers are converted to [-1, 1] or [0, 1] when normalize is
// set, following glTF §3.11.
//
// It does not go through qmuntal/gltf's modeler.ReadAccessor, which reads
// the same layouts for files that follow the specification but refuses a
// byteStride that is not a multiple of 4 (read here, with a warning),
// applies a view's byteStride to sparse indices and values (glTF packs
// them tightly), panics on sparse UNSIGNED_INT MAT3, returns matrices row
// by row, normalizes only unsigned types, and allocates the whole array
// before any of it is checked. Wrapped to agree on every corpus file and
// TestAccessorReadsOddLayouts it took more code than this walk, and a
// third more memory on files with sparse morph targets.
func (l *loader) rawAccessor(i int, normalize bool, put func(e, c int, v float64)) error {
	if err := l.checkAccessor(i); err != nil {
		return err
	}
	a := l.doc.Accessors[i]
	lay, _ := layoutOf(a)
	conv := converter(a.ComponentType, normalize && a.Normalized)
	if a.BufferView != nil {
		data, bv, _ := l.viewBytes(*a.BufferView)
		stride := lay.elemSize
		if bv.ByteStride != 0 {
			stride = bv.ByteStride
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
	if sp := a.Sparse; sp != nil {
		idata, _, _ := l.viewBytes(sp.Indices.BufferView)
		vdata, _, _ := l.viewBytes(sp.Values.BufferView)
		isize := sparseIndexSize(sp.Indices.ComponentType)
		iconv := converter(sp.Indices.ComponentType, false)
		colBytes := lay.elemSize / lay.cols
		for k := 0; k < sp.Count; k++ {
			e := int(iconv(idata[sp.Indices.ByteOffset+k*isize:]))
			base := sp.Values.ByteOffset + k*lay.elemSize
			for col := 0; col < lay.cols; col++ {
				for r := 0; r < lay.rows; r++ {
					put(e, col*lay.rows+r, conv(vdata[base+col*colBytes+r*lay.compSize:]))
				}
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

// Decoded accessors are cached by accessor and use: primitives that share
// a vertex buffer (one mesh, many materials) share the arrays, and the
// budget pays for each accessor once. A use that changes the values in
// place (normalizing) has its own entry.
type readUse uint8

const (
	asIs readUse = iota
	asNormals
	asRotations
	asCubicRotations // tangents stay as they are
)

type cacheKey struct {
	acc int
	use readUse
}

// floats reads accessor i as float32 values, converting normalized
// integers; where names the referring property in messages. Callers
// check the accessor's type with expect first, and treat the result as
// shared.
func (l *loader) floats(where string, i int, use readUse) ([]float32, int, error) {
	if err := l.checkAccessor(i); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", where, err)
	}
	a := l.doc.Accessors[i]
	comps := a.Type.Components()
	if v, ok := l.floatCache[cacheKey{i, use}]; ok {
		return v, comps, nil
	}
	if err := l.charge(fmt.Sprintf("%s: accessors[%d]", where, i), int64(a.Count)*int64(comps)*4); err != nil {
		return nil, 0, err
	}
	out := make([]float32, a.Count*comps)
	if err := l.rawAccessor(i, true, func(e, c int, v float64) { out[e*comps+c] = float32(v) }); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", where, err)
	}
	if l.floatCache == nil {
		l.floatCache = map[cacheKey][]float32{}
	}
	l.floatCache[cacheKey{i, use}] = out
	return out, comps, nil
}

// firstCheck returns v the first time a check (kind) meets accessor acc
// in this use (extra), and nil after: checks of shared arrays run once,
// so a file referencing one accessor from thousands of places costs
// its data once, not once per place.
func firstCheck[T any](l *loader, kind string, acc, extra int, v []T) []T {
	k := checkKey{kind, acc, extra}
	if l.checked[k] {
		return nil
	}
	if l.checked == nil {
		l.checked = map[checkKey]bool{}
	}
	l.checked[k] = true
	return v
}

type checkKey struct {
	kind       string
	acc, extra int
}

// uints reads accessor i as unsigned integers (shared, like floats);
// expect has refused float and signed component types.
func (l *loader) uints(where string, i int) ([]uint32, int, error) {
	if err := l.checkAccessor(i); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", where, err)
	}
	a := l.doc.Accessors[i]
	switch a.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return nil, 0, fmt.Errorf("%s: accessors[%d] componentType %s, want an unsigned integer type", where, i, componentName(a.ComponentType))
	}
	comps := a.Type.Components()
	if v, ok := l.uintCache[i]; ok {
		return v, comps, nil
	}
	if err := l.charge(fmt.Sprintf("%s: accessors[%d]", where, i), int64(a.Count)*int64(comps)*4); err != nil {
		return nil, 0, err
	}
	out := make([]uint32, a.Count*comps)
	if err := l.rawAccessor(i, false, func(e, c int, v float64) { out[e*comps+c] = uint32(v) }); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", where, err)
	}
	if l.uintCache == nil {
		l.uintCache = map[int][]uint32{}
	}
	l.uintCache[i] = out
	return out, comps, nil
}

// A compType is a component type and whether it is normalized; a
// compSet is a set of them, as the specification lists for each use.
type compSet uint16

func ctBit(ct gltf.ComponentType, normalized bool) compSet {
	b := uint(ct) * 2
	if normalized {
		b++
	}
	return 1 << b
}

const (
	cF   compSet = 1 << (2 * gltf.ComponentFloat)
	cB   compSet = 1 << (2 * gltf.ComponentByte)
	cBn  compSet = 1 << (2*gltf.ComponentByte + 1)
	cUB  compSet = 1 << (2 * gltf.ComponentUbyte)
	cUBn compSet = 1 << (2*gltf.ComponentUbyte + 1)
	cS   compSet = 1 << (2 * gltf.ComponentShort)
	cSn  compSet = 1 << (2*gltf.ComponentShort + 1)
	cUS  compSet = 1 << (2 * gltf.ComponentUshort)
	cUSn compSet = 1 << (2*gltf.ComponentUshort + 1)
	cUI  compSet = 1 << (2 * gltf.ComponentUint)
)

func (s compSet) String() string {
	var names []string
	for ct := gltf.ComponentFloat; ct <= gltf.ComponentUint; ct++ {
		for _, n := range []bool{false, true} {
			if s&ctBit(ct, n) != 0 {
				name := componentName(ct)
				if n {
					name = "normalized " + name
				}
				names = append(names, name)
			}
		}
	}
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// componentName is ct as the specification names it.
func componentName(ct gltf.ComponentType) string {
	if int(ct) < len(componentTypes) {
		return componentTypes[ct].name
	}
	return fmt.Sprintf("componentType(%d)", ct)
}

// componentTypes holds, for each of qmuntal/gltf's component types, its
// name and its number (a GL enum) in the specification's table of
// accessor component types, and its size in bytes.
var componentTypes = [...]struct {
	name string
	gl   int
	size int
}{
	gltf.ComponentByte:   {"BYTE", 5120, 1},
	gltf.ComponentUbyte:  {"UNSIGNED_BYTE", 5121, 1},
	gltf.ComponentShort:  {"SHORT", 5122, 2},
	gltf.ComponentUshort: {"UNSIGNED_SHORT", 5123, 2},
	gltf.ComponentUint:   {"UNSIGNED_INT", 5125, 4},
	gltf.ComponentFloat:  {"FLOAT", 5126, 4},
}

// accessorRule is what one use of an accessor (a semantic) accepts.
type accessorRule struct {
	types []gltf.AccessorType
	comps compSet // glTF core
	quant compSet // KHR_mesh_quantization adds these
	loose compSet // accepted with a warning: readable, though not allowed
}

var (
	positionRule = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec3}, comps: cF, quant: cB | cBn | cUB | cUBn | cS | cSn | cUS | cUSn}
	normalRule   = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec3}, comps: cF, quant: cBn | cSn}
	tangentRule  = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec4}, comps: cF, quant: cBn | cSn}
	texcoordRule = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec2}, comps: cF | cUBn | cUSn, quant: cB | cBn | cUB | cS | cSn | cUS}
	colorRule    = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec3, gltf.AccessorVec4}, comps: cF | cUBn | cUSn}
	jointsRule   = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec4}, comps: cUB | cUS, loose: cUI}
	weightsRule  = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec4}, comps: cF | cUBn | cUSn}
	indicesRule  = accessorRule{types: []gltf.AccessorType{gltf.AccessorScalar}, comps: cUB | cUS | cUI}
	ibmRule      = accessorRule{types: []gltf.AccessorType{gltf.AccessorMat4}, comps: cF}
	timesRule    = accessorRule{types: []gltf.AccessorType{gltf.AccessorScalar}, comps: cF}
	moveRule     = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec3}, comps: cF}
	rotationRule = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec4}, comps: cF | cBn | cUBn | cSn | cUSn}
	morphRule    = accessorRule{types: []gltf.AccessorType{gltf.AccessorScalar}, comps: cF | cBn | cUBn | cSn | cUSn}
	// Morph targets hold displacements: TANGENT targets are VEC3.
	targetRule = accessorRule{types: []gltf.AccessorType{gltf.AccessorVec3}, comps: cF, quant: cB | cBn | cS | cSn}
)

// attributeRule returns the rule for a vertex attribute semantic, or
// false for semantics the specification does not define (application
// specific ones start with "_"), which are not read.
func attributeRule(sem string) (accessorRule, bool) {
	base, _, _ := strings.Cut(sem, "_")
	switch {
	case sem == gltf.POSITION:
		return positionRule, true
	case sem == gltf.NORMAL:
		return normalRule, true
	case sem == gltf.TANGENT:
		return tangentRule, true
	case base == "TEXCOORD" && setIndex(sem) >= 0:
		return texcoordRule, true
	case base == "COLOR" && setIndex(sem) >= 0:
		return colorRule, true
	case base == "JOINTS" && setIndex(sem) >= 0:
		return jointsRule, true
	case base == "WEIGHTS" && setIndex(sem) >= 0:
		return weightsRule, true
	}
	return accessorRule{}, false
}

// setIndex is n in "NAME_n", or -1.
func setIndex(sem string) int {
	_, n, ok := strings.Cut(sem, "_")
	if !ok || n == "" || len(n) > 6 || (len(n) > 1 && n[0] == '0') {
		return -1
	}
	v := 0
	for _, r := range n {
		if r < '0' || r > '9' {
			return -1
		}
		v = v*10 + int(r-'0')
	}
	return v
}

// expect checks accessor i's type and component type against rule.
func (l *loader) expect(where string, i int, rule accessorRule) error {
	if err := l.checkAccessor(i); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	a := l.doc.Accessors[i]
	if !slices.Contains(rule.types, a.Type) {
		want := make([]string, len(rule.types))
		for k, t := range rule.types {
			want[k] = t.String()
		}
		return fmt.Errorf("%s: accessors[%d] is %s, want %s", where, i, a.Type, strings.Join(want, " or "))
	}
	bit := ctBit(a.ComponentType, a.Normalized)
	switch {
	case rule.comps&bit != 0:
	case rule.quant&bit != 0:
		if !slices.Contains(l.doc.ExtensionsUsed, "KHR_mesh_quantization") {
			l.issue("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", where, "accessors[%d] has %s components, which need KHR_mesh_quantization in extensionsUsed; read anyway", i, (bit).String())
		}
	case rule.loose&bit != 0:
		code := "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT"
		if bit == cUI {
			code = "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT"
		}
		l.issue(code, where, "accessors[%d] has %s components, which glTF does not allow here; read anyway", i, bit.String())
	default:
		allowed := rule.comps
		if slices.Contains(l.doc.ExtensionsUsed, "KHR_mesh_quantization") {
			allowed |= rule.quant
		}
		return fmt.Errorf("%s: accessors[%d] has %s components, want %s", where, i, bit.String(), allowed.String())
	}
	return nil
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
		code := map[string]string{
			"animation input":       "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE",
			"animation output":      "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE",
			"indices":               "MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE",
			"inverse bind matrices": "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE",
		}[use]
		l.issue(code, fmt.Sprintf("bufferViews[%d].byteStride", v), "%d is only allowed for vertex attributes, but accessors[%d] uses it for %s; read with the stride", l.doc.BufferViews[v].ByteStride, acc, use)
	}
}
