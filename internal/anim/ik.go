package anim

import (
	"errors"
	"fmt"
	"math"

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
	// only.
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
	a, b, c := position(mStart), position(mMid), position(modelRows(j.Models, j.End))
	ba, bc := a.Sub(b), c.Sub(b)
	lab, lbc := ba.Len(), bc.Len()
	at := j.Target.Sub(a)
	lat := at.Len()
	if lab < ikEpsilon || lbc < ikEpsilon || lat < ikEpsilon {
		return
	}
	j.Reached = true
	if hi := lab + lbc; lat > hi {
		lat, j.Reached = hi, false
	}
	if lo := float32(math.Abs(float64(lab - lbc))); lat < lo {
		lat, j.Reached = lo, false
	}

	// Step 1: the interior angle at Mid, from θ0 now to θ1 wanted.
	theta0 := acos32(ba.Dot(bc) / (lab * lbc))
	theta1 := acos32((lab*lab + lbc*lbc - lat*lat) / (2 * lab * lbc))
	n, ln := unit(ba.Cross(bc))
	if ln < ikEpsilon {
		// A straight (or folded) chain has no bending plane. Bend it so
		// that the elbow already leans towards the pole: rotating c about
		// bc × pole moves it away from the pole, and step 2 then swings b
		// towards it.
		n, ln = unit(bc.Cross(j.Pole))
		if ln < ikEpsilon {
			n, _ = unit(bc.Cross(perpendicular(bc)))
		}
	}
	rotMid := mgl32.QuatRotate(theta1-theta0, n)
	c1 := b.Add(rotate(rotMid, bc))

	// Step 2: swing c onto the target ray.
	dir, _ := unit(at)
	c1a, _ := unit(c1.Sub(a))
	rotStart := fromTo(c1a, dir)

	// Step 3: twist about the ray so that b leans towards the pole.
	if pole, lp := unit(j.Pole); lp >= ikEpsilon {
		bb := rotate(rotStart, b.Sub(a))
		pb := bb.Sub(dir.Mul(bb.Dot(dir)))
		pp := pole.Sub(dir.Mul(pole.Dot(dir)))
		if pb.Len() >= ikEpsilon && pp.Len() >= ikEpsilon {
			phi := float32(math.Atan2(float64(pb.Cross(pp).Dot(dir)), float64(pb.Dot(pp))))
			rotStart = mulQ(mgl32.QuatRotate(phi, dir), rotStart)
		}
	}

	applyModelRotation(j.Pose, j.Start, rotationOf(mStart), rotStart, j.Weight)
	applyModelRotation(j.Pose, j.Mid, rotationOf(mMid), rotMid, j.Weight)
}

// applyModelRotation turns joint jt of pose, whose model rotation is g, by
// the model-space rotation r about its own origin, blended by weight w.
func applyModelRotation(pose *SoAPose, jt int, g, r mgl32.Quat, w float32) {
	rot := mgl32.Quat{W: pose.qw[jt], V: mgl32.Vec3{pose.qx[jt], pose.qy[jt], pose.qz[jt]}}
	local := normalizeQuat(mulQ(rot, mulQ(mulQ(g.Conjugate(), r), g)))
	if w < 1 {
		local = Slerp(rot, local, w)
	}
	pose.qx[jt], pose.qy[jt], pose.qz[jt], pose.qw[jt] = local.V[0], local.V[1], local.V[2], local.W
}

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
	// Models are the model matrices of Pose before the job, in
	// ModelPaletteJob.Models' row layout (PaletteFloats per joint); read
	// only.
	Models []float32
	// Pose is the local pose, Len() = joint count; the chain's rotations
	// are rewritten in place.
	Pose *SoAPose
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
	if _, l := unit(j.Forward); l < ikEpsilon {
		return errors.New("anim: look-at forward axis is zero")
	}
	return nil
}

// lookAtTipIterations bounds the refinement of the last joint: with an eye
// offset the aim point moves as the joint turns, so one shortest arc leaves
// a small error that each further pass shrinks by the ratio of the offset to
// the target distance.
const lookAtTipIterations = 4

// aimConverged is the cosine of the aim error (about 0.03°) below which the
// refinement stops: float32 cannot resolve much less.
const aimConverged = 1 - 1.5e-7

// Run turns the chain. Rather than recompute model matrices after each
// joint, it tracks the rigid motion (rotation q, translation t) that the
// turns so far apply to everything below them.
func (j *LookAtJob) Run() {
	if j.Weight <= 0 {
		return
	}
	last := j.Chain[len(j.Chain)-1]
	mTip := modelRows(j.Models, last)
	eye0 := transformPoint(mTip, j.Offset)
	gTip := rotationOf(mTip)
	fwd0, _ := unit(rotate(gTip, j.Forward))
	var remaining float32
	for k := range j.Chain {
		remaining += j.share(k)
	}
	q, t := mgl32.QuatIdent(), mgl32.Vec3{}
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
		mj := modelRows(j.Models, jt)
		g0 := gTip
		if jt != last {
			g0 = rotationOf(mj)
		}
		// The joint's model rotation before its turns, and its origin,
		// which its turns keep in place.
		g := mulQ(q, g0)
		pivot := rotate(q, position(mj)).Add(t)
		passes := 1
		if k == len(j.Chain)-1 && j.Weight >= 1 {
			passes = lookAtTipIterations
		}
		// The passes' turns compose (each about the same origin, the
		// next measured after the last), so the joint takes their product
		// once: g⁻¹·t₁·g, then (t₁g)⁻¹·t₂·(t₁g), … is g⁻¹·(tₙ⋯t₁)·g.
		total, turned, stop := mgl32.QuatIdent(), false, false
		for pass := 0; pass < passes; pass++ {
			eye := rotate(q, eye0).Add(t)
			fwd := rotate(q, fwd0)
			want, l := unit(j.Target.Sub(eye))
			if l < ikEpsilon {
				stop = true
				break
			}
			if pass > 0 && fwd.Dot(want) >= aimConverged {
				break
			}
			turn := fromTo(fwd, want)
			if w := frac * j.Weight; w < 1 {
				turn = Slerp(mgl32.QuatIdent(), turn, w)
			}
			total, turned = mulQ(turn, total), true
			q = normalizeQuat(mulQ(turn, q))
			t = rotate(turn, t.Sub(pivot)).Add(pivot)
		}
		if turned {
			applyModelRotation(j.Pose, jt, g, total, 1)
		}
		if stop {
			return
		}
	}
}

func (j *LookAtJob) share(k int) float32 {
	if j.Shares == nil {
		return 1
	}
	return j.Shares[k]
}

// mulQ is the product a·b. mgl32's Quat.Mul is not inlined, and the
// post-processing jobs make dozens of products a frame.
func mulQ(a, b mgl32.Quat) mgl32.Quat {
	x, y, z, w := qmul(a.V[0], a.V[1], a.V[2], a.W, b.V[0], b.V[1], b.V[2], b.W)
	return mgl32.Quat{W: w, V: mgl32.Vec3{x, y, z}}
}

// modelRows is joint i's model matrix in ModelPaletteJob.Models' layout.
func modelRows(models []float32, i int) *[12]float32 {
	return (*[12]float32)(models[i*12 : i*12+12])
}

// position is the translation column of an affine matrix in row layout.
func position(r *[12]float32) mgl32.Vec3 { return mgl32.Vec3{r[3], r[7], r[11]} }

// transformPoint is the affine matrix r (row layout) applied to point p.
func transformPoint(r *[12]float32, p mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{
		r[0]*p[0] + r[1]*p[1] + r[2]*p[2] + r[3],
		r[4]*p[0] + r[5]*p[1] + r[6]*p[2] + r[7],
		r[8]*p[0] + r[9]*p[1] + r[10]*p[2] + r[11],
	}
}

// rotationOf is the rotation of an affine matrix in row layout with its
// scale divided out of the columns.
func rotationOf(r *[12]float32) mgl32.Quat {
	c0, _ := unit(mgl32.Vec3{r[0], r[4], r[8]})
	c1, _ := unit(mgl32.Vec3{r[1], r[5], r[9]})
	c2, _ := unit(mgl32.Vec3{r[2], r[6], r[10]})
	return normalizeQuat(mgl32.Mat4ToQuat(mgl32.Mat4{
		c0[0], c0[1], c0[2], 0,
		c1[0], c1[1], c1[2], 0,
		c2[0], c2[1], c2[2], 0,
		0, 0, 0, 1,
	}))
}

// unit returns v normalized and its length; the zero vector stays zero.
func unit(v mgl32.Vec3) (mgl32.Vec3, float32) {
	l := v.Len()
	if l == 0 {
		return v, 0
	}
	return v.Mul(1 / l), l
}

// perpendicular returns some vector perpendicular to v, built from the axis
// v is least aligned with.
func perpendicular(v mgl32.Vec3) mgl32.Vec3 {
	x, y, z := math.Abs(float64(v[0])), math.Abs(float64(v[1])), math.Abs(float64(v[2]))
	switch {
	case x <= y && x <= z:
		return v.Cross(mgl32.Vec3{1, 0, 0})
	case y <= z:
		return v.Cross(mgl32.Vec3{0, 1, 0})
	}
	return v.Cross(mgl32.Vec3{0, 0, 1})
}

// fromTo is the shortest rotation taking unit vector u to unit vector v;
// for opposite vectors it turns half a turn about some perpendicular axis.
func fromTo(u, v mgl32.Vec3) mgl32.Quat {
	d := u.Dot(v)
	if d < -1+1e-6 {
		axis, _ := unit(perpendicular(u))
		return mgl32.Quat{W: 0, V: axis}
	}
	// q = (1 + u·v, u × v) normalized is the half-angle quaternion.
	return normalizeQuat(mgl32.Quat{W: 1 + d, V: u.Cross(v)})
}

func acos32(x float32) float32 {
	return float32(math.Acos(math.Max(-1, math.Min(1, float64(x)))))
}

// rotate turns v by the unit quaternion q: v + 2w(u×v) + 2u×(u×v), with u
// q's vector part, written out (mathgl's Rotate makes two quaternion
// products).
func rotate(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	ux, uy, uz, w := q.V[0], q.V[1], q.V[2], q.W
	cx := 2 * (uy*v[2] - uz*v[1])
	cy := 2 * (uz*v[0] - ux*v[2])
	cz := 2 * (ux*v[1] - uy*v[0])
	return mgl32.Vec3{
		v[0] + w*cx + uy*cz - uz*cy,
		v[1] + w*cy + uz*cx - ux*cz,
		v[2] + w*cz + ux*cy - uy*cx,
	}
}
