package compresstest

/*
#cgo CXXFLAGS: -std=c++17
#cgo LDFLAGS: -ldraco -lmeshoptimizer
#include <stdlib.h>
#include <meshoptimizer.h>
#include "encode.h"
*/
import "C"

import (
	"unsafe"
)

// Draco attribute kinds (draco::GeometryAttribute::Type).
const (
	Position = 0
	Normal   = 1
	Color    = 2
	TexCoord = 3
	Generic  = 4
)

// Draco data types (draco::DataType).
const (
	Int8    = 1
	Uint8   = 2
	Int16   = 3
	Uint16  = 4
	Float32 = 9
)

// DracoAttr is one attribute to encode: Data holds NumPoints elements of
// Comps components of type DT, little-endian; QuantBits 0 keeps it exact.
type DracoAttr struct {
	Kind, DT, Comps, QuantBits int
	Normalized                 bool
	Data                       []byte
}

// Draco encodes a triangle mesh of n points; it returns the bytes and the
// unique id of each attribute, or nil when libdraco refuses.
func Draco(n int, faces []uint32, attrs []DracoAttr, speed int, sequential bool) ([]byte, []int) {
	k := len(attrs)
	kinds, dts, comps, norms, qbits := make([]C.int, k), make([]C.int, k), make([]C.int, k), make([]C.int, k), make([]C.int, k)
	offs := make([]C.size_t, k)
	var data []byte
	for i, a := range attrs {
		kinds[i], dts[i], comps[i], qbits[i] = C.int(a.Kind), C.int(a.DT), C.int(a.Comps), C.int(a.QuantBits)
		if a.Normalized {
			norms[i] = 1
		}
		offs[i] = C.size_t(len(data))
		data = append(data, a.Data...)
	}
	data = append(data, 0)
	ids := make([]C.int, k)
	seq := C.int(0)
	if sequential {
		seq = 1
	}
	var outlen C.size_t
	p := C.skvt_draco_encode(C.int(n), (*C.uint32_t)(unsafe.Pointer(&faces[0])), C.int(len(faces)/3), C.int(k),
		&kinds[0], &dts[0], &comps[0], &norms[0], &qbits[0], &offs[0], (*C.uchar)(unsafe.Pointer(&data[0])), C.int(speed), seq, &ids[0], &outlen)
	if p == nil {
		return nil, nil
	}
	defer C.free(unsafe.Pointer(p))
	out := C.GoBytes(unsafe.Pointer(p), C.int(outlen))
	idl := make([]int, k)
	for i := range ids {
		idl[i] = int(ids[i])
	}
	return out, idl
}

// MeshoptVertices encodes count elements of stride bytes (mode ATTRIBUTES).
func MeshoptVertices(data []byte, count, stride int) []byte {
	out := make([]byte, C.meshopt_encodeVertexBufferBound(C.size_t(count), C.size_t(stride)))
	n := C.meshopt_encodeVertexBuffer((*C.uchar)(unsafe.Pointer(&out[0])), C.size_t(len(out)), unsafe.Pointer(&data[0]), C.size_t(count), C.size_t(stride))
	return out[:n]
}

// MeshoptTriangles encodes a triangle list (mode TRIANGLES).
func MeshoptTriangles(idx []uint32, vertices int) []byte {
	out := make([]byte, C.meshopt_encodeIndexBufferBound(C.size_t(len(idx)), C.size_t(vertices)))
	n := C.meshopt_encodeIndexBuffer((*C.uchar)(unsafe.Pointer(&out[0])), C.size_t(len(out)), (*C.uint)(unsafe.Pointer(&idx[0])), C.size_t(len(idx)))
	return out[:n]
}

// MeshoptSequence encodes any index list (mode INDICES).
func MeshoptSequence(idx []uint32, vertices int) []byte {
	out := make([]byte, C.meshopt_encodeIndexSequenceBound(C.size_t(len(idx)), C.size_t(vertices)))
	n := C.meshopt_encodeIndexSequence((*C.uchar)(unsafe.Pointer(&out[0])), C.size_t(len(out)), (*C.uint)(unsafe.Pointer(&idx[0])), C.size_t(len(idx)))
	return out[:n]
}

// FilterOct encodes unit vectors (4 floats each, w ignored) as K-bit
// octahedral x, y in count elements of stride 4 or 8 (filter OCTAHEDRAL).
func FilterOct(v []float32, count, stride, bits int) []byte {
	out := make([]byte, count*stride)
	C.meshopt_encodeFilterOct(unsafe.Pointer(&out[0]), C.size_t(count), C.size_t(stride), C.int(bits), (*C.float)(unsafe.Pointer(&v[0])))
	return out
}

// FilterQuat encodes unit quaternions (xyzw) in 8 bytes each (filter QUATERNION).
func FilterQuat(q []float32, count, bits int) []byte {
	out := make([]byte, count*8)
	C.meshopt_encodeFilterQuat(unsafe.Pointer(&out[0]), C.size_t(count), 8, C.int(bits), (*C.float)(unsafe.Pointer(&q[0])))
	return out
}

// FilterExp encodes floats with a K-bit mantissa (filter EXPONENTIAL);
// stride is a multiple of 4, stride/4 floats per element.
func FilterExp(v []float32, count, stride, bits int) []byte {
	out := make([]byte, count*stride)
	C.meshopt_encodeFilterExp(unsafe.Pointer(&out[0]), C.size_t(count), C.size_t(stride), C.int(bits), (*C.float)(unsafe.Pointer(&v[0])))
	return out
}
