package anim

import (
	"math"
	"math/bits"
	"slices"
)

// rawBytes is the size of a clip's keys as float32, key arrays shared by
// tracks counted once.
func rawBytes(c *Clip) int {
	seen := map[*float32]bool{}
	b := 0
	add := func(times, values []float32) {
		if len(times) > 0 && !seen[&times[0]] {
			seen[&times[0]] = true
			b += 4 * len(times)
		}
		b += 4 * len(values)
	}
	for i := range c.Tracks {
		add(c.Tracks[i].Times, c.Tracks[i].Values)
	}
	for i := range c.Morph {
		add(c.Morph[i].Times, c.Morph[i].Values)
	}
	return b
}

// packedBytes is the size of a compressed clip as a file would hold it
// (CompressReport.Bytes), one stream of bits read in order, every field
// of which follows from those before it:
//   - the time table (timeTableBits);
//   - one bit per joint and path saying whether it has a track;
//   - per track, its kind (a prefix code: 0 coded, 10 constant, 11
//     float32), then
//   - a constant: 5 bits of mantissa kept, 1 saying whether a rotation
//     keeps x, y, z alone, and its values (packedTrack);
//   - a coded track: 5 bits per component, 5 for the ranges' mantissas,
//     2 for a rotation's rebuilt component, 1 for packedTrack.zero, the
//     form of its times (0 every time of the table, 10 indices, 11 a
//     mask); unless it keys every time, its key count in timeBits bits
//     (it keys fewer times than the table has); its ranges, its times,
//     and its codes unless they lie in the frames;
//   - a float32 track: the form of its times, its key count unless it
//     keys every time, its times and its values;
//   - the frames: frameBits per time of the table.
//
// The STEP and CUBICSPLINE tracks and the morph weights kept as they were
// count their floats and a descriptor each; packed morph weights follow
// as their own stream (packedMorph.packedBits). The offsets and the byte
// alignment kept in memory are not counted: they follow from the rest.
func (c *RuntimeClip) packedBytes() int {
	pk := c.pk
	b := timeTableBits(pk) + 3*c.numJoints + int(pk.frameBits)*len(pk.times)
	for p := range pk.tracks {
		nc := Path(p).Components()
		for _, tr := range pk.tracks[p] {
			n := int(tr.n)
			if n == 0 {
				continue
			}
			if n == 1 {
				kept := nc
				if tr.xyz {
					kept = 3
				}
				b += 2 + 5 + 1 + kept*(9+int(tr.bits))
				continue
			}
			if tr.every {
				b++ // the form of its times
			} else {
				b += 2 + int(pk.timeBits) + keyTimesBits(n, len(pk.times), pk.timeBits)
			}
			if tr.bits == 32 {
				b += 2 + 32*nc*n
				continue
			}
			b += 1 + 3*5 + 5 + 2 + 1 + rangeBits(&tr)
			if !tr.every {
				b += n * int(tr.keyBits())
			}
		}
	}
	bytes := (b + 7) / 8
	for _, o := range c.other {
		// Times and values; the inverse spans follow from the times.
		nc := Path(int(o.cursor) / c.numJoints).Components()
		per := nc
		if o.track.interp == CubicSpline {
			per = 3 * nc
		}
		bytes += 4*int(o.track.n)*(1+per) + 3 + varintLen(int(o.track.n))
	}
	return bytes + c.morphBytes()
}

// rangeValues are a coded track's ranges in the order they are stored:
// each component's minimum, then the step of each that has bits.
func rangeValues(lo, step []float32, cb [3]uint8) []float32 {
	vals := []float32{lo[0], lo[1], lo[2]}
	for c := range 3 {
		if cb[c] > 0 {
			vals = append(vals, step[c])
		}
	}
	return vals
}

// rangeBits is the size of a coded track's ranges: the minimum of each
// component and the step of each that has bits, the top 9+rbits bits of
// each float32, each after a bit saying whether it is +0 where zero is
// set (and then only those that are not).
func rangeBits(tr *packedTrack) int {
	b := 0
	for _, v := range rangeValues(tr.lo[:], tr.step[:], tr.cbits) {
		switch {
		case !tr.zero:
			b += 9 + int(tr.rbits)
		case math.Float32bits(v) == 0:
			b++
		default:
			b += 1 + 9 + int(tr.rbits)
		}
	}
	return b
}

// cutMantissa rounds v to m mantissa bits (of float32's 23), to nearest.
func cutMantissa(v float32, m uint8) float32 {
	if m >= 23 {
		return v
	}
	b := math.Float32bits(v)
	drop := 23 - uint32(m)
	r := (b + 1<<(drop-1)) >> drop << drop
	if r&0x7f800000 == 0x7f800000 { // rounded up out of the finite floats
		r = b >> drop << drop
	}
	return math.Float32frombits(r)
}

// cutMantissaToward is v with m mantissa bits, rounded up or down; ±Inf
// where that leaves the finite floats (ranges that decode to no number,
// which the encoder then refuses).
func cutMantissaToward(v float32, m uint8, up bool) float32 {
	if m >= 23 {
		return v
	}
	drop := 23 - uint32(m)
	b := math.Float32bits(v)
	r := b >> drop << drop // toward zero
	if math.Float32frombits(r) != v && (v > 0) == up {
		r += 1 << drop // away from zero: ±Inf past the largest float
	}
	return math.Float32frombits(r)
}

// timeTableBits is the size of the time table: its form (a prefix code:
// 0 for times on an evenly spaced grid, gridTimes, and holding every
// point of it; 10 for a list; 11 for some points of a grid), the count
// of its times (expGolombBits), and then for a grid the step as the top
// 9+timeMant bits of its float32, timeMant in 5 bits, a bit saying
// whether the first time is 0 (most clips start there) and if not its
// 9+timeMant bits, and where the table skips points the number of points
// it skips, a bit for the form and the points it holds (keyTimesBits);
// for a list, a float32 per time.
func timeTableBits(pk *packedClip) int {
	n := len(pk.times)
	b := 1 + expGolombBits(n)
	if pk.step > 0 {
		b += 9 + int(pk.timeMant) + 5 + 1
		if math.Float32bits(pk.times[0]) != 0 {
			b += 9 + int(pk.timeMant)
		}
		if pk.points > n {
			b += 1 + expGolombBits(pk.points-n) + 1 + keyTimesBits(n, pk.points, uint8(bits.Len(uint(pk.points-1))))
		}
		return b
	}
	return b + 1 + 32*n
}

// expGolombBits is the size of n ≥ 0 in the exponential-Golomb code
// (H.264's ue(v)): 2⌊log₂(n+1)⌋+1 bits, 1 for 0, 3 for 1 and 2, 5 for 3
// to 6, 13 for a table of 83 times.
func expGolombBits(n int) int {
	return 2*(bits.Len(uint(n+1))-1) + 1
}

// maxTimeMove is the most gridTimes moves a key time, in seconds: a few
// units of float32 rounding, but never more than this, as a moved key
// shifts the pose by its speed times the move (a hand at 10 m/s, by a
// hundredth of a millimetre; measure checks the moved times); on long
// clips, whose times round coarser, the table stays as it is.
const maxTimeMove = 1e-6

// gridTimes returns times that lie on a grid of evenly spaced times but
// for float rounding (a clip baked at a frame rate, or the times of it key
// reduction kept) as first + i·step in float32 arithmetic, what a few
// numbers and the i of each time decode to; the step, the mantissa bits
// the first time and the step keep, and the number of grid points from
// the first time to the last. The grid's step is the closest two times'
// distance or a whole fraction of it (down to an eighth: a clip whose
// second half starts 0.8 frames late lies on a grid of fifths), or hint,
// the grid of the source's times. Where no time moves by more than
// maxTimeMove it returns the times as they are and a step of 0.
func gridTimes(times []float32, hint float64) (out []float32, step float32, mant uint8, points int) {
	n := len(times)
	if n < 2 {
		return times, 0, 0, 0
	}
	t0, span := float64(times[0]), float64(times[n-1])-float64(times[0])
	closest := math.Inf(1)
	for i := 1; i < n; i++ {
		closest = min(closest, float64(times[i])-float64(times[i-1]))
	}
	idx := make([]int, n)
	out = make([]float32, n)
	rebuild := func(first, dt float32) {
		for i := range n {
			out[i] = first + float32(idx[i])*dt
		}
	}
	try := func(cell float64) bool {
		m := math.Round(span / cell) // grid intervals
		if !(m >= float64(n-1)) || m > 1<<22 {
			return false
		}
		step = float32(span / m)
		for i, t := range times {
			idx[i] = int(math.Round((float64(t) - t0) / (span / m)))
		}
		// Every time where it was but for a few units of rounding: a
		// time moved further would shift a key's kink between the times
		// the fit checks.
		rebuild(times[0], step)
		for i, t := range times {
			moved := min(math.Max(math.Abs(float64(t)), float64(step))*0x1p-21, maxTimeMove, 1e-4*float64(step))
			if !(math.Abs(float64(out[i]-t)) <= moved) || (i > 0 && !(out[i] > out[i-1])) {
				return false
			}
		}
		points = int(m) + 1
		return true
	}
	found := false
	for k := 1; k <= 8 && !found; k++ {
		found = try(closest / float64(k))
	}
	if !found && !(hint > 0 && try(hint)) {
		return times, 0, 0, 0
	}
	// The first time and the step keep as few mantissa bits as give the
	// same times (0 and 1 s: none; 1/30 s: all).
	want := slices.Clone(out)
	for mant = 0; mant < 23; mant++ {
		if rebuild(cutMantissa(times[0], mant), cutMantissa(step, mant)); slices.Equal(out, want) {
			return out, cutMantissa(step, mant), mant, points
		}
	}
	return want, step, 23, points
}

func varintLen(n int) int {
	l := 1
	for ; n >= 0x80; n >>= 7 {
		l++
	}
	return l
}

// rangeBytes is the size of a coded track's ranges: each component's
// minimum, and its step where it has bits, as the top 9+rbits bits of
// their float32s (sign, exponent and rbits of mantissa).
func rangeBytes(cb [3]uint8, rbits uint8) int {
	n := 3
	for _, b := range cb {
		if b > 0 {
			n++
		}
	}
	return (n*(9+int(rbits)) + 7) / 8
}

// keyTimesBits is the size of the times of a track of n keys in a table
// of table times with indices of timeBits bits: none where it keys every
// time, else an index per key or a bit per time of the table, whichever is
// smaller.
func keyTimesBits(n, table int, timeBits uint8) int {
	if n >= table {
		return 0
	}
	return min(n*int(timeBits), table)
}
