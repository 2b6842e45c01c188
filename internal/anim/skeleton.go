package anim

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// Skeleton is a joint hierarchy in flat arrays, ordered so that every parent
// comes before its children: a single forward pass computes model-space
// matrices. Joints may form several trees (a forest).
type Skeleton struct {
	// Names of the joints; len = joint count. Names need not be unique.
	Names []string
	// Parents[i] is the index of joint i's parent, or -1 for a root.
	// Parents[i] < i always holds.
	Parents []int
	// Rest is the pose a joint has when no clip animates it; len = joint count.
	Rest []Transform
	// MorphRest are the morph target weights of the pose's morph channels
	// when no clip animates them, and MorphJoint the joint each channel
	// belongs to (the node whose mesh it weights); both empty for a
	// skeleton without morph targets.
	MorphRest  []float32
	MorphJoint []int
}

// NumJoints is the number of joints.
func (s *Skeleton) NumJoints() int { return len(s.Parents) }

// Validate checks the invariants every job relies on.
func (s *Skeleton) Validate() error {
	n := len(s.Parents)
	if len(s.Names) != n || len(s.Rest) != n {
		return fmt.Errorf("anim: skeleton has %d parents, %d names and %d rest transforms; want equal counts", n, len(s.Names), len(s.Rest))
	}
	for i, p := range s.Parents {
		if p < -1 || p >= i {
			return fmt.Errorf("anim: skeleton joint %d (%q) has parent %d; parents must come before their children", i, s.Names[i], p)
		}
	}
	return s.validateMorph()
}

// RestModel is joint j's model matrix in the rest pose (the identity for
// j = −1, the space of a root's parent).
func (s *Skeleton) RestModel(j int) mgl32.Mat4 {
	m := mgl32.Ident4()
	for ; j >= 0; j = s.Parents[j] {
		m = s.Rest[j].Mat4().Mul4(m)
	}
	return m
}

// JointIndex returns the first joint named name, or -1.
func (s *Skeleton) JointIndex(name string) int {
	for i, n := range s.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// IsDescendant reports whether joint d lies strictly below joint a; both
// index the skeleton.
func (s *Skeleton) IsDescendant(d, a int) bool {
	for p := s.Parents[d]; p >= 0; p = s.Parents[p] {
		if p == a {
			return true
		}
	}
	return false
}

// FindJoint returns the first joint named name, or an error naming it
// and listing the skeleton's joints (the first two dozen) for one it does
// not have.
func (s *Skeleton) FindJoint(name string) (int, error) {
	if j := s.JointIndex(name); j >= 0 {
		return j, nil
	}
	return -1, fmt.Errorf("unknown joint %q (joints: %s)", name, ListNames(s.Names, 24))
}

// Skin binds a mesh to a subset of a skeleton's joints: palette entry i is
// the model matrix of joint Joints[i] times InverseBind[i].
type Skin struct {
	// Name from the source file, possibly empty.
	Name string
	// Joints maps a skin joint index (the index stored in vertex data) to a
	// skeleton joint index.
	Joints []int
	// InverseBind holds one matrix per skin joint taking model space to the
	// joint's bind space; identity where the file gives none.
	InverseBind []mgl32.Mat4
}

// Validate checks the skin against the skeleton it indexes.
func (k *Skin) Validate(s *Skeleton) error {
	if len(k.InverseBind) != len(k.Joints) {
		return fmt.Errorf("anim: skin %q has %d joints but %d inverse bind matrices", k.Name, len(k.Joints), len(k.InverseBind))
	}
	for i, j := range k.Joints {
		if j < 0 || j >= s.NumJoints() {
			return fmt.Errorf("anim: skin %q joint %d refers to skeleton joint %d of %d", k.Name, i, j, s.NumJoints())
		}
	}
	return nil
}

var errNilSkeleton = errors.New("anim: nil skeleton")
