package gltfload

import (
	"fmt"
	"math"
	"sort"

	"github.com/qmuntal/gltf"
)

func (l *loader) loadMeshes() error {
	for mi, m := range l.doc.Meshes {
		if m == nil {
			return fmt.Errorf("meshes[%d]: null", mi)
		}
		mesh := Mesh{Name: m.Name}
		for pi, p := range m.Primitives {
			where := fmt.Sprintf("meshes[%d].primitives[%d]", mi, pi)
			if p == nil {
				return fmt.Errorf("%s: null", where)
			}
			prim, err := l.loadPrimitive(where, p)
			if err != nil {
				return err
			}
			mesh.Primitives = append(mesh.Primitives, prim)
		}
		l.model.Meshes = append(l.model.Meshes, mesh)
	}
	return nil
}

func (l *loader) loadPrimitive(where string, p *gltf.Primitive) (Primitive, error) {
	prim := Primitive{Material: -1}
	if p.Material != nil {
		if *p.Material < 0 || *p.Material >= len(l.model.Materials) {
			return prim, fmt.Errorf("%s.material: materials[%d] does not exist (%d materials)", where, *p.Material, len(l.model.Materials))
		}
		prim.Material = *p.Material
	}
	pos, ok := p.Attributes[gltf.POSITION]
	if !ok {
		l.warnf("%s: no POSITION attribute; not drawn", where)
		return prim, nil
	}
	var err error
	if prim.Positions, _, err = l.floats(pos, gltf.AccessorVec3); err != nil {
		return prim, fmt.Errorf("%s.attributes.POSITION: %w", where, err)
	}
	for k, v := range prim.Positions {
		if !finite(float64(v)) {
			return prim, fmt.Errorf("%s.attributes.POSITION: vertex %d is not finite", where, k/3)
		}
	}
	n := prim.NumVertices()
	attr := func(sem string, typ gltf.AccessorType) ([]float32, error) {
		acc, ok := p.Attributes[sem]
		if !ok {
			return nil, nil
		}
		v, comps, err := l.floats(acc, typ)
		if err != nil {
			return nil, fmt.Errorf("%s.attributes.%s: %w", where, sem, err)
		}
		if len(v)/comps != n {
			return nil, fmt.Errorf("%s.attributes.%s: accessors[%d] has %d elements, POSITION has %d", where, sem, acc, len(v)/comps, n)
		}
		return v, nil
	}
	if prim.Normals, err = attr(gltf.NORMAL, gltf.AccessorVec3); err != nil {
		return prim, err
	}
	if prim.UV0, err = attr(gltf.TEXCOORD_0, gltf.AccessorVec2); err != nil {
		return prim, err
	}
	if acc, ok := p.Attributes[gltf.COLOR_0]; ok {
		if prim.Colors, err = l.colors(where, acc, n); err != nil {
			return prim, err
		}
	}
	if err := l.checkNormals(where, prim.Normals); err != nil {
		return prim, err
	}
	if prim.Material >= 0 {
		if tc := l.model.Materials[prim.Material].TexCoord; tc >= 0 {
			if _, ok := p.Attributes[fmt.Sprintf("TEXCOORD_%d", tc)]; !ok {
				return prim, fmt.Errorf("%s: materials[%d] samples TEXCOORD_%d, which the primitive does not have", where, prim.Material, tc)
			}
		}
	}
	if err := l.loadInfluences(where, p, &prim, attr); err != nil {
		return prim, err
	}
	if err := l.loadIndices(where, p, &prim); err != nil {
		return prim, err
	}
	for ti, t := range p.Targets {
		for sem, acc := range t {
			if _, _, err := l.floats(acc); err != nil {
				return prim, fmt.Errorf("%s.targets[%d].%s: %w", where, ti, sem, err)
			}
		}
	}
	return prim, nil
}

// colors reads COLOR_0 (VEC3 or VEC4) as RGBA.
func (l *loader) colors(where string, acc, n int) ([]float32, error) {
	v, comps, err := l.floats(acc, gltf.AccessorVec3, gltf.AccessorVec4)
	if err != nil {
		return nil, fmt.Errorf("%s.attributes.COLOR_0: %w", where, err)
	}
	if len(v)/comps != n {
		return nil, fmt.Errorf("%s.attributes.COLOR_0: accessors[%d] has %d elements, POSITION has %d", where, acc, len(v)/comps, n)
	}
	if comps == 4 {
		return v, nil
	}
	rgba := make([]float32, n*4)
	for i := 0; i < n; i++ {
		copy(rgba[i*4:], v[i*3:i*3+3])
		rgba[i*4+3] = 1
	}
	return rgba, nil
}

// checkNormals refuses normals that have no direction and normalizes the
// rest, with a warning when the file's were not unit length.
func (l *loader) checkNormals(where string, n []float32) error {
	worst := 0.0
	for k := 0; k+2 < len(n); k += 3 {
		ln := math.Sqrt(float64(n[k]*n[k] + n[k+1]*n[k+1] + n[k+2]*n[k+2]))
		if !(ln > 1e-6) || !finite(ln) {
			return fmt.Errorf("%s.attributes.NORMAL: vertex %d has normal (%v, %v, %v), which has no direction", where, k/3, n[k], n[k+1], n[k+2])
		}
		worst = math.Max(worst, math.Abs(ln-1))
		normalize3(n[k : k+3])
	}
	if worst > 1e-3 {
		l.warnf("%s.attributes.NORMAL: normals up to %.3g away from unit length; normalized", where, worst)
	}
	return nil
}

func normalize3(v []float32) {
	l := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	if l > 0 && finite(float64(l)) {
		v[0], v[1], v[2] = v[0]/l, v[1]/l, v[2]/l
	} else {
		v[0], v[1], v[2] = 0, 1, 0
	}
}

// loadInfluences reads every JOINTS_n/WEIGHTS_n pair and derives the four
// strongest influences per vertex for the GPU.
func (l *loader) loadInfluences(where string, p *gltf.Primitive, prim *Primitive, attr func(string, gltf.AccessorType) ([]float32, error)) error {
	n := prim.NumVertices()
	sets := 0
	for {
		_, hasJ := p.Attributes[fmt.Sprintf("JOINTS_%d", sets)]
		_, hasW := p.Attributes[fmt.Sprintf("WEIGHTS_%d", sets)]
		if !hasJ && !hasW {
			break
		}
		if hasJ != hasW {
			return fmt.Errorf("%s.attributes: JOINTS_%d and WEIGHTS_%d must come together", where, sets, sets)
		}
		sets++
	}
	if sets == 0 {
		return nil
	}
	prim.Sets = sets
	prim.AllJoints = make([]uint16, n*4*sets)
	prim.AllWeights = make([]float32, n*4*sets)
	for s := 0; s < sets; s++ {
		jsem, wsem := fmt.Sprintf("JOINTS_%d", s), fmt.Sprintf("WEIGHTS_%d", s)
		jacc := p.Attributes[jsem]
		j, _, err := l.uints(jacc, gltf.AccessorVec4)
		if err != nil {
			return fmt.Errorf("%s.attributes.%s: %w", where, jsem, err)
		}
		if len(j)/4 != n {
			return fmt.Errorf("%s.attributes.%s: accessors[%d] has %d elements, POSITION has %d", where, jsem, jacc, len(j)/4, n)
		}
		w, err := attr(wsem, gltf.AccessorVec4)
		if err != nil {
			return err
		}
		for v := 0; v < n; v++ {
			for c := 0; c < 4; c++ {
				ji, wi := j[v*4+c], w[v*4+c]
				if !finite(float64(wi)) || wi < 0 {
					return fmt.Errorf("%s.attributes.%s: vertex %d weight %d is %v; weights must be finite and not negative", where, wsem, v, c, wi)
				}
				if ji > math.MaxUint16 {
					return fmt.Errorf("%s.attributes.%s: vertex %d joint %d is %d", where, jsem, v, c, ji)
				}
				k := v*4*sets + s*4 + c
				prim.AllJoints[k] = uint16(ji)
				prim.AllWeights[k] = wi
			}
		}
	}
	prim.Joints = make([]uint16, n*4)
	prim.Weights = make([]float32, n*4)
	var dropSum float64
	var unweighted int
	type infl struct {
		j uint16
		w float32
	}
	buf := make([]infl, 0, 4*sets)
	for v := 0; v < n; v++ {
		buf = buf[:0]
		var total float32
	next:
		for k := v * 4 * sets; k < (v+1)*4*sets; k++ {
			w := prim.AllWeights[k]
			if w == 0 {
				continue
			}
			total += w
			for b := range buf {
				if buf[b].j == prim.AllJoints[k] {
					buf[b].w += w // the same joint twice counts once, with both weights
					continue next
				}
			}
			buf = append(buf, infl{prim.AllJoints[k], w})
		}
		if total == 0 {
			unweighted++
			prim.Weights[v*4] = 1 // rigidly bound to skin joint 0 rather than collapsing to the origin
			continue
		}
		sort.SliceStable(buf, func(a, b int) bool { return buf[a].w > buf[b].w })
		if len(buf) > 4 {
			buf = buf[:4]
		}
		var kept float32
		for _, b := range buf {
			kept += b.w
		}
		for c, b := range buf {
			prim.Joints[v*4+c] = b.j
			prim.Weights[v*4+c] = b.w / kept
		}
		drop := 1 - kept/total
		if drop > prim.DroppedMax {
			prim.DroppedMax = drop
		}
		dropSum += float64(drop)
	}
	prim.DroppedMean = float32(dropSum / float64(n))
	if unweighted > 0 {
		l.warnf("%s: %d vertices have no weight; bound to joint 0", where, unweighted)
	}
	return nil
}

func (l *loader) loadIndices(where string, p *gltf.Primitive, prim *Primitive) error {
	n := prim.NumVertices()
	var idx []uint32
	if p.Indices != nil {
		var err error
		if idx, _, err = l.uints(*p.Indices, gltf.AccessorScalar); err != nil {
			return fmt.Errorf("%s.indices: %w", where, err)
		}
		for k, i := range idx {
			if int64(i) >= int64(n) {
				return fmt.Errorf("%s.indices: index %d is %d but there are %d vertices", where, k, i, n)
			}
		}
	} else {
		idx = make([]uint32, n)
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	switch p.Mode {
	case gltf.PrimitiveTriangles:
		if len(idx)%3 != 0 {
			return fmt.Errorf("%s: %d %s do not make whole triangles (mode TRIANGLES needs a multiple of 3)", where, len(idx), countNoun(p))
		}
		prim.Indices = idx
	case gltf.PrimitiveLines:
		if len(idx)%2 != 0 {
			return fmt.Errorf("%s: %d %s do not make whole lines (mode LINES needs an even count)", where, len(idx), countNoun(p))
		}
		l.warnf("%s: mode %s is not drawn (only triangles)", where, p.Mode)
	case gltf.PrimitiveTriangleStrip:
		for k := 0; k+2 < len(idx); k++ {
			if k%2 == 0 {
				prim.Indices = append(prim.Indices, idx[k], idx[k+1], idx[k+2])
			} else {
				prim.Indices = append(prim.Indices, idx[k+1], idx[k], idx[k+2])
			}
		}
	case gltf.PrimitiveTriangleFan:
		for k := 1; k+1 < len(idx); k++ {
			prim.Indices = append(prim.Indices, idx[0], idx[k], idx[k+1])
		}
	default:
		l.warnf("%s: mode %s is not drawn (only triangles)", where, p.Mode)
	}
	return nil
}

func countNoun(p *gltf.Primitive) string {
	if p.Indices != nil {
		return "indices"
	}
	return "vertices"
}

// WithFlatNormals returns a copy whose triangles share no vertices and
// carry face normals, which glTF prescribes when a primitive has none. The
// copy is for drawing; reference skinning keeps the file's vertex order.
func (p *Primitive) WithFlatNormals() Primitive {
	q := Primitive{Material: p.Material, Sets: p.Sets, DroppedMax: p.DroppedMax, DroppedMean: p.DroppedMean}
	m := len(p.Indices)
	q.Positions = make([]float32, 0, m*3)
	q.Normals = make([]float32, m*3)
	q.Indices = make([]uint32, m)
	if p.UV0 != nil {
		q.UV0 = make([]float32, 0, m*2)
	}
	if p.Colors != nil {
		q.Colors = make([]float32, 0, m*4)
	}
	if p.Joints != nil {
		q.Joints = make([]uint16, 0, m*4)
		q.Weights = make([]float32, 0, m*4)
	}
	for k, i := range p.Indices {
		q.Indices[k] = uint32(k)
		q.Positions = append(q.Positions, p.Positions[i*3:i*3+3]...)
		if p.UV0 != nil {
			q.UV0 = append(q.UV0, p.UV0[i*2:i*2+2]...)
		}
		if p.Colors != nil {
			q.Colors = append(q.Colors, p.Colors[i*4:i*4+4]...)
		}
		if p.Joints != nil {
			q.Joints = append(q.Joints, p.Joints[i*4:i*4+4]...)
			q.Weights = append(q.Weights, p.Weights[i*4:i*4+4]...)
		}
	}
	for t := 0; t+2 < m; t += 3 {
		a, b, c := q.Positions[t*3:t*3+3], q.Positions[t*3+3:t*3+6], q.Positions[t*3+6:t*3+9]
		e1 := [3]float32{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
		e2 := [3]float32{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		nrm := []float32{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		normalize3(nrm)
		for v := 0; v < 3; v++ {
			copy(q.Normals[(t+v)*3:], nrm)
		}
	}
	return q
}
