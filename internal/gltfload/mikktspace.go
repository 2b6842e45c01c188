package gltfload

import (
	"math"
	"slices"
)

// MikkTSpace tangent frames (Morten S. Mikkelsen's algorithm, as its
// reference implementation computes them by default), for glTF 2.0
// §3.7.2.1: primitives with a normal texture but no TANGENT.
//
// Each triangle gets the derivatives of position along u and v. Corners
// are welded where position, normal and uv are all equal; around each
// welded vertex, the triangles that reach each other across shared edges
// and agree on the mapping's orientation form a group; a group splits
// where its triangles' frames differ by more than the angular threshold
// (180° by default: only opposite frames); each part's frame is the sum
// of its triangles' derivatives projected into the normal's plane,
// weighted by the triangle's angle at the vertex.

// mikkThresholdCos is the cosine of the reference's default angular
// threshold, 180°: triangles stay in one part unless their frames point
// exactly opposite ways.
const mikkThresholdCos = -1

// floatMin is C's FLT_MIN: the reference treats smaller magnitudes as zero.
const floatMin = 0x1p-126

// Triangle flags.
const (
	mikkAnyGroup   = 1 << iota // no usable uv derivatives: takes any group's frame
	mikkPreserving             // the uv winding agrees with the position winding
)

// mikkTri is one triangle's derivatives and connectivity.
type mikkTri struct {
	os, ot   vec3     // unit ∂P/∂u and ∂P/∂v, zero where undefined
	flags    uint8    // mikkAnyGroup, mikkPreserving
	neighbor [3]int32 // the triangle across edge k (corner k to k+1), or -1
	group    [3]int32 // corner k's group, or -1
}

// mikkGroup is the triangles around welded vertex rep that share a
// frame's orientation and reach each other across edges: faces[first:
// first+count] of the generator.
type mikkGroup struct {
	rep          uint32
	preserving   bool
	first, count int32
}

// mikkFrame is a corner's result: the tangent and whether the mapping is
// orientation-preserving there (w = 1) or mirrored (w = -1).
type mikkFrame struct {
	os         vec3
	preserving bool
	set        bool
}

type vec3 [3]float32

func (a vec3) add(b vec3) vec3       { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3       { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) scale(s float32) vec3  { return vec3{s * a[0], s * a[1], s * a[2]} }
func (a vec3) dot(b vec3) float32    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec3) length() float32       { return float32(math.Sqrt(float64(a.dot(a)))) }
func (a vec3) notZero() bool         { return notZero(a[0]) || notZero(a[1]) || notZero(a[2]) }
func notZero(x float32) bool         { return x > floatMin || x < -floatMin }
func at3(s []float32, i uint32) vec3 { return vec3(s[3*i : 3*i+3]) }
func (a vec3) inPlane(n vec3) vec3   { return a.sub(n.scale(n.dot(a))) }

// unit is a normalized, or a itself where it has no length to divide by.
func (a vec3) unit() vec3 {
	if a.notZero() {
		return a.scale(1 / a.length())
	}
	return a
}

// mikkGen holds the generator's working arrays for one primitive.
type mikkGen struct {
	pos, nrm, uv []float32 // per glTF vertex; uv with V pointing up
	weld         []uint32  // per corner: the first vertex with its position, normal and uv
	tris         []mikkTri // the non-degenerate triangles, in order
	triOf        []int32   // tris[k] is triangle triOf[k] of the primitive
	groups       []mikkGroup
	faces        []int32 // group members, indices into tris
	frames       []mikkFrame
}

// cornerTangents returns MikkTSpace tangents per corner of the triangle
// list idx (xyzw, w = ±1 the bitangent's sign as glTF defines it:
// bitangent = normal × tangent · w). pos and nrm are xyz per vertex (nrm
// unit or zero), uv the coordinates the normal texture is sampled at, uv
// per vertex in glTF's convention (V down the image). Every tangent is
// finite, unit and orthogonal to its corner's normal: where the input
// defines none (degenerate triangles or uvs) it is some such vector.
func cornerTangents(pos, nrm, uv []float32, idx []uint32) []float32 {
	// MikkTSpace's frames are for V up the image (OpenGL's convention):
	// negating V keeps every weld and makes its "orientation-preserving"
	// glTF's w = 1.
	up := make([]float32, len(uv))
	for k := 0; k+1 < len(uv); k += 2 {
		up[k], up[k+1] = uv[k], -uv[k+1]
	}
	g := &mikkGen{pos: pos, nrm: nrm, uv: up}
	g.weldCorners(idx)
	g.initTriangles()
	g.buildNeighbors()
	g.buildGroups()
	g.frames = make([]mikkFrame, len(idx))
	g.groupFrames()
	g.degenerateFrames()
	return g.output()
}

// weldCorners gives each corner the first vertex with bit-equal position,
// normal and uv (−0 equal to 0).
func (g *mikkGen) weldCorners(idx []uint32) {
	type key [8]uint32
	bits := func(x float32) uint32 {
		if x == 0 {
			x = 0
		}
		return math.Float32bits(x)
	}
	n := len(g.pos) / 3
	rep := make([]uint32, n)
	first := make(map[key]uint32, n)
	for v := range uint32(n) {
		var k key
		for i := range 3 {
			k[i], k[3+i] = bits(g.pos[3*v+uint32(i)]), bits(g.nrm[3*v+uint32(i)])
		}
		k[6], k[7] = bits(g.uv[2*v]), bits(g.uv[2*v+1])
		if r, ok := first[k]; ok {
			rep[v] = r
		} else {
			first[k], rep[v] = v, v
		}
	}
	g.weld = make([]uint32, len(idx))
	for c, v := range idx {
		g.weld[c] = rep[v]
	}
}

func (g *mikkGen) uvAt(i uint32) (float32, float32) { return g.uv[2*i], g.uv[2*i+1] }

// initTriangles keeps the triangles whose corners lie at three positions
// and computes their derivatives (the reference's equations 18 and 19).
func (g *mikkGen) initTriangles() {
	nt := len(g.weld) / 3
	g.tris = make([]mikkTri, 0, nt)
	g.triOf = make([]int32, 0, nt)
	for t := range nt {
		w := g.weld[3*t : 3*t+3]
		p0, p1, p2 := at3(g.pos, w[0]), at3(g.pos, w[1]), at3(g.pos, w[2])
		if p0 == p1 || p0 == p2 || p1 == p2 {
			continue
		}
		tri := mikkTri{flags: mikkAnyGroup, neighbor: [3]int32{-1, -1, -1}, group: [3]int32{-1, -1, -1}}
		u0, v0 := g.uvAt(w[0])
		u1, v1 := g.uvAt(w[1])
		u2, v2 := g.uvAt(w[2])
		s1, t1, s2, t2 := u1-u0, v1-v0, u2-u0, v2-v0
		d1, d2 := p1.sub(p0), p2.sub(p0)
		area := s1*t2 - t1*s2 // twice the signed uv area
		os := d1.scale(t2).sub(d2.scale(t1))
		ot := d2.scale(s1).sub(d1.scale(s2))
		if area > 0 {
			tri.flags |= mikkPreserving
		}
		if notZero(area) {
			abs := float32(math.Abs(float64(area)))
			sign := float32(1)
			if area < 0 {
				sign = -1
			}
			ls, lt := os.length(), ot.length()
			if notZero(ls) {
				tri.os = os.scale(sign / ls)
			}
			if notZero(lt) {
				tri.ot = ot.scale(sign / lt)
			}
			// The derivatives' lengths per unit of uv area: both must be
			// measurable for the triangle to shape a frame.
			if notZero(ls/abs) && notZero(lt/abs) {
				tri.flags &^= mikkAnyGroup
			}
		}
		g.tris = append(g.tris, tri)
		g.triOf = append(g.triOf, int32(t))
	}
}

// corner is the welded vertex at corner k of kept triangle t.
func (g *mikkGen) corner(t int32, k int) uint32 { return g.weld[3*g.triOf[t]+int32(k)] }

// buildNeighbors pairs triangles across edges they walk in opposite
// directions: each edge, in order of its welded ends and then of its
// triangle, takes the first free one after it that walks it back.
func (g *mikkGen) buildNeighbors() {
	// Edges bucketed by their lower welded end (a counting sort, stable:
	// triangle order within a bucket); a bucket holds a vertex's few edges.
	type edge struct {
		hi   uint32 // the higher welded end
		tri  int32
		slot int8 // the edge's index in tri: corner slot to slot+1
		up   bool // walked from the lower end to the higher
	}
	start := make([]int32, len(g.pos)/3+1)
	for t := range int32(len(g.tris)) {
		for k := range 3 {
			start[min(g.corner(t, k), g.corner(t, (k+1)%3))+1]++
		}
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	edges := make([]edge, 3*len(g.tris))
	next := slices.Clone(start[:len(start)-1])
	for t := range int32(len(g.tris)) {
		for k := range 3 {
			a, b := g.corner(t, k), g.corner(t, (k+1)%3)
			lo := min(a, b)
			edges[next[lo]] = edge{max(a, b), t, int8(k), a < b}
			next[lo]++
		}
	}
	for lo := range len(start) - 1 {
		bucket := edges[start[lo]:start[lo+1]]
		for i, ea := range bucket {
			if g.tris[ea.tri].neighbor[ea.slot] >= 0 {
				continue
			}
			for _, eb := range bucket[i+1:] {
				if eb.hi == ea.hi && eb.up != ea.up && g.tris[eb.tri].neighbor[eb.slot] < 0 {
					g.tris[ea.tri].neighbor[ea.slot] = eb.tri
					g.tris[eb.tri].neighbor[eb.slot] = ea.tri
					break
				}
			}
		}
	}
}

// buildGroups gathers, for each corner of each triangle with usable
// derivatives not yet grouped, the triangles around its welded vertex
// reachable across edges through that vertex with the same orientation,
// depth first as the reference recurses. A triangle without derivatives
// takes the orientation of the first group that reaches it.
func (g *mikkGen) buildGroups() {
	var stack []int32
	for f := range int32(len(g.tris)) {
		if g.tris[f].flags&mikkAnyGroup != 0 {
			continue
		}
		for k := range 3 {
			if g.tris[f].group[k] >= 0 {
				continue
			}
			gi := int32(len(g.groups))
			grp := mikkGroup{rep: g.corner(f, k), preserving: g.tris[f].flags&mikkPreserving != 0, first: int32(len(g.faces))}
			g.groups = append(g.groups, grp)
			g.tris[f].group[k] = gi
			g.faces = append(g.faces, f)
			stack = append(stack[:0], g.tris[f].neighbor[(k+2)%3], g.tris[f].neighbor[k])
			for len(stack) > 0 {
				t := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if t >= 0 {
					stack = g.join(t, gi, stack)
				}
			}
			g.groups[gi].count = int32(len(g.faces)) - g.groups[gi].first
		}
	}
}

// join adds triangle t to group gi when it may join (its corner at the
// group's vertex is free and it has the group's orientation) and returns
// stack with its neighbours through that vertex to visit next.
func (g *mikkGen) join(t, gi int32, stack []int32) []int32 {
	grp := &g.groups[gi]
	tri := &g.tris[t]
	k := 0
	for k < 3 && g.corner(t, k) != grp.rep {
		k++
	}
	if k == 3 || tri.group[k] >= 0 {
		return stack
	}
	if tri.flags&mikkAnyGroup != 0 && tri.group == [3]int32{-1, -1, -1} {
		tri.flags &^= mikkPreserving
		if grp.preserving {
			tri.flags |= mikkPreserving
		}
	}
	if (tri.flags&mikkPreserving != 0) != grp.preserving {
		return stack
	}
	g.faces = append(g.faces, t)
	tri.group[k] = gi
	return append(stack, tri.neighbor[(k+2)%3], tri.neighbor[k])
}

// groupFrames splits each group into parts by the angular threshold and
// gives each member's corner its part's frame.
func (g *mikkGen) groupFrames() {
	var os, ot []vec3
	var members, partBuf []int32
	var parts [][2]int // partBuf ranges
	var partFrames []vec3
	for gi, grp := range g.groups {
		// In triangle order, so that each member list below comes out
		// sorted, as parts are compared and summed.
		faces := g.faces[grp.first : grp.first+grp.count]
		slices.Sort(faces)
		n := at3(g.nrm, grp.rep)
		os, ot = os[:0], ot[:0]
		for _, f := range faces {
			os = append(os, g.tris[f].os.inPlane(n).unit())
			ot = append(ot, g.tris[f].ot.inPlane(n).unit())
		}
		parts, partBuf, partFrames = parts[:0], partBuf[:0], partFrames[:0]
		for i, f := range faces {
			// members are positions in faces.
			members = members[:0]
			for j, t := range faces {
				anyGroup := (g.tris[f].flags|g.tris[t].flags)&mikkAnyGroup != 0
				if anyGroup || f == t || (os[i].dot(os[j]) > mikkThresholdCos && ot[i].dot(ot[j]) > mikkThresholdCos) {
					members = append(members, int32(j))
				}
			}
			p := slices.IndexFunc(parts, func(r [2]int) bool { return slices.Equal(partBuf[r[0]:r[1]], members) })
			if p < 0 {
				p = len(parts)
				parts = append(parts, [2]int{len(partBuf), len(partBuf) + len(members)})
				partBuf = append(partBuf, members...)
				partFrames = append(partFrames, g.evalFrame(faces, members, os, grp.rep))
			}
			k := slices.Index(g.tris[f].group[:], int32(gi))
			g.frames[3*g.triOf[f]+int32(k)] = mikkFrame{os: partFrames[p], preserving: grp.preserving, set: true}
		}
	}
}

// evalFrame is the tangent of welded vertex rep over the triangles
// faces[members]: their ∂P/∂u in the normal's plane (os, per face), weighted
// by each triangle's angle at the vertex (triangles without derivatives
// add nothing).
func (g *mikkGen) evalFrame(faces, members []int32, os []vec3, rep uint32) vec3 {
	var sum vec3
	n := at3(g.nrm, rep)
	p1 := at3(g.pos, rep)
	for _, j := range members {
		f := faces[j]
		if g.tris[f].flags&mikkAnyGroup != 0 {
			continue
		}
		k := 0
		for g.corner(f, k) != rep {
			k++
		}
		e1 := at3(g.pos, g.corner(f, (k+2)%3)).sub(p1).inPlane(n).unit()
		e2 := at3(g.pos, g.corner(f, (k+1)%3)).sub(p1).inPlane(n).unit()
		angle := float32(math.Acos(float64(min(1, max(-1, e1.dot(e2))))))
		sum = sum.add(os[j].scale(angle))
	}
	return sum.unit()
}

// degenerateFrames gives each corner of a degenerate triangle the frame
// of the first corner of a kept triangle at its welded vertex.
func (g *mikkGen) degenerateFrames() {
	first := make([]int32, len(g.pos)/3)
	for i := range first {
		first[i] = -1
	}
	for _, t := range g.triOf {
		for k := range 3 {
			if c := 3*t + int32(k); first[g.weld[c]] < 0 {
				first[g.weld[c]] = c
			}
		}
	}
	kept := 0
	for t := range int32(len(g.weld) / 3) {
		if kept < len(g.triOf) && g.triOf[kept] == t {
			kept++
			continue
		}
		for k := range 3 {
			c := 3*t + int32(k)
			if src := first[g.weld[c]]; src >= 0 {
				g.frames[c] = g.frames[src]
			}
		}
	}
}

// output writes each corner's tangent, made orthogonal to its normal and
// unit; where that leaves nothing (no frame, or a frame along the normal)
// it is some unit vector orthogonal to the normal, w = 1.
func (g *mikkGen) output() []float32 {
	out := make([]float32, 4*len(g.weld))
	for c, f := range g.frames {
		n := at3(g.nrm, g.weld[c])
		w := float32(1)
		if f.set && !f.preserving {
			w = -1
		}
		t := orthonormalTo(f.os, n)
		out[4*c], out[4*c+1], out[4*c+2], out[4*c+3] = t[0], t[1], t[2], w
	}
	return out
}

// orthonormalTo is t without its component along n (unit or zero),
// normalized; where that is not a finite direction, the axis n leans on
// least, treated the same way.
func orthonormalTo(t, n vec3) vec3 {
	nx, ny, nz := float64(n[0]), float64(n[1]), float64(n[2])
	reject := func(tx, ty, tz float64) (vec3, bool) {
		d := tx*nx + ty*ny + tz*nz
		tx, ty, tz = tx-d*nx, ty-d*ny, tz-d*nz
		l := math.Sqrt(tx*tx + ty*ty + tz*tz)
		return vec3{float32(tx / l), float32(ty / l), float32(tz / l)}, l > 1e-12 && !math.IsInf(l, 0) && !math.IsNaN(l)
	}
	if u, ok := reject(float64(t[0]), float64(t[1]), float64(t[2])); ok {
		return u
	}
	ax, ay, az := math.Abs(nx), math.Abs(ny), math.Abs(nz)
	var u vec3
	switch {
	case ay < ax && ay <= az:
		u, _ = reject(0, 1, 0)
	case az < ax && az < ay:
		u, _ = reject(0, 0, 1)
	default:
		u, _ = reject(1, 0, 0)
	}
	return u
}
