package gltfload

// tangentUV is the uv set (per vertex, KHR_texture_transform applied) from
// which tangents are to be generated for prim, or nil where glTF asks for
// none: no normal texture, no NORMAL, a TANGENT of its own, no triangles,
// or a normal texture on a set the viewer does not keep (TEXCOORD_2+).
func (l *loader) tangentUV(prim *Primitive) []float32 {
	if prim.Material < 0 || prim.Normals == nil || prim.Tangents != nil || len(prim.Indices) < 3 {
		return nil
	}
	ref := l.model.Materials[prim.Material].NormalTexture
	if ref.Texture < 0 {
		return nil
	}
	uv := [2][]float32{prim.UV0, prim.UV1}[min(max(ref.TexCoord, 0), 1)]
	if ref.TexCoord > 1 || uv == nil {
		return nil
	}
	if ref.Offset == [2]float32{} && ref.Rotation == 0 && ref.Scale == [2]float32{1, 1} {
		return uv
	}
	// The shader samples the normal map at the transformed coordinates:
	// the frame follows them.
	m := ref.UVMatrix()
	out := make([]float32, len(uv))
	for k := 0; k+1 < len(uv); k += 2 {
		u, v := uv[k], uv[k+1]
		out[k], out[k+1] = m[0]*u+m[3]*v+m[6], m[1]*u+m[4]*v+m[7]
	}
	return out
}

// generateTangents sets Tangents to MikkTSpace tangents computed from
// Positions, Normals and uv (per vertex, where the normal texture samples)
// and TangentsGenerated. Where corners of one vertex get different
// tangents (a mirrored seam, faces around it that do not meet across
// edges) the vertex is copied, with every per-vertex array, and those
// corners' indices point at the copy. Arrays the primitive shares with
// others are never written: the changed ones are new.
func (p *Primitive) generateTangents(uv []float32) {
	ct := cornerTangents(p.Positions, p.Normals, uv, p.Indices)
	n := p.NumVertices()
	tangents := make([]float32, 4*n, 4*n+4*n/8)
	claimed := make([]bool, n)
	type copyKey struct {
		v uint32
		t [4]float32
	}
	copies := map[copyKey]uint32{}
	var src []uint32 // the vertex each copy repeats
	var indices []uint32
	for c, v := range p.Indices {
		t := [4]float32(ct[4*c : 4*c+4])
		switch {
		case !claimed[v]:
			claimed[v] = true
			copy(tangents[4*v:], t[:])
			continue
		case [4]float32(tangents[4*v:4*v+4]) == t:
			continue
		}
		if indices == nil {
			indices = append([]uint32(nil), p.Indices...)
		}
		k := copyKey{v, t}
		to, ok := copies[k]
		if !ok {
			to = uint32(n + len(src))
			copies[k] = to
			src = append(src, v)
			tangents = append(tangents, t[:]...)
		}
		indices[c] = to
	}
	// Vertices no triangle uses are never drawn; they still get a valid
	// frame.
	for v := range n {
		if !claimed[v] {
			t := orthonormalTo(vec3{1, 0, 0}, vec3(p.Normals[3*v:3*v+3]))
			copy(tangents[4*v:], []float32{t[0], t[1], t[2], 1})
		}
	}
	p.Tangents, p.TangentsGenerated = tangents, true
	if src == nil {
		return
	}
	p.Indices = indices
	p.Positions = withCopies(p.Positions, 3, src)
	p.Normals = withCopies(p.Normals, 3, src)
	p.UV0 = withCopies(p.UV0, 2, src)
	p.UV1 = withCopies(p.UV1, 2, src)
	p.Colors = withCopies(p.Colors, 4, src)
	p.Joints = withCopies(p.Joints, 4, src)
	p.Weights = withCopies(p.Weights, 4, src)
	p.AllJoints = withCopies(p.AllJoints, 4*p.Sets, src)
	p.AllWeights = withCopies(p.AllWeights, 4*p.Sets, src)
	targets := make([]MorphTarget, len(p.Targets))
	for t, mt := range p.Targets {
		targets[t] = MorphTarget{Positions: withCopies(mt.Positions, 3, src), Normals: withCopies(mt.Normals, 3, src)}
	}
	p.Targets = targets
}

// withCopies is a new array: a's rows of width values, then a copy of row
// src[i] for each i; nil stays nil.
func withCopies[T any](a []T, width int, src []uint32) []T {
	if a == nil {
		return nil
	}
	out := make([]T, len(a), len(a)+width*len(src))
	copy(out, a)
	for _, s := range src {
		out = append(out, a[int(s)*width:(int(s)+1)*width]...)
	}
	return out
}

// tangentBytes bounds the memory generating tangents for n vertices and
// c corners takes, for the file's decoding budget: a few indices stored
// in a small file can ask for much more.
func tangentBytes(n, c int) int64 {
	return int64(n)*(64+8*4) + int64(c)*(4+4+16+16+32) + int64(c)/3*(4+64)
}
