package anim

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// ModelPaletteJob is local-to-model and the skinning palette over an
// SoAPose, in affine 3×4 arithmetic: per joint, the local matrix T·R·S,
// the model matrix parent·local, and per skin joint the palette entry
// model · inverseBind. When the skin maps skin joint i to skeleton joint
// i, the SIMD kernel computes each entry in the same forward pass, while
// the model matrix is still in registers (the portable one right after
// its models pass); other skins (most files' skeletons hold nodes the
// skin leaves out) get theirs in a second pass, with the same products.
// It allocates nothing once it has run on its skin: keep the job from
// frame to frame (one built anew each frame takes its skin anew).
type ModelPaletteJob struct {
	// Skeleton gives the hierarchy.
	Skeleton *Skeleton
	// Skin selects joints and inverse binds (whose bottom rows are taken to
	// be 0 0 0 1). Nil computes the model matrices only; a model with
	// several skins runs PaletteJob on Models for the others.
	Skin *Skin
	// Input is the local pose; Len() = joint count.
	Input *SoAPose
	// Models receives each joint's model matrix as an affine 3×4 in the
	// palette's row layout (joint i, row r, column c at Models[i*12+r*4+c]);
	// len = PaletteFloats × joint count.
	Models []float32
	// Output receives the palette, PaletteFloats floats per skin joint:
	// entry i, row r, column c at Output[i*12 + r*4 + c] (std140 vec4 rows);
	// len = PaletteFloats × len(Skin.Joints); nil when Skin is nil.
	Output []float32

	// What Run keeps from one frame to the next (prepare): the skin's
	// inverse binds in rows, the skeleton's size, and whether the skin is
	// 1:1 (the palette fused into the models pass).
	kept     keptBinds
	of       int
	oneToOne bool
}

// keptBinds is what a palette job keeps of its skin from one frame to the
// next: the inverse binds' top three rows in the palette's row layout
// (bindRows), which the kernels multiply by, where the column-major
// matrices need a transposition a joint every frame; and the skin and
// slices they were taken from (not their contents).
type keptBinds struct {
	skin   *Skin
	binds  *mgl32.Mat4
	joints *int
	n      int
	rows   []float32
}

// holds reports whether the rows were taken from skin as it is.
func (k *keptBinds) holds(skin *Skin) bool {
	return k.skin == skin && k.n == len(skin.Joints) && len(skin.Joints) == len(skin.InverseBind) &&
		(k.n == 0 || k.binds == &skin.InverseBind[0] && k.joints == &skin.Joints[0])
}

// take keeps skin's rows.
func (k *keptBinds) take(skin *Skin) {
	*k = keptBinds{skin: skin, n: len(skin.Joints), rows: bindRows(skin.InverseBind)}
	if k.n > 0 && len(skin.InverseBind) == k.n {
		k.binds, k.joints = &skin.InverseBind[0], &skin.Joints[0]
	}
}

// Validate reports a job that Run cannot execute. It also drops what Run
// keeps of the skin (its inverse binds in row layout): call it again after
// writing a skin's matrices or joints in place.
func (j *ModelPaletteJob) Validate() error {
	j.kept = keptBinds{}
	if j.Skeleton == nil {
		return errNilSkeleton
	}
	n := j.Skeleton.NumJoints()
	if j.Input == nil || j.Input.Len() != n {
		return fmt.Errorf("anim: model-palette job input is not a pose of %d joints", n)
	}
	if len(j.Models) != PaletteFloats*n {
		return fmt.Errorf("anim: model-palette job models hold %d floats; %d joints need %d", len(j.Models), n, PaletteFloats*n)
	}
	if j.Skin == nil {
		if j.Output != nil {
			return errors.New("anim: model-palette job has a palette output but no skin")
		}
	} else {
		if len(j.Output) != PaletteFloats*len(j.Skin.Joints) {
			return fmt.Errorf("anim: palette output holds %d floats; skin %q needs %d", len(j.Output), j.Skin.Name, PaletteFloats*len(j.Skin.Joints))
		}
		if err := j.Skin.Validate(j.Skeleton); err != nil {
			return err
		}
	}
	for i, p := range j.Skeleton.Parents {
		if p < -1 || p >= i {
			return fmt.Errorf("anim: skeleton joint %d has parent %d; parents must come before their children", i, p)
		}
	}
	return nil
}

// Run computes the model matrices and the palette. Call Validate once when
// buffers are set up. Run keeps the skin's inverse binds in the kernels'
// row layout from its first run on a skin (or its matrices' slice) to the
// next: a skin whose matrices are written in place afterwards needs
// Validate again.
func (j *ModelPaletteJob) Run() {
	if j.Skin == nil {
		modelPalette(j.Skeleton.Parents, j.Input, j.Models, nil, nil)
		return
	}
	if !j.prepared() {
		j.prepare()
	}
	if !j.oneToOne {
		// Most files: the skeleton holds nodes the skin leaves out (a
		// root, the mesh's node), or the skin lists its joints in another
		// order. The palette is a second pass, with the same products.
		modelPalette(j.Skeleton.Parents, j.Input, j.Models, nil, nil)
		skinPalette(j.Skin.Joints, j.Models, j.kept.rows, j.Output)
		return
	}
	modelPalette(j.Skeleton.Parents, j.Input, j.Models, j.kept.rows, j.Output)
}

// prepared reports whether what Run keeps was taken from the job's skin as
// it is (its slices; not their contents) and for its skeleton.
func (j *ModelPaletteJob) prepared() bool {
	return j.kept.holds(j.Skin) && j.of == j.Skeleton.NumJoints()
}

// prepare takes from the skin its inverse binds' rows and whether it maps
// skin joint i to skeleton joint i.
func (j *ModelPaletteJob) prepare() {
	k := j.Skin
	j.kept.take(k)
	j.of = j.Skeleton.NumJoints()
	j.oneToOne = len(k.Joints) == j.of && len(k.InverseBind) == len(k.Joints)
	for i, jt := range k.Joints {
		if jt != i {
			j.oneToOne = false
			break
		}
	}
}

// bindRows is the top three rows of each matrix of ibs in the palette's
// row layout, PaletteFloats per matrix: new, never written again, so that
// copies of a job may share it.
func bindRows(ibs []mgl32.Mat4) []float32 {
	dst := make([]float32, PaletteFloats*len(ibs))
	for i := range ibs {
		WritePaletteEntry(dst[i*PaletteFloats:], &ibs[i])
	}
	return dst
}

// PaletteJob builds the skinning palette of a skin from model matrices
// already computed (ModelPaletteJob.Models): entry i = model(Skin.Joints[i])
// · Skin.InverseBind[i], with ModelPaletteJob's products (a model's second
// and later skins). Like ModelPaletteJob it keeps the skin's inverse binds
// in rows from one run to the next, and allocates nothing once it has run
// on its skin: keep the job from frame to frame.
type PaletteJob struct {
	// Skin selects joints and inverse binds.
	Skin *Skin
	// Models are the skeleton's model matrices in ModelPaletteJob's row
	// layout, PaletteFloats per joint.
	Models []float32
	// Output receives PaletteFloats floats per skin joint, in
	// ModelPaletteJob.Output's layout.
	Output []float32

	kept keptBinds
}

// Validate reports a job that Run cannot execute. It also drops what Run
// keeps of the skin: call it again after writing a skin's matrices or
// joints in place.
func (j *PaletteJob) Validate() error {
	j.kept = keptBinds{}
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
		if jt < 0 || PaletteFloats*(jt+1) > len(j.Models) {
			return fmt.Errorf("anim: skin %q joint %d refers to model matrix %d of %d", j.Skin.Name, i, jt, len(j.Models)/PaletteFloats)
		}
	}
	return nil
}

// Run writes the palette.
func (j *PaletteJob) Run() {
	if !j.kept.holds(j.Skin) {
		j.kept.take(j.Skin)
	}
	skinPalette(j.Skin.Joints, j.Models, j.kept.rows, j.Output)
}

// PaletteFloats is the number of float32 values per palette entry and per
// model matrix: an affine 3×4 matrix stored as three vec4 rows. std140
// gives a vec4 array a 16-byte stride, so rows pack without padding, and
// dropping the constant fourth row fits a third more joints in a uniform
// block than mat4 would.
const PaletteFloats = 12

// ModelMat4 returns joint i's matrix from rows in ModelPaletteJob.Models'
// layout (or palette entry i from a palette) as a column-major 4×4.
func ModelMat4(rows []float32, i int) mgl32.Mat4 {
	r := (*[12]float32)(rows[i*12 : i*12+12])
	return mgl32.Mat4{
		r[0], r[4], r[8], 0,
		r[1], r[5], r[9], 0,
		r[2], r[6], r[10], 0,
		r[3], r[7], r[11], 1,
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

// modelPaletteGeneric is the portable kernel: the hierarchy walk with the
// local matrix and the parent product written out, then, where pal is not
// nil, skinPaletteGeneric's pass for a 1:1 skin. pal is nil, or the palette
// of a 1:1 skin whose inverse binds' top rows ibs holds in the palette's
// layout (bindRows).
func modelPaletteGeneric(parents []int, in *SoAPose, models []float32, ibs []float32, pal []float32) {
	n := len(parents)
	tx, ty, tz := in.tx[:n], in.ty[:n], in.tz[:n]
	qx, qy, qz, qw := in.qx[:n], in.qy[:n], in.qz[:n], in.qw[:n]
	sx, sy, sz := in.sx[:n], in.sy[:n], in.sz[:n]
	models = models[:12*n]
	if pal != nil {
		pal = pal[:12*n]
		ibs = ibs[:12*n]
	}
	for i, p := range parents {
		// Local matrix rows, as Transform.Mat4 computes them.
		x, y, z, w := qx[i], qy[i], qz[i], qw[i]
		xx, yy, zz := x*x, y*y, z*z
		xy, xz, yz := x*y, x*z, y*z
		wx, wy, wz := w*x, w*y, w*z
		s0, s1, s2 := sx[i], sy[i], sz[i]
		l00, l01, l02 := (1-2*(yy+zz))*s0, 2*(xy-wz)*s1, 2*(xz+wy)*s2
		l10, l11, l12 := 2*(xy+wz)*s0, (1-2*(xx+zz))*s1, 2*(yz-wx)*s2
		l20, l21, l22 := 2*(xz-wy)*s0, 2*(yz+wx)*s1, (1-2*(xx+yy))*s2
		l03, l13, l23 := tx[i], ty[i], tz[i]
		m := (*[12]float32)(models[i*12 : i*12+12])
		if p >= 0 {
			a := (*[12]float32)(models[p*12 : p*12+12])
			a00, a01, a02, a03 := a[0], a[1], a[2], a[3]
			a10, a11, a12, a13 := a[4], a[5], a[6], a[7]
			a20, a21, a22, a23 := a[8], a[9], a[10], a[11]
			m[0] = a00*l00 + a01*l10 + a02*l20
			m[1] = a00*l01 + a01*l11 + a02*l21
			m[2] = a00*l02 + a01*l12 + a02*l22
			m[3] = a00*l03 + a01*l13 + a02*l23 + a03
			m[4] = a10*l00 + a11*l10 + a12*l20
			m[5] = a10*l01 + a11*l11 + a12*l21
			m[6] = a10*l02 + a11*l12 + a12*l22
			m[7] = a10*l03 + a11*l13 + a12*l23 + a13
			m[8] = a20*l00 + a21*l10 + a22*l20
			m[9] = a20*l01 + a21*l11 + a22*l21
			m[10] = a20*l02 + a21*l12 + a22*l22
			m[11] = a20*l03 + a21*l13 + a22*l23 + a23
		} else {
			*m = [12]float32{l00, l01, l02, l03, l10, l11, l12, l13, l20, l21, l22, l23}
		}
	}
	if pal != nil {
		skinPaletteGeneric(nil, models, ibs, pal)
	}
}

// skinPaletteGeneric is the portable palette pass: entry s = model of
// joints[s] · inverse bind rows s (bindRows), both affine in the palette's
// row layout; nil joints is a 1:1 skin (entry s of joint s), whose pass
// follows the models pass of modelPaletteGeneric. The products stand in
// the loop: a call a joint slowed the portable palette (docs/performance.md).
func skinPaletteGeneric(joints []int, models, ibs, pal []float32) {
	for s := range len(pal) / 12 {
		jt := s
		if joints != nil {
			jt = joints[s]
		}
		m := (*[12]float32)(models[jt*12 : jt*12+12])
		b := (*[12]float32)(ibs[s*12 : s*12+12])
		o := (*[12]float32)(pal[s*12 : s*12+12])
		m00, m01, m02, m03 := m[0], m[1], m[2], m[3]
		m10, m11, m12, m13 := m[4], m[5], m[6], m[7]
		m20, m21, m22, m23 := m[8], m[9], m[10], m[11]
		b00, b10, b20 := b[0], b[4], b[8]
		o[0] = m00*b00 + m01*b10 + m02*b20
		o[4] = m10*b00 + m11*b10 + m12*b20
		o[8] = m20*b00 + m21*b10 + m22*b20
		b01, b11, b21 := b[1], b[5], b[9]
		o[1] = m00*b01 + m01*b11 + m02*b21
		o[5] = m10*b01 + m11*b11 + m12*b21
		o[9] = m20*b01 + m21*b11 + m22*b21
		b02, b12, b22 := b[2], b[6], b[10]
		o[2] = m00*b02 + m01*b12 + m02*b22
		o[6] = m10*b02 + m11*b12 + m12*b22
		o[10] = m20*b02 + m21*b12 + m22*b22
		b03, b13, b23 := b[3], b[7], b[11]
		o[3] = m00*b03 + m01*b13 + m02*b23 + m03
		o[7] = m10*b03 + m11*b13 + m12*b23 + m13
		o[11] = m20*b03 + m21*b13 + m22*b23 + m23
	}
}

// ModelsBelow recomputes, from the local pose in, the model matrices of
// joint from and of every joint below it that need marks, keeping the
// others: after a post-processing step turned from (and perhaps joints
// below it), the next step reads current matrices without a pass over the
// whole skeleton. need must mark a joint's ancestors with it, so that
// every matrix a recomputed one is built on is current; it may end at the
// last joint it marks. parents is the skeleton's; models holds
// PaletteFloats per joint, ModelPaletteJob.Models' layout; dirty is
// scratch, one per joint. It allocates nothing.
func ModelsBelow(parents []int, in *SoAPose, models []float32, from int, dirty, need []bool) {
	for i := from; i < len(need); i++ {
		p := parents[i]
		dirty[i] = i == from || (p >= from && dirty[p])
		if dirty[i] && need[i] {
			modelAt(parents, in, models, i)
		}
	}
}

// ModelsOf computes, from the local pose in, the model matrices of the
// joints up to the last one need marks: what the post-processing steps
// read, without a pass over the whole skeleton. It runs the palette
// kernel over them, which builds local matrices eight joints at a time
// and keeps a chain's rows in registers, and computes them all, marked or
// not: on the humanoid's look-at and IK, nine joints, every one of them
// marked, that is faster than modelAt on each (docs/performance.md).
// parents is the skeleton's and len(need) ≤ len(parents); models holds
// PaletteFloats per joint, ModelPaletteJob.Models' layout. It allocates
// nothing.
func ModelsOf(parents []int, in *SoAPose, models []float32, need []bool) {
	modelPalette(parents[:len(need)], in, models, nil, nil)
}

// modelAt computes joint i's model matrix from its local transform and its
// parent's model matrix, with the arithmetic of the model-palette kernel
// that runs (mulRowsAt).
func modelAt(parents []int, in *SoAPose, models []float32, i int) {
	m := (*[12]float32)(models[i*12 : i*12+12])
	p := parents[i]
	if p < 0 {
		localRows(m, in, i)
		return
	}
	var l [12]float32
	localRows(&l, in, i)
	mulRowsAt(m, (*[12]float32)(models[p*12:p*12+12]), &l, p == i-1)
}

// localRows writes joint i's local matrix into l, the rows Transform.Mat4
// computes, in float32 for the engine or float64 for the compressor's
// reference (models64).
func localRows[F float32 | float64](l *[12]F, in *SoAPose, i int) {
	x, y, z, w := F(in.qx[i]), F(in.qy[i]), F(in.qz[i]), F(in.qw[i])
	xx, yy, zz := x*x, y*y, z*z
	xy, xz, yz := x*y, x*z, y*z
	wx, wy, wz := w*x, w*y, w*z
	s0, s1, s2 := F(in.sx[i]), F(in.sy[i]), F(in.sz[i])
	l[0], l[1], l[2], l[3] = (1-2*(yy+zz))*s0, 2*(xy-wz)*s1, 2*(xz+wy)*s2, F(in.tx[i])
	l[4], l[5], l[6], l[7] = 2*(xy+wz)*s0, (1-2*(xx+zz))*s1, 2*(yz-wx)*s2, F(in.ty[i])
	l[8], l[9], l[10], l[11] = 2*(xz-wy)*s0, 2*(yz+wx)*s1, (1-2*(xx+yy))*s2, F(in.tz[i])
}

// mulRows writes o = a · l, affine 3×4 matrices in row layout.
func mulRows[F float32 | float64](o, a, l *[12]F) {
	for r := 0; r < 12; r += 4 {
		a0, a1, a2 := a[r], a[r+1], a[r+2]
		o[r+0] = a0*l[0] + a1*l[4] + a2*l[8]
		o[r+1] = a0*l[1] + a1*l[5] + a2*l[9]
		o[r+2] = a0*l[2] + a1*l[6] + a2*l[10]
		o[r+3] = a0*l[3] + a1*l[7] + a2*l[11] + a[r+3]
	}
}
