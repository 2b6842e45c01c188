package skin

import (
	"fmt"
	"math"

	"github.com/skinview/skinview/internal/anim"
)

// Box is an axis-aligned box. The empty box has Min = +Inf and Max = −Inf,
// so that adding any point makes it that point.
type Box struct {
	Min, Max [3]float32
}

// EmptyBox returns the box that contains nothing.
func EmptyBox() Box {
	inf := float32(math.Inf(1))
	return Box{Min: [3]float32{inf, inf, inf}, Max: [3]float32{-inf, -inf, -inf}}
}

// Empty reports whether b contains no point.
func (b Box) Empty() bool {
	return !(b.Min[0] <= b.Max[0] && b.Min[1] <= b.Max[1] && b.Min[2] <= b.Max[2])
}

// Add grows b to contain the point (x, y, z).
func (b *Box) Add(x, y, z float32) {
	b.Min[0], b.Max[0] = min(b.Min[0], x), max(b.Max[0], x)
	b.Min[1], b.Max[1] = min(b.Min[1], y), max(b.Max[1], y)
	b.Min[2], b.Max[2] = min(b.Min[2], z), max(b.Max[2], z)
}

// JointBounds returns, for each of numJoints skin joints, the bind-space
// box of the vertices it influences with a non-zero weight; a joint that
// influences nothing gets EmptyBox. The vertex count is len(positions)/3;
// joints and weights hold the same number of influences per vertex (4 for
// JOINTS_0, 8 with JOINTS_1 too), derived from their length. A joint index
// outside the skin is an error, since the boxes would then not bound the
// mesh. Computed once per primitive at load time; PosedBounds uses them
// every frame.
func JointBounds(positions []float32, joints []uint16, weights []float32, numJoints int) ([]Box, error) {
	n := len(positions) / 3
	boxes := make([]Box, numJoints)
	for i := range boxes {
		boxes[i] = EmptyBox()
	}
	if n == 0 {
		return boxes, nil
	}
	per := len(joints) / n
	if per < 1 || len(joints) != n*per || len(weights) != len(joints) {
		return nil, fmt.Errorf("skin: %d vertices with %d joints and %d weights are not a whole number of influences per vertex", n, len(joints), len(weights))
	}
	for v := 0; v < n; v++ {
		x, y, z := positions[v*3], positions[v*3+1], positions[v*3+2]
		for s := v * per; s < v*per+per; s++ {
			if weights[s] == 0 {
				continue
			}
			j := int(joints[s])
			if j >= numJoints {
				return nil, fmt.Errorf("skin: vertex %d uses joint %d; the skin has %d", v, j, numJoints)
			}
			boxes[j].Add(x, y, z)
		}
	}
	return boxes, nil
}

// PosedBounds returns the union of every non-empty box transformed by its
// palette entry (box i by entry i): the exact box around each transformed
// box's eight corners (Arvo's method). ok is false when every box is empty.
//
// The result bounds the linear-blend-skinned mesh in the pose the palette
// holds: a skinned vertex is Σ wᵢ·(Pᵢ·v) with weights that are non-negative
// and sum to one (glTF requires both), a convex combination of the points
// Pᵢ·v; each Pᵢ·v lies in box i transformed by Pᵢ, because v lies in box i
// and an affine map takes a box's hull to the hull of its corners; and a
// convex combination of points in a convex set (their union's box) stays in
// it. Up to float32 rounding; it is loose where a joint's box is large and
// rotated. len(palette) must hold an entry per box; a shorter palette is a
// programmer error and panics. It allocates nothing.
func PosedBounds(boxes []Box, palette []float32) (lo, hi [3]float32, ok bool) {
	if len(palette) < len(boxes)*anim.PaletteFloats {
		panic(fmt.Sprintf("skin: PosedBounds: %d boxes but a palette of %d entries", len(boxes), len(palette)/anim.PaletteFloats))
	}
	out := EmptyBox()
	for i := range boxes {
		b := &boxes[i]
		if b.Empty() {
			continue
		}
		m := (*[anim.PaletteFloats]float32)(palette[i*anim.PaletteFloats:])
		for r := 0; r < 3; r++ {
			l, h := m[r*4+3], m[r*4+3]
			for c := 0; c < 3; c++ {
				a, e := m[r*4+c]*b.Min[c], m[r*4+c]*b.Max[c]
				l += min(a, e)
				h += max(a, e)
			}
			out.Min[r] = min(out.Min[r], l)
			out.Max[r] = max(out.Max[r], h)
		}
	}
	if out.Empty() {
		return lo, hi, false
	}
	return out.Min, out.Max, true
}

// Union grows b to hold o too.
func (b *Box) Union(o Box) {
	if o.Empty() {
		return
	}
	b.Add(o.Min[0], o.Min[1], o.Min[2])
	b.Add(o.Max[0], o.Max[1], o.Max[2])
}
