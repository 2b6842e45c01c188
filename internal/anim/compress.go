package anim

import (
	"encoding/binary"
	"math"
	"slices"
	"time"
)

// Compression (Game Engine Architecture §12.8; the Animation Compression
// Library's error metric). CompressClip builds a RuntimeClip whose LINEAR
// joint tracks are packed:
//
//   - a track that stays within the tolerance of the joint's rest value
//     is dropped (the rest value comes from the skeleton), one that stays
//     within it of its first key keeps that key alone, its floats cut to
//     the mantissa bits it needs (a rotation as x, y, z where shorter);
//   - keys are removed while linear interpolation (slerp and nlerp alike,
//     for rotations) between the kept ones stays within the tolerance of
//     the source at every source key and half-way between keys;
//   - the kept values are quantized per track and component over the
//     component's range, 0 to 24 bits each (the widest at least 4), the
//     ranges keeping only the mantissa bits they need, or stay float32; a
//     rotation codes three components and rebuilds the one furthest from
//     zero over its keys (smallest three per track);
//   - key times become indices into one table of the clip's distinct
//     times, as many bits each as the table needs, or a bit per time of
//     the table where that is fewer (a mask), and none for a track that
//     keys every time of the table; a table on an evenly spaced grid but
//     for rounding is a few numbers and the grid points it holds
//     (gridTimes). The size reported is one stream of bits
//     (packedBytes).
//
// The clip is packed several ways and the smallest that fits is kept; if
// none does, it stays uncompressed (CompressReport.Kept).
//
// The error is judged as ACL judges it: every joint carries virtual
// vertices VirtualVertex model units along its three axes (3 cm in glTF's
// metres); each is carried through the whole hierarchy at every key time
// of the clip and half-way between consecutive ones (where every track is
// linear), with slerp and with nlerp, and the distance to the same vertex
// under the source clip is the error. Tracks are first given a share of
// the tolerance by how far their joint reaches (its descendants and its
// own vertices); where the measured error still exceeds the tolerance,
// the shares of that joint and its ancestors are halved and the clip is
// packed again; then shares are raised where there is room. The fit
// computes the model matrices in float64 and leaves room for the
// engine's float32 rounding; the packing is then checked as played, at
// three more times between each two checked (CompressClip).
//
// A packed clip samples through SampleSoAJob like any other: each track's
// current key pair is decoded into the job's Cache (ozz's sampling
// context) when the time leaves it, laid out as an uncompressed clip's
// pairs are, so that one interpolation pass serves both, and playback
// decodes a key only when it crosses one. The tracks that key every time
// lie in frames, one per time; crossing a time decodes the next frame
// into all their pairs, in the SIMD build 8 lanes at a time (a frame
// holds each cache group's codes component by component, shiftFrames8).
// CUBICSPLINE tracks are sampled densely and packed as LINEAR keys where
// that makes the clip smaller (sampleCurves); STEP tracks stay as they
// are, and so do morph weights unless their displacements are given
// (compressmorph.go).

// VirtualVertex is the distance of the virtual vertices from their joint,
// in model units: 3 cm in glTF's metres.
const VirtualVertex = 0.03

// CompressOptions are the settings of CompressClip.
type CompressOptions struct {
	// Tolerance bounds the virtual-vertex error, in model units (glTF:
	// metres, so 0.0001 is 0.01 cm). Must be positive.
	Tolerance float64
	// Progress, when set, is called now and then with the share of the
	// work done, from 0 to 1.
	Progress func(done float64)
	// MorphDisplacement is, per morph channel in Skeleton.MorphRest's
	// order, the farthest a weight of 1 on that channel moves a vertex,
	// in model units (the longest displacement of its targets over the
	// meshes it drives), so that a weight error e moves a vertex by at
	// most e·MorphDisplacement[k]. Nil keeps every morph weight as it is.
	// A LINEAR weight track whose channels all have one (finite, ≥ 0;
	// entries past the end, negative or NaN for channels that are no
	// morph targets) is packed, each channel within Tolerance of vertex
	// error on its own; a channel of 0 becomes its rest weight. Read
	// only.
	MorphDisplacement []float64
}

// CompressReport tells how a clip compressed.
type CompressReport struct {
	// Clip is the clip's name.
	Clip string
	// RawBytes is the size of the clip's keys as float32: its glTF
	// accessors (Clip.SourceBytes), else its tracks' times and values.
	RawBytes int
	// Bytes is the size of the compressed clip: packed tracks, time table,
	// track descriptors, the tracks kept as they were and the morph
	// weights (MorphBytes).
	Bytes int
	// MaxError and P99Error are the worst and 99th-percentile virtual-vertex
	// error over every joint and checked time, in model units.
	MaxError, P99Error float64
	// MorphRawBytes is the size of the clip's morph weight tracks as
	// they are (their floats and a descriptor each), MorphBytes their
	// part of Bytes: the same where they stay so (no
	// CompressOptions.MorphDisplacement, or the clip Kept).
	MorphRawBytes, MorphBytes int
	// MorphMaxError is the worst vertex error the packed weights cause,
	// in model units: each packed channel's weight error times its
	// displacement, at the check times of the joints and three more
	// between each two, as played.
	MorphMaxError float64
	// Elapsed is how long compression took.
	Elapsed time.Duration
	// Kept says no packing stayed within the tolerance: the clip plays
	// uncompressed (Bytes is RawBytes).
	Kept bool
}

// Ratio is RawBytes / Bytes.
func (r CompressReport) Ratio() float64 {
	if r.Bytes == 0 {
		return 0
	}
	return float64(r.RawBytes) / float64(r.Bytes)
}

// packedClip holds a compressed clip's LINEAR joint tracks.
type packedClip struct {
	// times is the table of the distinct key times the tracks index,
	// sorted; an index takes timeBits bits.
	times    []float32
	timeBits uint8
	// step is the spacing of the grid the times lie on (gridTimes), 0
	// where they lie on none, and points the grid's points from the first
	// time to the last; the first time and the step keep timeMant mantissa
	// bits.
	step     float32
	timeMant uint8
	points   int
	// inv[i] is 1/(times[i+1] − times[i]), the inverse span of a track
	// that keys every time.
	inv []float32
	// frame lists the quantized tracks that key every time, which lie in
	// frames: frameBits bits per time from bit frameStart, all their codes
	// for that time.
	frame                 []frameTrack
	frameStart, frameBits uint32
	// groups are the frame tracks again, by the cache group of 8 joints
	// their pairs lie in, for the SIMD build's shift (shiftFrames8).
	groups []frameGroup
	// loose[p] are the joints whose track of path p has keys (two or more)
	// outside the frames: while the frames hold t, the only pairs that can
	// go stale (a constant track's pair holds at every finite time).
	loose [3][]int32
	// data holds every track's ranges, time indices and values, and
	// dataPad zero bytes for readBits.
	data []byte
	// tracks[p][j] is the track of path p for joint j.
	tracks [3][]packedTrack
	// rest are the skeleton's rest values, for dropped tracks.
	rest [3][][4]float32
}

// packedTrack locates one track in packedClip.data. A dropped track
// (n = 0) has no data; a constant one (n = 1) holds its value as the top
// 9+bits bits of each float32 (sign, exponent, bits of mantissa).
// A track of n ≥ 2 keys holds, each part starting on a byte:
//   - with bits < 32, the minimum of each coded component and the step
//     of each that has bits (the top 9+rbits bits of each float32, or see
//     zero), value = min + step·code;
//   - unless every is set (the track keys every time of the table), n
//     time indices of timeBits bits, or where mask is set, one bit per
//     time of the table, set where the track keys it;
//   - its values: with bits < 32, three codes of cbits[c] bits per key,
//     with bits = 32 the components as float32; a quantized track that
//     keys every time has its codes in the frames instead (vbit, kbits).
//
// Quantized rotations code three components, in order, of the key made
// to have the fourth, drop, ≥ 0, and rebuild that one as the root of one
// less the others' squares (unitDropping); drop is w for most tracks. Bits
// are packed least significant first.
type packedTrack struct {
	off, toff, voff uint32 // byte offsets of the ranges, times and values
	// vbit is the bit offset of each component's code of key 0, kbits the
	// bits from one key's codes to the next'; for a quantized track that
	// keys every time both place it in the clip's frames.
	vbit  [3]uint32
	kbits uint32
	n     uint32
	// bits is 32 for float32 values, the widest component's for coded
	// ones, the mantissa bits kept for a constant track; cbits are a
	// coded track's bits per component.
	bits  uint8
	cbits [3]uint8
	// rbits are the mantissa bits its ranges keep in data; zero says each
	// range value is there a bit, 0 for +0, 1 before the value's bits
	// (chosen where it takes less room). xyz says a constant rotation keeps
	// x, y, z and rebuilds w ≥ 0.
	rbits uint8
	zero  bool
	xyz   bool
	every bool
	mask  bool
	// drop is the component a coded rotation leaves out and rebuilds
	// (unitDropping), 3 for w; float32 and constant tracks leave it 0
	// and unread.
	drop uint8
	// lo and step are the ranges decoded, for speed.
	lo, step [3]float32
}

// keyBits is the size of one key's codes.
func (tr *packedTrack) keyBits() uint32 {
	return uint32(tr.cbits[0]) + uint32(tr.cbits[1]) + uint32(tr.cbits[2])
}

// dataPad zero bytes end packedClip.data, so that readBits may load eight
// bytes anywhere in it, and shiftFrames8 32.
const dataPad = 32

// readBits reads w ≤ 32 bits at bit offset at.
func readBits(d []byte, at int, w uint8) uint32 {
	x := binary.LittleEndian.Uint64(d[at>>3:])
	return uint32(x>>(at&7)) & (1<<w - 1)
}

// maskedBits reads the bits of mask (≤ 32, from bit 0) at bit offset at.
func maskedBits(d []byte, at uint, mask uint32) uint32 {
	return uint32(binary.LittleEndian.Uint64(d[at>>3:])>>(at&7)) & mask
}

// codedComponents is the number of components a track of path p codes at
// bits.
func codedComponents(p Path, bits uint8) int {
	if p == Rotation && bits < 32 {
		return 3
	}
	return p.Components()
}

// CacheLen is the length of the float cache SampleSoAJob needs: a head
// and one key pair per joint and path, in groups of 8 joints
// (keystream.go), and for a compressed clip each pair's end time after
// them, then 4 floats per packed morph channel (packedMorph.sample).
func (c *RuntimeClip) CacheLen() int {
	l := streamHead + cacheStripes*soaPadded(c.numJoints)
	if c.pk != nil {
		l += 3 * soaPadded(c.numJoints)
	}
	if c.pm != nil {
		l += 4 * len(c.pm.chans)
	}
	return l
}

// Compressed reports whether the clip was built by CompressClip.
func (c *RuntimeClip) Compressed() bool { return c.pk != nil }

// advancePacked brings the key pairs in the cache of packed clip c to t:
// the tracks in frames together (advanceFrames), then each pair that t
// has left, refilled from its track; while the frames hold t, only the
// tracks of keys outside them are tested. The pairs lie as an
// uncompressed clip's do, so that one interpolation pass serves both; each
// pair's end time, which the test needs, follows them (pad floats per
// path). A cache that c did not fill last, a new one or another clip's,
// is reset first.
func (c *RuntimeClip) advancePacked(t float32, cursors []int32, cache []float32, wide bool) {
	pk, n, pad := c.pk, c.numJoints, soaPadded(c.numJoints)
	// held: the cache was this clip's and the frames hold t, so that only
	// the tracks of keys outside them (loose) can have left their pairs.
	held := cache[1] == c.tag
	if !held {
		c.resetPacked(cursors, cache)
	}
	ca := cache[streamHead:]
	if len(pk.frame) > 0 {
		// The frames' cursor lives in the head, beside the tag, so that it
		// always describes the pairs of this cache.
		g := int32(math.Float32bits(cache[2]))
		pk.advanceFrames(t, &g, ca, wide)
		cache[2] = math.Float32frombits(uint32(g))
		held = held && g != 0
	}
	ends := ca[cacheStripes*pad:]
	for p := range pk.tracks {
		nc := Path(p).Components()
		s := ca[cacheStripe[p]*pad : (cacheStripe[p]+2+2*nc)*pad]
		end, cur := ends[p*pad:p*pad+pad], cursors[p*n:p*n+n]
		if held && len(pk.loose[p]) <= pad/groupLanes {
			// Few tracks that can be stale: those alone, one by one.
			for _, j := range pk.loose[p] {
				if x := pairAt(int(j), 2+2*nc); !(s[x] <= t && t < end[j]) {
					pk.refill(Path(p), int(j), t, &cur[j], s[x:], &end[j])
				}
			}
			continue
		}
		// Every pair tested, 8 at a time where wide, chunk by chunk.
		var m laneMasks
		for from := 0; from < n; from += chunkJoints {
			if !stalePairs(s, end, nc, t, from, &m, wide) {
				continue
			}
			for j := from; j < min(n, from+chunkJoints); j++ {
				if m.has(j - from) {
					pk.refill(Path(p), j, t, &cur[j], s[pairAt(j, 2+2*nc):], &end[j])
				}
			}
		}
	}
}

// stalePairsGeneric sets in m the bit of each joint of the chunk from
// joint from whose key pair t has left (not t0 ≤ t < end), the pairs s
// and end times end of one path of a packed clip's cache, and reports
// whether it set any. Padding lanes hold at every finite time.
func stalePairsGeneric(s, end []float32, nc int, t float32, from int, m *laneMasks) bool {
	var found uint8
	for k := range m {
		i := from + k*groupLanes
		if i+groupLanes > len(end) {
			break
		}
		t0, e := s[pairAt(i, 2+2*nc):][:groupLanes], end[i:i+groupLanes]
		var b uint8
		for l := range groupLanes {
			if !(t0[l] <= t && t < e[l]) {
				b |= 1 << l
			}
		}
		m[k] = b
		found |= b
	}
	return found != 0
}

// resetPacked empties a packed clip's cache: every pair the identity,
// every end time 0, so that each track refills, and the cursors 0. The
// padding lanes' pairs hold at every finite time.
func (c *RuntimeClip) resetPacked(cursors []int32, cache []float32) {
	pad := soaPadded(c.numJoints)
	ca := cache[streamHead:]
	for p := range 3 {
		nc := Path(p).Components()
		rest := restComponents(&IdentityTransform, Path(p))
		s := ca[cacheStripe[p]*pad:]
		end := ca[(cacheStripes+p)*pad : (cacheStripes+p+1)*pad]
		for j := range pad {
			if j < c.numJoints {
				setPair(s[pairAt(j, 2+2*nc):], nc, 0, 0, &rest, &rest)
				end[j] = 0
			} else {
				setPair(s[pairAt(j, 2+2*nc):], nc, -math.MaxFloat32, 0, &rest, &rest)
				end[j] = math.MaxFloat32
			}
		}
	}
	// The packed morph channels' cursors too: their pairs are stale.
	clear(cursors)
	cache[1], cache[2] = c.tag, 0 // no frames held
}

// setPair writes a pair into the cache's lanes from g, a joint's t0: the
// time, the inverse span, then a's and b's nc components, 8 floats apart.
func setPair(g []float32, nc int, t0, inv float32, a, b *[4]float32) {
	g = g[:groupLanes*(1+2*nc)+1]
	g[0], g[groupLanes] = t0, inv
	for i := range nc {
		g[groupLanes*(2+i)], g[groupLanes*(2+nc+i)] = a[i], b[i]
	}
}

// frameTrack is a track laid out in the frames, with what decoding needs.
type frameTrack struct {
	rot   bool
	drop  uint8 // packedTrack.drop
	cbits [3]uint8
	// pair and end are where its key pair (its t0) and the pair's end time
	// are in the cache after the head.
	pair, end uint32
	// bit and mask are each component's code's bit offset in a frame and
	// mask.
	bit, mask [3]uint32
	lo, step  [3]float32
}

// frameGroup is the frame tracks of one path whose pairs lie in one cache
// group of 8 joints, lane by lane.
type frameGroup struct {
	rot bool
	// pair and end are where the group's pairs (lane 0's t0) and end
	// times are in the cache after the head.
	pair, end uint32
	// sel is -1 in the lanes of frame tracks, 0 in the others; frame
	// names each lane's track in packedClip.frame.
	sel   [8]int32
	frame [8]int32
	// drop is each lane's dropped component (rotations); lo and step the
	// lanes' ranges by component.
	drop     [8]int32
	lo, step [3][8]float32
	// plane is the bit offset in a frame of each component's codes, off
	// each lane's from there, and mask each lane's code mask (0 outside
	// the frames).
	plane     [3]uint32
	off, mask [3][8]uint32
}

// advanceFrames brings the key pairs of every track in the frames to t:
// nothing while t stays between the two times cached (g = k+1 for times k
// and k+1, 0 for none), the next frame decoded into every pair when
// playback crossed one time, both frames around t after a jump. Outside
// the table's times it leaves them to refill.
func (pk *packedClip) advanceFrames(t float32, g *int32, ca []float32, wide bool) {
	times := pk.times
	last := len(times) - 1
	c := int(*g) - 1
	switch {
	case c >= 0 && c < last && times[c] <= t && t < times[c+1]:
		return
	case !(t >= times[0]) || t >= times[last]:
		*g = 0
		return
	case c >= 0 && c+2 <= last && times[c+1] <= t && t < times[c+2]:
		shiftFramesAt(pk, c+1, ca, wide)
		*g = int32(c + 2)
		return
	}
	k, _ := slices.BinarySearch(times, t) // the first time ≥ t
	if k > last || times[k] > t {
		k--
	}
	pk.fillFrames(k, ca)
	*g = int32(k + 1)
}

// frameCodes decodes the codes of frame track f at frame k.
func (pk *packedClip) frameCodes(f *frameTrack, k int) (x, y, z float32) {
	return unpack3(pk.data, uint(pk.frameStart)+uint(k)*uint(pk.frameBits), &f.bit, &f.cbits, &f.lo, &f.step)
}

// unpack3 decodes three codes of cb[0], cb[1] and cb[2] bits from bits
// at+bit[0], at+bit[1] and at+bit[2] of data: lo + step·code each.
func unpack3(data []byte, at uint, bit *[3]uint32, cb *[3]uint8, lo, step *[3]float32) (x, y, z float32) {
	qx := readBits(data, int(at+uint(bit[0])), cb[0])
	qy := readBits(data, int(at+uint(bit[1])), cb[1])
	qz := readBits(data, int(at+uint(bit[2])), cb[2])
	// Codes go to floats through int32: converting an unsigned integer
	// costs a branch and more. They have 24 bits at most.
	return lo[0] + step[0]*float32(int32(qx)), lo[1] + step[1]*float32(int32(qy)), lo[2] + step[2]*float32(int32(qz))
}

// shiftFrames makes the pair of every frame track of frames (all of
// pk.frame, or a run of it) frames k and k+1, from the pair k−1, k it
// holds.
func (pk *packedClip) shiftFrames(k int, ca []float32, frames []frameTrack) {
	t0, t1, inv := pk.times[k], pk.times[k+1], pk.inv[k]
	at := uint(pk.frameStart) + uint(k+1)*uint(pk.frameBits)
	for i := range frames {
		f := &frames[i]
		// unpack3, written out with the masks made ahead: a call here
		// costs measurably (docs/performance.md).
		x := f.lo[0] + f.step[0]*float32(int32(maskedBits(pk.data, at+uint(f.bit[0]), f.mask[0])))
		y := f.lo[1] + f.step[1]*float32(int32(maskedBits(pk.data, at+uint(f.bit[1]), f.mask[1])))
		z := f.lo[2] + f.step[2]*float32(int32(maskedBits(pk.data, at+uint(f.bit[2]), f.mask[2])))
		ca[f.end] = t1
		if !f.rot {
			g := (*[7*groupLanes + 1]float32)(ca[f.pair:])
			g[0], g[8] = t0, inv
			g[16], g[24], g[32] = g[40], g[48], g[56]
			g[40], g[48], g[56] = x, y, z
			continue
		}
		g := (*[9*groupLanes + 1]float32)(ca[f.pair:])
		var w float32
		if ww := 1 - x*x - y*y - z*z; ww > 0 { // unitDropping, written out
			w = float32(math.Sqrt(float64(ww)))
		} else {
			x, y, z, w = normQ(x, y, z, 0)
		}
		switch f.drop {
		case 0:
			x, y, z, w = w, x, y, z
		case 1:
			y, z, w = w, y, z
		case 2:
			z, w = w, z
		}
		// Frame k becomes the first key as stored, with its dropped
		// component ≥ 0 (it may have been negated to match the key before
		// it), and the new key is made to match it: the pair takes the
		// shorter arc, and is what fillFrames would make.
		ax, ay, az, aw := g[48], g[56], g[64], g[72]
		if d := g[48+8*(f.drop&3)]; d < 0 || (d == 0 && math.Signbit(float64(d))) {
			ax, ay, az, aw = -ax, -ay, -az, -aw
		}
		if ax*x+ay*y+az*z+aw*w < 0 {
			x, y, z, w = -x, -y, -z, -w
		}
		g[0], g[8] = t0, inv
		g[16], g[24], g[32], g[40] = ax, ay, az, aw
		g[48], g[56], g[64], g[72] = x, y, z, w
	}
}

// fillFrames decodes frames k and k+1 into every frame track's pair.
func (pk *packedClip) fillFrames(k int, ca []float32) {
	t0, t1, inv := pk.times[k], pk.times[k+1], pk.inv[k]
	for i := range pk.frame {
		f := &pk.frame[i]
		var a, b [4]float32
		a[0], a[1], a[2] = pk.frameCodes(f, k)
		b[0], b[1], b[2] = pk.frameCodes(f, k+1)
		nc := 3
		if f.rot {
			nc = 4
			a[0], a[1], a[2], a[3] = unitDropping(a[0], a[1], a[2], f.drop)
			b[0], b[1], b[2], b[3] = unitDropping(b[0], b[1], b[2], f.drop)
			alignQ(&a, &b)
		}
		setPair(ca[f.pair:], nc, t0, inv, &a, &b)
		ca[f.end] = t1
	}
}

// alignQ negates quaternion b where it is more than 90° from a in 4D, so
// that the pair's plain interpolation takes the shorter arc.
func alignQ(a, b *[4]float32) {
	if a[0]*b[0]+a[1]*b[1]+a[2]*b[2]+a[3]*b[3] < 0 {
		b[0], b[1], b[2], b[3] = -b[0], -b[1], -b[2], -b[3]
	}
}

// decode3 decodes the three codes of key k of a quantized track.
func (pk *packedClip) decode3(tr *packedTrack, k int) (x, y, z float32) {
	return unpack3(pk.data, uint(k)*uint(tr.kbits), &tr.vbit, &tr.cbits, &tr.lo, &tr.step)
}

// refill puts into the pair at g (setPair's layout) and its end time the
// key pair of path p, joint j around t, so that t0 ≤ t < end: outside the
// keys, and for constant tracks, a pair of equal values with zero inverse
// span, whose outer time is ∓MaxFloat32. The cursor is k+1 while the pair
// is keys k and k+1, 0 while it is anything else, so that playback
// crossing one key moves the pair on and decodes only the new key.
func (pk *packedClip) refill(p Path, j int, t float32, cur *int32, g []float32, end *float32) {
	nc := p.Components()
	tr := &pk.tracks[p][j]
	n := int(tr.n)
	var a, b [4]float32
	if c := int(*cur); c > 0 && c+1 < n && *end == pk.keyTime(tr, c) && *end <= t && t < pk.keyTime(tr, c+1) {
		// The next pair: key c, the end, becomes the start, as stored (a
		// rotation may have been negated to match the key before it).
		t0, t1 := *end, pk.keyTime(tr, c+1)
		var inv float32
		if tr.every {
			inv = pk.inv[c]
		} else {
			inv = 1 / (t1 - t0)
		}
		if p == Rotation {
			pk.decode(p, tr, c, a[:])
		} else {
			for i := range nc {
				a[i] = g[groupLanes*(2+nc+i)]
			}
		}
		pk.decode(p, tr, c+1, b[:nc])
		if p == Rotation {
			alignQ(&a, &b)
		}
		setPair(g, nc, t0, inv, &a, &b)
		*end, *cur = t1, int32(c+1)
		return
	}
	*cur = 0
	if n < 2 {
		if n == 0 {
			a = pk.rest[p][j]
		} else {
			m := uint32(tr.bits)
			kept := nc
			if tr.xyz {
				kept = 3
			}
			for c := range kept {
				a[c] = math.Float32frombits(readBits(pk.data, int(tr.voff)*8+c*int(9+m), uint8(9+m)) << (23 - m))
			}
			if tr.xyz {
				a[0], a[1], a[2], a[3] = unitFromXYZ(a[0], a[1], a[2])
			}
		}
		setPair(g, nc, -math.MaxFloat32, 0, &a, &a)
		*end = math.MaxFloat32
		return
	}
	first, last := pk.keyTime(tr, 0), pk.keyTime(tr, n-1)
	switch {
	case !(t >= first): // before the keys, and NaN
		pk.decode(p, tr, 0, a[:nc])
		setPair(g, nc, -math.MaxFloat32, 0, &a, &a)
		*end = first
		return
	case t >= last:
		pk.decode(p, tr, n-1, a[:nc])
		setPair(g, nc, last, 0, &a, &a)
		*end = math.MaxFloat32
		return
	}
	lo := lastKeyAtOrBefore(n, t, func(k int) float32 { return pk.keyTime(tr, k) })
	t0, t1 := pk.keyTime(tr, lo), pk.keyTime(tr, lo+1)
	pk.decode(p, tr, lo, a[:nc])
	pk.decode(p, tr, lo+1, b[:nc])
	if p == Rotation {
		alignQ(&a, &b)
	}
	setPair(g, nc, t0, 1/(t1-t0), &a, &b)
	*end, *cur = t1, int32(lo+1)
}

// keyTime decodes the time of key k of tr.
func (pk *packedClip) keyTime(tr *packedTrack, k int) float32 {
	switch {
	case tr.every:
		return pk.times[k]
	case tr.mask:
		return pk.times[pk.maskSelect(tr, k)]
	}
	return pk.times[readBits(pk.data, int(tr.toff)*8+k*int(pk.timeBits), pk.timeBits)]
}

// maskSelect is the index in the table of the time of key k < tr.n of a
// track whose times are a mask: the place of its k-th set bit. The bits
// read past the mask's end (the values') come after its last set bit,
// which is found first.
func (pk *packedClip) maskSelect(tr *packedTrack, k int) int {
	return selectBit(pk.data, int(tr.toff)*8, k)
}

// decode writes the value of key k of tr, a track of path p, to v.
func (pk *packedClip) decode(p Path, tr *packedTrack, k int, v []float32) {
	d := pk.data
	if tr.bits == 32 {
		at := int(tr.voff) + 4*len(v)*k
		for c := range v {
			v[c] = math.Float32frombits(binary.LittleEndian.Uint32(d[at+4*c:]))
		}
		return
	}
	x, y, z := pk.decode3(tr, k)
	if p == Rotation {
		v = v[:4]
		v[0], v[1], v[2], v[3] = unitDropping(x, y, z, tr.drop)
		return
	}
	v = v[:3]
	v[0], v[1], v[2] = x, y, z
}

// unitDropping is the unit quaternion whose component drop (0 to 3: x,
// y, z, w) is ≥ 0 and whose other three, in order, are about a, b, c:
// unitFromXYZ with the rebuilt component put in its place.
func unitDropping(a, b, c float32, drop uint8) (x, y, z, w float32) {
	x, y, z, w = unitFromXYZ(a, b, c)
	switch drop {
	case 0:
		return w, x, y, z
	case 1:
		return x, w, y, z
	case 2:
		return x, y, w, z
	}
	return x, y, z, w
}

// unitFromXYZ is the unit quaternion with w ≥ 0 whose x, y, z are about
// those given: w = √(1 − x² − y² − z²), and where that is not real, w = 0
// and x, y, z normalized.
func unitFromXYZ(x, y, z float32) (float32, float32, float32, float32) {
	if ww := 1 - x*x - y*y - z*z; ww > 0 {
		return x, y, z, float32(math.Sqrt(float64(ww)))
	}
	return normQ(x, y, z, 0)
}

// lastKeyAtOrBefore is the last key k in [0, n−2] whose time is ≤ t, for
// t inside the keys (time(0) ≤ t < time(n−1)), by binary search over the
// keys' times.
func lastKeyAtOrBefore(n int, t float32, time func(k int) float32) int {
	lo, hi := 0, n-2
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if time(mid) <= t {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
