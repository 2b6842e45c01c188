package anim

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

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
	times, vals := e.source(p, j)
	return e.encodeKeys(p, times, vals, restComponents(&e.sk.Rest[j], p), e.trackError(p, j), budget, e.numTimes, e.timeBits)
}

// encodeKeys encodes keys of path p (times, and nc values each) within
// budget of errf: dropped where every key is within it of rest, constant
// where within it of the first key, else the smallest of quantizing to
// each bit rate and then removing keys, its times weighed as indices of
// timeBits bits into a table of numTimes times.
func (e *encoder) encodeKeys(p Path, times, vals []float32, rest [4]float32, errf func(a, b []float32) float64, budget float64, numTimes int, timeBits uint8) *encTrack {
	nc := p.Components()
	n := len(times)
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
		size := len(keep)*keyBits + keyTimesBits(len(keep), numTimes, timeBits)
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
