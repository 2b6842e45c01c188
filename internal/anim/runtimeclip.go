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
// identity). Every track keeps its own timeline and
// its own cursor.
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
	// so that the LINEAR loops run over all lanes without a test and never
	// move its cursor; sampleOtherLanes then overwrites the shadow's value.
	other []otherTrack
	// morph are the morph weight tracks (copies), morphRest the weights
	// of the channels they leave alone.
	morph     []MorphTrack
	morphRest []float32
	markers   []Marker // sorted by time
	// pk holds the LINEAR joint tracks of a compressed clip
	// (CompressClip), whose lanes are then nil.
	pk *packedClip
	// moving[p] lists the runs of joints whose path-p tracks have keys to
	// interpolate; the others hold one value at every time, which
	// still[0] (slerp) and still[1] (nlerp) keep as sampling gives it, so
	// that a frame copies them and samples the runs alone. A clip that
	// moves a few joints of a large skeleton (a gesture, an additive
	// sway, a walk's legs) then costs what those joints cost.
	moving [3][]jointRun
	still  [2]*SoAPose
	sparse bool // some track is still
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

// jointRun is a run [lo, hi) of joint indices.
type jointRun struct{ lo, hi int32 }

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
	if size+keysPad > math.MaxInt32 {
		return nil, fmt.Errorf("anim: clip %q has too many keys for a runtime clip (%d floats)", c.Name, size)
	}
	rc.keys = make([]float32, 0, size+keysPad)
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
	rc.keys = append(rc.keys, make([]float32, keysPad)...)
	rc.findMoving()
	return rc, nil
}

// findMoving fills moving, and still where some track is still: a track
// of two keys with a zero inverse span (a one-key track, the rest pose, a
// shadow) samples to the same value at every time, u being +0 there, so
// its value is sampled once, with slerp and with nlerp, and copied from
// then on.
func (c *RuntimeClip) findMoving() {
	n := c.numJoints
	all := []jointRun{{0, int32(n)}}
	var moving [3][]jointRun
	sparse := false
	for p := range c.lanes {
		for j, l := range c.lanes[p] {
			if l.n == 2 && c.keys[l.off+1] == 0 {
				continue
			}
			if k := len(moving[p]) - 1; k >= 0 && moving[p][k].hi == int32(j) {
				moving[p][k].hi++
			} else {
				moving[p] = append(moving[p], jointRun{int32(j), int32(j + 1)})
			}
		}
		sparse = sparse || len(moving[p]) != 1 || moving[p][0] != all[0]
	}
	c.moving = [3][]jointRun{all, all, all}
	if sparse { // the still values, sampled while every track still runs
		for i, nlerp := range [2]bool{false, true} {
			c.still[i] = NewSoAPose(n)
			sampleSoAGeneric(c, 0, nlerp, make([]int32, 3*n), c.still[i])
		}
		c.moving, c.sparse = moving, true
	}
}

// firstStripe is the index in SoAPose.buf's stripes of each path's x.
var firstStripe = [3]int{Translation: 0, Rotation: 3, Scale: 7}

// vec3Sampler and quatSampler sample the LINEAR tracks of one path for a
// run of joints: the portable loops, or a SIMD kernel's.
type (
	vec3Sampler func(keys []float32, lanes []laneTrack, t float32, cur []int32, ox, oy, oz []float32)
	quatSampler func(keys []float32, lanes []laneTrack, t float32, cur []int32, ox, oy, oz, ow []float32, nlerp bool)
)

// sampleRuns samples clip c at t with the given loops: the still tracks'
// values are copied (the whole pose in one move, where there are any),
// then each run of moving tracks is sampled; STEP and CUBICSPLINE tracks
// follow.
func sampleRuns(c *RuntimeClip, t float32, nlerp bool, cursors []int32, out *SoAPose, vec3 vec3Sampler, quat quatSampler) {
	n := c.numJoints
	cursors = cursors[:3*n]
	if c.sparse {
		still := c.still[0]
		if nlerp {
			still = c.still[1]
		}
		copy(out.buf, still.buf)
	}
	stride := len(out.buf) / 10
	for p, runs := range c.moving {
		lanes, cur := c.lanes[p][:n], cursors[p*n:(p+1)*n]
		o := out.buf[firstStripe[p]*stride:]
		for _, r := range runs {
			lo, hi := int(r.lo), int(r.hi)
			x, y, z := o[lo:hi], o[stride+lo:stride+hi], o[2*stride+lo:2*stride+hi]
			if Path(p) == Rotation {
				quat(c.keys, lanes[lo:hi], t, cur[lo:hi], x, y, z, o[3*stride+lo:3*stride+hi], nlerp)
			} else {
				vec3(c.keys, lanes[lo:hi], t, cur[lo:hi], x, y, z)
			}
		}
	}
	if len(c.other) > 0 {
		sampleOtherLanes(c, t, cursors, out)
	}
}

// keysPad floats of padding end RuntimeClip.keys, so that vector code may
// load four floats at the value of any record.
const keysPad = 4

// alignHemisphere negates quaternion b when it is more than 90° from a in
// 4D (r holds a, then a record head, then b): q and −q are one rotation,
// and keys on one side make every pair's plain interpolation the shortest
// arc, so sampling needs no sign test.
func alignHemisphere(r []float32) {
	a, b := r[:4], r[4+recHead:4+recHead+4]
	if a[0]*b[0]+a[1]*b[1]+a[2]*b[2]+a[3]*b[3] < 0 {
		b[0], b[1], b[2], b[3] = -b[0], -b[1], -b[2], -b[3]
	}
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
// joint and path, one per morph track, and for a compressed clip with
// frames one for them.
func (c *RuntimeClip) NumCursors() int {
	if c.pk != nil && len(c.pk.frame) > 0 {
		return 3*c.numJoints + len(c.morph) + 1 // and the frames' cursor
	}
	return 3*c.numJoints + len(c.morph)
}

// SampleSoAJob samples a RuntimeClip into an SoAPose, the engine's only
// sampler: joints without a track keep their rest transform; LINEAR
// rotations use the polynomial slerp (within 1e-6 of Slerp) or Nlerp. Each
// track keeps a key cursor, so that playback touches every track's keys
// once per frame with no search; a jump falls back to a binary search.
// It allocates nothing.
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
	// Cursors is per-track key state; len = Clip.NumCursors(). Zero values
	// are fine; keep it between frames.
	Cursors []int32
	// Cache holds a compressed clip's decoded key pairs; len =
	// Clip.CacheLen() (0 for an uncompressed clip). Zero values are fine;
	// keep it between frames, and with the one clip.
	Cache []float32
	// Output receives the local pose; Len() = Clip.NumJoints().
	Output *SoAPose
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
	if j.Clip.pk != nil {
		samplePacked(j.Clip, j.Time, j.Nlerp, j.Cursors, j.Cache, j.Output)
	} else {
		sampleSoA(j.Clip, j.Time, j.Nlerp, j.Cursors, j.Output)
	}
	if len(j.Output.W) > 0 {
		sampleMorph(j.Clip, j.Time, j.Cursors[3*j.Clip.numJoints:], j.Output)
	}
}

// sampleSoAGeneric is the portable sampler, one loop per path (over the
// runs of moving tracks, sampleRuns): per joint, the cursor's key pair if
// it still brackets t, the next pair if t crossed one key, else a binary
// search (seekLane); then the value. The LINEAR case is written out in
// loops whose hot path makes no call (a call would make the compiler spill
// and reload the loop's state on every iteration); STEP and CUBICSPLINE
// tracks, listed in c.other, go through sampleOther afterwards.
func sampleSoAGeneric(c *RuntimeClip, t float32, nlerp bool, cursors []int32, out *SoAPose) {
	sampleRuns(c, t, nlerp, cursors, out, sampleVec3Lanes, sampleQuatLanes)
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

// sampleVec3Lanes samples every joint's LINEAR translation or scale track.
func sampleVec3Lanes(keys []float32, lanes []laneTrack, t float32, cur []int32, ox, oy, oz []float32) {
	const stride = recHead + 3
	cur, ox, oy, oz = cur[:len(lanes)], ox[:len(lanes)], oy[:len(lanes)], oz[:len(lanes)]
	for j := range lanes {
		tr := &lanes[j]
		off, last := int(tr.off), int(tr.n)-2
		k := int(cur[j])
		if uint(k) > uint(last) {
			k = 0
		}
		r := (*[2 * stride]float32)(keys[off+k*stride : off+(k+2)*stride])
		var u float32
		if r[0] <= t && t < r[stride] {
			u = (t - r[0]) * r[1]
		} else {
			if k < last && r[stride] <= t && t < keys[off+(k+2)*stride] {
				k++ // playback crossed one key
			} else {
				k = seekLane(keys, off, last, stride, t)
			}
			cur[j] = int32(k)
			r = (*[2 * stride]float32)(keys[off+k*stride : off+(k+2)*stride])
			u = clamp01((t - r[0]) * r[1]) // outside the keys u leaves [0, 1)
		}
		ox[j] = r[2] + (r[stride+2]-r[2])*u
		oy[j] = r[3] + (r[stride+3]-r[3])*u
		oz[j] = r[4] + (r[stride+4]-r[4])*u
	}
}

// sampleQuatLanes samples every joint's LINEAR rotation track.
func sampleQuatLanes(keys []float32, lanes []laneTrack, t float32, cur []int32, ox, oy, oz, ow []float32, nlerp bool) {
	const stride = recHead + 4
	cur, ox, oy, oz, ow = cur[:len(lanes)], ox[:len(lanes)], oy[:len(lanes)], oz[:len(lanes)], ow[:len(lanes)]
	for j := range lanes {
		tr := &lanes[j]
		off, last := int(tr.off), int(tr.n)-2
		k := int(cur[j])
		if uint(k) > uint(last) {
			k = 0
		}
		r := (*[2 * stride]float32)(keys[off+k*stride : off+(k+2)*stride])
		var u float32
		if r[0] <= t && t < r[stride] {
			u = (t - r[0]) * r[1]
		} else {
			if k < last && r[stride] <= t && t < keys[off+(k+2)*stride] {
				k++
			} else {
				k = seekLane(keys, off, last, stride, t)
			}
			cur[j] = int32(k)
			r = (*[2 * stride]float32)(keys[off+k*stride : off+(k+2)*stride])
			u = clamp01((t - r[0]) * r[1])
		}
		var x, y, z, w float32
		if nlerp {
			// Keys are hemisphere-aligned at build time: no sign test.
			v := 1 - u
			x, y, z, w = v*r[2]+u*r[8], v*r[3]+u*r[9], v*r[4]+u*r[10], v*r[5]+u*r[11]
			l := float32(math.Sqrt(float64(x*x + y*y + z*z + w*w)))
			if !(l > 0) {
				x, y, z, w, l = 0, 0, 0, 1, 1
			}
			inv := 1 / l
			x, y, z, w = x*inv, y*inv, z*inv, w*inv
		} else {
			x, y, z, w = slerpPoly(r[2], r[3], r[4], r[5], r[8], r[9], r[10], r[11], u)
		}
		ox[j], oy[j], oz[j], ow[j] = x, y, z, w
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
	// glTF 2.0 Appendix C: p(u) = h00·v0 + h10·dt·b0 + h01·v1 + h11·dt·a1
	// with b0 the out-tangent of key k and a1 the in-tangent of k+1.
	u2, u3 := u*u, u*u*u
	h00 := 2*u3 - 3*u2 + 1
	h10 := u3 - 2*u2 + u
	h01 := -2*u3 + 3*u2
	h11 := u3 - u2
	for c := range nc {
		v0, b0 := r0[recHead+nc+c], r0[recHead+2*nc+c]
		a1, v1 := r1[recHead+c], r1[recHead+nc+c]
		v[c] = h00*v0 + h10*dt*b0 + h01*v1 + h11*dt*a1
	}
	if nc == 4 {
		v[0], v[1], v[2], v[3] = normQ(v[0], v[1], v[2], v[3])
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
	d.still = [2]*SoAPose{}
	d.findMoving()
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
