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
//     times, as many bits each as the table needs, and none for a track
//     that keys every time of the table; a table evenly spaced but for
//     rounding is three numbers (evenTimes).
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
// packed again.
//
// A packed clip samples through SampleSoAJob like any other: each track's
// current key pair is decoded into the job's Cache (ozz's sampling
// context) when the time leaves it, and interpolation reads the cache, so
// that playback decodes a key only when it crosses one. CUBICSPLINE
// tracks are sampled densely and packed as LINEAR keys where that makes
// the clip smaller (sampleCurves); STEP tracks and morph weights stay as
// they are.

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
}

// CompressReport tells how a clip compressed.
type CompressReport struct {
	// Clip is the clip's name.
	Clip string
	// RawBytes is the size of the clip's keys as float32: its glTF
	// accessors (Clip.SourceBytes), else its tracks' times and values.
	RawBytes int
	// Bytes is the size of the compressed clip: packed tracks, time table,
	// track descriptors and the tracks kept as they were.
	Bytes int
	// MaxError and P99Error are the worst and 99th-percentile virtual-vertex
	// error over every joint and checked time, in model units.
	MaxError, P99Error float64
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
	// step is the times' spacing where they are evenly spaced (evenTimes),
	// 0 otherwise; the first time and the step keep timeMant mantissa
	// bits.
	step     float32
	timeMant uint8
	// inv[i] is 1/(times[i+1] − times[i]), the inverse span of a track
	// that keys every time.
	inv []float32
	// frame lists the quantized tracks that key every time, which lie in
	// frames: frameBits bits per time from bit frameStart, all their codes
	// for that time.
	frame                 []frameTrack
	frameStart, frameBits uint32
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
//     of each that has bits (float32), value = min + step·code;
//   - unless every is set (the track keys every time of the table), n
//     time indices of timeBits bits;
//   - its values: with bits < 32, three codes of cbits[c] bits per key,
//     with bits = 32 the components as float32.
//
// Quantized rotations code three components, in order, of the key made
// to have the fourth, drop, ≥ 0, and rebuild that one as the root of one
// less the others' squares (unitDropping); drop is w for most tracks. Bits
// are packed least significant first.
type packedTrack struct {
	off, toff, voff uint32 // byte offsets of the ranges, times and values
	// vbit is the bit offset of key 0's codes, kbits the bits from one
	// key's codes to the next'; for a quantized track that keys every time
	// both place it in the clip's frames.
	vbit, kbits uint32
	n           uint32
	// bits is 32 for float32 values, the widest component's for coded
	// ones, the mantissa bits kept for a constant track; cbits are a
	// coded track's bits per component.
	bits  uint8
	cbits [3]uint8
	// rbits are the mantissa bits its ranges keep in data; xyz says a
	// constant rotation keeps x, y, z and rebuilds w ≥ 0.
	rbits uint8
	xyz   bool
	every bool
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
// bytes anywhere in it.
const dataPad = 8

// readBits reads w ≤ 32 bits at bit offset at.
func readBits(d []byte, at int, w uint8) uint32 {
	x := binary.LittleEndian.Uint64(d[at>>3:])
	return uint32(x>>(at&7)) & (1<<w - 1)
}

// codedComponents is the number of components a track of path p codes at
// bits.
func codedComponents(p Path, bits uint8) int {
	if p == Rotation && bits < 32 {
		return 3
	}
	return p.Components()
}

// CacheLen is the length of the float cache SampleSoAJob needs: one key
// pair per joint and path, for an uncompressed clip in groups of 8 joints
// after a head (keystream.go), for a packed one as records.
func (c *RuntimeClip) CacheLen() int {
	if c.pk == nil {
		return streamHead + cacheStripes*soaPadded(c.numJoints)
	}
	off := cacheOffsets(c.numJoints)
	return off[2] + 2*(recHead+3)*c.numJoints
}

// Compressed reports whether the clip was built by CompressClip.
func (c *RuntimeClip) Compressed() bool { return c.pk != nil }

// cacheOffsets are where each path's records start in the cache, per
// joint count n.
func cacheOffsets(n int) [3]int {
	return [3]int{0, 2 * (recHead + 3) * n, 2*(recHead+3)*n + 2*(recHead+4)*n}
}

// samplePacked is the sampler of a packed clip: the tracks in frames
// brought to t together (advanceFrames), then per track, the cached key
// pair refilled where t has left it, and interpolated.
func samplePacked(c *RuntimeClip, t float32, nlerp bool, cursors []int32, cache []float32, out *SoAPose) {
	n := c.numJoints
	pk := c.pk
	if len(pk.frame) > 0 {
		pk.advanceFrames(t, &cursors[len(cursors)-1], cache)
	}
	off := cacheOffsets(n)
	pk.sampleVec3(Translation, t, cursors[:n], cache[off[0]:off[1]], out.tx[:n], out.ty[:n], out.tz[:n])
	pk.sampleQuat(t, nlerp, cursors[n:2*n], cache[off[1]:off[2]], out.qx[:n], out.qy[:n], out.qz[:n], out.qw[:n])
	pk.sampleVec3(Scale, t, cursors[2*n:3*n], cache[off[2]:], out.sx[:n], out.sy[:n], out.sz[:n])
	if len(c.other) > 0 {
		sampleOtherLanes(c, t, cursors, out)
	}
}

// frameTrack is a track laid out in the frames, with what decoding needs.
type frameTrack struct {
	rot   bool
	drop  uint8 // packedTrack.drop
	cbits [3]uint8
	// oneLoad says the codes fit one 64-bit load; then y's code starts
	// at bit sh1, z's at sh2, and mask are the three codes' masks.
	oneLoad  bool
	sh1, sh2 uint8
	mask     [3]uint32
	rec      uint32 // where its key pair is in the cache
	bit      uint32 // its codes' bit offset in a frame
	lo, step [3]float32
}

// advanceFrames brings the key pairs of every track in the frames to t:
// nothing while t stays between the two times cached (g = k+1 for times k
// and k+1, 0 for none), the next frame decoded into every pair when
// playback crossed one time, both frames around t after a jump. Outside
// the table's times it leaves them to refill.
func (pk *packedClip) advanceFrames(t float32, g *int32, cache []float32) {
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
		pk.shiftFrames(c+1, cache)
		*g = int32(c + 2)
		return
	}
	k, _ := slices.BinarySearch(times, t) // the first time ≥ t
	if k > last || times[k] > t {
		k--
	}
	pk.fillFrames(k, cache)
	*g = int32(k + 1)
}

// frameCodes decodes the codes of frame track f at frame k.
func (pk *packedClip) frameCodes(f *frameTrack, k int) (x, y, z float32) {
	return unpack3(pk.data, uint(pk.frameStart)+uint(k)*uint(pk.frameBits)+uint(f.bit), &f.cbits, &f.lo, &f.step)
}

// unpack3 decodes three codes of cb[0], cb[1] and cb[2] bits from bit at
// of data: lo + step·code each.
func unpack3(data []byte, at uint, cb *[3]uint8, lo, step *[3]float32) (x, y, z float32) {
	b0, b1, b2 := uint(cb[0]), uint(cb[1]), uint(cb[2])
	var qx, qy, qz uint64
	if b0+b1+b2 <= maxOneLoadBits {
		v := binary.LittleEndian.Uint64(data[at>>3:]) >> (at & 7)
		qx, qy, qz = v&(1<<b0-1), v>>b0&(1<<b1-1), v>>(b0+b1)&(1<<b2-1)
	} else {
		qx = uint64(readBits(data, int(at), uint8(b0)))
		qy = uint64(readBits(data, int(at+b0), uint8(b1)))
		qz = uint64(readBits(data, int(at+b0+b1), uint8(b2)))
	}
	// Codes go to floats through int64: converting an unsigned integer
	// costs a branch and more.
	return lo[0] + step[0]*float32(int64(qx)), lo[1] + step[1]*float32(int64(qy)), lo[2] + step[2]*float32(int64(qz))
}

// shiftFrames makes every frame track's pair frames k and k+1, from the
// pair k−1, k it holds.
func (pk *packedClip) shiftFrames(k int, cache []float32) {
	t0, t1, inv := pk.times[k], pk.times[k+1], pk.inv[k]
	data := pk.data
	at0 := uint(pk.frameStart) + uint(k+1)*uint(pk.frameBits)
	for i := range pk.frame {
		f := &pk.frame[i]
		var x, y, z float32
		if f.oneLoad {
			// frameCodes, written out, masks and shifts made ahead: a
			// call here costs a fifth.
			at := at0 + uint(f.bit)
			v := binary.LittleEndian.Uint64(data[at>>3:]) >> (at & 7)
			x = f.lo[0] + f.step[0]*float32(int64(uint32(v)&f.mask[0]))
			y = f.lo[1] + f.step[1]*float32(int64(uint32(v>>(f.sh1&63))&f.mask[1]))
			z = f.lo[2] + f.step[2]*float32(int64(uint32(v>>(f.sh2&63))&f.mask[2]))
		} else {
			x, y, z = pk.frameCodes(f, k+1)
		}
		if !f.rot {
			r := (*[2 * (recHead + 3)]float32)(cache[f.rec:])
			r[0], r[1], r[2], r[3], r[4] = t0, inv, r[7], r[8], r[9]
			r[5], r[7], r[8], r[9] = t1, x, y, z
			continue
		}
		r := (*[2 * (recHead + 4)]float32)(cache[f.rec:])
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
		ax, ay, az, aw := r[8], r[9], r[10], r[11]
		if d := r[8+f.drop&3]; d < 0 || (d == 0 && math.Signbit(float64(d))) {
			ax, ay, az, aw = -ax, -ay, -az, -aw
		}
		if ax*x+ay*y+az*z+aw*w < 0 {
			x, y, z, w = -x, -y, -z, -w
		}
		r[0], r[1], r[2], r[3], r[4], r[5] = t0, inv, ax, ay, az, aw
		r[6], r[8], r[9], r[10], r[11] = t1, x, y, z, w
	}
}

// fillFrames decodes frames k and k+1 into every frame track's pair.
func (pk *packedClip) fillFrames(k int, cache []float32) {
	t0, t1, inv := pk.times[k], pk.times[k+1], pk.inv[k]
	for i := range pk.frame {
		f := &pk.frame[i]
		ax, ay, az := pk.frameCodes(f, k)
		x, y, z := pk.frameCodes(f, k+1)
		if !f.rot {
			r := (*[2 * (recHead + 3)]float32)(cache[f.rec:])
			r[0], r[1], r[2], r[3], r[4] = t0, inv, ax, ay, az
			r[5], r[6], r[7], r[8], r[9] = t1, 0, x, y, z
			continue
		}
		r := (*[2 * (recHead + 4)]float32)(cache[f.rec:])
		ax, ay, az, aw := unitDropping(ax, ay, az, f.drop)
		x, y, z, w := unitDropping(x, y, z, f.drop)
		if ax*x+ay*y+az*z+aw*w < 0 {
			x, y, z, w = -x, -y, -z, -w
		}
		r[0], r[1], r[2], r[3], r[4], r[5] = t0, inv, ax, ay, az, aw
		r[6], r[7], r[8], r[9], r[10], r[11] = t1, 0, x, y, z, w
	}
}

// maxOneLoadBits is the most bits of codes that, at any bit offset, fit
// in one 64-bit load.
const maxOneLoadBits = 57

// sampleVec3 samples every translation or scale track of path p: where t
// has left a track's cached pair, refill; then the interpolation. It and
// sampleQuat share their head by hand: as a function (not inlined, for
// the call to refill) it costs half again on the frames between keys.
func (pk *packedClip) sampleVec3(p Path, t float32, cur []int32, recs []float32, ox, oy, oz []float32) {
	const stride = recHead + 3
	n := len(pk.tracks[p])
	cur, recs = cur[:n], recs[:2*stride*n]
	ox, oy, oz = ox[:n], oy[:n], oz[:n]
	for j := range n {
		r := (*[2 * stride]float32)(recs[j*2*stride:])
		var u float32
		if r[0] <= t && t < r[stride] {
			u = (t - r[0]) * r[1]
		} else {
			pk.refill(p, j, t, &cur[j], r[:])
			u = clamp01((t - r[0]) * r[1])
		}
		ox[j] = r[2] + (r[stride+2]-r[2])*u
		oy[j] = r[3] + (r[stride+3]-r[3])*u
		oz[j] = r[4] + (r[stride+4]-r[4])*u
	}
}

// sampleQuat is sampleVec3 for rotations, interpolated as
// interpolateGeneric does.
func (pk *packedClip) sampleQuat(t float32, nlerp bool, cur []int32, recs []float32, ox, oy, oz, ow []float32) {
	const stride = recHead + 4
	n := len(pk.tracks[Rotation])
	cur, recs = cur[:n], recs[:2*stride*n]
	ox, oy, oz, ow = ox[:n], oy[:n], oz[:n], ow[:n]
	for j := range n {
		r := (*[2 * stride]float32)(recs[j*2*stride:])
		var u float32
		if r[0] <= t && t < r[stride] {
			u = (t - r[0]) * r[1]
		} else {
			pk.refill(Rotation, j, t, &cur[j], r[:])
			u = clamp01((t - r[0]) * r[1])
		}
		var x, y, z, w float32
		if nlerp {
			v := 1 - u
			x, y, z, w = normQ(v*r[2]+u*r[8], v*r[3]+u*r[9], v*r[4]+u*r[10], v*r[5]+u*r[11])
		} else {
			x, y, z, w = slerpPoly(r[2], r[3], r[4], r[5], r[8], r[9], r[10], r[11], u)
		}
		ox[j], oy[j], oz[j], ow[j] = x, y, z, w
	}
}

// decode3 decodes the three codes of key k of a quantized track.
func (pk *packedClip) decode3(tr *packedTrack, k int) (x, y, z float32) {
	return unpack3(pk.data, uint(tr.vbit)+uint(k)*uint(tr.kbits), &tr.cbits, &tr.lo, &tr.step)
}

// refill decodes into r (two records, as RuntimeClip.keys lays them out)
// the key pair of path p, joint j around t, so that r[0] ≤ t < r[stride]:
// outside the keys, and for constant tracks, a pair of equal values with
// zero inverse span whose outer time is ∓MaxFloat32. The cursor is k+1
// while r holds keys k and k+1, 0 while it holds anything else (a zero
// cache), so that playback crossing one key shifts the pair and decodes
// only the new key.
func (pk *packedClip) refill(p Path, j int, t float32, cur *int32, r []float32) {
	nc := p.Components()
	stride := recHead + nc
	tr := &pk.tracks[p][j]
	n := int(tr.n)
	r = r[:2*stride]
	if c := int(*cur); c > 0 && c+1 < n && r[stride] == pk.keyTime(tr, c) && r[stride] <= t && t < pk.keyTime(tr, c+1) {
		// The next pair: key c becomes the first record, as stored (a
		// rotation may have been negated to match the key before it).
		copy(r[:stride], r[stride:])
		if p == Rotation {
			pk.decode(p, tr, c, r[recHead:stride])
		}
		t1 := pk.keyTime(tr, c+1)
		if tr.every {
			r[1] = pk.inv[c]
		} else {
			r[1] = 1 / (t1 - r[0])
		}
		r[stride], r[stride+1] = t1, 0
		pk.decode(p, tr, c+1, r[stride+recHead:2*stride])
		if p == Rotation {
			alignHemisphere(r[recHead:])
		}
		*cur = int32(c + 1)
		return
	}
	*cur = 0
	if n < 2 {
		v := r[recHead:stride]
		if n == 0 {
			copy(v, pk.rest[p][j][:nc])
		} else {
			m := uint32(tr.bits)
			kept := nc
			if tr.xyz {
				kept = 3
			}
			for c := range kept {
				v[c] = math.Float32frombits(readBits(pk.data, int(tr.voff)*8+c*int(9+m), uint8(9+m)) << (23 - m))
			}
			if tr.xyz {
				v[0], v[1], v[2], v[3] = unitFromXYZ(v[0], v[1], v[2])
			}
		}
		r[0], r[1] = -math.MaxFloat32, 0
		copy(r[stride:], r[:stride])
		r[stride] = math.MaxFloat32
		return
	}
	first, last := pk.keyTime(tr, 0), pk.keyTime(tr, n-1)
	switch {
	case !(t >= first): // before the keys, and NaN
		pk.decode(p, tr, 0, r[recHead:stride])
		r[0], r[1] = -math.MaxFloat32, 0
		copy(r[stride:], r[:stride])
		r[stride] = first
		return
	case t >= last:
		pk.decode(p, tr, n-1, r[recHead:stride])
		r[0], r[1] = last, 0
		copy(r[stride:], r[:stride])
		r[stride] = math.MaxFloat32
		return
	}
	// Binary search for the last key ≤ t.
	lo, hi := 0, n-2
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if pk.keyTime(tr, mid) <= t {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	t0, t1 := pk.keyTime(tr, lo), pk.keyTime(tr, lo+1)
	r[0], r[1] = t0, 1/(t1-t0)
	r[stride], r[stride+1] = t1, 0
	pk.decode(p, tr, lo, r[recHead:stride])
	pk.decode(p, tr, lo+1, r[stride+recHead:2*stride])
	if p == Rotation {
		alignHemisphere(r[recHead:])
	}
	*cur = int32(lo + 1)
}

// keyTime decodes the time of key k of tr.
func (pk *packedClip) keyTime(tr *packedTrack, k int) float32 {
	if tr.every {
		return pk.times[k]
	}
	return pk.times[readBits(pk.data, int(tr.toff)*8+k*int(pk.timeBits), pk.timeBits)]
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
