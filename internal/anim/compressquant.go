package anim

import "math"

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
