package codec

/*
#cgo CXXFLAGS: -std=c++17
#cgo LDFLAGS: -ldraco
#include <stdlib.h>
#include "codec.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// DracoMesh is a mesh libdraco decoded, held in C memory until Close.
type DracoMesh struct{ p unsafe.Pointer }

// Component types as glTF numbers them.
const (
	compByte   = 5120
	compUbyte  = 5121
	compShort  = 5122
	compUshort = 5123
	compUint   = 5125
	compFloat  = 5126
)

// CompSize is the byte size of a glTF component type, 0 for an unknown one.
func CompSize(ct int) int {
	switch ct {
	case compByte, compUbyte:
		return 1
	case compShort, compUshort:
		return 2
	case compUint, compFloat:
		return 4
	}
	return 0
}

// DecodeDraco decodes a KHR_draco_mesh_compression bufferView's bytes,
// which must hold a triangle mesh. The caller closes the mesh.
func DecodeDraco(src []byte) (*DracoMesh, error) {
	if len(src) == 0 {
		return nil, errors.New("no compressed bytes")
	}
	var msg [256]C.char
	p := C.skv_draco_decode((*C.uchar)(unsafe.Pointer(&src[0])), C.size_t(len(src)), &msg[0], C.size_t(len(msg)))
	if p == nil {
		return nil, fmt.Errorf("libdraco cannot decode it: %s", C.GoString(&msg[0]))
	}
	return &DracoMesh{p}, nil
}

// Close frees the mesh; it may be called more than once.
func (m *DracoMesh) Close() {
	if m.p != nil {
		C.skv_draco_free(m.p)
		m.p = nil
	}
}

// NumPoints is the decoded vertex count.
func (m *DracoMesh) NumPoints() int { return int(C.skv_draco_num_points(m.p)) }

// NumFaces is the decoded triangle count.
func (m *DracoMesh) NumFaces() int { return int(C.skv_draco_num_faces(m.p)) }

// Indices writes the triangles' vertex indices, 3·NumFaces of them, as
// component type ct (UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT,
// little-endian) into dst, which holds exactly that many.
func (m *DracoMesh) Indices(dst []byte, ct int) error {
	size := CompSize(ct)
	if ct != compUbyte && ct != compUshort && ct != compUint {
		return fmt.Errorf("indices of component type %d, want an unsigned integer type", ct)
	}
	n := 3 * m.NumFaces()
	if len(dst) != n*size {
		return fmt.Errorf("%d triangles decoded, the accessor declares %d indices", m.NumFaces(), len(dst)/size)
	}
	if n == 0 {
		return nil
	}
	switch C.skv_draco_indices(m.p, (*C.uchar)(unsafe.Pointer(&dst[0])), C.size_t(n), C.int(ct)) {
	case 0:
		return nil
	case -3:
		return fmt.Errorf("a decoded index does not fit the accessor's %d-byte components", size)
	default:
		return errors.New("a decoded index lies outside the decoded vertices")
	}
}

// Attribute writes the attribute with Draco unique id id as comps
// components of type ct per vertex (normalized as the accessor says) into
// dst, which holds exactly NumPoints elements, tightly packed.
func (m *DracoMesh) Attribute(id, ct, comps int, normalized bool, dst []byte) error {
	size := CompSize(ct)
	if size == 0 {
		return fmt.Errorf("unknown component type %d", ct)
	}
	if comps < 1 || comps > 16 {
		return fmt.Errorf("%d components per element", comps)
	}
	if id < 0 || id > 1<<30 {
		return fmt.Errorf("attribute id %d", id)
	}
	n := m.NumPoints()
	if len(dst) != n*comps*size {
		return fmt.Errorf("%d vertices decoded, the accessor declares %d", n, len(dst)/(comps*size))
	}
	if n == 0 {
		return nil
	}
	var msg [256]C.char
	norm := C.int(0)
	if normalized {
		norm = 1
	}
	if C.skv_draco_attribute(m.p, C.int(id), C.int(ct), C.int(comps), norm, (*C.uchar)(unsafe.Pointer(&dst[0])), C.size_t(len(dst)), &msg[0], C.size_t(len(msg))) != 0 {
		return fmt.Errorf("attribute id %d: %s", id, C.GoString(&msg[0]))
	}
	return nil
}
