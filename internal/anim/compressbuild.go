package anim

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"time"
)

// CompressClip validates c against sk and builds its compressed runtime
// form (see compress.go), with a report of its size and error. Should no
// packing stay within the tolerance, it returns the clip uncompressed,
// reported at its raw size.
func CompressClip(c *Clip, sk *Skeleton, opt CompressOptions) (*RuntimeClip, CompressReport, error) {
	start := time.Now()
	rep := CompressReport{}
	if c != nil {
		rep.Clip = c.Name
	}
	if !(opt.Tolerance > 0) || math.IsInf(opt.Tolerance, 0) {
		return nil, rep, fmt.Errorf("anim: compression tolerance %v is not a finite positive number", opt.Tolerance)
	}
	ref, err := NewRuntimeClip(c, sk)
	if err != nil {
		return nil, rep, err
	}
	if b := rawBytes(c); b > maxPackedBytes/2 {
		// Bit offsets are 32-bit: 512 MiB of packed keys at most.
		return nil, rep, fmt.Errorf("anim: clip %q has %d MB of keys; compression takes at most %d MB", c.Name, b>>20, maxPackedBytes>>21)
	}
	progress := func(f float64) {
		if opt.Progress != nil {
			opt.Progress(f)
		}
	}
	e := &encoder{ref: ref, sk: sk, tol: opt.Tolerance, done: map[encKey]*encTrack{}}
	e.checkTimes(c)
	e.measureReach()
	e.sampleCurves()
	e.checkTimes(c) // with the splines' samples
	progress(0.05)
	// pack tries each packing within target and keeps the smallest that
	// fits, its progress in [lo, hi].
	curves := e.curves
	pack := func(target, lo, hi float64) (rc *RuntimeClip, worst []float64, errs []float32) {
		e.curves, e.done = curves, map[encKey]*encTrack{}
		// Each packing tried has its share of the progress, and the
		// refinement of the smallest a fifth.
		fits, fit := 2, 0
		if len(e.curves) > 0 {
			fits = 4
		}
		share := func(f float64) { progress(lo + 0.8*(hi-lo)*(float64(fit)+f)/float64(fits)) }
		e.cutRanges = true
		rc, worst, errs, shares := e.fit(target, share)
		// The winner's settings, and its tracks (e.done), which refine
		// weighs.
		best := struct {
			cutRanges bool
			curves    map[int32]curve
			done      map[encKey]*encTrack
		}{e.cutRanges, e.curves, e.done}
		// Other packings win on some clips: ranges kept whole (the shares
		// the fit settles on differ, and with them the keys kept), and
		// splines kept as they are (where their keys do not fit or take
		// more room).
		alt := func() {
			fit++
			e.done = map[encKey]*encTrack{}
			rc2, worst2, errs2, shares2 := e.fit(target, share)
			w1, w2 := slices.Max(worst), slices.Max(worst2)
			if (w2 <= target && (w1 > target || rc2.packedBytes() < rc.packedBytes())) || (w1 > target && w2 < w1) {
				rc, worst, errs, shares = rc2, worst2, errs2, shares2
				best.cutRanges, best.curves, best.done = e.cutRanges, e.curves, e.done
			}
		}
		e.cutRanges = false
		alt()
		if len(e.curves) > 0 {
			e.curves = nil
			alt()
			e.cutRanges = true
			alt()
		}
		e.cutRanges, e.curves, e.done = best.cutRanges, best.curves, best.done
		return e.refine(target, shares, rc, worst, errs, func(f float64) { progress(lo + (hi-lo)*(0.8+0.2*f)) })
	}
	// The fit judges packings by model matrices computed in float64, free
	// of rounding. A player computes them in float32, and on a large
	// model their rounding is as large as a tight tolerance: on the Fox,
	// 85 units long, 1.3e-5 units, and the raw and the packed clip each
	// carry their own. The target leaves room for both (and a quarter
	// more, as the source's rounding is found at some times only, and for
	// whoever checks). The packing is then judged as played, at the check
	// times and three more between each two; where it is found over,
	// it is made again with the target lowered by as much.
	target := max(0.95*opt.Tolerance-2.5*e.rounding, 0.25*opt.Tolerance)
	played := append(slices.Clone(e.times), e.denseTimes()...)
	var rc *RuntimeClip
	var worst []float64
	var errs []float32
	for try, spans := 0, []float64{0.05, 0.75, 0.9, 0.97}; ; try++ {
		rc, _, _ = pack(target, spans[try], spans[try+1]-0.02)
		progress(spans[try+1] - 0.02)
		e.stage = nil
		worst, errs = e.measureAs(rc, played, true)
		over := slices.Max(worst) - 0.97*opt.Tolerance
		if over <= 0 || try == 2 {
			break // within the tolerance, or else the clip is kept
		}
		target -= over + 0.01*opt.Tolerance
		if !(target > 0) {
			break
		}
	}
	rep.RawBytes = c.SourceBytes
	if rep.RawBytes <= 0 {
		rep.RawBytes = rawBytes(c)
	}
	if !(slices.Max(worst) <= opt.Tolerance) {
		// No packing kept within the tolerance as played (the fit's last
		// tries keep every key; on a model whose float32 rounding alone
		// comes near the tolerance, none can): the clip stays as it is,
		// and the report says so.
		rep.Bytes, rep.Kept = rep.RawBytes, true
		rep.Elapsed = time.Since(start)
		progress(1)
		return ref, rep, nil
	}
	slices.Sort(errs)
	if len(errs) > 0 {
		rep.MaxError = float64(errs[len(errs)-1])
		rep.P99Error = float64(errs[min(len(errs)-1, int(math.Ceil(0.99*float64(len(errs))))-1)])
	}
	rep.Bytes = rc.packedBytes()
	rep.Elapsed = time.Since(start)
	progress(1)
	return rc, rep, nil
}

// maxPackedBytes bounds a packed clip's data, whose bit offsets are
// uint32.
const maxPackedBytes = 1 << 29

// fit packs the clip with every joint's share of the tolerance, halving
// the shares of joints (and their ancestors) over target until it fits,
// then doubling those with room while it still does. It returns the
// clip, each joint's worst error and every (time, joint) error, and tells
// progress the share of its work done.
func (e *encoder) fit(target float64, progress func(float64)) (rc *RuntimeClip, worst []float64, errs []float32, share []float64) {
	sk := e.sk
	n := sk.NumJoints()
	share = make([]float64, n)
	for j := range share {
		share[j] = 1
	}
	const tries, rounds = 12, 4
	for try := 0; ; try++ {
		e.stage = func(f float64) { progress(0.8 * (float64(try) + f) / tries) }
		rc = e.build(share)
		worst, errs = e.measure(rc, e.times)
		if slices.Max(worst) <= target || try == tries-1 {
			break
		}
		// Halve the shares of every joint over the target and of its
		// ancestors, once each; the last tries keep every key.
		cut := make([]bool, n)
		for j := n - 1; j >= 0; j-- {
			if worst[j] > target || cut[j] {
				cut[j] = true
				if p := sk.Parents[j]; p >= 0 {
					cut[p] = true
				}
			}
		}
		for j := range n {
			if cut[j] {
				share[j] *= 0.5
				if try >= tries-3 {
					share[j] = 0
				}
			}
		}
	}
	// Loosen where there is room: double the share of every joint whose
	// subtree is within half the target, and keep the round if the clip
	// still is within the target.
	for round := 0; round < rounds && slices.Max(worst) <= target; round++ {
		sub := slices.Clone(worst)
		for j := n - 1; j > 0; j-- {
			if p := sk.Parents[j]; p >= 0 {
				sub[p] = max(sub[p], sub[j])
			}
		}
		next := slices.Clone(share)
		raised := false
		for j := range n {
			if sub[j] < target/2 && share[j] > 0 && share[j] < 64 {
				next[j] *= 2
				raised = true
			}
		}
		if !raised {
			break
		}
		e.stage = func(f float64) { progress(0.8 + 0.2*(float64(round)+f)/rounds) }
		rc2 := e.build(next)
		worst2, errs2 := e.measure(rc2, e.times)
		if slices.Max(worst2) > target {
			break
		}
		share, rc, worst, errs = next, rc2, worst2, errs2
	}
	return rc, worst, errs, share
}

// refine raises one joint's share at a time, those whose tracks take most
// room first: it doubles the share (then raises it by √2) while the clip
// stays within target and packs smaller. fit's rounds raise every joint
// with room at once and stop at the first that spends too much; here a
// joint near the root, whose error every joint below it adds to, may take
// the room its subtree leaves. It starts from fit's shares and packing.
func (e *encoder) refine(target float64, share []float64, rc *RuntimeClip, worst []float64, errs []float32, progress func(float64)) (*RuntimeClip, []float64, []float32) {
	n := e.sk.NumJoints()
	if slices.Max(worst) > target {
		return rc, worst, errs
	}
	room := make([]int, n)
	order := make([]int, n)
	for j := range n {
		order[j] = j
		for p := range 3 {
			if et := e.done[encKey{Path(p), j, share[j]}]; et != nil {
				room[j] += et.size
			}
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return room[b] - room[a] })
	size := rc.packedBytes()
	for pass, factor := range []float64{2, math.Sqrt2} {
		for i, j := range order {
			if room[j] == 0 {
				break
			}
			// Each joint may take several packings: the stage moves on
			// with the joints.
			e.stage = func(float64) { progress(0.5 * (float64(pass) + float64(i)/float64(n))) }
			for share[j] < 64 {
				next := slices.Clone(share)
				next[j] = max(factor*share[j], 1.0/64)
				rc2 := e.build(next)
				worst2, errs2 := e.measure(rc2, e.times)
				size2 := rc2.packedBytes()
				if slices.Max(worst2) > target || size2 >= size {
					break
				}
				share, rc, worst, errs, size = next, rc2, worst2, errs2, size2
			}
		}
	}
	return rc, worst, errs
}

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
// count their floats and a descriptor each. The offsets and the byte
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
	for _, m := range c.morph {
		bytes += 4*(len(m.Times)+len(m.Values)) + 3 + varintLen(len(m.Times))
	}
	return bytes
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

// encoder compresses one clip.
type encoder struct {
	ref *RuntimeClip
	sk  *Skeleton
	tol float64
	// times are the clip times the error is checked at: every key time,
	// and half-way between consecutive ones.
	times []float32
	// reach[j] bounds how far from joint j, in model units, a point that
	// moves with it lies (its descendants and its own virtual vertices);
	// scale[j] is the largest axis scale of its parent's model matrix,
	// minScale[j] the smallest magnitude of its own local scale.
	reach, scale, minScale []float64
	// done caches each track's encoding by path, joint and share.
	done map[encKey]*encTrack
	// cutRanges lets coded tracks keep fewer mantissa bits of their
	// ranges.
	cutRanges bool
	// numTimes is the number of distinct source key times and timeBits
	// the width of an index into them, what encodeTrack weighs a track's
	// times at (keyTimesBits).
	numTimes int
	timeBits uint8
	// gridStep is the step of the grid the source's key times lie on
	// (gridTimes), 0 if none.
	gridStep float64
	// rounding is the most the engine's float32 model matrices of the
	// source stray from the same products in float64, a virtual-vertex
	// error.
	rounding float64
	// refModels are the source's model matrices at the times measure
	// checks, slerped then nlerped, up to maxRefModels floats.
	refModels map[float32][]float64
	// stage reports the share of the current build and measure done.
	stage func(float64)
	// curves are the CUBICSPLINE tracks packed as LINEAR keys, by cursor
	// (path·joints + joint): the spline sampled densely (sampleCurves).
	curves map[int32]curve
}

// otherTrack is the STEP or CUBICSPLINE track of cursor.
func (c *RuntimeClip) otherTrack(cursor int32) laneTrack {
	for _, o := range c.other {
		if o.cursor == cursor {
			return o.track
		}
	}
	return laneTrack{}
}

// curve is a CUBICSPLINE track sampled densely.
type curve struct{ times, values []float32 }

// sampleCurves samples every CUBICSPLINE joint track of the source at its
// keys and, halving each key span at least twice, wherever the chord
// strays from the spline by more than a twentieth of the tolerance (down
// to 1/256 of the span). Key reduction thins the samples out again; the
// samples' times are also where the clip's error is checked.
func (e *encoder) sampleCurves() {
	e.curves = map[int32]curve{}
	for _, o := range e.ref.other {
		if o.track.interp != CubicSpline {
			continue
		}
		n := e.ref.numJoints
		p, j := Path(int(o.cursor)/n), int(o.cursor)%n
		nc := p.Components()
		stride := recHead + 3*nc
		errf := e.trackError(p, j)
		var cv curve
		var cur int32
		at := func(t float32) (v [4]float32) {
			sampleOther(e.ref.keys, o.track, nc, t, &cur, &v)
			return v
		}
		add := func(t float32, v [4]float32) {
			if p == Rotation && len(cv.values) >= 4 {
				q := cv.values[len(cv.values)-4:]
				if q[0]*v[0]+q[1]*v[1]+q[2]*v[2]+q[3]*v[3] < 0 {
					v[0], v[1], v[2], v[3] = -v[0], -v[1], -v[2], -v[3]
				}
			}
			cv.times = append(cv.times, t)
			cv.values = append(cv.values, v[:nc]...)
		}
		// far reports whether the chord from v0 to v1 strays from the
		// spline by more than a twentieth of the tolerance at a quarter,
		// half or three quarters of the span (an S-shaped span can meet
		// its chord half-way).
		far := func(t0, t1 float32, v0, v1 [4]float32) bool {
			for _, f := range [3]float32{0.25, 0.5, 0.75} {
				var chord [4]float32
				for c := range nc {
					chord[c] = v0[c] + (v1[c]-v0[c])*f
				}
				if p == Rotation {
					chord[0], chord[1], chord[2], chord[3] = normQ(chord[0], chord[1], chord[2], chord[3])
				}
				if v := at(t0 + (t1-t0)*f); errf(chord[:nc], v[:nc]) > e.tol/20 {
					return true
				}
			}
			return false
		}
		var split func(t0, t1 float32, v0, v1 [4]float32, depth int)
		split = func(t0, t1 float32, v0, v1 [4]float32, depth int) {
			if depth < 2 || (depth < 8 && far(t0, t1, v0, v1)) {
				tm := t0 + (t1-t0)/2
				vm := at(tm)
				split(t0, tm, v0, vm, depth+1)
				add(tm, vm)
				split(tm, t1, vm, v1, depth+1)
			}
		}
		key := func(k int) float32 { return e.ref.keys[int(o.track.off)+k*stride] }
		prev := at(key(0))
		add(key(0), prev)
		for k := 1; k < int(o.track.n); k++ {
			v := at(key(k))
			split(key(k-1), key(k), prev, v, 0)
			add(key(k), v)
			prev = v
		}
		e.curves[o.cursor] = cv
	}
}

type encKey struct {
	p     Path
	j     int
	share float64
}

// encTrack is one track's encoding.
type encTrack struct {
	n    int // 0 dropped, 1 constant, ≥ 2 keys
	size int // bits of keys and ranges, for tracks of keys
	// bits is 32 for float32 values, the widest component's for coded
	// ones (cbits each), the mantissa bits kept for a constant track.
	bits  uint8
	cbits [3]uint8
	// rbits are the mantissa bits the ranges keep (see quantize).
	rbits uint8
	// xyz: a constant rotation kept as x, y, z, w ≥ 0 rebuilt.
	xyz bool
	// drop is the component a coded rotation rebuilds (dropComponent).
	drop  uint8
	times []float32
	// codes holds nq codes per key (bits < 32), or the values (float32).
	codes []uint32
	vals  []float32
	lo    [4]float32
	step  [4]float32
}

// checkTimes gathers the times the error is checked at.
func (e *encoder) checkTimes(c *Clip) {
	var ts []float32
	for i := range c.Tracks {
		ts = append(ts, c.Tracks[i].Times...)
	}
	for _, cv := range e.curves {
		ts = append(ts, cv.times...)
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	e.numTimes = len(ts)
	if _, step, _, _ := gridTimes(ts, 0); step > 0 {
		e.gridStep = float64(step)
	}
	e.timeBits = uint8(max(1, bits.Len(uint(e.numTimes-1))))
	ts = append(ts, 0, e.ref.duration)
	for i := range ts {
		ts[i] = min(max(ts[i], 0), e.ref.duration)
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	out := make([]float32, 0, 2*len(ts))
	for i, t := range ts {
		if i > 0 {
			out = append(out, ts[i-1]+(t-ts[i-1])/2)
		}
		out = append(out, t)
	}
	e.times = slices.Compact(out)
}

// f64s is v in float64.
func f64s(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// denseTimes are three times evenly between each two check times.
func (e *encoder) denseTimes() []float32 {
	var out []float32
	for i := 1; i < len(e.times); i++ {
		t0, d := e.times[i-1], e.times[i]-e.times[i-1]
		out = append(out, t0+d/4, t0+d/2, t0+3*d/4)
	}
	return out
}

// measureReach fills reach, scale, minScale and rounding from the source
// clip at up to 256 of the check times.
func (e *encoder) measureReach() {
	sk := e.sk
	n := sk.NumJoints()
	e.reach, e.scale, e.minScale = make([]float64, n), make([]float64, n), make([]float64, n)
	for j := range n {
		e.minScale[j] = math.Inf(1)
	}
	pose := NewPose(sk)
	models := make([]float32, PaletteFloats*n)
	exact := make([]float64, PaletteFloats*n)
	job := e.ref.NewSampleJob(false, pose)
	mp := ModelPaletteJob{Skeleton: sk, Input: pose, Models: models}
	step := max(1, len(e.times)/256)
	for i := 0; i < len(e.times); i += step {
		job.Time = e.times[i]
		job.Run()
		mp.Run()
		models64(sk.Parents, pose, exact)
		for d := range n {
			e.rounding = max(e.rounding, vertexError(f64s(models[d*PaletteFloats:d*PaletteFloats+12]), exact[d*PaletteFloats:d*PaletteFloats+12]))
			od := origin(models, d)
			own := VirtualVertex * axisScale(models, d, true)
			for a := d; a >= 0; a = sk.Parents[a] {
				e.reach[a] = max(e.reach[a], dist(origin(models, a), od)+own)
			}
			ps := 1.0
			if p := sk.Parents[d]; p >= 0 {
				ps = axisScale(models, p, true)
			}
			e.scale[d] = max(e.scale[d], ps)
			s := math.Min(math.Abs(float64(pose.sx[d])), math.Min(math.Abs(float64(pose.sy[d])), math.Abs(float64(pose.sz[d]))))
			e.minScale[d] = math.Min(e.minScale[d], s)
		}
	}
	for j := range n {
		e.minScale[j] = math.Max(e.minScale[j], 1e-4)
	}
}

func origin(models []float32, j int) [3]float64 {
	r := models[j*PaletteFloats:]
	return [3]float64{float64(r[3]), float64(r[7]), float64(r[11])}
}

// axisScale is the largest (or smallest) length of joint j's model axes.
func axisScale(models []float32, j int, largest bool) float64 {
	r := models[j*PaletteFloats:]
	s := 0.0
	for c := range 3 {
		l := math.Sqrt(float64(r[c])*float64(r[c]) + float64(r[4+c])*float64(r[4+c]) + float64(r[8+c])*float64(r[8+c]))
		if c == 0 || (largest && l > s) || (!largest && l < s) {
			s = l
		}
	}
	return s
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// measure samples rc and the source at times (the check times, or the
// denser times) and every time of rc's table that is not among them, with slerp and with nlerp, and returns each joint's worst
// virtual-vertex error and every (time, joint) error: the largest distance
// between the two clips' joint origin and the points VirtualVertex along
// each model axis, both scaled by the joint's model matrix and at that
// distance whatever the scale.
func (e *encoder) measure(rc *RuntimeClip, times []float32) (worst []float64, all []float32) {
	return e.measureAs(rc, times, false)
}

// measureAs is measure with the model matrices computed in float64 from
// the sampled poses (models64), which the fit judges packings by, or
// where played is set, as the engine computes them (ModelPaletteJob, in
// float32): the error a player sees, with the rounding of both clips'
// products.
func (e *encoder) measureAs(rc *RuntimeClip, times []float32, played bool) (worst []float64, all []float32) {
	sk := e.sk
	n := sk.NumJoints()
	worst = make([]float64, n)
	all = make([]float32, 0, n*len(times))
	type side struct {
		job      SampleSoAJob
		mp       ModelPaletteJob
		models   []float64
		models32 []float32
	}
	mk := func(c *RuntimeClip, nlerp bool) *side {
		s := &side{models: make([]float64, PaletteFloats*n), models32: make([]float32, PaletteFloats*n)}
		s.job = c.NewSampleJob(nlerp, NewPose(sk))
		s.mp = ModelPaletteJob{Skeleton: sk, Input: s.job.Output, Models: s.models32}
		return s
	}
	sides := [4]*side{mk(e.ref, false), mk(rc, false), mk(e.ref, true), mk(rc, true)}
	if moved := movedTimes(rc.pk.times, times); len(moved) > 0 {
		times = append(slices.Clone(times), moved...)
	}
	if e.refModels == nil {
		e.refModels = map[float32][]float64{}
	}
	for i, t := range times {
		if e.stage != nil && i%256 == 0 {
			e.stage(0.5 + 0.5*float64(i)/float64(len(times)))
		}
		if played {
			for _, s := range sides {
				s.job.Time = t
				s.job.Run()
				s.mp.Run()
			}
			all = jointErrors(sides[0].models32, sides[1].models32, sides[2].models32, sides[3].models32, worst, all)
			continue
		}
		// The source's model matrices at t, slerped then nlerped, are the
		// same for every packing tried: kept while they take little room.
		ref := e.refModels[t]
		for k, s := range sides {
			if k%2 == 0 && ref != nil {
				continue
			}
			s.job.Time = t
			s.job.Run()
			models64(sk.Parents, s.job.Output, s.models)
		}
		if ref == nil {
			ref = append(slices.Clone(sides[0].models), sides[2].models...)
			if len(e.refModels)*len(ref) < maxRefModels {
				e.refModels[t] = ref
			}
		}
		all = jointErrors(ref[:n*PaletteFloats], sides[1].models, ref[n*PaletteFloats:], sides[3].models, worst, all)
	}
	return worst, all
}

// jointErrors appends each joint's error at one time to all and raises
// worst: the larger of the slerped pair's (source a, packed b) and the
// nlerped pair's (c, d) vertexError.
func jointErrors[F float32 | float64](a, b, c, d []F, worst []float64, all []float32) []float32 {
	for j := range worst {
		o := j * PaletteFloats
		err := max(vertexError(a[o:], b[o:]), vertexError(c[o:], d[o:]))
		worst[j] = max(worst[j], err)
		all = append(all, float32(err))
	}
	return all
}

// models64 is ModelPaletteJob's model matrices of pose, in its row layout,
// computed in float64 from the pose's float32 values: the pose's own
// matrices without the rounding of the float32 products, which on a large
// model is as large as a tight tolerance (modelRounding).
func models64(parents []int, in *SoAPose, models []float64) {
	for i, p := range parents {
		m := (*[12]float64)(models[i*12 : i*12+12])
		if p < 0 {
			localRows(m, in, i)
			continue
		}
		var l [12]float64
		localRows(&l, in, i)
		mulRows(m, (*[12]float64)(models[p*12:p*12+12]), &l)
	}
}

// maxRefModels bounds the floats encoder.refModels holds (32 MB).
const maxRefModels = 4 << 20

// movedTimes are the times of a table on a grid (gridTimes) that
// are not check times: keys a few units of rounding from the source's.
// The pose there, just past the source's key, is off by its change of
// speed at the key times the move, which on a fast joint adds up to the
// tolerance.
func movedTimes(table, checked []float32) []float32 {
	var moved []float32
	for _, t := range table {
		if _, ok := slices.BinarySearch(checked, t); !ok {
			moved = append(moved, t)
		}
	}
	return moved
}

// vertexError is the largest distance between the virtual vertices of
// two model matrices in the palette's row layout.
func vertexError[F float32 | float64](m, k []F) float64 {
	var d [3]float64
	for r := range 3 {
		d[r] = float64(m[r*4+3]) - float64(k[r*4+3])
	}
	worst := d[0]*d[0] + d[1]*d[1] + d[2]*d[2] // squared, as the rest
	for c := range 3 {
		var am, ak float64 // axis lengths
		for r := range 3 {
			am += float64(m[r*4+c]) * float64(m[r*4+c])
			ak += float64(k[r*4+c]) * float64(k[r*4+c])
		}
		am, ak = math.Sqrt(am), math.Sqrt(ak)
		var s1, s2 float64
		for r := range 3 {
			x, y := float64(m[r*4+c]), float64(k[r*4+c])
			v := d[r] + VirtualVertex*(x-y) // scaled by the matrix
			s1 += v * v
			if am > 0 && ak > 0 {
				v = d[r] + VirtualVertex*(x/am-y/ak) // at 3 cm whatever the scale
			}
			s2 += v * v
		}
		worst = max(worst, s1, s2)
	}
	return math.Sqrt(worst)
}

// build packs the source's LINEAR tracks, joint j's tracks within
// share[j]·tol each.
func (e *encoder) build(share []float64) *RuntimeClip {
	ref := e.ref
	n := ref.numJoints
	other := map[int32]bool{}
	for _, o := range ref.other {
		_, packed := e.curves[o.cursor]
		other[o.cursor] = !packed
	}
	var enc [3][]*encTrack
	var table []float32
	for p := range 3 {
		path := Path(p)
		enc[p] = make([]*encTrack, n)
		for j := range n {
			if other[int32(p*n+j)] {
				enc[p][j] = &encTrack{} // sampleOtherLanes writes it
				continue
			}
			if e.stage != nil && j%64 == 0 {
				e.stage(0.5 * float64(p*n+j) / float64(3*n))
			}
			k := encKey{path, j, share[j]}
			et := e.done[k]
			if et == nil {
				et = e.encodeTrack(path, j, share[j]*e.tol)
				e.done[k] = et
			}
			if _, ok := e.curves[int32(p*n+j)]; ok && et.n >= 2 {
				// A spline whose keys would take more room than its
				// records stays as it is.
				if o := e.ref.otherTrack(int32(p*n + j)); et.size >= 32*int(o.n)*(1+3*path.Components()) {
					other[int32(p*n+j)] = true
					enc[p][j] = &encTrack{}
					continue
				}
			}
			enc[p][j] = et
			if et.n >= 2 {
				table = append(table, et.times...)
			}
		}
	}
	slices.Sort(table)
	table = slices.Compact(table)
	pk := &packedClip{times: table, timeBits: uint8(max(1, bits.Len(uint(len(table)-1))))}
	if out, step, mant, points := gridTimes(table, e.gridStep); step > 0 {
		grid := &packedClip{times: out, step: step, timeMant: mant, points: points}
		if timeTableBits(grid) < timeTableBits(pk) {
			pk.times, pk.step, pk.timeMant, pk.points = out, step, mant, points
		}
	}
	for i := 1; i < len(pk.times); i++ {
		pk.inv = append(pk.inv, 1/(pk.times[i]-pk.times[i-1]))
	}
	le := binary.LittleEndian
	var w bitWriter
	var framed [][2]int // path and joint of the tracks in frames
	for p := range 3 {
		path := Path(p)
		nc := path.Components()
		pk.tracks[p] = make([]packedTrack, n)
		pk.rest[p] = make([][4]float32, n)
		for j := range n {
			pk.rest[p][j] = restComponents(&e.sk.Rest[j], path)
			et := enc[p][j]
			tr := packedTrack{off: uint32(len(pk.data)), n: uint32(et.n), bits: et.bits, cbits: et.cbits, rbits: et.rbits, drop: et.drop}
			copy(tr.lo[:], et.lo[:3])
			copy(tr.step[:], et.step[:3])
			switch {
			case et.n == 1:
				// The top 9+bits bits of each float32: sign, exponent and
				// the mantissa bits kept.
				tr.voff, tr.xyz = tr.off, et.xyz
				w.start(pk.data)
				for c := range nc {
					if c == 3 && et.xyz {
						break
					}
					w.write(math.Float32bits(et.vals[c])>>(23-et.bits), 9+et.bits)
				}
				pk.data = w.end()
			case et.n >= 2:
				if et.bits < 32 {
					// The ranges: each value's top 9+rbits bits, or where
					// that is smaller (a turn about one axis has minimums
					// of exactly 0), a bit saying whether it is +0 and the
					// bits of those that are not.
					m := et.rbits
					vals := rangeValues(et.lo[:], et.step[:], et.cbits)
					flagged := 0
					for _, v := range vals {
						flagged++
						if math.Float32bits(v) != 0 {
							flagged += 9 + int(m)
						}
					}
					tr.zero = flagged < len(vals)*(9+int(m))
					w.start(pk.data)
					for _, v := range vals {
						if tr.zero {
							if math.Float32bits(v) == 0 {
								w.write(0, 1)
								continue
							}
							w.write(1, 1)
						}
						w.write(math.Float32bits(v)>>(23-m), 9+m)
					}
					pk.data = w.end()
				}
				tr.toff = uint32(len(pk.data))
				tr.every = et.n == len(table)
				tr.mask = !tr.every && keyTimesBits(et.n, len(table), pk.timeBits) < et.n*int(pk.timeBits)
				if !tr.every {
					w.start(pk.data)
					if tr.mask {
						// One bit per time of the table: whether the track
						// keys it.
						k := 0
						for _, t := range table {
							bit := uint32(0)
							if k < len(et.times) && et.times[k] == t {
								bit, k = 1, k+1
							}
							w.write(bit, 1)
						}
					} else {
						for _, t := range et.times {
							i, _ := slices.BinarySearch(table, t)
							w.write(uint32(i), pk.timeBits)
						}
					}
					pk.data = w.end()
				}
				tr.voff = uint32(len(pk.data))
				switch {
				case et.bits == 32:
					for _, v := range et.vals {
						pk.data = le.AppendUint32(pk.data, math.Float32bits(v))
					}
				case tr.every:
					// In the frames below.
					framed = append(framed, [2]int{p, j})
					pk.tracks[p][j] = tr
					continue
				default:
					v := 8 * uint32(len(pk.data))
					tr.vbit, tr.kbits = [3]uint32{v, v + uint32(et.cbits[0]), v + uint32(et.cbits[0]) + uint32(et.cbits[1])}, tr.keyBits()
					w.start(pk.data)
					for i, q := range et.codes {
						w.write(q, et.cbits[i%3])
					}
					pk.data = w.end()
				}
			}
			pk.tracks[p][j] = tr
			if tr.n >= 2 {
				pk.loose[p] = append(pk.loose[p], int32(j))
			}
		}
	}
	// The quantized tracks that key every time of the table lie in frames,
	// one per time, so that playback crossing a time decodes from one
	// stretch of memory. In a frame, the tracks whose pairs share a cache
	// group of 8 joints (frameGroup) lie together, component by component:
	// the group's x codes lane by lane, then its y codes, then its z codes
	// (planes), so that the SIMD build decodes a plane 8 lanes at once.
	pad := soaPadded(n)
	for i, f := range framed {
		tr, nc := &pk.tracks[f[0]][f[1]], Path(f[0]).Components()
		pk.frame = append(pk.frame, frameTrack{rot: f[0] == int(Rotation), drop: tr.drop, cbits: tr.cbits,
			pair: uint32(cacheStripe[f[0]]*pad + pairAt(f[1], 2+2*nc)), end: uint32((cacheStripes+f[0])*pad + f[1]), lo: tr.lo, step: tr.step})
		pair := uint32(cacheStripe[f[0]]*pad + pairAt(f[1]&^(groupLanes-1), 2+2*nc))
		if len(pk.groups) == 0 || pk.groups[len(pk.groups)-1].pair != pair {
			pk.groups = append(pk.groups, frameGroup{rot: f[0] == int(Rotation), pair: pair, end: pk.frame[i].end - uint32(f[1]%groupLanes)})
		}
		fg, l := &pk.groups[len(pk.groups)-1], f[1]%groupLanes
		fg.sel[l], fg.frame[l], fg.drop[l] = -1, int32(i), int32(tr.drop)
		for c := range 3 {
			fg.lo[c][l], fg.step[c][l] = tr.lo[c], tr.step[c]
		}
	}
	var frameBits uint32
	for gi := range pk.groups {
		fg := &pk.groups[gi]
		for c := range 3 {
			fg.plane[c] = frameBits
			for l, s := range fg.sel {
				if s == 0 {
					continue
				}
				f := &pk.frame[fg.frame[l]]
				f.bit[c], f.mask[c] = frameBits, 1<<f.cbits[c]-1
				fg.off[c][l], fg.mask[c][l] = frameBits-fg.plane[c], f.mask[c]
				frameBits += uint32(f.cbits[c])
			}
		}
	}
	start := 8 * uint32(len(pk.data))
	pk.frameStart, pk.frameBits = start, frameBits
	for i, f := range framed {
		tr := &pk.tracks[f[0]][f[1]]
		for c := range 3 {
			tr.vbit[c] = start + pk.frame[i].bit[c]
		}
		tr.kbits = frameBits
	}
	w.start(pk.data)
	for k := range table {
		for _, fg := range pk.groups {
			for c := range 3 {
				for l, s := range fg.sel {
					if s != 0 {
						f := framed[fg.frame[l]]
						w.write(enc[f[0]][f[1]].codes[3*k+c], pk.frame[fg.frame[l]].cbits[c])
					}
				}
			}
		}
	}
	pk.data = w.end()
	pk.data = append(pk.data, make([]byte, dataPad)...)
	// The compressed clip keeps the source's STEP records, and its
	// CUBICSPLINE ones where they are not packed.
	rc := &RuntimeClip{name: ref.name, duration: ref.duration, numJoints: n, morph: ref.morph, morphRest: ref.morphRest, markers: ref.markers, pk: pk, tag: newClipTag()}
	for _, o := range ref.other {
		if !other[o.cursor] {
			continue // packed as keys
		}
		nc := Path(int(o.cursor) / n).Components()
		stride := recHead + nc
		if o.track.interp == CubicSpline {
			stride = recHead + 3*nc
		}
		off := int(o.track.off)
		tr := o.track
		tr.off = int32(len(rc.keys))
		rc.keys = append(rc.keys, ref.keys[off:off+int(o.track.n)*stride]...)
		rc.other = append(rc.other, otherTrack{cursor: o.cursor, track: tr})
	}
	return rc
}

// bitWriter appends bit fields to a byte slice, least significant first,
// from a byte boundary.
type bitWriter struct {
	b    []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) start(b []byte) { w.b, w.acc, w.nacc = b, 0, 0 }

func (w *bitWriter) write(v uint32, n uint8) {
	w.acc |= uint64(v&(1<<n-1)) << w.nacc
	w.nacc += uint(n)
	for w.nacc >= 8 {
		w.b = append(w.b, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) end() []byte {
	if w.nacc > 0 {
		w.b = append(w.b, byte(w.acc))
	}
	return w.b
}

// source returns the keys of the source's LINEAR track of path p, joint
// j: times and nc values each (rotations unit and hemisphere-aligned).
func (e *encoder) source(p Path, j int) (times, values []float32) {
	if cv, ok := e.curves[int32(int(p)*e.ref.numJoints+j)]; ok {
		return cv.times, cv.values
	}
	nc := p.Components()
	stride := recHead + nc
	tr := e.ref.lanes[p][j]
	for k := range int(tr.n) {
		r := e.ref.keys[int(tr.off)+k*stride:]
		times = append(times, r[0])
		values = append(values, r[recHead:recHead+nc]...)
	}
	return times, values
}

// trackError returns the error function of path p at joint j: the model
// distance a point moved by the joint may move when a value a stands for b.
func (e *encoder) trackError(p Path, j int) func(a, b []float32) float64 {
	switch p {
	case Translation:
		s := e.scale[j]
		return func(a, b []float32) float64 {
			dx, dy, dz := float64(a[0]-b[0]), float64(a[1]-b[1]), float64(a[2]-b[2])
			return s * math.Sqrt(dx*dx+dy*dy+dz*dz)
		}
	case Rotation:
		r := e.reach[j]
		return func(a, b []float32) float64 {
			// With c the chord |a − b| (or |a + b|: q and −q are one
			// rotation) between unit quaternions, the rotation between
			// them is θ with c = 2·sin(θ/4), and it moves a point at
			// distance r by 2r·sin(θ/2) = 2r·c·√(1 − c²/4). Differences,
			// not a dot product: float32 keys are unit only to 1e-7, and
			// 1 − dot² would be noise of that size. Both made unit first:
			// a key's norm off by 1e-7 is no turn, yet on a joint 80
			// units from its farthest virtual vertex it read as 3e-5
			// units, a floor no bit rate went under (the Fox's spine
			// stayed float32).
			var na, nb float64
			for i := range 4 {
				na += float64(a[i]) * float64(a[i])
				nb += float64(b[i]) * float64(b[i])
			}
			na, nb = 1/math.Sqrt(na), 1/math.Sqrt(nb)
			var dm, dp float64
			for i := range 4 {
				x, y := float64(a[i])*na, float64(b[i])*nb
				dm += (x - y) * (x - y)
				dp += (x + y) * (x + y)
			}
			c := math.Sqrt(min(dm, dp))
			return 2 * r * c * math.Sqrt(max(0, 1-c*c/4))
		}
	}
	r := e.reach[j] / e.minScale[j]
	return func(a, b []float32) float64 {
		return r * max(math.Abs(float64(a[0]-b[0])), math.Abs(float64(a[1]-b[1])), math.Abs(float64(a[2]-b[2])))
	}
}

// encodeTrack encodes the track of path p, joint j within budget (model
// units): dropped or constant where it can be, else the smallest of
// quantizing to each bit rate and then removing keys.
func (e *encoder) encodeTrack(p Path, j int, budget float64) *encTrack {
	nc := p.Components()
	times, vals := e.source(p, j)
	n := len(times)
	errf := e.trackError(p, j)
	rest := restComponents(&e.sk.Rest[j], p)
	within := func(v []float32) bool {
		for k := range n {
			if errf(vals[k*nc:(k+1)*nc], v) > budget {
				return false
			}
		}
		return true
	}
	switch {
	case within(rest[:nc]):
		return &encTrack{}
	case within(vals[:nc]):
		// One value, its floats cut to the fewest mantissa bits that keep
		// it within a sixteenth of the budget of the first key: a value
		// costs little, and error spent on it is taken from the chain's
		// animated tracks.
		// A rotation may keep x, y, z alone (w ≥ 0 rebuilt), where
		// that costs less.
		cut := func(xyz bool) (m uint8, v [4]float32, ok bool) {
			src := vals[:nc]
			if xyz {
				src = []float32{vals[0], vals[1], vals[2], vals[3]}
				if src[3] < 0 {
					src[0], src[1], src[2], src[3] = -src[0], -src[1], -src[2], -src[3]
				}
			}
			for m = 0; ; m++ {
				for c := range nc {
					v[c] = cutMantissa(src[c], m)
				}
				// Judged as refill decodes it: the cut x, y, z (what is
				// stored) with w rebuilt.
				d := v
				if xyz {
					d[0], d[1], d[2], d[3] = unitFromXYZ(v[0], v[1], v[2])
				}
				if ok = errf(vals[:nc], d[:nc]) <= budget/16 && within(d[:nc]); ok || m == 23 {
					return m, v, ok
				}
			}
		}
		et := &encTrack{n: 1}
		m, v, _ := cut(false)
		if p == Rotation {
			if mx, vx, ok := cut(true); ok && 3*(9+int(mx)) < 4*(9+int(m)) {
				m, v, et.xyz = mx, vx, true
			}
		}
		et.bits, et.vals = m, v[:nc]
		return et
	}
	worstOf := func(dec []float32) float64 {
		var worst float64
		for k := range n {
			worst = max(worst, errf(vals[k*nc:(k+1)*nc], dec[k*nc:(k+1)*nc]))
		}
		return worst
	}
	var best *encTrack
	bestSize := math.MaxInt
	q := newQuantizer(p, vals)
	// consider keeps et (coded at dec) with the keys reduce leaves, where
	// that is the smallest yet.
	consider := func(et *encTrack, dec []float32, keyBits int) {
		keep := e.reduce(p, errf, times, vals, dec, budget)
		size := len(keep)*keyBits + keyTimesBits(len(keep), e.numTimes, e.timeBits)
		if et.bits < 32 {
			size += rangeBytes(et.cbits, et.rbits) * 8
		}
		if size >= bestSize {
			return
		}
		bestSize = size
		et.n, et.size = len(keep), size
		codes := et.codes
		et.codes, et.times = nil, nil
		for _, k := range keep {
			et.times = append(et.times, times[k])
			if et.bits == 32 {
				et.vals = append(et.vals, vals[k*nc:(k+1)*nc]...)
			} else {
				et.codes = append(et.codes, codes[3*k:3*k+3]...)
			}
		}
		best = et
	}
	floored := false
	for _, b := range quantBits {
		cb := [3]uint8{b, b, b}
		_, _, _, dec := q.quantize(cb, 23)
		worst := worstOf(dec)
		if !(worst <= budget) { // NaN too: a range beyond the floats
			continue
		}
		// A component that varies less than the widest (the y and z of a
		// turn about x) takes fewer bits, as long as the worst error grows
		// by a quarter at most; where the rate codes the keys all but
		// exactly, also as long as it stays within a sixteenth of the
		// budget (as a constant's value), if that packs smaller.
		limits := []float64{min(budget, 1.25*worst)}
		if 1.25*worst < budget/16 && !floored {
			limits = append(limits, budget/16)
			floored = true // at the lowest such rate only: higher ones code no smaller
		}
		for i, limit := range limits {
			et := e.codeTrack(q, vals, errf, b, limit, float64(i)*limit)
			et.lo, et.step, et.codes, dec = q.quantize(et.cbits, et.rbits)
			et.drop = q.drop
			consider(et, dec, int(et.cbits[0])+int(et.cbits[1])+int(et.cbits[2]))
		}
	}
	consider(&encTrack{bits: 32}, vals, nc*32)
	return best
}

// codeTrack picks a coded track's bits per component, from b each, and
// its ranges' mantissa bits, as few as keep every key within limit; the
// ranges as few as leave the error all but unchanged, or within rfloor.
func (e *encoder) codeTrack(q *quantizer, vals []float32, errf func(a, b []float32) float64, b uint8, limit, rfloor float64) *encTrack {
	cb := [3]uint8{b, b, b}
	for c := range 3 {
		lo, hi := uint8(0), b // hi is known to do
		for lo < hi {
			mid := (lo + hi) / 2
			try := cb
			try[c] = mid
			if q.within(try, 23, vals, errf, limit) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		cb[c] = hi
	}
	// The ranges keep as few mantissa bits as leave that error all but
	// unchanged: what it leaves of the budget is the key reduction's.
	lo, hi := uint8(0), uint8(23)
	if e.cutRanges {
		_, _, _, d := q.quantize(cb, 23)
		var worst float64
		for k := range len(d) / q.nc {
			worst = max(worst, errf(vals[k*q.nc:(k+1)*q.nc], d[k*q.nc:(k+1)*q.nc]))
		}
		rlimit := min(limit, max(1.02*worst, rfloor))
		for lo < hi {
			mid := (lo + hi) / 2
			if q.within(cb, mid, vals, errf, rlimit) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
	}
	return &encTrack{cbits: cb, bits: max(cb[0], cb[1], cb[2]), rbits: hi}
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

// quantBits are the bit rates tried below float32.
var quantBits = [...]uint8{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}

// reduce returns the keys kept: from each kept key, the farthest key whose
// segment stays within the budget (galloping, then bisecting).
func (e *encoder) reduce(p Path, errf func(a, b []float32) float64, times, vals, dec []float32, budget float64) []int {
	n := len(times)
	keep := []int{0}
	for i := 0; i < n-1; {
		ok, bad := i+1, n
		for s := 1; ok+s < n; s *= 2 {
			if !segmentOK(p, errf, times, vals, dec, i, ok+s, budget) {
				bad = ok + s
				break
			}
			ok += s
		}
		for bad-ok > 1 {
			mid := (ok + bad) / 2
			if segmentOK(p, errf, times, vals, dec, i, mid, budget) {
				ok = mid
			} else {
				bad = mid
			}
		}
		keep = append(keep, ok)
		i = ok
	}
	return keep
}

// segmentOK reports whether interpolating the decoded keys i and k, as the
// sampler does, stays within budget of the source at every source key
// between them and half-way between consecutive ones; rotations with slerp
// and with nlerp.
func segmentOK(p Path, errf func(a, b []float32) float64, times, vals, dec []float32, i, k int, budget float64) bool {
	nc := p.Components()
	a := dec[i*nc : (i+1)*nc]
	var b, got, want [4]float32
	copy(b[:], dec[k*nc:(k+1)*nc])
	if p == Rotation && a[0]*b[0]+a[1]*b[1]+a[2]*b[2]+a[3]*b[3] < 0 {
		b[0], b[1], b[2], b[3] = -b[0], -b[1], -b[2], -b[3]
	}
	inv := 1 / (times[k] - times[i])
	check := func(t float32, want []float32) bool {
		u := (t - times[i]) * inv
		if p != Rotation {
			for c := range nc {
				got[c] = a[c] + (b[c]-a[c])*u
			}
			return errf(got[:nc], want) <= budget
		}
		got[0], got[1], got[2], got[3] = slerpPoly(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], u)
		if errf(got[:], want) > budget {
			return false
		}
		v := 1 - u
		got[0], got[1], got[2], got[3] = normQ(v*a[0]+u*b[0], v*a[1]+u*b[1], v*a[2]+u*b[2], v*a[3]+u*b[3])
		return errf(got[:], want) <= budget
	}
	for m := i; m <= k; m++ {
		if !check(times[m], vals[m*nc:(m+1)*nc]) {
			return false
		}
		if m < k {
			x, y := vals[m*nc:(m+1)*nc], vals[(m+1)*nc:(m+2)*nc]
			for c := range nc {
				want[c] = x[c] + (y[c]-x[c])*0.5
			}
			if p == Rotation {
				want[0], want[1], want[2], want[3] = normQ(want[0], want[1], want[2], want[3])
			}
			if !check(times[m]+(times[m+1]-times[m])/2, want[:nc]) {
				return false
			}
		}
	}
	return true
}

// quantizer codes the keys of one track (path p) over each component's
// range. Rotations code the three components other than drop, in order,
// of the key made to have that one ≥ 0.
type quantizer struct {
	p      Path
	nc     int
	src    []float32 // the keys, rotations as the three coded, then the dropped ≥ 0
	drop   uint8
	lo, hi [3]float32
}

func newQuantizer(p Path, vals []float32) *quantizer {
	q := &quantizer{p: p, nc: p.Components(), src: vals, drop: 3}
	if p == Rotation {
		q.drop = dropComponent(vals)
		q.src = make([]float32, len(vals))
		for k := 0; k < len(vals); k += 4 {
			v := (*[4]float32)(vals[k:])
			s := float32(1)
			if v[q.drop] < 0 {
				s = -1
			}
			o, c := q.src[k:k+4], 0
			for i := range 4 {
				if i != int(q.drop) {
					o[c], c = s*v[i], c+1
				}
			}
			o[3] = s * v[q.drop]
		}
	}
	for c := range 3 {
		q.lo[c], q.hi[c] = q.src[c], q.src[c]
	}
	for k := 0; k < len(q.src); k += q.nc {
		for c := range 3 {
			q.lo[c], q.hi[c] = min(q.lo[c], q.src[k+c]), max(q.hi[c], q.src[k+c])
		}
	}
	return q
}

// ranges are the minimums and steps of cb[c] bits for component c: a
// component of 0 bits is its range's midpoint. They keep rbits mantissa
// bits (23: all), a minimum rounded down and a step up so that the codes
// still span the range.
func (q *quantizer) ranges(cb [3]uint8, rbits uint8) (lo, step [4]float32) {
	for c := range 3 {
		if cb[c] == 0 {
			lo[c] = cutMantissa(q.lo[c]+(q.hi[c]-q.lo[c])/2, rbits)
			continue
		}
		lo[c] = cutMantissaToward(q.lo[c], rbits, false)
		step[c] = cutMantissaToward(float32(float64(q.hi[c]-lo[c])/float64(uint32(1)<<cb[c]-1)), rbits, true)
	}
	return lo, step
}

// key codes key k and writes the values the codes decode to, as
// packedClip.decode decodes them, into dec.
func (q *quantizer) key(k int, cb [3]uint8, lo, step *[4]float32, codes *[3]uint32, dec []float32) {
	src := q.src[k*q.nc:]
	for c := range 3 {
		code := 0.0
		if step[c] > 0 {
			code = math.Round(float64(src[c]-lo[c]) / float64(step[c]))
			code = min(max(code, 0), float64(uint32(1)<<cb[c]-1))
		}
		codes[c] = uint32(code)
		dec[c] = lo[c] + step[c]*float32(code)
	}
	if q.p == Rotation {
		dec[0], dec[1], dec[2], dec[3] = unitDropping(dec[0], dec[1], dec[2], q.drop)
	}
}

// dropComponent is the component of a rotation track's keys that coding
// leaves out, to be rebuilt as √(1 − the others²): the one furthest from
// zero over every key (w where none is further), where that root loses
// least precision. Rebuilding w of a turn near 180° (w near 0, and of
// either sign, which w ≥ 0 turns into x, y, z swinging between ±) cost
// such tracks many bits, or left them float32.
func dropComponent(vals []float32) uint8 {
	var least [4]float32
	for c := range least {
		least[c] = math.MaxFloat32
	}
	for k := 0; k < len(vals); k += 4 {
		for c := range 4 {
			least[c] = min(least[c], float32(math.Abs(float64(vals[k+c]))))
		}
	}
	drop := uint8(3)
	for c := range 3 {
		if least[c] > least[drop] {
			drop = uint8(c)
		}
	}
	return drop
}

// within reports whether every key coded at cb and rbits decodes within
// limit of the source (errf), stopping at the first that does not.
func (q *quantizer) within(cb [3]uint8, rbits uint8, vals []float32, errf func(a, b []float32) float64, limit float64) bool {
	lo, step := q.ranges(cb, rbits)
	var codes [3]uint32
	var dec [4]float32
	for k := range len(q.src) / q.nc {
		q.key(k, cb, &lo, &step, &codes, dec[:])
		if !(errf(vals[k*q.nc:(k+1)*q.nc], dec[:q.nc]) <= limit) {
			return false
		}
	}
	return true
}

// quantize codes every key at cb and rbits: the minimums, the steps, the
// codes (three a key) and the values they decode to.
func (q *quantizer) quantize(cb [3]uint8, rbits uint8) (lo, step [4]float32, codes []uint32, dec []float32) {
	lo, step = q.ranges(cb, rbits)
	n := len(q.src) / q.nc
	codes = make([]uint32, 3*n)
	dec = make([]float32, len(q.src))
	for k := range n {
		q.key(k, cb, &lo, &step, (*[3]uint32)(codes[3*k:]), dec[k*q.nc:(k+1)*q.nc])
	}
	return lo, step, codes, dec
}
