package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// GLB container constants (glTF 2.0 spec, section "Binary glTF Layout").
const (
	glbMagic     = 0x46546C67 // "glTF"
	glbVersion   = 2
	chunkJSON    = 0x4E4F534A // "JSON"
	chunkBIN     = 0x004E4942 // "BIN\0"
	glbHeaderLen = 12
	chunkHdrLen  = 8
)

// bufferBuilder collects the binary chunk. Each accessor gets its own
// 4-byte aligned buffer view, which satisfies every alignment rule at once.
type bufferBuilder struct {
	doc *gltfDoc
	bin bytes.Buffer
}

func (b *bufferBuilder) view(data []byte, target int) int {
	for b.bin.Len()%4 != 0 {
		b.bin.WriteByte(0)
	}
	b.doc.BufferViews = append(b.doc.BufferViews, gltfBufferView{
		Buffer: 0, ByteOffset: b.bin.Len(), ByteLength: len(data), Target: target,
	})
	b.bin.Write(data)
	return len(b.doc.BufferViews) - 1
}

func (b *bufferBuilder) accessor(data []byte, target, compType, count int, typ string, lo, hi []float64) int {
	v := b.view(data, target)
	b.doc.Accessors = append(b.doc.Accessors, gltfAccessor{
		BufferView: &v, ComponentType: compType, Count: count, Type: typ, Min: lo, Max: hi,
	})
	return len(b.doc.Accessors) - 1
}

// sparseVec3 is a FLOAT VEC3 accessor of count elements, zero but at the
// given (increasing) indices, stored as a sparse accessor without a
// bufferView: a morph target that moves a few vertices costs only those.
func (b *bufferBuilder) sparseVec3(count int, indices []uint32, values []float32, lo, hi []float64) int {
	sp := &gltfSparse{Count: len(indices)}
	sp.Indices.BufferView = b.view(uint32s(indices), 0)
	sp.Indices.ComponentType = compUnsignedInt
	sp.Values.BufferView = b.view(float32s(values), 0)
	b.doc.Accessors = append(b.doc.Accessors, gltfAccessor{
		ComponentType: compFloat, Count: count, Type: "VEC3", Min: lo, Max: hi, Sparse: sp,
	})
	return len(b.doc.Accessors) - 1
}

// float32s packs values little-endian, the byte order glTF requires.
func float32s(vals []float32) []byte {
	out := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(v))
	}
	return out
}

func uint8s(vals []uint8) []byte { return append([]byte(nil), vals...) }

func uint16s(vals []uint16) []byte {
	out := make([]byte, 2*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint16(out[2*i:], v)
	}
	return out
}

func flattenVec3(vs []mgl64.Vec3) []float32 {
	out := make([]float32, 0, 3*len(vs))
	for _, v := range vs {
		out = append(out, float32(v.X()), float32(v.Y()), float32(v.Z()))
	}
	return out
}

// boundsOf returns the per-component min and max of float32 data exactly as
// stored, widened to float64 without any rounding.
func boundsOf(vals []float32, comps int) (lo, hi []float64) {
	lo = make([]float64, comps)
	hi = make([]float64, comps)
	for i, v := range vals {
		c := i % comps
		if i < comps || float64(v) < lo[c] {
			lo[c] = float64(v)
		}
		if i < comps || float64(v) > hi[c] {
			hi[c] = float64(v)
		}
	}
	return lo, hi
}

// encodeGLB wraps the document and binary data in a GLB container: the JSON
// chunk padded with spaces and the BIN chunk padded with zeros to 4 bytes.
func encodeGLB(doc *gltfDoc, bin []byte) ([]byte, error) {
	doc.Buffers = []gltfBuffer{{ByteLength: len(bin)}}
	js, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encoding glTF JSON: %w", err)
	}
	js = pad4(js, ' ')
	bin = pad4(bin, 0)

	total := glbHeaderLen + chunkHdrLen + len(js) + chunkHdrLen + len(bin)
	var out bytes.Buffer
	out.Grow(total)
	for _, w := range []uint32{glbMagic, glbVersion, uint32(total), uint32(len(js)), chunkJSON} {
		_ = binary.Write(&out, binary.LittleEndian, w)
	}
	out.Write(js)
	for _, w := range []uint32{uint32(len(bin)), chunkBIN} {
		_ = binary.Write(&out, binary.LittleEndian, w)
	}
	out.Write(bin)
	return out.Bytes(), nil
}

func pad4(b []byte, fill byte) []byte {
	out := append([]byte(nil), b...)
	for len(out)%4 != 0 {
		out = append(out, fill)
	}
	return out
}

// encodeGLTF writes the document as indented JSON with the binary data
// embedded as a base64 data URI, so a .gltf file is self-contained and
// readable in a diff.
func encodeGLTF(doc *gltfDoc, bin []byte) ([]byte, error) {
	bin = pad4(bin, 0)
	doc.Buffers = []gltfBuffer{{
		URI:        "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin),
		ByteLength: len(bin),
	}}
	js, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding glTF JSON: %w", err)
	}
	return append(js, '\n'), nil
}

func uint32s(vals []uint32) []byte {
	out := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(out[4*i:], v)
	}
	return out
}
