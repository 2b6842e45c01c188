package anim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

// RuntimeClip is the immutable, sampling-ready form of a Clip for one
// skeleton, built once by NewRuntimeClip (ozz's RawAnimation → Animation
// split). Every joint has exactly one track per path: the clip's (the last
// one when it has several) or, where it has none, a constant one holding
// the rest pose. Each track's keys are stored as records {time, 1/span,
// value…} in one flat []float32, so that the two keys around a time sit
// next to each other in memory and the interpolation parameter needs no
// division; span is the time to the next key (1/span is 0 on the last
// key), value is c floats (3, or 4 for a rotation), 3c for CUBICSPLINE
// (in-tangent, value, out-tangent). A one-key track becomes two equal
// LINEAR keys one second apart with a zero inverse span. LINEAR rotation
// keys are negated where needed to lie in the hemisphere of the key
// before (q and −q are one rotation), so that the plain interpolation of
// each pair is the shortest arc, and normalized (a zero key becomes the
// identity). Every track keeps its own timeline; the key streams
// (keystream.go) order the pairs for playback.
type RuntimeClip struct {
	name      string
	duration  float32
	numJoints int
	// lanes[p][j] is the track of path p for joint j.
	lanes [3][]laneTrack
	// keys holds every track's records.
	keys []float32
	// other lists the STEP and CUBICSPLINE tracks. Their lanes hold a
	// shadow instead: a LINEAR track whose one key pair spans every time,
	// so that the interpolation pass runs over all lanes without a test
	// and no key stream has an entry for it; sampleOtherLanes then
	// overwrites the shadow's value.
	other []otherTrack
	// morph are the morph weight tracks (copies), morphRest the weights
	// of the channels they leave alone.
	morph     []MorphTrack
	morphRest []float32
	markers   []Marker // sorted by time
	// pk holds the LINEAR joint tracks of a compressed clip
	// (CompressClip), whose lanes are then nil.
	pk *packedClip
	// stream[p] is path p's key stream (buildStream): entries {pair,
	// t0, inv, b…} sorted by t0, pair the index of the joint's t0 in
	// path p's pairs of the cache (pairAt), its bits stored as they are.
	stream [3][]float32
	// keyed has bit p set where stream[p] has entries.
	keyed uint8
	// first is the job cache's pairs before any key (after streamHead):
	// where playback starts again when it goes back near the start.
	first []float32
	// tag tells this clip's caches from others' (streamHead).
	tag float32
	// still has bit p set where every lane's path p, padding included,
	// holds one value at any time (no track, one key, or a STEP or
	// CUBICSPLINE shadow, which sampleOtherLanes overwrites): sampling
	// copies those stripes from stillPose (laid out as SoAPose.buf) instead
	// of interpolating them. A clip whose joints have no scale keys, or
	// only rotation keys, is common. Zero for a compressed clip.
	still     uint8
	stillPose []float32
	// held tags the held translation and scale stripes (SoAPose.held),
	// where no STEP or CUBICSPLINE track writes over them.
	held [3]heldTag
	// diffs keeps the difference clips built from this one, so that the
	// controllers of a crowd, which share this clip, share those too.
	diffs *diffMemo
}

// diffMemo is a RuntimeClip's difference clips, clips[i] against refs[i].
type diffMemo struct {
	mu    sync.Mutex
	refs  []*SoAPose
	clips []*RuntimeClip
}

// otherTrack is a STEP or CUBICSPLINE track and its cursor index,
// path·numJoints + joint.
type otherTrack struct {
	cursor int32
	track  laneTrack
}

// recHead is the number of floats before a record's value: time and
// inverse span.
const recHead = 2

// laneTrack locates one track's records in RuntimeClip.keys.
type laneTrack struct {
	off    int32 // index in keys of the first record
	n      int32 // number of keys, ≥ 2
	interp Interpolation
}

// NewRuntimeClip validates c against sk and builds its runtime form. The
// result shares nothing with c. The duration is c.Duration, or the last key
// time when that is not positive.
func NewRuntimeClip(c *Clip, sk *Skeleton) (*RuntimeClip, error) {
	if c == nil {
		return nil, errors.New("anim: runtime clip of a nil clip")
	}
	if sk == nil {
		return nil, errNilSkeleton
	}
	if err := sk.Validate(); err != nil {
		return nil, err
	}
	n := sk.NumJoints()
	if err := c.Validate(n); err != nil {
		return nil, err
	}
	if err := c.validateMorph(len(sk.MorphRest)); err != nil {
		return nil, err
	}
	rc := &RuntimeClip{name: c.Name, duration: clipDuration(c), numJoints: n, morphRest: slices.Clone(sk.MorphRest), diffs: new(diffMemo)}
	for _, tr := range c.Morph {
		tr.Times, tr.Values = slices.Clone(tr.Times), slices.Clone(tr.Values)
		rc.morph = append(rc.morph, tr)
	}
	rc.markers = slices.Clone(c.Markers)
	sortMarkers(rc.markers)
	if err := checkMarkers(rc.markers, c.Name, rc.duration, "markers"); err != nil {
		return nil, err
	}
	var src [3][]int // track index per path and joint, −1 for none
	for p := range src {
		src[p] = make([]int, n)
		for j := range src[p] {
			src[p][j] = -1
		}
	}
	for i := range c.Tracks {
		tr := &c.Tracks[i]
		src[tr.Path][tr.Joint] = i
	}
	size := 0
	for p := range src {
		nc := Path(p).Components()
		for _, i := range src[p] {
			switch {
			case i < 0 || len(c.Tracks[i].Times) == 1:
				size += 2 * (recHead + nc)
			case c.Tracks[i].Interp == CubicSpline:
				size += len(c.Tracks[i].Times) * (recHead + 3*nc)
			default:
				size += len(c.Tracks[i].Times) * (recHead + nc)
			}
		}
	}
	var shadow [3]int32 // where each path's shadow records will be
	for p := range shadow {
		shadow[p] = int32(size)
		size += 2 * (recHead + Path(p).Components())
	}
	if size > math.MaxInt32 {
		return nil, fmt.Errorf("anim: clip %q has too many keys for a runtime clip (%d floats)", c.Name, size)
	}
	rc.keys = make([]float32, 0, size)
	for p := range src {
		path := Path(p)
		nc := path.Components()
		rc.lanes[p] = make([]laneTrack, n)
		for j, i := range src[p] {
			off := int32(len(rc.keys))
			if i < 0 || len(c.Tracks[i].Times) == 1 {
				var v [4]float32
				t0 := float32(0)
				if i < 0 {
					v = restComponents(&sk.Rest[j], path)
				} else {
					tr := &c.Tracks[i]
					t0 = tr.Times[0]
					base := 0
					if tr.Interp == CubicSpline {
						base = nc // the value sits after the in-tangent
					}
					copy(v[:nc], tr.Values[base:base+nc])
					if path == Rotation && tr.Interp == Linear {
						v[0], v[1], v[2], v[3] = normQ(v[0], v[1], v[2], v[3])
					}
				}
				// Zero inverse span: u is 0 at any time, so that the value
				// comes back exactly, even an unnormalized rotation.
				rc.keys = append(rc.keys, t0, 0)
				rc.keys = append(rc.keys, v[:nc]...)
				rc.keys = append(rc.keys, t0+1, 0)
				rc.keys = append(rc.keys, v[:nc]...)
				rc.lanes[p][j] = laneTrack{off: off, n: 2, interp: Linear}
				continue
			}
			tr := &c.Tracks[i]
			per := nc
			if tr.Interp == CubicSpline {
				per = 3 * nc
			}
			for k, t := range tr.Times {
				inv := float32(0)
				if k+1 < len(tr.Times) {
					inv = 1 / (tr.Times[k+1] - t)
				}
				rc.keys = append(rc.keys, t, inv)
				rc.keys = append(rc.keys, tr.Values[k*per:(k+1)*per]...)
				if path == Rotation && tr.Interp == Linear {
					// The slerp needs unit keys: a file's may be a little
					// (or, broken, very) far from unit length.
					q := rc.keys[len(rc.keys)-4:]
					q[0], q[1], q[2], q[3] = normQ(q[0], q[1], q[2], q[3])
					if k > 0 {
						alignHemisphere(rc.keys[len(rc.keys)-(4+recHead+4):])
					}
				}
			}
			rc.lanes[p][j] = laneTrack{off: off, n: int32(len(tr.Times)), interp: tr.Interp}
			if tr.Interp != Linear {
				rc.other = append(rc.other, otherTrack{cursor: int32(p*n + j), track: rc.lanes[p][j]})
				rc.lanes[p][j] = laneTrack{off: shadow[p], n: 2, interp: Linear}
			}
		}
	}
	// Shadows come last, one per path: two records at ∓MaxFloat32 with
	// zero inverse span (u = 0 at every finite time).
	for p := range shadow {
		if shadow[p] != int32(len(rc.keys)) {
			panic("anim: shadow records misplaced") // size was miscounted
		}
		v := restComponents(&IdentityTransform, Path(p))
		for _, t := range [2]float32{-math.MaxFloat32, math.MaxFloat32} {
			rc.keys = append(rc.keys, t, 0)
			rc.keys = append(rc.keys, v[:Path(p).Components()]...)
		}
	}
	rc.buildStream()
	rc.findStill()
	return rc, nil
}

// findStill sets still and stillPose from the lanes.
func (c *RuntimeClip) findStill() {
	n, pad := c.numJoints, soaPadded(c.numJoints)
	img := NewSoAPose(n) // padding lanes hold the identity
	for p := range Path(3) {
		nc := p.Components()
		held := true
		for j, l := range c.lanes[p][:n] {
			if held = l.n == 2 && c.keys[l.off+1] == 0; !held {
				break
			}
			for k := range nc {
				img.buf[(firstStripe[p]+k)*pad+j] = c.keys[int(l.off)+recHead+k]
			}
		}
		if held {
			c.still |= 1 << p
		}
	}
	if c.still == 0 {
		return
	}
	c.stillPose = img.buf
	var other [3]bool
	for _, o := range c.other {
		other[int(o.cursor)/n] = true
	}
	for _, p := range tsPaths {
		if c.still&(1<<p) != 0 && !other[p] {
			c.held[p] = tagStripes(p, img.stripes(p))
		}
	}
}

// alignHemisphere negates quaternion b when it is more than 90° from a in
// 4D (r holds a, then a record head, then b): q and −q are one rotation,
// and keys on one side make every pair's plain interpolation the shortest
// arc, so sampling needs no sign test.
func alignHemisphere(r []float32) {
	alignQ((*[4]float32)(r[:4]), (*[4]float32)(r[4+recHead:4+recHead+4]))
}

// restComponents returns the rest value of path as floats, rotations as
// x, y, z, w.
func restComponents(t *Transform, p Path) (v [4]float32) {
	switch p {
	case Translation:
		copy(v[:], t.Translation[:])
	case Rotation:
		v = [4]float32{t.Rotation.V[0], t.Rotation.V[1], t.Rotation.V[2], t.Rotation.W}
	case Scale:
		copy(v[:], t.Scale[:])
	}
	return v
}

// Name is the source clip's name.
func (c *RuntimeClip) Name() string { return c.name }

// Duration is the clip's length in seconds.
func (c *RuntimeClip) Duration() float32 { return c.duration }

// NumJoints is the joint count of the skeleton it was built for.
func (c *RuntimeClip) NumJoints() int { return c.numJoints }

// NumCursors is the length of the cursor slice SampleSoAJob needs: one per
// joint and path (a STEP or CUBICSPLINE track's, or a compressed clip's)
// and one per morph track.
func (c *RuntimeClip) NumCursors() int {
	return 3*c.numJoints + len(c.morph)
}

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
	// tracks and a compressed clip's tracks; len = Clip.NumCursors(). Zero
	// values are fine; keep it between frames.
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
	if j.Output == nil || j.Output.Len() != j.Clip.numJoints {
		n := -1
		if j.Output != nil {
			n = j.Output.Len()
		}
		return fmt.Errorf("anim: sample job output has %d joints; clip %q drives %d", n, j.Clip.name, j.Clip.numJoints)
	}
	return nil
}

// Run samples the clip. Call Validate once when buffers are set up.
func (j *SampleSoAJob) Run() {
	sampleSoA(j.Clip, j.Time, j.Nlerp, j.Cursors, j.Cache, j.Output)
	if len(j.Output.W) > 0 {
		sampleMorph(j.Clip, j.Time, j.Cursors[3*j.Clip.numJoints:], j.Output)
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
	return k, clamp01((t - r[0]) * r[1])
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
	u := clamp01((t - r0[0]) / dt)
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

// differenceClip is c with every key replaced by its additive difference
// against the pose ref, as DifferenceSoA takes it (translation v − r,
// rotation r⁻¹ ⊗ q, scale v / r per component, morph weight w − r): sampled
// at any time it gives, up to rounding, DifferenceSoA of c's sample there
// and ref, for the price of the sampling alone. Additive clips are built
// so ahead of playback (GEA §12.6.5; ozz's AdditiveAnimationBuilder). The
// difference commutes with every interpolation: a lerp with a constant
// offset or factor, slerp and nlerp with a fixed rotation on the left,
// STEP, and the Hermite spline of a translation or scale, whose tangents
// take the linear part of the map. A value equal to the reference's
// becomes the identity exactly, as DifferenceSoA makes a joint the clip
// leaves as the reference has it.
//
// Nil, for DifferenceSoA to take the difference each frame, where that is
// not so: a compressed clip, whose keys are packed; a CUBICSPLINE rotation,
// which sampling normalizes between its keys but not outside them; a
// reference whose morph weights are not this clip's. A clip is built once
// per reference pose and kept with c: the controllers of a crowd, which
// share c, share it too.
func (c *RuntimeClip) differenceClip(ref *SoAPose) *RuntimeClip {
	if c.pk != nil || c.diffs == nil || ref.Len() != c.numJoints || len(ref.W) != len(c.morphRest) {
		return nil
	}
	for _, o := range c.other {
		if int(o.cursor)/c.numJoints == int(Rotation) && o.track.interp == CubicSpline {
			return nil
		}
	}
	m := c.diffs
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, r := range m.refs {
		if slices.Equal(r.buf, ref.buf) && slices.Equal(r.W, ref.W) {
			return m.clips[i]
		}
	}
	kept := NewSoAPose(ref.Len())
	kept.W = make([]float32, len(ref.W))
	kept.CopyFrom(ref)
	d := c.buildDifference(kept)
	m.refs, m.clips = append(m.refs, kept), append(m.clips, d)
	return d
}

// buildDifference builds differenceClip's clip.
func (c *RuntimeClip) buildDifference(ref *SoAPose) *RuntimeClip {
	d := *c
	d.diffs = nil // a difference clip has no differences of its own
	d.keys = slices.Clone(c.keys)
	n := c.numJoints
	shadow := make([]bool, 3*n) // lanes holding a STEP or CUBICSPLINE track's shadow
	for _, o := range c.other {
		shadow[o.cursor] = true
		p, j := Path(int(o.cursor)/n), int(o.cursor)%n
		d.differenceTrack(p, o.track, ref, j)
	}
	for p := range c.lanes {
		for j, tr := range c.lanes[p] {
			if !shadow[p*n+j] {
				d.differenceTrack(Path(p), tr, ref, j)
			}
		}
	}
	d.morphRest = slices.Clone(c.morphRest)
	for k := range d.morphRest {
		d.morphRest[k] -= ref.W[k]
	}
	d.morph = slices.Clone(c.morph)
	for i := range d.morph {
		tr := &d.morph[i] // within ref.W: validateMorph checked it against morphRest
		per, base := tr.Count, 0
		if tr.Interp == CubicSpline {
			per, base = 3*tr.Count, tr.Count
		}
		tr.Values = slices.Clone(tr.Values)
		for k := 0; k+per <= len(tr.Values); k += per {
			for w := range tr.Count {
				tr.Values[k+base+w] -= ref.W[tr.Channel+w]
			}
		}
	}
	d.buildStream()
	d.still, d.stillPose, d.held = 0, nil, [3]heldTag{} // the held values are differences now
	d.findStill()
	return &d
}

// differenceTrack rewrites the records of one track of d (path p, joint j)
// as their differences against ref's joint j.
func (d *RuntimeClip) differenceTrack(p Path, tr laneTrack, ref *SoAPose, j int) {
	nc := p.Components()
	per := nc
	if tr.interp == CubicSpline {
		per = 3 * nc
	}
	stride := recHead + per
	var r [4]float32 // the reference's value, x y z (w)
	switch p {
	case Translation:
		r = [4]float32{ref.tx[j], ref.ty[j], ref.tz[j]}
	case Rotation:
		r = [4]float32{ref.qx[j], ref.qy[j], ref.qz[j], ref.qw[j]}
	case Scale:
		r = [4]float32{ref.sx[j], ref.sy[j], ref.sz[j]}
	}
	for k := range int(tr.n) {
		rec := d.keys[int(tr.off)+k*stride+recHead : int(tr.off)+(k+1)*stride]
		for g := 0; g < per; g += nc {
			v := rec[g : g+nc]
			// The value's group (LINEAR and STEP have only it) or a
			// tangent's, which takes the linear part of the map.
			value := per == nc || g == nc
			switch p {
			case Translation:
				if value {
					v[0], v[1], v[2] = v[0]-r[0], v[1]-r[1], v[2]-r[2]
				}
			case Scale:
				for c := range 3 {
					switch {
					case r[c] == 0 && value:
						v[c] = 1 // no inverse: as ratio
					case r[c] == 0:
						v[c] = 0
					case value:
						v[c] = ratio(v[c], r[c])
					default:
						v[c] /= r[c]
					}
				}
			case Rotation: // LINEAR or STEP: one value, no tangents
				if v[0] == r[0] && v[1] == r[1] && v[2] == r[2] && v[3] == r[3] {
					// Written out: where the product's terms are fused
					// (FMA), r⁻¹ ⊗ r leaves rounding in x, y, z.
					v[0], v[1], v[2], v[3] = 0, 0, 0, 1
					continue
				}
				v[0], v[1], v[2], v[3] = normQ(qmul(-r[0], -r[1], -r[2], r[3], v[0], v[1], v[2], v[3]))
			}
		}
		if p == Rotation && tr.interp == Linear && k > 0 {
			alignHemisphere(d.keys[int(tr.off)+(k-1)*stride+recHead:])
		}
	}
}
