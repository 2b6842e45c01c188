//go:build goexperiment.simd && amd64

package anim

import "simd/archsimd"

func blendSoA(out, a, b *SoAPose, w float32, nlerp bool, alike uint8) {
	level := blendLevel[0]
	if nlerp {
		level = blendLevel[1]
	}
	switch level {
	case levelAVX512:
		if i := blendSoA16(out, a, b, w, nlerp, alike); i < len(out.tx) {
			archsimd.ClearAVXUpperBits() // w is reloaded for the call
			blendSoA8(out, a, b, w, nlerp, alike, i)
		}
		archsimd.ClearAVXUpperBits()
	case levelAVX2:
		blendSoA8(out, a, b, w, nlerp, alike, 0)
		archsimd.ClearAVXUpperBits()
	default:
		blendSoAGeneric(out, a, b, w, nlerp, alike)
	}
}

// blendSoA16 is blendSoAGeneric 16 lanes at a time, padding lanes included
// (identity blended with identity stays identity), and returns where it
// stopped: a last block of 8 is blendSoA8's. It reads w once: with the
// call for that block here, w stayed live across the loop and was
// reloaded with a legacy-SSE MOVSS each block, the upper halves dirty.
func blendSoA16(out, a, b *SoAPose, w float32, nlerp bool, alike uint8) int {
	n := len(out.tx)
	wv := archsimd.BroadcastFloat32x16(w)
	i := 0
	for ; i+16 <= n; i += 16 {
		if alike&(1<<Translation) == 0 {
			lerp16(out.tx, a.tx, b.tx, i, wv)
			lerp16(out.ty, a.ty, b.ty, i, wv)
			lerp16(out.tz, a.tz, b.tz, i, wv)
		}
		if alike&(1<<Scale) == 0 {
			lerp16(out.sx, a.sx, b.sx, i, wv)
			lerp16(out.sy, a.sy, b.sy, i, wv)
			lerp16(out.sz, a.sz, b.sz, i, wv)
		}
		ax, ay := load16(a.qx, i), load16(a.qy, i)
		az, aw := load16(a.qz, i), load16(a.qw, i)
		bx, by := load16(b.qx, i), load16(b.qy, i)
		bz, bw := load16(b.qz, i), load16(b.qw, i)
		var x, y, z, q archsimd.Float32x16
		if nlerp {
			x, y, z, q = nlerp16(ax, ay, az, aw, bx, by, bz, bw, wv)
		} else {
			x, y, z, q = slerp16(ax, ay, az, aw, bx, by, bz, bw, wv)
			// Joints both poses hold alike keep a bit for bit, as in
			// blendSoAGeneric.
			eq := ax.Equal(bx).And(ay.Equal(by)).And(az.Equal(bz)).And(aw.Equal(bw))
			x, y, z, q = ax.Merge(x, eq), ay.Merge(y, eq), az.Merge(z, eq), aw.Merge(q, eq)
		}
		x.Store((*[16]float32)(out.qx[i : i+16]))
		y.Store((*[16]float32)(out.qy[i : i+16]))
		z.Store((*[16]float32)(out.qz[i : i+16]))
		q.Store((*[16]float32)(out.qw[i : i+16]))
	}
	return i
}

// lerp16 writes out[i : i+16] = a + (b − a)·w.
func lerp16(out, a, b []float32, i int, w archsimd.Float32x16) {
	av := load16(a, i)
	load16(b, i).Sub(av).MulAdd(w, av).Store((*[16]float32)(out[i : i+16]))
}

// load16 loads s[i : i+16], as load8.
func load16(s []float32, i int) archsimd.Float32x16 {
	return archsimd.LoadFloat32x16((*[16]float32)(s[i : i+16]))
}

// nlerp16 is nlerpQ on 16 lanes: shortest-arc lerp, normalized, identity
// where the length is not positive.
func nlerp16(ax, ay, az, aw, bx, by, bz, bw, u archsimd.Float32x16) (x, y, z, w archsimd.Float32x16) {
	zero := archsimd.Float32x16{} // VPXOR; Broadcast(0) is a legacy-SSE XORPS
	one := archsimd.BroadcastFloat32x16(1)
	d := ax.Mul(bx).Add(ay.Mul(by)).Add(az.Mul(bz)).Add(aw.Mul(bw))
	us := zero.Sub(u).Merge(u, d.Less(zero)) // −u where d < 0
	v := one.Sub(u)
	x = ax.Mul(v).Add(bx.Mul(us))
	y = ay.Mul(v).Add(by.Mul(us))
	z = az.Mul(v).Add(bz.Mul(us))
	w = aw.Mul(v).Add(bw.Mul(us))
	return normalize16(x, y, z, w)
}

// normalize16 is normQ on 16 lanes.
func normalize16(x, y, z, w archsimd.Float32x16) (archsimd.Float32x16, archsimd.Float32x16, archsimd.Float32x16, archsimd.Float32x16) {
	zero := archsimd.Float32x16{} // VPXOR; Broadcast(0) is a legacy-SSE XORPS
	one := archsimd.BroadcastFloat32x16(1)
	l := x.Mul(x).Add(y.Mul(y)).Add(z.Mul(z)).Add(w.Mul(w)).Sqrt()
	ok := l.Greater(zero)
	inv := one.Div(l)
	return x.Mul(inv).Merge(zero, ok), y.Mul(inv).Merge(zero, ok), z.Mul(inv).Merge(zero, ok), w.Mul(inv).Merge(one, ok)
}

// slerp16 is slerpPoly on 16 lanes.
func slerp16(ax, ay, az, aw, bx, by, bz, bw, u archsimd.Float32x16) (x, y, z, w archsimd.Float32x16) {
	zero := archsimd.Float32x16{} // VPXOR; Broadcast(0) is a legacy-SSE XORPS
	one := archsimd.BroadcastFloat32x16(1)
	half := archsimd.BroadcastFloat32x16(0.5)
	ax0, ay0, az0, aw0, u0 := ax, ay, az, aw, u
	d := ax.Mul(bx).Add(ay.Mul(by)).Add(az.Mul(bz)).Add(aw.Mul(bw))
	neg := d.Less(zero)
	bx, by, bz, bw = zero.Sub(bx).Merge(bx, neg), zero.Sub(by).Merge(by, neg), zero.Sub(bz).Merge(bz, neg), zero.Sub(bw).Merge(bw, neg)
	d = zero.Sub(d).Merge(d, neg)
	if wide := d.Less(half); wide.ToBits() != 0 {
		// Halve the wide arcs at their midpoint, as slerpPoly does.
		mx, my, mz, mw := ax.Add(bx), ay.Add(by), az.Add(bz), aw.Add(bw)
		l := mx.Mul(mx).Add(my.Mul(my)).Add(mz.Mul(mz)).Add(mw.Mul(mw)).Sqrt()
		wide = wide.And(l.Greater(zero)) // zero keys: no arc to halve
		inv := one.Div(l)
		mx, my, mz, mw = mx.Mul(inv), my.Mul(inv), mz.Mul(inv), mw.Mul(inv)
		lo, hi := wide.And(u.Less(half)), wide.And(u.GreaterEqual(half))
		bx, by, bz, bw = mx.Merge(bx, lo), my.Merge(by, lo), mz.Merge(bz, lo), mw.Merge(bw, lo)
		ax, ay, az, aw = mx.Merge(ax, hi), my.Merge(ay, hi), mz.Merge(az, hi), mw.Merge(aw, hi)
		u2 := u.Add(u)
		u = u2.Merge(u, lo)
		u = u2.Sub(one).Merge(u, hi)
		d = one.Add(d).Mul(inv).Merge(d, wide)
	}
	xm1 := d.Sub(one)
	v := one.Sub(u)
	uu, vv := u.Mul(u), v.Mul(v)
	term := func(cu, cv archsimd.Float32x16, U, V float32) (archsimd.Float32x16, archsimd.Float32x16) {
		Uv, Vv := archsimd.BroadcastFloat32x16(U), archsimd.BroadcastFloat32x16(V)
		ku := uu.Mul(Uv).Sub(Vv).Mul(xm1)
		kv := vv.Mul(Uv).Sub(Vv).Mul(xm1)
		return ku.MulAdd(cu, one), kv.MulAdd(cv, one)
	}
	// As many terms as the widest of the sixteen arcs needs (slerpShort2).
	// Nested, so that the usual group, every arc within the first cut,
	// makes one test.
	cu, cv := one, one
	if d.Less(archsimd.BroadcastFloat32x16(slerpShort2)).ToBits() != 0 {
		if d.Less(archsimd.BroadcastFloat32x16(slerpShort3)).ToBits() != 0 {
			if d.Less(archsimd.BroadcastFloat32x16(slerpShort4)).ToBits() != 0 {
				cu, cv = term(cu, cv, slerpU7, slerpV7)
				cu, cv = term(cu, cv, slerpU6, slerpV6)
				cu, cv = term(cu, cv, slerpU5, slerpV5)
			}
			cu, cv = term(cu, cv, slerpU4, slerpV4)
		}
		cu, cv = term(cu, cv, slerpU3, slerpV3)
	}
	cu, cv = term(cu, cv, slerpU2, slerpV2)
	cu, cv = term(cu, cv, slerpU1, slerpV1)
	cu, cv = cu.Mul(u), cv.Mul(v)
	x, y, z, w = bx.MulAdd(cu, ax.Mul(cv)), by.MulAdd(cu, ay.Mul(cv)), bz.MulAdd(cu, az.Mul(cv)), bw.MulAdd(cu, aw.Mul(cv))
	// At u = 0, a exactly (constant tracks have u = 0).
	at0 := u0.Equal(zero)
	return ax0.Merge(x, at0), ay0.Merge(y, at0), az0.Merge(z, at0), aw0.Merge(w, at0)
}

// blendSoA8 is blendSoAGeneric 8 lanes at a time, from lane from on.
func blendSoA8(out, a, b *SoAPose, w float32, nlerp bool, alike uint8, from int) {
	n := len(out.tx)
	wv := archsimd.BroadcastFloat32x8(w)
	for i := from; i+8 <= n; i += 8 {
		if alike&(1<<Translation) == 0 {
			lerp8(out.tx, a.tx, b.tx, i, wv)
			lerp8(out.ty, a.ty, b.ty, i, wv)
			lerp8(out.tz, a.tz, b.tz, i, wv)
		}
		if alike&(1<<Scale) == 0 {
			lerp8(out.sx, a.sx, b.sx, i, wv)
			lerp8(out.sy, a.sy, b.sy, i, wv)
			lerp8(out.sz, a.sz, b.sz, i, wv)
		}
		ax, ay := load8(a.qx, i), load8(a.qy, i)
		az, aw := load8(a.qz, i), load8(a.qw, i)
		bx, by := load8(b.qx, i), load8(b.qy, i)
		bz, bw := load8(b.qz, i), load8(b.qw, i)
		var x, y, z, q archsimd.Float32x8
		if nlerp {
			x, y, z, q = nlerp8(ax, ay, az, aw, bx, by, bz, bw, wv)
		} else {
			x, y, z, q = slerp8(ax, ay, az, aw, bx, by, bz, bw, wv, false)
			// Joints both poses hold alike keep a bit for bit, as in
			// blendSoAGeneric.
			eq := ax.Equal(bx).And(ay.Equal(by)).And(az.Equal(bz)).And(aw.Equal(bw))
			x, y, z, q = ax.Merge(x, eq), ay.Merge(y, eq), az.Merge(z, eq), aw.Merge(q, eq)
		}
		x.Store((*[8]float32)(out.qx[i : i+8]))
		y.Store((*[8]float32)(out.qy[i : i+8]))
		z.Store((*[8]float32)(out.qz[i : i+8]))
		q.Store((*[8]float32)(out.qw[i : i+8]))
	}
}

// lerp8 writes out[i : i+8] = a + (b − a)·w.
func lerp8(out, a, b []float32, i int, w archsimd.Float32x8) {
	av := load8(a, i)
	load8(b, i).Sub(av).MulAdd(w, av).Store((*[8]float32)(out[i : i+8]))
}

func nlerp8(ax, ay, az, aw, bx, by, bz, bw, u archsimd.Float32x8) (x, y, z, w archsimd.Float32x8) {
	zero := archsimd.Float32x8{} // VPXOR; Broadcast(0) is a legacy-SSE XORPS
	one := archsimd.BroadcastFloat32x8(1)
	d := ax.Mul(bx).Add(ay.Mul(by)).Add(az.Mul(bz)).Add(aw.Mul(bw))
	us := zero.Sub(u).Merge(u, d.Less(zero))
	v := one.Sub(u)
	x = ax.Mul(v).Add(bx.Mul(us))
	y = ay.Mul(v).Add(by.Mul(us))
	z = az.Mul(v).Add(bz.Mul(us))
	w = aw.Mul(v).Add(bw.Mul(us))
	return normalize8(x, y, z, w)
}

func normalize8(x, y, z, w archsimd.Float32x8) (archsimd.Float32x8, archsimd.Float32x8, archsimd.Float32x8, archsimd.Float32x8) {
	zero := archsimd.Float32x8{} // VPXOR; Broadcast(0) is a legacy-SSE XORPS
	one := archsimd.BroadcastFloat32x8(1)
	l := x.Mul(x).Add(y.Mul(y)).Add(z.Mul(z)).Add(w.Mul(w)).Sqrt()
	ok := l.Greater(zero)
	inv := one.Div(l)
	return x.Mul(inv).Merge(zero, ok), y.Mul(inv).Merge(zero, ok), z.Mul(inv).Merge(zero, ok), w.Mul(inv).Merge(one, ok)
}

// splat holds slerp8's constants in every lane: a load from memory is one
// instruction, where a broadcast of a constant is two (a scalar load and
// VBROADCASTSS).
var splat = struct {
	one, half, short2, short3, short4 [8]float32
	u, v                              [8][8]float32
}{
	one: fill8(1), half: fill8(0.5), short2: fill8(slerpShort2), short3: fill8(slerpShort3), short4: fill8(slerpShort4),
	u: [8][8]float32{1: fill8(slerpU1), 2: fill8(slerpU2), 3: fill8(slerpU3), 4: fill8(slerpU4), 5: fill8(slerpU5), 6: fill8(slerpU6), 7: fill8(slerpU7)},
	v: [8][8]float32{1: fill8(slerpV1), 2: fill8(slerpV2), 3: fill8(slerpV3), 4: fill8(slerpV4), 5: fill8(slerpV5), 6: fill8(slerpV6), 7: fill8(slerpV7)},
}

func fill8(x float32) [8]float32 { return [8]float32{x, x, x, x, x, x, x, x} }

// slerp8 is slerpPoly in 8 lanes. near says every b lies in its a's
// hemisphere already (a·b ≥ 0: a sampled clip's key pairs, aligned when
// the clip is built), which skips the sign test blends and layers need.
func slerp8(ax, ay, az, aw, bx, by, bz, bw, u archsimd.Float32x8, near bool) (x, y, z, w archsimd.Float32x8) {
	zero := archsimd.Float32x8{} // VPXOR; Broadcast(0) is a legacy-SSE XORPS
	one := archsimd.LoadFloat32x8(&splat.one)
	half := archsimd.LoadFloat32x8(&splat.half)
	ax0, ay0, az0, aw0, u0 := ax, ay, az, aw, u
	d := ax.Mul(bx).Add(ay.Mul(by)).Add(az.Mul(bz)).Add(aw.Mul(bw))
	if !near {
		neg := d.Less(zero)
		bx, by, bz, bw = zero.Sub(bx).Merge(bx, neg), zero.Sub(by).Merge(by, neg), zero.Sub(bz).Merge(bz, neg), zero.Sub(bw).Merge(bw, neg)
		d = zero.Sub(d).Merge(d, neg)
	}
	if wide := d.Less(half); wide.ToBits() != 0 {
		// Halve the wide arcs at their midpoint, as slerpPoly does.
		mx, my, mz, mw := ax.Add(bx), ay.Add(by), az.Add(bz), aw.Add(bw)
		l := mx.Mul(mx).Add(my.Mul(my)).Add(mz.Mul(mz)).Add(mw.Mul(mw)).Sqrt()
		wide = wide.And(l.Greater(zero)) // zero keys: no arc to halve
		inv := one.Div(l)
		mx, my, mz, mw = mx.Mul(inv), my.Mul(inv), mz.Mul(inv), mw.Mul(inv)
		lo, hi := wide.And(u.Less(half)), wide.And(u.GreaterEqual(half))
		bx, by, bz, bw = mx.Merge(bx, lo), my.Merge(by, lo), mz.Merge(bz, lo), mw.Merge(bw, lo)
		ax, ay, az, aw = mx.Merge(ax, hi), my.Merge(ay, hi), mz.Merge(az, hi), mw.Merge(aw, hi)
		u2 := u.Add(u)
		u = u2.Merge(u, lo)
		u = u2.Sub(one).Merge(u, hi)
		d = one.Add(d).Mul(inv).Merge(d, wide)
	}
	xm1 := d.Sub(one)
	v := one.Sub(u)
	uu, vv := u.Mul(u), v.Mul(v)
	term := func(cu, cv archsimd.Float32x8, U, V *[8]float32) (archsimd.Float32x8, archsimd.Float32x8) {
		Uv, Vv := archsimd.LoadFloat32x8(U), archsimd.LoadFloat32x8(V)
		ku := uu.Mul(Uv).Sub(Vv).Mul(xm1)
		kv := vv.Mul(Uv).Sub(Vv).Mul(xm1)
		return ku.MulAdd(cu, one), kv.MulAdd(cv, one)
	}
	// As many terms as the widest of the eight arcs needs (slerpShort2).
	// Nested, so that the usual group, every arc within the first cut,
	// makes one test.
	cu, cv := one, one
	if d.Less(archsimd.LoadFloat32x8(&splat.short2)).ToBits() != 0 {
		if d.Less(archsimd.LoadFloat32x8(&splat.short3)).ToBits() != 0 {
			if d.Less(archsimd.LoadFloat32x8(&splat.short4)).ToBits() != 0 {
				cu, cv = term(cu, cv, &splat.u[7], &splat.v[7])
				cu, cv = term(cu, cv, &splat.u[6], &splat.v[6])
				cu, cv = term(cu, cv, &splat.u[5], &splat.v[5])
			}
			cu, cv = term(cu, cv, &splat.u[4], &splat.v[4])
		}
		cu, cv = term(cu, cv, &splat.u[3], &splat.v[3])
	}
	cu, cv = term(cu, cv, &splat.u[2], &splat.v[2])
	cu, cv = term(cu, cv, &splat.u[1], &splat.v[1])
	cu, cv = cu.Mul(u), cv.Mul(v)
	x, y, z, w = bx.MulAdd(cu, ax.Mul(cv)), by.MulAdd(cu, ay.Mul(cv)), bz.MulAdd(cu, az.Mul(cv)), bw.MulAdd(cu, aw.Mul(cv))
	// At u = 0, a exactly (constant tracks have u = 0).
	at0 := u0.Equal(zero)
	return ax0.Merge(x, at0), ay0.Merge(y, at0), az0.Merge(z, at0), aw0.Merge(w, at0)
}
