package anim

import (
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
	search := e.searcher()
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
		rc, worst, errs, shares := search.fit(target, share)
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
			rc2, worst2, errs2, shares2 := search.fit(target, share)
			if keepSecond(worstOf(worst), worstOf(worst2), rc.packedBytes(), rc2.packedBytes(), target) {
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
		return search.refine(target, shares, e.room(shares), rc, worst, errs, func(f float64) { progress(lo + (hi-lo)*(0.8+0.2*f)) })
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
	played := append(slices.Clone(e.times), e.denseTimes()...)
	rc, worst, errs := packPlayed(firstTarget(opt.Tolerance, e.rounding), opt.Tolerance,
		func(target, lo, hi float64) *RuntimeClip {
			rc, _, _ := pack(target, lo, hi)
			return rc
		},
		func(rc *RuntimeClip) ([]float64, []float32) {
			e.stage = nil
			return e.measureAs(rc, played, true)
		}, progress)
	rep.RawBytes = c.SourceBytes
	if rep.RawBytes <= 0 {
		rep.RawBytes = rawBytes(c)
	}
	rep.MorphRawBytes = rawMorphBytes(ref.morph)
	rep.MorphBytes = rep.MorphRawBytes
	if !(worstOf(worst) <= opt.Tolerance) {
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
		rep.P99Error = float64(p99(errs))
	}
	if opt.MorphDisplacement != nil {
		rep.MorphMaxError = packWeights(ref, rc, opt.MorphDisplacement, opt.Tolerance)
		rep.MorphBytes = rc.morphBytes()
	}
	rep.Bytes = rc.packedBytes()
	rep.Elapsed = time.Since(start)
	progress(1)
	return rc, rep, nil
}

// packPlayed makes a packing for target (pack, its progress in [lo, hi])
// and measures it as played (each joint's worst error and every error);
// while its worst is over 0.97·tol it makes it again with the target
// retarget gives, three packings at most, and returns the last, within
// the tolerance or not. Progress ends each try at 0.73, 0.88 and 0.95.
func packPlayed(target, tol float64, pack func(target, lo, hi float64) *RuntimeClip, played func(*RuntimeClip) ([]float64, []float32), progress func(float64)) (rc *RuntimeClip, worst []float64, errs []float32) {
	spans := [...]float64{0.05, 0.75, 0.9, 0.97}
	for try := 0; ; try++ {
		rc = pack(target, spans[try], spans[try+1]-0.02)
		progress(spans[try+1] - 0.02)
		worst, errs = played(rc)
		again := false
		if target, again = retarget(target, worstOf(worst), tol); !again || try == 2 {
			return rc, worst, errs
		}
	}
}

// keepSecond reports whether, of two packings judged against target, the
// second (worst error w2, b2 bytes) is kept over the first (w1, b1): one
// within the target beats one over it, of two within it the smaller wins,
// of two over it the closer; a tie keeps the first.
func keepSecond(w1, w2 float64, b1, b2 int, target float64) bool {
	if w2 <= target {
		return w1 > target || b2 < b1
	}
	return w2 < w1
}

// firstTarget is the fit's first target for the tolerance tol on a clip
// whose float32 model matrices round by up to rounding: room for the raw
// and the packed clip's rounding and a quarter more, and never under a
// quarter of tol.
func firstTarget(tol, rounding float64) float64 {
	return max(0.95*tol-2.5*rounding, 0.25*tol)
}

// retarget is the target a packing made for target is made again with
// when, as played, its worst error is worst: lowered by as much as worst
// exceeds 0.97·tol, and 0.01·tol more. again is false when worst is
// within 0.97·tol, or when the lowered target is not positive (the
// packing is then kept or not as it is).
func retarget(target, worst, tol float64) (next float64, again bool) {
	over := worst - 0.97*tol
	if over <= 0 {
		return target, false
	}
	next = target - (over + 0.01*tol)
	return next, next > 0
}

// p99 is the 99th percentile of sorted errors (ascending, not empty): the
// value of rank ⌈0.99·n⌉.
func p99(sorted []float32) float32 {
	return sorted[(99*len(sorted)+99)/100-1]
}

// maxPackedBytes bounds a packed clip's data, whose bit offsets are
// uint32.
const maxPackedBytes = 1 << 29

// searcher is what the search for the smallest packing works with: the
// skeleton's parents (parents before their children), a packing for
// given shares of the tolerance with each joint's worst error and every
// (time, joint) error, telling stage the share of that work done, and a
// packing's size in bytes.
type searcher struct {
	parents []int
	pack    func(share []float64, stage func(float64)) (*RuntimeClip, []float64, []float32)
	bytes   func(*RuntimeClip) int
}

// searcher is the encoder's: its packings measured at the check times.
func (e *encoder) searcher() searcher {
	return searcher{
		parents: e.sk.Parents,
		pack: func(share []float64, stage func(float64)) (*RuntimeClip, []float64, []float32) {
			e.stage = stage
			rc := e.build(share)
			worst, errs := e.measure(rc, e.times)
			return rc, worst, errs
		},
		bytes: (*RuntimeClip).packedBytes,
	}
}

// fitTries and fitRounds bound fit's packings: fitTries cutting shares
// (the last three keep every key of the joints cut), fitRounds raising
// them.
const fitTries, fitRounds = 12, 4

// fit packs a clip with every joint's share of the tolerance, halving
// the shares of joints over target and of their ancestors until it is
// within target (cutShares), then doubling those with room while it
// still is (raiseShares). It returns the last packing within target (or
// the last made, after fitTries), its errors and shares, and tells
// progress the share of its work done.
func (s searcher) fit(target float64, progress func(float64)) (rc *RuntimeClip, worst []float64, errs []float32, share []float64) {
	parents, pack := s.parents, s.pack
	share = make([]float64, len(parents))
	for j := range share {
		share[j] = 1
	}
	for try := 0; ; try++ {
		rc, worst, errs = pack(share, func(f float64) { progress(0.8 * (float64(try) + f) / fitTries) })
		if worstOf(worst) <= target || try == fitTries-1 {
			break
		}
		cutShares(share, worst, parents, target, try >= fitTries-3)
	}
	for round := 0; round < fitRounds && worstOf(worst) <= target; round++ {
		next := raiseShares(share, worst, parents, target)
		if next == nil {
			break
		}
		rc2, worst2, errs2 := pack(next, func(f float64) { progress(0.8 + 0.2*(float64(round)+f)/fitRounds) })
		if worstOf(worst2) > target {
			break
		}
		share, rc, worst, errs = next, rc2, worst2, errs2
	}
	return rc, worst, errs, share
}

// cutShares halves, in place, the share of every joint whose worst error
// is over target and of each of its ancestors, once each; with keepAll
// it sets those shares to 0 instead (every key kept). parents come
// before their children.
func cutShares(share, worst []float64, parents []int, target float64, keepAll bool) {
	cut := make([]bool, len(share))
	for j := len(share) - 1; j >= 0; j-- {
		if worst[j] > target || cut[j] {
			cut[j] = true
			if p := parents[j]; p >= 0 {
				cut[p] = true
			}
		}
	}
	for j, c := range cut {
		switch {
		case !c:
		case keepAll:
			share[j] = 0
		default:
			share[j] *= 0.5
		}
	}
}

// raiseShares returns share with the share doubled of every joint whose
// subtree (the joint and every joint below it) is within half of target
// as worst says and whose share is above 0 and below 64; nil when there
// is none. parents come before their children.
func raiseShares(share, worst []float64, parents []int, target float64) []float64 {
	sub := slices.Clone(worst)
	for j := len(sub) - 1; j > 0; j-- {
		if p := parents[j]; p >= 0 {
			sub[p] = max(sub[p], sub[j])
		}
	}
	var next []float64
	for j := range share {
		if sub[j] < target/2 && share[j] > 0 && share[j] < 64 {
			if next == nil {
				next = slices.Clone(share)
			}
			next[j] *= 2
		}
	}
	return next
}

// refine raises one joint's share at a time, those whose tracks take
// most room first (room[j], in bits, at the shares given; joints of no
// room are left as they are): it doubles the share (then raises it by
// √2, from 1/64 where it is 0) while the packing stays within target and
// is smaller, up to 64. fit's rounds raise every joint with room at once
// and stop at the first that spends too much; here a joint near the
// root, whose error every joint below it adds to, may take the room its
// subtree leaves. It starts from fit's shares and packing, and returns
// that packing when it is over target.
func (s searcher) refine(target float64, share []float64, room []int, rc *RuntimeClip, worst []float64, errs []float32, progress func(float64)) (*RuntimeClip, []float64, []float32) {
	if worstOf(worst) > target {
		return rc, worst, errs
	}
	n := len(share)
	order := make([]int, n)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return room[b] - room[a] })
	size := s.bytes(rc)
	for pass, factor := range []float64{2, math.Sqrt2} {
		for i, j := range order {
			if room[j] == 0 {
				break
			}
			// Each joint may take several packings: the stage moves on
			// with the joints.
			stage := func(float64) { progress(0.5 * (float64(pass) + float64(i)/float64(n))) }
			for share[j] < 64 {
				next := slices.Clone(share)
				next[j] = max(factor*share[j], 1.0/64)
				rc2, worst2, errs2 := s.pack(next, stage)
				size2 := s.bytes(rc2)
				if worstOf(worst2) > target || size2 >= size {
					break
				}
				share, rc, worst, errs, size = next, rc2, worst2, errs2, size2
			}
		}
	}
	return rc, worst, errs
}

// room is, for each joint, the bits its tracks take at its share in the
// packings made (e.done).
func (e *encoder) room(share []float64) []int {
	room := make([]int, len(share))
	for j := range room {
		for p := range 3 {
			if et := e.done[encKey{Path(p), j, share[j]}]; et != nil {
				room[j] += et.size
			}
		}
	}
	return room
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

// worstOf is the largest of a packing's per-joint errors, 0 for a
// skeleton of no joints, where there is nothing to measure.
func worstOf(worst []float64) float64 {
	if len(worst) == 0 {
		return 0
	}
	return slices.Max(worst)
}
