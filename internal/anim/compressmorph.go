package anim

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// Morph weights in a compressed clip (CompressOptions.MorphDisplacement).
// A weight error e on a channel whose targets move a vertex by at most D
// model units moves that vertex by at most e·D, so each LINEAR weight
// channel is packed as a joint track is (encodeKeys, its one component
// judged as D·|error|): dropped to its rest weight, kept as one value, or
// its keys removed and the rest quantized over its range, every channel
// within the clip's tolerance on its own. The channels keep their key
// times as indices into one table of their own (or a bit per time of it),
// on a grid where the times lie on one. STEP and CUBICSPLINE weight tracks,
// and tracks with a channel of no displacement given, stay as they are.

// packedMorph holds a compressed clip's packed morph weight channels.
type packedMorph struct {
	// times is the table of the distinct key times of the channels of
	// keys, sorted; an index takes timeBits bits. step, timeMant and
	// points describe a grid as packedClip's do (timeTableBits).
	times    []float32
	timeBits uint8
	step     float32
	timeMant uint8
	points   int
	// weights is the number of the pose's weight channels: the stream
	// holds a bit for each, set where a packed channel drives it.
	weights int
	// chans are the packed channels by weight; a channel dropped to its
	// rest weight has none.
	chans []morphChannel
	// data holds each channel's time indices or mask, then its codes or
	// float32 values, each part from a byte, and dataPad zero bytes.
	data []byte
}

// morphChannel is one packed weight channel. A constant (n = 1) is lo,
// stored as its top 9+bits bits. A channel of n ≥ 2 keys holds, from byte
// toff, its times (none where every is set: it keys every time of the
// table; a bit per time of the table where mask is set; else n indices of
// timeBits bits) and from byte voff its values: with bits < 32, n codes of
// bits bits, value = lo + step·code, lo and step stored as their top
// 9+rbits bits (held here decoded); with bits = 32, n float32s.
type morphChannel struct {
	w           int32 // the weight's index in the pose (SoAPose.W)
	n           uint32
	bits, rbits uint8
	every, mask bool
	toff, voff  uint32
	lo, step    float32
}

// sample writes every packed channel's weight at t into w, a pose's
// weights. Each channel keeps in pairs (4 floats from 4i) the key pair
// around the time it was last sampled at, t0, t1, a and b, and in cur[i]
// 0 where that is not set (a new job, or after resetPacked), k+1 for
// keys k and k+1, −1 for a value held (a constant, or outside the keys,
// a = b): a time within t0 ≤ t < t1 interpolates the pair without
// decoding, as the joints' cache does. It allocates nothing.
func (pm *packedMorph) sample(t float32, cur []int32, pairs []float32, w []float32) {
	for i := range pm.chans {
		ch := &pm.chans[i]
		if int(ch.w) >= len(w) {
			continue // a pose without this skeleton's channels
		}
		p := (*[4]float32)(pairs[4*i:])
		if cur[i] == 0 || !(p[0] <= t && t < p[1]) {
			pm.refill(ch, t, &cur[i], p)
		}
		w[ch.w] = p[2] + (p[3]-p[2])*Clamp01((t-p[0])/(p[1]-p[0]))
	}
}

// refill sets the key pair p of channel ch and its cursor for t, as
// sampleMorphTrack samples a LINEAR track: the first key's value held up
// to it (and at NaN), the last's from it, keys k and k+1 between. Where
// playback crossed one key of the pair cached, it decodes only the next.
func (pm *packedMorph) refill(ch *morphChannel, t float32, cur *int32, p *[4]float32) {
	const far = math.MaxFloat32
	n := int(ch.n)
	if n < 2 {
		*p, *cur = [4]float32{-far, far, ch.lo, ch.lo}, -1
		return
	}
	if c := int(*cur); c > 0 && c+1 < n && t >= p[1] {
		if t2 := pm.keyTime(ch, c+1); t < t2 {
			*p, *cur = [4]float32{p[1], t2, p[3], pm.key(ch, c+1)}, int32(c+1)
			return
		}
	}
	if first := pm.keyTime(ch, 0); !(t > first) {
		v := pm.key(ch, 0)
		*p, *cur = [4]float32{-far, first, v, v}, -1
		return
	}
	if last := pm.keyTime(ch, n-1); t >= last {
		v := pm.key(ch, n-1)
		*p, *cur = [4]float32{last, far, v, v}, -1
		return
	}
	lo := lastKeyAtOrBefore(n, t, func(k int) float32 { return pm.keyTime(ch, k) })
	*p = [4]float32{pm.keyTime(ch, lo), pm.keyTime(ch, lo+1), pm.key(ch, lo), pm.key(ch, lo+1)}
	*cur = int32(lo + 1)
}

// keyTime decodes the time of key k of ch.
func (pm *packedMorph) keyTime(ch *morphChannel, k int) float32 {
	switch {
	case ch.every:
		return pm.times[k]
	case ch.mask:
		return pm.times[selectBit(pm.data, int(ch.toff)*8, k)]
	}
	return pm.times[readBits(pm.data, int(ch.toff)*8+k*int(pm.timeBits), pm.timeBits)]
}

// key decodes the value of key k of ch.
func (pm *packedMorph) key(ch *morphChannel, k int) float32 {
	if ch.bits == 32 {
		return math.Float32frombits(binary.LittleEndian.Uint32(pm.data[int(ch.voff)+4*k:]))
	}
	return ch.lo + ch.step*float32(int32(readBits(pm.data, int(ch.voff)*8+k*int(ch.bits), ch.bits)))
}

// selectBit is the place of the k-th set bit of the bits from bit at of
// d, which has k+1 set bits or more there.
func selectBit(d []byte, at, k int) int {
	for i := 0; ; i += 32 {
		x := readBits(d, at+i, 32)
		if c := bits.OnesCount32(x); k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			x &= x - 1
		}
		return i + bits.TrailingZeros32(x)
	}
}

// packedBits is the size of the packed channels in one stream of bits
// (CompressReport.MorphBytes), every field following from those before:
// the time table (timeTableBits); a bit per weight of the pose, set where
// a packed channel drives it; per channel its kind (a prefix code: 0
// coded, 10 constant, 11 float32), then
//   - a constant: 5 bits of mantissa kept, and its 9+bits bits;
//   - a coded channel: 5 bits for its code width, 5 for its ranges'
//     mantissas, the form of its times (0 every time of the table, 10
//     indices, 11 a mask), its key count in timeBits bits unless it keys
//     every time, its minimum and step (9+rbits bits each), its times and
//     its codes;
//   - a float32 channel: the form of its times, its key count unless it
//     keys every time, its times and its values.
func (pm *packedMorph) packedBits() int {
	grid := packedClip{times: pm.times, step: pm.step, timeMant: pm.timeMant, points: pm.points}
	b := timeTableBits(&grid) + pm.weights
	for i := range pm.chans {
		ch := &pm.chans[i]
		n := int(ch.n)
		if n < 2 {
			b += 2 + 5 + 9 + int(ch.bits)
			continue
		}
		if ch.every {
			b++
		} else {
			b += 2 + int(pm.timeBits) + keyTimesBits(n, len(pm.times), pm.timeBits)
		}
		if ch.bits == 32 {
			b += 2 + 32*n
			continue
		}
		b += 1 + 5 + 5 + 2*(9+int(ch.rbits)) + n*int(ch.bits)
	}
	return b
}

// rawMorphBytes is the size of morph tracks kept as they are: their
// floats and a descriptor each.
func rawMorphBytes(tracks []MorphTrack) int {
	b := 0
	for _, m := range tracks {
		b += 4*(len(m.Times)+len(m.Values)) + 3 + varintLen(len(m.Times))
	}
	return b
}

// morphBytes is the size of c's morph weights: the tracks kept as they
// are, and the packed channels.
func (c *RuntimeClip) morphBytes() int {
	b := rawMorphBytes(c.morph)
	if c.pm != nil {
		b += (c.pm.packedBits() + 7) / 8
	}
	return b
}

// packableMorph reports whether morph track tr may be packed with the
// displacements disp: LINEAR, and every channel's displacement given
// (finite and ≥ 0).
func packableMorph(tr *MorphTrack, disp []float64) bool {
	if tr.Interp != Linear || tr.Channel+tr.Count > len(disp) {
		return false
	}
	for _, d := range disp[tr.Channel : tr.Channel+tr.Count] {
		if !(d >= 0) || math.IsInf(d, 0) {
			return false
		}
	}
	return true
}

// packMorph packs the LINEAR morph tracks of ref whose channels all have
// a displacement in disp (model units per unit of weight, by weight
// channel), each channel within budget model units of vertex error. It
// returns the tracks kept as they are, and the packed channels (nil where
// no track is packed).
func packMorph(ref *RuntimeClip, disp []float64, budget float64) ([]MorphTrack, *packedMorph) {
	var raw, packable []MorphTrack
	var src []float32 // the packable tracks' distinct times
	for _, tr := range ref.morph {
		if packableMorph(&tr, disp) {
			packable = append(packable, tr)
			src = append(src, tr.Times...)
		} else {
			raw = append(raw, tr)
		}
	}
	if len(packable) == 0 {
		return ref.morph, nil
	}
	slices.Sort(src)
	src = slices.Compact(src)
	srcBits := uint8(max(1, bits.Len(uint(len(src)-1))))
	var hint float64
	if _, step, _, _ := gridTimes(src, 0); step > 0 {
		hint = float64(step)
	}
	// A channel is a translation's first component, the other two 0: the
	// joint tracks' encoder, judging D·|a₀ − b₀|.
	e := &encoder{cutRanges: true}
	type chanEnc struct {
		w  int
		et *encTrack
	}
	var encs []chanEnc
	var table []float32
	for _, tr := range packable {
		for c := range tr.Count {
			w := tr.Channel + c
			vals := make([]float32, 3*len(tr.Times))
			for k := range tr.Times {
				vals[3*k] = tr.Values[k*tr.Count+c]
			}
			d := disp[w]
			errf := func(a, b []float32) float64 { return d * math.Abs(float64(a[0])-float64(b[0])) }
			et := e.encodeKeys(Translation, tr.Times, vals, [4]float32{ref.morphRest[w]}, errf, budget, len(src), srcBits)
			encs = append(encs, chanEnc{w, et})
			if et.n >= 2 {
				table = append(table, et.times...)
			}
		}
	}
	slices.SortFunc(encs, func(a, b chanEnc) int { return a.w - b.w })
	slices.Sort(table)
	table = slices.Compact(table)
	pm := &packedMorph{times: table, timeBits: uint8(max(1, bits.Len(uint(max(len(table)-1, 0))))), weights: len(ref.morphRest)}
	if out, step, mant, points := gridTimes(table, hint); step > 0 {
		grid := &packedClip{times: out, step: step, timeMant: mant, points: points}
		if timeTableBits(grid) < timeTableBits(&packedClip{times: table}) {
			pm.times, pm.step, pm.timeMant, pm.points = out, step, mant, points
		}
	}
	var w bitWriter
	for _, ce := range encs {
		et := ce.et
		switch et.n {
		case 0:
			continue // the rest weight
		case 1:
			pm.chans = append(pm.chans, morphChannel{w: int32(ce.w), n: 1, bits: et.bits, lo: et.vals[0]})
			continue
		}
		n := et.n
		ch := morphChannel{w: int32(ce.w), n: uint32(n), bits: et.cbits[0], rbits: et.rbits, lo: et.lo[0], step: et.step[0]}
		if et.bits == 32 {
			ch.bits = 32
		}
		ch.toff = uint32(len(w.b))
		switch {
		case n == len(table):
			ch.every = true
		case len(table) < n*int(pm.timeBits):
			ch.mask = true
			at := 0
			for _, t := range et.times {
				k, _ := slices.BinarySearch(table, t)
				for ; at < k; at++ {
					w.write(0, 1)
				}
				w.write(1, 1)
				at++
			}
			for ; at < len(table); at++ {
				w.write(0, 1)
			}
		default:
			for _, t := range et.times {
				k, _ := slices.BinarySearch(table, t)
				w.write(uint32(k), pm.timeBits)
			}
		}
		w.b = w.end()
		w.start(w.b)
		ch.voff = uint32(len(w.b))
		for k := range n {
			if ch.bits == 32 {
				w.write(math.Float32bits(et.vals[3*k]), 32)
			} else {
				w.write(et.codes[3*k], ch.bits)
			}
		}
		w.b = w.end()
		w.start(w.b)
		pm.chans = append(pm.chans, ch)
	}
	pm.data = append(w.b, make([]byte, dataPad)...)
	return raw, pm
}

// morphError is the worst vertex error, in model units, that the weights
// of rc cause against those of ref at times: each packed channel's weight
// error times its displacement.
func morphError(ref, rc *RuntimeClip, disp []float64, times []float32) float64 {
	if rc.pm == nil {
		return 0
	}
	a, b := make([]float32, len(ref.morphRest)), make([]float32, len(ref.morphRest))
	ca, cb := make([]int32, ref.NumCursors()), make([]int32, rc.NumCursors())
	pairs := make([]float32, 4*len(rc.pm.chans))
	var worst float64
	for _, t := range times {
		sampleMorphW(ref, t, ca, nil, a)
		sampleMorphW(rc, t, cb, pairs, b)
		for i := range rc.pm.chans {
			k := rc.pm.chans[i].w
			worst = max(worst, disp[k]*math.Abs(float64(a[k])-float64(b[k])))
		}
	}
	return worst
}

// packWeights packs the morph weights of rc, the compressed form of ref,
// with the displacements disp within tol, and returns the worst vertex
// error they cause as played (morphError at morphTimes). The packing
// aims at a twentieth under tol, for the player's float32 rounding; one
// found over tol is made again at half of it, and where that too is over,
// the weights stay as they are (error 0).
func packWeights(ref, rc *RuntimeClip, disp []float64, tol float64) float64 {
	for _, f := range []float64{0.95, 0.5} {
		raw, pm := packMorph(ref, disp, f*tol)
		if pm == nil {
			break
		}
		rc.morph, rc.pm = raw, pm
		if e := morphError(ref, rc, disp, morphTimes(ref, pm)); e <= tol {
			return e
		}
		rc.morph, rc.pm = ref.morph, nil
	}
	return 0
}

// morphTimes are the times morph weights are checked at: 0, the
// duration, every key time of the source's weight tracks and of the
// packed table, and three more evenly between each two.
func morphTimes(ref *RuntimeClip, pm *packedMorph) []float32 {
	ts := append([]float32{0, ref.duration}, pm.times...)
	for _, tr := range ref.morph {
		ts = append(ts, tr.Times...)
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	out := make([]float32, 0, 4*len(ts))
	for i, t := range ts {
		if i > 0 {
			t0, d := ts[i-1], t-ts[i-1]
			out = append(out, t0+d/4, t0+d/2, t0+3*d/4)
		}
		out = append(out, t)
	}
	return out
}
