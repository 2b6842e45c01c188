package skin

import (
	"fmt"
	"math"
	"slices"
)

// Influences is the number of joint/weight slots per vertex that the
// partition planner, Skin4, Normals and SkinDQ read: glTF's JOINTS_0 and
// WEIGHTS_0, the four the vertex shader blends.
const Influences = 4

// Partition is one draw call of a split primitive: a set of triangles whose
// vertices together reference at most K joints.
type Partition struct {
	// Joints is the partition's local palette: local entry i is skin joint
	// Joints[i]. Sorted ascending, no repeats, len ≤ K. Build the palette
	// the partition is drawn with by GatherPalette(dst, full, Joints).
	Joints []uint16
	// Indices are the partition's triangles, three per triangle, in input
	// order with the input winding. They index the plan's output vertices
	// (Plan.Source and friends), not the input vertices. A sub-slice of
	// one array shared by all partitions, capacity-limited to its length.
	Indices []uint32
	// FirstVertex and NumVertices give the range of output vertices the
	// partition's indices reference: [FirstVertex, FirstVertex+NumVertices).
	// Partitions' ranges are disjoint and in partition order, which suits
	// glDrawRangeElements or a per-partition base vertex.
	FirstVertex, NumVertices int
}

// Plan is the result of PlanPartitions: the primitive rewritten so that each
// partition can be drawn with its own palette of at most K joints. All
// slices are owned by the plan.
type Plan struct {
	// Partitions in drawing order. One partition when the primitive fits;
	// none when it has no triangles and no vertices.
	Partitions []Partition
	// Source gives, for each output vertex, the input vertex it copies:
	// copy every other attribute (position, normal, UV, colour) through it.
	// len = output vertex count.
	Source []uint32
	// LocalJoints holds Influences joint indices per output vertex,
	// remapped into the local palette of the partition owning that vertex.
	// Slots with weight 0 hold 0. len = Influences × output vertex count.
	LocalJoints []uint16
	// Weights holds Influences weights per output vertex, copied unchanged
	// from the input. len = Influences × output vertex count.
	Weights []float32
	// Duplicated is the number of output vertices that are extra copies of
	// an input vertex: output vertices minus distinct sources. Only vertices
	// on a border between partitions are copied, once per extra partition.
	Duplicated int
}

// PlanPartitions splits a triangle-list primitive into partitions whose
// vertices each reference at most k joints, counting only influences with a
// non-zero weight. indices holds three vertex indices per triangle; joints
// and weights hold Influences entries per vertex (the vertex count is
// len(joints)/Influences).
//
// When all vertices together reference at most k joints the plan keeps the
// primitive as it is: one partition, Source the identity over every vertex
// (referenced or not), Indices a copy of indices, Duplicated 0. Its Joints
// are the joints in use, sorted, so the local palette may be smaller than
// the skin's; LocalJoints is remapped accordingly (the mapping is the
// identity exactly when Joints[i] == i for every i).
//
// Otherwise only vertices that some triangle references are emitted, each
// partition's vertices together, in order of first use by the partition's
// triangles. A weight counts as used unless it is exactly zero. The error
// names the triangle when a single triangle references
// more than k joints (possible when k < 3·Influences), or when an index is
// out of range; the caller adds the primitive's glTF path.
func PlanPartitions(indices []uint32, joints []uint16, weights []float32, k int) (*Plan, error) {
	if k < 1 {
		return nil, fmt.Errorf("skin: a partition must hold at least one joint; asked for %d", k)
	}
	if len(joints) != len(weights) || len(joints)%Influences != 0 {
		return nil, fmt.Errorf("skin: %d joints and %d weights are not %d per vertex", len(joints), len(weights), Influences)
	}
	if len(indices)%3 != 0 {
		return nil, fmt.Errorf("skin: %d indices do not make whole triangles", len(indices))
	}
	nv := len(joints) / Influences
	if len(indices)/3 > math.MaxInt32 || nv > math.MaxInt32 {
		return nil, fmt.Errorf("skin: %d triangles over %d vertices are more than the planner indexes", len(indices)/3, nv)
	}
	for i, ix := range indices {
		if int64(ix) >= int64(nv) {
			return nil, fmt.Errorf("skin: triangle %d corner %d uses vertex %d; the primitive has %d", i/3, i%3, ix, nv)
		}
	}

	// Dense joint ids: the planner's arrays are sized by the joints in use,
	// not by the largest index a uint16 allows.
	maxJoint := -1
	for s, j := range joints {
		if weights[s] != 0 && int(j) > maxJoint {
			maxJoint = int(j)
		}
	}
	inUse := make([]bool, maxJoint+1)
	for s, j := range joints {
		if weights[s] != 0 {
			inUse[j] = true
		}
	}
	dense := make([]int32, maxJoint+1)
	var used []uint16 // dense id → skin joint, ascending
	for j, ok := range inUse {
		dense[j] = none
		if ok {
			dense[j] = int32(len(used))
			used = append(used, uint16(j))
		}
	}
	if len(used) <= k {
		return planWhole(indices, joints, weights, used, dense), nil
	}

	pl := newPlanner(indices, joints, weights, dense, len(used), k)
	if err := pl.triangleJoints(); err != nil {
		return nil, err
	}
	pl.buildAdjacency()
	pl.assign()
	return pl.emit(used), nil
}

// planWhole is the plan of a primitive that fits: nothing moves.
func planWhole(indices []uint32, joints []uint16, weights []float32, used []uint16, dense []int32) *Plan {
	nv := len(joints) / Influences
	p := &Plan{
		Source:      make([]uint32, nv),
		LocalJoints: make([]uint16, len(joints)),
		Weights:     slices.Clone(weights),
	}
	for v := range p.Source {
		p.Source[v] = uint32(v)
	}
	for s, j := range joints {
		if weights[s] != 0 {
			p.LocalJoints[s] = uint16(dense[j])
		}
	}
	if len(indices) > 0 || nv > 0 {
		idx := slices.Clone(indices)
		p.Partitions = []Partition{{Joints: used, Indices: idx[:len(idx):len(idx)], NumVertices: nv}}
	}
	return p
}

// The candidate queue orders unassigned triangles by key = cost·4 + (3 −
// shared): first the fewest joints the triangle would add to the current
// partition, then the most corners it shares with it. One FIFO list per key.
const (
	maxTriJoints = 3 * Influences
	numKeys      = (maxTriJoints + 1) * 4
	none         = -1
)

type planner struct {
	indices []uint32
	joints  []uint16
	weights []float32
	dense   []int32 // skin joint → dense id, -1 when unused
	nj, k   int
	nt, nv  int

	triJ  []int32 // maxTriJoints dense joint ids per triangle
	triN  []uint8 // joints per triangle
	jOff  []int32 // CSR: dense joint → triangles using it
	jTris []int32
	vOff  []int32 // CSR: vertex → triangles using it
	vTris []int32

	part    []int32 // partition of each triangle, none while unassigned
	cost    []uint8 // joints the triangle would add to the open partition
	shared  []uint8 // corners already in the open partition (capped at 3)
	key     []uint8
	next    []int32
	prev    []int32
	head    [numKeys]int32
	tail    [numKeys]int32
	minKey  int
	inS     []bool  // dense joint is in the open partition
	vMark   []int32 // last partition that took the vertex
	tMark   []int32 // last partition that touched the triangle
	touched []int32

	partJoints [][]int32 // dense joint ids per partition
	nparts     int
}

func newPlanner(indices []uint32, joints []uint16, weights []float32, dense []int32, nj, k int) *planner {
	return &planner{
		indices: indices, joints: joints, weights: weights, dense: dense,
		nj: nj, k: k, nt: len(indices) / 3, nv: len(joints) / Influences,
	}
}

// triangleJoints collects each triangle's distinct joints and rejects a
// triangle that no partition could hold.
func (pl *planner) triangleJoints() error {
	pl.triJ = make([]int32, pl.nt*maxTriJoints)
	pl.triN = make([]uint8, pl.nt)
	for t := 0; t < pl.nt; t++ {
		set := pl.triJ[t*maxTriJoints : t*maxTriJoints+maxTriJoints]
		n := 0
		for c := 0; c < 3; c++ {
			v := int(pl.indices[t*3+c])
			for s := v * Influences; s < v*Influences+Influences; s++ {
				if pl.weights[s] == 0 {
					continue
				}
				d := pl.dense[pl.joints[s]]
				if !slices.Contains(set[:n], d) {
					set[n] = d
					n++
				}
			}
		}
		if n > pl.k {
			a, b, c := pl.indices[t*3], pl.indices[t*3+1], pl.indices[t*3+2]
			return fmt.Errorf("skin: triangle %d (vertices %d, %d, %d) references %d joints; a partition holds at most %d", t, a, b, c, n, pl.k)
		}
		pl.triN[t] = uint8(n)
	}
	return nil
}

// buildAdjacency fills the joint → triangle and vertex → triangle indexes.
func (pl *planner) buildAdjacency() {
	pl.jOff = make([]int32, pl.nj+1)
	for t := 0; t < pl.nt; t++ {
		for _, d := range pl.triJ[t*maxTriJoints : t*maxTriJoints+int(pl.triN[t])] {
			pl.jOff[d+1]++
		}
	}
	for j := 0; j < pl.nj; j++ {
		pl.jOff[j+1] += pl.jOff[j]
	}
	pl.jTris = make([]int32, pl.jOff[pl.nj])
	fill := slices.Clone(pl.jOff[:pl.nj])
	for t := 0; t < pl.nt; t++ {
		for _, d := range pl.triJ[t*maxTriJoints : t*maxTriJoints+int(pl.triN[t])] {
			pl.jTris[fill[d]] = int32(t)
			fill[d]++
		}
	}

	pl.vOff = make([]int32, pl.nv+1)
	for _, v := range pl.indices {
		pl.vOff[v+1]++
	}
	for v := 0; v < pl.nv; v++ {
		pl.vOff[v+1] += pl.vOff[v]
	}
	pl.vTris = make([]int32, len(pl.indices))
	fill = slices.Clone(pl.vOff[:pl.nv])
	for i, v := range pl.indices {
		pl.vTris[fill[v]] = int32(i / 3)
		fill[v]++
	}
}

func (pl *planner) push(t int32) {
	key := pl.cost[t]*4 + 3 - pl.shared[t]
	pl.key[t] = key
	pl.next[t] = none
	pl.prev[t] = pl.tail[key]
	if pl.tail[key] == none {
		pl.head[key] = t
	} else {
		pl.next[pl.tail[key]] = t
	}
	pl.tail[key] = t
	if int(key) < pl.minKey {
		pl.minKey = int(key)
	}
}

func (pl *planner) unlink(t int32) {
	key := pl.key[t]
	if p := pl.prev[t]; p == none {
		pl.head[key] = pl.next[t]
	} else {
		pl.next[p] = pl.next[t]
	}
	if n := pl.next[t]; n == none {
		pl.tail[key] = pl.prev[t]
	} else {
		pl.prev[n] = pl.prev[t]
	}
}

// front returns the queued triangle with the smallest key, or none.
func (pl *planner) front() int32 {
	for pl.minKey < numKeys && pl.head[pl.minKey] == none {
		pl.minKey++
	}
	if pl.minKey == numKeys {
		return none
	}
	return pl.head[pl.minKey]
}

func (pl *planner) touch(u int32, p int32) {
	if pl.tMark[u] != p {
		pl.tMark[u] = p
		pl.touched = append(pl.touched, u)
	}
}

// take moves triangle t into open partition p, updating the cost and shared
// counts of every unassigned triangle that shares a joint or a vertex.
func (pl *planner) take(t int32, p int32, set *[]int32) {
	pl.unlink(t)
	pl.part[t] = p
	for _, d := range pl.triJ[int(t)*maxTriJoints : int(t)*maxTriJoints+int(pl.triN[t])] {
		if pl.inS[d] {
			continue
		}
		pl.inS[d] = true
		*set = append(*set, d)
		for _, u := range pl.jTris[pl.jOff[d]:pl.jOff[d+1]] {
			if pl.part[u] != none {
				continue
			}
			pl.unlink(u)
			pl.cost[u]--
			pl.touch(u, p)
			pl.push(u)
		}
	}
	for c := 0; c < 3; c++ {
		v := pl.indices[int(t)*3+c]
		if pl.vMark[v] == p {
			continue
		}
		pl.vMark[v] = p
		for _, u := range pl.vTris[pl.vOff[v]:pl.vOff[v+1]] {
			if pl.part[u] != none || pl.shared[u] == 3 {
				continue
			}
			pl.unlink(u)
			pl.shared[u]++
			pl.touch(u, p)
			pl.push(u)
		}
	}
}

// assign runs the greedy growth. Each partition starts from a seed and
// repeatedly takes the queued triangle with the smallest key until that
// triangle's new joints no longer fit; since it has the fewest new joints
// of all, nothing else would fit either. The next seed is the best
// remaining triangle touching the closed partition, so the growth sweeps
// across the mesh instead of leaving islands; failing that, the first
// unassigned triangle in input order.
func (pl *planner) assign() {
	nt := pl.nt
	pl.part = make([]int32, nt)
	pl.cost = make([]uint8, nt)
	pl.shared = make([]uint8, nt)
	pl.key = make([]uint8, nt)
	pl.next = make([]int32, nt)
	pl.prev = make([]int32, nt)
	pl.tMark = make([]int32, nt)
	pl.vMark = make([]int32, pl.nv)
	pl.inS = make([]bool, pl.nj)
	for i := range pl.head {
		pl.head[i], pl.tail[i] = none, none
	}
	pl.minKey = numKeys
	for t := int32(0); int(t) < nt; t++ {
		pl.part[t], pl.tMark[t] = none, none
		pl.cost[t] = pl.triN[t]
		pl.push(t)
	}
	for v := range pl.vMark {
		pl.vMark[v] = none
	}

	cursor := int32(0)
	seed := int32(none)
	for left := nt; left > 0; {
		if seed == none {
			for pl.part[cursor] != none {
				cursor++
			}
			seed = cursor
		}
		p := int32(pl.nparts)
		pl.nparts++
		var set []int32
		pl.touched = pl.touched[:0]
		pl.take(seed, p, &set)
		left--
		for left > 0 {
			t := pl.front()
			if len(set)+int(pl.cost[t]) > pl.k {
				break
			}
			pl.take(t, p, &set)
			left--
		}
		pl.partJoints = append(pl.partJoints, set)

		seed = none
		for key := pl.minKey; key < numKeys; key++ {
			if key%4 != 3 && pl.head[key] != none {
				seed = pl.head[key]
				break
			}
		}
		for _, d := range set {
			pl.inS[d] = false
		}
		for _, u := range pl.touched {
			if pl.part[u] != none {
				continue
			}
			pl.unlink(u)
			pl.cost[u] = pl.triN[u]
			pl.shared[u] = 0
			pl.push(u)
		}
		pl.minKey = 0
	}
}

// emit writes the plan: triangles grouped by partition in input order,
// vertices copied once per partition that uses them.
func (pl *planner) emit(used []uint16) *Plan {
	np := pl.nparts
	start := make([]int32, np+1)
	for _, p := range pl.part {
		start[p+1]++
	}
	for p := 0; p < np; p++ {
		start[p+1] += start[p]
	}
	order := make([]int32, pl.nt)
	fill := slices.Clone(start[:np])
	for t, p := range pl.part {
		order[fill[p]] = int32(t)
		fill[p]++
	}

	plan := &Plan{Partitions: make([]Partition, np)}
	grouped := make([]uint32, len(pl.indices))
	capV := pl.nv + pl.nv/4
	plan.Source = make([]uint32, 0, capV)
	plan.LocalJoints = make([]uint16, 0, capV*Influences)
	plan.Weights = make([]float32, 0, capV*Influences)
	outOf := make([]uint32, pl.nv) // output index of the vertex in vMark's partition
	for v := range pl.vMark {
		pl.vMark[v] = none
	}
	local := make([]uint16, pl.nj)
	seen := make([]bool, pl.nv)
	distinct := 0

	for p := 0; p < np; p++ {
		set := pl.partJoints[p]
		slices.Sort(set)
		js := make([]uint16, len(set))
		for i, d := range set {
			js[i] = used[d]
			local[d] = uint16(i)
		}
		first := len(plan.Source)
		for i := start[p]; i < start[p+1]; i++ {
			t := int(order[i])
			for c := 0; c < 3; c++ {
				v := pl.indices[t*3+c]
				if pl.vMark[v] != int32(p) {
					pl.vMark[v] = int32(p)
					outOf[v] = uint32(len(plan.Source))
					if !seen[v] {
						seen[v] = true
						distinct++
					}
					plan.Source = append(plan.Source, v)
					for s := int(v) * Influences; s < int(v)*Influences+Influences; s++ {
						w := pl.weights[s]
						var lj uint16
						if w != 0 {
							lj = local[pl.dense[pl.joints[s]]]
						}
						plan.LocalJoints = append(plan.LocalJoints, lj)
						plan.Weights = append(plan.Weights, w)
					}
				}
				grouped[int(i)*3+c] = outOf[v]
			}
		}
		a, b := int(start[p])*3, int(start[p+1])*3
		plan.Partitions[p] = Partition{
			Joints:      js,
			Indices:     grouped[a:b:b],
			FirstVertex: first,
			NumVertices: len(plan.Source) - first,
		}
	}
	plan.Duplicated = len(plan.Source) - distinct
	return plan
}
