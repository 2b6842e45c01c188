package gltfload

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

// allocated returns the bytes f allocates (all goroutines: run it alone).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

const hostileAllocLimit = 10 << 20

// Small documents that declare far more data than they hold are refused
// before the loader allocates what they declare.
func TestHostileDocumentsAllocateLittle(t *testing.T) {
	head := `{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], `
	tenBytes := `"buffers": [{"byteLength": 10, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAA=="}]`
	cases := []struct {
		name string
		data []byte
		fsys fs.FS
		want string // the error's tail, or "" for a model that loads
	}{
		{name: "sparse accessor with count 16777215",
			data: []byte(head + `"buffers": [{"byteLength": 16, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAAAAAA=="}],
			  "bufferViews": [{"buffer": 0, "byteLength": 2}, {"buffer": 0, "byteOffset": 4, "byteLength": 12}],
			  "accessors": [{"componentType": 5126, "count": 16777215, "type": "VEC3",
			    "sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5123}, "values": {"bufferView": 1}}}]}`),
			want: "accessors[0]: count 16777215 without a bufferView declares 201326580 bytes of data, more than this file can justify"},
		{name: "accessor without data with count 16777215",
			data: []byte(head + `"accessors": [{"componentType": 5126, "count": 16777215, "type": "MAT4"}]}`),
			want: "accessors[0]: count 16777215 without a bufferView declares 1073741760 bytes of data, more than this file can justify"},
		{name: "bufferView of 2^31 bytes over a 10-byte buffer",
			data: []byte(head + tenBytes + `, "bufferViews": [{"buffer": 0, "byteLength": 2147483648}],
			  "accessors": [{"bufferView": 0, "componentType": 5126, "count": 16777215, "type": "VEC3"}]}`),
			want: "bufferViews[0]: bytes [0, 2147483648) lie outside buffers[0], which has 10 bytes"},
		{name: "GLB claiming a 4 GB chunk",
			data: func() []byte {
				g := glbChunks([]byte(`{"asset": {"version": "2.0"}}`), make([]byte, 16))
				binary.LittleEndian.PutUint32(g[len(g)-24:], 0xFFFFFFF0)
				return g
			}(),
			want: "glb: chunk 1 length 4294967280 runs past the end of the file"},
		{name: "data URI claiming a gigabyte",
			data: []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 1073741824, "uri": "data:application/octet-stream;base64,AAAA"}]}`),
			want: "buffers[0]: byteLength is 1073741824 but only 3 bytes are there"},
		{name: "external buffer claiming a gigabyte",
			data: []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 1073741824, "uri": "a.bin"}]}`),
			fsys: fstest.MapFS{"a.bin": {Data: make([]byte, 10)}},
			want: "buffers[0]: byteLength is 1073741824 but only 10 bytes are there"},
		{name: "external file far longer than its buffer",
			data: []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 16, "uri": "a.bin"}]}`),
			fsys: fstest.MapFS{"a.bin": {Data: make([]byte, 64<<20)}}},
		{name: "image header claiming 8192x8192",
			data: []byte(head + tenBytes + `, "bufferViews": [{"buffer": 0, "byteLength": 10}],
			  "accessors": [{"componentType": 5126, "count": 3, "type": "VEC3"}],
			  "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}], "textures": [{"source": 0}],
			  "images": [{"uri": "data:image/png;base64,` + base64.StdEncoding.EncodeToString(pngClaiming(8192, 8192)) + `"}]}`)},
		// Uses of one accessor share its decoded array: loads, small.
		{name: "many channels reading one large accessor", data: manyChannels(t, 400, 1000)},
		{name: "many primitives reading one accessor without data", data: manyPrimitives(500),
			want: "meshes[0].primitives[0]: vertex order: decoding needs 800000 bytes, more than the"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			n := allocated(func() { _, err = Decode(tc.data, tc.fsys, "t.gltf") })
			t.Logf("%d-byte file: %d bytes allocated (%.0f×)", len(tc.data), n, float64(n)/float64(len(tc.data)))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), "t.gltf: "+tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if n > hostileAllocLimit {
				t.Fatalf("allocated %d bytes, more than %d", n, hostileAllocLimit)
			}
		})
	}
}

// manyChannels is an animation whose channels all read the same output
// accessor of keys keys.
func manyChannels(t testing.TB, channels, keys int) []byte {
	b := &docBuilder{}
	times := make([]float32, keys)
	for i := range times {
		times[i] = float32(i)
	}
	b.floatAcc(t, "SCALAR", times)
	b.floatAcc(t, "VEC4", make([]float32, 4*keys))
	nodes := make([]string, channels)
	chans := make([]string, channels)
	for i := range channels {
		nodes[i] = "{}"
		chans[i] = fmt.Sprintf(`{"sampler": 0, "target": {"node": %d, "path": "rotation"}}`, i)
	}
	return b.json(`"nodes": [` + join(nodes) + `], "animations": [{"channels": [` + join(chans) + `], "samplers": [{"input": 0, "output": 1}]}]`)
}

// manyPrimitives is a tiny document whose primitives all read one
// accessor of 200000 zero vertices that no bytes back.
func manyPrimitives(prims int) []byte {
	p := make([]string, prims)
	for i := range p {
		p[i] = `{"attributes": {"POSITION": 0}, "mode": 0}`
	}
	return []byte(`{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
	  "accessors": [{"componentType": 5126, "count": 200000, "type": "VEC3"}],
	  "meshes": [{"primitives": [` + join(p) + `]}]}`)
}

// The loader's allocation is a small multiple of a valid file's size.
func TestValidFileAllocation(t *testing.T) {
	data := characterGLB(t)
	var err error
	n := allocated(func() { _, err = Decode(data, nil, "character.glb") })
	if err != nil {
		t.Fatal(err)
	}
	ratio := float64(n) / float64(len(data))
	t.Logf("character.glb: %d bytes, %d allocated (%.1f×)", len(data), n, ratio)
	if ratio > budgetFactor {
		t.Fatalf("allocated %.1f× the file size, more than the %d× budget", ratio, budgetFactor)
	}
}

// One mesh, many materials: primitives sharing a vertex buffer share its
// decoded arrays, so such a file costs its data once, not once per
// primitive (which here would exceed the budget).
func TestSharedVertexBuffer(t *testing.T) {
	const n, prims = 9999, 100
	b := &docBuilder{}
	pos, nrm, wts := make([]float32, 3*n), make([]float32, 3*n), make([]float32, 4*n)
	idx := make([]uint32, n)
	for i := range n {
		pos[3*i] = float32(i)
		nrm[3*i+2] = 1
		wts[4*i] = 1
		idx[i] = uint32(i)
	}
	p := b.floatAcc(t, "VEC3", pos)
	q := b.floatAcc(t, "VEC3", nrm)
	jv := b.view(t, 0, make([]uint8, 4*n))
	j := b.acc(fmt.Sprintf(`"bufferView": %d, "componentType": 5121, "count": %d, "type": "VEC4"`, jv, n))
	w := b.floatAcc(t, "VEC4", wts)
	iv := b.view(t, 0, idx)
	ia := b.acc(fmt.Sprintf(`"bufferView": %d, "componentType": 5125, "count": %d, "type": "SCALAR"`, iv, n))
	prim := fmt.Sprintf(`{"attributes": {"POSITION": %d, "NORMAL": %d, "JOINTS_0": %d, "WEIGHTS_0": %d}, "indices": %d}`, p, q, j, w, ia)
	ps := make([]string, prims)
	for i := range ps {
		ps[i] = prim
	}
	data := b.glb(t, `"nodes": [{"mesh": 0, "skin": 0}, {}], "skins": [{"joints": [1]}], "scenes": [{"nodes": [0, 1]}], "meshes": [{"primitives": [`+join(ps)+`]}]`)
	var m *Model
	var err error
	alloc := allocated(func() { m, err = Decode(data, nil, "t.glb") })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d-byte file, %d primitives: %d bytes allocated (%.1f×)", len(data), prims, alloc, float64(alloc)/float64(len(data)))
	first, last := m.Meshes[0].Primitives[0], m.Meshes[0].Primitives[prims-1]
	if &first.Positions[0] != &last.Positions[0] || &first.Weights[0] != &last.Weights[0] || &first.Indices[0] != &last.Indices[0] {
		t.Fatal("primitives sharing accessors do not share arrays")
	}
	if alloc > 8*uint64(len(data)) {
		t.Fatalf("allocated %d bytes for a %d-byte file", alloc, len(data))
	}
}

// TestZerosAtTheBudget: an accessor without a bufferView may declare as
// many bytes as the file's budget, 64 × its size + 1 MiB, and no more:
// exactly that loads, 4 bytes more is refused.
func TestZerosAtTheBudget(t *testing.T) {
	doc := func(n int) string {
		return fmt.Sprintf(`{"asset": {"version": "2.0"}, "accessors": [{"componentType": 5126, "count": %d, "type": "SCALAR"}]}`, n)
	}
	n := 0
	for range 5 { // the count's digits are part of the size
		n = (64*len(doc(n)) + 1<<20) / 4
	}
	if d := doc(n); 4*n != 64*len(d)+1<<20 {
		t.Fatalf("no count of floats fills the budget of a %d-byte file", len(d))
	}
	if _, err := Decode([]byte(doc(n)), nil, "t.gltf"); err != nil {
		t.Errorf("%d floats, the whole budget: %v", n, err)
	}
	_, err := Decode([]byte(doc(n+1)), nil, "t.gltf")
	want := fmt.Sprintf("accessors[0]: count %d without a bufferView declares %d bytes of data, more than this file can justify (%d bytes)",
		n+1, 4*(n+1), 64*len(doc(n+1))+1<<20)
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("%d floats: %v, want an error ending %q", n+1, err, want)
	}

	// A buffer in a file of its own counts as bytes the file holds: with
	// 4096 bytes beside it, the budget is 64 × (its size + 4096) + 1 MiB.
	ext := func(n int) string {
		return fmt.Sprintf(`{"asset": {"version": "2.0"}, "buffers": [{"uri": "b.bin", "byteLength": 4096}], "accessors": [{"componentType": 5126, "count": %d, "type": "SCALAR"}]}`, n)
	}
	n = 0
	for range 5 {
		n = (64*(len(ext(n))+4096) + 1<<20) / 4
	}
	if d := ext(n); 4*n != 64*(len(d)+4096)+1<<20 {
		t.Fatalf("no count of floats fills the budget of a %d-byte file and its buffer", len(d))
	}
	if _, err := Decode([]byte(ext(n)), fstest.MapFS{"b.bin": {Data: make([]byte, 4096)}}, "t.gltf"); err != nil {
		t.Errorf("%d floats, the whole budget with the buffer's bytes: %v", n, err)
	}

	// Drawn as a mesh's positions (VEC3: 12 bytes a vertex), the count
	// whose floats are exactly the budget is read, leaving 0, and the
	// next array, the vertex order (4 bytes a vertex), is refused. The
	// generator pads the file to a size the budget's 12-byte vertices
	// divide: 64 × size + 2^20 ≡ 0 (mod 12) needs size ≡ 2 (mod 3).
	mesh := func(pad string, n int) string {
		return fmt.Sprintf(`{"asset": {"version": "2.0", "generator": %q}, "accessors": [{"componentType": 5126, "count": %d, "type": "VEC3", "min": [0, 0, 0], "max": [0, 0, 0]}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}`, pad, n)
	}
	pad, n := "", 0
	for range 20 { // the count's digits are part of the size
		if (64*len(mesh(pad, n))+1<<20)%12 != 0 {
			pad += "x"
		}
		n = (64*len(mesh(pad, n)) + 1<<20) / 12
	}
	d := mesh(pad, n)
	if 12*n != 64*len(d)+1<<20 {
		t.Fatalf("no count of vertices fills the budget of a %d-byte file", len(d))
	}
	_, err = Decode([]byte(d), nil, "t.gltf")
	want = fmt.Sprintf("meshes[0].primitives[0]: vertex order: decoding needs %d bytes, more than the 0 left of this file's budget (64 × its %d bytes + 1048576)", 4*n, len(d))
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%d vertices, the whole budget: %v, want an error with %q", n, err, want)
	}
}
