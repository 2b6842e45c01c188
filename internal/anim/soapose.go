package anim

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// soaLanes is the block size SoA stripes are padded to: the 8 float32
// lanes of an AVX2 vector (AVX-512 kernels take a last block of 8 with
// AVX2 instructions). A small skeleton wastes fewer lanes than with 16:
// 19 joints take 24, not 32.
const soaLanes = 8

// soaPadded rounds n up to whole blocks of soaLanes.
func soaPadded(n int) int { return (n + soaLanes - 1) / soaLanes * soaLanes }

// SoAPose is a local pose stored as a structure of arrays: one stripe of
// float32 per transform component, joint i at index i of every stripe. It
// is the buffer type of the fast pipeline (RuntimeClip sampling, BlendSoA,
// ModelPaletteJob), where one loop or one vector instruction handles the
// same component of many joints. Stripes are padded to a multiple of 8
// joints; padding lanes hold the identity transform and are never part of
// the pose. The zero value is an empty pose; use NewSoAPose.
type SoAPose struct {
	n int
	// The stripes, each of padded length, all slices of buf in this
	// order.
	buf            []float32
	tx, ty, tz     []float32
	qx, qy, qz, qw []float32
	sx, sy, sz     []float32
	// W holds the morph target weights, one per morph channel of the
	// skeleton (NewPose); empty for a pose of joints only. wj is the joint
	// of each channel, shared with the skeleton.
	W  []float32
	wj []int
	// Motion is the root motion the pose carries (see rootmotion.go):
	// identity for the rest pose and when root motion is off.
	Motion Transform
}

// NewSoAPose returns a pose of n joints, every joint (and padding lane) at
// the identity transform.
func NewSoAPose(n int) *SoAPose {
	if n < 0 {
		panic(fmt.Sprintf("anim: NewSoAPose(%d)", n))
	}
	p := soaPadded(n)
	buf := make([]float32, 10*p)
	s := func(i int) []float32 { return buf[i*p : (i+1)*p : (i+1)*p] }
	pose := &SoAPose{n: n, buf: buf,
		tx: s(0), ty: s(1), tz: s(2),
		qx: s(3), qy: s(4), qz: s(5), qw: s(6),
		sx: s(7), sy: s(8), sz: s(9),
	}
	for i := range p {
		pose.qw[i], pose.sx[i], pose.sy[i], pose.sz[i] = 1, 1, 1, 1
	}
	pose.Motion = identityMotion
	return pose
}

// Len is the number of joints.
func (p *SoAPose) Len() int { return p.n }

// At returns joint i's transform.
func (p *SoAPose) At(i int) Transform {
	_ = p.tx[:p.n][i]
	return Transform{
		Translation: mgl32.Vec3{p.tx[i], p.ty[i], p.tz[i]},
		Rotation:    mgl32.Quat{W: p.qw[i], V: mgl32.Vec3{p.qx[i], p.qy[i], p.qz[i]}},
		Scale:       mgl32.Vec3{p.sx[i], p.sy[i], p.sz[i]},
	}
}

// Set stores t as joint i's transform.
func (p *SoAPose) Set(i int, t Transform) {
	_ = p.tx[:p.n][i]
	p.tx[i], p.ty[i], p.tz[i] = t.Translation[0], t.Translation[1], t.Translation[2]
	p.qx[i], p.qy[i], p.qz[i], p.qw[i] = t.Rotation.V[0], t.Rotation.V[1], t.Rotation.V[2], t.Rotation.W
	p.sx[i], p.sy[i], p.sz[i] = t.Scale[0], t.Scale[1], t.Scale[2]
}

// FromTransforms copies an AoS pose in; len(src) == Len().
func (p *SoAPose) FromTransforms(src []Transform) {
	if len(src) != p.n {
		panic(fmt.Sprintf("anim: SoAPose of %d joints given %d transforms", p.n, len(src)))
	}
	for i := range src {
		p.Set(i, src[i])
	}
}

// ToTransforms copies the pose out into an AoS pose; len(dst) == Len().
func (p *SoAPose) ToTransforms(dst []Transform) {
	if len(dst) != p.n {
		panic(fmt.Sprintf("anim: SoAPose of %d joints copied into %d transforms", p.n, len(dst)))
	}
	for i := range dst {
		dst[i] = p.At(i)
	}
}

// CopyFrom makes p a copy of src, which has the same length.
func (p *SoAPose) CopyFrom(src *SoAPose) {
	if src.n != p.n {
		panic(fmt.Sprintf("anim: SoAPose of %d joints copied from %d", p.n, src.n))
	}
	copy(p.buf, src.buf)
	copy(p.W, src.W)
	p.Motion = src.Motion
}

// BlendSoA blends two poses like LerpPose (nlerp false: rotations slerped
// along the shortest arc) or NlerpPose (nlerp true): out = a at w = 0, b at
// w = 1, and w ≤ 0 or w ≥ 1 copy a or b bit for bit. The slerp is the
// polynomial form of Slerp (see slerpPoly), within 1e-6 of it. out may be a
// or b; all three have the same length.
func BlendSoA(out, a, b *SoAPose, w float32, nlerp bool) {
	if a.n != out.n || b.n != out.n {
		panic(fmt.Sprintf("anim: BlendSoA of %d and %d joints into %d", a.n, b.n, out.n))
	}
	switch {
	case w <= 0:
		if out != a {
			out.CopyFrom(a)
		}
		return
	case w >= 1:
		if out != b {
			out.CopyFrom(b)
		}
		return
	}
	blendSoA(out, a, b, w, nlerp)
	if len(out.W) > 0 {
		lerpW(out, a, b, w, nil)
	}
	lerpMotion(out, a, b, w)
}

// blendSoAGeneric is the portable blend kernel, the quaternion arithmetic
// written out. Padding lanes are left alone.
func blendSoAGeneric(out, a, b *SoAPose, w float32, nlerp bool) {
	n := out.n
	atx, aty, atz, asx, asy, asz := a.tx[:n], a.ty[:n], a.tz[:n], a.sx[:n], a.sy[:n], a.sz[:n]
	btx, bty, btz, bsx, bsy, bsz := b.tx[:n], b.ty[:n], b.tz[:n], b.sx[:n], b.sy[:n], b.sz[:n]
	otx, oty, otz, osx, osy, osz := out.tx[:n], out.ty[:n], out.tz[:n], out.sx[:n], out.sy[:n], out.sz[:n]
	for i := range otx {
		otx[i] = atx[i] + (btx[i]-atx[i])*w
		oty[i] = aty[i] + (bty[i]-aty[i])*w
		otz[i] = atz[i] + (btz[i]-atz[i])*w
		osx[i] = asx[i] + (bsx[i]-asx[i])*w
		osy[i] = asy[i] + (bsy[i]-asy[i])*w
		osz[i] = asz[i] + (bsz[i]-asz[i])*w
	}
	ax, ay, az, aw := a.qx[:n], a.qy[:n], a.qz[:n], a.qw[:n]
	bx, by, bz, bw := b.qx[:n], b.qy[:n], b.qz[:n], b.qw[:n]
	ox, oy, oz, ow := out.qx[:n], out.qy[:n], out.qz[:n], out.qw[:n]
	if !nlerp {
		for i := range ox {
			if ax[i] == bx[i] && ay[i] == by[i] && az[i] == bz[i] && aw[i] == bw[i] {
				// A joint both poses hold alike (neither clip moves it):
				// the slerp is a, which the polynomial gives only to
				// within rounding, at the cost of most of this loop.
				ox[i], oy[i], oz[i], ow[i] = ax[i], ay[i], az[i], aw[i]
				continue
			}
			ox[i], oy[i], oz[i], ow[i] = slerpPoly(ax[i], ay[i], az[i], aw[i], bx[i], by[i], bz[i], bw[i], w)
		}
		return
	}
	v := 1 - w
	for i := range ox {
		x0, y0, z0, w0 := ax[i], ay[i], az[i], aw[i]
		x1, y1, z1, w1 := bx[i], by[i], bz[i], bw[i]
		u := w
		if x0*x1+y0*y1+z0*z1+w0*w1 < 0 {
			u = -w // shortest arc: blend towards −b
		}
		x, y, z, q := v*x0+u*x1, v*y0+u*y1, v*z0+u*z1, v*w0+u*w1
		l := float32(math.Sqrt(float64(x*x + y*y + z*z + q*q)))
		if !(l > 0) {
			x, y, z, q, l = 0, 0, 0, 1, 1
		}
		inv := 1 / l
		ox[i], oy[i], oz[i], ow[i] = x*inv, y*inv, z*inv, q*inv
	}
}
