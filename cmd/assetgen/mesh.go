package main

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// ring is one cross-section of a part. r1 and r2 are the radii along the
// part's side1 and side2 directions; a ring with both radii zero is a pole
// that closes the tube. off shifts the ring centre away from the axis.
type ring struct {
	s, r1, r2 float64
	off       mgl64.Vec3
}

func (r ring) isPole() bool { return r.r1 == 0 && r.r2 == 0 }

// part is one body piece: a tube swept along a straight axis. Every piece is
// straight in the rest pose, so a single frame per piece is enough.
type part struct {
	name     string
	origin   mgl64.Vec3
	axis     mgl64.Vec3 // unit length; ring s values are measured along it
	rings    []ring
	segments int
	// exponent shapes the cross-section: 1 is an ellipse, smaller values
	// give the rounded-box look used for the feet.
	exponent float64
	region   region
	// flipV puts the end with the largest s at the top of the atlas region,
	// so that "up" on the body is "up" in the texture.
	flipV bool
	// uWarp, if set, remaps the around-the-axis coordinate (0..1) to spend
	// more texels on some directions, e.g. the face.
	uWarp func(float64) float64
	// uvMap, if set, replaces region in mapping (fu, fv) to a texture
	// coordinate; s is the ring's position along the axis.
	uvMap   func(fu, fv, s float64) [2]float64
	weights func(s float64, p mgl64.Vec3) []influence
}

// meshData is the single skinned primitive, in the layout written to the GLB.
type meshData struct {
	pos     []mgl64.Vec3
	nrm     []mgl64.Vec3
	uv      [][2]float64
	joints  [][4]uint16
	weights [][4]float32
	indices []uint16
}

func (m *meshData) vertexCount() int { return len(m.pos) }

// frame picks the cross-section axes of a part. side1 points to the back
// (or down, for parts lying along Z) so the cylindrical UV seam is hidden
// and the front of every part lands in the middle of its atlas region.
// side1 x side2 == axis, which makes the generated triangles CCW from outside.
func frame(axis mgl64.Vec3) (side1, side2 mgl64.Vec3) {
	ref := mgl64.Vec3{0, 0, -1}
	if math.Abs(axis.Z()) > 0.9 {
		ref = mgl64.Vec3{0, -1, 0}
	}
	side1 = ref.Sub(axis.Mul(axis.Dot(ref))).Normalize()
	side2 = axis.Cross(side1)
	return side1, side2
}

// signedPow keeps the quadrant of the superellipse while reshaping it.
func signedPow(x, e float64) float64 {
	if x < 0 {
		return -math.Pow(-x, e)
	}
	return math.Pow(x, e)
}

// renderVertex is a vertex as emitted: a shared surface point plus its UV.
// Seam and pole copies share one surface point so they get one normal.
type renderVertex struct {
	point  int
	fu, fv float64
	s      float64
}

// addPart tessellates p and appends it to the mesh.
func (m *meshData) addPart(p part) error {
	if err := p.validate(); err != nil {
		return err
	}
	side1, side2 := frame(p.axis)
	seg := p.segments
	sMin, sMax := p.rings[0].s, p.rings[len(p.rings)-1].s

	var points []mgl64.Vec3
	var verts []renderVertex
	ringStart := make([]int, len(p.rings))
	for k, r := range p.rings {
		fv := (r.s - sMin) / (sMax - sMin)
		if p.flipV {
			fv = 1 - fv
		}
		ringStart[k] = len(verts)
		center := p.origin.Add(p.axis.Mul(r.s)).Add(r.off)
		if r.isPole() {
			id := len(points)
			points = append(points, center)
			// One copy per segment, each with the U of its fan triangle,
			// so the texture does not swirl into the pole.
			for i := 0; i < seg; i++ {
				verts = append(verts, renderVertex{id, (float64(i) + 0.5) / float64(seg), fv, r.s})
			}
			continue
		}
		base := len(points)
		for i := 0; i < seg; i++ {
			th := 2 * math.Pi * float64(i) / float64(seg)
			c1 := signedPow(math.Cos(th), p.exponent) * r.r1
			c2 := signedPow(math.Sin(th), p.exponent) * r.r2
			points = append(points, center.Add(side1.Mul(c1)).Add(side2.Mul(c2)))
		}
		// seg+1 vertices: the last repeats the first point with U=1, so the
		// UV seam does not wrap back across the whole region.
		for i := 0; i <= seg; i++ {
			verts = append(verts, renderVertex{base + i%seg, float64(i) / float64(seg), fv, r.s})
		}
	}

	if p.uWarp != nil {
		for i := range verts {
			verts[i].fu = p.uWarp(verts[i].fu)
		}
	}
	tris := tessellate(p.rings, ringStart, seg)
	normals := smoothNormals(points, verts, tris)

	if len(m.pos)+len(verts) > math.MaxUint16 { // 65535 is the primitive restart value
		return fmt.Errorf("part %s: too many vertices for 16-bit indices", p.name)
	}
	first := len(m.pos)
	for _, v := range verts {
		pt := points[v.point]
		js, ws, err := packInfluences(p.weights(v.s, pt))
		if err != nil {
			return fmt.Errorf("part %s: %w", p.name, err)
		}
		m.pos = append(m.pos, pt)
		m.nrm = append(m.nrm, normals[v.point])
		if p.uvMap != nil {
			m.uv = append(m.uv, p.uvMap(v.fu, v.fv, v.s))
		} else {
			m.uv = append(m.uv, p.region.uv(v.fu, v.fv))
		}
		m.joints = append(m.joints, js)
		m.weights = append(m.weights, ws)
	}
	for _, i := range tris {
		m.indices = append(m.indices, uint16(first+i))
	}
	return nil
}

func (p part) validate() error {
	n := len(p.rings)
	if n < 2 || p.segments < 3 || p.exponent <= 0 {
		return fmt.Errorf("part %s: needs at least 2 rings, 3 segments and a positive exponent", p.name)
	}
	for k := 1; k < n; k++ {
		if p.rings[k].s <= p.rings[k-1].s {
			return fmt.Errorf("part %s: ring %d is not after ring %d along the axis", p.name, k, k-1)
		}
		if k < n-1 && p.rings[k].isPole() {
			return fmt.Errorf("part %s: only the first and last ring may be poles", p.name)
		}
	}
	return nil
}

// tessellate connects consecutive rings. Rings run along +axis and points
// run counter-clockwise around it, so (a, b, c) below is CCW from outside.
func tessellate(rings []ring, start []int, seg int) []int {
	var tris []int
	for k := 0; k+1 < len(rings); k++ {
		a, b := start[k], start[k+1]
		for i := 0; i < seg; i++ {
			switch {
			case rings[k].isPole():
				tris = append(tris, a+i, b+i+1, b+i)
			case rings[k+1].isPole():
				tris = append(tris, a+i, a+i+1, b+i)
			default:
				tris = append(tris, a+i, a+i+1, b+i+1, a+i, b+i+1, b+i)
			}
		}
	}
	return tris
}

// smoothNormals averages area-weighted face normals per surface point, which
// gives correct normals at poles and across the UV seam without special cases.
func smoothNormals(points []mgl64.Vec3, verts []renderVertex, tris []int) []mgl64.Vec3 {
	acc := make([]mgl64.Vec3, len(points))
	for t := 0; t+2 < len(tris); t += 3 {
		ia, ib, ic := verts[tris[t]].point, verts[tris[t+1]].point, verts[tris[t+2]].point
		a, b, c := points[ia], points[ib], points[ic]
		n := b.Sub(a).Cross(c.Sub(a))
		acc[ia] = acc[ia].Add(n)
		acc[ib] = acc[ib].Add(n)
		acc[ic] = acc[ic].Add(n)
	}
	for i := range acc {
		acc[i] = acc[i].Normalize()
	}
	return acc
}
