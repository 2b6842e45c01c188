package gltfload

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	ct "github.com/skinview/skinview/internal/gltfload/internal/compresstest"
)

// meshoptDoc is a grid whose every bufferView, the animation's included,
// is compressed with libmeshoptimizer, each with a different filter, over
// a fallback buffer without bytes.
type meshoptDoc struct {
	g          gridMesh
	times      []float32
	rots, movs []float32 // xyzw and xyz per key
}

func makeMeshoptDoc() meshoptDoc {
	d := meshoptDoc{g: makeGrid(5)}
	for k := range 5 {
		a := float64(k) * 0.4
		d.times = append(d.times, float32(k)*0.25)
		d.rots = append(d.rots, 0, float32(math.Sin(a/2)), 0, float32(math.Cos(a/2)))
		d.movs = append(d.movs, float32(k)*1.5, -0.001*float32(k), 300)
	}
	return d
}

func (d meshoptDoc) json(t testing.TB) []byte {
	t.Helper()
	g := d.g
	nv := g.n * g.n
	nrm4 := make([]float32, 0, nv*4)
	for v := range nv {
		nrm4 = append(nrm4, g.nrm[v*3:v*3+3]...)
		nrm4 = append(nrm4, 0)
	}
	idx16 := make([]uint16, len(g.idx))
	for k, i := range g.idx {
		idx16[k] = uint16(i)
	}
	type view struct {
		enc                  []byte
		count, stride        int
		mode, filter, target string
	}
	views := []view{
		{ct.MeshoptVertices(leBytes(g.pos), nv, 12), nv, 12, "ATTRIBUTES", "NONE", `, "byteStride": 12, "target": 34962`},
		{ct.MeshoptVertices(ct.FilterOct(nrm4, nv, 4, 8), nv, 4), nv, 4, "ATTRIBUTES", "OCTAHEDRAL", `, "byteStride": 4, "target": 34962`},
		{ct.MeshoptTriangles(g.idx, nv), len(g.idx), 2, "TRIANGLES", "NONE", `, "target": 34963`},
		{ct.MeshoptVertices(leBytes(d.times), len(d.times), 4), len(d.times), 4, "ATTRIBUTES", "NONE", ""},
		{ct.MeshoptVertices(ct.FilterQuat(d.rots, len(d.times), 12), len(d.times), 8), len(d.times), 8, "ATTRIBUTES", "QUATERNION", ""},
		{ct.MeshoptVertices(ct.FilterExp(d.movs, len(d.times), 12, 15), len(d.times), 12), len(d.times), 12, "ATTRIBUTES", "EXPONENTIAL", ""},
		{ct.MeshoptSequence(g.idx, nv), len(g.idx), 4, "INDICES", "NONE", ""},
	}
	var bin []byte
	var vs []string
	fallback := 0
	for _, v := range views {
		for len(bin)%4 != 0 {
			bin = append(bin, 0)
		}
		vs = append(vs, fmt.Sprintf(`{"buffer": 1, "byteOffset": %d, "byteLength": %d%s, "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteOffset": %d, "byteLength": %d, "byteStride": %d, "count": %d, "mode": %q, "filter": %q}}}`,
			fallback, v.count*v.stride, v.target, len(bin), len(v.enc), v.stride, v.count, v.mode, v.filter))
		bin = append(bin, v.enc...)
		fallback += (v.count*v.stride + 3) &^ 3
	}
	return []byte(fmt.Sprintf(`{"asset": {"version": "2.0"},
 "extensionsUsed": ["EXT_meshopt_compression", "KHR_mesh_quantization"],
 "extensionsRequired": ["EXT_meshopt_compression", "KHR_mesh_quantization"],
 "buffers": [{"byteLength": %d, "uri": %q}, {"byteLength": %d, "extensions": {"EXT_meshopt_compression": {"fallback": true}}}],
 "bufferViews": [%s],
 "accessors": [
  {"bufferView": 0, "componentType": 5126, "count": %[5]d, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0.25]},
  {"bufferView": 1, "componentType": 5120, "normalized": true, "count": %[5]d, "type": "VEC3"},
  {"bufferView": 2, "componentType": 5123, "count": %[6]d, "type": "SCALAR"},
  {"bufferView": 3, "componentType": 5126, "count": 5, "type": "SCALAR", "min": [0], "max": [1]},
  {"bufferView": 4, "componentType": 5122, "normalized": true, "count": 5, "type": "VEC4"},
  {"bufferView": 5, "componentType": 5126, "count": 5, "type": "VEC3"},
  {"bufferView": 6, "componentType": 5125, "count": %[6]d, "type": "SCALAR"}],
 "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2}, {"attributes": {"POSITION": 0}, "indices": 6}]}],
 "nodes": [{"mesh": 0}],
 "animations": [{"samplers": [{"input": 3, "output": 4}, {"input": 3, "output": 5}],
   "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}, {"sampler": 1, "target": {"node": 0, "path": "translation"}}]}],
 "scenes": [{"nodes": [0]}], "scene": 0}`,
		len(bin), b64(bin), fallback, strings.Join(vs, ",\n  "), nv, len(g.idx)))
}

// TestMeshoptDecodesViews loads a file whose data is all meshopt-compressed,
// vertex and animation views through every filter, and compares it with
// the data before encoding: the codec itself is lossless; the filters
// round as their bit counts say (8-bit octahedral normals in normalized
// bytes within 2/127, 12-bit quaternions within 1/2^11 per component,
// a 15-bit mantissa within 2^-14 of the element's largest component).
func TestMeshoptDecodesViews(t *testing.T) {
	d := makeMeshoptDoc()
	m, err := decode(d.json(t), nil, "meshopt.gltf")
	if err != nil {
		t.Fatal(err)
	}
	g := d.g
	near := func(what string, got, want, eps float64) {
		t.Helper()
		if math.Abs(got-want) > eps {
			t.Fatalf("%s: %v, want %v within %g", what, got, want, eps)
		}
	}
	for pi, p := range m.Meshes[0].Primitives {
		if len(p.Positions) != len(g.pos) || len(p.Indices) != len(g.idx) {
			t.Fatalf("primitive %d: %d positions and %d indices, want %d and %d", pi, len(p.Positions), len(p.Indices), len(g.pos), len(g.idx))
		}
		for k := range g.pos {
			near(fmt.Sprintf("primitive %d position %d", pi, k), float64(p.Positions[k]), float64(g.pos[k]), 0)
		}
		// The triangle codec may start a triangle at another corner; the
		// sequence codec keeps every index where it was.
		for k := 0; k < len(g.idx); k += 3 {
			r := 0
			for pi == 0 && r < 2 && p.Indices[k+r] != g.idx[k] {
				r++
			}
			for c := range 3 {
				near(fmt.Sprintf("primitive %d triangle %d corner %d", pi, k/3, c), float64(p.Indices[k+(c+r)%3]), float64(g.idx[k+c]), 0)
			}
		}
	}
	p := m.Meshes[0].Primitives[0]
	for k := range g.nrm {
		near(fmt.Sprintf("normal %d", k), float64(p.Normals[k]), float64(g.nrm[k]), 2.0/127)
	}
	c := m.Clips[0]
	if len(c.Tracks) != 2 {
		t.Fatalf("%d tracks, want 2", len(c.Tracks))
	}
	for _, tr := range c.Tracks {
		for k := range d.times {
			near(fmt.Sprintf("%v time %d", tr.Path, k), float64(tr.Times[k]), float64(d.times[k]), 0)
		}
		switch tr.Path.Components() {
		case 4:
			for k := range d.rots {
				// q and -q are one rotation; the filter may pick either.
				s := 1.0
				if k%4 == 0 && float64(tr.Values[k+3])*float64(d.rots[k+3]) < 0 {
					s = -1
				}
				near(fmt.Sprintf("rotation %d", k), s*float64(tr.Values[k]), float64(d.rots[k]), 1.0/2048)
			}
		case 3:
			// The exponent is shared by an element's components: the
			// error is relative to the largest of them.
			for k := range d.movs {
				e := k / 3 * 3
				big := max(math.Abs(float64(d.movs[e])), math.Abs(float64(d.movs[e+1])), math.Abs(float64(d.movs[e+2])))
				near(fmt.Sprintf("translation %d", k), float64(tr.Values[k]), float64(d.movs[k]), big/(1<<14))
			}
		}
	}
	if len(m.Compression) != 1 || m.Compression[0].Objects != 7 {
		t.Fatalf("compression %+v, want 7 EXT_meshopt_compression views", m.Compression)
	}
	// 25 positions, 25 normals, 96 + 96 indices, 5 keys of 4 + 8 + 12 bytes.
	if want := int64(25*12 + 25*4 + 96*2 + 96*4 + 5*(4+8+12)); m.Compression[0].Decoded != want {
		t.Fatalf("decoded %d bytes, want %d", m.Compression[0].Decoded, want)
	}
}

// TestMeshoptFallbackIsNotRead: a fallback buffer with a uri is not
// read, even where the file it names is missing.
func TestMeshoptFallbackIsNotRead(t *testing.T) {
	doc := strings.Replace(string(makeMeshoptDoc().json(t)), `"extensions": {"EXT_meshopt_compression": {"fallback": true}}`, `"uri": "missing.bin", "extensions": {"EXT_meshopt_compression": {"fallback": true}}`, 1)
	if _, err := decode([]byte(doc), fstest.MapFS{}, "fallback.gltf"); err != nil {
		t.Fatal(err)
	}
}

// TestMeshoptBufferNotFallbackIsRead: a buffer with a uri that carries
// the extension with fallback false holds data like any other: the views
// decoded from it are the same as from a buffer without the extension.
func TestMeshoptBufferNotFallbackIsRead(t *testing.T) {
	plain := makeMeshoptDoc().json(t)
	marked := strings.Replace(string(plain), `"buffers": [{"byteLength": `, `"buffers": [{"extensions": {"EXT_meshopt_compression": {"fallback": false}}, "byteLength": `, 1)
	if marked == string(plain) {
		t.Fatal("the case does not mark the first buffer")
	}
	a, err := decode(plain, nil, "plain.gltf")
	if err != nil {
		t.Fatal(err)
	}
	b, err := decode([]byte(marked), nil, "marked.gltf")
	if err != nil {
		t.Fatalf("marked not fallback: %v", err)
	}
	if len(b.Meshes) != 1 || len(b.Meshes[0].Primitives) != 2 || !slices.Equal(a.Meshes[0].Primitives[0].Positions, b.Meshes[0].Primitives[0].Positions) {
		t.Fatalf("marked not fallback: %d meshes; want the plain file's positions", len(b.Meshes))
	}
}

// TestMeshoptMalformed: a broken view is one error naming it.
func TestMeshoptMalformed(t *testing.T) {
	good := string(makeMeshoptDoc().json(t))
	cases := []struct{ name, doc, want string }{
		{"bad mode", strings.Replace(good, `"mode": "TRIANGLES"`, `"mode": "STRIPS"`, 1), `bufferViews[2].extensions.EXT_meshopt_compression: mode "STRIPS"`},
		{"bad filter stride", strings.Replace(good, `"byteStride": 8, "count": 5, "mode": "ATTRIBUTES", "filter": "QUATERNION"`, `"byteStride": 4, "count": 10, "mode": "ATTRIBUTES", "filter": "QUATERNION"`, 1), "bufferViews[4].extensions.EXT_meshopt_compression: filter QUATERNION needs"},
		{"count past the view", strings.Replace(good, `"count": 25, "mode": "ATTRIBUTES", "filter": "NONE"`, `"count": 26, "mode": "ATTRIBUTES", "filter": "NONE"`, 1), "bufferViews[0].extensions.EXT_meshopt_compression: count 26 × byteStride 12 is more than the view's byteLength 300"},
		{"data runs out", strings.Replace(good, `"count": 25, "mode": "ATTRIBUTES", "filter": "OCTAHEDRAL"`, `"count": 75, "mode": "ATTRIBUTES", "filter": "OCTAHEDRAL"`, 1), "bufferViews[1].extensions.EXT_meshopt_compression: count 75 × byteStride 4 is more"},
		{"attribute stride 1", strings.Replace(good, `"byteStride": 12, "count": 25, "mode": "ATTRIBUTES", "filter": "NONE"`, `"byteStride": 1, "count": 25, "mode": "ATTRIBUTES", "filter": "NONE"`, 1), "bufferViews[0].extensions.EXT_meshopt_compression: mode ATTRIBUTES: byteStride 1 is not a multiple of 4"},
		{"index stride", strings.Replace(good, `"count": 5, "mode": "ATTRIBUTES", "filter": "EXPONENTIAL"`, `"count": 5, "mode": "INDICES", "filter": "EXPONENTIAL"`, 1), "bufferViews[5].extensions.EXT_meshopt_compression: mode INDICES: byteStride 12, want 2 or 4"},
	}
	// The buffer one past the last; view 1's bytes (which start past 0)
	// running one byte past the buffer's end.
	views := regexp.MustCompile(`"EXT_meshopt_compression": \{"buffer": 0, "byteOffset": (\d+), "byteLength": (\d+)`).FindAllStringSubmatch(good, -1)
	size := regexp.MustCompile(`"buffers": \[\{"byteLength": (\d+)`).FindStringSubmatch(good)
	if len(views) < 2 || views[1][1] == "0" || size == nil {
		t.Fatal("the document's views are not as the cases expect")
	}
	off, _ := strconv.Atoi(views[1][1])
	total, _ := strconv.Atoi(size[1])
	cases = append(cases,
		struct{ name, doc, want string }{"buffer past the last", strings.Replace(good, `"EXT_meshopt_compression": {"buffer": 0,`, `"EXT_meshopt_compression": {"buffer": 2,`, 1),
			"bufferViews[0].extensions.EXT_meshopt_compression.buffer: buffers[2] does not exist (2 buffers)"},
		struct{ name, doc, want string }{"bytes one past the buffer's end", strings.Replace(good, views[1][0], fmt.Sprintf(`"EXT_meshopt_compression": {"buffer": 0, "byteOffset": %d, "byteLength": %d`, off, total-off+1), 1),
			fmt.Sprintf("bufferViews[1].extensions.EXT_meshopt_compression: bytes [%d, %d) lie outside buffers[0], which has %d bytes", off, total+1, total)},
		// One byte inside the buffer is a stream the codec reads, and
		// refuses as too short; none is no stream at all.
		struct{ name, doc, want string }{"one byte of stream", strings.Replace(good, views[1][0], fmt.Sprintf(`"EXT_meshopt_compression": {"buffer": 0, "byteOffset": %d, "byteLength": 1`, off), 1),
			"bufferViews[1].extensions.EXT_meshopt_compression: mode ATTRIBUTES: the compressed data is malformed"},
		struct{ name, doc, want string }{"no bytes of stream", strings.Replace(good, views[1][0], fmt.Sprintf(`"EXT_meshopt_compression": {"buffer": 0, "byteOffset": %d, "byteLength": 0`, off), 1),
			fmt.Sprintf("bufferViews[1].extensions.EXT_meshopt_compression: bytes [%d, %d) lie outside buffers[0]", off, off)})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.doc == good {
				t.Fatal("the case does not change the document")
			}
			_, err := Decode([]byte(tc.doc), nil, "bad.gltf")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}

// TestMeshoptSizesAtTheirBounds: EXT_meshopt_compression allows a view of
// a single element, an ATTRIBUTES byteStride of 256 (the largest multiple
// of 4 it allows), an INDICES count that is not a multiple of 3 (only
// TRIANGLES is in triangles) and OCTAHEDRAL normals of byteStride 8 (16-bit
// components). One 256-byte element holds a quad's four positions; four
// indices make it a triangle strip, whose triangles are (0, 1, 2) and
// (1, 3, 2) (glTF 2.0 §3.7.2.1), each up to its first corner; axis normals
// encode exactly, so they decode within one step of a normalized short.
func TestMeshoptSizesAtTheirBounds(t *testing.T) {
	quad := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}
	elem := make([]byte, 256)
	for i := range elem {
		elem[i] = 0x7f // past the positions: bytes no accessor reads
	}
	copy(elem, leBytes(quad))
	enc0 := ct.MeshoptVertices(elem, 1, 256)
	enc1 := ct.MeshoptSequence([]uint32{0, 1, 2, 3}, 4)
	nrm := []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -1, 0} // xyz and an unused w
	enc2 := ct.MeshoptVertices(ct.FilterOct(nrm, 4, 8, 16), 4, 8)
	bin := append(append([]byte(nil), enc0...), make([]byte, (4-len(enc0)%4)%4)...)
	off1 := len(bin)
	bin = append(append(bin, enc1...), make([]byte, (4-len(enc1)%4)%4)...)
	off2 := len(bin)
	bin = append(bin, enc2...)
	doc := fmt.Sprintf(`{"asset": {"version": "2.0"},
 "extensionsUsed": ["EXT_meshopt_compression", "KHR_mesh_quantization"], "extensionsRequired": ["EXT_meshopt_compression", "KHR_mesh_quantization"],
 "buffers": [{"byteLength": %d, "uri": %q}, {"byteLength": 304, "extensions": {"EXT_meshopt_compression": {"fallback": true}}}],
 "bufferViews": [
  {"buffer": 1, "byteLength": 256, "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteLength": %d, "byteStride": 256, "count": 1, "mode": "ATTRIBUTES"}}},
  {"buffer": 1, "byteOffset": 256, "byteLength": 16, "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteOffset": %d, "byteLength": %d, "byteStride": 4, "count": 4, "mode": "INDICES"}}},
  {"buffer": 1, "byteOffset": 272, "byteLength": 32, "byteStride": 8, "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteOffset": %d, "byteLength": %d, "byteStride": 8, "count": 4, "mode": "ATTRIBUTES", "filter": "OCTAHEDRAL"}}}],
 "accessors": [
  {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
  {"bufferView": 1, "componentType": 5125, "count": 4, "type": "SCALAR"},
  {"bufferView": 2, "componentType": 5122, "normalized": true, "count": 4, "type": "VEC3"}],
 "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 2}, "indices": 1, "mode": 5}]}],
 "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}`,
		len(bin), b64(bin), len(enc0), off1, len(enc1), off2, len(enc2))
	m, err := decode([]byte(doc), nil, "bounds.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Meshes) != 1 || len(m.Meshes[0].Primitives) != 1 {
		t.Fatalf("%d meshes, want 1 of 1 primitive", len(m.Meshes))
	}
	p := m.Meshes[0].Primitives[0]
	if !slices.Equal(p.Positions, quad) {
		t.Errorf("positions %v, want %v", p.Positions, quad)
	}
	if len(p.Normals) != 12 {
		t.Fatalf("normals %v, want 4", p.Normals)
	}
	for v := range 4 {
		for c := range 3 {
			if got, want := p.Normals[3*v+c], nrm[4*v+c]; math.Abs(float64(got-want)) > 1.0/32767 {
				t.Errorf("normal %d: %v, want %v", v, p.Normals[3*v:3*v+3], nrm[4*v:4*v+3])
				break
			}
		}
	}
	want := [][3]uint32{{0, 1, 2}, {1, 3, 2}}
	if len(p.Indices) != 3*len(want) {
		t.Fatalf("indices %v, want the triangles %v", p.Indices, want)
	}
	for k, w := range want {
		got := [3]uint32(p.Indices[3*k : 3*k+3])
		if got != w && got != [3]uint32{w[1], w[2], w[0]} && got != [3]uint32{w[2], w[0], w[1]} {
			t.Errorf("triangle %d: %v, want %v", k, got, w)
		}
	}
	if len(m.Compression) != 1 || m.Compression[0].Objects != 3 || m.Compression[0].Decoded != 256+16+32 {
		t.Errorf("compression %+v, want 3 EXT_meshopt_compression views decoding 256 + 16 + 32 bytes", m.Compression)
	}
}
