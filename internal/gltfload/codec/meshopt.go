package codec

/*
#cgo LDFLAGS: -lmeshoptimizer
#if defined(__has_include)
#if !__has_include(<meshoptimizer.h>)
#error "meshoptimizer.h is missing: install libmeshoptimizer-dev (make setup)"
#endif
#endif
#include <meshoptimizer.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Meshopt decodes one EXT_meshopt_compression bufferView: count elements
// of stride bytes, by mode (ATTRIBUTES, TRIANGLES or INDICES) and filter
// (NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL), from src into dst, which
// holds exactly count·stride bytes. Sizes the library would assert on are
// refused here first; src is only read.
func Meshopt(dst, src []byte, count, stride int, mode, filter string) error {
	if count < 1 || stride < 1 {
		return fmt.Errorf("count %d and byteStride %d: both must be positive", count, stride)
	}
	if len(dst) != count*stride || len(dst)/stride != count {
		return fmt.Errorf("the output has %d bytes, want count %d × byteStride %d", len(dst), count, stride)
	}
	switch mode {
	case "ATTRIBUTES":
		if stride%4 != 0 || stride > 256 {
			return fmt.Errorf("mode ATTRIBUTES: byteStride %d is not a multiple of 4 in [4, 256]", stride)
		}
	case "TRIANGLES", "INDICES":
		if stride != 2 && stride != 4 {
			return fmt.Errorf("mode %s: byteStride %d, want 2 or 4", mode, stride)
		}
		if mode == "TRIANGLES" && count%3 != 0 {
			return fmt.Errorf("mode TRIANGLES: count %d is not a multiple of 3", count)
		}
	default:
		return fmt.Errorf("mode %q, want ATTRIBUTES, TRIANGLES or INDICES", mode)
	}
	switch filter {
	case "", "NONE":
	case "OCTAHEDRAL":
		if mode != "ATTRIBUTES" || (stride != 4 && stride != 8) {
			return fmt.Errorf("filter OCTAHEDRAL needs mode ATTRIBUTES and byteStride 4 or 8, not %s and %d", mode, stride)
		}
	case "QUATERNION":
		if mode != "ATTRIBUTES" || stride != 8 {
			return fmt.Errorf("filter QUATERNION needs mode ATTRIBUTES and byteStride 8, not %s and %d", mode, stride)
		}
	case "EXPONENTIAL":
		if mode != "ATTRIBUTES" {
			return fmt.Errorf("filter EXPONENTIAL needs mode ATTRIBUTES, not %s", mode)
		}
	default:
		return fmt.Errorf("filter %q, want NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL", filter)
	}
	if len(src) == 0 {
		return fmt.Errorf("no compressed bytes")
	}
	out := unsafe.Pointer(&dst[0])
	in := (*C.uchar)(unsafe.Pointer(&src[0]))
	var rc C.int
	switch mode {
	case "ATTRIBUTES":
		rc = C.meshopt_decodeVertexBuffer(out, C.size_t(count), C.size_t(stride), in, C.size_t(len(src)))
	case "TRIANGLES":
		rc = C.meshopt_decodeIndexBuffer(out, C.size_t(count), C.size_t(stride), in, C.size_t(len(src)))
	default:
		rc = C.meshopt_decodeIndexSequence(out, C.size_t(count), C.size_t(stride), in, C.size_t(len(src)))
	}
	if rc != 0 {
		return fmt.Errorf("mode %s: the compressed data is malformed (libmeshoptimizer error %d)", mode, int(rc))
	}
	switch filter {
	case "OCTAHEDRAL":
		C.meshopt_decodeFilterOct(out, C.size_t(count), C.size_t(stride))
	case "QUATERNION":
		C.meshopt_decodeFilterQuat(out, C.size_t(count), C.size_t(stride))
	case "EXPONENTIAL":
		C.meshopt_decodeFilterExp(out, C.size_t(count), C.size_t(stride))
	}
	return nil
}
