package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// committedGLB is the file the viewer embeds; it must be exactly what the
// generator produces today.
const committedGLB = "../../assets/character.glb"

func TestRegenerationMatchesCommittedFile(t *testing.T) {
	dir := t.TempDir()
	if err := run(dir, io.Discard); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, outputName))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(committedGLB)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("generated %d bytes differ from %s (%d bytes); run `go generate ./assets`",
			len(got), committedGLB, len(want))
	}
}

// The structs below decode the glTF JSON independently of the writer's
// types, so a misspelled field in the writer cannot go unnoticed.
type tDoc struct {
	Asset struct {
		Version   string `json:"version"`
		Generator string `json:"generator"`
	} `json:"asset"`
	Scene  *int `json:"scene"`
	Scenes []struct {
		Nodes []int `json:"nodes"`
	} `json:"scenes"`
	Nodes []struct {
		Name        string    `json:"name"`
		Children    []int     `json:"children"`
		Mesh        *int      `json:"mesh"`
		Skin        *int      `json:"skin"`
		Translation []float64 `json:"translation"`
		Rotation    []float64 `json:"rotation"`
	} `json:"nodes"`
	Meshes []struct {
		Primitives []struct {
			Attributes map[string]int `json:"attributes"`
			Indices    *int           `json:"indices"`
			Material   *int           `json:"material"`
		} `json:"primitives"`
	} `json:"meshes"`
	Skins []struct {
		InverseBindMatrices int   `json:"inverseBindMatrices"`
		Skeleton            *int  `json:"skeleton"`
		Joints              []int `json:"joints"`
	} `json:"skins"`
	Animations []struct {
		Name     string `json:"name"`
		Channels []struct {
			Sampler int `json:"sampler"`
			Target  struct {
				Node int    `json:"node"`
				Path string `json:"path"`
			} `json:"target"`
		} `json:"channels"`
		Samplers []struct {
			Input         int    `json:"input"`
			Output        int    `json:"output"`
			Interpolation string `json:"interpolation"`
		} `json:"samplers"`
	} `json:"animations"`
	Accessors []struct {
		BufferView    int       `json:"bufferView"`
		ByteOffset    int       `json:"byteOffset"`
		ComponentType int       `json:"componentType"`
		Count         int       `json:"count"`
		Type          string    `json:"type"`
		Min           []float64 `json:"min"`
		Max           []float64 `json:"max"`
	} `json:"accessors"`
	BufferViews []struct {
		ByteOffset int `json:"byteOffset"`
		ByteLength int `json:"byteLength"`
		ByteStride int `json:"byteStride"`
		Target     int `json:"target"`
	} `json:"bufferViews"`
	Buffers []struct {
		ByteLength int `json:"byteLength"`
	} `json:"buffers"`
	Images []struct {
		BufferView *int   `json:"bufferView"`
		MimeType   string `json:"mimeType"`
	} `json:"images"`
}

type parsedGLB struct {
	doc tDoc
	bin []byte
}

// parseGLB checks the container layout and returns its two chunks.
func parseGLB(t *testing.T, data []byte) parsedGLB {
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
	jsonChunk := data[20 : 20+jsonLen]
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
	var p parsedGLB
	if err := json.Unmarshal(jsonChunk, &p.doc); err != nil {
		t.Fatal(err)
	}
	p.bin = data[binHdr+8 : binHdr+8+binLen]
	if len(p.doc.Buffers) != 1 || p.doc.Buffers[0].ByteLength > binLen || binLen-p.doc.Buffers[0].ByteLength > 3 {
		t.Fatalf("buffer byteLength %v does not match BIN chunk %d", p.doc.Buffers, binLen)
	}
	if len(bytes.Trim(p.bin[p.doc.Buffers[0].ByteLength:], "\x00")) != 0 {
		t.Fatal("BIN chunk must be padded with zeros")
	}
	return p
}

var typeComps = map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}

// floats reads a FLOAT accessor.
func (p parsedGLB) floats(t *testing.T, i int) []float32 {
	t.Helper()
	a := p.doc.Accessors[i]
	if a.ComponentType != 5126 {
		t.Fatalf("accessor %d: component type %d, want FLOAT", i, a.ComponentType)
	}
	raw := p.raw(t, i, 4)
	out := make([]float32, len(raw)/4)
	for k := range out {
		out[k] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*k:]))
	}
	return out
}

// uint16s reads an UNSIGNED_SHORT accessor.
func (p parsedGLB) uint16s(t *testing.T, i int) []uint16 {
	t.Helper()
	if ct := p.doc.Accessors[i].ComponentType; ct != 5123 {
		t.Fatalf("accessor %d: component type %d, want UNSIGNED_SHORT", i, ct)
	}
	raw := p.raw(t, i, 2)
	out := make([]uint16, len(raw)/2)
	for k := range out {
		out[k] = binary.LittleEndian.Uint16(raw[2*k:])
	}
	return out
}

func (p parsedGLB) raw(t *testing.T, i, compSize int) []byte {
	t.Helper()
	a := p.doc.Accessors[i]
	bv := p.doc.BufferViews[a.BufferView]
	if bv.ByteStride != 0 {
		t.Fatalf("accessor %d: unexpected byteStride", i)
	}
	n := a.Count * typeComps[a.Type] * compSize
	start := bv.ByteOffset + a.ByteOffset
	if a.ByteOffset+n > bv.ByteLength || start+n > len(p.bin) {
		t.Fatalf("accessor %d overruns its buffer view", i)
	}
	return p.bin[start : start+n]
}

func generated(t *testing.T) parsedGLB {
	t.Helper()
	data, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	return parseGLB(t, data)
}

func TestGLBInvariants(t *testing.T) {
	p := generated(t)
	d := p.doc
	if d.Asset.Version != "2.0" || d.Asset.Generator != "skinview assetgen" {
		t.Errorf("asset = %+v", d.Asset)
	}
	if d.Scene == nil || *d.Scene != 0 {
		t.Error("scene must be 0")
	}

	t.Run("alignment", func(t *testing.T) {
		for i, bv := range d.BufferViews {
			if bv.ByteOffset%4 != 0 {
				t.Errorf("bufferView %d offset %d not 4-aligned", i, bv.ByteOffset)
			}
		}
		for i, a := range d.Accessors {
			size := map[int]int{5126: 4, 5123: 2}[a.ComponentType]
			if size == 0 || (d.BufferViews[a.BufferView].ByteOffset+a.ByteOffset)%size != 0 {
				t.Errorf("accessor %d misaligned (component type %d)", i, a.ComponentType)
			}
		}
	})

	prim := d.Meshes[0].Primitives[0]
	skin := d.Skins[0]
	posAcc := prim.Attributes["POSITION"]
	pos := p.floats(t, posAcc)

	t.Run("buffer view targets", func(t *testing.T) {
		want := make([]int, len(d.BufferViews)) // 0: no target
		for _, a := range prim.Attributes {
			want[d.Accessors[a].BufferView] = 34962
		}
		want[d.Accessors[*prim.Indices].BufferView] = 34963
		for i, bv := range d.BufferViews {
			if bv.Target != want[i] {
				t.Errorf("bufferView %d: target %d, want %d", i, bv.Target, want[i])
			}
		}
	})

	t.Run("position bounds", func(t *testing.T) {
		a := d.Accessors[posAcc]
		for c := 0; c < 3; c++ {
			lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
			for k := c; k < len(pos); k += 3 {
				lo = min(lo, pos[k])
				hi = max(hi, pos[k])
			}
			if len(a.Min) != 3 || len(a.Max) != 3 || a.Min[c] != float64(lo) || a.Max[c] != float64(hi) {
				t.Errorf("component %d: min/max %v/%v, data %v/%v", c, a.Min, a.Max, lo, hi)
			}
		}
		if h := a.Max[1]; h < 1.75 || h > 1.85 {
			t.Errorf("height %.3f m, want about 1.8", h)
		}
		if math.Abs(a.Min[1]) > 1e-4 {
			t.Errorf("lowest point at y=%v, want the soles on y=0", a.Min[1])
		}
	})

	t.Run("weights", func(t *testing.T) {
		joints := p.uint16s(t, prim.Attributes["JOINTS_0"])
		weights := p.floats(t, prim.Attributes["WEIGHTS_0"])
		if len(joints) != len(weights) || len(weights) != len(pos)/3*4 {
			t.Fatalf("JOINTS_0/WEIGHTS_0 sizes %d/%d for %d vertices", len(joints), len(weights), len(pos)/3)
		}
		for v := 0; v < len(weights)/4; v++ {
			sum := 0.0
			seen := map[uint16]bool{}
			for k := 4 * v; k < 4*v+4; k++ {
				w, j := weights[k], joints[k]
				sum += float64(w)
				if int(j) >= len(skin.Joints) {
					t.Fatalf("vertex %d: joint index %d out of range", v, j)
				}
				if w < 0 {
					t.Fatalf("vertex %d: negative weight", v)
				}
				if w == 0 {
					if j != 0 {
						t.Fatalf("vertex %d: unused slot has joint %d", v, j)
					}
					continue
				}
				if seen[j] {
					t.Fatalf("vertex %d: joint %d used twice", v, j)
				}
				seen[j] = true
			}
			if math.Abs(sum-1) > 1e-6 {
				t.Fatalf("vertex %d: weights sum to %v", v, sum)
			}
		}
	})

	t.Run("normals and winding", func(t *testing.T) {
		nrm := p.floats(t, prim.Attributes["NORMAL"])
		for v := 0; v < len(nrm)/3; v++ {
			n := v3(float64(nrm[3*v]), float64(nrm[3*v+1]), float64(nrm[3*v+2]))
			if math.Abs(n.length()-1) > 1e-5 {
				t.Fatalf("normal %d has length %v", v, n.length())
			}
		}
		idx := p.uint16s(t, *prim.Indices)
		at := func(a []float32, i uint16) vec3 {
			return v3(float64(a[3*int(i)]), float64(a[3*int(i)+1]), float64(a[3*int(i)+2]))
		}
		for k := 0; k+2 < len(idx); k += 3 {
			a, b, c := at(pos, idx[k]), at(pos, idx[k+1]), at(pos, idx[k+2])
			face := b.sub(a).cross(c.sub(a))
			vn := at(nrm, idx[k]).add(at(nrm, idx[k+1])).add(at(nrm, idx[k+2]))
			if face.dot(vn) <= 0 {
				t.Fatalf("triangle %d is wound clockwise seen from outside", k/3)
			}
		}
	})

	t.Run("skin", func(t *testing.T) {
		if skin.Skeleton == nil || d.Nodes[*skin.Skeleton].Name != "hips" {
			t.Error("skin.skeleton must be the hips node")
		}
		parent := map[int]int{}
		for i, n := range d.Nodes {
			for _, c := range n.Children {
				parent[c] = i
			}
		}
		order := map[int]int{}
		for k, n := range skin.Joints {
			order[n] = k
			if pk, ok := order[parent[n]]; k > 0 && (!ok || pk >= k) {
				t.Errorf("joint %s listed before its parent", d.Nodes[n].Name)
			}
		}
		ibm := p.floats(t, skin.InverseBindMatrices)
		for k, n := range skin.Joints {
			m := ibm[16*k : 16*k+16]
			if m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1 {
				t.Errorf("joint %d: IBM last row %v %v %v %v", k, m[3], m[7], m[11], m[15])
			}
			// Rest rotations are identity, so the IBM translation must undo
			// the sum of the node translations up to the root.
			var g vec3
			for c, ok := n, true; ok; c, ok = parent[c] {
				if tr := d.Nodes[c].Translation; tr != nil {
					g = g.add(v3(tr[0], tr[1], tr[2]))
				}
			}
			got := v3(float64(m[12]), float64(m[13]), float64(m[14]))
			if got.add(g).length() > 1e-6 {
				t.Errorf("joint %s: IBM translation %v, rest position %v", d.Nodes[n].Name, got, g)
			}
		}
	})

	t.Run("animations", func(t *testing.T) {
		want := map[string]float64{"Walk": 1, "Wave": 2, "Idle": 3}
		for _, an := range d.Animations {
			dur, ok := want[an.Name]
			if !ok {
				t.Errorf("unexpected animation %q", an.Name)
				continue
			}
			delete(want, an.Name)
			for ci, ch := range an.Channels {
				s := an.Samplers[ch.Sampler]
				if s.Interpolation != "LINEAR" {
					t.Errorf("%s: interpolation %s", an.Name, s.Interpolation)
				}
				in := p.floats(t, s.Input)
				ia := d.Accessors[s.Input]
				if len(ia.Min) != 1 || ia.Min[0] != float64(in[0]) || ia.Max[0] != float64(in[len(in)-1]) {
					t.Errorf("%s: input min/max %v/%v", an.Name, ia.Min, ia.Max)
				}
				if in[0] != 0 || float64(in[len(in)-1]) != dur || len(in) != int(dur*30)+1 {
					t.Errorf("%s: %d keys from %v to %v", an.Name, len(in), in[0], in[len(in)-1])
				}
				out := p.floats(t, s.Output)
				n := typeComps[d.Accessors[s.Output].Type]
				if len(out) != n*len(in) {
					t.Fatalf("%s channel %d: %d outputs for %d keys", an.Name, ci, len(out)/n, len(in))
				}
				if an.Name != "Wave" && !equalKeys(out[:n], out[len(out)-n:]) {
					t.Errorf("%s channel %d: loop does not close", an.Name, ci)
				}
				if ch.Target.Path == "rotation" {
					checkQuats(t, an.Name, out)
				}
				if ch.Target.Path == "translation" && d.Nodes[ch.Target.Node].Name == "hips" {
					rest := d.Nodes[ch.Target.Node].Translation
					for k := 0; k < len(out); k += 3 {
						if float64(out[k]) != float64(float32(rest[0])) || float64(out[k+2]) != float64(float32(rest[2])) {
							t.Fatalf("%s: hips leave their rest x/z", an.Name)
						}
					}
				}
			}
		}
		if len(want) != 0 {
			t.Errorf("missing animations %v", want)
		}
	})
}

func equalKeys(a, b []float32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func checkQuats(t *testing.T, clip string, q []float32) {
	t.Helper()
	for k := 0; k < len(q); k += 4 {
		l := 0.0
		for c := 0; c < 4; c++ {
			l += float64(q[k+c]) * float64(q[k+c])
		}
		if math.Abs(math.Sqrt(l)-1) > 1e-6 {
			t.Fatalf("%s: quaternion %d has length %v", clip, k/4, math.Sqrt(l))
		}
		if k > 0 {
			dot := 0.0
			for c := 0; c < 4; c++ {
				dot += float64(q[k+c]) * float64(q[k-4+c])
			}
			if dot <= 0 {
				t.Fatalf("%s: keys %d and %d are in opposite hemispheres", clip, k/4-1, k/4)
			}
		}
	}
}

// TestJointNamesAndSides pins the contract the viewer relies on: joint
// names, left on +X, the face on +Z.
func TestJointNamesAndSides(t *testing.T) {
	js := skeleton()
	names := []string{"hips", "spine", "chest", "neck", "head",
		"shoulder.L", "upper_arm.L", "forearm.L", "hand.L",
		"shoulder.R", "upper_arm.R", "forearm.R", "hand.R",
		"thigh.L", "shin.L", "foot.L", "thigh.R", "shin.R", "foot.R"}
	if len(js) != len(names) {
		t.Fatalf("%d joints, want %d", len(js), len(names))
	}
	for i, j := range js {
		if j.name != names[i] {
			t.Errorf("joint %d is %q, want %q", i, j.name, names[i])
		}
		if j.parent >= i {
			t.Errorf("joint %s comes before its parent", j.name)
		}
	}
	for _, i := range []int{jUpperArmL, jHandL, jThighL, jFootL} {
		if js[i].pos.X <= 0 {
			t.Errorf("%s should be on +X", js[i].name)
		}
	}
	if js[jHips].parent != -1 || math.Abs(js[jHips].pos.Y-0.95) > 0.05 {
		t.Errorf("hips should be the root at about 0.95 m")
	}
}
