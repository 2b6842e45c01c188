package anim

import (
	"fmt"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// Retargeting (GEA §12.4.7.1): a clip authored for one skeleton played on
// another whose joints have the same names (or names mapped) but other
// proportions, as glTF tools export them.

// RetargetMap says how a source skeleton's clips drive a target skeleton:
// Joint[s] is the target joint source joint s drives (−1: none), Root the
// target's root joint (−1: none), whose translation alone is carried over,
// scaled by Scale, the ratio of the target's root height to the source's.
type RetargetMap struct {
	Joint []int
	Root  int
	Scale float32
	// RootSpace, when not zero, maps a source root translation key into
	// the target root's parent space in place of Scale alone: target
	// parent⁻¹ · Scale · source parent (the parents' rest model matrices),
	// so that roots under differently scaled armatures (centimetres under
	// a 0.01 node) land where they should.
	RootSpace mgl32.Mat4
}

// Retarget rewrites a source clip for the target skeleton. Rotation keys
// go through the two rest (bind) poses, target rest × source rest⁻¹ × key,
// so that a source joint at its rest pose puts the target joint at its
// own; the root's translation keys are scaled by m.Scale; every other
// translation and every scale keeps the target's rest, and joints no
// source joint drives keep their rest pose. Morph weight tracks are
// dropped (their meshes are the source file's). The clip shares nothing
// with src.
func Retarget(src *Clip, from, to *Skeleton, m *RetargetMap) (Clip, error) {
	if len(m.Joint) != from.NumJoints() {
		return Clip{}, fmt.Errorf("anim: retarget map has %d joints for a source skeleton of %d", len(m.Joint), from.NumJoints())
	}
	out := Clip{Name: src.Name, Duration: src.Duration, Markers: slices.Clone(src.Markers)}
	for _, tr := range src.Tracks {
		if tr.Joint < 0 || tr.Joint >= len(m.Joint) {
			return Clip{}, fmt.Errorf("anim: clip %q track on joint %d of %d", src.Name, tr.Joint, len(m.Joint))
		}
		j := m.Joint[tr.Joint]
		if j < 0 || j >= to.NumJoints() {
			continue
		}
		switch {
		case tr.Path == Rotation:
			// q' = target rest · source rest⁻¹ · q: a constant left
			// product, linear in q, so cubic tangents transform alike.
			c := to.Rest[j].Rotation.Mul(from.Rest[tr.Joint].Rotation.Inverse())
			vals := slices.Clone(tr.Values)
			for k := 0; k+4 <= len(vals); k += 4 {
				q := c.Mul(mgl32.Quat{W: vals[k+3], V: mgl32.Vec3{vals[k], vals[k+1], vals[k+2]}})
				vals[k], vals[k+1], vals[k+2], vals[k+3] = q.V[0], q.V[1], q.V[2], q.W
			}
			out.Tracks = append(out.Tracks, Track{Joint: j, Path: Rotation, Interp: tr.Interp, Times: slices.Clone(tr.Times), Values: vals})
		case tr.Path == Translation && j == m.Root:
			vals := slices.Clone(tr.Values)
			space := m.RootSpace
			if space == (mgl32.Mat4{}) {
				space = mgl32.Scale3D(m.Scale, m.Scale, m.Scale)
			}
			// Values are points; a cubic spline's tangents (the first
			// and last of each key's three) are directions.
			for k := 0; k+3 <= len(vals); k += 3 {
				w := float32(1)
				if tr.Interp == CubicSpline && (k/3)%3 != 1 {
					w = 0
				}
				v := space.Mul4x1(mgl32.Vec4{vals[k], vals[k+1], vals[k+2], w})
				vals[k], vals[k+1], vals[k+2] = v[0], v[1], v[2]
			}
			out.Tracks = append(out.Tracks, Track{Joint: j, Path: Translation, Interp: tr.Interp, Times: slices.Clone(tr.Times), Values: vals})
		}
	}
	return out, nil
}
