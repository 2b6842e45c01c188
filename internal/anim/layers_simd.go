//go:build goexperiment.simd && amd64

package anim

import "simd/archsimd"

// sameMasks and identityMasks find, with vector compares, the joints of
// up to 64 blocks of 8 from joint from that a difference or an additive
// layer leaves alone (laneMasks), and report whether they found any:
// where none is (a dense pose), the loop over the chunk skips the
// per-joint test.
// They run where layerLanes is set (calibrate chose AVX2 or wider for the
// layers); otherwise they leave m zero and report false, and the layers
// test their joints one at a time, each test stopping at the first
// component that differs. One call covers 512 joints, so that the call,
// and the VZEROUPPER after it, do not cost each block of a dense pose more
// than its compares save. The compares run in a function of their own,
// not inlined, so that the compiler cannot move VZEROUPPER in among them
// (it did: the scalar code after them ran with the upper halves dirty, and
// the layers took twice as long).
func sameMasks(p, q *SoAPose, from int, m *laneMasks) bool {
	if !layerLanes {
		return false
	}
	found := sameMasks8(p, q, from, m)
	archsimd.ClearAVXUpperBits()
	return found
}

func identityMasks(p *SoAPose, from int, m *laneMasks) bool {
	if !layerLanes {
		return false
	}
	found := identityMasks8(p, from, m)
	archsimd.ClearAVXUpperBits()
	return found
}

// addLanes runs AddSoA's arithmetic 8 joints at a time over the whole
// blocks from joint c to end, where layerLanes is set, and returns the
// first joint after them. A block with a weight outside [0, 1] or a scale
// to raise to a power goes to addJoints whole.
func addLanes(out, base, diff *SoAPose, w float32, mask []float32, c, end int, still *laneMasks, alike bool, held uint8) int {
	if !layerLanes {
		return c
	}
	for i := c; ; i += 8 {
		i = addLanes8(out, base, diff, w, mask, c, i, end, still, alike, held)
		archsimd.ClearAVXUpperBits()
		if i+8 > end {
			return i
		}
		addJoints(out, base, diff, w, mask, i, i+8, still, alike, held)
	}
}

// maskedLanes runs MaskedBlendSoA's arithmetic 8 joints at a time over
// the whole blocks of its first end joints, where layerLanes is set, and
// returns the first joint after them: joints weighted 0 or less, or alike
// in a and b, keep a bit for bit, joints weighted 1 or more take b, the
// others are interpolated as MaskedBlendSoA's joint-by-joint code does.
func maskedLanes(out, a, b *SoAPose, w float32, mask []float32, nlerp bool, end int, alike uint8) int {
	if !layerLanes {
		return 0
	}
	i := maskedLanes8(out, a, b, w, mask, nlerp, end, alike)
	archsimd.ClearAVXUpperBits()
	return i
}

// maskedLanes8 reads w once and calls no scalar code (see addLanes8). A
// block with one joint to interpolate costs it as much as one with eight;
// leaving such blocks to the scalar code saved a little on the character's
// masked layer and cost dense layers much more, so it does not. Only a
// block with joints to interpolate tests which joints a and b hold alike:
// a mask leaves most blocks of a skeleton to the base or to the layer.
//
//go:noinline
func maskedLanes8(out, a, b *SoAPose, w float32, mask []float32, nlerp bool, end int, alike uint8) int {
	zero, one := archsimd.Float32x8{}, archsimd.BroadcastFloat32x8(1)
	wb := archsimd.BroadcastFloat32x8(w)
	i := 0
	for ; i+8 <= end; i += 8 {
		wv := wb.Mul(load8(mask, i))
		keep, take := wv.LessEqual(zero), wv.GreaterEqual(one)
		if keep.ToBits() == 0xff && out == a {
			continue
		}
		settled := keep.Or(take).ToBits() == 0xff
		if !settled {
			keep = keep.Or(sameBlock8(a, b, i))
			settled = keep.Or(take).ToBits() == 0xff
		}
		if settled {
			// Every joint keeps a or takes b (a mask's hard edge): no
			// arithmetic.
			selectBlock8(out, a, b, i, keep)
			continue
		}
		if alike&(1<<Translation) == 0 {
			lerpLanes(out.tx, a.tx, b.tx, i, wv, keep, take)
			lerpLanes(out.ty, a.ty, b.ty, i, wv, keep, take)
			lerpLanes(out.tz, a.tz, b.tz, i, wv, keep, take)
		}
		if alike&(1<<Scale) == 0 {
			lerpLanes(out.sx, a.sx, b.sx, i, wv, keep, take)
			lerpLanes(out.sy, a.sy, b.sy, i, wv, keep, take)
			lerpLanes(out.sz, a.sz, b.sz, i, wv, keep, take)
		}
		ax, ay, az, aw := load8(a.qx, i), load8(a.qy, i), load8(a.qz, i), load8(a.qw, i)
		bx, by, bz, bw := load8(b.qx, i), load8(b.qy, i), load8(b.qz, i), load8(b.qw, i)
		var x, y, z, q archsimd.Float32x8
		if nlerp {
			x, y, z, q = nlerp8(ax, ay, az, aw, bx, by, bz, bw, wv)
		} else {
			x, y, z, q = slerp8(ax, ay, az, aw, bx, by, bz, bw, wv, false)
		}
		ax.Merge(bx.Merge(x, take), keep).Store((*[8]float32)(out.qx[i : i+8]))
		ay.Merge(by.Merge(y, take), keep).Store((*[8]float32)(out.qy[i : i+8]))
		az.Merge(bz.Merge(z, take), keep).Store((*[8]float32)(out.qz[i : i+8]))
		aw.Merge(bw.Merge(q, take), keep).Store((*[8]float32)(out.qw[i : i+8]))
	}
	return i
}

// sameBlock8 is the lanes of joints i to i+7 that a and b hold alike,
// every stripe equal. It tests the qw stripe first and stops there when
// no joint of the block passes: translations are often bone offsets,
// alike in every pose of a skeleton, rotations seldom are.
func sameBlock8(a, b *SoAPose, i int) archsimd.Mask32x8 {
	pad := len(a.tx)
	m := load8(a.buf, stripeQW*pad+i).Equal(load8(b.buf, stripeQW*pad+i))
	if m.ToBits() == 0 {
		return m
	}
	for s := range 10 {
		if s != stripeQW {
			m = m.And(load8(a.buf, s*pad+i).Equal(load8(b.buf, s*pad+i)))
		}
	}
	return m
}

// stripeQW is the index of the qw stripe in SoAPose.buf.
const stripeQW = 6

// lerpLanes stores a + (b − a)·w into out[i : i+8], a where keep, else b
// where take.
func lerpLanes(out, a, b []float32, i int, w archsimd.Float32x8, keep, take archsimd.Mask32x8) {
	av, bv := load8(a, i), load8(b, i)
	av.Merge(bv.Merge(av.Add(bv.Sub(av).Mul(w)), take), keep).Store((*[8]float32)(out[i : i+8]))
}

// laneBit is each lane's bit in a block's laneMasks byte.
var laneBit = [8]int32{1, 2, 4, 8, 16, 32, 64, 128}

// addLanes8 runs the blocks from joint from, in the chunk from c, up to
// the first it leaves to addJoints. It calls no scalar code, and reads w
// once: w live across the loop was reloaded with a legacy-SSE MOVSS each
// block, with the upper halves dirty (docs/performance-kernels.md has the
// cost).
//
//go:noinline
func addLanes8(out, base, diff *SoAPose, w float32, mask []float32, c, from, end int, still *laneMasks, alike bool, held uint8) int {
	zero, one := archsimd.Float32x8{}, archsimd.BroadcastFloat32x8(1)
	bits := archsimd.LoadInt32x8(&laneBit)
	wb := archsimd.BroadcastFloat32x8(w)
	i := from
	for ; i+8 <= end; i += 8 {
		wv := wb
		if mask != nil {
			wv = wv.Mul(load8(mask, i))
		}
		// skip: the joints that keep base, bit for bit.
		skip := wv.Equal(zero)
		if b := still[(i-c)/8]; alike && b != 0 {
			skip = skip.Or(archsimd.BroadcastInt32x8(int32(b)).And(bits).Equal(bits))
		}
		if skip.ToBits() == 0xff {
			if out != base {
				copyBlock8(out, base, i)
			}
			continue
		}
		unit := wv.Equal(one)
		lanes := wv.GreaterEqual(zero).And(wv.LessEqual(one))
		scale := held&(1<<Scale) == 0 // else no scale to raise to a power
		var sx, sy, sz archsimd.Float32x8
		if scale {
			sx, sy, sz = load8(diff.sx, i), load8(diff.sy, i), load8(diff.sz, i)
			lanes = lanes.And(sx.Equal(one).And(sy.Equal(one)).And(sz.Equal(one)).Or(unit))
		}
		if lanes.ToBits()|skip.ToBits() != 0xff {
			return i
		}
		// Translation base + diff·w; scale base·diff, where diff is 1 or w
		// is, as addJoints computes them; neither where held marks it.
		if held&(1<<Translation) == 0 {
			keep8(out.tx, i, load8(base.tx, i), load8(diff.tx, i).Mul(wv), skip)
			keep8(out.ty, i, load8(base.ty, i), load8(diff.ty, i).Mul(wv), skip)
			keep8(out.tz, i, load8(base.tz, i), load8(diff.tz, i).Mul(wv), skip)
		}
		if scale {
			bsx, bsy, bsz := load8(base.sx, i), load8(base.sy, i), load8(base.sz, i)
			bsx.Merge(bsx.Mul(sx), skip).Store((*[8]float32)(out.sx[i : i+8]))
			bsy.Merge(bsy.Mul(sy), skip).Store((*[8]float32)(out.sy[i : i+8]))
			bsz.Merge(bsz.Mul(sz), skip).Store((*[8]float32)(out.sz[i : i+8]))
		}
		// Rotation base ⊗ slerp(identity, diff, w), normalized; diff itself
		// where w is 1.
		dx, dy, dz, dw := load8(diff.qx, i), load8(diff.qy, i), load8(diff.qz, i), load8(diff.qw, i)
		if unit.ToBits() != 0xff {
			sx, sy, sz, sw := slerp8(zero, zero, zero, one, dx, dy, dz, dw, wv, false)
			dx, dy, dz, dw = dx.Merge(sx, unit), dy.Merge(sy, unit), dz.Merge(sz, unit), dw.Merge(sw, unit)
		}
		bx, by, bz, bw := load8(base.qx, i), load8(base.qy, i), load8(base.qz, i), load8(base.qw, i)
		x, y, z, q := normalize8(
			bw.Mul(dx).Add(dw.Mul(bx)).Add(by.Mul(dz)).Sub(bz.Mul(dy)),
			bw.Mul(dy).Add(dw.Mul(by)).Add(bz.Mul(dx)).Sub(bx.Mul(dz)),
			bw.Mul(dz).Add(dw.Mul(bz)).Add(bx.Mul(dy)).Sub(by.Mul(dx)),
			bw.Mul(dw).Sub(bx.Mul(dx)).Sub(by.Mul(dy)).Sub(bz.Mul(dz)))
		bx.Merge(x, skip).Store((*[8]float32)(out.qx[i : i+8]))
		by.Merge(y, skip).Store((*[8]float32)(out.qy[i : i+8]))
		bz.Merge(z, skip).Store((*[8]float32)(out.qz[i : i+8]))
		bw.Merge(q, skip).Store((*[8]float32)(out.qw[i : i+8]))
	}
	return i
}

// copyBlock8 copies joints i to i+7 of src into p, stripe by stripe, in
// vectors (copyJoint would be scalar code in a vector loop).
func copyBlock8(p, src *SoAPose, i int) {
	pad := len(p.tx)
	for s := 0; s < 10; s++ {
		load8(src.buf, s*pad+i).Store((*[8]float32)(p.buf[s*pad+i : s*pad+i+8]))
	}
}

// selectBlock8 sets joints i to i+7 of p to a's where keep, else b's.
func selectBlock8(p, a, b *SoAPose, i int, keep archsimd.Mask32x8) {
	pad := len(p.tx)
	for s := 0; s < 10; s++ {
		load8(a.buf, s*pad+i).Merge(load8(b.buf, s*pad+i), keep).Store((*[8]float32)(p.buf[s*pad+i : s*pad+i+8]))
	}
}

// keep8 stores b + d into out[i : i+8], b where skip.
func keep8(out []float32, i int, b, d archsimd.Float32x8, skip archsimd.Mask32x8) {
	b.Merge(b.Add(d), skip).Store((*[8]float32)(out[i : i+8]))
}

//go:noinline
func sameMasks8(p, q *SoAPose, from int, m *laneMasks) bool {
	lanes, found := len(p.buf)/10, uint8(0)
	for k := range m {
		i := from + k*soaLanes
		if i >= lanes {
			break
		}
		m[k] = uint8(sameBlock8(p, q, i).ToBits())
		found |= m[k]
	}
	return found != 0
}

//go:noinline
func identityMasks8(p *SoAPose, from int, m *laneMasks) bool {
	lanes, found := len(p.buf)/10, uint8(0)
	ts := p.HoldsIdentity(Translation) && p.HoldsIdentity(Scale)
	for k := range m {
		i := from + k*soaLanes
		if i >= lanes {
			break
		}
		m[k] = identityLanes8(p, i, ts)
		found |= m[k]
	}
	return found != 0
}

// identityLanes8 gives bit l for joint i+l of the block of 8 from i; ts
// says that every translation and scale lane holds the identity's (by the
// pose's tags), which it then does not test. It tests the qw stripe first
// and stops there when no joint of the block passes, as sameBlock8: the
// layers over a dense pose (motion capture, where every joint turns) pay
// one load a block.
func identityLanes8(p *SoAPose, i int, ts bool) uint8 {
	zero := archsimd.Float32x8{} // VPXOR; Broadcast(0) is a legacy-SSE XORPS
	one := archsimd.BroadcastFloat32x8(1)
	m := load8(p.qw, i).Equal(one)
	if m.ToBits() == 0 {
		return 0
	}
	m = m.And(load8(p.qx, i).Equal(zero)).
		And(load8(p.qy, i).Equal(zero)).
		And(load8(p.qz, i).Equal(zero))
	if !ts {
		m = m.And(load8(p.tx, i).Equal(zero)).
			And(load8(p.ty, i).Equal(zero)).
			And(load8(p.tz, i).Equal(zero)).
			And(load8(p.sx, i).Equal(one)).
			And(load8(p.sy, i).Equal(one)).
			And(load8(p.sz, i).Equal(one))
	}
	return uint8(m.ToBits())
}
