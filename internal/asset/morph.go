package asset

import (
	"math"

	"github.com/skinview/skinview/internal/gltfload"
)

// MorphDisplacements are, per weight channel of m's pose (its skeleton's
// MorphRest order), the farthest a weight of 1 on it moves a vertex, in
// model units: what anim.CompressOptions.MorphDisplacement takes. A
// channel's is the longest position displacement of its target over the
// primitives of the mesh of every node it weights (the largest where
// several nodes share it), times, for a mesh drawn rigidly, the largest
// product of rest scales along its node's ancestors and itself (a skinned
// mesh's vertices are placed by its joints, whose bind pose undoes their
// scale: 1); scales a clip animates are not counted. Channels that are no
// morph target (KHR_animation_pointer's material, camera and light
// channels) are −1: their weights stay as they are.
func MorphDisplacements(m *gltfload.Model) []float64 {
	sk := &m.Skeleton
	out := make([]float64, len(sk.MorphRest))
	for k := range out {
		out[k] = -1
	}
	skinned := make(map[int]bool, len(m.Instances))
	for _, in := range m.Instances {
		if in.Skin >= 0 {
			skinned[in.Node] = true
		}
	}
	for n, first := range m.NodeMorph {
		if first < 0 || n >= len(m.NodeMesh) || m.NodeMesh[n] < 0 || m.NodeMesh[n] >= len(m.Meshes) {
			continue
		}
		scale := 1.0
		if !skinned[n] && n < len(m.JointOfNode) {
			for j := m.JointOfNode[n]; j >= 0 && j < len(sk.Rest); j = sk.Parents[j] {
				s := sk.Rest[j].Scale
				scale *= max(math.Abs(float64(s[0])), math.Abs(float64(s[1])), math.Abs(float64(s[2])))
			}
		}
		mesh := &m.Meshes[m.NodeMesh[n]]
		for t := range mesh.Targets {
			k := first + t
			if k >= len(out) {
				break
			}
			out[k] = max(out[k], scale*targetReach(mesh, t))
		}
	}
	return out
}

// targetReach is the longest position displacement of morph target t
// over the mesh's primitives, in the mesh's units.
func targetReach(mesh *gltfload.Mesh, t int) float64 {
	var d2 float64
	for i := range mesh.Primitives {
		p := &mesh.Primitives[i]
		if t >= len(p.Targets) {
			continue
		}
		pos := p.Targets[t].Positions
		for v := 0; v+2 < len(pos); v += 3 {
			x, y, z := float64(pos[v]), float64(pos[v+1]), float64(pos[v+2])
			d2 = max(d2, x*x+y*y+z*z)
		}
	}
	return math.Sqrt(d2)
}
