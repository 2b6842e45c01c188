package anim

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"sync/atomic"
)

// Sampling an uncompressed clip (ozz's SamplingJob, with float keys).
//
// The job's Cache holds every track's current key pair, per path: the
// pair's start time t0, its inverse span, the start values a (x, y, z, w)
// and the end values b, one lane per joint (padding lanes hold the
// identity), in groups of 8 lanes: 8 t0, 8 inv, 8 ax, … 8 bz (bw), then
// the next 8 joints (AoSoA). Sampling is one vector pass over the groups:
// u = clamp((t − t0)·inv), value = a + (b − a)·u, rotations normalized
// (nlerp) or slerped; a refill writes one group, four or five cache
// lines, with one bounds check.
//
// What keeps the cache current is the clip's key stream, one per path:
// every key pair after each track's first, as an entry {joint, t0, inv,
// b}, sorted by t0, the time from which the pair is the one to
// interpolate. Playing forward, a frame applies the entries its time has
// reached (the entry's b becomes the pair's end, the old end its start),
// reading the stream in order: no per-track test, and the keys needed next
// lie next to each other in memory. Going back to near the start (a
// loop's wrap) starts again from the clip's first pairs; going back
// further, or jumping far ahead, seeks: each track's pair by binary
// search in its own records, the stream's cursor by binary search in the
// stream.

// cacheStripe is where each path's pairs start in the cache, in stripes
// of the padded joint count: Translation and Scale have 8 floats per
// joint (t0, inv, a, b), Rotation 10.
var cacheStripe = [3]int{Translation: 0, Rotation: 8, Scale: 18}

// groupLanes is the lane count of a cache group.
const groupLanes = 8

// pairAt is the index, in a path's pairs of 8 (vec3) or 10 (rotation)
// floats per joint, of joint j's t0; its other floats follow 8 apart.
func pairAt(j, perJoint int) int {
	return j + (perJoint-1)*groupLanes*(j/groupLanes)
}

// firstStripe is the index in SoAPose.buf's stripes of each path's x.
var firstStripe = [3]int{Translation: 0, Rotation: 3, Scale: 7}

// cacheStripes is the stripe count of an uncompressed clip's cache.
const cacheStripes = 26

// streamHead floats start the cache: the time last sampled, the tag of
// the clip whose pairs it holds (0 before any), and per path the index of
// the stream's next entry to apply, its 32 bits stored as they are (moved,
// never computed with, so that no conversion runs each frame). A
// compressed clip's cache uses the tag, and in the third float the frames'
// cursor (advanceFrames), stored the same way. The sixth is the time the
// next entry of any stream begins, so that a frame that applies none
// costs one compare; the last two are unused: 8 keeps the groups after
// the head 32-byte aligned.
const streamHead = 8

// clipTags numbers the clips with key streams, so that a cache filled
// from one clip is not taken for another's.
var clipTags atomic.Uint32

// newClipTag is the next clip tag, exact in a float32 and never 0.
func newClipTag() float32 { return float32(clipTags.Add(1)%(1<<24-1) + 1) }

// readHead returns the cache head's stream cursors.
func readHead(h *[streamHead]float32) [3]int32 {
	return [3]int32{int32(math.Float32bits(h[2])), int32(math.Float32bits(h[3])), int32(math.Float32bits(h[4]))}
}

// writeHead stores the time, the clip's tag, the cursors and the time
// the next entry of any stream begins (+∞ past the last) in the head.
func (c *RuntimeClip) writeHead(h *[streamHead]float32, t float32, cur [3]int32) {
	h[0], h[1] = t, c.tag
	h[2], h[3], h[4] = math.Float32frombits(uint32(cur[0])), math.Float32frombits(uint32(cur[1])), math.Float32frombits(uint32(cur[2]))
	next := float32(math.Inf(1))
	for p, s := range c.stream {
		if i, ok := entryAt(s, cur[p], 3+Path(p).Components()); ok && i < uint64(len(s)) {
			next = min(next, s[i+1])
		}
	}
	h[5] = next
}

// buildStream builds the key streams from the clip's LINEAR lanes. STEP
// and CUBICSPLINE tracks are sampled apart (their lanes hold a constant
// shadow), one- and two-key tracks hold one pair at every time.
func (c *RuntimeClip) buildStream() {
	n := c.numJoints
	c.keyed = 0
	for p := range c.lanes {
		nc := Path(p).Components()
		stride := recHead + nc
		type entry struct {
			t    float32
			j, k int32
		}
		var es []entry
		for j, l := range c.lanes[p][:n] {
			for k := 1; k <= int(l.n)-2; k++ {
				es = append(es, entry{c.keys[int(l.off)+k*stride], int32(j), int32(k)})
			}
		}
		// Stable: a track's entries keep their order where times tie.
		slices.SortStableFunc(es, func(a, b entry) int { return cmp.Compare(a.t, b.t) })
		s := make([]float32, 0, len(es)*(3+nc))
		for _, e := range es {
			r := int(c.lanes[p][e.j].off) + int(e.k)*stride
			s = append(s, math.Float32frombits(uint32(pairAt(int(e.j), 2+2*nc))), c.keys[r], c.keys[r+1])
			s = append(s, c.keys[r+stride+recHead:r+stride+recHead+nc]...)
		}
		c.stream[p] = s
		if len(s) > 0 {
			c.keyed |= 1 << p
		}
	}
	c.tag = newClipTag()
	cache := make([]float32, streamHead+cacheStripes*soaPadded(n))
	c.seekStream(float32(math.Inf(-1)), cache)
	c.first = cache[streamHead:]
}

// advanceStream brings the cache's key pairs to time t: forward from the
// time sampled last, or from the first pairs, by the streams; otherwise
// by seekStream.
func (c *RuntimeClip) advanceStream(t float32, cache []float32) {
	if t != t {
		t = float32(math.Inf(-1)) // NaN holds the first key, as -∞ does
	}
	h := (*[streamHead]float32)(cache[:streamHead])
	if h[1] == c.tag && t >= h[0] && t < h[5] {
		// Forward, and no entry begins by t: every pair stays, as on most
		// frames of a clip keyed at 30 Hz or less played at 60 Hz.
		h[0] = t
		return
	}
	cur := readHead(h)
	if h[1] != c.tag || !(t >= h[0]) || c.mustSeek(t, cur) {
		if c.mustSeek(t, [3]int32{}) {
			c.seekStream(t, cache)
			return
		}
		copy(cache[streamHead:], c.first)
		cur = [3]int32{}
	}
	pad := soaPadded(c.numJoints)
	ca := cache[streamHead:]
	// A path without entries (no track of it has more than two keys, as
	// the translations and scales of many clips) has nothing to apply.
	// Each path gets its stripes capped at their end: advance3 and
	// advance4 reslice within the capacity they are given.
	if c.keyed&(1<<Translation) != 0 {
		t0, t1 := cacheStripe[Translation]*pad, cacheStripe[Rotation]*pad
		advance3(c.stream[Translation], &cur[Translation], t, ca[t0:t1:t1])
	}
	if c.keyed&(1<<Rotation) != 0 {
		r0, r1 := cacheStripe[Rotation]*pad, cacheStripe[Scale]*pad
		advance4(c.stream[Rotation], &cur[Rotation], t, ca[r0:r1:r1])
	}
	if c.keyed&(1<<Scale) != 0 {
		s0, s1 := cacheStripe[Scale]*pad, cacheStripes*pad
		advance3(c.stream[Scale], &cur[Scale], t, ca[s0:s1:s1])
	}
	c.writeHead(h, t, cur)
}

// entryAt is the index in stream s, of entries of w floats, of the entry
// cursor cur points at, and whether that lies within the stream, its end
// included: cur ≤ len(s)/w without a division, which runs every frame. A
// negative cursor is past the end. In 64 bits, so that the product cannot
// wrap where uint is 32.
func entryAt(s []float32, cur int32, w int) (uint64, bool) {
	i := uint64(uint32(cur)) * uint64(w)
	return i, i <= uint64(len(s))
}

// seekJoints × the joint count is how many entries of one stream a jump
// ahead may apply before a seek replaces it. An entry applied is a
// sequential copy; a seek is a binary search per lane, whose branches and
// key reads miss where many characters at different times share the clip
// (a crowd whose far members are evaluated every 4th frame jumps about
// two joint counts of entries per stream at 30 keys a second).
const seekJoints = 8

// mustSeek reports whether some stream would apply more than seekJoints ×
// the joint count entries to reach t, where a seek costs less, or has a
// cursor past its end (a cache head that is not a cache's).
func (c *RuntimeClip) mustSeek(t float32, cur [3]int32) bool {
	for p, s := range c.stream {
		if c.keyed&(1<<p) == 0 {
			continue
		}
		w := 3 + Path(p).Components()
		if _, ok := entryAt(s, cur[p], w); !ok {
			return true
		}
		if i := (int(cur[p]) + seekJoints*c.numJoints) * w; i < len(s) && s[i+1] <= t {
			return true
		}
	}
	return false
}

// seekStream fills the cache with each track's key pair around t (the
// last pair after the last key, the first before the first) and puts
// each stream's cursor after the entries that begin by t.
func (c *RuntimeClip) seekStream(t float32, cache []float32) {
	n, pad := c.numJoints, soaPadded(c.numJoints)
	var cur [3]int32
	for p := range c.lanes {
		nc := Path(p).Components()
		stride := recHead + nc
		ca := cache[streamHead+cacheStripe[p]*pad:]
		rest := restComponents(&IdentityTransform, Path(p))
		for j := range pad {
			t0, inv, a, b := float32(0), float32(0), rest[:nc], rest[:nc]
			if j < n {
				l := c.lanes[p][j]
				k := seekLane(c.keys, int(l.off), int(l.n)-2, stride, t)
				r := c.keys[int(l.off)+k*stride:]
				t0, inv, a, b = r[0], r[1], r[recHead:recHead+nc], r[stride+recHead:stride+recHead+nc]
			}
			x := pairAt(j, 2+2*nc)
			ca[x], ca[x+groupLanes] = t0, inv
			for i := range nc {
				ca[x+(2+i)*groupLanes], ca[x+(2+nc+i)*groupLanes] = a[i], b[i]
			}
		}
		s, w := c.stream[p], 3+nc
		cur[p] = int32(sort.Search(len(s)/w, func(i int) bool { return s[i*w+1] > t }))
	}
	c.writeHead((*[streamHead]float32)(cache[:streamHead]), t, cur)
}

// advance3 applies the entries of a translation or scale stream s from
// *cur that begin by t to its pairs ca. It walks a shrinking slice of the
// stream, so that each entry costs one length test and one bounds check
// on its pair, not a check per access (indexing the stream ran more
// instructions: docs/performance.md), and takes the pair's place from the entry,
// computed when the stream was built (pairAt: a shift, a multiply and two
// adds an entry).
func advance3(s []float32, cur *int32, t float32, ca []float32) {
	const w = 6
	r := s[min(int(*cur)*w, len(s)):]
	for len(r) >= w && r[1] <= t {
		e := (*[w]float32)(r[:w])
		x := int(math.Float32bits(e[0]))
		g := (*[7*groupLanes + 1]float32)(ca[x : x+7*groupLanes+1])
		g[0], g[8] = e[1], e[2]
		g[16], g[40] = g[40], e[3]
		g[24], g[48] = g[48], e[4]
		g[32], g[56] = g[56], e[5]
		r = r[w:]
	}
	*cur = int32((len(s) - len(r)) / w)
}

// advance4 is advance3 for a rotation stream. The two stay apart: one
// loop over the component count, with its offsets computed, made sampling
// slower (docs/performance.md has the measurement).
func advance4(s []float32, cur *int32, t float32, ca []float32) {
	const w = 7
	r := s[min(int(*cur)*w, len(s)):]
	for len(r) >= w && r[1] <= t {
		e := (*[w]float32)(r[:w])
		x := int(math.Float32bits(e[0]))
		g := (*[9*groupLanes + 1]float32)(ca[x : x+9*groupLanes+1])
		g[0], g[8] = e[1], e[2]
		g[16], g[48] = g[48], e[3]
		g[24], g[56] = g[56], e[4]
		g[32], g[64] = g[64], e[5]
		g[40], g[72] = g[72], e[6]
		r = r[w:]
	}
	*cur = int32((len(s) - len(r)) / w)
}

// interpolateGeneric is the portable interpolation pass: the cache's
// pairs (after streamHead) at time t into out's first n joints, but for
// the paths still marks (RuntimeClip.still), which the caller copied.
func interpolateGeneric(ca []float32, n int, t float32, nlerp bool, still uint8, out *SoAPose) {
	pad := len(out.tx)
	// Group by group, lane by lane: each lane's pair starts at the
	// group's start plus the lane.
	for _, p := range [2]Path{Translation, Scale} {
		if still&(1<<p) != 0 {
			continue
		}
		s := ca[cacheStripe[p]*pad : (cacheStripe[p]+8)*pad]
		o := out.buf[firstStripe[p]*pad:]
		ox, oy, oz := o[:n], o[pad:pad+n], o[2*pad:2*pad+n]
		for j0 := 0; j0 < n; j0 += groupLanes {
			for l := range min(groupLanes, n-j0) {
				g := (*[7*groupLanes + 1]float32)(s[8*j0+l:])
				u := Clamp01((t - g[0]) * g[8])
				ox[j0+l] = g[16] + (g[40]-g[16])*u
				oy[j0+l] = g[24] + (g[48]-g[24])*u
				oz[j0+l] = g[32] + (g[56]-g[32])*u
			}
		}
	}
	if still&(1<<Rotation) != 0 {
		return
	}
	s := ca[cacheStripe[Rotation]*pad : (cacheStripe[Rotation]+10)*pad]
	ox, oy, oz, ow := out.qx[:n], out.qy[:n], out.qz[:n], out.qw[:n]
	for j0 := 0; j0 < n; j0 += groupLanes {
		for l := range min(groupLanes, n-j0) {
			g := (*[9*groupLanes + 1]float32)(s[10*j0+l:])
			u := Clamp01((t - g[0]) * g[8])
			ax, ay, az, aw, bx, by, bz, bw := g[16], g[24], g[32], g[40], g[48], g[56], g[64], g[72]
			var x, y, z, w float32
			if nlerp {
				// Keys are hemisphere-aligned at build time: no sign test.
				v := 1 - u
				x, y, z, w = normQ(v*ax+u*bx, v*ay+u*by, v*az+u*bz, v*aw+u*bw)
			} else {
				x, y, z, w = slerpPoly(ax, ay, az, aw, bx, by, bz, bw, u)
			}
			ox[j0+l], oy[j0+l], oz[j0+l], ow[j0+l] = x, y, z, w
		}
	}
}
