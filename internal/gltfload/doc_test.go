package gltfload

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"strings"
	"testing"
)

// jdoc is a glTF document as generic JSON, for tests that break one
// property at a time. Paths are "/"-separated: "accessors/0/count".
type jdoc map[string]any

// skinnedDoc is a small valid document that uses every feature the rules
// talk about: a skinned, textured, indexed triangle with normals and uvs,
// a two-joint skin with inverse bind matrices and an animation of both
// joints. Views and accessors share indices:
//
//	0 POSITION  1 NORMAL  2 TEXCOORD_0  3 JOINTS_0 (ubyte)  4 WEIGHTS_0
//	5 indices (ushort)  6 inverse binds  7 key times  8 rotations  9 translations
func skinnedDoc(t testing.TB) jdoc {
	t.Helper()
	b := &docBuilder{}
	b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	b.floatAcc(t, "VEC3", []float32{0, 0, 1, 0, 0, 1, 0, 0, 1})
	b.floatAcc(t, "VEC2", []float32{0, 0, 1, 0, 0, 1})
	jv := b.view(t, 0, []uint8{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	b.acc(`"bufferView": ` + itoa(jv) + `, "componentType": 5121, "count": 3, "type": "VEC4"`)
	b.floatAcc(t, "VEC4", []float32{1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0})
	iv := b.view(t, 0, []uint16{0, 1, 2, 0})
	b.acc(`"bufferView": ` + itoa(iv) + `, "componentType": 5123, "count": 3, "type": "SCALAR"`)
	id := []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	b.floatAcc(t, "MAT4", append(append([]float32{}, id...), id...))
	b.floatAcc(t, "SCALAR", []float32{0, 1})
	b.floatAcc(t, "VEC4", []float32{0, 0, 0, 1, 0, 0, 0.7071068, 0.7071068})
	b.floatAcc(t, "VEC3", []float32{0, 0, 0, 0, 1, 0})
	js := b.json(`"scene": 0, "scenes": [{"nodes": [0, 1]}],
	  "nodes": [{"name": "body", "mesh": 0, "skin": 0}, {"name": "hip", "children": [2]}, {"name": "knee", "translation": [0, 1, 0]}],
	  "skins": [{"joints": [1, 2], "inverseBindMatrices": 6, "skeleton": 1}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "JOINTS_0": 3, "WEIGHTS_0": 4}, "indices": 5, "material": 0}]}],
	  "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
	  "textures": [{"source": 0, "sampler": 0}], "samplers": [{}],
	  "images": [{"uri": "data:image/png;base64,` + base64.StdEncoding.EncodeToString(tinyPNG(2, 2)) + `"}],
	  "animations": [{"name": "wave", "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}, {"sampler": 1, "target": {"node": 2, "path": "translation"}}],
	    "samplers": [{"input": 7, "output": 8}, {"input": 7, "output": 9}]}]`)
	return parseDoc(t, js)
}

func parseDoc(t testing.TB, js []byte) jdoc {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var d jdoc
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("test document is not JSON: %v\n%s", err, js)
	}
	return d
}

// tinyPNG encodes a w×h image; encoding to memory cannot fail.
func tinyPNG(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range w * h {
		img.Set(i%w, i/w, color.NRGBA{200, 100, 50, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func (d jdoc) bytes(t testing.TB) []byte {
	t.Helper()
	js, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// walk returns the container holding the last segment of path.
func (d jdoc) walk(t testing.TB, path string) (any, string) {
	t.Helper()
	segs := strings.Split(path, "/")
	var cur any = map[string]any(d)
	for _, s := range segs[:len(segs)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[s]
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i >= len(c) {
				t.Fatalf("bad test path %q at %q", path, s)
			}
			cur = c[i]
		default:
			t.Fatalf("bad test path %q at %q", path, s)
		}
	}
	return cur, segs[len(segs)-1]
}

// set replaces (or adds) the value at path; v is any value json.Marshal
// takes, a json.Number for exact number literals.
func (d jdoc) set(t testing.TB, path string, v any) {
	t.Helper()
	c, last := d.walk(t, path)
	switch c := c.(type) {
	case map[string]any:
		c[last] = v
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i >= len(c) {
			t.Fatalf("bad test path %q", path)
		}
		c[i] = v
	default:
		t.Fatalf("bad test path %q", path)
	}
}

// raw sets path to a JSON literal.
func (d jdoc) raw(t testing.TB, path, literal string) {
	t.Helper()
	var v any
	dec := json.NewDecoder(strings.NewReader(literal))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("bad literal %s: %v", literal, err)
	}
	d.set(t, path, v)
}

func (d jdoc) del(t testing.TB, path string) {
	t.Helper()
	c, last := d.walk(t, path)
	m, ok := c.(map[string]any)
	if !ok {
		t.Fatalf("bad test path %q", path)
	}
	delete(m, last)
}

// add appends a JSON literal to the array at path and returns its index.
func (d jdoc) add(t testing.TB, path, literal string) int {
	t.Helper()
	c, last := d.walk(t, path)
	var arr []any
	switch c := c.(type) {
	case map[string]any:
		arr, _ = c[last].([]any)
	case []any:
		i, _ := strconv.Atoi(last)
		arr, _ = c[i].([]any)
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(literal))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("bad literal %s: %v", literal, err)
	}
	d.set(t, path, append(arr, v))
	return len(arr)
}

// patch overwrites the start of bufferView v with data, little-endian.
func (d jdoc) patch(t testing.TB, v int, data any) {
	t.Helper()
	uri := d["buffers"].([]any)[0].(map[string]any)["uri"].(string)
	comma := strings.IndexByte(uri, ',')
	bin, err := base64.StdEncoding.DecodeString(uri[comma+1:])
	if err != nil {
		t.Fatal(err)
	}
	view := d["bufferViews"].([]any)[v].(map[string]any)
	off := 0
	if o, ok := view["byteOffset"]; ok {
		n, _ := o.(json.Number).Int64()
		off = int(n)
	}
	var buf bytes.Buffer
	if err := binary.Write(&buf, binary.LittleEndian, data); err != nil {
		t.Fatal(err)
	}
	copy(bin[off:], buf.Bytes())
	d["buffers"].([]any)[0].(map[string]any)["uri"] = uri[:comma+1] + base64.StdEncoding.EncodeToString(bin)
}

// glbOf wraps the document as a GLB whose BIN chunk holds buffer 0.
func glbOf(t testing.TB, d jdoc) []byte {
	t.Helper()
	buf := d["buffers"].([]any)[0].(map[string]any)
	uri := buf["uri"].(string)
	bin, err := base64.StdEncoding.DecodeString(uri[strings.IndexByte(uri, ',')+1:])
	if err != nil {
		t.Fatal(err)
	}
	delete(buf, "uri")
	defer func() { buf["uri"] = uri }()
	return glbChunks(d.bytes(t), bin)
}

// glbChunks lays a JSON chunk and a BIN chunk out as a GLB file, each
// padded to 4 bytes (the JSON with spaces, the BIN with zeros) as the
// container asks; a nil bin leaves the BIN chunk out.
func glbChunks(js, bin []byte) []byte {
	js = append([]byte(nil), js...)
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	bin = append([]byte(nil), bin...)
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	var out bytes.Buffer
	w := func(v any) { binary.Write(&out, binary.LittleEndian, v) }
	total := 12 + 8 + len(js)
	if bin != nil {
		total += 8 + len(bin)
	}
	w(uint32(glbMagic))
	w(uint32(2))
	w(uint32(total))
	w(uint32(len(js)))
	w(uint32(glbChunkJSON))
	out.Write(js)
	if bin != nil {
		w(uint32(len(bin)))
		w(uint32(glbChunkBIN))
		out.Write(bin)
	}
	return out.Bytes()
}
