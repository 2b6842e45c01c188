package gltfload

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	ct "github.com/skinview/skinview/internal/gltfload/internal/compresstest"
)

// gridMesh is an n×n vertex grid in the unit square, two triangles a cell,
// with every attribute a skinned, coloured character has.
type gridMesh struct {
	n                       int
	pos, nrm, uv, w, custom []float32
	col, joints             []uint8
	idx                     []uint32
}

func makeGrid(n int) gridMesh {
	g := gridMesh{n: n}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			fx, fy := float32(x)/float32(n-1), float32(y)/float32(n-1)
			g.pos = append(g.pos, fx, fy, 0.25*fx*fy)
			nz := float32(math.Sqrt(1 - 0.18))
			g.nrm = append(g.nrm, 0.3, -0.3, nz)
			g.uv = append(g.uv, fx, 1-fy)
			g.col = append(g.col, uint8(x*17), uint8(y*31), 200, 255)
			g.joints = append(g.joints, uint8(x%3), uint8(y%3+3), 0, 0)
			g.w = append(g.w, 0.75-0.5*fx, 0.25+0.5*fx, 0, 0)
			g.custom = append(g.custom, fx*10, fy*10)
		}
	}
	for y := 0; y+1 < n; y++ {
		for x := 0; x+1 < n; x++ {
			a := uint32(y*n + x)
			g.idx = append(g.idx, a, a+1, a+uint32(n), a+1, a+uint32(n)+1, a+uint32(n))
		}
	}
	return g
}

func leBytes(v any) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, v)
	return b.Bytes()
}

func b64(data []byte) string {
	return "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(data)
}

// dracoGridDoc encodes g with libdraco and writes a glTF that needs
// KHR_draco_mesh_compression, with one uncompressed morph target. Texture
// coordinates are declared normalized UNSIGNED_SHORT: the decoded floats
// must be written in that type.
func dracoGridDoc(t testing.TB, g gridMesh) []byte {
	t.Helper()
	nv := g.n * g.n
	attrs := []ct.DracoAttr{
		{Kind: ct.Position, DT: ct.Float32, Comps: 3, QuantBits: 14, Data: leBytes(g.pos)},
		{Kind: ct.Normal, DT: ct.Float32, Comps: 3, QuantBits: 10, Data: leBytes(g.nrm)},
		{Kind: ct.TexCoord, DT: ct.Float32, Comps: 2, QuantBits: 12, Data: leBytes(g.uv)},
		{Kind: ct.Color, DT: ct.Uint8, Comps: 4, Normalized: true, Data: leBytes(g.col)},
		{Kind: ct.Generic, DT: ct.Uint8, Comps: 4, Data: leBytes(g.joints)},
		{Kind: ct.Generic, DT: ct.Float32, Comps: 4, Data: leBytes(g.w)},
		{Kind: ct.Generic, DT: ct.Float32, Comps: 2, Data: leBytes(g.custom)},
	}
	enc, ids := ct.Draco(nv, g.idx, attrs, 5, false)
	if enc == nil {
		t.Fatal("libdraco refused to encode the grid")
	}
	target := make([]float32, nv*3)
	for v := range nv {
		target[v*3+2] = 1 // every vertex moves up by the target's weight
	}
	bin := append(append([]byte(nil), enc...), make([]byte, (4-len(enc)%4)%4)...)
	toff := len(bin)
	bin = append(bin, leBytes(target)...)
	return []byte(fmt.Sprintf(`{"asset": {"version": "2.0"},
 "extensionsUsed": ["KHR_draco_mesh_compression", "KHR_mesh_quantization"],
 "extensionsRequired": ["KHR_draco_mesh_compression", "KHR_mesh_quantization"],
 "buffers": [{"byteLength": %d, "uri": %q}],
 "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": %d}, {"buffer": 0, "byteOffset": %d, "byteLength": %d}],
 "accessors": [
  {"componentType": 5126, "count": %[6]d, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0.25]},
  {"componentType": 5126, "count": %[6]d, "type": "VEC3"},
  {"componentType": 5123, "normalized": true, "count": %[6]d, "type": "VEC2"},
  {"componentType": 5121, "normalized": true, "count": %[6]d, "type": "VEC4"},
  {"componentType": 5121, "count": %[6]d, "type": "VEC4"},
  {"componentType": 5126, "count": %[6]d, "type": "VEC4"},
  {"componentType": 5126, "count": %[6]d, "type": "VEC2"},
  {"componentType": 5123, "count": %[7]d, "type": "SCALAR"},
  {"bufferView": 1, "componentType": 5126, "count": %[6]d, "type": "VEC3", "min": [0, 0, 1], "max": [0, 0, 1]}],
 "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "COLOR_0": 3, "JOINTS_0": 4, "WEIGHTS_0": 5, "_CUSTOM": 6},
   "indices": 7, "targets": [{"POSITION": 8}],
   "extensions": {"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {"POSITION": %[8]d, "NORMAL": %[9]d, "TEXCOORD_0": %[10]d, "COLOR_0": %[11]d, "JOINTS_0": %[12]d, "WEIGHTS_0": %[13]d, "_CUSTOM": %[14]d}}}}]}],
 "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}`,
		len(bin), b64(bin), len(enc), toff, len(target)*4, nv, len(g.idx),
		ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], ids[6]))
}

// TestDracoDecodesEveryAttribute compares what the loader decodes from a
// libdraco-encoded grid with the grid. Draco's edgebreaker reorders
// vertices and triangles, so each decoded vertex is matched to the grid
// vertex nearest its position (grid vertices lie 0.2 apart) and the
// triangles are compared as sets, each from its smallest corner. Values
// agree within the quantization step: b bits over a range r round by at
// most r/(2^b-1)/2.
func TestDracoDecodesEveryAttribute(t *testing.T) {
	g := makeGrid(6)
	m, err := decode(dracoGridDoc(t, g), nil, "draco.gltf")
	if err != nil {
		t.Fatal(err)
	}
	p := &m.Meshes[0].Primitives[0]
	nv := g.n * g.n
	if len(p.Indices) != len(g.idx) || p.NumVertices() != nv {
		t.Fatalf("%d vertices and %d indices, want %d and %d", p.NumVertices(), len(p.Indices), nv, len(g.idx))
	}
	near := func(what string, got, want, eps float64) {
		t.Helper()
		if math.Abs(got-want) > eps {
			t.Fatalf("%s: %v, want %v within %g", what, got, want, eps)
		}
	}
	posEps := 1.0 / (1<<14 - 1) / 2 * 1.001
	uvEps := 1.0/(1<<12-1)/2 + 1.0/65535/2
	orig := make([]int, nv)
	for d := range nv {
		best, bestD := -1, math.Inf(1)
		for o := range nv {
			dx := float64(p.Positions[d*3] - g.pos[o*3])
			dy := float64(p.Positions[d*3+1] - g.pos[o*3+1])
			dz := float64(p.Positions[d*3+2] - g.pos[o*3+2])
			if dd := math.Sqrt(dx*dx + dy*dy + dz*dz); dd < bestD {
				best, bestD = o, dd
			}
		}
		orig[d] = best
		o := best
		for c := range 3 {
			near(fmt.Sprintf("vertex %d position %d", d, c), float64(p.Positions[d*3+c]), float64(g.pos[o*3+c]), posEps)
			// Octahedral normals of 10 bits: within 1/2^8 of the direction.
			near(fmt.Sprintf("vertex %d normal %d", d, c), float64(p.Normals[d*3+c]), float64(g.nrm[o*3+c]), 1.0/256)
			near(fmt.Sprintf("vertex %d morph %d", d, c), float64(p.Targets[0].Positions[d*3+c]), []float64{0, 0, 1}[c], 0)
		}
		for c := range 2 {
			near(fmt.Sprintf("vertex %d uv %d", d, c), float64(p.UV0[d*2+c]), float64(g.uv[o*2+c]), uvEps)
		}
		for c := range 4 {
			near(fmt.Sprintf("vertex %d colour %d", d, c), float64(p.Colors[d*4+c]), float64(g.col[o*4+c])/255, 1e-7)
			near(fmt.Sprintf("vertex %d joint %d", d, c), float64(p.AllJoints[d*4+c]), float64(g.joints[o*4+c]), 0)
			near(fmt.Sprintf("vertex %d weight %d", d, c), float64(p.AllWeights[d*4+c]), float64(g.w[o*4+c]), 1e-7)
		}
	}
	tri := func(a, b, c uint32) [3]uint32 {
		for a > b || a > c {
			a, b, c = b, c, a
		}
		return [3]uint32{a, b, c}
	}
	want := map[[3]uint32]int{}
	for k := 0; k < len(g.idx); k += 3 {
		want[tri(g.idx[k], g.idx[k+1], g.idx[k+2])]++
	}
	for k := 0; k < len(p.Indices); k += 3 {
		tk := tri(uint32(orig[p.Indices[k]]), uint32(orig[p.Indices[k+1]]), uint32(orig[p.Indices[k+2]]))
		if want[tk] == 0 {
			t.Fatalf("decoded triangle %d is %v in the grid's numbering, which the grid does not have (with this winding)", k/3, tk)
		}
		want[tk]--
	}
	if len(m.Compression) != 1 || m.Compression[0].Extension != extDraco || m.Compression[0].Objects != 1 {
		t.Fatalf("compression %+v, want one KHR_draco_mesh_compression primitive", m.Compression)
	}
	// 36 vertices of 12+12+4+4+4+16+8 bytes, and 150 two-byte indices.
	if want := int64(36*60 + 150*2); m.Compression[0].Decoded != want {
		t.Fatalf("decoded %d bytes, want %d", m.Compression[0].Decoded, want)
	}
}

// TestDracoMalformed: broken compressed data is one error naming the
// primitive, never a crash.
func TestDracoMalformed(t *testing.T) {
	good := string(dracoGridDoc(t, makeGrid(4)))
	cases := []struct{ name, doc, want string }{
		{"count differs", strings.Replace(good, `"count": 16, "type": "VEC3", "min": [0, 0, 0]`, `"count": 15, "type": "VEC3", "min": [0, 0, 0]`, 1), "libdraco decoded 16 vertices, accessors[0] declares 15"},
		{"unknown id", regexp.MustCompile(`"_CUSTOM": \d+}}}`).ReplaceAllString(good, `"_CUSTOM": 99}}}`), "attribute id 99"},
		{"no bufferView", strings.Replace(good, `{"bufferView": 0, "attributes"`, `{"attributes"`, 1), "bufferView is required"},
		{"bufferView past the last", strings.Replace(good, `{"bufferView": 0, "attributes"`, `{"bufferView": 2, "attributes"`, 1), "KHR_draco_mesh_compression.bufferView: bufferViews[2] does not exist (2 bufferViews)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.doc == good {
				t.Fatal("the case does not change the document")
			}
			_, err := Decode([]byte(tc.doc), nil, "bad.gltf")
			if err == nil || !strings.Contains(err.Error(), "meshes[0].primitives[0]") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming meshes[0].primitives[0] and %q", err, tc.want)
			}
		})
	}
}

// TestDracoCountDeclaredByOlderEncoders: files whose accessors declare
// fewer vertices and indices than libdraco decodes (older encoders
// counted before Draco split vertices; the specification asks for the
// decoded counts) open when every attribute and the indices come from the
// Draco geometry, which is consistent in itself: the primitive draws the
// decoded vertices and triangles, and the report names the accessors.
// Where an attribute or target lies outside it, the counts must agree.
func TestDracoCountDeclaredByOlderEncoders(t *testing.T) {
	g := makeGrid(4) // 16 vertices, 54 indices
	good := string(dracoGridDoc(t, g))
	noTarget := strings.Replace(good, `, "targets": [{"POSITION": 8}]`, "", 1)
	short := regexp.MustCompile(`"count": 16,`).ReplaceAllString(noTarget, `"count": 14,`)
	short = strings.Replace(short, `"count": 54,`, `"count": 51,`, 1)
	if noTarget == good || short == noTarget || strings.Count(short, `"count": 14,`) != 8 || !strings.Contains(short, `"count": 51,`) {
		t.Fatal("the cases do not change the document")
	}
	// The bytes the file declares are charged before decoding (14 × 60 a
	// vertex, 51 u16 indices: 942), and what decoding adds on top of them
	// after (2 × 60 + 3 × 2 = 126): together the 16 × 60 + 54 × 2 = 1068
	// decoded bytes.
	// The same with the indices at accessor 0, which "no indices" must not
	// be taken for.
	const where = "meshes[0].primitives[0].extensions.KHR_draco_mesh_compression"
	for _, doc := range []string{short, indicesFirst(t, short, 51)} {
		var charged []int64
		chargeSeen = func(what string, n, _ int64) {
			if what == where {
				charged = append(charged, n)
			}
		}
		m, err := decode([]byte(doc), nil, "old.gltf")
		chargeSeen = nil
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(charged, []int64{942, 126}) {
			t.Errorf("charged %v to the primitive, want [942 126]", charged)
		}
		p := &m.Meshes[0].Primitives[0]
		if p.NumVertices() != 16 || len(p.Indices) != 54 || len(p.Normals) != 16*3 || len(p.UV0) != 16*2 || len(p.AllWeights) != 16*4 {
			t.Fatalf("%d vertices (%d normals, %d uvs, %d weights) and %d indices, want the 16 and 54 libdraco decodes",
				p.NumVertices(), len(p.Normals)/3, len(p.UV0)/2, len(p.AllWeights)/4, len(p.Indices))
		}
		found := false
		for _, i := range m.Report.Issues {
			if i.Code == "VIEWER_DRACO_COUNT" {
				found = true
				if i.Severity != Warning || !strings.Contains(i.Message, "meshes[0].primitives[0]") || !strings.Contains(i.Message, "16") || !strings.Contains(i.Message, "14") {
					t.Fatalf("issue %+v, want a warning naming the primitive, the decoded 16 and the declared 14", i)
				}
			}
		}
		if !found {
			t.Fatalf("report %+v has no VIEWER_DRACO_COUNT issue", m.Report.Issues)
		}
	}

	// With the uncompressed morph target of 16 displacements the decoded
	// vertices cannot be matched to it: refused.
	withTarget := regexp.MustCompile(`"count": 16,`).ReplaceAllString(good, `"count": 14,`)
	withTarget = strings.Replace(withTarget, `{"bufferView": 1, "componentType": 5126, "count": 14,`, `{"bufferView": 1, "componentType": 5126, "count": 16,`, 1)
	if _, err := Decode([]byte(withTarget), nil, "target.gltf"); err == nil || !strings.Contains(err.Error(), "libdraco decoded 16 vertices") || !strings.Contains(err.Error(), "declares 14") {
		t.Fatalf("error %v, want the count mismatch refused where a morph target is not Draco's", err)
	}
}

// TestDracoDeclaredBytesCharged: what a Draco primitive's accessors
// declare is charged to the file's budget before anything is decoded, at
// the size written as declared: 1,000,000 vertices of POSITION and NORMAL
// (12 bytes each), TEXCOORD_0 (2 × u16), COLOR_0 and JOINTS_0 (4 × u8),
// WEIGHTS_0 (16) and _CUSTOM (8), 60 bytes a vertex, and 3,000,000 u16
// indices: 66,000,000 bytes, far past what the file's few kilobytes
// justify (64 × its bytes + 1 MiB, none of it spent yet).
func TestDracoDeclaredBytesCharged(t *testing.T) {
	doc := strings.Replace(string(dracoGridDoc(t, makeGrid(4))), `, "targets": [{"POSITION": 8}]`, "", 1)
	doc = regexp.MustCompile(`"count": 16,`).ReplaceAllString(doc, `"count": 1000000,`)
	doc = strings.Replace(doc, `"count": 54,`, `"count": 3000000,`, 1)
	_, err := Decode([]byte(doc), nil, "big.gltf")
	want := fmt.Sprintf("gltfload: big.gltf: meshes[0].primitives[0].extensions.KHR_draco_mesh_compression: decoding needs 66000000 bytes, more than the %d left of this file's budget (64 × its %d bytes + 1048576); the file declares far more data than it holds",
		64*len(doc)+1<<20, len(doc))
	if err == nil || err.Error() != want {
		t.Fatalf("error\n%v\nwant\n%s", err, want)
	}
}

// TestDracoDecodedBytesJoinTheBudget: bytes libdraco decoded count as
// bytes the file holds: the budget an accessor without bufferView is
// held to grows by 64 × the 16 × 60 + 54 × 2 = 1068 decoded bytes.
func TestDracoDecodedBytesJoinTheBudget(t *testing.T) {
	doc := strings.Replace(string(dracoGridDoc(t, makeGrid(4))),
		`{"bufferView": 1, "componentType": 5126, "count": 16, "type": "VEC3", "min": [0, 0, 1], "max": [0, 0, 1]}`,
		`{"componentType": 5126, "count": 1000000, "type": "VEC3"}`, 1)
	_, err := Decode([]byte(doc), nil, "big.gltf")
	want := fmt.Sprintf("accessors[8]: count 1000000 without a bufferView declares 12000000 bytes of data, more than this file can justify (%d bytes)",
		64*(len(doc)+1068)+1<<20)
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("error\n%v\nwant one ending\n%s", err, want)
	}
}

// TestDracoDecodedBytesLeftInTheBudget: after decoding, the budget left
// is what was left (64 × the file's bytes + 1 MiB, less the 1068 bytes the
// primitive declares, charged before decoding) plus 64 × the 1068 bytes
// decoded, which the next charge, an accessor's, is measured against.
func TestDracoDecodedBytesLeftInTheBudget(t *testing.T) {
	doc := dracoGridDoc(t, makeGrid(4))
	const where = "meshes[0].primitives[0].extensions.KHR_draco_mesh_compression"
	var seen []string
	var after int64 = -1
	chargeSeen = func(what string, n, left int64) {
		seen = append(seen, what)
		if len(seen) > 1 && seen[len(seen)-2] == where && after < 0 {
			after = left
		}
	}
	defer func() { chargeSeen = nil }()
	if _, err := decode(doc, nil, "grid.gltf"); err != nil {
		t.Fatal(err)
	}
	if len(seen) < 2 || seen[0] != where {
		t.Fatalf("charges %q; want the primitive's first, then others", seen)
	}
	if want := int64(64*len(doc)+1<<20-1068) + 64*1068; after != want {
		t.Errorf("after decoding, %q was charged against %d left; want %d", seen[1], after, want)
	}
}

// TestDracoSharedPrimitiveDecodedOnce: two meshes holding the same Draco
// primitive (its accessors and compressed view) decode it once: one
// object of 16 × 60 + 54 × 2 bytes, and both draw the same geometry.
func TestDracoSharedPrimitiveDecodedOnce(t *testing.T) {
	good := string(dracoGridDoc(t, makeGrid(4)))
	i, j := strings.Index(good, `"meshes": [`)+len(`"meshes": [`), strings.Index(good, "],\n \"nodes\"")
	if i < len(`"meshes": [`) || j < i {
		t.Fatal("the case finds no meshes")
	}
	mesh := good[i:j]
	twice := good[:i] + mesh + ", " + mesh + good[j:]
	twice = strings.Replace(twice, `"nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]`, `"nodes": [{"mesh": 0}, {"mesh": 1}], "scenes": [{"nodes": [0, 1]}]`, 1)
	m, err := decode([]byte(twice), nil, "twice.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Meshes) != 2 || len(m.Meshes[1].Primitives) != 1 || !slices.Equal(m.Meshes[0].Primitives[0].Positions, m.Meshes[1].Primitives[0].Positions) || len(m.Meshes[1].Primitives[0].Indices) != 54 {
		t.Fatalf("%d meshes; want two drawing the same 16 vertices and 54 indices", len(m.Meshes))
	}
	if len(m.Compression) != 1 || m.Compression[0].Objects != 1 || m.Compression[0].Decoded != 16*60+54*2 {
		t.Fatalf("compression %+v; want one Draco object of 1068 bytes decoded", m.Compression)
	}
}

// TestDracoPointsWithoutIndices: a Draco primitive drawn as points, with
// no indices, decodes its vertices as the same primitive with indices
// does (libdraco gives the points in one order either way), and nothing
// is written as its indices.
func TestDracoPointsWithoutIndices(t *testing.T) {
	good := string(dracoGridDoc(t, makeGrid(4)))
	points := strings.Replace(good, `"indices": 7, "targets"`, `"mode": 0, "targets"`, 1)
	if points == good {
		t.Fatal("the case does not drop the indices")
	}
	a, err := decode([]byte(good), nil, "indexed.gltf")
	if err != nil {
		t.Fatal(err)
	}
	b, err := decode([]byte(points), nil, "points.gltf")
	if err != nil {
		t.Fatalf("points: %v", err)
	}
	if len(b.Meshes) != 1 || len(b.Meshes[0].Primitives) != 1 {
		t.Fatalf("points: %d meshes; want one primitive", len(b.Meshes))
	}
	pa, pb := &a.Meshes[0].Primitives[0], &b.Meshes[0].Primitives[0]
	if len(pb.Indices) != 0 || !slices.Equal(pa.Positions, pb.Positions) || !slices.Equal(pa.Normals, pb.Normals) || !slices.Equal(pa.UV0, pb.UV0) {
		t.Fatalf("points: %d indices, positions %v, normals %v; want none, and the indexed primitive's %v, %v", len(pb.Indices), pb.Positions, pb.Normals, pa.Positions, pa.Normals)
	}
	if len(b.Compression) != 1 || b.Compression[0].Decoded != 16*60 {
		t.Fatalf("points: compression %+v; want 16 × 60 bytes decoded (no indices)", b.Compression)
	}
}

// indicesFirst moves dracoGridDoc's indices accessor (of count n) to the
// front of the accessors, renumbering the primitive's attributes.
func indicesFirst(t *testing.T, doc string, n int) string {
	t.Helper()
	acc := fmt.Sprintf(`  {"componentType": 5123, "count": %d, "type": "SCALAR"},`+"\n", n)
	first := strings.Replace(doc, acc, "", 1)
	first = strings.Replace(first, `"accessors": [`+"\n", `"accessors": [`+"\n"+acc, 1)
	first = strings.Replace(first,
		`{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "COLOR_0": 3, "JOINTS_0": 4, "WEIGHTS_0": 5, "_CUSTOM": 6},
   "indices": 7,`,
		`{"attributes": {"POSITION": 1, "NORMAL": 2, "TEXCOORD_0": 3, "COLOR_0": 4, "JOINTS_0": 5, "WEIGHTS_0": 6, "_CUSTOM": 7},
   "indices": 0,`, 1)
	if strings.Count(first, `"indices": 0,`) != 1 || !strings.HasPrefix(first[strings.Index(first, `"accessors": [`):], `"accessors": [`+"\n"+acc) {
		t.Fatal("the case does not reorder the document")
	}
	return first
}

// TestDracoIndicesAtAccessorZero: a Draco primitive whose indices are the
// file's first accessor (index 0, which "no indices" must not be taken
// for) decodes as the same primitive does with its indices listed last.
func TestDracoIndicesAtAccessorZero(t *testing.T) {
	good := string(dracoGridDoc(t, makeGrid(4)))
	first := indicesFirst(t, good, 54)
	a, err := Decode([]byte(good), nil, "last.gltf")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Decode([]byte(first), nil, "first.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Meshes) != 1 || len(b.Meshes) != 1 || len(a.Meshes[0].Primitives) != 1 || len(b.Meshes[0].Primitives) != 1 {
		t.Fatalf("%d and %d meshes; want one primitive each", len(a.Meshes), len(b.Meshes))
	}
	pa, pb := a.Meshes[0].Primitives[0], b.Meshes[0].Primitives[0]
	if len(pb.Indices) != 54 || !slices.Equal(pa.Indices, pb.Indices) || !slices.Equal(pa.Positions, pb.Positions) {
		t.Fatalf("indices first: %d indices %v, positions %v; want the 54 of the other order %v, %v", len(pb.Indices), pb.Indices, pb.Positions, pa.Indices, pa.Positions)
	}
}
