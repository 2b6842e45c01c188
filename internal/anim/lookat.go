package anim

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// LookAtJob turns a chain of joints (neck, head) so that an axis of the
// last one (the face's forward) points at a target. Each joint takes its
// share of the remaining turn, in chain order, and the last one takes all
// that is left, so with Weight 1 the aim is exact. The turn is the shortest
// arc: it adds no roll about the aim axis.
type LookAtJob struct {
	// Skeleton gives the hierarchy.
	Skeleton *Skeleton
	// Chain lists joint indices from the one nearest the root to the one
	// that aims; each is an ancestor of the next. The job reads it and does
	// not keep it.
	Chain []int
	// Shares weighs how much of the turn each chain joint takes, len =
	// len(Chain); nil shares equally. Joint k turns by
	// Shares[k] / (Shares[k] + … + Shares[last]) of what remains.
	Shares []float32
	// Forward is the aim axis in the last joint's local space (for example
	// +Z for a head that faces +Z in its rest pose); need not be unit.
	Forward mgl32.Vec3
	// Offset is the eye's position in the last joint's local space, the
	// origin of the aim; zero aims from the joint itself.
	Offset mgl32.Vec3
	// Target is the point to look at, in model space.
	Target mgl32.Vec3
	// Weight scales every joint's turn: 0 leaves the pose untouched, 1 aims
	// exactly.
	Weight float32
	// Limit, in radians, caps the aim: a target further than Limit from
	// the chain's rest direction (where the eye looks with the chain's
	// joints at their rest transforms, the body, and a chain joint that
	// is a skeleton root, as posed) is
	// followed only Limit far, and less the further behind it lies, down
	// to the rest direction for a target straight behind. So a target
	// passing behind the head leaves it facing front instead of swinging
	// it from one shoulder to the other, which the shortest turn does
	// there. 0 sets no limit.
	Limit float32
	// Models are the model matrices of Pose before the job, in
	// ModelPaletteJob.Models' row layout (PaletteFloats per joint); read
	// only.
	Models []float32
	// Pose is the local pose, Len() = joint count; the chain's rotations
	// are rewritten in place.
	Pose *SoAPose

	// cosLimit is cos(Limit) for the Limit limitOf holds, kept from one
	// run to the next (limited).
	cosLimit, limitOf float32
}

// Validate reports a job that Run cannot execute.
func (j *LookAtJob) Validate() error {
	if j.Skeleton == nil {
		return errNilSkeleton
	}
	n := j.Skeleton.NumJoints()
	if len(j.Models) != PaletteFloats*n || j.Pose == nil || j.Pose.Len() != n {
		return fmt.Errorf("anim: look-at has %d model floats and %s for %d joints", len(j.Models), poseSize(j.Pose), n)
	}
	if len(j.Chain) == 0 {
		return errors.New("anim: look-at has an empty chain")
	}
	if j.Shares != nil && len(j.Shares) != len(j.Chain) {
		return fmt.Errorf("anim: look-at has %d shares for %d chain joints", len(j.Shares), len(j.Chain))
	}
	for k, jt := range j.Chain {
		if jt < 0 || jt >= n {
			return fmt.Errorf("anim: look-at chain joint %d is %d, out of range [0, %d)", k, jt, n)
		}
		if k > 0 && !j.Skeleton.IsDescendant(jt, j.Chain[k-1]) {
			return fmt.Errorf("anim: look-at chain joint %q does not descend from %q", j.Skeleton.Names[jt], j.Skeleton.Names[j.Chain[k-1]])
		}
		if j.Shares != nil && !(j.Shares[k] >= 0) {
			return fmt.Errorf("anim: look-at share %d is %v; want ≥ 0", k, j.Shares[k])
		}
	}
	if _, l := vec(j.Forward).unit(); l < ikEpsilon {
		return errors.New("anim: look-at forward axis is zero")
	}
	if !(j.Limit >= 0 && j.Limit <= math.Pi) {
		return fmt.Errorf("anim: look-at limit %v rad; want 0 to π", j.Limit)
	}
	return nil
}

// Run turns the chain. Rather than recompute model matrices after each
// joint, it tracks the rigid motion (rotation q, translation t) that the
// turns so far apply to everything below them. Each joint takes its share
// of the shortest turn from the eye's forward to the target; the last one,
// at full weight, then the turn about its own origin that aims the eye
// exactly (aimEnds).
func (j *LookAtJob) Run() {
	if j.Weight <= 0 {
		return
	}
	last := j.Chain[len(j.Chain)-1]
	mTip := modelRows(j.Models, last)
	eye0 := transformPoint(mTip, vec(j.Offset))
	// Forward as the joint's matrix carries it, mirrors included.
	fwd0, _ := transformPoint(mTip, vec(j.Forward)).sub(position(mTip)).unit()
	target := vec(j.Target)
	if j.Limit > 0 {
		target = j.limited(eye0, j.restForward(), target)
	}
	var remaining float32
	for k := range j.Chain {
		remaining += j.share(k)
	}
	// moved: whether q and t are anything but the identity (no joint
	// above has turned), which the first joint skips applying. rq is q as
	// a matrix, which applies it in line (a quaternion's rotate is a call).
	q, t, moved := quat{w: 1}, v3{}, false
	var rq rot3
	for k, jt := range j.Chain {
		s := j.share(k)
		frac := float32(1)
		if k < len(j.Chain)-1 {
			if remaining <= 0 {
				continue
			}
			frac = s / remaining
		}
		remaining -= s
		// The joint's origin, which its turn keeps in place, and the eye
		// and forward as the turns above it left them.
		pivot, eye, fwd := position(modelRows(j.Models, jt)), eye0, fwd0
		if moved {
			pivot, eye, fwd = rq.apply(pivot).add(t), rq.apply(eye0).add(t), rq.apply(fwd0)
		}
		// A share of the turn from the eye's forward to the target.
		want := target.sub(eye)
		l2 := want.dot(want)
		if l2 < ikEpsilon*ikEpsilon {
			return
		}
		turn := arc(fwd, want, float32(math.Sqrt(float64(l2))))
		if k == len(j.Chain)-1 && j.Weight >= 1 {
			// The eye moved as the joint turned: what is left, a turn of
			// about the eye's offset over the target's distance, is put
			// right in closed form (none for a target at the joint): the
			// shortest arc to the target from the point of the turned ray
			// as far from the joint (aimEnds). The turn took fwd to want
			// and carries the ray, so that point is the turned one of the
			// ray as it was, which aimEnds finds while the turn is being
			// built.
			if from, to, ok := aimEnds(eye.sub(pivot), fwd, target.sub(pivot)); ok {
				turn = fromTo(turn.rotate(from), to).mul(turn)
			}
		} else if w := frac * j.Weight; w < 1 {
			turn = slerpQ(quat{w: 1}, turn, w)
		}
		// The turns above moved the joint's parent by q: in the models'
		// frame, the turn is q⁻¹·turn·q.
		a := v3{turn.x, turn.y, turn.z}
		if moved {
			a = rq.applyT(a)
		}
		// The motion the next joint starts from goes before this joint's
		// turn is written, which nothing in the chain reads: the next
		// joint's chain of dependent operations then starts at once. The
		// matrices are built in place (rot3.set): a rot3 value built and
		// then copied is stored as nine floats and read back as wider
		// moves, which wait for those stores.
		if k < len(j.Chain)-1 {
			if moved {
				// The turn moves what the turns above moved, about pivot.
				t = turn.rotate(t.sub(pivot)).add(pivot)
				q = turn.mul(q).normalize()
			} else {
				q = turn // the identity's product, unit already
			}
			rq.set(q)
			if !moved {
				t = pivot.sub(rq.apply(pivot)) // the turn about pivot of t = 0
			}
			moved = true
		}
		turnJoint(j.Skeleton, j.Models, j.Pose, jt, quat{a.x, a.y, a.z, turn.w}, 1)
	}
}

// aimEnds gives the turn about the origin that puts target on the ray
// from eye along fwd (unit), all relative to the origin, as the unit
// vectors from and to whose shortest arc it is (fromTo(from, to)): from the
// point p on that ray as far from the origin as the target to the target,
// which carries the ray through it, since a turn keeps distances.
// p = eye + s·fwd with |p|² = |target|²: s² + 2(eye·fwd)s + |eye|² −
// |target|² = 0, the larger root. A target nearer the origin than the ray
// passes, or behind the eye, has no such point; from is then fwd, which
// aims fwd from the origin. ok is false for a target at the origin.
func aimEnds(eye, fwd, target v3) (from, to v3, ok bool) {
	l := target.len()
	if l < ikEpsilon {
		return fwd, fwd, false
	}
	inv := 1 / l
	to, from = target.scale(inv), fwd
	b := eye.dot(fwd)
	if d := b*b - eye.dot(eye) + l*l; d >= 0 {
		if s := float32(math.Sqrt(float64(d))) - b; s > 0 {
			from = eye.add(fwd.scale(s)).scale(inv) // |p| = l, as chosen
		}
	}
	return from, to, true
}

// restForward is the chain's rest direction (Limit): Forward through the
// chain's joints at their rest transforms, the joints between them as
// posed, under the model matrix of the first one's parent. A chain joint
// that is a root of the skeleton (a chain from the hips) stays as posed:
// it carries where the body faces. A direction takes only the rotation
// and scale of each transform: it is carried up from the last joint by
// each local matrix's 3×3 block in turn (linearApply): building and
// multiplying the 4×4 matrices cost a measurable share of the character's
// frame (docs/performance.md).
func (j *LookAtJob) restForward() v3 {
	sk, p := j.Skeleton, j.Pose
	first := j.Chain[0]
	v := vec(j.Forward)
	for jt := j.Chain[len(j.Chain)-1]; ; jt = sk.Parents[jt] {
		if sk.Parents[jt] >= 0 && slices.Contains(j.Chain, jt) {
			r := &sk.Rest[jt]
			v = linearApply(quat{r.Rotation.V[0], r.Rotation.V[1], r.Rotation.V[2], r.Rotation.W}, vec(r.Scale), v)
		} else {
			v = linearApply(quat{p.qx[jt], p.qy[jt], p.qz[jt], p.qw[jt]}, v3{p.sx[jt], p.sy[jt], p.sz[jt]}, v)
		}
		if jt == first {
			break
		}
	}
	if pt := sk.Parents[first]; pt >= 0 {
		m := modelRows(j.Models, pt)
		v = v3{m[0]*v.x + m[1]*v.y + m[2]*v.z, m[4]*v.x + m[5]*v.y + m[6]*v.z, m[8]*v.x + m[9]*v.y + m[10]*v.z}
	}
	fwd, _ := v.unit()
	return fwd
}

// linearApply is the 3×3 block of the local matrix of rotation q and
// scale s (Transform.Mat4's entries) applied to v.
func linearApply(q quat, s, v v3) v3 {
	xx, yy, zz := q.x*q.x, q.y*q.y, q.z*q.z
	xy, xz, yz := q.x*q.y, q.x*q.z, q.y*q.z
	wx, wy, wz := q.w*q.x, q.w*q.y, q.w*q.z
	a, b, c := v.x*s.x, v.y*s.y, v.z*s.z
	return v3{
		(1-2*(yy+zz))*a + 2*(xy-wz)*b + 2*(xz+wy)*c,
		2*(xy+wz)*a + (1-2*(xx+zz))*b + 2*(yz-wx)*c,
		2*(xz-wy)*a + 2*(yz+wx)*b + (1-2*(xx+yy))*c,
	}
}

// limited is the target the chain aims at: Target itself within Limit of
// the rest direction fwd (unit) from the eye; beyond it, the point as far
// from the eye at φ = Limit·(π − θ)/(π − Limit) from fwd, towards Target
// (θ from fwd): Limit at the limit, falling to the rest direction for a
// target straight behind. Aiming at that point, every chain turns to it,
// however it shares the turn, and the tip refines its aim as it does for
// any target.
func (j *LookAtJob) limited(eye, fwd, target v3) v3 {
	want, l := target.sub(eye).unit()
	if l < ikEpsilon {
		return target
	}
	// Within the limit, as a target in front usually is, the cosine says
	// so: the angle itself, an arc cosine in float64, only beyond it.
	if j.limitOf != j.Limit {
		j.cosLimit, j.limitOf = float32(math.Cos(float64(j.Limit))), j.Limit
	}
	c := fwd.dot(want)
	if c >= j.cosLimit {
		return target
	}
	theta := acos32(c)
	if theta <= j.Limit { // the cosine's rounding, at the limit itself
		return target
	}
	phi := j.Limit * (math.Pi - theta) / (math.Pi - j.Limit)
	// The unit direction at φ from fwd in the plane of fwd and want; none
	// is defined straight behind, where φ is 0.
	side, ls := want.sub(fwd.scale(c)).unit()
	if ls < ikEpsilon {
		return eye.add(fwd.scale(l))
	}
	sin, cos := math.Sincos(float64(phi))
	return eye.add(fwd.scale(float32(cos) * l).add(side.scale(float32(sin) * l)))
}

func (j *LookAtJob) share(k int) float32 {
	if j.Shares == nil {
		return 1
	}
	return j.Shares[k]
}
