package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

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
