package scene

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/character"
)

// leastShown is the share of the picture's width or height the pose a
// view opens on covers at least (render.FrameShown), however much the
// model grows later in its clip.
const leastShown = 0.4

// PosePoints appends to dst every vertex a triangle draws, where the
// current pose puts it (as Refresh left the scene): morphed by the
// character's weights, then skinned by its palettes (linear blend,
// weights normalized as the shader does) or moved by its node. At most
// limit points are kept, every k-th of a larger set, for framing.
func (s *GPU) PosePoints(dst []mgl32.Vec3, c *character.Character, limit int) []mgl32.Vec3 {
	total := 0
	for i := range s.frames {
		total += len(s.frames[i].used)
	}
	step := max(1, (total+limit-1)/max(limit, 1))
	var morphed []float32
	k := 0
	for i := range s.frames {
		f := &s.frames[i]
		p := f.prim
		pos := p.Positions
		if w := c.MorphWeights(f.node); len(p.Targets) > 0 && len(w) > 0 {
			if cap(morphed) < len(pos) {
				morphed = make([]float32, len(pos))
			}
			morphed = morphed[:len(pos)]
			p.Morph(morphed, nil, w)
			pos = morphed
		}
		var pal []float32
		if f.rigid == nil {
			pal = c.Palettes[c.Model.Instances[f.instance].Skin]
		}
		for _, v := range f.used {
			if k++; (k-1)%step != 0 {
				continue
			}
			x, y, z := pos[v*3], pos[v*3+1], pos[v*3+2]
			if f.rigid != nil {
				dst = append(dst, entryTimes(f.rigid, x, y, z))
				continue
			}
			var sum mgl32.Vec3
			var total float32
			for q := int(v) * f.per; q < int(v+1)*f.per; q++ {
				if w := p.Weights[q]; w != 0 {
					j := int(p.Joints[q]) * anim.PaletteFloats
					sum = sum.Add(entryTimes(pal[j:j+anim.PaletteFloats], x, y, z).Mul(w))
					total += w
				}
			}
			if total == 0 {
				sum = mgl32.Vec3{x, y, z} // no weight: skinning leaves it
			} else {
				sum = sum.Mul(1 / total)
			}
			dst = append(dst, sum)
		}
	}
	return dst
}

// entryTimes is palette entry m (anim's rows) applied to the point.
func entryTimes(m []float32, x, y, z float32) mgl32.Vec3 {
	return mgl32.Vec3{
		m[0]*x + m[1]*y + m[2]*z + m[3],
		m[4]*x + m[5]*y + m[6]*z + m[7],
		m[8]*x + m[9]*y + m[10]*z + m[11],
	}
}
