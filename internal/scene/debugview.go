package scene

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/render"
)

// partitionTint gives draw call i a colour far from its neighbours': hues
// step by the golden angle.
func partitionTint(i int) [4]float32 {
	h := math.Mod(float64(i)*0.618033988749895, 1) * 6
	x := float32(1 - math.Abs(math.Mod(h, 2)-1))
	var r, g, b float32
	switch int(h) {
	case 0:
		r, g = 1, x
	case 1:
		r, g = x, 1
	case 2:
		g, b = 1, x
	case 3:
		g, b = x, 1
	case 4:
		r, b = x, 1
	default:
		r, b = 1, x
	}
	// Linear values that stay bright after the shader's lighting.
	return [4]float32{0.1 + 0.8*r, 0.1 + 0.8*g, 0.1 + 0.8*b, 1}
}

// resolveJoint finds a skeleton joint by name or index for the weights
// view; "" picks the joint with the most vertices of the first skin (the
// first in skin order on a tie).
func resolveJoint(c *character.Character, spec string) (int, error) {
	m := c.Model
	if spec == "" {
		if len(m.Skins) == 0 {
			return -1, nil
		}
		counts := make([]int, len(m.Skins[0].Joints))
		for _, inst := range m.Instances {
			if inst.Skin != 0 {
				continue
			}
			for _, p := range m.Meshes[inst.Mesh].Primitives {
				for k, j := range p.Joints {
					if p.Weights[k] > 0 && int(j) < len(counts) {
						counts[j]++
					}
				}
			}
		}
		best := 0
		for j, n := range counts {
			if n > counts[best] {
				best = j
			}
		}
		return m.Skins[0].Joints[best], nil
	}
	if j := m.Skeleton.JointIndex(spec); j >= 0 {
		return j, nil
	}
	if i, err := strconv.Atoi(spec); err == nil && i >= 0 && i < m.Skeleton.NumJoints() {
		return i, nil
	}
	return -1, fmt.Errorf("-joint %q: no such joint in %s", spec, m.Name)
}

// setDebugView prepares every draw item for the chosen view: partition
// tints, and the local palette entry of the joint whose weights are shown.
func (s *GPU) setDebugView(c *character.Character, joint int) {
	for i := range s.items {
		s.items[i].Tint = partitionTint(i)
		s.items[i].WeightJoint = -1
		d := &s.draws[i]
		inst := c.Model.Instances[d.instance]
		if joint < 0 || inst.Skin < 0 || !d.gpu {
			continue
		}
		for k, sj := range c.Model.Skins[inst.Skin].Joints {
			if sj != joint {
				continue
			}
			if d.joints == nil {
				s.items[i].WeightJoint = k
				break
			}
			for local, pj := range d.joints {
				if int(pj) == k {
					s.items[i].WeightJoint = local
				}
			}
		}
	}
}

// drawSkeleton overlays every skin's joints and bones, projected with the
// view's camera, through the HUD: bones stay visible inside the mesh.
// The axes of joint (−1: none), a tenth of the bones' reach long, mark it.
func drawSkeleton(h *render.HUD, c *character.Character, joint int, cam render.Camera, w, ht int) {
	project := func(j int) (float32, float32, bool) {
		return cam.Project(c.Shown(c.JointWorld(j).Col(3).Vec3()), w, ht)
	}
	bone := color.NRGBA{255, 214, 64, 255}
	n := c.Model.Skeleton.NumJoints()
	for j := range n {
		if !c.InSkin(j) {
			continue
		}
		x, y, ok := project(j)
		if !ok {
			continue
		}
		if p := c.Model.Skeleton.Parents[j]; p >= 0 && c.InSkin(p) {
			if px, py, ok := project(p); ok {
				h.Line(px, py, x, y, 2, bone)
			}
		}
	}
	for j := range n {
		if c.InSkin(j) {
			if x, y, ok := project(j); ok {
				h.Disc(x, y, 3.5, color.NRGBA{255, 90, 40, 255})
			}
		}
	}
	// The joint's axes: X red, Y green, Z blue.
	if j := joint; j >= 0 && j < n {
		m := c.RootMatrix().Mul4(c.JointWorld(j))
		o := m.Col(3).Vec3()
		x0, y0, ok := cam.Project(o, w, ht)
		if !ok {
			return
		}
		h.Disc(x0, y0, 6, color.NRGBA{255, 255, 255, 255})
		for k, col := range [3]color.NRGBA{{235, 60, 50, 255}, {70, 200, 80, 255}, {70, 120, 235, 255}} {
			axis := m.Col(k).Vec3()
			if l := axis.Len(); l > 0 {
				axis = axis.Mul(c.Reach() / 10 / l)
			}
			if x1, y1, ok := cam.Project(o.Add(axis), w, ht); ok {
				h.Line(x0, y0, x1, y1, 2, col)
			}
		}
	}
}

// PickJoint is the skin joint drawn nearest to (x, y), framebuffer pixels,
// within radius pixels (the rim included), or −1.
func (v *View) PickJoint(x, y, radius float32) int {
	best, bestD := -1, radius*radius
	for j := range v.c.Model.Skeleton.NumJoints() {
		if !v.c.InSkin(j) {
			continue
		}
		px, py, ok := v.Camera().Project(v.c.Shown(v.c.JointWorld(j).Col(3).Vec3()), v.W, v.H)
		if !ok {
			continue
		}
		if d := (px-x)*(px-x) + (py-y)*(py-y); d <= bestD {
			best, bestD = j, d
		}
	}
	return best
}
