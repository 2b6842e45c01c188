package gltfload

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// docBuilder assembles small glTF documents for tests: views into one
// binary buffer and JSON written by hand around them.
type docBuilder struct {
	bin   bytes.Buffer
	views []string
	accs  []string
}

// view appends data (little-endian, padded to 4 bytes) as a bufferView
// with an optional byteStride and returns its index.
func (b *docBuilder) view(t testing.TB, stride int, data ...any) int {
	t.Helper()
	for b.bin.Len()%4 != 0 {
		b.bin.WriteByte(0)
	}
	off := b.bin.Len()
	for _, d := range data {
		if err := binary.Write(&b.bin, binary.LittleEndian, d); err != nil {
			t.Fatal(err)
		}
	}
	v := fmt.Sprintf(`{"buffer": 0, "byteOffset": %d, "byteLength": %d`, off, b.bin.Len()-off)
	if stride > 0 {
		v += fmt.Sprintf(`, "byteStride": %d`, stride)
	}
	b.views = append(b.views, v+"}")
	return len(b.views) - 1
}

// acc adds an accessor given as JSON fields and returns its index.
func (b *docBuilder) acc(fields string) int {
	b.accs = append(b.accs, "{"+fields+"}")
	return len(b.accs) - 1
}

// floatAcc adds a tightly packed float accessor over new data.
func (b *docBuilder) floatAcc(t testing.TB, typ string, vals []float32) int {
	comps := map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[typ]
	v := b.view(t, 0, vals)
	extra := ""
	switch typ {
	case "SCALAR":
		extra = fmt.Sprintf(`, "min": [%g], "max": [%g]`, vals[0], vals[len(vals)-1])
	case "VEC3": // positions need their bounds
		lo, hi := slices.Clone(vals[:3]), slices.Clone(vals[:3])
		for i, v := range vals {
			lo[i%3], hi[i%3] = min(lo[i%3], v), max(hi[i%3], v)
		}
		extra = fmt.Sprintf(`, "min": [%g, %g, %g], "max": [%g, %g, %g]`, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2])
	}
	return b.acc(fmt.Sprintf(`"bufferView": %d, "componentType": 5126, "count": %d, "type": %q%s`, v, len(vals)/comps, typ, extra))
}

// json finishes the document: rest holds the other top-level members.
func (b *docBuilder) json(rest string) []byte {
	if b.bin.Len() == 0 {
		return []byte(`{"asset": {"version": "2.0"}, ` + rest + `}`)
	}
	return []byte(fmt.Sprintf(`{"asset": {"version": "2.0"}, %s,
  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [%s], "accessors": [%s]}`,
		rest, b.bin.Len(), base64.StdEncoding.EncodeToString(b.bin.Bytes()), join(b.views), join(b.accs)))
}

// glb wraps the same document as a binary glTF with the buffer in the BIN
// chunk.
func (b *docBuilder) glb(t testing.TB, rest string) []byte {
	t.Helper()
	js := fmt.Sprintf(`{"asset": {"version": "2.0"}, %s, "buffers": [{"byteLength": %d}], "bufferViews": [%s], "accessors": [%s]}`,
		rest, b.bin.Len(), join(b.views), join(b.accs))
	return glbChunks([]byte(js), b.bin.Bytes())
}

func join(items []string) string {
	var b bytes.Buffer
	for i, s := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	return b.String()
}

func mustJSON(t testing.TB, doc []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("test document is not JSON: %v\n%s", err, doc)
	}
}
