package gltfload

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"os"
	"reflect"
	"slices"
	"syscall"
	"testing"
	"time"
)

// The expected frames below follow glTF's conventions: V points down the
// image, so a texture shown upright on a face has u growing to the
// viewer's right and v growing downwards, and its tangent-space +Y
// (the bitangent, normal × tangent · w) points up the face; w = 1 for such
// a mapping, −1 where the image is mirrored.

// quadPrim is the unit square in the XY plane facing +Z, corners
// (0,0) (1,0) (1,1) (0,1), two triangles, with uv(x, y) as TEXCOORD_0.
func quadPrim(uv func(x, y float32) (float32, float32)) *Primitive {
	p := &Primitive{Material: -1, Indices: []uint32{0, 1, 2, 0, 2, 3}}
	for _, c := range [][2]float32{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
		p.Positions = append(p.Positions, c[0], c[1], 0)
		p.Normals = append(p.Normals, 0, 0, 1)
		u, v := uv(c[0], c[1])
		p.UV0 = append(p.UV0, u, v)
	}
	return p
}

// cornerTangent is the tangent the vertex of corner c carries.
func cornerTangent(p *Primitive, c int) [4]float32 {
	return [4]float32(p.Tangents[4*p.Indices[c] : 4*p.Indices[c]+4])
}

func near4(a, b [4]float32, eps float32) bool {
	for i := range a {
		if !approxEqual(a[i], b[i], eps) {
			return false
		}
	}
	return true
}

// checkFrames asserts what every generated tangent owes the shader: finite,
// unit, orthogonal to its vertex normal, w ±1.
func checkFrames(t *testing.T, p *Primitive) {
	t.Helper()
	if len(p.Tangents) != 4*p.NumVertices() {
		t.Fatalf("%d tangent floats for %d vertices", len(p.Tangents), p.NumVertices())
	}
	for v := range p.NumVertices() {
		tg := p.Tangents[4*v : 4*v+4]
		n := p.Normals[3*v : 3*v+3]
		if !finiteFloats(tg...) {
			t.Fatalf("vertex %d: tangent %v", v, tg)
		}
		l := math.Sqrt(float64(tg[0]*tg[0] + tg[1]*tg[1] + tg[2]*tg[2]))
		d := float64(tg[0]*n[0] + tg[1]*n[1] + tg[2]*n[2])
		if math.Abs(l-1) > 1e-5 || math.Abs(d) > 1e-5 || (tg[3] != 1 && tg[3] != -1) {
			t.Errorf("vertex %d: tangent %v, length %v, dot normal %v %v", v, tg, l, n, d)
		}
	}
}

func TestTangentsOfAFlatQuad(t *testing.T) {
	for _, c := range []struct {
		name string
		uv   func(x, y float32) (float32, float32)
		want [4]float32
	}{
		// u along +X, v down the face (−Y): upright, tangent +X.
		{"upright", func(x, y float32) (float32, float32) { return x, 1 - y }, [4]float32{1, 0, 0, 1}},
		// u decreasing along +X: the image mirrored left-right, tangent
		// −X (u grows to the left) and w −1 (n × t = −Y, but up is +Y).
		{"mirrored", func(x, y float32) (float32, float32) { return 1 - x, 1 - y }, [4]float32{-1, 0, 0, -1}},
		// The image turned a quarter turn counter-clockwise: u grows along
		// +Y, v along +X; n × t = −X is the image's up (−v): w 1.
		{"rotated 90°", func(x, y float32) (float32, float32) { return y, x }, [4]float32{0, 1, 0, 1}},
		// The mirrored image at a 10⁻¹⁸ scale: a uv area of 10⁻³⁶, above
		// FLT_MIN, and derivatives of 10¹⁸ per unit of it: a frame.
		{"mirrored at 1e-18", func(x, y float32) (float32, float32) { return (1 - x) * 1e-18, (1 - y) * 1e-18 }, [4]float32{-1, 0, 0, -1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := quadPrim(c.uv)
			p.generateTangents(p.UV0)
			checkFrames(t, p)
			if !p.TangentsGenerated || p.NumVertices() != 4 {
				t.Fatalf("generated %v, %d vertices; want true and 4 (no corner disagrees)", p.TangentsGenerated, p.NumVertices())
			}
			for k := range p.Indices {
				if got := cornerTangent(p, k); !near4(got, c.want, 1e-6) {
					t.Errorf("corner %d: %v, want %v", k, got, c.want)
				}
			}
		})
	}
}

// A cube of 24 vertices, each face its own four with its normal and the
// image upright on it (seen from outside, up +Y; −Z on the top face, +Z
// on the bottom): every corner's tangent is its face's right, up × n,
// whatever the neighbouring faces at the same positions are.
func TestTangentsOfACubeStayPerFace(t *testing.T) {
	p := &Primitive{Material: -1}
	type face struct{ n, up [3]float32 }
	faces := []face{
		{[3]float32{0, 0, 1}, [3]float32{0, 1, 0}}, {[3]float32{0, 0, -1}, [3]float32{0, 1, 0}},
		{[3]float32{1, 0, 0}, [3]float32{0, 1, 0}}, {[3]float32{-1, 0, 0}, [3]float32{0, 1, 0}},
		{[3]float32{0, 1, 0}, [3]float32{0, 0, -1}}, {[3]float32{0, -1, 0}, [3]float32{0, 0, 1}},
	}
	cross := func(a, b [3]float32) [3]float32 {
		return [3]float32{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	var want [][4]float32
	for f, fc := range faces {
		r := cross(fc.up, fc.n)
		for _, s := range [][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			for i := range 3 {
				p.Positions = append(p.Positions, fc.n[i]+s[0]*r[i]+s[1]*fc.up[i])
			}
			p.Normals = append(p.Normals, fc.n[:]...)
			p.UV0 = append(p.UV0, (s[0]+1)/2, (1-s[1])/2)
		}
		b := uint32(4 * f)
		p.Indices = append(p.Indices, b, b+1, b+2, b, b+2, b+3)
		for range 6 {
			want = append(want, [4]float32{r[0], r[1], r[2], 1})
		}
	}
	p.generateTangents(p.UV0)
	checkFrames(t, p)
	if p.NumVertices() != 24 {
		t.Fatalf("%d vertices, want 24", p.NumVertices())
	}
	for k := range p.Indices {
		if got := cornerTangent(p, k); !near4(got, want[k], 1e-6) {
			t.Errorf("face %d corner %d: %v, want %v", k/6, k, got, want[k])
		}
	}
}

// seamCylinder is the side of a unit cylinder around +Y, n columns at
// angles 2πk/n, two rings (y 0 and 1), vertex row·n+k at (sin θ, y, cos θ)
// with the outward normal, u = k/n and v = 1 − y: upright seen from
// outside. The last face closes the loop on column 0's vertices, whose
// u is 0, so across it u runs backwards, from (n−1)/n down to 0: its image
// is mirrored. Every vertex has distinct values in every other array.
func seamCylinder(n int) *Primitive {
	// Two influence sets: rows of the stored influences are 8 wide.
	p := &Primitive{Material: -1, Sets: 2}
	mt := MorphTarget{}
	for row := range 2 {
		for k := range n {
			v := row*n + k
			th := 2 * math.Pi * float64(k) / float64(n)
			s, c := float32(math.Sin(th)), float32(math.Cos(th))
			p.Positions = append(p.Positions, s, float32(row), c)
			p.Normals = append(p.Normals, s, 0, c)
			p.UV0 = append(p.UV0, float32(k)/float32(n), 1-float32(row))
			p.UV1 = append(p.UV1, float32(v), -float32(v))
			p.Colors = append(p.Colors, float32(v)/16, 0.5, 1-float32(v)/16, 1)
			p.Joints = append(p.Joints, uint16(v), uint16(v+1), 0, 0)
			p.Weights = append(p.Weights, 0.75, 0.25, 0, 0)
			p.AllJoints = append(p.AllJoints, uint16(v), uint16(v+1), 0, 0, uint16(v+2), 0, 0, 0)
			p.AllWeights = append(p.AllWeights, 0.6, 0.2, 0, 0, 0.2, 0, 0, 0)
			mt.Positions = append(mt.Positions, float32(v), 1, 2)
			mt.Normals = append(mt.Normals, 0, float32(v), 0)
		}
	}
	p.Targets = []MorphTarget{mt}
	for k := range n {
		a, b := uint32(k), uint32((k+1)%n)
		ta, tb := a+uint32(n), b+uint32(n)
		p.Indices = append(p.Indices, a, b, tb, a, tb, ta)
	}
	return p
}

// vertexRows is every per-vertex array of p (each slice field but
// Indices, and those of its morph targets), found by reflection so that
// an array added to Primitive later is checked too.
func vertexRows(p *Primitive) map[string]reflect.Value {
	rows := map[string]reflect.Value{}
	add := func(prefix string, v reflect.Value) {
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() == reflect.Slice && f.Type().Elem().Kind() != reflect.Struct && v.Type().Field(i).Name != "Indices" {
				rows[prefix+v.Type().Field(i).Name] = f
			}
		}
	}
	add("", reflect.ValueOf(p).Elem())
	for t := range p.Targets {
		add(fmt.Sprintf("Targets[%d].", t), reflect.ValueOf(&p.Targets[t]).Elem())
	}
	return rows
}

// The seam's two columns each meet a face mapped upright and the mirrored
// one: the upright faces give them the direction of growing θ,
// (cos θ, 0, −sin θ), w 1; the mirrored face (u grows towards smaller θ)
// the opposite, w −1. Those four vertices are copied, every array with
// them; the other vertices keep one tangent.
func TestTangentsSplitAMirroredSeam(t *testing.T) {
	const n = 8
	p := seamCylinder(n)
	before := *p
	before.Targets = slices.Clone(p.Targets)
	old := vertexRows(&before)
	delete(old, "Tangents") // the output, checked above
	p.generateTangents(p.UV0)
	checkFrames(t, p)
	if got := p.NumVertices(); got != 2*n+4 {
		t.Fatalf("%d vertices, want %d: the seam's 4 vertices once more", got, 2*n+4)
	}
	if slices.Equal(p.Indices, before.Indices) {
		t.Fatal("no index was re-pointed")
	}
	for k := range p.Indices {
		face, src := k/6, int(before.Indices[k])
		col := src % n
		th := 2 * math.Pi * float64(col) / float64(n)
		want := [4]float32{float32(math.Cos(th)), 0, float32(-math.Sin(th)), 1}
		if face == n-1 {
			want = [4]float32{-want[0], 0, -want[2], -1}
		}
		if got := cornerTangent(p, k); !near4(got, want, 1e-5) {
			t.Errorf("face %d corner %d (vertex %d): %v, want %v", face, k%6, src, got, want)
		}
	}
	rows := vertexRows(p)
	for name, o := range old {
		if o.Len() == 0 {
			t.Fatalf("%s is empty in the test's primitive", name)
		}
		w := o.Len() / (2 * n)
		nw := rows[name]
		if nw.Len() != w*p.NumVertices() {
			t.Errorf("%s has %d values, want %d per vertex for %d vertices", name, nw.Len(), w, p.NumVertices())
			continue
		}
		for k, v := range p.Indices {
			src := int(before.Indices[k])
			if !reflect.DeepEqual(nw.Slice(int(v)*w, int(v+1)*w).Interface(), o.Slice(src*w, (src+1)*w).Interface()) {
				t.Errorf("%s: corner %d's vertex %d holds %v, vertex %d held %v", name, k, v,
					nw.Slice(int(v)*w, int(v+1)*w), src, o.Slice(src*w, (src+1)*w))
			}
		}
	}
}

// Unindexed (each corner its own vertex, as the loader lists 0, 1, 2, …),
// the same cylinder gets the same frames per corner, with nothing to copy.
func TestTangentsOfAnUnindexedPrimitive(t *testing.T) {
	const n = 8
	ref := seamCylinder(n)
	p := &Primitive{Material: -1}
	for k, v := range ref.Indices {
		p.Positions = append(p.Positions, ref.Positions[3*v:3*v+3]...)
		p.Normals = append(p.Normals, ref.Normals[3*v:3*v+3]...)
		p.UV0 = append(p.UV0, ref.UV0[2*v:2*v+2]...)
		p.Indices = append(p.Indices, uint32(k))
	}
	shared := p.Indices
	ref.generateTangents(ref.UV0)
	p.generateTangents(p.UV0)
	checkFrames(t, p)
	if p.NumVertices() != len(ref.Indices) || !slices.Equal(shared, p.Indices) {
		t.Fatalf("%d vertices for %d corners, indices %v", p.NumVertices(), len(ref.Indices), p.Indices)
	}
	for k := range p.Indices {
		if got, want := cornerTangent(p, k), cornerTangent(ref, k); !near4(got, want, 1e-6) {
			t.Errorf("corner %d: %v, indexed %v", k, got, want)
		}
	}
}

// Degenerate input still gives every vertex a unit tangent orthogonal to
// its normal, never NaN.
func TestTangentsOfDegenerateInput(t *testing.T) {
	for _, c := range []struct {
		name string
		make func() *Primitive
	}{
		{"one uv for all", func() *Primitive { return quadPrim(func(x, y float32) (float32, float32) { return 0.5, 0.5 }) }},
		{"uv along a line", func() *Primitive { return quadPrim(func(x, y float32) (float32, float32) { return x + y, x + y }) }},
		{"uv tangent along the normal", func() *Primitive {
			p := quadPrim(func(x, y float32) (float32, float32) { return x, 1 - y })
			for v := range 4 {
				copy(p.Normals[3*v:], []float32{1, 0, 0})
			}
			return p
		}},
		// No frame from the uvs, and a normal leaning on every axis: the
		// fallback axis must be made orthogonal to it, and unit.
		{"one uv for all, a slanted normal", func() *Primitive {
			p := quadPrim(func(x, y float32) (float32, float32) { return 0.5, 0.5 })
			for v := range 4 {
				copy(p.Normals[3*v:], []float32{0.48, 0.6, 0.64})
			}
			return p
		}},
		{"zero normals", func() *Primitive {
			p := quadPrim(func(x, y float32) (float32, float32) { return x, 1 - y })
			clear(p.Normals)
			return p
		}},
		{"a triangle on one point and one on a line", func() *Primitive {
			p := quadPrim(func(x, y float32) (float32, float32) { return x, 1 - y })
			p.Positions = append(p.Positions, 0, 0, 0, 2, 0, 0)
			p.Normals = append(p.Normals, 0, 0, 1, 0, 0, 1)
			p.UV0 = append(p.UV0, 0, 1, 2, 1)
			p.Indices = append(p.Indices, 0, 0, 0, 0, 1, 5, 4, 4, 4)
			return p
		}},
		{"coordinates that overflow", func() *Primitive {
			p := quadPrim(func(x, y float32) (float32, float32) { return x * 3e38, -y * 3e38 })
			for k := range p.Positions {
				p.Positions[k] = (p.Positions[k]*2 - 1) * 3e38
			}
			return p
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := c.make()
			p.generateTangents(p.UV0)
			checkFrames(t, p)
		})
	}
}

// Through the loader: a primitive whose material has a normal texture and
// no TANGENT gets them generated (the upright quad's +X); one that brings
// its own keeps them; one without a normal texture gets none; a normal
// texture's KHR_texture_transform turns the frame with it.
func TestLoaderGeneratesMissingTangents(t *testing.T) {
	b := &docBuilder{}
	b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0})
	b.floatAcc(t, "VEC3", []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1})
	b.floatAcc(t, "VEC2", []float32{0, 1, 1, 1, 1, 0, 0, 0})
	b.floatAcc(t, "VEC4", []float32{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1})
	iv := b.view(t, 0, []uint16{0, 1, 2, 0, 2, 3})
	b.acc(fmt.Sprintf(`"bufferView": %d, "componentType": 5123, "count": 6, "type": "SCALAR"`, iv))
	png := dataURI("image/png", onePNG(t, color.NRGBA{128, 128, 255, 255}))
	js := b.json(fmt.Sprintf(`"scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
	  "meshes": [{"primitives": [
	    {"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 4, "material": 0},
	    {"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "TANGENT": 3}, "indices": 4, "material": 0},
	    {"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 4, "material": 1},
	    {"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 4, "material": 2},
	    {"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 4, "material": 3}]}],
	  "materials": [{"normalTexture": {"index": 0}}, {},
	    {"normalTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"rotation": 1.5707963267948966}}}},
	    {"normalTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"scale": [-1, 1]}}}}],
	  "textures": [{"source": 0}], "images": [{"uri": %q}], "extensionsUsed": ["KHR_texture_transform"]`, png))
	mustJSON(t, js)
	m, err := Decode(js, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	ps := m.Meshes[0].Primitives
	if !ps[0].TangentsGenerated || len(ps[0].Tangents) != 16 {
		t.Fatalf("generated %v, tangents %v; want 4 generated", ps[0].TangentsGenerated, ps[0].Tangents)
	}
	for k := range ps[0].Indices {
		if got := cornerTangent(&ps[0], k); !near4(got, [4]float32{1, 0, 0, 1}, 1e-6) {
			t.Errorf("corner %d: %v, want (1, 0, 0, 1)", k, got)
		}
	}
	if ps[1].TangentsGenerated || ps[1].Tangents[0] != 0 || ps[1].Tangents[1] != 1 {
		t.Errorf("the file's TANGENT replaced: generated %v, %v", ps[1].TangentsGenerated, ps[1].Tangents)
	}
	if ps[2].TangentsGenerated || ps[2].Tangents != nil {
		t.Errorf("tangents without a normal texture: %v", ps[2].Tangents)
	}
	// The normal map sampled at (u, v) turned a quarter turn
	// (KHR_texture_transform: u' = v, v' = −u): u' = 1 − y grows along −Y,
	// and the turn keeps the image unmirrored.
	for k := range ps[3].Indices {
		if got := cornerTangent(&ps[3], k); !near4(got, [4]float32{0, -1, 0, 1}, 1e-6) {
			t.Errorf("transformed, corner %d: %v, want (0, −1, 0, 1)", k, got)
		}
	}
	// Mirrored in u (scale (−1, 1)): u' = −x grows along −X, and the
	// mirror flips the frame's handedness.
	for k := range ps[4].Indices {
		if got := cornerTangent(&ps[4], k); !near4(got, [4]float32{-1, 0, 0, -1}, 1e-6) {
			t.Errorf("mirrored, corner %d: %v, want (−1, 0, 0, −1)", k, got)
		}
	}
}

// Generating tangents takes memory per corner that a file of one-byte
// indices over three vertices does not justify: the file still loads,
// without generated tangents (the shader's own frame), and says so.
func TestTangentsBeyondTheBudgetAreLeftOut(t *testing.T) {
	b := &docBuilder{}
	b.floatAcc(t, "VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	b.floatAcc(t, "VEC3", []float32{0, 0, 1, 0, 0, 1, 0, 0, 1})
	b.floatAcc(t, "VEC2", []float32{0, 1, 1, 1, 0, 0})
	idx := make([]uint8, 120000)
	for k := range idx {
		idx[k] = uint8(k % 3)
	}
	iv := b.view(t, 0, idx)
	b.acc(fmt.Sprintf(`"bufferView": %d, "componentType": 5121, "count": %d, "type": "SCALAR"`, iv, len(idx)))
	png := dataURI("image/png", onePNG(t, color.NRGBA{128, 128, 255, 255}))
	glb := b.glb(t, fmt.Sprintf(`"scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0}]}],
	  "materials": [{"normalTexture": {"index": 0}}], "textures": [{"source": 0}], "images": [{"uri": %q}]`, png))
	m, err := Decode(glb, nil, "t.glb")
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Meshes[0].Primitives[0]; p.Tangents != nil || p.TangentsGenerated {
		t.Errorf("tangents generated beyond the budget: %d floats", len(p.Tangents))
	}
	if !issueAt(m, "VIEWER_NOTE", "/meshes/0/primitives/0") {
		t.Errorf("no line says the tangents were left out: %q", m.Report.Lines(Hint, 0))
	}
}

// BenchmarkGenerateTangents runs the generation on a 100 352-triangle
// grid (224 × 224 quads) with a wavy surface and continuous UVs.
func BenchmarkGenerateTangents(b *testing.B) {
	const side = 224
	base := &Primitive{Material: -1}
	for y := range side + 1 {
		for x := range side + 1 {
			fx, fy := float32(x)/side, float32(y)/side
			z := float32(0.05 * math.Sin(float64(fx*20)) * math.Cos(float64(fy*17)))
			base.Positions = append(base.Positions, fx, fy, z)
			base.Normals = append(base.Normals, 0, 0, 1)
			base.UV0 = append(base.UV0, fx, 1-fy)
		}
	}
	for y := range side {
		for x := range side {
			a := uint32(y*(side+1) + x)
			base.Indices = append(base.Indices, a, a+1, a+side+2, a, a+side+2, a+side+1)
		}
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		p := *base
		p.generateTangents(p.UV0)
	}
	// CPU time (all threads, GC included) beside wall time: on a shared
	// machine the two differ.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(base.Indices)/3), "ns/triangle")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestTangentsMatchMikkTSpace: every corner's tangent is the one
// MikkTSpace's reference gives (testdata/mikktspace_*.json, written by
// tools/mikkref/make.js with the npm mikktspace port of mikktspace.c), to
// a float32 rounding of the sums, both from the unindexed corners and
// from the same mesh indexed (corners that agree in position, normal and
// texture coordinate shared). The sphere's texture is mirrored about its
// x = 0 meridian (tangent frames flip there and split their groups), its
// smooth normals shared across triangles, its poles of coinciding
// corners. The rough sheet adds what real meshes bring: a uv seam, a hard
// edge, cells with no uv area that take their neighbours' frames,
// triangles on two points, one triangle wound against its neighbours,
// triangles in no particular order; it comes in two orders, one starting
// with a triangle of no uv area (which only joins a group another starts)
// and ending with a fin on its first edge (three triangles on one edge),
// the other with a corner where two frames meet and a triangle on two
// points at it (which takes the first corner's frame).
func TestTangentsMatchMikkTSpace(t *testing.T) {
	for _, name := range []string{"mikktspace_sphere.json", "mikktspace_rough.json", "mikktspace_seam.json"} {
		t.Run(name, func(t *testing.T) { matchMikkTSpace(t, "testdata/"+name) })
	}
}

func matchMikkTSpace(t *testing.T, file string) {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var ref struct{ Positions, Normals, UV, Tangents []float32 }
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	n := len(ref.Positions) / 3
	if n == 0 || len(ref.Normals) != 3*n || len(ref.UV) != 2*n || len(ref.Tangents) != 4*n {
		t.Fatalf("testdata: %d positions, %d normals, %d uvs, %d tangents", len(ref.Positions), len(ref.Normals), len(ref.UV), len(ref.Tangents))
	}
	unindexed := &Primitive{Material: -1, Positions: ref.Positions, Normals: ref.Normals, UV0: ref.UV}
	indexed := &Primitive{Material: -1}
	seen := map[[8]float32]uint32{}
	for c := range n {
		unindexed.Indices = append(unindexed.Indices, uint32(c))
		var key [8]float32
		copy(key[:], ref.Positions[3*c:3*c+3])
		copy(key[3:], ref.Normals[3*c:3*c+3])
		copy(key[6:], ref.UV[2*c:2*c+2])
		v, ok := seen[key]
		if !ok {
			v = uint32(len(seen))
			seen[key] = v
			indexed.Positions = append(indexed.Positions, key[:3]...)
			indexed.Normals = append(indexed.Normals, key[3:6]...)
			indexed.UV0 = append(indexed.UV0, key[6:]...)
		}
		indexed.Indices = append(indexed.Indices, v)
	}
	if len(seen) == n {
		t.Fatal("no corners shared: the indexed sphere is not indexed")
	}
	for _, p := range []*Primitive{unindexed, indexed} {
		p.generateTangents(p.UV0)
		checkFrames(t, p)
		bad := 0
		for c := range n {
			want := [4]float32(ref.Tangents[4*c : 4*c+4])
			if got := cornerTangent(p, c); !near4(got, want, 2e-4) {
				if bad++; bad <= 5 {
					t.Errorf("%d vertices, corner %d: tangent %v, MikkTSpace %v", p.NumVertices(), c, got, want)
				}
			}
		}
		if bad > 5 {
			t.Errorf("%d vertices: %d corners of %d differ", p.NumVertices(), bad, n)
		}
	}
}

// TestTangentUVFollowsTheTransform: tangents are made from the texture
// coordinates the normal map is sampled at: its set (TEXCOORD_1 here),
// through its KHR_texture_transform, (u, v) → (2u + 0.25, 4v + 0.5) by
// hand; a normal map on TEXCOORD_2 or later makes none.
func TestTangentUVFollowsTheTransform(t *testing.T) {
	mat := Material{NormalTexture: TextureRef{Texture: 0, TexCoord: 1, Offset: [2]float32{0.25, 0.5}, Scale: [2]float32{2, 4}}}
	l := &loader{model: &Model{Materials: []Material{mat}}}
	prim := &Primitive{Material: 0, Positions: make([]float32, 9), Normals: make([]float32, 9), Indices: []uint32{0, 1, 2},
		UV0: []float32{9, 9, 9, 9, 9, 9}, UV1: []float32{0, 0, 1, 0, 1, 1}}
	if got, want := l.tangentUV(prim), []float32{0.25, 0.5, 2.25, 0.5, 2.25, 4.5}; !slices.Equal(got, want) {
		t.Errorf("uv %v, want %v", got, want)
	}
	l.model.Materials[0].NormalTexture.TexCoord = 2
	if got := l.tangentUV(prim); got != nil {
		t.Errorf("a normal map on TEXCOORD_2: uv %v, want none", got)
	}
}

// TestTangentBytesByHand: the budget generating tangents asks for, per
// vertex 64 + 8 × 4 bytes, per corner 4 + 4 + 16 + 16 + 32 and per
// triangle 4 + 64: 4 vertices and 6 corners, 384 + 432 + 136.
func TestTangentBytesByHand(t *testing.T) {
	if got := tangentBytes(4, 6); got != 952 {
		t.Errorf("tangentBytes(4, 6) = %d, want 952", got)
	}
}

// TestTangentsWeldOnlyWhatAgrees: corners weld where position, normal
// and texture coordinate all agree, every component of each. A triangle
// whose first vertex differs from another triangle's first vertex in one
// component only (and shares no edge with it) gets, at every corner, the
// tangents it gets alone; welded to the other vertex, its corner there
// would take that vertex's position, normal or uv and its frame would
// change.
func TestTangentsWeldOnlyWhatAgrees(t *testing.T) {
	// The vertex both triangles start at: position, normal, uv.
	base := [8]float32{0, 0, 0, 0.6, 0, 0.8, 0, 0}
	first := &Primitive{Material: -1, Indices: []uint32{0, 1, 2},
		Positions: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0},
		Normals:   []float32{0.6, 0, 0.8, 0.6, 0, 0.8, 0.6, 0, 0.8},
		UV0:       []float32{0, 0, 1, 0, 0, 1}}
	for comp := range 8 {
		v := base
		v[comp] += []float32{0.25, 0.25, 0.25, 0.01, 0.01, 0.01, 0.25, 0.25}[comp]
		second := &Primitive{Material: -1, Indices: []uint32{0, 1, 2},
			Positions: append(slices.Clone(v[:3]), 2, 1, 0.5, -1, 2, 0.25),
			Normals:   append(slices.Clone(v[3:6]), 0.6, 0, 0.8, 0.6, 0, 0.8),
			UV0:       append(slices.Clone(v[6:]), 1, 0.5, 0.25, 1)}
		both := &Primitive{Material: -1, Indices: []uint32{0, 1, 2, 3, 4, 5},
			Positions: append(slices.Clone(first.Positions), second.Positions...),
			Normals:   append(slices.Clone(first.Normals), second.Normals...),
			UV0:       append(slices.Clone(first.UV0), second.UV0...)}
		second.generateTangents(second.UV0)
		both.generateTangents(both.UV0)
		for c := range 3 {
			if got, want := cornerTangent(both, 3+c), cornerTangent(second, c); got != want {
				t.Errorf("component %d differs: corner %d's tangent %v beside the other triangle, %v alone", comp, c, got, want)
			}
		}
	}
}
