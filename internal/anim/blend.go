package anim

import (
	"fmt"
	"math"
)

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
	blendSoA(out, a, b, w, nlerp, heldAlike(out, a, b))
	if len(out.W) > 0 {
		lerpW(out, a, b, w, nil)
	}
	lerpMotion(out, a, b, w)
}

// heldAlike is, for a layer writing out from a and b, the paths (bit p)
// whose stripes a and b hold alike by their tags (SoAPose.held): out
// holds a's there after it, copied where it did not already, and the
// layer's kernels may leave them, since a + (b − a)·w is a there. Every
// other path's claim on out is dropped, for the kernels to write it.
func heldAlike(out, a, b *SoAPose) uint8 {
	return out.alikeAt(Translation, a, b) | out.alikeAt(Scale, a, b)
}

// alikeAt is heldAlike for one path.
func (out *SoAPose) alikeAt(p Path, a, b *SoAPose) uint8 {
	if t := a.held[p]; t == (heldTag{}) || t != b.held[p] {
		out.held[p] = heldTag{}
		return 0
	}
	out.keepHeld(p, a)
	return 1 << p
}

// blendSoAGeneric is the portable blend kernel, the quaternion arithmetic
// written out. Padding lanes are left alone, and so are the paths alike
// marks (heldAlike).
func blendSoAGeneric(out, a, b *SoAPose, w float32, nlerp bool, alike uint8) {
	n := out.n
	for _, p := range tsPaths {
		if alike&(1<<p) == 0 {
			lerp3(out.stripes(p), a.stripes(p), b.stripes(p), n, w)
		}
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

// lerp3 writes o = a + (b − a)·w over the first n lanes of three stripes
// of equal length, the path stripes of a translation or a scale.
func lerp3(o, a, b []float32, n int, w float32) {
	pad := len(o) / 3
	o0, o1, o2 := o[:n], o[pad:pad+n], o[2*pad:2*pad+n]
	a0, a1, a2 := a[:n], a[pad:pad+n], a[2*pad:2*pad+n]
	b0, b1, b2 := b[:n], b[pad:pad+n], b[2*pad:2*pad+n]
	for i := range o0 {
		o0[i] = a0[i] + (b0[i]-a0[i])*w
		o1[i] = a1[i] + (b1[i]-a1[i])*w
		o2[i] = a2[i] + (b2[i]-a2[i])*w
	}
}
