//go:build goexperiment.simd && amd64

package anim

import "simd/archsimd"

// modelPalette runs the 4-lane row kernel at both SIMD levels: there is no
// variant holding each matrix in one 16-lane register (products by
// permutations); docs/performance.md has the measurement against it.
func modelPalette(parents []int, in *SoAPose, models []float32, ibs []float32, pal []float32) {
	if paletteLevel >= levelAVX2 {
		modelPalette4(parents, in, models, ibs, pal)
		archsimd.ClearAVXUpperBits()
		return
	}
	modelPaletteGeneric(parents, in, models, ibs, pal)
}

// skinPalette is the palette pass of a skin that is not 1:1 (most files'),
// at the palette kernel's level: 4-lane rows as modelPalette4 multiplies
// them, so that an entry has the bits the fused pass would give it.
func skinPalette(joints []int, models, ibs, pal []float32) {
	if paletteLevel >= levelAVX2 {
		skinPalette4(joints, models, ibs, pal)
		archsimd.ClearAVXUpperBits()
		return
	}
	skinPaletteGeneric(joints, models, ibs, pal)
}

// lastCol keeps the translation column: row·lastCol adds (0, 0, 0, a_r3)
// to a product's row r, its fourth term when the bottom row is 0 0 0 1.
var lastCol = [4]float32{0, 0, 0, 1}

// localMatrices8 writes every joint's local matrix T·R·S into models, in
// the 3×4 row layout, as the first pass of the SIMD model-palette kernel:
// eight joints at a time straight from the SoA stripes (ozz's
// SoaFloat4x4::FromAffine), each entry one 8-lane vector computed with
// modelPaletteGeneric's arithmetic (so the same bits); each row's four
// entries are then turned into the eight joints' rows (storeRows8). The
// stripes are padded to whole groups; rows past joint n are not stored.
func localMatrices8(in *SoAPose, models []float32, n int) {
	models = models[:12*n]
	one, two := archsimd.BroadcastFloat32x8(1), archsimd.BroadcastFloat32x8(2)
	for j := 0; j < n; j += 8 {
		x, y := load8(in.qx, j), load8(in.qy, j)
		z, w := load8(in.qz, j), load8(in.qw, j)
		a, b := load8(in.sx, j), load8(in.sy, j)
		c := load8(in.sz, j)
		xx, yy, zz := x.Mul(x), y.Mul(y), z.Mul(z)
		xy, xz, yz := x.Mul(y), x.Mul(z), y.Mul(z)
		wx, wy, wz := w.Mul(x), w.Mul(y), w.Mul(z)
		m := n - j // joints of this group with rows to store
		out := models[12*j:]
		storeRows8(one.Sub(two.Mul(yy.Add(zz))).Mul(a), two.Mul(xy.Sub(wz)).Mul(b), two.Mul(xz.Add(wy)).Mul(c),
			load8(in.tx, j), out, m)
		storeRows8(two.Mul(xy.Add(wz)).Mul(a), one.Sub(two.Mul(xx.Add(zz))).Mul(b), two.Mul(yz.Sub(wx)).Mul(c),
			load8(in.ty, j), out[4:], m)
		storeRows8(two.Mul(xz.Sub(wy)).Mul(a), two.Mul(yz.Add(wx)).Mul(b), one.Sub(two.Mul(xx.Add(yy))).Mul(c),
			load8(in.tz, j), out[8:], m)
	}
	// The row products that follow mix 4-lane vectors with scalar code:
	// with the upper halves dirty, every legacy-SSE instruction among them
	// waits on the whole register (docs/performance.md has the cost).
	archsimd.ClearAVXUpperBits()
}

// storeRows8 turns the entries e0…e3 of one matrix row, each a vector of
// eight joints, into the joints' rows, with a 4×4 transpose's shuffles on
// each 128-bit half (the transpose is its own inverse), and stores the first m
// of them (8 at most) 12 floats apart from the start of out. A last,
// partial group stores its rows one by one, each as the full group does,
// rather than through a buffer and a copy a row.
func storeRows8(e0, e1, e2, e3 archsimd.Float32x8, out []float32, m int) {
	t0 := e0.SelectFromPairGrouped(0, 1, 4, 5, e1) // x0 x1 y0 y1 | x4 x5 y4 y5
	t1 := e2.SelectFromPairGrouped(0, 1, 4, 5, e3)
	t2 := e0.SelectFromPairGrouped(2, 3, 6, 7, e1)
	t3 := e2.SelectFromPairGrouped(2, 3, 6, 7, e3)
	if m >= 8 {
		out = out[:88]
		q := t0.SelectFromPairGrouped(0, 2, 4, 6, t1) // joints 0 and 4
		q.GetLo().Store((*[4]float32)(out[0:4]))
		q.GetHi().Store((*[4]float32)(out[48:52]))
		q = t0.SelectFromPairGrouped(1, 3, 5, 7, t1) // 1 and 5
		q.GetLo().Store((*[4]float32)(out[12:16]))
		q.GetHi().Store((*[4]float32)(out[60:64]))
		q = t2.SelectFromPairGrouped(0, 2, 4, 6, t3) // 2 and 6
		q.GetLo().Store((*[4]float32)(out[24:28]))
		q.GetHi().Store((*[4]float32)(out[72:76]))
		q = t2.SelectFromPairGrouped(1, 3, 5, 7, t3) // 3 and 7
		q.GetLo().Store((*[4]float32)(out[36:40]))
		q.GetHi().Store((*[4]float32)(out[84:88]))
		return
	}
	q := t0.SelectFromPairGrouped(0, 2, 4, 6, t1) // joints 0 and 4
	q.GetLo().Store((*[4]float32)(out[0:4]))
	if m > 4 {
		q.GetHi().Store((*[4]float32)(out[48:52]))
	}
	if m > 1 {
		q = t0.SelectFromPairGrouped(1, 3, 5, 7, t1) // 1 and 5
		q.GetLo().Store((*[4]float32)(out[12:16]))
		if m > 5 {
			q.GetHi().Store((*[4]float32)(out[60:64]))
		}
	}
	if m > 2 {
		q = t2.SelectFromPairGrouped(0, 2, 4, 6, t3) // 2 and 6
		q.GetLo().Store((*[4]float32)(out[24:28]))
		if m > 6 {
			q.GetHi().Store((*[4]float32)(out[72:76]))
		}
	}
	if m > 3 {
		q = t2.SelectFromPairGrouped(1, 3, 5, 7, t3) // 3
		q.GetLo().Store((*[4]float32)(out[36:40]))
	}
}

// modelPalette4 is modelPaletteGeneric with 4-lane rows:
// row r of A·B = Σₖ a_rk·(row k of B) + (0, 0, 0, a_r3), the local
// matrices having been written into models by localMatrices8; the
// inverse binds come in the same rows (bindRows).
func modelPalette4(parents []int, in *SoAPose, models []float32, ibs []float32, pal []float32) {
	n := len(parents)
	localMatrices8(in, models, n)
	models = models[:12*n]
	if pal != nil {
		pal = pal[:12*n]
		ibs = ibs[:12*n]
	}
	lc := archsimd.LoadFloat32x4(&lastCol)
	var p0, p1, p2 archsimd.Float32x4 // the last joint's model rows
	for i, p := range parents {
		m := (*[12]float32)(models[i*12 : i*12+12])
		m0 := archsimd.LoadFloat32x4((*[4]float32)(m[0:4]))
		m1 := archsimd.LoadFloat32x4((*[4]float32)(m[4:8]))
		m2 := archsimd.LoadFloat32x4((*[4]float32)(m[8:12]))
		switch {
		case p >= 0 && p == i-1:
			// A chain (spine, limb): the parent's rows are still in
			// registers, and the short product saves a chain of joints
			// the store, the load and a third of the arithmetic's latency.
			m0, m1, m2 = rowTimesShort(p0, m0, m1, m2, lc), rowTimesShort(p1, m0, m1, m2, lc), rowTimesShort(p2, m0, m1, m2, lc)
			m0.Store((*[4]float32)(m[0:4]))
			m1.Store((*[4]float32)(m[4:8]))
			m2.Store((*[4]float32)(m[8:12]))
		case p >= 0:
			a := (*[12]float32)(models[p*12 : p*12+12])
			l0, l1, l2 := m0, m1, m2
			m0 = rowTimes(archsimd.LoadFloat32x4((*[4]float32)(a[0:4])), l0, l1, l2, lc)
			m1 = rowTimes(archsimd.LoadFloat32x4((*[4]float32)(a[4:8])), l0, l1, l2, lc)
			m2 = rowTimes(archsimd.LoadFloat32x4((*[4]float32)(a[8:12])), l0, l1, l2, lc)
			m0.Store((*[4]float32)(m[0:4]))
			m1.Store((*[4]float32)(m[4:8]))
			m2.Store((*[4]float32)(m[8:12]))
		}
		p0, p1, p2 = m0, m1, m2
		if pal != nil {
			b := (*[12]float32)(ibs[i*12 : i*12+12])
			o := (*[12]float32)(pal[i*12 : i*12+12])
			b0 := archsimd.LoadFloat32x4((*[4]float32)(b[0:4]))
			b1 := archsimd.LoadFloat32x4((*[4]float32)(b[4:8]))
			b2 := archsimd.LoadFloat32x4((*[4]float32)(b[8:12]))
			rowTimes(m0, b0, b1, b2, lc).Store((*[4]float32)(o[0:4]))
			rowTimes(m1, b0, b1, b2, lc).Store((*[4]float32)(o[4:8]))
			rowTimes(m2, b0, b1, b2, lc).Store((*[4]float32)(o[8:12]))
		}
	}
}

// skinPalette4 is skinPaletteGeneric with modelPalette4's row products.
func skinPalette4(joints []int, models, ibs, pal []float32) {
	lc := archsimd.LoadFloat32x4(&lastCol)
	for s, jt := range joints {
		m := (*[12]float32)(models[jt*12 : jt*12+12])
		b := (*[12]float32)(ibs[s*12 : s*12+12])
		o := (*[12]float32)(pal[s*12 : s*12+12])
		b0 := archsimd.LoadFloat32x4((*[4]float32)(b[0:4]))
		b1 := archsimd.LoadFloat32x4((*[4]float32)(b[4:8]))
		b2 := archsimd.LoadFloat32x4((*[4]float32)(b[8:12]))
		rowTimes(archsimd.LoadFloat32x4((*[4]float32)(m[0:4])), b0, b1, b2, lc).Store((*[4]float32)(o[0:4]))
		rowTimes(archsimd.LoadFloat32x4((*[4]float32)(m[4:8])), b0, b1, b2, lc).Store((*[4]float32)(o[4:8]))
		rowTimes(archsimd.LoadFloat32x4((*[4]float32)(m[8:12])), b0, b1, b2, lc).Store((*[4]float32)(o[8:12]))
	}
}

// mulRowsAt is mulRows for one joint (the post-processing's model
// matrices, modelAt): with 4-lane rows and FMA, as modelPalette4 computes
// the product, where the palette runs in lanes, the short sum for a joint
// whose parent comes just before it (chain) as there. 128-bit VEX code
// leaves the upper halves clean.
func mulRowsAt(o, a, l *[12]float32, chain bool) {
	if paletteLevel < levelAVX2 {
		mulRows(o, a, l)
		return
	}
	lc := archsimd.LoadFloat32x4(&lastCol)
	l0 := archsimd.LoadFloat32x4((*[4]float32)(l[0:4]))
	l1 := archsimd.LoadFloat32x4((*[4]float32)(l[4:8]))
	l2 := archsimd.LoadFloat32x4((*[4]float32)(l[8:12]))
	a0 := archsimd.LoadFloat32x4((*[4]float32)(a[0:4]))
	a1 := archsimd.LoadFloat32x4((*[4]float32)(a[4:8]))
	a2 := archsimd.LoadFloat32x4((*[4]float32)(a[8:12]))
	if chain {
		a0, a1, a2 = rowTimesShort(a0, l0, l1, l2, lc), rowTimesShort(a1, l0, l1, l2, lc), rowTimesShort(a2, l0, l1, l2, lc)
	} else {
		a0, a1, a2 = rowTimes(a0, l0, l1, l2, lc), rowTimes(a1, l0, l1, l2, lc), rowTimes(a2, l0, l1, l2, lc)
	}
	a0.Store((*[4]float32)(o[0:4]))
	a1.Store((*[4]float32)(o[4:8]))
	a2.Store((*[4]float32)(o[8:12]))
}

// rowTimesShort is rowTimes summed as (a0·b0 + a1·b1) + (a2·b2 + a3·lc):
// one instruction more, and a chain of two products and an add where
// rowTimes chains four.
func rowTimesShort(row, b0, b1, b2, lc archsimd.Float32x4) archsimd.Float32x4 {
	r01 := row.SelectFromPair(1, 1, 1, 1, row).MulAdd(b1, row.SelectFromPair(0, 0, 0, 0, row).Mul(b0))
	r23 := row.SelectFromPair(2, 2, 2, 2, row).MulAdd(b2, row.Mul(lc))
	return r01.Add(r23)
}

// rowTimes is one row of an affine product: a0·b0 + a1·b1 + a2·b2 + (0, 0,
// 0, a3) where row = (a0, a1, a2, a3). Each aₖ is spread across the lanes
// by a shuffle within the register (one VSHUFPS): taking it out as a scalar
// (GetElem) and broadcasting it back went through a general register, four
// instructions, two of them legacy SSE.
func rowTimes(row, b0, b1, b2, lc archsimd.Float32x4) archsimd.Float32x4 {
	r := row.SelectFromPair(0, 0, 0, 0, row).Mul(b0)
	r = row.SelectFromPair(1, 1, 1, 1, row).MulAdd(b1, r)
	r = row.SelectFromPair(2, 2, 2, 2, row).MulAdd(b2, r)
	return row.MulAdd(lc, r)
}
