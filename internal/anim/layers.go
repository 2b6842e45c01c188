package anim

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Pose operations of blend trees, on SoA poses. Each writes into a pose
// the caller owns and allocates nothing. Unless a function says otherwise,
// out may be any of its inputs: each joint is read before it is written.
// Poses of different lengths are a programmer error and panic.

func checkLen(op string, out, a, b *SoAPose) {
	if a.n != out.n || b.n != out.n {
		lenPanic(op, out, a, b)
	}
}

// lenPanic is checkLen's panic, out of line so that checkLen inlines (a
// variadic form built its slice on every blend).
func lenPanic(op string, out, a, b *SoAPose) {
	p := a
	if p.n == out.n {
		p = b
	}
	panic(fmt.Sprintf("anim: %s of a %d-joint pose into %d joints", op, p.n, out.n))
}

// copyJoint sets joint i of p to joint i of src.
func (p *SoAPose) copyJoint(i int, src *SoAPose) {
	p.tx[i], p.ty[i], p.tz[i] = src.tx[i], src.ty[i], src.tz[i]
	p.qx[i], p.qy[i], p.qz[i], p.qw[i] = src.qx[i], src.qy[i], src.qz[i], src.qw[i]
	p.sx[i], p.sy[i], p.sz[i] = src.sx[i], src.sy[i], src.sz[i]
}

// sameJoint reports whether joint i of p and of q, poses of one length,
// are equal: a walk down the ten stripes of buf, short enough to inline.
func (p *SoAPose) sameJoint(i int, q *SoAPose) bool {
	a, b := p.buf, q.buf
	b = b[:len(a)]
	for k := i; k < len(a); k += len(a) / 10 {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// laneMasks holds one bit per joint for 64 blocks of soaLanes joints, the
// joints a layer leaves alone as sameMasks and identityMasks find them:
// block k of a chunk of 512 joints in m[k], joint l of the block in bit l.
type laneMasks [64]uint8

// chunkJoints is the number of joints one laneMasks covers.
const chunkJoints = len(laneMasks{}) * soaLanes

// has reports joint i's bit, i counted from the start of the pose.
func (m *laneMasks) has(i int) bool { return m[i/soaLanes%len(m)]>>(i%soaLanes)&1 != 0 }

// identityJoint sets joint i of p to the identity transform.
func (p *SoAPose) identityJoint(i int) {
	p.tx[i], p.ty[i], p.tz[i] = 0, 0, 0
	p.qx[i], p.qy[i], p.qz[i], p.qw[i] = 0, 0, 0, 1
	p.sx[i], p.sy[i], p.sz[i] = 1, 1, 1
}

// identityAt reports whether joint i of p is the identity transform.
func (p *SoAPose) identityAt(i int) bool {
	return p.tx[i] == 0 && p.ty[i] == 0 && p.tz[i] == 0 &&
		p.qx[i] == 0 && p.qy[i] == 0 && p.qz[i] == 0 && p.qw[i] == 1 &&
		p.sx[i] == 1 && p.sy[i] == 1 && p.sz[i] == 1
}

// lanesEnd is where the layers' lanes stop: out's padded length where
// mask is nil or reaches it (its capacity), so that the last block runs
// in lanes with the others, or out.Len(). Every pose's padding lanes hold
// the identity, in a, b, base and diff alike, and the layers leave a lane
// that two poses hold alike (or whose difference is the identity) as it
// is, whatever weight the mask's capacity holds there.
func lanesEnd(out *SoAPose, mask []float32) int {
	if mask == nil || cap(mask) >= len(out.tx) {
		return len(out.tx)
	}
	return out.n
}

// MaskedBlendSoA is a partial-skeleton BlendSoA: joint i is blended with
// weight w·mask[i], so joints where the mask is 0 keep a and joints where
// it is 1 follow b by w. Per-joint weights ≤ 0 or ≥ 1 copy the joint bit
// for bit, as do joints where a and b are equal. A nil mask weighs every
// joint 1. len(mask) ≥ out.Len() when not nil; a mask whose capacity
// reaches the stripes' padding (Len() rounded up to 8) lets the last block
// run in lanes too (lanesEnd).
func MaskedBlendSoA(out, a, b *SoAPose, w float32, mask []float32, nlerp bool) {
	if mask == nil {
		BlendSoA(out, a, b, w, nlerp)
		return
	}
	checkLen("masked blend", out, a, b)
	end := lanesEnd(out, mask)
	mask = mask[:max(end, out.n)]
	// Whole blocks of 8 joints in lanes where the layers run in lanes, the
	// rest one by one.
	alike := heldAlike(out, a, b)
	i := maskedLanes(out, a, b, w, mask, nlerp, end, alike)
	maskedJoints(out, a, b, w, mask, nlerp, i, out.n, alike)
	lerpW(out, a, b, w, mask)
	out.Motion = a.Motion // a mask overlays a part of the body: the base moves it
}

// maskedJoints is MaskedBlendSoA's joint-by-joint arithmetic, for joints
// from to end; it leaves the paths alike marks (heldAlike).
func maskedJoints(out, a, b *SoAPose, w float32, mask []float32, nlerp bool, from, end int, alike uint8) {
	for i := from; i < end; i++ {
		wi := w * mask[i]
		switch {
		case wi <= 0 || wi < 1 && a.sameJoint(i, b): // a joint the layer leaves as a has it
			if out != a {
				out.copyJoint(i, a)
			}
		case wi >= 1:
			if out != b {
				out.copyJoint(i, b)
			}
		default:
			if alike&(1<<Translation) == 0 {
				out.tx[i] = a.tx[i] + (b.tx[i]-a.tx[i])*wi
				out.ty[i] = a.ty[i] + (b.ty[i]-a.ty[i])*wi
				out.tz[i] = a.tz[i] + (b.tz[i]-a.tz[i])*wi
			}
			if alike&(1<<Scale) == 0 {
				out.sx[i] = a.sx[i] + (b.sx[i]-a.sx[i])*wi
				out.sy[i] = a.sy[i] + (b.sy[i]-a.sy[i])*wi
				out.sz[i] = a.sz[i] + (b.sz[i]-a.sz[i])*wi
			}
			if nlerp {
				out.qx[i], out.qy[i], out.qz[i], out.qw[i] = nlerpQ(a.qx[i], a.qy[i], a.qz[i], a.qw[i], b.qx[i], b.qy[i], b.qz[i], b.qw[i], wi)
			} else {
				out.qx[i], out.qy[i], out.qz[i], out.qw[i] = slerpPoly(a.qx[i], a.qy[i], a.qz[i], a.qw[i], b.qx[i], b.qy[i], b.qz[i], b.qw[i], wi)
			}
		}
	}
}

// The flat weighted average of GEA §12.10.1, for three or more poses, in
// three steps: AverageStart scales the first pose into an accumulator,
// AverageAdd adds each further one, AverageFinish divides by the total
// weight and normalizes rotations. Rotations are summed each flipped into
// the hemisphere of the running sum (q and −q are one rotation). Between
// the steps acc holds weighted sums, not a pose; it must not be any of the
// poses added later. Every pose has acc's length; nothing is allocated.

// AverageStart starts a weighted average in acc with pose p, weight w
// (acc may be p).
func AverageStart(acc, p *SoAPose, w float32) {
	acc.held = [3]heldTag{}
	checkLen("average", acc, p, p)
	n := acc.n
	for i := range n {
		acc.tx[i], acc.ty[i], acc.tz[i] = p.tx[i]*w, p.ty[i]*w, p.tz[i]*w
		acc.sx[i], acc.sy[i], acc.sz[i] = p.sx[i]*w, p.sy[i]*w, p.sz[i]*w
		acc.qx[i], acc.qy[i], acc.qz[i], acc.qw[i] = p.qx[i]*w, p.qy[i]*w, p.qz[i]*w, p.qw[i]*w
	}
	for k := range acc.W {
		acc.W[k] = p.W[k] * w
	}
	acc.Motion = Transform{Translation: p.Motion.Translation.Mul(w), Rotation: p.Motion.Rotation.Scale(w)}
}

// AverageAdd adds pose p, weight w, to the average in acc.
func AverageAdd(acc, p *SoAPose, w float32) {
	checkLen("average", acc, p, p)
	n := acc.n
	for i := range n {
		acc.tx[i] += p.tx[i] * w
		acc.ty[i] += p.ty[i] * w
		acc.tz[i] += p.tz[i] * w
		acc.sx[i] += p.sx[i] * w
		acc.sy[i] += p.sy[i] * w
		acc.sz[i] += p.sz[i] * w
		qw := w
		if acc.qx[i]*p.qx[i]+acc.qy[i]*p.qy[i]+acc.qz[i]*p.qz[i]+acc.qw[i]*p.qw[i] < 0 {
			qw = -w // q and −q are one rotation: add the one on our side
		}
		acc.qx[i] += p.qx[i] * qw
		acc.qy[i] += p.qy[i] * qw
		acc.qz[i] += p.qz[i] * qw
		acc.qw[i] += p.qw[i] * qw
	}
	for k := range acc.W {
		acc.W[k] += p.W[k] * w
	}
	q := p.Motion.Rotation
	if acc.Motion.Rotation.Dot(q) < 0 {
		q = q.Scale(-1)
	}
	acc.Motion.Translation = acc.Motion.Translation.Add(p.Motion.Translation.Mul(w))
	acc.Motion.Rotation = acc.Motion.Rotation.Add(q.Scale(w))
}

// AverageFinish makes acc the average pose: the sums over total, the sum
// of the weights (> 0), rotations normalized.
func AverageFinish(acc *SoAPose, total float32) {
	inv := 1 / total
	for i := range acc.n {
		acc.tx[i], acc.ty[i], acc.tz[i] = acc.tx[i]*inv, acc.ty[i]*inv, acc.tz[i]*inv
		acc.sx[i], acc.sy[i], acc.sz[i] = acc.sx[i]*inv, acc.sy[i]*inv, acc.sz[i]*inv
		acc.qx[i], acc.qy[i], acc.qz[i], acc.qw[i] = normQ(acc.qx[i], acc.qy[i], acc.qz[i], acc.qw[i])
	}
	for k := range acc.W {
		acc.W[k] *= inv
	}
	acc.Motion.Translation = acc.Motion.Translation.Mul(inv)
	acc.Motion.Rotation = acc.Motion.Rotation.Normalize()
	acc.Motion.Scale = mgl32.Vec3{1, 1, 1}
}

// qmul is the Hamilton product a ⊗ b (apply b, then a).
func qmul(ax, ay, az, aw, bx, by, bz, bw float32) (x, y, z, w float32) {
	return aw*bx + bw*ax + ay*bz - az*by,
		aw*by + bw*ay + az*bx - ax*bz,
		aw*bz + bw*az + ax*by - ay*bx,
		aw*bw - ax*bx - ay*by - az*bz
}

// DifferenceSoA computes the additive difference D of src against ref, per
// joint: translation src − ref, rotation ref⁻¹ ⊗ src, scale src / ref per
// component (1 where the reference scale is 0, which has no inverse).
// A joint where src and ref are equal (a joint the clip leaves as the
// reference has it) differs by the identity exactly. AddSoA(base, D, 1)
// with base = ref gives src back. out may be src.
func DifferenceSoA(out, src, ref *SoAPose) {
	checkLen("difference", out, src, ref)
	out.held = [3]heldTag{}
	var same laneMasks  // the joints where src and ref are equal, a chunk at a time
	lanes := layerLanes // where not, the joints are tested one at a time
	for c := 0; c < out.n; c += chunkJoints {
		alike := sameMasks(src, ref, c, &same)
		for i := c; i < min(c+chunkJoints, out.n); i++ {
			if alike && same.has(i) || !lanes && src.sameJoint(i, ref) {
				out.identityJoint(i)
				continue
			}
			out.tx[i], out.ty[i], out.tz[i] = src.tx[i]-ref.tx[i], src.ty[i]-ref.ty[i], src.tz[i]-ref.tz[i]
			out.qx[i], out.qy[i], out.qz[i], out.qw[i] = normQ(qmul(-ref.qx[i], -ref.qy[i], -ref.qz[i], ref.qw[i], src.qx[i], src.qy[i], src.qz[i], src.qw[i]))
			out.sx[i], out.sy[i], out.sz[i] = ratio(src.sx[i], ref.sx[i]), ratio(src.sy[i], ref.sy[i]), ratio(src.sz[i], ref.sz[i])
		}
	}
	for k := range out.W { // morph weights add: the difference is src − ref
		out.W[k] = src.W[k] - ref.W[k]
	}
}

func ratio(a, b float32) float32 {
	if b == 0 {
		return 1
	}
	return a / b
}

// AddSoA applies a difference pose (see DifferenceSoA) to base with weight
// w, joint i weighted w·mask[i] (nil mask: every joint 1): rotation base ⊗
// slerp(identity, D, w), translation base + w·D, scale base · D^w per
// component. w = 0 copies base exactly, and so does a joint whose
// difference is the identity exactly; a joint weight of 1 skips the slerp
// and the power. Weights above 1 exaggerate the difference. A negative
// scale ratio (a mirror) cannot be raised to a fractional power; it is
// interpolated linearly from 1 instead. A mask's capacity is read as
// MaskedBlendSoA's is (lanesEnd).
func AddSoA(out, base, diff *SoAPose, w float32, mask []float32) {
	checkLen("additive blend", out, base, diff)
	if w == 0 {
		if out != base {
			out.CopyFrom(base)
		}
		return
	}
	if mask != nil {
		mask = mask[:max(lanesEnd(out, mask), out.n)]
	}
	held := heldIdentity(out, base, diff)
	var still laneMasks // the joints whose difference is the identity, a chunk at a time
	for c := 0; c < out.n; c += chunkJoints {
		alike := identityMasks(diff, c, &still)
		end := min(c+chunkJoints, out.n)
		// Whole blocks of 8 joints in lanes where the layers run in lanes,
		// the rest one by one.
		i := addLanes(out, base, diff, w, mask, c, min(c+chunkJoints, lanesEnd(out, mask)), &still, alike, held)
		addJoints(out, base, diff, w, mask, i, end, &still, alike, held)
	}
	for k := range out.W {
		wk := w
		if mask != nil {
			wk *= mask[out.wj[k]]
		}
		out.W[k] = base.W[k] + diff.W[k]*wk
	}
	out.Motion = base.Motion // an additive layer adds no travel
}

// heldIdentity is, for an additive layer writing out from base and diff,
// the paths (bit p) where diff holds the identity by its tag
// (SoAPose.held): out holds base's there after it, copied where out is
// not base, and the layer's kernels may leave them. Every other path's
// claim on out is dropped, for the kernels to write it. An out that is
// diff takes none: diff's stripes are read after.
func heldIdentity(out, base, diff *SoAPose) uint8 {
	return out.heldIdentityAt(Translation, base, diff) | out.heldIdentityAt(Scale, base, diff)
}

// heldIdentityAt is heldIdentity for one path.
func (out *SoAPose) heldIdentityAt(p Path, base, diff *SoAPose) uint8 {
	if out == diff || !diff.HoldsIdentity(p) {
		out.held[p] = heldTag{}
		return 0
	}
	if out != base {
		out.keepHeld(p, base)
	}
	return 1 << p
}

// addJoints is AddSoA's joint-by-joint arithmetic, for joints from to end
// of the chunk whose identity differences still holds (where alike); it
// leaves the paths held marks (heldIdentity).
func addJoints(out, base, diff *SoAPose, w float32, mask []float32, from, end int, still *laneMasks, alike bool, held uint8) {
	lanes := layerLanes // where not, the joints are tested one at a time
	for i := from; i < end; i++ {
		wi := w
		if mask != nil {
			wi *= mask[i]
		}
		if wi == 0 || alike && still.has(i) || !lanes && diff.identityAt(i) {
			if out != base {
				out.copyJoint(i, base)
			}
			continue
		}
		dx, dy, dz, dw := diff.qx[i], diff.qy[i], diff.qz[i], diff.qw[i]
		if held&(1<<Translation) == 0 {
			out.tx[i], out.ty[i], out.tz[i] = base.tx[i]+diff.tx[i]*wi, base.ty[i]+diff.ty[i]*wi, base.tz[i]+diff.tz[i]*wi
		}
		if held&(1<<Scale) == 0 {
			if wi == 1 {
				out.sx[i], out.sy[i], out.sz[i] = base.sx[i]*diff.sx[i], base.sy[i]*diff.sy[i], base.sz[i]*diff.sz[i]
			} else {
				out.sx[i], out.sy[i], out.sz[i] = base.sx[i]*powScale(diff.sx[i], wi), base.sy[i]*powScale(diff.sy[i], wi), base.sz[i]*powScale(diff.sz[i], wi)
			}
		}
		if wi != 1 {
			dx, dy, dz, dw = slerpIdentity(dx, dy, dz, dw, wi)
		}
		out.qx[i], out.qy[i], out.qz[i], out.qw[i] = normQ(qmul(base.qx[i], base.qy[i], base.qz[i], base.qw[i], dx, dy, dz, dw))
	}
}

// slerpIdentity is Slerp(identity, d, w) for a unit d and any w,
// extrapolation above 1 included: the rotation by w times d's angle about
// d's axis, along the shortest arc.
func slerpIdentity(x, y, z, w, u float32) (float32, float32, float32, float32) {
	if u >= 0 && u <= 1 {
		// Within the arc, the polynomial slerp (within 1e-6, and several
		// times cheaper than the atan2 and sincos below).
		return slerpPoly(0, 0, 0, 1, x, y, z, w, u)
	}
	if w < 0 {
		x, y, z, w = -x, -y, -z, -w
	}
	s := float32(math.Sqrt(float64(x*x + y*y + z*z)))
	if s < 1e-7 {
		return 0, 0, 0, 1
	}
	half := math.Atan2(float64(s), float64(w)) * float64(u)
	k := float32(math.Sin(half)) / s
	return x * k, y * k, z * k, float32(math.Cos(half))
}

// powScale is r^w for a scale ratio; ratios of exactly 1, the common case,
// skip the power.
func powScale(r, w float32) float32 {
	switch {
	case r == 1:
		return 1
	case r > 0:
		return float32(math.Pow(float64(r), float64(w)))
	default:
		return 1 + (r-1)*w
	}
}
