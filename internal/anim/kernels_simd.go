//go:build goexperiment.simd && amd64

package anim

import (
	"fmt"
	"simd/archsimd"
	"sync"
)

// SIMD kernels of the fast pipeline, for GOEXPERIMENT=simd builds on amd64.
// The CPU's features give the best level it can run: AVX-512 (F, CD, BW,
// DQ, VL, as archsimd bundles them), AVX2 with FMA, or none. Then, at
// start-up, each kernel (slerp and nlerp sampling, slerp and nlerp
// blending, the model-palette pass) is timed at every level up to that one
// on a small synthetic character, and runs at a wider level only where
// that measured faster than the narrower by a margin (calibrate): SIMD is
// never chosen where it is slower than portable on the CPU at hand, Intel
// or AMD, nor AVX-512 where it is slower than AVX2. What each level runs:
//
//   - BlendSoA: 16 lanes (AVX-512) or 8 (AVX2) of lerp, nlerp or the
//     polynomial slerp over the SoA stripes.
//   - SampleSoAJob: the cached key pairs interpolated 8 lanes wide (lerp,
//     nlerp or the polynomial slerp), both levels; the key streams'
//     refill is scalar. For a compressed clip, the pairs that t has left
//     found, and the frames decoded, 8 lanes at a time.
//   - ModelPaletteJob: local matrices 8 joints at a time from the SoA
//     stripes, then both affine products with 4-lane rows and FMA (both
//     levels).
//   - Layers (MaskedBlendSoA, AddSoA, DifferenceSoA): the joints a layer
//     leaves alone (equal poses, an identity difference) found 8 at a
//     time with vector compares (both levels; the masked blend only in
//     blocks with joints to interpolate); the masked blend and the
//     additive layer then compute whole blocks of 8 joints in lanes; the
//     difference, the last partial block, and additive blocks with a
//     weight outside [0, 1] or a scale to raise to a power, one joint at a
//     time.
//
// Go compiles scalar float code to legacy-SSE encodings: run while the
// upper halves of the vector registers are dirty, each such instruction
// pays a penalty, a state transition on Intel cores and a stall on the
// AMD machine too (a loop with one legacy MOVSS per block ran 5 × slower
// than without). So every kernel clears them (VZEROUPPER) before its
// scalar sections (the palette's row products, what follows a kernel) and
// takes zero vectors from the zero value. The clearing goes after the
// call to a kernel that is not inlined: within one function the compiler
// may schedule VZEROUPPER before the last vector instructions, which
// leaves the halves dirty. Inside a kernel's loop no float scalar may stay
// live (a weight kept for a later call is reloaded with MOVSS each turn),
// and counts go to shifts as vectors (ShiftAllRight moves its count with
// a legacy MOVQ); objdump of the kernels shows no legacy-SSE instruction
// in a loop that runs with the halves dirty.
//
// Measured, ns/joint of Blend2Palette-100, on 2-vCPU virtual machines:
// medians of interleaved rounds beside ozz-animation 0.16 -O3
// -march=native (Zen 5: one go test run), and what calibration chose
// there (three start-ups alike on the Zen 3 and on the Xeon):
//
//	CPU                  ozz   portable      avx2         avx512       calibration
//	                           nlerp  slerp  nlerp slerp  nlerp slerp
//	AMD EPYC Zen 3       66.6  95.6   134.4  51.8  60.9   –     –      AVX2 everywhere
//	AMD EPYC Zen 5       –     55.7   108.2  29.4  31.5   24.1  29.1   blend AVX-512, rest AVX2
//	Intel Xeon, AVX-512  73.3  95.4   140.4  40.2  45.3   36.9  45.8   blend AVX-512, rest AVX2
//
// Per kernel on that Xeon (BenchmarkBlend2Palette100Stages, medians of
// three in one run, in a slow quarter hour; the layers are not in it):
//
//	kernel               portable  avx2  avx512
//	sample nlerp         57.3      24.9  24.5
//	sample slerp         121.3     28.3  34.0
//	blend nlerp          12.1      4.4   3.3
//	blend slerp          27.6      6.7   5.5
//	model-palette        36.6      19.1  15.8
//
// Tests select each level the CPU has with setKernelPath and compare it
// with the portable kernels.
const (
	levelPortable = iota
	levelAVX2
	levelAVX512
)

// cpuLevel is the best level this CPU supports.
var cpuLevel = func() int {
	switch {
	case archsimd.X86.AVX512():
		return levelAVX512
	case archsimd.X86.AVX2() && archsimd.X86.FMA():
		return levelAVX2
	}
	return levelPortable
}()

// kernelLevel is the level KernelPath names: the best one any kernel
// runs at; ≤ cpuLevel.
var kernelLevel = cpuLevel

// The level each kernel runs at: the one that measured fastest, by a
// margin, at start-up (calibrate).
var (
	sampleLevel  [2]int       // SampleSoAJob: [0] slerp, [1] nlerp
	blendLevel   [2]int       // BlendSoA: [0] slerp, [1] nlerp
	paletteLevel = cpuLevel   // ModelPaletteJob
	layerLevel   = cpuLevel   // the joints MaskedBlendSoA, AddSoA and DifferenceSoA leave alone
	layerLanes   bool         // layerLevel ≥ AVX2
	chosen       kernelChoice // what SetKernels chose, for restoreKernels
)

// kernelChoice is one level per kernel.
type kernelChoice struct{ sampleSlerp, sampleNlerp, blendSlerp, blendNlerp, palette, layers int }

func (k kernelChoice) apply() {
	sampleLevel, blendLevel, paletteLevel = [2]int{k.sampleSlerp, k.sampleNlerp}, [2]int{k.blendSlerp, k.blendNlerp}, k.palette
	layerLevel, layerLanes = k.layers, k.layers >= levelAVX2
	kernelLevel = max(k.sampleSlerp, k.sampleNlerp, k.blendSlerp, k.blendNlerp, k.palette, k.layers)
}

// Until SetKernels says otherwise every kernel runs at the CPU's best
// level: a fixed choice, so that a program that never calibrates gets the
// same bits on every run.
func init() {
	chosen = kernelChoice{cpuLevel, cpuLevel, cpuLevel, cpuLevel, cpuLevel, cpuLevel}
	chosen.apply()
}

var (
	calibrateOnce sync.Once
	calibrated    kernelChoice // what calibrate chose, once it ran
)

// setKernels implements SetKernels.
func setKernels(name string) error {
	if name == "auto" {
		calibrateOnce.Do(func() {
			calibrated = kernelChoice{cpuLevel, cpuLevel, cpuLevel, cpuLevel, cpuLevel, cpuLevel}
			if cpuLevel > levelPortable {
				calibrated = calibrate()
			}
		})
		chosen = calibrated
		chosen.apply()
		return nil
	}
	for l := levelPortable; l <= levelAVX512; l++ {
		if levelName(l) != name {
			continue
		}
		if l > cpuLevel {
			return fmt.Errorf("anim: kernels %q: this CPU runs at most %s", name, levelName(cpuLevel))
		}
		chosen = kernelChoice{l, l, l, l, l, l}
		chosen.apply()
		return nil
	}
	return fmt.Errorf("anim: kernels %q: want auto, portable, avx2 or avx512", name)
}

func simdPath() string { return levelName(kernelLevel) }

func levelName(l int) string {
	switch l {
	case levelAVX512:
		return "avx512"
	case levelAVX2:
		return "avx2"
	}
	return "portable"
}

// kernelChoices says which level each kernel runs at.
func kernelChoices() string {
	return "sample slerp " + levelName(sampleLevel[0]) + ", sample nlerp " + levelName(sampleLevel[1]) +
		", blend slerp " + levelName(blendLevel[0]) +
		", blend nlerp " + levelName(blendLevel[1]) + ", model-palette " + levelName(paletteLevel) +
		", layers " + levelName(layerLevel)
}

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
	per := groupLanes * (2 + 2*nc)
	var found uint8
	for k := range m {
		i := from + k*groupLanes
		if i+groupLanes > len(end) {
			break
		}
		held := load8(s, i/groupLanes*per).LessEqual(tv).And(tv.Less(load8(end, i)))
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

// modelPalette runs the 4-lane row kernel at both SIMD levels: a variant
// holding each matrix in one 16-lane register (products by permutations)
// measured slower on AMD Zen 4, which splits 512-bit permutations in two.
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
// leaving such blocks to the scalar code saved a tenth of the character's
// masked layer and cost dense layers half again, so it does not. Only a
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
// block, with the upper halves dirty, and the blocks ran 5 × slower.
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
	ts := p.holdsIdentity(Translation) && p.holdsIdentity(Scale)
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
	// waits on the whole register (3–8× slower at 64 and 128 joints).
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

// setKernelPath runs every kernel at the level KernelPath names name, for
// tests, whatever calibrate chose; it reports false for a path this CPU
// or build cannot run. restoreKernels undoes it.
func setKernelPath(name string) bool {
	for l := levelPortable; l <= cpuLevel; l++ {
		kernelLevel = l
		if simdPath() == name {
			kernelChoice{l, l, l, l, l, l}.apply()
			return true
		}
	}
	restoreKernels()
	return false
}

// restoreKernels puts back what SetKernels chose.
func restoreKernels() { chosen.apply() }

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
// 0 where it is NaN (an infinite time on a constant pair), as clamp01.
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
