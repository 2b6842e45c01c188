package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// hemisphereGLTF is a two-segment bar whose upper segment turns about +Z
// from 170° to −170°: consecutive rotation keys with a negative dot
// product. Along the shortest arc the segment passes through 180°
// (pointing down); the long way it would sweep up through 0°.
func hemisphereGLTF(t testing.TB) []byte {
	t.Helper()
	var bin bytes.Buffer
	w := func(v any) {
		if err := binary.Write(&bin, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	// Eight vertices: a lower quad on "root" (y 0..1) and an upper quad on
	// "tip" (y 1..2), 0.3 wide, facing +Z.
	w([]float32{
		-0.15, 0, 0, 0.15, 0, 0, -0.15, 1, 0, 0.15, 1, 0,
		-0.15, 1, 0, 0.15, 1, 0, -0.15, 2, 0, 0.15, 2, 0,
	}) // 0..96
	w([]float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1})                          // normals 96..192
	w([]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})    // joints 192..224
	w([]float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})  // weights 224..352
	w([]uint16{0, 1, 2, 2, 1, 3, 4, 5, 6, 6, 5, 7})                                                               // indices 352..376
	w([]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}) // IBMs 376..504
	w([]float32{0, 1})                                                                                            // times 504..512
	s, c := float32(math.Sin(85*math.Pi/180)), float32(math.Cos(85*math.Pi/180))
	w([]float32{0, 0, s, c, 0, 0, -s, c}) // 170° and −170° about Z: dot = c² − s² < 0; 512..544
	doc := fmt.Sprintf(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 2]}],
  "nodes": [{"name": "root", "children": [1]}, {"name": "tip", "translation": [0, 1, 0]}, {"name": "bar", "mesh": 0, "skin": 0}],
  "skins": [{"joints": [0, 1], "inverseBindMatrices": 5}],
  "materials": [{"doubleSided": true, "pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.6, 0.2, 1]}}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "JOINTS_0": 2, "WEIGHTS_0": 3}, "indices": 4, "material": 0}]}],
  "animations": [{"name": "turn", "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}], "samplers": [{"input": 6, "output": 7}]}],
  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [
    {"buffer": 0, "byteOffset": 0, "byteLength": 96}, {"buffer": 0, "byteOffset": 96, "byteLength": 96},
    {"buffer": 0, "byteOffset": 192, "byteLength": 32}, {"buffer": 0, "byteOffset": 224, "byteLength": 128},
    {"buffer": 0, "byteOffset": 352, "byteLength": 24}, {"buffer": 0, "byteOffset": 376, "byteLength": 128},
    {"buffer": 0, "byteOffset": 504, "byteLength": 8}, {"buffer": 0, "byteOffset": 512, "byteLength": 32}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": [-0.15, 0, 0], "max": [0.15, 2, 0]},
    {"bufferView": 1, "componentType": 5126, "count": 8, "type": "VEC3"},
    {"bufferView": 2, "componentType": 5121, "count": 8, "type": "VEC4"},
    {"bufferView": 3, "componentType": 5126, "count": 8, "type": "VEC4"},
    {"bufferView": 4, "componentType": 5123, "count": 12, "type": "SCALAR"},
    {"bufferView": 5, "componentType": 5126, "count": 2, "type": "MAT4"},
    {"bufferView": 6, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
    {"bufferView": 7, "componentType": 5126, "count": 2, "type": "VEC4"}]}`,
		bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes()))
	return []byte(doc)
}
