package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"go/parser"
	"go/token"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// assetsDir holds the committed files the viewer embeds; they must be
// exactly what the generator produces today.
const assetsDir = "../../assets"

func TestRegenerationMatchesCommittedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := run(dir, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, o := range outputs() {
		got, err := os.ReadFile(filepath.Join(dir, o.name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(assetsDir, o.name))
		if err != nil {
			t.Errorf("%s: %v; run `go generate ./assets`", o.name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("generated %s (%d bytes) differs from the committed file (%d bytes); run `go generate ./assets`",
				o.name, len(got), len(want))
		}
	}
	// Nothing stale: every file under assets/edge is generated.
	generated := map[string]bool{}
	for _, o := range outputs() {
		generated[filepath.ToSlash(o.name)] = true
	}
	entries, err := os.ReadDir(filepath.Join(assetsDir, "edge"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := "edge/" + e.Name(); !generated[name] {
			t.Errorf("assets/%s is not written by the generator", name)
		}
	}
}

func TestGenerationIsDeterministic(t *testing.T) {
	for _, o := range outputs() {
		a, err := o.generate()
		if err != nil {
			t.Fatal(err)
		}
		b, err := o.generate()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two generations differ", o.name)
		}
	}
}

// TestStandardLibraryAndMgl64Only: only the loader may import
// qmuntal/gltf; the generator writes glTF with the standard library alone
// and does its vector maths with mathgl's mgl64, as the engine does.
func TestStandardLibraryAndMgl64Only(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		ast, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") && path != "github.com/go-gl/mathgl/mgl64" {
				t.Errorf("%s imports %s; assetgen uses the standard library and mgl64 only", f, path)
			}
		}
	}
}

// The structs below decode the glTF JSON independently of the writer's
// types, so a misspelled field in the writer cannot go unnoticed.
type tNode struct {
	Name        string    `json:"name"`
	Children    []int     `json:"children"`
	Mesh        *int      `json:"mesh"`
	Skin        *int      `json:"skin"`
	Matrix      []float64 `json:"matrix"`
	Translation []float64 `json:"translation"`
	Rotation    []float64 `json:"rotation"`
	Scale       []float64 `json:"scale"`
}

type tPrimitive struct {
	Attributes map[string]int   `json:"attributes"`
	Indices    *int             `json:"indices"`
	Material   *int             `json:"material"`
	Mode       *int             `json:"mode"`
	Targets    []map[string]int `json:"targets"`
}

type tSkin struct {
	Name                string `json:"name"`
	InverseBindMatrices *int   `json:"inverseBindMatrices"`
	Skeleton            *int   `json:"skeleton"`
	Joints              []int  `json:"joints"`
}

type tSampler struct {
	Input         int    `json:"input"`
	Output        int    `json:"output"`
	Interpolation string `json:"interpolation"`
}

type tChannel struct {
	Sampler int `json:"sampler"`
	Target  struct {
		Node int    `json:"node"`
		Path string `json:"path"`
	} `json:"target"`
}

type tAnimation struct {
	Name     string     `json:"name"`
	Channels []tChannel `json:"channels"`
	Samplers []tSampler `json:"samplers"`
}

type tAccessor struct {
	BufferView    *int      `json:"bufferView"`
	ByteOffset    int       `json:"byteOffset"`
	ComponentType int       `json:"componentType"`
	Normalized    bool      `json:"normalized"`
	Count         int       `json:"count"`
	Type          string    `json:"type"`
	Min           []float64 `json:"min"`
	Max           []float64 `json:"max"`
	Sparse        *struct {
		Count   int `json:"count"`
		Indices struct {
			BufferView    int `json:"bufferView"`
			ComponentType int `json:"componentType"`
		} `json:"indices"`
		Values struct {
			BufferView int `json:"bufferView"`
		} `json:"values"`
	} `json:"sparse"`
}

type tDoc struct {
	Asset struct {
		Version   string `json:"version"`
		Generator string `json:"generator"`
	} `json:"asset"`
	Scene  *int `json:"scene"`
	Scenes []struct {
		Nodes []int `json:"nodes"`
	} `json:"scenes"`
	Nodes  []tNode `json:"nodes"`
	Meshes []struct {
		Primitives []tPrimitive `json:"primitives"`
	} `json:"meshes"`
	Skins      []tSkin      `json:"skins"`
	Animations []tAnimation `json:"animations"`
	Accessors  []tAccessor  `json:"accessors"`
	Materials  []struct {
		PBR struct {
			BaseColorTexture *struct {
				Index int `json:"index"`
			} `json:"baseColorTexture"`
		} `json:"pbrMetallicRoughness"`
	} `json:"materials"`
	BufferViews []struct {
		Buffer     int `json:"buffer"`
		ByteOffset int `json:"byteOffset"`
		ByteLength int `json:"byteLength"`
		ByteStride int `json:"byteStride"`
		Target     int `json:"target"`
	} `json:"bufferViews"`
	Buffers []struct {
		URI        string `json:"uri"`
		ByteLength int    `json:"byteLength"`
	} `json:"buffers"`
	Images []struct {
		BufferView *int   `json:"bufferView"`
		MimeType   string `json:"mimeType"`
	} `json:"images"`
}

// parsed is a decoded file: its JSON and its one buffer.
type parsed struct {
	name string
	doc  tDoc
	bin  []byte
}

// parseFile decodes a .glb or a .gltf with a data-URI buffer.
func parseFile(t *testing.T, name string, data []byte) *parsed {
	t.Helper()
	p := &parsed{name: name}
	if strings.HasSuffix(name, ".glb") {
		jsonChunk, bin := parseGLB(t, data)
		if err := json.Unmarshal(jsonChunk, &p.doc); err != nil {
			t.Fatal(err)
		}
		p.bin = bin
		if len(p.doc.Buffers) != 1 || p.doc.Buffers[0].URI != "" ||
			p.doc.Buffers[0].ByteLength > len(bin) || len(bin)-p.doc.Buffers[0].ByteLength > 3 {
			t.Fatalf("%s: buffers %+v do not match the BIN chunk (%d bytes)", name, p.doc.Buffers, len(bin))
		}
		if len(bytes.Trim(bin[p.doc.Buffers[0].ByteLength:], "\x00")) != 0 {
			t.Fatalf("%s: BIN chunk must be padded with zeros", name)
		}
		return p
	}
	if err := json.Unmarshal(data, &p.doc); err != nil {
		t.Fatal(err)
	}
	if len(p.doc.Buffers) != 1 {
		t.Fatalf("%s: %d buffers, want 1", name, len(p.doc.Buffers))
	}
	const prefix = "data:application/octet-stream;base64,"
	uri := p.doc.Buffers[0].URI
	if !strings.HasPrefix(uri, prefix) {
		t.Fatalf("%s: buffer is not an embedded data URI", name)
	}
	bin, err := base64.StdEncoding.DecodeString(uri[len(prefix):])
	if err != nil {
		t.Fatal(err)
	}
	if len(bin) != p.doc.Buffers[0].ByteLength {
		t.Fatalf("%s: buffer has %d bytes, byteLength %d", name, len(bin), p.doc.Buffers[0].ByteLength)
	}
	p.bin = bin
	return p
}

// parseGLB checks the container layout and returns its two chunks.
func parseGLB(t *testing.T, data []byte) (jsonChunk, bin []byte) {
	t.Helper()
	le := binary.LittleEndian
	if len(data) < 28 {
		t.Fatalf("GLB too short: %d bytes", len(data))
	}
	if m := le.Uint32(data[0:]); m != 0x46546C67 {
		t.Fatalf("magic = %#x", m)
	}
	if v := le.Uint32(data[4:]); v != 2 {
		t.Fatalf("version = %d", v)
	}
	if n := le.Uint32(data[8:]); int(n) != len(data) {
		t.Fatalf("header length %d, file length %d", n, len(data))
	}
	jsonLen := int(le.Uint32(data[12:]))
	if le.Uint32(data[16:]) != 0x4E4F534A {
		t.Fatal("first chunk is not JSON")
	}
	if jsonLen%4 != 0 || 20+jsonLen+8 > len(data) {
		t.Fatalf("bad JSON chunk length %d", jsonLen)
	}
	jsonChunk = data[20 : 20+jsonLen]
	binHdr := 20 + jsonLen
	binLen := int(le.Uint32(data[binHdr:]))
	if le.Uint32(data[binHdr+4:]) != 0x004E4942 {
		t.Fatal("second chunk is not BIN")
	}
	if binLen%4 != 0 || binHdr+8+binLen != len(data) {
		t.Fatalf("bad BIN chunk length %d", binLen)
	}
	if end := bytes.LastIndexByte(jsonChunk, '}'); len(bytes.Trim(jsonChunk[end+1:], " ")) != 0 {
		t.Fatal("JSON chunk must be padded with spaces")
	}
	return jsonChunk, data[binHdr+8 : binHdr+8+binLen]
}

var typeComps = map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
var compSizes = map[int]int{5121: 1, 5123: 2, 5125: 4, 5126: 4}

// values reads any accessor as float64, converting normalized integers to
// [0, 1] the way the specification defines.
func (p *parsed) values(t *testing.T, i int) []float64 {
	t.Helper()
	a := p.doc.Accessors[i]
	size := compSizes[a.ComponentType]
	if sp := a.Sparse; sp != nil && a.BufferView == nil {
		// Zeros, then the sparse values at their indices (glTF 3.6.2.3).
		out := make([]float64, a.Count*typeComps[a.Type])
		idx := p.view(t, sp.Indices.BufferView, sp.Indices.ComponentType, sp.Count)
		vals := p.view(t, sp.Values.BufferView, a.ComponentType, sp.Count*typeComps[a.Type])
		n := typeComps[a.Type]
		for k, v := range idx {
			copy(out[int(v)*n:int(v)*n+n], vals[k*n:k*n+n])
		}
		return out
	}
	if size == 0 || a.BufferView == nil {
		t.Fatalf("%s: accessor %d: component type %d / no buffer view", p.name, i, a.ComponentType)
	}
	bv := p.doc.BufferViews[*a.BufferView]
	if bv.ByteStride != 0 {
		t.Fatalf("%s: accessor %d: unexpected byteStride", p.name, i)
	}
	n := a.Count * typeComps[a.Type]
	start := bv.ByteOffset + a.ByteOffset
	if a.ByteOffset+n*size > bv.ByteLength || start+n*size > len(p.bin) {
		t.Fatalf("%s: accessor %d overruns its buffer view", p.name, i)
	}
	raw := p.bin[start : start+n*size]
	out := make([]float64, n)
	le := binary.LittleEndian
	for k := range out {
		switch a.ComponentType {
		case 5126:
			out[k] = float64(math.Float32frombits(le.Uint32(raw[4*k:])))
		case 5121:
			out[k] = float64(raw[k])
			if a.Normalized {
				out[k] /= 255
			}
		case 5123:
			out[k] = float64(le.Uint16(raw[2*k:]))
			if a.Normalized {
				out[k] /= 65535
			}
		case 5125:
			out[k] = float64(le.Uint32(raw[4*k:]))
		}
	}
	return out
}

// view reads n components of type comp from the start of a buffer view.
func (p *parsed) view(t *testing.T, v, comp, n int) []float64 {
	t.Helper()
	bv := p.doc.BufferViews[v]
	size := compSizes[comp]
	if size == 0 || n*size > bv.ByteLength || bv.ByteOffset+n*size > len(p.bin) {
		t.Fatalf("%s: bufferView %d cannot hold %d components of type %d", p.name, v, n, comp)
	}
	raw := p.bin[bv.ByteOffset:]
	out := make([]float64, n)
	for k := range out {
		switch comp {
		case 5126:
			out[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*k:])))
		case 5125:
			out[k] = float64(binary.LittleEndian.Uint32(raw[4*k:]))
		case 5123:
			out[k] = float64(binary.LittleEndian.Uint16(raw[2*k:]))
		case 5121:
			out[k] = float64(raw[k])
		}
	}
	return out
}

// generatedFiles parses every output once per test binary.
var generatedFiles = map[string]*parsed{}

func generatedFile(t *testing.T, name string) *parsed {
	t.Helper()
	if p, ok := generatedFiles[name]; ok {
		return p
	}
	for _, o := range outputs() {
		if filepath.ToSlash(o.name) == name {
			data, err := o.generate()
			if err != nil {
				t.Fatal(err)
			}
			p := parseFile(t, name, data)
			generatedFiles[name] = p
			return p
		}
	}
	t.Fatalf("no output named %s", name)
	return nil
}

// TestInvariants checks every generated file against rules of the glTF
// specification and of this project's assets.
func TestInvariants(t *testing.T) {
	for _, o := range outputs() {
		name := filepath.ToSlash(o.name)
		t.Run(name, func(t *testing.T) {
			p := generatedFile(t, name)
			checkDocument(t, p)
			checkMeshes(t, p)
			checkSkins(t, p)
			checkAnimations(t, p)
		})
	}
}

func checkDocument(t *testing.T, p *parsed) {
	d := p.doc
	if d.Asset.Version != "2.0" || d.Asset.Generator != generatorName {
		t.Errorf("asset = %+v", d.Asset)
	}
	if d.Scene == nil || *d.Scene != 0 || len(d.Scenes) != 1 {
		t.Error("want one scene, scene 0")
	}
	for i, bv := range d.BufferViews {
		if bv.ByteOffset%4 != 0 || bv.Buffer != 0 || bv.ByteOffset+bv.ByteLength > len(p.bin) {
			t.Errorf("bufferView %d: offset %d length %d", i, bv.ByteOffset, bv.ByteLength)
		}
	}
	for i, a := range d.Accessors {
		size := compSizes[a.ComponentType]
		if a.BufferView == nil && a.Sparse != nil {
			continue // its views start at multiples of 4
		}
		if size == 0 || a.BufferView == nil || (d.BufferViews[*a.BufferView].ByteOffset+a.ByteOffset)%size != 0 {
			t.Errorf("accessor %d misaligned (component type %d)", i, a.ComponentType)
		}
	}
	// Skinned mesh nodes are scene roots: parent transforms would not
	// apply to them.
	parent := parents(d.Nodes)
	for i, n := range d.Nodes {
		if n.Skin != nil {
			if _, ok := parent[i]; ok {
				t.Errorf("skinned node %s has a parent", n.Name)
			}
		}
	}
}

func parents(nodes []tNode) map[int]int {
	parent := map[int]int{}
	for i, n := range nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	return parent
}

func checkMeshes(t *testing.T, p *parsed) {
	d := p.doc
	vertexViews := map[int]bool{}
	indexViews := map[int]bool{}
	for mi, m := range d.Meshes {
		for pi, prim := range m.Primitives {
			where := "meshes[" + strconv.Itoa(mi) + "].primitives[" + strconv.Itoa(pi) + "]"
			posAcc, ok := prim.Attributes["POSITION"]
			if !ok {
				t.Fatalf("%s: no POSITION", where)
			}
			pos := p.values(t, posAcc)
			nv := len(pos) / 3
			for sem, a := range prim.Attributes {
				vertexViews[*d.Accessors[a].BufferView] = true
				if d.Accessors[a].Count != nv {
					t.Errorf("%s: %s has %d elements for %d vertices", where, sem, d.Accessors[a].Count, nv)
				}
			}
			a := d.Accessors[posAcc]
			for c := 0; c < 3; c++ {
				lo, hi := math.Inf(1), math.Inf(-1)
				for k := c; k < len(pos); k += 3 {
					lo, hi = math.Min(lo, pos[k]), math.Max(hi, pos[k])
				}
				if len(a.Min) != 3 || len(a.Max) != 3 || a.Min[c] != lo || a.Max[c] != hi {
					t.Errorf("%s: POSITION component %d: min/max %v/%v, data %v/%v", where, c, a.Min, a.Max, lo, hi)
				}
			}
			if na, ok := prim.Attributes["NORMAL"]; ok {
				nrm := p.values(t, na)
				for v := 0; v < nv; v++ {
					l := math.Sqrt(nrm[3*v]*nrm[3*v] + nrm[3*v+1]*nrm[3*v+1] + nrm[3*v+2]*nrm[3*v+2])
					if math.Abs(l-1) > 1e-5 {
						t.Fatalf("%s: normal %d has length %v", where, v, l)
					}
				}
			} else {
				t.Errorf("%s: no NORMAL", where)
			}
			if prim.Indices == nil {
				t.Fatalf("%s: not indexed", where)
			}
			indexViews[*d.Accessors[*prim.Indices].BufferView] = true
			for _, i := range p.values(t, *prim.Indices) {
				if int(i) >= nv {
					t.Fatalf("%s: index %v out of range (%d vertices)", where, i, nv)
				}
			}
			checkWeights(t, p, where, prim, nv)
			for ti, tg := range prim.Targets {
				a, ok := tg["POSITION"]
				if !ok || d.Accessors[a].Count != nv {
					t.Errorf("%s: target %d has no POSITION of %d elements", where, ti, nv)
					continue
				}
				if v := d.Accessors[a].BufferView; v != nil {
					vertexViews[*v] = true
				}
				data := p.values(t, a)
				for c := 0; c < 3; c++ {
					lo, hi := math.Inf(1), math.Inf(-1)
					for k := c; k < len(data); k += 3 {
						lo, hi = math.Min(lo, data[k]), math.Max(hi, data[k])
					}
					if acc := d.Accessors[a]; len(acc.Min) != 3 || acc.Min[c] != lo || acc.Max[c] != hi {
						t.Errorf("%s: target %d component %d: min/max %v/%v, data %v/%v", where, ti, c, acc.Min, acc.Max, lo, hi)
					}
				}
			}
		}
	}
	for i, bv := range d.BufferViews {
		want := 0
		switch {
		case vertexViews[i]:
			want = targetArrayBuffer
		case indexViews[i]:
			want = targetElementArrayBuffer
		}
		if bv.Target != want {
			t.Errorf("bufferView %d: target %d, want %d", i, bv.Target, want)
		}
	}
}

// skinOf returns the skin of the node that draws mesh mi, if any.
func (p *parsed) skinOf(mi int) *tSkin {
	for _, n := range p.doc.Nodes {
		if n.Mesh != nil && *n.Mesh == mi && n.Skin != nil {
			return &p.doc.Skins[*n.Skin]
		}
	}
	return nil
}

// influencesOf reads every JOINTS_n/WEIGHTS_n set of a primitive into
// per-vertex (joint, weight) lists, including zero-weight slots.
func (p *parsed) influencesOf(t *testing.T, prim tPrimitive, nv int) [][][2]float64 {
	out := make([][][2]float64, nv)
	for set := 0; ; set++ {
		ja, okJ := prim.Attributes["JOINTS_"+strconv.Itoa(set)]
		wa, okW := prim.Attributes["WEIGHTS_"+strconv.Itoa(set)]
		if okJ != okW {
			t.Fatalf("%s: JOINTS_%d and WEIGHTS_%d must come together", p.name, set, set)
		}
		if !okJ {
			return out
		}
		if !p.doc.Accessors[wa].Normalized && p.doc.Accessors[wa].ComponentType != compFloat {
			t.Fatalf("%s: WEIGHTS_%d is an integer type but not normalized", p.name, set)
		}
		js, ws := p.values(t, ja), p.values(t, wa)
		for v := 0; v < nv; v++ {
			for k := 4 * v; k < 4*v+4; k++ {
				out[v] = append(out[v], [2]float64{js[k], ws[k]})
			}
		}
	}
}

func checkWeights(t *testing.T, p *parsed, where string, prim tPrimitive, nv int) {
	skin := p.skinOf(0)
	if _, ok := prim.Attributes["JOINTS_0"]; !ok {
		return
	}
	for mi := range p.doc.Meshes {
		for _, pr := range p.doc.Meshes[mi].Primitives {
			if pr.Attributes["POSITION"] == prim.Attributes["POSITION"] {
				skin = p.skinOf(mi)
			}
		}
	}
	if skin == nil {
		t.Fatalf("%s: has joints but no skinned node draws it", where)
	}
	for v, in := range p.influencesOf(t, prim, nv) {
		sum := 0.0
		seen := map[float64]bool{}
		for _, jw := range in {
			j, w := jw[0], jw[1]
			sum += w
			if int(j) >= len(skin.Joints) || j < 0 {
				t.Fatalf("%s: vertex %d: joint index %v out of range (%d joints)", where, v, j, len(skin.Joints))
			}
			if w < 0 {
				t.Fatalf("%s: vertex %d: negative weight", where, v)
			}
			if w == 0 {
				if j != 0 {
					t.Fatalf("%s: vertex %d: unused slot has joint %v", where, v, j)
				}
				continue
			}
			if seen[j] {
				t.Fatalf("%s: vertex %d: joint %v used twice", where, v, j)
			}
			seen[j] = true
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Fatalf("%s: vertex %d: weights sum to %v", where, v, sum)
		}
	}
}

func checkSkins(t *testing.T, p *parsed) {
	d := p.doc
	parent := parents(d.Nodes)
	for si, skin := range d.Skins {
		order := map[int]int{}
		for k, n := range skin.Joints {
			order[n] = k
		}
		if skin.InverseBindMatrices == nil {
			continue
		}
		ibm := p.values(t, *skin.InverseBindMatrices)
		if len(ibm) != 16*len(skin.Joints) {
			t.Errorf("skin %d: %d inverse bind matrices for %d joints", si, len(ibm)/16, len(skin.Joints))
			continue
		}
		for k, n := range skin.Joints {
			m := ibm[16*k : 16*k+16]
			if m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1 {
				t.Errorf("skin %d joint %d: IBM last row %v %v %v %v", si, k, m[3], m[7], m[11], m[15])
			}
			// IBM × (joint's world rest matrix) must be the identity.
			w := worldRest(d.Nodes, parent, n)
			prod := m48(m).Mul4(w)
			id := mgl64.Ident4()
			for i := range prod {
				if math.Abs(prod[i]-id[i]) > 1e-5 {
					t.Errorf("skin %d joint %s: IBM is not the inverse of the rest transform (%v)", si, d.Nodes[n].Name, prod)
					break
				}
			}
		}
	}
}

func m48(m []float64) mgl64.Mat4 {
	var out mgl64.Mat4
	copy(out[:], m)
	return out
}

// worldRest composes node rest transforms from the root down.
func worldRest(nodes []tNode, parent map[int]int, n int) mgl64.Mat4 {
	local := func(nd tNode) mgl64.Mat4 {
		if nd.Matrix != nil {
			return m48(nd.Matrix)
		}
		tr, r, s := mgl64.Vec3{0, 0, 0}, mgl64.QuatIdent(), mgl64.Vec3{1, 1, 1}
		if nd.Translation != nil {
			tr = mgl64.Vec3{nd.Translation[0], nd.Translation[1], nd.Translation[2]}
		}
		if nd.Rotation != nil {
			r = mgl64.Vec4{nd.Rotation[0], nd.Rotation[1], nd.Rotation[2], nd.Rotation[3]}.Quat() // glTF order x, y, z, w
		}
		if nd.Scale != nil {
			s = mgl64.Vec3{nd.Scale[0], nd.Scale[1], nd.Scale[2]}
		}
		return mgl64.Translate3D(tr.Elem()).Mul4(r.Mat4()).Mul4(mgl64.Scale3D(s.Elem()))
	}
	m := local(nodes[n])
	for c, ok := parent[n]; ok; c, ok = parent[c] {
		m = local(nodes[c]).Mul4(m)
	}
	return m
}

func checkAnimations(t *testing.T, p *parsed) {
	d := p.doc
	for _, an := range d.Animations {
		targets := map[[2]any]bool{}
		for ci, ch := range an.Channels {
			key := [2]any{ch.Target.Node, ch.Target.Path}
			if targets[key] {
				t.Errorf("%s: two channels target node %d %s", an.Name, ch.Target.Node, ch.Target.Path)
			}
			targets[key] = true
			s := an.Samplers[ch.Sampler]
			in := p.values(t, s.Input)
			ia := d.Accessors[s.Input]
			if len(ia.Min) != 1 || ia.Min[0] != in[0] || ia.Max[0] != in[len(in)-1] {
				t.Errorf("%s: input min/max %v/%v", an.Name, ia.Min, ia.Max)
			}
			for k := 1; k < len(in); k++ {
				if in[k] <= in[k-1] {
					t.Fatalf("%s: key times not increasing", an.Name)
				}
			}
			out := p.values(t, s.Output)
			n := typeComps[d.Accessors[s.Output].Type]
			if ch.Target.Path == "weights" {
				// One value per morph target of the node's mesh.
				mesh := d.Meshes[*d.Nodes[ch.Target.Node].Mesh]
				n = len(mesh.Primitives[0].Targets)
			}
			perKey := 1
			if s.Interpolation == "CUBICSPLINE" {
				perKey = 3
			}
			if len(out) != n*perKey*len(in) {
				t.Fatalf("%s channel %d: %d outputs for %d keys", an.Name, ci, len(out)/n, len(in))
			}
			if ch.Target.Path == "rotation" {
				var vals []float64
				for k := 0; k < len(in); k++ {
					at := (k*perKey + perKey/2) * 4 // the value, not the tangents
					vals = append(vals, out[at:at+4]...)
				}
				checkQuats(t, an.Name, vals, s.Interpolation == "LINEAR")
			}
		}
	}
}

// checkQuats requires unit quaternions and, for LINEAR keys, consecutive
// keys in the same hemisphere so interpolation takes the short way.
func checkQuats(t *testing.T, clip string, q []float64, hemisphere bool) {
	t.Helper()
	for k := 0; k < len(q); k += 4 {
		l := math.Sqrt(q[k]*q[k] + q[k+1]*q[k+1] + q[k+2]*q[k+2] + q[k+3]*q[k+3])
		if math.Abs(l-1) > 1e-6 {
			t.Fatalf("%s: quaternion %d has length %v", clip, k/4, l)
		}
		if hemisphere && k > 0 {
			dot := q[k]*q[k-4] + q[k+1]*q[k-3] + q[k+2]*q[k-2] + q[k+3]*q[k-1]
			if dot <= 0 {
				t.Fatalf("%s: keys %d and %d are in opposite hemispheres", clip, k/4-1, k/4)
			}
		}
	}
}

// clipInfo summarizes one animation of a generated asset.
type clipInfo struct {
	keys     int
	duration float64
	channels int
}

func clipsOf(t *testing.T, p *parsed) map[string]clipInfo {
	out := map[string]clipInfo{}
	for _, an := range p.doc.Animations {
		ci := clipInfo{channels: len(an.Channels)}
		for _, s := range an.Samplers {
			in := p.values(t, s.Input)
			if ci.keys != 0 && ci.keys != len(in) {
				t.Errorf("%s: channels keyed differently", an.Name)
			}
			ci.keys = len(in)
			ci.duration = in[len(in)-1]
		}
		out[an.Name] = ci
	}
	return out
}

func nodeIndex(t *testing.T, p *parsed, name string) int {
	t.Helper()
	for i, n := range p.doc.Nodes {
		if n.Name == name {
			return i
		}
	}
	t.Fatalf("%s: no node %q", p.name, name)
	return -1
}

// channelKeys returns the output values of an animation's channel.
func channelKeys(t *testing.T, p *parsed, clip string, node int, path string) []float64 {
	t.Helper()
	for _, an := range p.doc.Animations {
		if an.Name != clip {
			continue
		}
		for _, ch := range an.Channels {
			if ch.Target.Node == node && ch.Target.Path == path {
				return p.values(t, an.Samplers[ch.Sampler].Output)
			}
		}
	}
	return nil
}

// checkLoopsClose requires the last key of every channel of each looping
// clip to repeat its first.
func checkLoopsClose(t *testing.T, p *parsed, loops ...string) {
	for _, name := range loops {
		for _, an := range p.doc.Animations {
			if an.Name != name {
				continue
			}
			for ci, ch := range an.Channels {
				out := p.values(t, an.Samplers[ch.Sampler].Output)
				// Values per key: a weights channel has one per morph target.
				n := len(out) / p.doc.Accessors[an.Samplers[ch.Sampler].Input].Count
				for c := 0; c < n; c++ {
					if out[c] != out[len(out)-n+c] {
						t.Errorf("%s channel %d: loop does not close", name, ci)
						break
					}
				}
			}
		}
	}
}

func TestCharacter(t *testing.T) {
	p := generatedFile(t, "character.glb")
	d := p.doc
	if len(d.Skins) != 1 || len(d.Meshes) != 1 || len(d.Meshes[0].Primitives) != 1 {
		t.Fatalf("want one skin and one primitive")
	}
	skin := d.Skins[0]
	if len(skin.Joints) < 40 {
		t.Errorf("%d joints, want at least 40", len(skin.Joints))
	}
	// The original 19 joints keep their names and order; other code and
	// specs refer to them.
	names := []string{"hips", "spine", "chest", "neck", "head",
		"shoulder.L", "upper_arm.L", "forearm.L", "hand.L",
		"shoulder.R", "upper_arm.R", "forearm.R", "hand.R",
		"thigh.L", "shin.L", "foot.L", "thigh.R", "shin.R", "foot.R"}
	for i, want := range names {
		if got := d.Nodes[skin.Joints[i]].Name; got != want {
			t.Errorf("joint %d is %q, want %q", i, got, want)
		}
	}
	seen := map[string]bool{}
	fingers := 0
	for _, n := range skin.Joints {
		name := d.Nodes[n].Name
		if seen[name] {
			t.Errorf("joint name %q used twice", name)
		}
		seen[name] = true
		for _, f := range []string{"thumb_", "index_", "middle_", "ring_", "pinky_"} {
			if strings.HasPrefix(name, f) {
				fingers++
			}
		}
	}
	if fingers != 30 || !seen["index_1.L"] || !seen["pinky_3.R"] || !seen["toe.L"] {
		t.Errorf("%d finger joints, want 3 per finger on both hands, and toes", fingers)
	}
	if skin.Skeleton == nil || d.Nodes[*skin.Skeleton].Name != "hips" {
		t.Error("skin.skeleton must be the hips node")
	}
	parent := parents(d.Nodes)
	order := map[int]int{}
	for k, n := range skin.Joints {
		order[n] = k
		if pk, ok := order[parent[n]]; k > 0 && (!ok || pk >= k) {
			t.Errorf("joint %s listed before its parent", d.Nodes[n].Name)
		}
	}

	prim := d.Meshes[0].Primitives[0]
	pos := d.Accessors[prim.Attributes["POSITION"]]
	if h := pos.Max[1]; h < 1.75 || h > 1.85 {
		t.Errorf("height %.3f m, want about 1.8", h)
	}
	if math.Abs(pos.Min[1]) > 1e-4 {
		t.Errorf("lowest point at y=%v, want the soles on y=0", pos.Min[1])
	}
	if len(d.Materials) != 1 || d.Materials[0].PBR.BaseColorTexture == nil || len(d.Images) != 1 ||
		d.Images[0].MimeType != "image/png" {
		t.Error("want one material with a PNG base-colour texture")
	}
	if _, ok := prim.Attributes["TEXCOORD_0"]; !ok {
		t.Error("no TEXCOORD_0")
	}

	want := map[string]float64{
		"Idle": 3, "Walk": 1, "Run": 0.7, "StrafeLeft": 1, "StrafeRight": 1, "Jump": 1.2, "Wave": 2,
		"AimCenter": 0, "AimLeft": 0, "AimRight": 0, "AimUp": 0, "AimDown": 0, "Lean": 0,
	}
	clips := clipsOf(t, p)
	for name, dur := range want {
		c, ok := clips[name]
		if !ok {
			t.Errorf("missing clip %s", name)
			continue
		}
		if math.Abs(c.duration-dur) > 1e-6 || c.keys != int(math.Round(dur*30))+1 {
			t.Errorf("%s: %d keys over %v s, want %v s at 30 keys per second", name, c.keys, c.duration, dur)
		}
	}
	if len(clips) != len(want) {
		t.Errorf("%d clips, want %d", len(clips), len(want))
	}
	checkLoopsClose(t, p, "Idle", "Walk", "Run", "StrafeLeft", "StrafeRight")
	for _, an := range d.Animations {
		for _, s := range an.Samplers {
			if s.Interpolation != "LINEAR" {
				t.Errorf("%s: interpolation %s", an.Name, s.Interpolation)
			}
		}
	}

	// In-place motion: the hips move vertically only.
	hips := skin.Joints[0]
	rest := d.Nodes[hips].Translation
	for name := range want {
		out := channelKeys(t, p, name, hips, "translation")
		for k := 0; k < len(out); k += 3 {
			if out[k] != float64(float32(rest[0])) || out[k+2] != float64(float32(rest[2])) {
				t.Fatalf("%s: hips leave their rest x/z", name)
			}
		}
	}
}

// TestCharacterStartsAndEndsStanding: Jump and Wave start and end in Idle's
// first pose, and Lean is that pose plus the slump, so all three blend with
// Idle without a pop.
func TestCharacterStartsAndEndsStanding(t *testing.T) {
	p := generatedFile(t, "character.glb")
	skin := p.doc.Skins[0]
	for _, clip := range []string{"Jump", "Wave"} {
		for _, n := range skin.Joints {
			for _, path := range []string{"rotation", "translation"} {
				idle := keysOrRest(t, p, "Idle", n, path)
				got := keysOrRest(t, p, clip, n, path)
				c := 3
				if path == "rotation" {
					c = 4
				}
				for k := 0; k < c; k++ {
					first, last := got[k], got[len(got)-c+k]
					if math.Abs(first-idle[k]) > 1e-6 || math.Abs(last-idle[k]) > 1e-6 {
						t.Errorf("%s: %s %s starts at %v and ends at %v, Idle starts at %v",
							clip, p.doc.Nodes[n].Name, path, got[:c], got[len(got)-c:], idle[:c])
						break
					}
				}
			}
		}
	}
}

// keysOrRest returns a channel's keys, or the node's rest value when the
// clip does not animate it.
func keysOrRest(t *testing.T, p *parsed, clip string, node int, path string) []float64 {
	if k := channelKeys(t, p, clip, node, path); k != nil {
		return k
	}
	nd := p.doc.Nodes[node]
	switch {
	case path == "rotation" && nd.Rotation != nil:
		return nd.Rotation
	case path == "rotation":
		return []float64{0, 0, 0, 1}
	case nd.Translation != nil:
		return nd.Translation
	}
	return []float64{0, 0, 0}
}

// TestFootContactPhase computes the left sole's lowest point from the keys
// in the file (forward kinematics over the written node transforms) and
// finds where the foot comes down on the floor (y = 0): all the locomotion
// loops must agree, at normalized time 0, so phase-synchronized blends keep
// the feet in step.
func TestFootContactPhase(t *testing.T) {
	p := generatedFile(t, "character.glb")
	// The heel and the ball of the foot, relative to the ankle (the
	// character's proportions, not the generator's constants).
	sole := []mgl64.Vec3{{0, -0.08, -0.075}, {0, -0.08, 0.118}}
	for _, clip := range []string{"Walk", "Run", "StrafeLeft", "StrafeRight"} {
		mats := jointMatrices(t, p, clip, "foot.L")
		n := len(mats) - 1 // the last key repeats the first
		heights := make([]float64, n)
		for k := range heights {
			heights[k] = math.Inf(1)
			for _, s := range sole {
				heights[k] = math.Min(heights[k], mgl64.TransformCoordinate(s, mats[k]).Y())
			}
		}
		const touching = 0.004
		contact := -1
		for k := 0; k < n; k++ {
			if heights[k] < touching && heights[(k-1+n)%n] >= touching {
				contact = k
				break
			}
		}
		if contact < 0 {
			t.Errorf("%s: no contact found in %v", clip, heights)
			continue
		}
		phase := float64(contact) / float64(n)
		if math.Min(phase, 1-phase) > 1.01/float64(n) {
			t.Errorf("%s: left foot lands at normalized time %.3f, want 0", clip, phase)
		}
		if air := heights[n-n/6]; air < 0.02 {
			t.Errorf("%s: left foot not in the air before contact (%.3f m above the floor)", clip, air)
		}
	}
}

// jointMatrices returns a joint's model matrix at every key of a clip.
func jointMatrices(t *testing.T, p *parsed, clip, joint string) []mgl64.Mat4 {
	d := p.doc
	target := nodeIndex(t, p, joint)
	parent := parents(d.Nodes)
	keys := clipsOf(t, p)[clip].keys
	out := make([]mgl64.Mat4, keys)
	for k := 0; k < keys; k++ {
		m := mgl64.Ident4()
		for c, ok := target, true; ok; c, ok = parent[c] {
			tr := keysOrRest(t, p, clip, c, "translation")
			r := keysOrRest(t, p, clip, c, "rotation")
			if len(tr) > 3 {
				tr = tr[3*k:]
			}
			if len(r) > 4 {
				r = r[4*k:]
			}
			m = mgl64.Translate3D(tr[0], tr[1], tr[2]).Mul4(mgl64.Vec4{r[0], r[1], r[2], r[3]}.Quat().Mat4()).Mul4(m)
		}
		out[k] = m
	}
	return out
}

// TestLegsReachTheirTargets: every foot placement the clips ask for is
// within the legs' reach, so planted feet really stay on their marks.
func TestLegsReachTheirTargets(t *testing.T) {
	js := skeleton()
	for _, c := range humanClips(js) {
		n := int(math.Round(c.duration*keyRate)) + 1
		for i := 0; i < n; i++ {
			p := restPose(js)
			c.sample(&p, float64(i)/keyRate)
			if p.missed != 0 {
				t.Errorf("%s at %.3f s: %d leg targets out of reach", c.name, float64(i)/keyRate, p.missed)
			}
		}
	}
}

func TestSingleFrameClips(t *testing.T) {
	p := generatedFile(t, "character.glb")
	clips := clipsOf(t, p)
	for _, name := range []string{"AimCenter", "AimLeft", "AimRight", "AimUp", "AimDown", "Lean"} {
		if c := clips[name]; c.keys != 1 || c.channels < 10 {
			t.Errorf("%s: %d keys, %d channels; want one key posing the body", name, c.keys, c.channels)
		}
	}
	// The aims differ where they should: the chest turns left for AimLeft
	// (positive yaw) and pitches back for AimUp.
	chest := nodeIndex(t, p, "chest")
	yaw := func(clip string) float64 {
		q := channelKeys(t, p, clip, chest, "rotation")
		return 2 * math.Atan2(q[1], q[3])
	}
	if yaw("AimLeft") <= 0.1 || yaw("AimRight") >= -0.1 {
		t.Errorf("chest yaw left %.3f right %.3f rad, want clearly positive and negative", yaw("AimLeft"), yaw("AimRight"))
	}
	up := channelKeys(t, p, "AimUp", chest, "rotation")
	down := channelKeys(t, p, "AimDown", chest, "rotation")
	if up[0] >= 0 || down[0] <= 0 {
		t.Errorf("chest pitch up %v down %v: want back (negative x) for AimUp", up, down)
	}
}

func TestStress(t *testing.T) {
	p := generatedFile(t, "stress.glb")
	d := p.doc
	skin := d.Skins[0]
	if len(skin.Joints) <= 300 {
		t.Errorf("%d joints, want more than 300", len(skin.Joints))
	}
	prim := d.Meshes[0].Primitives[0]
	nv := d.Accessors[prim.Attributes["POSITION"]].Count
	if nv >= 40000 {
		t.Errorf("%d vertices, want fewer than 40000", nv)
	}
	clips := clipsOf(t, p)
	if c, ok := clips["Crawl"]; !ok || c.duration != 2 || c.channels < len(skin.Joints) {
		t.Errorf("Crawl: %+v; want a 2 s loop with a channel per joint", c)
	}
	checkLoopsClose(t, p, "Crawl")
	animated := map[int]bool{}
	for _, an := range d.Animations {
		for _, ch := range an.Channels {
			if ch.Target.Path == "rotation" {
				animated[ch.Target.Node] = true
			}
		}
	}
	for _, n := range skin.Joints {
		if !animated[n] {
			t.Errorf("joint %s is not animated", d.Nodes[n].Name)
		}
	}
	// Few joints per triangle, so bone partitions stay small.
	infl := p.influencesOf(t, prim, nv)
	idx := p.values(t, *prim.Indices)
	worst := 0
	for k := 0; k+2 < len(idx); k += 3 {
		js := map[float64]bool{}
		for _, v := range idx[k : k+3] {
			for _, jw := range infl[int(v)] {
				if jw[1] > 0 {
					js[jw[0]] = true
				}
			}
		}
		worst = max(worst, len(js))
	}
	if worst > 4 {
		t.Errorf("a triangle references %d joints, want at most 4", worst)
	}
}

func TestTwist(t *testing.T) {
	p := generatedFile(t, "twist.glb")
	d := p.doc
	skin := d.Skins[0]
	var names []string
	for _, n := range skin.Joints {
		names = append(names, d.Nodes[n].Name)
	}
	if strings.Join(names, " ") != "upper forearm wrist" {
		t.Fatalf("joints %v, want upper forearm wrist", names)
	}
	clips := clipsOf(t, p)
	if c := clips["Twist"]; c.duration != 2 || c.keys != 61 {
		t.Errorf("Twist: %+v, want a 2 s loop", c)
	}
	checkLoopsClose(t, p, "Twist")
	if c := clips["Twist180"]; c.keys != 1 {
		t.Errorf("Twist180: %+v, want one key", c)
	}
	wrist := skin.Joints[2]
	q := channelKeys(t, p, "Twist180", wrist, "rotation")
	if math.Abs(math.Abs(q[0])-1) > 1e-6 {
		t.Errorf("Twist180 wrist rotation %v, want 180 degrees about +X", q)
	}
	mid := channelKeys(t, p, "Twist", wrist, "rotation")[4*30:]
	if math.Abs(math.Abs(mid[0])-1) > 1e-6 {
		t.Errorf("Twist at 1 s: wrist rotation %v, want the full 180 degrees", mid[:4])
	}

	// Linear blend skinning at 180 degrees: a vertex split evenly between
	// forearm and wrist lands on the axis (rotating (0, y, z) by 180
	// degrees about X gives (0, -y, -z), and the average is 0). Find such
	// vertices and check the limb really has them.
	prim := d.Meshes[0].Primitives[0]
	pos := p.values(t, prim.Attributes["POSITION"])
	nv := len(pos) / 3
	collapsed := 0
	for v, in := range p.influencesOf(t, prim, nv) {
		var wWrist, wFore float64
		for _, jw := range in {
			switch int(jw[0]) {
			case 1:
				wFore += jw[1]
			case 2:
				wWrist += jw[1]
			}
		}
		r := math.Hypot(pos[3*v+1], pos[3*v+2])
		if r > 0.04 && wFore+wWrist > 0.999 && math.Abs(wWrist-wFore)*r < 0.005 {
			collapsed++
		}
	}
	if collapsed < 24 {
		t.Errorf("%d vertices collapse to within 5 mm of the axis under LBS at 180 degrees, want a full ring", collapsed)
	}
}

func TestEdgeFiles(t *testing.T) {
	t.Run("two_skins", func(t *testing.T) {
		p := generatedFile(t, "edge/two_skins.gltf")
		if len(p.doc.Skins) != 2 {
			t.Fatalf("%d skins", len(p.doc.Skins))
		}
		a, b := p.doc.Skins[0].Joints, p.doc.Skins[1].Joints
		shared, reordered := 0, false
		for i, n := range a {
			for k, m := range b {
				if n == m {
					shared++
					reordered = reordered || i != k
				}
			}
		}
		if shared < 2 || !reordered {
			t.Errorf("skins share %d joints (reordered %v), want at least 2 at different indices", shared, reordered)
		}
		skinned := 0
		for _, n := range p.doc.Nodes {
			if n.Skin != nil {
				skinned++
			}
		}
		if skinned != 2 {
			t.Errorf("%d skinned nodes, want 2", skinned)
		}
	})
	t.Run("joints_outside", func(t *testing.T) {
		p := generatedFile(t, "edge/joints_outside.gltf")
		parent := parents(p.doc.Nodes)
		skin := p.doc.Skins[0]
		root := skin.Joints[0]
		for c, ok := parent[root]; ok; c, ok = parent[c] {
			root = c
		}
		isJoint := map[int]bool{}
		for _, j := range skin.Joints {
			isJoint[j] = true
		}
		rn := p.doc.Nodes[root]
		if isJoint[root] || rn.Translation == nil || rn.Rotation == nil {
			t.Errorf("the joints' root %q should be a transformed non-joint node", rn.Name)
		}
		for i, n := range p.doc.Nodes {
			if n.Skin != nil && (root == i || n.Translation != nil || n.Rotation != nil) {
				t.Errorf("the skinned node must be a separate, untransformed root")
			}
		}
	})
	t.Run("no_ibm", func(t *testing.T) {
		p := generatedFile(t, "edge/no_ibm.gltf")
		if p.doc.Skins[0].InverseBindMatrices != nil {
			t.Error("the skin has inverseBindMatrices")
		}
	})
	t.Run("eight_influences", func(t *testing.T) {
		p := generatedFile(t, "edge/eight_influences.gltf")
		prim := p.doc.Meshes[0].Primitives[0]
		if _, ok := prim.Attributes["WEIGHTS_1"]; !ok {
			t.Fatal("no WEIGHTS_1")
		}
		nv := p.doc.Accessors[prim.Attributes["POSITION"]].Count
		most := 0
		for _, in := range p.influencesOf(t, prim, nv) {
			n := 0
			for _, jw := range in {
				if jw[1] > 0 {
					n++
				}
			}
			most = max(most, n)
		}
		if most < 5 {
			t.Errorf("at most %d influences per vertex, want some with 5 or more", most)
		}
	})
	t.Run("normalized_weights", func(t *testing.T) {
		p := generatedFile(t, "edge/normalized_weights.gltf")
		var types []int
		for _, prim := range p.doc.Meshes[0].Primitives {
			a := p.doc.Accessors[prim.Attributes["WEIGHTS_0"]]
			if !a.Normalized {
				t.Error("WEIGHTS_0 not normalized")
			}
			types = append(types, a.ComponentType)
		}
		sort.Ints(types)
		if len(types) != 2 || types[0] != compUnsignedByte || types[1] != compUnsignedShort {
			t.Errorf("weight component types %v, want UNSIGNED_BYTE and UNSIGNED_SHORT", types)
		}
	})
	t.Run("cubic_step", func(t *testing.T) {
		p := generatedFile(t, "edge/cubic_step.gltf")
		found := map[string]bool{}
		for _, an := range p.doc.Animations {
			for _, ch := range an.Channels {
				s := an.Samplers[ch.Sampler]
				found[s.Interpolation+" "+ch.Target.Path] = true
				if s.Interpolation == "CUBICSPLINE" {
					out := p.values(t, s.Output)
					n := typeComps[p.doc.Accessors[s.Output].Type]
					nonzero := false
					for k := 0; k < len(out); k += 3 * n {
						for c := 0; c < n; c++ {
							nonzero = nonzero || out[k+c] != 0 || out[k+2*n+c] != 0
						}
					}
					if !nonzero {
						t.Errorf("%s %s: all tangents are zero", an.Name, ch.Target.Path)
					}
				}
			}
		}
		for _, interp := range []string{"CUBICSPLINE", "STEP"} {
			for _, path := range []string{"translation", "rotation", "scale"} {
				if !found[interp+" "+path] {
					t.Errorf("no %s channel on %s", interp, path)
				}
			}
		}
	})
}
