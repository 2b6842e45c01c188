package anim

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// Post-processing (GEA §12.9): inverse kinematics and aiming adjust the local
// pose produced by blending, using the model-space matrices of that pose.
// They read the model matrices of the few joints they touch and write only
// their local rotations; the caller recomputes model matrices afterwards
// (ModelPaletteJob) before building the palette.

// ikEpsilon is the length, in model units, below which a bone or a direction
// is treated as degenerate and the solver leaves the pose alone rather than
// divide by it.
const ikEpsilon = 1e-6

// TwoBoneIKJob bends a three-joint chain (shoulder, elbow, hand or hip,
// knee, foot) so that End reaches Target, with the middle joint bending
// towards Pole. It changes the local rotations of Start and Mid only; bone
// lengths are kept, so an unreachable target gives the fully stretched (or
// fully folded) chain pointing at it. Intermediate joints between Start and
// Mid or Mid and End are allowed and left as they are.
type TwoBoneIKJob struct {
	// Skeleton gives the hierarchy.
	Skeleton *Skeleton
	// Start, Mid and End are joint indices; Mid descends from Start and End
	// from Mid.
	Start, Mid, End int
	// Target is where End should be, in model space (the space of Models).
	Target mgl32.Vec3
	// Pole is a model-space direction, from Start, towards which Mid should
	// point (forward for a knee, backward or down for an elbow). The zero
	// vector keeps the chain's current bending plane.
	Pole mgl32.Vec3
	// Weight blends from the input pose (0) to the solved pose (1), by slerp
	// of the two local rotations; ≤ 0 leaves the pose untouched.
	Weight float32
	// Models are the model matrices of Pose before the job, in
	// ModelPaletteJob.Models' row layout (PaletteFloats per joint); read
	// only. The job reads those of Start, Mid and End's parent and of
	// their ancestors (readsModelOf), not End's own: End's position is
	// its parent's matrix applied to its translation in Pose.
	Models []float32
	// Pose is the local pose, Len() = joint count; Start and Mid rotations
	// are rewritten in place.
	Pose *SoAPose
	// Reached is set by Run: whether the target was within reach.
	Reached bool
}

// Validate reports a job that Run cannot execute.
func (j *TwoBoneIKJob) Validate() error {
	if j.Skeleton == nil {
		return errNilSkeleton
	}
	n := j.Skeleton.NumJoints()
	if len(j.Models) != PaletteFloats*n || j.Pose == nil || j.Pose.Len() != n {
		return fmt.Errorf("anim: two-bone IK has %d model floats and %s for %d joints", len(j.Models), poseSize(j.Pose), n)
	}
	for _, jt := range [...]int{j.Start, j.Mid, j.End} {
		if jt < 0 || jt >= n {
			return fmt.Errorf("anim: two-bone IK joint %d out of range [0, %d)", jt, n)
		}
	}
	if !isDescendant(j.Skeleton, j.Mid, j.Start) {
		return fmt.Errorf("anim: two-bone IK middle joint %q does not descend from start joint %q", j.Skeleton.Names[j.Mid], j.Skeleton.Names[j.Start])
	}
	if !isDescendant(j.Skeleton, j.End, j.Mid) {
		return fmt.Errorf("anim: two-bone IK end joint %q does not descend from middle joint %q", j.Skeleton.Names[j.End], j.Skeleton.Names[j.Mid])
	}
	return nil
}

// readsModelOf is the joints whose model matrices Run reads, ancestors
// aside: Start, Mid and End's parent.
func (j *TwoBoneIKJob) readsModelOf() [3]int {
	return [3]int{j.Start, j.Mid, j.Skeleton.Parents[j.End]}
}

// isDescendant reports whether joint d lies strictly below joint a.
func isDescendant(sk *Skeleton, d, a int) bool {
	for p := sk.Parents[d]; p >= 0; p = sk.Parents[p] {
		if p == a {
			return true
		}
	}
	return false
}

// Run solves the chain. The solution is analytic, in three steps on model
// positions a (Start), b (Mid), c (End) and target t:
//  1. turn the Mid joint so that |c − a| = |t − a| (law of cosines);
//  2. swing Start so that c lies on the ray from a to t (shortest arc);
//  3. twist Start about that ray so that Mid points towards Pole.
//
// The model-space rotations R of steps 1–3 become local ones through
// L' = L ⊗ (G⁻¹ ⊗ R ⊗ G), G the joint's model rotation.
func (j *TwoBoneIKJob) Run() {
	j.Reached = false
	if j.Weight <= 0 {
		return
	}
	mStart, mMid := modelRows(j.Models, j.Start), modelRows(j.Models, j.Mid)
	e := j.End
	c := transformPoint(modelRows(j.Models, j.Skeleton.Parents[e]), v3{j.Pose.tx[e], j.Pose.ty[e], j.Pose.tz[e]})
	a, b := position(mStart), position(mMid)
	ba, bc := a.sub(b), c.sub(b)
	lab, lbc := ba.len(), bc.len()
	at := vec(j.Target).sub(a)
	lat := at.len()
	if lab < ikEpsilon || lbc < ikEpsilon || lat < ikEpsilon {
		return
	}
	dir := at.scale(1 / lat) // at.unit(), its length at hand
	j.Reached = true
	if hi := lab + lbc; lat > hi {
		lat, j.Reached = hi, false
	}
	if lo := float32(math.Abs(float64(lab - lbc))); lat < lo {
		lat, j.Reached = lo, false
	}
	invLat := 1 / lat // for step 2, computed here, off the chain of steps 1 to 3

	// Step 1: the interior angle at Mid, from θ0 now to θ1 wanted, turned
	// by δ = θ1 − θ0 about the hinge n. The angles are kept as cosines
	// and sines (sin θ0 from the cross product, which stays exact on a
	// straight chain), and the turn is built from cos δ and sin δ.
	n, ln := ba.cross(bc).unit()
	inv := 1 / (lab * lbc) // one divide for the three
	c0 := clampUnit(ba.dot(bc) * inv)
	s0 := min(ln*inv, 1)
	c1 := clampUnit((lab*lab + lbc*lbc - lat*lat) * (0.5 * inv))
	s1 := float32(math.Sqrt(float64((1 - c1) * (1 + c1))))
	if ln < ikEpsilon {
		// A straight (or folded) chain has no bending plane. Bend it so
		// that the elbow already leans towards the pole: rotating c about
		// bc × pole moves it away from the pole, and step 2 then swings b
		// towards it.
		var lp float32
		n, lp = bc.cross(vec(j.Pole)).unit()
		if lp < ikEpsilon {
			n, _ = bc.cross(perpendicular(bc)).unit()
		}
	}
	rotMid := turnAbout(n, c1*c0+s1*s0, s1*c0-c1*s0)
	// Mid's turn is written now: nothing below reads it, and its chain of
	// dependent operations then runs beside those of steps 2 and 3 rather
	// than after them.
	turnJoint(j.Skeleton, j.Models, j.Pose, j.Mid, rotMid, j.Weight)
	c1p := b.add(rotMid.rotate(bc))

	// Step 2: swing c onto the target ray (with step 3, below). Step 1 put
	// c at distance lat from a (the law of cosines: the hinge is
	// perpendicular to both bones), to within the rounding of the bones'
	// lengths, so 1/lat makes its direction unit without a root and a
	// divide on the job's longest chain of dependent operations.
	c1a := c1p.sub(a).scale(invLat)

	// Step 3: twist about the ray so that b leans towards the pole. b's
	// offset from the ray lies along n' × dir, n' the hinge axis as step 2
	// turned it; taken from the hinge, the twist stays defined on a
	// straight chain (a target out of reach), where b lies on the ray and
	// its own offset is rounding noise that would roll the limb at random.
	// The offset is towards the pole's part pp across the ray where n' =
	// dir × pp / |pp| (then n' × dir = pp / |pp|), so steps 2 and 3 are one
	// rotation, the one that takes the frame of c's direction and the hinge
	// to that of the ray and n' (frameTurn): one root and one divide where
	// the shortest arc, applying it to the hinge and the twist about the ray
	// took three roots and two divides, one after the other.
	var rotStart quat
	twisted := false
	if pole, lp := vec(j.Pole).unit(); lp >= ikEpsilon {
		pp := pole.sub(dir.scale(pole.dot(dir)))
		if l2 := pp.dot(pp); l2 >= ikEpsilon*ikEpsilon {
			m := dir.cross(pp).scale(1 / float32(math.Sqrt(float64(l2))))
			// The hinge from two nearly parallel bones is perpendicular
			// to c's direction only to within float32's rounding over
			// the bend's sine; frameTurn takes c's direction to the ray
			// exactly once the hinge is made perpendicular to it (to
			// first order, which is enough: without it a hand bent by
			// 1e-3 rad missed by 3e-3 of its reach).
			h := n.sub(c1a.scale(c1a.dot(n)))
			rotStart, twisted = frameTurn(c1a, h, dir, m), true
		}
	}
	if !twisted {
		rotStart = fromTo(c1a, dir) // no pole across the ray: step 2 alone
	}

	turnJoint(j.Skeleton, j.Models, j.Pose, j.Start, rotStart, j.Weight)
}

// turnJoint turns joint jt of pose by the model-space rotation r about its
// own origin, blended by weight w. With P the model rotation of jt's
// parent and L its local rotation, the joint's model rotation P·L becomes
// r·P·L, so L becomes P⁻¹·r·P·L: r with its axis in the parent's frame,
// times L. The parent's frame comes from its matrix in models
// (parentFrame), so that the parent's scale, flat or mirrored, drops out:
// where no column is flat, the axis is dotted with the matrix's columns
// and divided by their lengths (negated for a mirror), the frame's
// product without building it.
func turnJoint(sk *Skeleton, models []float32, pose *SoAPose, jt int, r quat, w float32) {
	ax, ay, az := r.x, r.y, r.z
	if p := sk.Parents[jt]; p >= 0 {
		m := modelRows(models, p)
		l0 := m[0]*m[0] + m[4]*m[4] + m[8]*m[8]
		l1 := m[1]*m[1] + m[5]*m[5] + m[9]*m[9]
		l2 := m[2]*m[2] + m[6]*m[6] + m[10]*m[10]
		// Columns of unit length but for rounding (an unscaled parent, the
		// usual one) are not flat: the flat test is for the others.
		unit := unitNear(l0) && unitNear(l1) && unitNear(l2)
		if unit || !flat(l0, l1, l2) && !flat(l1, l0, l2) && !flat(l2, l0, l1) {
			var i0, i1, i2 float32
			if unit { // invSqrt's series, its test passed
				i0, i1, i2 = invSqrtNear1(l0), invSqrtNear1(l1), invSqrtNear1(l2)
			} else {
				i0, i1, i2 = invSqrt(l0), invSqrt(l1), invSqrt(l2)
			}
			// The sign of det M: c0 · (c1 × c2). A pose whose scales are all
			// 1 (by its tag) has no mirror to find: its local matrices, T·R
			// with R from any quaternion, have det ≥ 0, and so have their
			// products, which unit columns put at +1.
			if !(unit && pose.holdsIdentity(Scale)) && m[0]*(m[5]*m[10]-m[9]*m[6])+m[4]*(m[9]*m[2]-m[1]*m[10])+m[8]*(m[1]*m[6]-m[5]*m[2]) < 0 {
				i0, i1, i2 = -i0, -i1, -i2
			}
			ax, ay, az = (m[0]*r.x+m[4]*r.y+m[8]*r.z)*i0, (m[1]*r.x+m[5]*r.y+m[9]*r.z)*i1, (m[2]*r.x+m[6]*r.y+m[10]*r.z)*i2
		} else if c0, c1, c2, ok := parentFrame(m); ok {
			a := v3{r.x, r.y, r.z}
			ax, ay, az = c0.dot(a), c1.dot(a), c2.dot(a)
		}
	}
	qx, qy, qz, qw := pose.qx, pose.qy, pose.qz, pose.qw // held in registers: the stores below need no bounds checks
	bx, by, bz, bw := qx[jt], qy[jt], qz[jt], qw[jt]
	x, y, z, q := qmul(ax, ay, az, r.w, bx, by, bz, bw)
	if s := x*x + y*y + z*z + q*q; s > 0 {
		inv := invSqrt(s) // a product of unit quaternions, unit but for rounding
		x, y, z, q = x*inv, y*inv, z*inv, q*inv
	} else {
		x, y, z, q = 0, 0, 0, 1 // as normQ
	}
	if w < 1 {
		x, y, z, q = slerpPoly(bx, by, bz, bw, x, y, z, q, w)
	}
	qx[jt], qy[jt], qz[jt], qw[jt] = x, y, z, q
}

// invSqrt is 1/√s. Near 1, where the lengths of a rotation's columns and
// of a product of unit quaternions lie, it is the series 1 − e/2 + 3e²/8
// in e = s − 1, within 3e-10 of it for |e| < 2⁻¹⁰, under float32's
// rounding, without the square root and the division, whose latency
// chains and throughput the post-processing is short of; elsewhere it
// takes them.
func invSqrt(s float32) float32 {
	if unitNear(s) {
		return invSqrtNear1(s)
	}
	return 1 / float32(math.Sqrt(float64(s)))
}

// invSqrtNear1 is invSqrt's series, for s that unitNear passes.
func invSqrtNear1(s float32) float32 {
	e := s - 1
	return 1 - e*(0.5-0.375*e)
}

// unitNear reports whether s lies within 2⁻¹⁰ of 1, where invSqrt takes
// its series.
func unitNear(s float32) bool { return s > 1-0x1p-10 && s < 1+0x1p-10 }

// poseSize describes a pose's length for errors.
func poseSize(p *SoAPose) string {
	if p == nil {
		return "no pose"
	}
	return fmt.Sprintf("a pose of %d joints", p.Len())
}

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
		if k > 0 && !isDescendant(j.Skeleton, jt, j.Chain[k-1]) {
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

// v3 and quat are the post-processing jobs' vectors and rotations. They
// are structs of four scalars or fewer, which Go passes and keeps in
// registers; mgl32's Vec3 and Quat are arrays, which it keeps in memory,
// so that every call stored them and read them back whole, a load the CPU
// cannot forward from the narrower stores, and the jobs ran slower on
// them (docs/performance.md).
type v3 struct{ x, y, z float32 }

type quat struct{ x, y, z, w float32 }

func vec(v mgl32.Vec3) v3 { return v3{v[0], v[1], v[2]} }

func (a v3) add(b v3) v3        { return v3{a.x + b.x, a.y + b.y, a.z + b.z} }
func (a v3) sub(b v3) v3        { return v3{a.x - b.x, a.y - b.y, a.z - b.z} }
func (a v3) scale(s float32) v3 { return v3{a.x * s, a.y * s, a.z * s} }
func (a v3) dot(b v3) float32   { return a.x*b.x + a.y*b.y + a.z*b.z }
func (a v3) len() float32       { return float32(math.Sqrt(float64(a.dot(a)))) }
func (a v3) cross(b v3) v3      { return v3{a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x} }
func (q quat) conj() quat       { return quat{-q.x, -q.y, -q.z, q.w} }

// mul is the product a·b.
func (a quat) mul(b quat) quat {
	x, y, z, w := qmul(a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w)
	return quat{x, y, z, w}
}

// slerpQ is slerpPoly on quat values.
func slerpQ(a, b quat, u float32) quat {
	x, y, z, w := slerpPoly(a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, u)
	return quat{x, y, z, w}
}

// unit returns v normalized and its length; the zero vector stays zero.
func (a v3) unit() (v3, float32) {
	l := a.len()
	if l == 0 {
		return a, 0
	}
	return a.scale(1 / l), l
}

// normalize returns q with unit length, or the identity for a zero (or
// NaN) quaternion, as normalizeQuat does. It does not inline; the helpers
// the jobs call every frame write quatOf(normQ(…)), which does, so that
// they call nothing on their usual path (a call spills every float).
func (q quat) normalize() quat { return quatOf(normQ(q.x, q.y, q.z, q.w)) }

func quatOf(x, y, z, w float32) quat { return quat{x, y, z, w} }

// rotate turns v by the unit quaternion q: v + 2w(u×v) + 2u×(u×v), with u
// q's vector part.
func (q quat) rotate(v v3) v3 {
	u := v3{q.x, q.y, q.z}
	c := u.cross(v).scale(2)
	return v.add(c.scale(q.w)).add(u.cross(c))
}

// rot3 is a rotation as a 3×3 matrix, in rows: applying it is nine
// products in line, where a quaternion's rotate is a call, which spills
// the caller's floats.
type rot3 struct{ xx, xy, xz, yx, yy, yz, zx, zy, zz float32 }

// set makes m the unit quaternion q as a matrix.
func (m *rot3) set(q quat) {
	x2, y2, z2 := q.x+q.x, q.y+q.y, q.z+q.z
	xx, yy, zz := q.x*x2, q.y*y2, q.z*z2
	xy, xz, yz := q.x*y2, q.x*z2, q.y*z2
	wx, wy, wz := q.w*x2, q.w*y2, q.w*z2
	m.xx, m.xy, m.xz = 1-(yy+zz), xy-wz, xz+wy
	m.yx, m.yy, m.yz = xy+wz, 1-(xx+zz), yz-wx
	m.zx, m.zy, m.zz = xz-wy, yz+wx, 1-(xx+yy)
}

// apply is m·v.
func (m *rot3) apply(v v3) v3 {
	return v3{m.xx*v.x + m.xy*v.y + m.xz*v.z, m.yx*v.x + m.yy*v.y + m.yz*v.z, m.zx*v.x + m.zy*v.y + m.zz*v.z}
}

// applyT is mᵀ·v, the inverse rotation.
func (m *rot3) applyT(v v3) v3 {
	return v3{m.xx*v.x + m.yx*v.y + m.zx*v.z, m.xy*v.x + m.yy*v.y + m.zy*v.z, m.xz*v.x + m.yz*v.y + m.zz*v.z}
}

// turnAbout is the rotation about unit axis by the angle φ whose cosine
// and sine are c and s scaled alike by any factor r > 0 (r cos φ, r sin φ),
// built without a trigonometric function from the half-angle forms
// (sin φ/2, cos φ/2) ∝ (s, r + c) ∝ (r − c, s): the first where cos φ ≥ 0,
// the second (negated where s < 0, the same rotation) where the
// first would cancel, so that turns near half a turn keep their precision
// too. Either way w ≥ 0. c = s = 0 is no turn.
//
// The quaternion's squared length is known without summing its
// components: s² + (r + c)² = 2r(r + c) in the first form, (r − c)² + s² =
// 2r(r − c) in the second, neither of which cancels.
func turnAbout(axis v3, c, s float32) quat {
	r := float32(math.Sqrt(float64(c*c + s*s)))
	if r == 0 {
		return quat{w: 1}
	}
	if c >= 0 {
		k := r + c
		inv := 1 / float32(math.Sqrt(float64(2*r*k)))
		s *= inv
		return quat{axis.x * s, axis.y * s, axis.z * s, k * inv}
	}
	k := r - c
	inv := 1 / float32(math.Sqrt(float64(2*r*k)))
	if s < 0 {
		inv = -inv
	}
	k *= inv
	return quat{axis.x * k, axis.y * k, axis.z * k, s * inv}
}

// modelRows is joint i's model matrix in ModelPaletteJob.Models' layout.
func modelRows(models []float32, i int) *[12]float32 {
	return (*[12]float32)(models[i*12 : i*12+12])
}

// position is the translation column of an affine matrix in row layout.
func position(r *[12]float32) v3 { return v3{r[3], r[7], r[11]} }

// transformPoint is the affine matrix r (row layout) applied to point p.
func transformPoint(r *[12]float32, p v3) v3 {
	return v3{
		r[0]*p.x + r[1]*p.y + r[2]*p.z + r[3],
		r[4]*p.x + r[5]*p.y + r[6]*p.z + r[7],
		r[8]*p.x + r[9]*p.y + r[10]*p.z + r[11],
	}
}

// parentFrame is the rotation of an affine matrix in row layout, as its
// three unit columns, with the matrix's scale divided out of the columns.
// A column scaled flat (a joint scaled to zero on one axis, as a part is
// hidden) is rebuilt from the other two, as the cross product that a
// rotation's columns keep; with two or three flat there is no rotation to
// read, and ok is false. A mirrored matrix gives the rotation of its
// negation: conjugating a turn by it is conjugating by the mirror.
func parentFrame(r *[12]float32) (c0, c1, c2 v3, ok bool) {
	c0, c1, c2 = v3{r[0], r[4], r[8]}, v3{r[1], r[5], r[9]}, v3{r[2], r[6], r[10]}
	l0, l1, l2 := c0.dot(c0), c1.dot(c1), c2.dot(c2)
	c0 = c0.scale(1 / float32(math.Sqrt(float64(l0))))
	c1 = c1.scale(1 / float32(math.Sqrt(float64(l1))))
	c2 = c2.scale(1 / float32(math.Sqrt(float64(l2))))
	if flat0, flat1, flat2 := flat(l0, l1, l2), flat(l1, l0, l2), flat(l2, l0, l1); flat0 || flat1 || flat2 {
		switch {
		case flat0 && !flat1 && !flat2:
			c0 = c1.cross(c2)
		case flat1 && !flat0 && !flat2:
			c1 = c2.cross(c0)
		case flat2 && !flat0 && !flat1:
			c2 = c0.cross(c1)
		default:
			return c0, c1, c2, false
		}
	}
	if c0.dot(c1.cross(c2)) < 0 {
		c0, c1, c2 = c0.scale(-1), c1.scale(-1), c2.scale(-1)
	}
	return c0, c1, c2, true
}

// flat reports whether a column of squared length l is flat beside two of
// squared lengths a and b (flatColumn); NaN lengths are flat.
func flat(l, a, b float32) bool { return !(l > flatColumn*a+flatColumn*b) }

// flatColumn is the squared length, relative to the other two columns',
// below which parentFrame rebuilds a column from them: a scale a million
// times smaller than the others', which the cross product gives as well.
const flatColumn = 1e-12

// perpendicular returns some vector perpendicular to v, built from the axis
// v is least aligned with.
func perpendicular(v v3) v3 {
	x, y, z := math.Abs(float64(v.x)), math.Abs(float64(v.y)), math.Abs(float64(v.z))
	switch {
	case x <= y && x <= z:
		return v.cross(v3{1, 0, 0})
	case y <= z:
		return v.cross(v3{0, 1, 0})
	}
	return v.cross(v3{0, 0, 1})
}

// fromTo is the shortest rotation taking unit vector u to unit vector v;
// for opposite vectors it turns half a turn about some perpendicular axis.
func fromTo(u, v v3) quat { return arc(u, v, 1) }

// arc is the shortest rotation taking unit vector u to the direction of
// w, whose length is l > 0 (fromTo for l = 1); for opposite directions it
// turns half a turn about some perpendicular axis. The half-angle
// quaternion is (u × w, l + u·w) over its length, √(2l(l + u·w)), at hand
// before the cross product; towards opposite directions l + u·w cancels,
// and the components' sum keeps the precision. Taking w as it is saves
// the look-at normalizing its aim first, a divide between two roots on
// its chain of dependent operations.
func arc(u, w v3, l float32) quat {
	d := u.dot(w)
	if d < (-1+1e-6)*l {
		axis, _ := perpendicular(u).unit()
		return quat{axis.x, axis.y, axis.z, 0}
	}
	c := u.cross(w)
	k := l + d
	if d > -0.5*l {
		inv := 1 / float32(math.Sqrt(float64(2*l*k)))
		return quat{c.x * inv, c.y * inv, c.z * inv, k * inv}
	}
	return quatOf(normQ(c.x, c.y, c.z, k))
}

// frameTurn is the rotation that takes the orthonormal pair (x0, y0) to
// (x1, y1), and so x0 × y0 to x1 × y1: the matrix R = x1 x0ᵀ + y1 y0ᵀ + z1
// z0ᵀ as a quaternion, by Shepperd's method (the largest of 1 + trace and
// the diagonal's 1 + 2Rᵢᵢ − trace under the root, so that no component is
// found by a cancelling difference alone).
func frameTurn(x0, y0, x1, y1 v3) quat {
	z0, z1 := x0.cross(y0), x1.cross(y1)
	m00 := x1.x*x0.x + y1.x*y0.x + z1.x*z0.x
	m01 := x1.x*x0.y + y1.x*y0.y + z1.x*z0.y
	m02 := x1.x*x0.z + y1.x*y0.z + z1.x*z0.z
	m10 := x1.y*x0.x + y1.y*y0.x + z1.y*z0.x
	m11 := x1.y*x0.y + y1.y*y0.y + z1.y*z0.y
	m12 := x1.y*x0.z + y1.y*y0.z + z1.y*z0.z
	m20 := x1.z*x0.x + y1.z*y0.x + z1.z*z0.x
	m21 := x1.z*x0.y + y1.z*y0.y + z1.z*z0.y
	m22 := x1.z*x0.z + y1.z*y0.z + z1.z*z0.z
	switch tr := m00 + m11 + m22; {
	case tr > 0:
		s := 2 * float32(math.Sqrt(float64(1+tr)))
		inv := 1 / s
		return quat{(m21 - m12) * inv, (m02 - m20) * inv, (m10 - m01) * inv, 0.25 * s}
	case m00 > m11 && m00 > m22:
		s := 2 * float32(math.Sqrt(float64(1+m00-m11-m22)))
		inv := 1 / s
		return quat{0.25 * s, (m01 + m10) * inv, (m02 + m20) * inv, (m21 - m12) * inv}
	case m11 > m22:
		s := 2 * float32(math.Sqrt(float64(1+m11-m00-m22)))
		inv := 1 / s
		return quat{(m01 + m10) * inv, 0.25 * s, (m12 + m21) * inv, (m02 - m20) * inv}
	default:
		s := 2 * float32(math.Sqrt(float64(1+m22-m00-m11)))
		inv := 1 / s
		return quat{(m02 + m20) * inv, (m12 + m21) * inv, 0.25 * s, (m10 - m01) * inv}
	}
}

// clampUnit clamps a cosine computed in floating point to [-1, 1].
func clampUnit(x float32) float32 { return max(-1, min(1, x)) }

func acos32(x float32) float32 {
	return float32(math.Acos(float64(clampUnit(x))))
}
