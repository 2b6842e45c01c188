package anim

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// LocalToModelJob turns a local pose into model-space matrices with one
// forward pass over the parents-first joint order.
type LocalToModelJob struct {
	// Skeleton gives the hierarchy.
	Skeleton *Skeleton
	// Input is the local pose; len = joint count.
	Input []Transform
	// Output receives each joint's model matrix; len = joint count.
	Output []mgl32.Mat4
}

// Validate reports a job that Run cannot execute.
func (j *LocalToModelJob) Validate() error {
	if j.Skeleton == nil {
		return errNilSkeleton
	}
	n := j.Skeleton.NumJoints()
	if len(j.Input) != n || len(j.Output) != n {
		return fmt.Errorf("anim: local-to-model has %d inputs and %d outputs for %d joints", len(j.Input), len(j.Output), n)
	}
	return nil
}

// Run computes Output[i] = Output[parent(i)] · Input[i].
func (j *LocalToModelJob) Run() {
	parents := j.Skeleton.Parents
	for i := range j.Input {
		local := j.Input[i].Mat4()
		if p := parents[i]; p >= 0 {
			j.Output[i] = mulAffine(&j.Output[p], &local)
		} else {
			j.Output[i] = local
		}
	}
}

// mulAffine multiplies two affine matrices (bottom row 0 0 0 1), skipping
// the products that are known to be zero.
func mulAffine(a, b *mgl32.Mat4) mgl32.Mat4 {
	var m mgl32.Mat4
	for c := 0; c < 4; c++ {
		b0, b1, b2 := b[c*4], b[c*4+1], b[c*4+2]
		m[c*4+0] = a[0]*b0 + a[4]*b1 + a[8]*b2
		m[c*4+1] = a[1]*b0 + a[5]*b1 + a[9]*b2
		m[c*4+2] = a[2]*b0 + a[6]*b1 + a[10]*b2
	}
	m[12] += a[12]
	m[13] += a[13]
	m[14] += a[14]
	m[15] = 1
	return m
}

// PaletteFloats is the number of float32 values per palette entry: an affine
// 3×4 matrix stored as three vec4 rows. std140 gives a vec4 array a 16-byte
// stride, so rows pack without padding, and dropping the constant fourth row
// fits a third more joints in a uniform block than mat4 would.
const PaletteFloats = 12

// PaletteJob builds the skinning matrix palette of one skin:
// entry i = model(Skin.Joints[i]) · Skin.InverseBind[i], written as rows.
type PaletteJob struct {
	// Skin selects joints and inverse binds.
	Skin *Skin
	// Models are the skeleton's model matrices (LocalToModelJob output).
	Models []mgl32.Mat4
	// Output receives PaletteFloats floats per skin joint, std140 layout:
	// entry i, row r, column c at Output[i*12 + r*4 + c].
	Output []float32
}

// Validate reports a job that Run cannot execute.
func (j *PaletteJob) Validate() error {
	if j.Skin == nil {
		return errors.New("anim: palette job without skin")
	}
	if len(j.Output) != PaletteFloats*len(j.Skin.Joints) {
		return fmt.Errorf("anim: palette output holds %d floats; skin %q needs %d", len(j.Output), j.Skin.Name, PaletteFloats*len(j.Skin.Joints))
	}
	if len(j.Skin.InverseBind) != len(j.Skin.Joints) {
		return fmt.Errorf("anim: skin %q has %d joints but %d inverse bind matrices", j.Skin.Name, len(j.Skin.Joints), len(j.Skin.InverseBind))
	}
	for i, jt := range j.Skin.Joints {
		if jt < 0 || jt >= len(j.Models) {
			return fmt.Errorf("anim: skin %q joint %d refers to model matrix %d of %d", j.Skin.Name, i, jt, len(j.Models))
		}
	}
	return nil
}

// Run writes the palette.
func (j *PaletteJob) Run() {
	for i, jt := range j.Skin.Joints {
		m := mulAffine(&j.Models[jt], &j.Skin.InverseBind[i])
		WritePaletteEntry(j.Output[i*PaletteFloats:i*PaletteFloats+PaletteFloats], &m)
	}
}

// WritePaletteEntry stores the top three rows of an affine matrix into dst
// (len ≥ 12) in the palette's row layout.
func WritePaletteEntry(dst []float32, m *mgl32.Mat4) {
	_ = dst[11]
	for r := 0; r < 3; r++ {
		dst[r*4+0] = m[r]
		dst[r*4+1] = m[4+r]
		dst[r*4+2] = m[8+r]
		dst[r*4+3] = m[12+r]
	}
}
