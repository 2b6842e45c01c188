package main

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

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
