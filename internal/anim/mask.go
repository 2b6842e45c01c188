package anim

import (
	"fmt"
	"strings"
)

// NewMask returns a per-joint weight mask for sk, every weight 0, of
// length sk.NumJoints() and with zeros in its capacity up to the pose's
// padding, so that MaskedBlendSoA and AddSoA run its last block in
// vector lanes. The mask is the caller's.
func NewMask(sk *Skeleton) []float32 {
	return make([]float32, sk.NumJoints(), soaPadded(sk.NumJoints()))
}

// SubtreeMask adds the subtree of the joint named root to a per-joint weight
// mask: root and every descendant get weight 1, except that with falloff
// k > 0 the first k joints down each chain ramp in, the joint at depth d
// below root (root is depth 0) getting (d+1)/(k+1). The ramp spreads the
// seam of a partial blend over several joints (a spine that turns a little
// at the waist, more at the chest) instead of one hard crease.
//
// dst has one weight per joint, len = sk.NumJoints(); it is combined with
// the new weights by taking the larger, so calling SubtreeMask twice makes
// the union of two subtrees. Joints outside the subtree are left alone. The
// skeleton's parents-first order lets one forward pass find the subtree.
func SubtreeMask(sk *Skeleton, root string, falloff int, dst []float32) error {
	if sk == nil {
		return errNilSkeleton
	}
	if len(dst) != sk.NumJoints() {
		return fmt.Errorf("anim: mask has %d weights for %d joints", len(dst), sk.NumJoints())
	}
	r, err := sk.FindJoint(root)
	if err != nil {
		return fmt.Errorf("anim: mask root: %w", err)
	}
	if falloff < 0 {
		return fmt.Errorf("anim: mask falloff %d for joint %q is negative", falloff, root)
	}
	// depth[i] - 1 is the depth below root; 0 marks joints outside it. The
	// slice is sized by the skeleton, which is fine: masks are built once.
	depth := make([]int, len(dst))
	depth[r] = 1
	for i := r + 1; i < len(dst); i++ {
		if p := sk.Parents[i]; p >= r && depth[p] > 0 {
			depth[i] = depth[p] + 1
		}
	}
	for i, d := range depth {
		if d == 0 {
			continue
		}
		w := float32(1)
		if d <= falloff {
			w = float32(d) / float32(falloff+1)
		}
		if w > dst[i] {
			dst[i] = w
		}
	}
	return nil
}

// ListNames joins at most limit names, each quoted, for an error message:
// `"a", "b", … 3 more`; "none" for no names.
func ListNames(names []string, limit int) string {
	if len(names) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, n := range names {
		if i == limit {
			fmt.Fprintf(&b, ", … %d more", len(names)-limit)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", n)
	}
	return b.String()
}
