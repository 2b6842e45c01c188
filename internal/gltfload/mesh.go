package gltfload

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/qmuntal/gltf"
)

func (l *loader) loadMeshes() error {
	l.meshJoints = make([]meshJoint, len(l.doc.Meshes))
	l.meshTargets = make([]int, len(l.doc.Meshes))
	for mi, m := range l.doc.Meshes {
		if m == nil {
			return fmt.Errorf("meshes[%d]: null", mi)
		}
		mesh := Mesh{Name: m.Name}
		l.meshJoints[mi] = meshJoint{joint: -1, prim: -1}
		for pi, p := range m.Primitives {
			where := fmt.Sprintf("meshes[%d].primitives[%d]", mi, pi)
			if p == nil {
				return fmt.Errorf("%s: null", where)
			}
			if pi > 0 && len(p.Targets) != len(m.Primitives[0].Targets) {
				return withCode("MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", fmt.Errorf("%s.targets: %d morph targets, but primitives[0] has %d; every primitive of a mesh has the same number", where, len(p.Targets), len(m.Primitives[0].Targets)))
			}
			l.checkPrimitiveLayout(where, p)
			prim, err := l.loadPrimitive(where, p)
			if errors.Is(err, errNoBytes) {
				l.issue("VIEWER_NOT_DRAWN", where, "not drawn: %s", strings.TrimPrefix(err.Error(), where+"."))
				continue
			}
			if err != nil {
				return err
			}
			if prim.Joints != nil {
				l.meshJoints[mi].skinned = true
				if mj := l.maxUsedJoint(&prim); mj > l.meshJoints[mi].joint {
					l.meshJoints[mi].joint, l.meshJoints[mi].prim = mj, pi
				}
			}
			mesh.Primitives = append(mesh.Primitives, prim)
		}
		if len(m.Primitives) > 0 {
			l.meshTargets[mi] = len(m.Primitives[0].Targets)
		}
		mesh.Targets = l.meshTargets[mi]
		if len(m.Weights) > 0 && len(m.Weights) != l.meshTargets[mi] {
			l.issue("MESH_INVALID_WEIGHTS_COUNT", fmt.Sprintf("meshes[%d].weights", mi), "%d weights for %d morph targets; ignored, the weights start at 0", len(m.Weights), l.meshTargets[mi])
		} else if len(m.Weights) > 0 {
			mesh.Weights = make([]float32, len(m.Weights))
			for k, w := range m.Weights {
				mesh.Weights[k] = float32(w)
			}
		}
		if mesh.Targets > 0 {
			mesh.TargetNames = l.targetNames(mi, m.Extras, mesh.Targets)
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
	// Every attribute, read or not, has the vertex count and its
	// semantic's type: a mismatch is a broken file, not unused data.
	sems := make([]string, 0, len(p.Attributes))
	for sem := range p.Attributes {
		sems = append(sems, sem)
	}
	slices.Sort(sems)
	n := -1
	if pos, ok := p.Attributes[gltf.POSITION]; ok {
		if err := l.checkAccessor(pos); err != nil {
			return prim, fmt.Errorf("%s.attributes.POSITION: %w", where, err)
		}
		n = l.doc.Accessors[pos].Count
	}
	for _, sem := range sems {
		acc := p.Attributes[sem]
		aw := where + ".attributes." + sem
		if err := l.checkAccessor(acc); err != nil {
			return prim, fmt.Errorf("%s: %w", aw, err)
		}
		if rule, ok := attributeRule(sem); ok {
			if err := l.expect(aw, acc, rule); err != nil {
				return prim, err
			}
		}
		if c := l.doc.Accessors[acc].Count; n >= 0 && c != n {
			return prim, fmt.Errorf("%s: accessors[%d] has %d elements, POSITION has %d; every attribute has one per vertex", aw, acc, c, n)
		}
	}
	pos, ok := p.Attributes[gltf.POSITION]
	if !ok {
		l.issue("MESH_PRIMITIVE_NO_POSITION", where, "no POSITION attribute; not drawn")
		return prim, nil
	}
	var err error
	if prim.Positions, _, err = l.floats(where+".attributes.POSITION", pos, asIs); err != nil {
		return prim, err
	}
	for k, v := range firstCheck(l, "finite", pos, 0, prim.Positions) {
		if !finite(float64(v)) {
			return prim, fmt.Errorf("%s.attributes.POSITION: accessors[%d] vertex %d is not finite", where, pos, k/3)
		}
	}
	attr := func(sem string) ([]float32, error) {
		acc, ok := p.Attributes[sem]
		if !ok {
			return nil, nil
		}
		use := asIs
		if sem == gltf.NORMAL {
			use = asNormals
		}
		v, _, err := l.floats(where+".attributes."+sem, acc, use)
		if err != nil {
			return nil, err
		}
		for k, x := range firstCheck(l, "finite", acc, int(use), v) {
			if !finite(float64(x)) {
				return nil, fmt.Errorf("%s.attributes.%s: accessors[%d] value %d is not finite", where, sem, acc, k)
			}
		}
		return v, nil
	}
	if prim.Normals, err = attr(gltf.NORMAL); err != nil {
		return prim, err
	}
	if prim.UV0, err = attr(gltf.TEXCOORD_0); err != nil {
		return prim, err
	}
	if prim.UV1, err = attr(gltf.TEXCOORD_1); err != nil {
		return prim, err
	}
	if prim.Tangents, err = attr(gltf.TANGENT); err != nil {
		return prim, err
	}
	if prim.Normals == nil || len(prim.Tangents) != 4*prim.NumVertices() {
		// glTF: tangents without normals are ignored; a TANGENT that is
		// not VEC4 was reported by validate.
		prim.Tangents = nil
	}
	if acc, ok := p.Attributes[gltf.COLOR_0]; ok {
		if prim.Colors, err = l.colors(where, acc); err != nil {
			return prim, err
		}
	}
	if nacc, ok := p.Attributes[gltf.NORMAL]; ok {
		l.checkNormals(where, nacc, firstCheck(l, "normals", nacc, 0, prim.Normals))
	}
	if prim.Material >= 0 {
		if mat := l.model.Materials[prim.Material]; mat.BaseColorTexture.Texture >= 0 {
			tc := mat.BaseColorTexture.TexCoord
			if _, ok := p.Attributes[fmt.Sprintf("TEXCOORD_%d", tc)]; !ok {
				return prim, fmt.Errorf("%s: materials[%d] samples TEXCOORD_%d, which the primitive does not have", where, prim.Material, tc)
			}
		}
		if tc := l.maxTexCoord(prim.Material); tc >= 0 {
			if _, ok := p.Attributes[fmt.Sprintf("TEXCOORD_%d", tc)]; !ok {
				l.issue("MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", where+".material", "materials[%d] has a texture on TEXCOORD_%d, which the primitive does not have; that texture is not drawn", prim.Material, tc)
			}
		}
	}
	if err := l.loadInfluences(where, p, &prim); err != nil {
		return prim, err
	}
	if err := l.loadIndices(where, p, &prim); err != nil {
		return prim, err
	}
	if err := l.loadTargets(where, p, &prim); err != nil {
		return prim, err
	}
	if uv := l.tangentUV(&prim); uv != nil {
		// A valid file whose tangents would cost more than its budget
		// still draws, with the shader's own frame.
		if need := tangentBytes(prim.NumVertices(), len(prim.Indices)); need > l.budget {
			l.issue("VIEWER_NOTE", where, "tangents not generated for the normal texture: %d bytes of work for %d corners, more than the %d left of this file's budget", need, len(prim.Indices), l.budget)
		} else {
			l.budget -= need
			prim.generateTangents(uv)
		}
	}
	return prim, nil
}

// warnStrideVertex notes vertex attributes whose stride or offset breaks
// the 4-byte alignment glTF asks of them (harmless here: reads are
// byte-wise).
func (l *loader) warnStrideVertex(where string, acc int) {
	a := l.doc.Accessors[acc]
	if a.BufferView == nil {
		return
	}
	bv := l.doc.BufferViews[*a.BufferView]
	if (bv.ByteOffset+a.ByteOffset)%4 != 0 {
		l.issue("MESH_PRIMITIVE_ACCESSOR_UNALIGNED", where, "accessors[%d] starts at byte %d of its buffer, not a multiple of 4 as glTF asks of vertex attributes; read anyway", acc, bv.ByteOffset+a.ByteOffset)
	}
}

// loadTargets reads the morph targets: each displacement accessor has the
// vertex count and finite values; POSITION and NORMAL are kept.
func (l *loader) loadTargets(where string, p *gltf.Primitive, prim *Primitive) error {
	n := prim.NumVertices()
	for ti, t := range p.Targets {
		var mt MorphTarget
		for _, sem := range slices.Sorted(maps.Keys(t)) {
			acc := t[sem]
			tw := fmt.Sprintf("%s.targets[%d].%s", where, ti, sem)
			switch sem {
			case gltf.POSITION, gltf.NORMAL, gltf.TANGENT:
				if err := l.expect(tw, acc, targetRule); err != nil {
					return err
				}
			default:
				if err := l.checkAccessor(acc); err != nil {
					return fmt.Errorf("%s: %w", tw, err)
				}
			}
			if c := l.doc.Accessors[acc].Count; c != n {
				return fmt.Errorf("%s: accessors[%d] has %d elements, POSITION has %d", tw, acc, c, n)
			}
			v, _, err := l.floats(tw, acc, asIs)
			if err != nil {
				return err
			}
			for k, x := range firstCheck(l, "finite", acc, int(asIs), v) {
				if !finite(float64(x)) {
					return fmt.Errorf("%s: accessors[%d] value %d is not finite", tw, acc, k)
				}
			}
			switch {
			case sem == gltf.POSITION:
				mt.Positions = v
			case sem == gltf.NORMAL && prim.Normals != nil:
				mt.Normals = v
			}
		}
		prim.Targets = append(prim.Targets, mt)
	}
	return nil
}

// colors reads COLOR_0 (VEC3 or VEC4) as RGBA.
func (l *loader) colors(where string, acc int) ([]float32, error) {
	cw := where + ".attributes.COLOR_0"
	v, comps, err := l.floats(cw, acc, asIs)
	if err != nil {
		return nil, err
	}
	for k, x := range firstCheck(l, "finite", acc, int(asIs), v) {
		if !finite(float64(x)) {
			return nil, fmt.Errorf("%s: accessors[%d] value %d is not finite", cw, acc, k)
		}
	}
	if comps == 4 {
		return v, nil
	}
	if rgba, ok := l.rgbaCache[acc]; ok {
		return rgba, nil
	}
	n := len(v) / 3
	if err := l.charge(cw, int64(n)*16); err != nil {
		return nil, err
	}
	rgba := make([]float32, n*4)
	for i := 0; i < n; i++ {
		copy(rgba[i*4:], v[i*3:i*3+3])
		rgba[i*4+3] = 1
	}
	if l.rgbaCache == nil {
		l.rgbaCache = map[int][]float32{}
	}
	l.rgbaCache[acc] = rgba
	return rgba, nil
}

// checkNormals (of finite values) keeps zero normals as zero (the shader lights them as facing the camera), with a report line,
// and normalizes the rest, with a warning when the file's were not unit
// length. acc is the NORMAL accessor.
func (l *loader) checkNormals(where string, acc int, n []float32) {
	worst := 0.0
	zeros := 0
	for k := 0; k+2 < len(n); k += 3 {
		x, y, z := float64(n[k]), float64(n[k+1]), float64(n[k+2])
		ln := math.Sqrt(x*x + y*y + z*z)
		if !(ln > 1e-6) {
			if zeros == 0 {
				// Zeros of an accessor without a bufferView are no error in
				// the file's data (glTF-Validator does not read them).
				code := "ACCESSOR_VECTOR3_NON_UNIT"
				if l.doc.Accessors[acc].BufferView == nil {
					code = "VIEWER_NOTE"
				}
				l.issue(code, where+".attributes.NORMAL", "vertex %d has normal (%v, %v, %v), which has no direction; lit as facing the camera", k/3, n[k], n[k+1], n[k+2])
			}
			zeros++
			n[k], n[k+1], n[k+2] = 0, 0, 0
			continue
		}
		worst = math.Max(worst, math.Abs(ln-1))
		n[k], n[k+1], n[k+2] = float32(x/ln), float32(y/ln), float32(z/ln)
	}
	if worst > unitTolerance {
		l.issue("ACCESSOR_VECTOR3_NON_UNIT", where+".attributes.NORMAL", "normals up to %.3g away from unit length; normalized", worst)
	}
}

func normalize3(v []float32) {
	l := float32(math.Sqrt(float64(v[0])*float64(v[0]) + float64(v[1])*float64(v[1]) + float64(v[2])*float64(v[2])))
	if l > 0 && finite(float64(l)) {
		v[0], v[1], v[2] = v[0]/l, v[1]/l, v[2]/l
	} else {
		v[0], v[1], v[2] = 0, 1, 0
	}
}

// weightTolerance is how far a vertex's weights may sum from 1 before a
// warning: normalized bytes round each of four weights by up to 1/510.
func weightTolerance(ct gltf.ComponentType) float64 {
	if ct == gltf.ComponentUbyte {
		return 4.0 / 510
	}
	return 2e-3
}

// loadInfluences reads every JOINTS_n/WEIGHTS_n pair and derives the four
// strongest influences per vertex for the GPU.
func (l *loader) loadInfluences(where string, p *gltf.Primitive, prim *Primitive) error {
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
	key := ""
	for s := 0; s < sets; s++ {
		key += fmt.Sprintf("%d/%d,", p.Attributes[fmt.Sprintf("JOINTS_%d", s)], p.Attributes[fmt.Sprintf("WEIGHTS_%d", s)])
	}
	if in, ok := l.inflCache[key]; ok {
		in.apply(prim)
		return nil
	}
	if err := l.charge(where+": skin influences", int64(n)*int64(sets)*4*6+int64(n)*4*6); err != nil {
		return err
	}
	prim.Sets = sets
	prim.AllJoints = make([]uint16, n*4*sets)
	prim.AllWeights = make([]float32, n*4*sets)
	tolerance := 0.0
	for s := 0; s < sets; s++ {
		jsem, wsem := fmt.Sprintf("JOINTS_%d", s), fmt.Sprintf("WEIGHTS_%d", s)
		jacc, wacc := p.Attributes[jsem], p.Attributes[wsem]
		jw, ww := where+".attributes."+jsem, where+".attributes."+wsem
		tolerance = math.Max(tolerance, weightTolerance(l.doc.Accessors[wacc].ComponentType))
		j, _, err := l.uints(jw, jacc)
		if err != nil {
			return err
		}
		w, _, err := l.floats(ww, wacc, asIs)
		if err != nil {
			return err
		}
		for v := 0; v < n; v++ {
			for c := 0; c < 4; c++ {
				ji, wi := j[v*4+c], w[v*4+c]
				if !finite(float64(wi)) || wi < 0 {
					return fmt.Errorf("%s: accessors[%d] vertex %d weight %d is %v; weights must be finite and not negative", ww, wacc, v, c, wi)
				}
				if ji > math.MaxUint16 {
					return fmt.Errorf("%s: accessors[%d] vertex %d joint %d is %d, beyond any skin", jw, jacc, v, c, ji)
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
	var unweighted, offSum int
	worstSum, worstDev, worstVertex := 0.0, 0.0, -1
	type infl struct {
		j     uint16
		first int // position among the vertex's influences: ties keep file order
		w     float32
	}
	buf := make([]infl, 0, 4*sets)
	for v := 0; v < n; v++ {
		buf = buf[:0]
		var total float64
		for k := v * 4 * sets; k < (v+1)*4*sets; k++ {
			if w := prim.AllWeights[k]; w != 0 {
				total += float64(w)
				buf = append(buf, infl{prim.AllJoints[k], k, w})
			}
		}
		if total == 0 {
			unweighted++ // all weights stay zero: the vertex keeps its bind position
			continue
		}
		if d := math.Abs(total - 1); d > tolerance {
			offSum++
			if d > worstDev {
				worstSum, worstDev, worstVertex = total, d, v
			}
		}
		// The same joint twice counts once, with both weights. Sorting
		// keeps this O(k log k) however many sets a file declares.
		slices.SortFunc(buf, func(a, b infl) int { return cmp.Or(cmp.Compare(a.j, b.j), cmp.Compare(a.first, b.first)) })
		m := 0
		for _, b := range buf {
			if m > 0 && buf[m-1].j == b.j {
				buf[m-1].w += b.w
				continue
			}
			buf[m] = b
			m++
		}
		buf = buf[:m]
		slices.SortFunc(buf, func(a, b infl) int { return cmp.Or(cmp.Compare(b.w, a.w), cmp.Compare(a.first, b.first)) })
		if len(buf) > 4 {
			buf = buf[:4]
		}
		var kept float64
		for _, b := range buf {
			kept += float64(b.w)
		}
		for c, b := range buf {
			prim.Joints[v*4+c] = b.j
			prim.Weights[v*4+c] = float32(float64(b.w) / kept)
		}
		// Summed in another order the kept weights can come out a rounding
		// above the total: nothing dropped is 0, not -0.000000.
		drop := float32(max(0, 1-kept/total))
		if drop > prim.DroppedMax {
			prim.DroppedMax = drop
		}
		dropSum += float64(drop)
	}
	prim.DroppedMean = float32(dropSum / float64(n))
	if l.inflCache == nil {
		l.inflCache = map[string]*influences{}
	}
	l.inflCache[key] = &influences{prim.Sets, prim.AllJoints, prim.AllWeights, prim.Joints, prim.Weights, prim.DroppedMax, prim.DroppedMean}
	if offSum > 0 || unweighted > 0 {
		ww := where + ".attributes.WEIGHTS_0"
		switch {
		case unweighted == 0:
			l.issue("ACCESSOR_WEIGHTS_NON_NORMALIZED", ww, "weights of %d vertices do not sum to 1 (worst: vertex %d sums to %.4g); normalized", offSum, worstVertex, worstSum)
		case offSum == 0:
			l.issue("ACCESSOR_WEIGHTS_NON_NORMALIZED", ww, "%d vertices have no weight; they stay at their bind position", unweighted)
		default:
			l.issue("ACCESSOR_WEIGHTS_NON_NORMALIZED", ww, "weights of %d vertices do not sum to 1 (worst: vertex %d sums to %.4g), normalized, and %d vertices have no weight, kept at their bind position", offSum, worstVertex, worstSum, unweighted)
		}
	}
	return nil
}

// influences are the skinning arrays of one set of JOINTS_n/WEIGHTS_n
// accessors, shared by the primitives that use the same set.
type influences struct {
	sets                    int
	allJoints               []uint16
	allWeights              []float32
	joints                  []uint16
	weights                 []float32
	droppedMax, droppedMean float32
}

func (in *influences) apply(p *Primitive) {
	p.Sets, p.AllJoints, p.AllWeights, p.Joints, p.Weights = in.sets, in.allJoints, in.allWeights, in.joints, in.weights
	p.DroppedMax, p.DroppedMean = in.droppedMax, in.droppedMean
}

// maxUsedJoint is the largest joint index a vertex uses with weight, -1
// for none; once per shared influence array.
func (l *loader) maxUsedJoint(p *Primitive) int {
	key := &p.AllJoints[0]
	if mj, ok := l.maxJoint[key]; ok {
		return mj
	}
	if l.maxJoint == nil {
		l.maxJoint = map[*uint16]int{}
	}
	l.maxJoint[key] = maxUsedJoint(p)
	return l.maxJoint[key]
}

func maxUsedJoint(p *Primitive) int {
	mj := -1
	for k, j := range p.AllJoints {
		if p.AllWeights[k] != 0 && int(j) > mj {
			mj = int(j)
		}
	}
	return mj
}

func (l *loader) loadIndices(where string, p *gltf.Primitive, prim *Primitive) error {
	n := prim.NumVertices()
	var idx []uint32
	if p.Indices != nil {
		iw := where + ".indices"
		acc := *p.Indices
		if err := l.expect(iw, acc, indicesRule); err != nil {
			return err
		}
		l.warnStride(acc, "indices")
		var err error
		if idx, _, err = l.uints(iw, acc); err != nil {
			return err
		}
		for k, i := range firstCheck(l, "indices", acc, n, idx) {
			if int64(i) >= int64(n) {
				return fmt.Errorf("%s: index %d is %d but there are %d vertices", iw, k, i, n)
			}
		}
	} else if idx = l.seqCache[n]; idx == nil {
		if err := l.charge(where+": vertex order", int64(n)*4); err != nil {
			return err
		}
		idx = make([]uint32, n)
		for i := range idx {
			idx[i] = uint32(i)
		}
		if l.seqCache == nil {
			l.seqCache = map[int][]uint32{}
		}
		l.seqCache[n] = idx
	}
	switch p.Mode {
	case gltf.PrimitiveTriangles:
		// glTF §3.7.2.1: trailing vertices that make no whole triangle are
		// ignored.
		if r := len(idx) % 3; r != 0 {
			l.issue("MESH_PRIMITIVE_INCOMPATIBLE_MODE", where, "%d %s do not make whole triangles (mode TRIANGLES); the last %d are ignored", len(idx), countNoun(p), r)
			idx = idx[:len(idx)-r]
		}
		prim.Indices = idx
	case gltf.PrimitiveLines:
		if len(idx)%2 != 0 {
			l.issue("MESH_PRIMITIVE_INCOMPATIBLE_MODE", where, "%d %s do not make whole lines (mode LINES); the last is ignored", len(idx), countNoun(p))
		}
		l.issue("VIEWER_NOT_DRAWN", where, "mode %s is not drawn (only triangles)", p.Mode)
	case gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
		if len(idx) > 2 {
			if err := l.charge(where+": triangles", int64(len(idx)-2)*12); err != nil {
				return err
			}
			prim.Indices = make([]uint32, 0, 3*(len(idx)-2))
		}
		for k := 0; k+2 < len(idx); k++ {
			switch {
			case p.Mode == gltf.PrimitiveTriangleFan:
				prim.Indices = append(prim.Indices, idx[0], idx[k+1], idx[k+2])
			case k%2 == 0:
				prim.Indices = append(prim.Indices, idx[k], idx[k+1], idx[k+2])
			default:
				prim.Indices = append(prim.Indices, idx[k+1], idx[k], idx[k+2])
			}
		}
	default:
		l.issue("VIEWER_NOT_DRAWN", where, "mode %s is not drawn (only triangles)", p.Mode)
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
	q := Primitive{Material: p.Material, Sets: p.Sets, DroppedMax: p.DroppedMax, DroppedMean: p.DroppedMean, FlatNormals: true}
	m := len(p.Indices)
	q.Positions = make([]float32, 0, m*3)
	q.Normals = make([]float32, m*3)
	q.Indices = make([]uint32, m)
	if p.UV0 != nil {
		q.UV0 = make([]float32, 0, m*2)
	}
	if p.UV1 != nil {
		q.UV1 = make([]float32, 0, m*2)
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
		if p.UV1 != nil {
			q.UV1 = append(q.UV1, p.UV1[i*2:i*2+2]...)
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
	// Morph targets move the unshared vertices as they moved the shared
	// ones; the face normals stay those of the base shape.
	for _, mt := range p.Targets {
		var qt MorphTarget
		if mt.Positions != nil {
			qt.Positions = make([]float32, 0, m*3)
			for _, i := range p.Indices {
				qt.Positions = append(qt.Positions, mt.Positions[i*3:i*3+3]...)
			}
		}
		q.Targets = append(q.Targets, qt)
	}
	return q
}

// targetNames reads a mesh's extras.targetNames, the names exporters give
// its morph targets (a convention, not the specification): one string per
// target, "" where there is none.
func (l *loader) targetNames(mi int, extras any, n int) []string {
	names := make([]string, n)
	var list []any
	switch e := extras.(type) {
	case map[string]any:
		list, _ = e["targetNames"].([]any)
	case json.RawMessage:
		var m struct {
			TargetNames []any `json:"targetNames"`
		}
		if json.Unmarshal(e, &m) == nil {
			list = m.TargetNames
		}
	}
	if list != nil && len(list) != n {
		l.issue("VIEWER_NOTE", fmt.Sprintf("meshes[%d].extras.targetNames", mi), "%d names for %d morph targets; the extra names are not used", len(list), n)
	}
	for k := range min(len(list), n) {
		if s, ok := list[k].(string); ok {
			names[k] = s
		}
	}
	return names
}
