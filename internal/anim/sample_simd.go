//go:build goexperiment.simd && amd64

package anim

import "simd/archsimd"

// sampleSoA runs the 8-lane interpolation pass at both SIMD levels; the
// key streams' refill is scalar at every level.
func sampleSoA(c *RuntimeClip, t float32, nlerp bool, cursors []int32, cache []float32, out *SoAPose) {
	level := sampleLevel[0]
	if nlerp {
		level = sampleLevel[1]
	}
	if level >= levelAVX2 {
		sampleSoAWith(c, t, nlerp, cursors, cache, out, interpolate8, true)
		return
	}
	sampleSoAWith(c, t, nlerp, cursors, cache, out, interpolateGeneric, false)
}

// stalePairs is stalePairsGeneric, 8 lanes at a time where wide.
func stalePairs(s, end []float32, nc int, t float32, from int, m *laneMasks, wide bool) bool {
	if !wide {
		return stalePairsGeneric(s, end, nc, t, from, m)
	}
	found := stalePairs8(s, end, nc, t, from, m)
	archsimd.ClearAVXUpperBits()
	return found
}

//go:noinline
func stalePairs8(s, end []float32, nc int, t float32, from int, m *laneMasks) bool {
	tv := archsimd.BroadcastFloat32x8(t)
	var found uint8
	for k := range m {
		i := from + k*groupLanes
		if i+groupLanes > len(end) {
			break
		}
		held := load8(s, pairAt(i, 2+2*nc)).LessEqual(tv).And(tv.Less(load8(end, i)))
		m[k] = ^held.ToBits()
		found |= m[k]
	}
	return found != 0
}

// shiftFramesAt is shiftFrames, 8 lanes at a time where wide.
func shiftFramesAt(pk *packedClip, k int, ca []float32, wide bool) {
	if !wide {
		pk.shiftFrames(k, ca, pk.frame)
		return
	}
	for g := 0; ; g++ {
		g = shiftFrames8(pk, k, ca, g)
		archsimd.ClearAVXUpperBits()
		if g >= len(pk.groups) {
			return
		}
		shiftLanes(pk, &pk.groups[g], k, ca)
	}
}

// shiftFrames8 is shiftFrames a cache group at a time: each component's
// codes (a plane of the frame) taken out 8 lanes at once, then decoded,
// rebuilt, matched and stored 8 lanes wide, in the same operations as
// shiftFrames, so that the pairs are the same to the bit. Lanes without a
// frame track keep their pairs. A group with a rotation whose rebuilt
// component is not real (a code just outside the unit sphere) is left to
// shiftFrames' lanes: shiftFrames8 runs the groups from first and returns
// the index of the one it left (len(pk.groups) when none), calling no
// scalar code, which would run with the upper halves dirty.
//
//go:noinline
func shiftFrames8(pk *packedClip, k int, ca []float32, first int) int {
	t0, t1, inv := archsimd.BroadcastFloat32x8(pk.times[k]), archsimd.BroadcastFloat32x8(pk.times[k+1]), archsimd.BroadcastFloat32x8(pk.inv[k])
	zero, izero, one := archsimd.Float32x8{}, archsimd.Int32x8{}, archsimd.BroadcastFloat32x8(1)
	i1, i2, i3 := archsimd.BroadcastInt32x8(1), archsimd.BroadcastInt32x8(2), archsimd.BroadcastInt32x8(3)
	sign := archsimd.BroadcastInt32x8(-1 << 31).AsUint32x8()
	data := pk.data
	at0 := uint(pk.frameStart) + uint(k+1)*uint(pk.frameBits)
	for gi := first; gi < len(pk.groups); gi++ {
		fg := &pk.groups[gi]
		// No arrays of vectors below: the compiler keeps those in memory.
		x := planeCodes(data, at0, fg, 0)
		y := planeCodes(data, at0, fg, 1)
		z := planeCodes(data, at0, fg, 2)
		sel := archsimd.LoadInt32x8(&fg.sel).Less(izero)
		end := (*[8]float32)(ca[fg.end : fg.end+8])
		t1.Merge(archsimd.LoadFloat32x8(end), sel).Store(end)
		if !fg.rot {
			g := (*[64]float32)(ca[fg.pair : fg.pair+64])
			t0.Merge(load8(g[:], 0), sel).Store((*[8]float32)(g[0:8]))
			inv.Merge(load8(g[:], 8), sel).Store((*[8]float32)(g[8:16]))
			shiftStripe(g[16:24], g[40:48], x, sel)
			shiftStripe(g[24:32], g[48:56], y, sel)
			shiftStripe(g[32:40], g[56:64], z, sel)
			continue
		}
		ww := one.Sub(x.Mul(x)).Sub(y.Mul(y)).Sub(z.Mul(z))
		if ww.Greater(zero).ToBits()|^sel.ToBits() != 0xff {
			return gi
		}
		w := ww.Sqrt()
		drop := archsimd.LoadInt32x8(&fg.drop)
		d0, d1 := drop.Equal(izero), drop.Equal(i1)
		d2, d3 := drop.Equal(i2), drop.Equal(i3)
		// The codes are the components other than drop, in order.
		qx := w.Merge(x, d0)
		qy := x.Merge(w.Merge(y, d1), d0)
		qz := y.Merge(w.Merge(z, d2), d0.Or(d1))
		qw := w.Merge(z, d3)
		g := (*[80]float32)(ca[fg.pair : fg.pair+80])
		bx, by, bz, bw := load8(g[:], 48), load8(g[:], 56), load8(g[:], 64), load8(g[:], 72)
		// The old end becomes the start, negated where its dropped
		// component has its sign bit set; the new key is negated where
		// it is more than 90° from that.
		flip := bx.Merge(by.Merge(bz.Merge(bw, d2), d1), d0).AsUint32x8().And(sign)
		ax, ay, az, aw := xorBits(bx, flip), xorBits(by, flip), xorBits(bz, flip), xorBits(bw, flip)
		dot := ax.Mul(qx).Add(ay.Mul(qy)).Add(az.Mul(qz)).Add(aw.Mul(qw))
		neg := sign.AsFloat32x8().Masked(dot.Less(zero)).AsUint32x8()
		qx, qy, qz, qw = xorBits(qx, neg), xorBits(qy, neg), xorBits(qz, neg), xorBits(qw, neg)
		t0.Merge(load8(g[:], 0), sel).Store((*[8]float32)(g[0:8]))
		inv.Merge(load8(g[:], 8), sel).Store((*[8]float32)(g[8:16]))
		ax.Merge(load8(g[:], 16), sel).Store((*[8]float32)(g[16:24]))
		ay.Merge(load8(g[:], 24), sel).Store((*[8]float32)(g[24:32]))
		az.Merge(load8(g[:], 32), sel).Store((*[8]float32)(g[32:40]))
		aw.Merge(load8(g[:], 40), sel).Store((*[8]float32)(g[40:48]))
		qx.Merge(bx, sel).Store((*[8]float32)(g[48:56]))
		qy.Merge(by, sel).Store((*[8]float32)(g[56:64]))
		qz.Merge(bz, sel).Store((*[8]float32)(g[64:72]))
		qw.Merge(bw, sel).Store((*[8]float32)(g[72:80]))
	}
	return len(pk.groups)
}

// planeCodes decodes component c of the 8 lanes of group fg from the
// frame at bit at0: the plane's 32 bytes loaded from its first byte,
// each lane's code brought to its lane from the two words it spans
// (VPERMD) and shifted down to bit 0, masked, then lo + step·code.
func planeCodes(data []byte, at0 uint, fg *frameGroup, c int) archsimd.Float32x8 {
	at := at0 + uint(fg.plane[c])
	words := archsimd.LoadUint8x32((*[32]uint8)(data[at>>3 : at>>3+32])).AsUint32x8()
	off := archsimd.LoadUint32x8(&fg.off[c]).Add(archsimd.BroadcastUint32x8(uint32(at & 7)))
	// A vector count: ShiftAllRight moves its count with a legacy-SSE MOVQ.
	i := off.ShiftRight(archsimd.BroadcastUint32x8(5))
	sh := off.And(archsimd.BroadcastUint32x8(31))
	lo := words.Permute(i).ShiftRight(sh)
	// The high word shifted by 32 − sh: by 32, where sh = 0, gives 0.
	hi := words.Permute(i.Add(archsimd.BroadcastUint32x8(1))).ShiftLeft(archsimd.BroadcastUint32x8(32).Sub(sh))
	q := lo.Or(hi).And(archsimd.LoadUint32x8(&fg.mask[c])).AsInt32x8().ConvertToFloat32()
	return archsimd.LoadFloat32x8(&fg.lo[c]).Add(archsimd.LoadFloat32x8(&fg.step[c]).Mul(q))
}

// shiftStripe moves one component of a group's pairs on in the lanes of
// sel: the end b becomes the start a, and v the end.
func shiftStripe(a, b []float32, v archsimd.Float32x8, sel archsimd.Mask32x8) {
	old := load8(b, 0)
	old.Merge(load8(a, 0), sel).Store((*[8]float32)(a[:8]))
	v.Merge(old, sel).Store((*[8]float32)(b[:8]))
}

// shiftLanes is shiftFrames for the frame tracks of one group, which
// follow each other in packedClip.frame.
func shiftLanes(pk *packedClip, fg *frameGroup, k int, ca []float32) {
	first, last := int32(len(pk.frame)), int32(-1)
	for l, fi := range fg.frame {
		if fg.sel[l] != 0 {
			first, last = min(first, fi), max(last, fi)
		}
	}
	pk.shiftFrames(k, ca, pk.frame[first:last+1])
}

// xorBits flips the bits of v set in m.
func xorBits(v archsimd.Float32x8, m archsimd.Uint32x8) archsimd.Float32x8 {
	return v.AsUint32x8().Xor(m).AsFloat32x8()
}

// interpolate8 is interpolateGeneric eight joints (one cache group) at
// a time, padding lanes included (their pairs hold the identity), but for
// the paths still marks. Both AVX2 and AVX-512 use it: the pass is bound
// by loads and stores, not by lanes. A group whose eight pairs all have
// u = 0 (tracks that hold one value: a clip that moves a few joints of a
// skeleton) stores its first values, what the arithmetic gives there,
// without it; nlerp still normalizes them.
func interpolate8(ca []float32, _ int, t float32, nlerp bool, still uint8, out *SoAPose) {
	pad := len(out.tx)
	tv := archsimd.BroadcastFloat32x8(t)
	for _, p := range [2]Path{Translation, Scale} {
		if still&(1<<p) == 0 {
			o := out.buf[firstStripe[p]*pad : (firstStripe[p]+3)*pad]
			lerp3x8(ca[cacheStripe[p]*pad:(cacheStripe[p]+8)*pad], o, pad, tv)
		}
	}
	if still&(1<<Rotation) != 0 {
		archsimd.ClearAVXUpperBits()
		return
	}
	s := ca[cacheStripe[Rotation]*pad : (cacheStripe[Rotation]+10)*pad]
	qx, qy, qz, qw := out.qx[:pad], out.qy[:pad], out.qz[:pad], out.qw[:pad]
	for j := 0; j+8 <= pad; j += 8 {
		g := (*[80]float32)(s[10*j : 10*j+80])
		u := pairU8(g[:], tv)
		ax, ay, az, aw := load8(g[:], 16), load8(g[:], 24), load8(g[:], 32), load8(g[:], 40)
		bx, by, bz, bw := load8(g[:], 48), load8(g[:], 56), load8(g[:], 64), load8(g[:], 72)
		var x, y, z, w archsimd.Float32x8
		// Keys are hemisphere-aligned at build time (their shadows and the
		// padding hold one key in both): no sign test.
		switch {
		case !nlerp && u.Equal(archsimd.Float32x8{}).ToBits() == 0xff:
			x, y, z, w = ax, ay, az, aw // slerp8 at u = 0 is a exactly
		case nlerp:
			v := archsimd.BroadcastFloat32x8(1).Sub(u)
			x, y, z, w = normalize8(ax.Mul(v).Add(bx.Mul(u)), ay.Mul(v).Add(by.Mul(u)), az.Mul(v).Add(bz.Mul(u)), aw.Mul(v).Add(bw.Mul(u)))
		default:
			x, y, z, w = slerp8(ax, ay, az, aw, bx, by, bz, bw, u, true)
		}
		x.Store((*[8]float32)(qx[j : j+8]))
		y.Store((*[8]float32)(qy[j : j+8]))
		z.Store((*[8]float32)(qz[j : j+8]))
		w.Store((*[8]float32)(qw[j : j+8]))
	}
	archsimd.ClearAVXUpperBits() // scalar code follows
}

// lerp3x8 interpolates a translation or scale: pairs s (groups of 8 t0,
// inv, ax, ay, az, bx, by, bz) into the stripes o (x, y, z of pad lanes).
func lerp3x8(s, o []float32, pad int, tv archsimd.Float32x8) {
	ox, oy, oz := o[:pad], o[pad:2*pad], o[2*pad:3*pad]
	for j := 0; j+8 <= pad; j += 8 {
		g := (*[64]float32)(s[8*j : 8*j+64])
		u := pairU8(g[:], tv)
		x := archsimd.LoadFloat32x8((*[8]float32)(g[16:24]))
		y := archsimd.LoadFloat32x8((*[8]float32)(g[24:32]))
		z := archsimd.LoadFloat32x8((*[8]float32)(g[32:40]))
		if u.Equal(archsimd.Float32x8{}).ToBits() != 0xff { // all u = 0 keeps a exactly
			x = archsimd.LoadFloat32x8((*[8]float32)(g[40:48])).Sub(x).MulAdd(u, x)
			y = archsimd.LoadFloat32x8((*[8]float32)(g[48:56])).Sub(y).MulAdd(u, y)
			z = archsimd.LoadFloat32x8((*[8]float32)(g[56:64])).Sub(z).MulAdd(u, z)
		}
		x.Store((*[8]float32)(ox[j : j+8]))
		y.Store((*[8]float32)(oy[j : j+8]))
		z.Store((*[8]float32)(oz[j : j+8]))
	}
}

// pairU8 is u = clamp((t − t0)·inv, 0, 1) of the group g (t0 then inv),
// 0 where it is NaN (an infinite time on a constant pair), as Clamp01.
func pairU8(g []float32, tv archsimd.Float32x8) archsimd.Float32x8 {
	zero := archsimd.Float32x8{} // VPXOR; Broadcast(0) is a legacy-SSE XORPS
	u := tv.Sub(load8(g[:], 0)).Mul(load8(g[:], 8))
	return u.Max(zero).Min(archsimd.BroadcastFloat32x8(1)).Merge(zero, u.Equal(u))
}

// load8 loads s[i : i+8]: one bounds check. Loading a slice of it
// (LoadFloat32x8Slice(s[i:]), or load8 of s[i:] as it once was) sliced
// twice, a dozen instructions a load where a block of a layer loads thirty.
func load8(s []float32, i int) archsimd.Float32x8 {
	return archsimd.LoadFloat32x8((*[8]float32)(s[i : i+8]))
}
