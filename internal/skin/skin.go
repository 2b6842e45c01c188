package skin

import (
	"fmt"

	"github.com/skinview/skinview/internal/anim"
)

// Positions writes the linear-blend-skinned position of every vertex into
// dst: v' = Σ wᵢ · (Pᵢ · v), over per influences per vertex, with Pᵢ read
// from palette (anim's row layout). Weights that do not sum to 1 are
// normalized, as renderers do (the glTF formula assumes they sum to 1),
// and a vertex without weight stays at its bind position.
func Positions(dst, positions []float32, joints []uint16, weights []float32, per int, palette []float32) error {
	n := len(positions) / 3
	if len(dst) < n*3 || len(joints) < n*per || len(weights) < n*per {
		return fmt.Errorf("skin: %d vertices need %d outputs and %d influences; have %d, %d joints, %d weights", n, n*3, n*per, len(dst), len(joints), len(weights))
	}
	entries := len(palette) / anim.PaletteFloats
	for v := 0; v < n; v++ {
		x, y, z := positions[v*3], positions[v*3+1], positions[v*3+2]
		var ox, oy, oz, total float32
		for k := v * per; k < (v+1)*per; k++ {
			w := weights[k]
			if w == 0 {
				continue
			}
			total += w
			j := int(joints[k])
			if j >= entries {
				return fmt.Errorf("skin: vertex %d uses joint %d; the palette has %d", v, j, entries)
			}
			m := palette[j*anim.PaletteFloats : j*anim.PaletteFloats+anim.PaletteFloats]
			ox += w * (m[0]*x + m[1]*y + m[2]*z + m[3])
			oy += w * (m[4]*x + m[5]*y + m[6]*z + m[7])
			oz += w * (m[8]*x + m[9]*y + m[10]*z + m[11])
		}
		switch total {
		case 0:
			ox, oy, oz = x, y, z
		case 1:
		default:
			ox, oy, oz = ox/total, oy/total, oz/total
		}
		dst[v*3], dst[v*3+1], dst[v*3+2] = ox, oy, oz
	}
	return nil
}

// Transform writes m·v for every position, m a palette entry (12 floats):
// the rigid case, a mesh carried by one node.
func Transform(dst, positions []float32, m []float32) {
	for v := 0; v+2 < len(positions); v += 3 {
		x, y, z := positions[v], positions[v+1], positions[v+2]
		dst[v] = m[0]*x + m[1]*y + m[2]*z + m[3]
		dst[v+1] = m[4]*x + m[5]*y + m[6]*z + m[7]
		dst[v+2] = m[8]*x + m[9]*y + m[10]*z + m[11]
	}
}

// Bounds returns the axis-aligned box of xyz positions; ok is false when
// there are none.
func Bounds(positions []float32) (min, max [3]float32, ok bool) {
	if len(positions) < 3 {
		return min, max, false
	}
	copy(min[:], positions[:3])
	copy(max[:], positions[:3])
	for v := 3; v+2 < len(positions); v += 3 {
		for c := 0; c < 3; c++ {
			x := positions[v+c]
			if x < min[c] {
				min[c] = x
			}
			if x > max[c] {
				max[c] = x
			}
		}
	}
	return min, max, true
}
