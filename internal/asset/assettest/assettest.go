// Package assettest builds the small models the tests of several
// packages share: the built-in character decoded afresh, and a hand-built
// two-joint file whose every number is worked out in its comments.
package assettest

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/gltfload"
)

// Character is the built-in character, decoded afresh.
func Character(t testing.TB) *gltfload.Model {
	t.Helper()
	m, err := gltfload.Decode(assets.CharacterGLB, nil, "character.glb")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TwoJointBin is the two-joint file's buffer (264 bytes: positions,
// joints, weights, inverse binds, key times, rotation keys), then extra.
func TwoJointBin(t testing.TB, extra ...any) *bytes.Buffer {
	t.Helper()
	var bin bytes.Buffer
	w := func(v ...any) {
		for _, x := range v {
			if err := binary.Write(&bin, binary.LittleEndian, x); err != nil {
				t.Fatal(err)
			}
		}
	}
	w([]float32{0, 1, 0, 0, 2, 0, 0, 3, 0})        // positions: 0..36
	w([]uint8{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}) // joints: 36..48
	w([]float32{1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0})
	// weights: 48..96; inverse binds (column-major T(0,-1,0), T(0,-2,0)): 96..224
	w([]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1})
	w([]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1})
	w([]float32{0, 1}) // times: 224..232
	s := float32(math.Sqrt2 / 2)
	w([]float32{0, 0, 0, 1, 0, 0, s, s}) // rotations: 232..264
	w(extra...)
	return &bin
}

// TwoJointViews and TwoJointAccessors describe TwoJointBin's data.
const (
	TwoJointViews = `    {"buffer": 0, "byteOffset": 0, "byteLength": 36},
    {"buffer": 0, "byteOffset": 36, "byteLength": 12},
    {"buffer": 0, "byteOffset": 48, "byteLength": 48},
    {"buffer": 0, "byteOffset": 96, "byteLength": 128},
    {"buffer": 0, "byteOffset": 224, "byteLength": 8},
    {"buffer": 0, "byteOffset": 232, "byteLength": 32}`
	TwoJointAccessors = `    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 1, 0], "max": [0, 3, 0]},
    {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
    {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
    {"bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4"},
    {"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
    {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC4"}`
)

// TwoJointGLTF is a hand-built file: joint "root" at (0,1,0) with child
// "tip" one unit above it; "tip" turns 90° about +Z over one second. The
// skinned mesh node carries a translation of (5,0,0), which glTF §3.7.3 says
// skinning ignores. Three vertices: (0,1,0) on root, (0,2,0) on tip, and
// (0,3,0) half on each.
func TwoJointGLTF(t testing.TB) []byte {
	t.Helper()
	return TwoJointDoc(TwoJointBin(t), TwoJointBend, "", "")
}

// TwoJointBend is TwoJointGLTF's one animation, "bend".
const TwoJointBend = `{"name": "bend", "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}],
                  "samplers": [{"input": 4, "output": 5}]}`

// TwoJointDoc is TwoJointGLTF's document over bin (TwoJointBin's, with
// any data appended after its own), its animations anims (a JSON list's
// items), and moreViews and moreAccessors ("" for none) after the file's
// own buffer views and accessors.
func TwoJointDoc(bin *bytes.Buffer, anims, moreViews, moreAccessors string) []byte {
	if moreViews != "" {
		moreViews = ",\n" + moreViews
	}
	if moreAccessors != "" {
		moreAccessors = ",\n" + moreAccessors
	}
	doc := fmt.Sprintf(`{
  "asset": {"version": "2.0"},
  "scene": 0, "scenes": [{"nodes": [0, 2]}],
  "nodes": [
    {"name": "root", "translation": [0, 1, 0], "children": [1]},
    {"name": "tip", "translation": [0, 1, 0]},
    {"name": "body", "mesh": 0, "skin": 0, "translation": [5, 0, 0]}
  ],
  "skins": [{"joints": [0, 1], "inverseBindMatrices": 3}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
  "animations": [%s],
  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [
%s%s
  ],
  "accessors": [
%s%s
  ]
}`, anims, bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes()), TwoJointViews, moreViews, TwoJointAccessors, moreAccessors)
	return []byte(doc)
}
