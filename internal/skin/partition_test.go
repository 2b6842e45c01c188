package skin

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// checkPlan verifies a plan against its input by brute force: palette
// sizes, the remapping of every influence, that the output triangles are the
// input triangles exactly once each with their winding, that each output
// vertex belongs to one partition that uses it, that an input vertex is
// copied only into partitions whose triangles use it (so only border
// vertices are duplicated), and that skinning each partition with its
// gathered palette reproduces the unpartitioned skinning bit for bit.
func checkPlan(t *testing.T, m *mesh, plan *Plan, k int) {
	t.Helper()
	nv := len(m.joints) / 4
	nOut := len(plan.Source)
	if len(plan.LocalJoints) != nOut*4 || len(plan.Weights) != nOut*4 {
		t.Fatalf("%d output vertices with %d local joints and %d weights", nOut, len(plan.LocalJoints), len(plan.Weights))
	}
	owner := make([]int, nOut)
	next := 0
	for p, part := range plan.Partitions {
		if len(part.Joints) > k {
			t.Errorf("partition %d has %d joints; k = %d", p, len(part.Joints), k)
		}
		if !slices.Equal(part.Joints, sortedUnique(part.Joints)) {
			t.Errorf("partition %d joints %v are not sorted and distinct", p, part.Joints)
		}
		if part.FirstVertex != next {
			t.Errorf("partition %d starts at vertex %d; want %d", p, part.FirstVertex, next)
		}
		next = part.FirstVertex + part.NumVertices
		for o := part.FirstVertex; o < next && o < nOut; o++ {
			owner[o] = p
		}
		if cap(part.Indices) != len(part.Indices) {
			t.Errorf("partition %d indices have spare capacity", p)
		}
	}
	if next != nOut {
		t.Fatalf("partition vertex ranges cover %d of %d output vertices", next, nOut)
	}

	// Every influence maps back to the input joint.
	for o, src := range plan.Source {
		if int(src) >= nv {
			t.Fatalf("output vertex %d copies vertex %d of %d", o, src, nv)
		}
		js := plan.Partitions[owner[o]].Joints
		for s := 0; s < 4; s++ {
			w, lj := plan.Weights[o*4+s], plan.LocalJoints[o*4+s]
			if w != m.weights[int(src)*4+s] {
				t.Fatalf("output vertex %d slot %d weight %v; input %v", o, s, w, m.weights[int(src)*4+s])
			}
			if w == 0 {
				if lj != 0 {
					t.Fatalf("output vertex %d slot %d has weight 0 and joint %d", o, s, lj)
				}
				continue
			}
			if int(lj) >= len(js) || js[lj] != m.joints[int(src)*4+s] {
				t.Fatalf("output vertex %d slot %d: local joint %d does not map to input joint %d", o, s, lj, m.joints[int(src)*4+s])
			}
		}
	}

	// Triangles: the same multiset, each output index in its partition.
	want := map[[3]uint32]int{}
	for i := 0; i+2 < len(m.indices); i += 3 {
		want[[3]uint32(m.indices[i:i+3])]++
	}
	usedBy := make([]bool, nOut)
	partsOf := make([]map[int]bool, nv)
	got := 0
	for p, part := range plan.Partitions {
		for i := 0; i+2 < len(part.Indices); i += 3 {
			var tri [3]uint32
			for c := 0; c < 3; c++ {
				o := int(part.Indices[i+c])
				if o < part.FirstVertex || o >= part.FirstVertex+part.NumVertices {
					t.Fatalf("partition %d triangle %d uses output vertex %d outside its range", p, i/3, o)
				}
				usedBy[o] = true
				src := plan.Source[o]
				tri[c] = src
				if partsOf[src] == nil {
					partsOf[src] = map[int]bool{}
				}
				partsOf[src][p] = true
			}
			want[tri]--
			got++
		}
	}
	if got != len(m.indices)/3 {
		t.Errorf("plan has %d triangles; input %d", got, len(m.indices)/3)
	}
	for tri, n := range want {
		if n != 0 {
			t.Fatalf("input triangle %v appears %d times too few in the plan", tri, n)
		}
	}
	// One copy of an input vertex per partition that uses it, and none
	// unused: so Duplicated counts border vertices only.
	copies := make(map[[2]int]int)
	for o, src := range plan.Source {
		if !usedBy[o] && len(plan.Partitions) > 1 {
			t.Errorf("output vertex %d (input %d) is used by no triangle of its partition", o, src)
		}
		copies[[2]int{owner[o], int(src)}]++
	}
	for key, n := range copies {
		if n > 1 {
			t.Errorf("partition %d holds %d copies of input vertex %d", key[0], n, key[1])
		}
	}
	border := 0
	for _, ps := range partsOf {
		if len(ps) > 1 {
			border += len(ps) - 1
		}
	}
	if len(plan.Partitions) > 1 && plan.Duplicated != border {
		t.Errorf("Duplicated = %d; vertices shared across partitions add %d copies", plan.Duplicated, border)
	}

	// Skinning through the partitions equals skinning the input.
	rng := rand.New(rand.NewPCG(7, 7))
	full := randomPose(rng, m.numJ, true)
	refPos := make([]float32, len(m.pos))
	refNrm := make([]float32, len(m.nrm))
	if err := Skin4(refPos, refNrm, m.pos, m.nrm, m.joints, m.weights, full); err != nil {
		t.Fatal(err)
	}
	for p, part := range plan.Partitions {
		pal := make([]float32, len(part.Joints)*12)
		GatherPalette(pal, full, part.Joints)
		a, b := part.FirstVertex, part.FirstVertex+part.NumVertices
		pos := make([]float32, 0, (b-a)*3)
		nrm := make([]float32, 0, (b-a)*3)
		for _, src := range plan.Source[a:b] {
			pos = append(pos, m.pos[src*3:src*3+3]...)
			nrm = append(nrm, m.nrm[src*3:src*3+3]...)
		}
		outPos := make([]float32, len(pos))
		outNrm := make([]float32, len(nrm))
		if err := Skin4(outPos, outNrm, pos, nrm, plan.LocalJoints[a*4:b*4], plan.Weights[a*4:b*4], pal); err != nil {
			t.Fatalf("partition %d: %v", p, err)
		}
		for i, src := range plan.Source[a:b] {
			if !slices.Equal(outPos[i*3:i*3+3], refPos[src*3:src*3+3]) || !slices.Equal(outNrm[i*3:i*3+3], refNrm[src*3:src*3+3]) {
				t.Fatalf("partition %d vertex %d (input %d) skins to %v %v; unpartitioned %v %v", p, a+i, src,
					outPos[i*3:i*3+3], outNrm[i*3:i*3+3], refPos[src*3:src*3+3], refNrm[src*3:src*3+3])
			}
		}
	}
}

func TestPlanPartitionsFits(t *testing.T) {
	// Two triangles over joints 3, 7 and 9; vertex 3's second slot has
	// weight 0 and a joint (11) that must not count. Vertex 4 is in no
	// triangle: a primitive that fits keeps it, also at k = 3, exactly
	// the joints in use.
	m := &mesh{
		pos:     []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 0, 0},
		nrm:     []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1},
		joints:  []uint16{3, 0, 0, 0, 3, 7, 0, 0, 9, 7, 0, 0, 9, 11, 0, 0, 7, 0, 0, 0},
		weights: []float32{1, 0, 0, 0, 0.5, 0.5, 0, 0, 0.25, 0.75, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
		indices: []uint32{0, 1, 2, 2, 1, 3},
		numJ:    12,
	}
	for _, k := range []int{3, 12, 64} {
		plan, err := PlanPartitions(m.indices, m.joints, m.weights, k)
		if err != nil {
			t.Fatalf("k=%d: %v", k, err)
		}
		if len(plan.Partitions) != 1 || plan.Duplicated != 0 {
			t.Fatalf("k=%d: %d partitions, %d duplicated; want 1 and 0", k, len(plan.Partitions), plan.Duplicated)
		}
		p := plan.Partitions[0]
		if !slices.Equal(p.Joints, []uint16{3, 7, 9}) || !slices.Equal(p.Indices, m.indices) ||
			!slices.Equal(plan.Source, []uint32{0, 1, 2, 3, 4}) || p.FirstVertex != 0 || p.NumVertices != 5 {
			t.Errorf("k=%d: got %+v, source %v", k, p, plan.Source)
		}
		// 3→0, 7→1, 9→2; zero-weight slots 0.
		if want := []uint16{0, 0, 0, 0, 0, 1, 0, 0, 2, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0}; !slices.Equal(plan.LocalJoints, want) {
			t.Errorf("k=%d: local joints %v; want %v", k, plan.LocalJoints, want)
		}
		checkPlan(t, m, plan, k)
	}
}

// firstFit is the naive planner the greedy must beat (Assimp's
// SplitByBoneCount works this way): pass after pass over the triangles in
// input order, each pass a partition taking every triangle that still fits.
// It returns the partition count and the vertex copies it needs.
func firstFit(m *mesh, k int) (parts, duplicated int) {
	nt := len(m.indices) / 3
	done := make([]bool, nt)
	usedIn := map[uint32]map[int]bool{}
	for left := nt; left > 0; parts++ {
		set := map[uint16]bool{}
		for t := 0; t < nt; t++ {
			if done[t] {
				continue
			}
			var add []uint16
			for c := 0; c < 3; c++ {
				v := m.indices[t*3+c]
				for slot := uint32(0); slot < 4; slot++ {
					j := m.joints[v*4+slot]
					if m.weights[v*4+slot] != 0 && !set[j] && !slices.Contains(add, j) {
						add = append(add, j)
					}
				}
			}
			if len(set)+len(add) > k {
				continue
			}
			for _, j := range add {
				set[j] = true
			}
			done[t] = true
			left--
			for c := 0; c < 3; c++ {
				v := m.indices[t*3+c]
				if usedIn[v] == nil {
					usedIn[v] = map[int]bool{}
				}
				usedIn[v][parts] = true
			}
		}
	}
	for _, ps := range usedIn {
		duplicated += len(ps) - 1
	}
	return parts, duplicated
}

func TestPlanPartitionsSplit(t *testing.T) {
	chain := chainMesh(40, 4)
	grid := gridMesh(1, 60, 300)
	noise := noiseMesh(3, 400, 600, 300)
	tests := []struct {
		name string
		m    *mesh
		k    int
		// slack is how many times first fit's partition count the planner
		// may use. Where neighbours share joints, growing by fewest new
		// joints beats first fit by far; on joint noise, where adjacency
		// means nothing, both are packing at random and either may win by
		// a few percent.
		slack float64
	}{
		{"chain/k12", chain, 12, 1},
		{"chain/k16", chain, 16, 1},
		{"chain/k32", chain, 32, 1},
		{"grid300/k12", grid, 12, 1},
		{"grid300/k16", grid, 16, 1},
		{"grid300/k32", grid, 32, 1},
		{"grid300/k64", grid, 64, 1},
		{"noise300/k12", noise, 12, 1.1},
		{"noise300/k64", noise, 64, 1.1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := PlanPartitions(tc.m.indices, tc.m.joints, tc.m.weights, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Partitions) < 2 {
				t.Fatalf("%d partitions; the mesh needs more than %d joints", len(plan.Partitions), tc.k)
			}
			checkPlan(t, tc.m, plan, tc.k)
			parts, dup := firstFit(tc.m, tc.k)
			if float64(len(plan.Partitions)) > tc.slack*float64(parts) {
				t.Errorf("%d partitions; first fit needs %d", len(plan.Partitions), parts)
			}
			t.Logf("%d partitions, %d duplicated; first fit %d, %d", len(plan.Partitions), plan.Duplicated, parts, dup)
		})
	}
}

func TestPlanPartitionsChainBound(t *testing.T) {
	// On a chain, a sweep is achievable: partition i takes joints
	// [i·(k−o), i·(k−o)+k), consecutive partitions overlapping by o = s−1
	// joints, s the most joints a triangle spans, so every triangle (a run
	// of at most s consecutive joints) fits one. That needs
	// 1 + ⌈(J−k)/(k−o)⌉ partitions, and each border between consecutive
	// ones copies one ring of the ribbon: 2 vertices. s comes from the mesh.
	const numJ = 40
	m := chainMesh(numJ, 4)
	s := 0
	for i := 0; i < len(m.indices); i += 3 {
		var js []uint16
		for c := 0; c < 3; c++ {
			v := m.indices[i+c]
			for slot := uint32(0); slot < 4; slot++ {
				if m.weights[v*4+slot] != 0 {
					js = append(js, m.joints[v*4+slot])
				}
			}
		}
		js = sortedUnique(js)
		if int(js[len(js)-1]-js[0])+1 != len(js) {
			t.Fatalf("triangle %d joints %v are not consecutive", i/3, js)
		}
		s = max(s, len(js))
	}
	for _, k := range []int{12, 16, 32} {
		plan, err := PlanPartitions(m.indices, m.joints, m.weights, k)
		if err != nil {
			t.Fatal(err)
		}
		o := s - 1
		sweep := 1 + (numJ-k+(k-o)-1)/(k-o)
		if len(plan.Partitions) > sweep {
			t.Errorf("k=%d: %d partitions; a sweep needs %d", k, len(plan.Partitions), sweep)
		}
		if plan.Duplicated > 2*(len(plan.Partitions)-1) {
			t.Errorf("k=%d: %d duplicated vertices over %d borders of one 2-vertex ring each", k, plan.Duplicated, len(plan.Partitions)-1)
		}
	}
}

func TestPlanPartitionsErrors(t *testing.T) {
	// Triangle 1 spans twelve joints (three vertices of four distinct
	// joints each): fine for k = 12, too many for k = 11.
	wide := &mesh{
		joints:  []uint16{0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
		weights: []float32{1, 0, 0, 0, .25, .25, .25, .25, .25, .25, .25, .25, .25, .25, .25, .25},
		indices: []uint32{0, 0, 1, 1, 2, 3},
	}
	tests := []struct {
		name    string
		indices []uint32
		joints  []uint16
		weights []float32
		k       int
		want    []string // substrings of the error
	}{
		{"k0", wide.indices, wide.joints, wide.weights, 0, []string{"at least one joint", "0"}},
		{"triangle too wide", wide.indices, wide.joints, wide.weights, 11, []string{"triangle 1", "vertices 1, 2, 3", "12 joints", "at most 11"}},
		{"first wide triangle named", wide.indices, wide.joints, wide.weights, 4, []string{"triangle 0", "vertices 0, 0, 1", "5 joints", "at most 4"}},
		{"index out of range", []uint32{0, 1, 2, 3, 1, 4}, wide.joints, wide.weights, 12, []string{"skin: triangle 1 corner 2 uses vertex 4; the primitive has 4"}},
		{"huge index", []uint32{0xffffffff, 1, 2}, wide.joints, wide.weights, 12, []string{"triangle 0", "vertex 4294967295"}},
		{"partial triangle", []uint32{0, 1}, wide.joints, wide.weights, 12, []string{"2 indices"}},
		{"weights short", wide.indices, wide.joints, wide.weights[:15], 12, []string{"16 joints and 15 weights"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := PlanPartitions(tc.indices, tc.joints, tc.weights, tc.k)
			if err == nil {
				t.Fatalf("no error; plan %+v", plan)
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
	if _, err := PlanPartitions(wide.indices, wide.joints, wide.weights, 12); err != nil {
		t.Errorf("k=12 fits the widest triangle: %v", err)
	}
}

func TestPlanPartitionsEmpty(t *testing.T) {
	plan, err := PlanPartitions(nil, nil, nil, 12)
	if err != nil || len(plan.Partitions) != 0 || len(plan.Source) != 0 {
		t.Fatalf("empty primitive: %+v, %v", plan, err)
	}
	// Vertices without triangles still fit: one empty partition.
	plan, err = PlanPartitions(nil, []uint16{0, 0, 0, 0}, []float32{1, 0, 0, 0}, 12)
	if err != nil || len(plan.Partitions) != 1 || len(plan.Partitions[0].Indices) != 0 {
		t.Fatalf("no triangles: %+v, %v", plan, err)
	}
}

func TestGatherPalette(t *testing.T) {
	full := make([]float32, 5*12)
	for i := range full {
		full[i] = float32(i)
	}
	dst := make([]float32, 3*12)
	GatherPalette(dst, full, []uint16{4, 0, 2})
	for i, j := range []int{4, 0, 2} {
		for c := 0; c < 12; c++ {
			if dst[i*12+c] != float32(j*12+c) {
				t.Fatalf("entry %d float %d = %v; want %v", i, c, dst[i*12+c], j*12+c)
			}
		}
	}
	// The contract's own panic, naming the joint and the palette's size
	// (not an index error of the copy).
	defer func() {
		const want = "skin: GatherPalette: joint 5 is outside a palette of 5 entries"
		if r := recover(); r != want {
			t.Errorf("joint outside the palette: recovered %v; want %q", r, want)
		}
	}()
	GatherPalette(dst, full, []uint16{5})
}

// stripMesh is a strip of n triangles, Tᵢ = (pᵢ, pᵢ₊₁, pᵢ₊₂), listed in the
// given order; vertex pᵢ is on joint i alone, so Tᵢ uses joints i…i+2 and
// consecutive triangles share two vertices and two joints.
func stripMesh(order []int) *mesh {
	nv := len(order) + 2
	m := &mesh{numJ: nv, pos: make([]float32, nv*3), nrm: make([]float32, nv*3), joints: make([]uint16, nv*4), weights: make([]float32, nv*4)}
	for v := 0; v < nv; v++ {
		m.pos[v*3], m.pos[v*3+1] = float32(v/2), float32(v%2)
		m.nrm[v*3+2] = 1
		m.joints[v*4], m.weights[v*4] = uint16(v), 1
	}
	for _, t := range order {
		m.indices = append(m.indices, uint32(t), uint32(t+1), uint32(t+2))
	}
	return m
}

// The growth prefers, among triangles adding as few joints, those sharing
// the most corners with the open partition, and seeds the next partition
// beside the one just closed, whatever the input order; on a strip
// starting at T₀ that is the sweep. With k joints a partition holds k−2
// consecutive triangles (joints i…i+k−1), so a strip of 3(k−2) triangles
// needs 3 partitions, and the sweep has two borders of two vertices each:
// 4 copies, the fewest three partitions allow.
func TestPlanPartitionsSweepsAStrip(t *testing.T) {
	for _, c := range []struct {
		k     int
		order []int
		want  [][]uint16
	}{
		{4, []int{0, 4, 2, 5, 3, 1}, [][]uint16{{0, 1, 2, 3}, {2, 3, 4, 5}, {4, 5, 6, 7}}},
		{5, []int{0, 5, 3, 7, 1, 8, 2, 6, 4}, [][]uint16{{0, 1, 2, 3, 4}, {3, 4, 5, 6, 7}, {6, 7, 8, 9, 10}}},
	} {
		m := stripMesh(c.order)
		plan, err := PlanPartitions(m.indices, m.joints, m.weights, c.k)
		if err != nil {
			t.Fatal(err)
		}
		var got [][]uint16
		for _, p := range plan.Partitions {
			got = append(got, p.Joints)
		}
		if !slices.EqualFunc(got, c.want, slices.Equal) || plan.Duplicated != 4 {
			t.Errorf("k=%d order %v: partitions %v, %d duplicated; want the sweep %v, 4 duplicated", c.k, c.order, got, plan.Duplicated, c.want)
		}
		checkPlan(t, m, plan, c.k)
	}
}
