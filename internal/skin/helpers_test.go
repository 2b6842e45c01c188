package skin

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

func approxEqual(a, b, epsilon float32) bool {
	return float32(math.Abs(float64(a-b))) <= epsilon
}

func approxVec(a, b []float32, epsilon float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !approxEqual(a[i], b[i], epsilon) {
			return false
		}
	}
	return true
}

// entry returns the palette entry (anim's row layout) of m.
func entry(m mgl32.Mat4) []float32 {
	e := make([]float32, anim.PaletteFloats)
	anim.WritePaletteEntry(e, &m)
	return e
}

// paletteOf concatenates the entries of ms.
func paletteOf(ms ...mgl32.Mat4) []float32 {
	var p []float32
	for _, m := range ms {
		p = append(p, entry(m)...)
	}
	return p
}

// mesh is a skinned triangle list with four influences per vertex.
type mesh struct {
	pos, nrm []float32
	joints   []uint16
	weights  []float32
	indices  []uint32
	numJ     int
}

// setInfluences gives vertex v the strongest four of the candidate joints,
// with weights proportional to score and summing to one.
func (m *mesh) setInfluences(v int, cand []int, score []float32) {
	idx := make([]int, len(cand))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
	var sum float32
	n := min(Influences, len(idx))
	for _, i := range idx[:n] {
		sum += score[i]
	}
	for s := 0; s < n; s++ {
		i := idx[s]
		if score[i] <= 0 {
			continue
		}
		m.joints[v*4+s] = uint16(cand[i])
		m.weights[v*4+s] = score[i] / sum
	}
}

// chainMesh is a ribbon of quads along x over numJ joints, segs quads per
// joint. Joint j sits at x = j+0.5; each vertex takes the four nearest
// joints with a hat kernel of radius 2, so a triangle spans about five
// consecutive joints.
func chainMesh(numJ, segs int) *mesh {
	rings := numJ*segs + 1
	m := &mesh{numJ: numJ}
	nv := rings * 2
	m.pos = make([]float32, nv*3)
	m.nrm = make([]float32, nv*3)
	m.joints = make([]uint16, nv*4)
	m.weights = make([]float32, nv*4)
	for r := 0; r < rings; r++ {
		x := float32(r) / float32(segs)
		var cand []int
		var score []float32
		for j := 0; j < numJ; j++ {
			if s := 2 - float32(math.Abs(float64(x-(float32(j)+0.5)))); s > 0 {
				cand = append(cand, j)
				score = append(score, s)
			}
		}
		for side := 0; side < 2; side++ {
			v := r*2 + side
			m.pos[v*3], m.pos[v*3+1] = x, float32(side)-0.5
			m.nrm[v*3+2] = 1
			m.setInfluences(v, cand, score)
		}
	}
	for r := 0; r+1 < rings; r++ {
		a, b, c, d := uint32(r*2), uint32(r*2+1), uint32(r*2+2), uint32(r*2+3)
		m.indices = append(m.indices, a, c, b, b, c, d)
	}
	return m
}

// gridMesh is a bumpy n×n vertex grid over the unit square with numJ joints
// scattered at random; each vertex takes its four nearest joints, weighted
// by inverse distance. Spatially coherent, like a real character. The
// triangle order is shuffled, so input order gives the planner no help.
func gridMesh(seed uint64, n, numJ int) *mesh {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := &mesh{numJ: numJ}
	jp := make([][2]float32, numJ)
	for j := range jp {
		jp[j] = [2]float32{rng.Float32(), rng.Float32()}
	}
	nv := n * n
	m.pos = make([]float32, nv*3)
	m.nrm = make([]float32, nv*3)
	m.joints = make([]uint16, nv*4)
	m.weights = make([]float32, nv*4)
	cand := make([]int, numJ)
	score := make([]float32, numJ)
	for j := range cand {
		cand[j] = j
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			v := y*n + x
			px, py := float32(x)/float32(n-1), float32(y)/float32(n-1)
			m.pos[v*3], m.pos[v*3+1], m.pos[v*3+2] = px, py, 0.05*rng.Float32()
			nx, ny := rng.Float32()-0.5, rng.Float32()-0.5
			l := float32(math.Sqrt(float64(nx*nx + ny*ny + 1)))
			m.nrm[v*3], m.nrm[v*3+1], m.nrm[v*3+2] = nx/l, ny/l, 1/l
			for j := range jp {
				dx, dy := px-jp[j][0], py-jp[j][1]
				score[j] = 1 / (float32(math.Sqrt(float64(dx*dx+dy*dy))) + 0.01)
			}
			m.setInfluences(v, cand, score)
		}
	}
	var tris [][3]uint32
	for y := 0; y+1 < n; y++ {
		for x := 0; x+1 < n; x++ {
			a := uint32(y*n + x)
			b, c, d := a+1, a+uint32(n), a+uint32(n)+1
			tris = append(tris, [3]uint32{a, b, c}, [3]uint32{b, d, c})
		}
	}
	rng.Shuffle(len(tris), func(i, j int) { tris[i], tris[j] = tris[j], tris[i] })
	for _, t := range tris {
		m.indices = append(m.indices, t[:]...)
	}
	return m
}

// posedGrid is gridMesh(seed, n, numJ) with a random stream, seeded from
// the same seed, for the poses a test puts on it.
func posedGrid(seed uint64, n, numJ int) (*mesh, *rand.Rand) {
	return gridMesh(seed, n, numJ), rand.New(rand.NewPCG(seed, seed))
}

// noiseMesh is the worst case: every vertex takes four random joints of
// numJ, so neighbouring triangles share almost nothing.
func noiseMesh(seed uint64, nv, nt, numJ int) *mesh {
	rng := rand.New(rand.NewPCG(seed, 2))
	m := &mesh{numJ: numJ}
	m.pos = make([]float32, nv*3)
	m.nrm = make([]float32, nv*3)
	m.joints = make([]uint16, nv*4)
	m.weights = make([]float32, nv*4)
	for v := 0; v < nv; v++ {
		for c := 0; c < 3; c++ {
			m.pos[v*3+c] = rng.Float32()*2 - 1
		}
		m.nrm[v*3+1] = 1
		perm := rng.Perm(numJ)
		cand := perm[:1+rng.IntN(4)]
		score := make([]float32, len(cand))
		for i := range score {
			score[i] = 0.1 + rng.Float32()
		}
		m.setInfluences(v, cand, score)
	}
	for t := 0; t < nt; t++ {
		for c := 0; c < 3; c++ {
			m.indices = append(m.indices, uint32(rng.IntN(nv)))
		}
	}
	return m
}

// randomPose is a palette of numJ rigid-plus-scale entries: random
// rotation, translation up to 1 and, when scaled, per-axis scale in
// [0.5, 1.5].
func randomPose(rng *rand.Rand, numJ int, scaled bool) []float32 {
	var p []float32
	for j := 0; j < numJ; j++ {
		axis := mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5}.Normalize()
		m := mgl32.Translate3D(rng.Float32()*2-1, rng.Float32()*2-1, rng.Float32()*2-1).
			Mul4(mgl32.HomogRotate3D(rng.Float32()*2*math.Pi, axis))
		if scaled {
			m = m.Mul4(mgl32.Scale3D(0.5+rng.Float32(), 0.5+rng.Float32(), 0.5+rng.Float32()))
		}
		p = append(p, entry(m)...)
	}
	return p
}

// sortedUnique returns the distinct values of s, ascending.
func sortedUnique(s []uint16) []uint16 {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
