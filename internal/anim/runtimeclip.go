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
	// (CompressClip), whose lanes are then nil; pm its packed morph
	// weight channels, nil where morph holds every weight track.
	pk *packedClip
	pm *packedMorph
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
	SortMarkers(rc.markers)
	if err := checkMarkers(rc.markers, c.Name, rc.duration); err != nil {
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

// Markers are the clip's markers, sorted by time; shared with the clip,
// not to be modified.
func (c *RuntimeClip) Markers() []Marker { return c.markers }

// Duration is the clip's length in seconds.
func (c *RuntimeClip) Duration() float32 { return c.duration }

// NumJoints is the joint count of the skeleton it was built for.
func (c *RuntimeClip) NumJoints() int { return c.numJoints }

// NumCursors is the length of the cursor slice SampleSoAJob needs: one per
// joint and path (a STEP or CUBICSPLINE track's, or a compressed clip's)
// and one per morph track and packed morph channel.
func (c *RuntimeClip) NumCursors() int {
	n := 3*c.numJoints + len(c.morph)
	if c.pm != nil {
		n += len(c.pm.chans)
	}
	return n
}

// DifferenceClip is c with every key replaced by its additive difference
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
func (c *RuntimeClip) DifferenceClip(ref *SoAPose) *RuntimeClip {
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

// buildDifference builds DifferenceClip's clip.
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
				// The keys stay in one another's hemisphere: r̄ ⊗ scales
				// the dot product of any two by |r|², so the differences
				// of aligned keys are aligned.
				v[0], v[1], v[2], v[3] = normQ(qmul(-r[0], -r[1], -r[2], r[3], v[0], v[1], v[2], v[3]))
			}
		}
	}
}
