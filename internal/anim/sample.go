package anim

import (
	"errors"
	"fmt"
)

// SampleSoAJob samples a RuntimeClip into an SoAPose, the engine's only
// sampler: joints without a track keep their rest transform; LINEAR
// rotations use the polynomial slerp (within 1e-6 of Slerp) or Nlerp.
// Each track's current key pair is kept in the job's cache, and playback
// refills only the pairs whose keys it crossed, from the clip's key
// streams (keystream.go), or for a compressed clip by decoding them
// (compress.go); a jump back, or far ahead, seeks each track by binary
// search. It allocates nothing.
type SampleSoAJob struct {
	// Clip to sample.
	Clip *RuntimeClip
	// Time in seconds, clip-local. Before a track's first key its first
	// value holds, after the last key its last.
	Time float32
	// Nlerp interpolates LINEAR rotation keys, and blends rotations, with
	// Nlerp instead of slerping them: cheaper, and only approximately
	// constant in speed.
	Nlerp bool
	// Cursors is the key state of STEP and CUBICSPLINE tracks, morph
	// tracks and a compressed clip's tracks and morph channels; len =
	// Clip.NumCursors(). Zero values are fine; keep it between frames.
	Cursors []int32
	// Cache holds every track's current key pair (a compressed clip's
	// decoded), which clip filled it and, for an uncompressed clip, the
	// key streams' cursors; len = Clip.CacheLen(). Zero values are fine;
	// keep it between frames. Given another clip's cache, a clip refills
	// it.
	Cache []float32
	// Output receives the local pose; Len() = Clip.NumJoints().
	Output *SoAPose
}

// NewSampleJob returns a job that samples c into out (rotations by slerp,
// or nlerp), with the cursors and the cache c needs.
func (c *RuntimeClip) NewSampleJob(nlerp bool, out *SoAPose) SampleSoAJob {
	return SampleSoAJob{Clip: c, Nlerp: nlerp, Cursors: make([]int32, c.NumCursors()), Cache: make([]float32, c.CacheLen()), Output: out}
}

// Validate reports a job that Run cannot execute.
func (j *SampleSoAJob) Validate() error {
	if j.Clip == nil {
		return errors.New("anim: sample job without clip")
	}
	if len(j.Cursors) != j.Clip.NumCursors() {
		return fmt.Errorf("anim: sample job has %d cursors; clip %q needs %d", len(j.Cursors), j.Clip.name, j.Clip.NumCursors())
	}
	if len(j.Cache) != j.Clip.CacheLen() {
		return fmt.Errorf("anim: sample job has a cache of %d floats; clip %q needs %d", len(j.Cache), j.Clip.name, j.Clip.CacheLen())
	}
	if j.Output == nil {
		return fmt.Errorf("anim: sample job has no output pose; clip %q drives %d joints", j.Clip.name, j.Clip.numJoints)
	}
	if j.Output.Len() != j.Clip.numJoints {
		return fmt.Errorf("anim: sample job output has %d joints; clip %q drives %d", j.Output.Len(), j.Clip.name, j.Clip.numJoints)
	}
	return nil
}

// Run samples the clip. Call Validate once when buffers are set up.
func (j *SampleSoAJob) Run() {
	sampleSoA(j.Clip, j.Time, j.Nlerp, j.Cursors, j.Cache, j.Output)
	if len(j.Output.W) > 0 {
		sampleMorph(j.Clip, j.Time, j.Cursors[3*j.Clip.numJoints:], j.Cache, j.Output)
	}
}

// sampleSoAWith samples clip c at t: the cache brought to t (by the key
// streams, advanceStream, or for a compressed clip by decoding,
// advancePacked, 8 lanes at a time where wide), the pairs interpolated by
// interp (a kernel), then the STEP and CUBICSPLINE tracks.
func sampleSoAWith(c *RuntimeClip, t float32, nlerp bool, cursors []int32, cache []float32, out *SoAPose, interp func(ca []float32, n int, t float32, nlerp bool, still uint8, out *SoAPose), wide bool) {
	n := c.numJoints
	if c.pk != nil {
		c.advancePacked(t, cursors, cache, wide)
	} else {
		c.advanceStream(t, cache)
	}
	still := c.still
	if nlerp {
		still &^= 1 << Rotation // nlerp normalizes even a held rotation
	}
	if still != 0 {
		// Paths that hold one value in every lane: their stripes, stored
		// once when the clip was built (stripes 0–2, 3–6 and 7–9), but
		// where out holds them already (SoAPose.held).
		pad, img := len(out.tx), c.stillPose
		copies := still
		if t := c.held[Translation]; t != (heldTag{}) && out.held[Translation] == t {
			copies &^= 1 << Translation
		}
		if t := c.held[Scale]; t != (heldTag{}) && out.held[Scale] == t {
			copies &^= 1 << Scale
		}
		switch ts := uint8(1<<Translation | 1<<Scale); {
		case copies&ts == ts:
			// One copy, the rotation stripes with them, costs less than
			// two; the interpolation writes them over unless they are
			// held too.
			copy(out.buf[:10*pad], img[:10*pad])
		default:
			if copies&(1<<Translation) != 0 {
				copy(out.buf[:3*pad], img[:3*pad])
			}
			if copies&(1<<Rotation) != 0 {
				copy(out.buf[3*pad:7*pad], img[3*pad:7*pad])
			}
			if copies&(1<<Scale) != 0 {
				copy(out.buf[7*pad:10*pad], img[7*pad:10*pad])
			}
		}
	}
	out.held = c.held // the interpolation and the STEP and CUBICSPLINE tracks write the others
	interp(cache[streamHead:], n, t, nlerp, still, out)
	if len(c.other) > 0 {
		sampleOtherLanes(c, t, cursors, out)
	}
}

// sampleOtherLanes samples the STEP and CUBICSPLINE tracks.
func sampleOtherLanes(c *RuntimeClip, t float32, cursors []int32, out *SoAPose) {
	n := c.numJoints
	for _, o := range c.other {
		p, j := Path(int(o.cursor)/n), int(o.cursor)%n
		var v [4]float32
		sampleOther(c.keys, o.track, p.Components(), t, &cursors[o.cursor], &v)
		switch p {
		case Translation:
			out.tx[j], out.ty[j], out.tz[j] = v[0], v[1], v[2]
		case Rotation:
			out.qx[j], out.qy[j], out.qz[j], out.qw[j] = v[0], v[1], v[2], v[3]
		case Scale:
			out.sx[j], out.sy[j], out.sz[j] = v[0], v[1], v[2]
		}
	}
}

// seekLane finds by binary search the record index of the key pair
// around t, for a track whose records start at off, last = key count − 2:
// 0 before the first key (and for NaN), last after the last key.
func seekLane(keys []float32, off, last, stride int, t float32) int {
	switch {
	case !(t > keys[off]):
		return 0
	case t >= keys[off+(last+1)*stride]:
		return last
	}
	lo, hi := 0, last // invariant: answer in [lo, hi]
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if keys[off+mid*stride] <= t {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// bracket returns the record index k of the key pair around t and the
// parameter u ∈ [0, 1] from key k to k+1 (clamped outside the keys),
// updating the cursor.
func bracket(keys []float32, tr laneTrack, stride int, t float32, cur *int32) (int, float32) {
	off, last := int(tr.off), int(tr.n)-2
	k := int(*cur)
	if uint(k) > uint(last) {
		k = 0
	}
	if !(keys[off+k*stride] <= t && t < keys[off+(k+1)*stride]) {
		k = seekLane(keys, off, last, stride, t)
		*cur = int32(k)
	}
	r := keys[off+k*stride:]
	return k, Clamp01((t - r[0]) * r[1])
}

// sampleOther samples STEP and CUBICSPLINE tracks of nc components.
func sampleOther(keys []float32, tr laneTrack, nc int, t float32, cur *int32, v *[4]float32) {
	off := int(tr.off)
	if tr.interp == Step {
		stride := recHead + nc
		k, _ := bracket(keys, tr, stride, t, cur)
		if t >= keys[off+(k+1)*stride] {
			k++ // after the last key
		}
		copy(v[:nc], keys[off+k*stride+recHead:off+k*stride+recHead+nc])
		return
	}
	stride := recHead + 3*nc
	// Outside the keys the key itself holds, unnormalized.
	if last := int(tr.n) - 1; !(t > keys[off]) || t >= keys[off+last*stride] {
		k := 0
		if t >= keys[off+last*stride] {
			k = last
		}
		copy(v[:nc], keys[off+k*stride+recHead+nc:off+k*stride+recHead+2*nc])
		return
	}
	k, _ := bracket(keys, tr, stride, t, cur)
	r0 := keys[off+k*stride : off+(k+1)*stride]
	r1 := keys[off+(k+1)*stride : off+(k+2)*stride]
	dt := r1[0] - r0[0]
	// u by division, not by the stored inverse span: a rotation whose
	// spline passes near zero is normalized from tiny values, where one
	// ulp of u shows.
	u := Clamp01((t - r0[0]) / dt)
	hermite(v[:nc], r0[recHead:], r1[recHead:], dt, u)
	if nc == 4 {
		v[0], v[1], v[2], v[3] = normQ(v[0], v[1], v[2], v[3])
	}
}

// hermite writes to dst glTF 2.0 Appendix C's cubic spline between two
// keys dt seconds apart, at u ∈ [0, 1]: p(u) = h00·v0 + h10·dt·b0 +
// h01·v1 + h11·dt·a1, b0 the first key's out-tangent, a1 the second's
// in-tangent. Each key holds len(dst) in-tangents, values and
// out-tangents, in that order (glTF's layout). Joint and morph weight
// tracks share it.
func hermite(dst, k0, k1 []float32, dt, u float32) {
	n := len(dst)
	k0, k1 = k0[:3*n], k1[:3*n]
	u2, u3 := u*u, u*u*u
	h00, h10, h01, h11 := 2*u3-3*u2+1, u3-2*u2+u, -2*u3+3*u2, u3-u2
	for c := range dst {
		dst[c] = h00*k0[n+c] + h10*dt*k0[2*n+c] + h01*k1[n+c] + h11*dt*k1[c]
	}
}

// Clamp01 is x within [0, 1]; NaN gives 0 (a weight or a blend factor
// from any input).
func Clamp01(x float32) float32 {
	if !(x > 0) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
