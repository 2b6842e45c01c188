package anim

import (
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
	// only. The job reads those of Start, Mid and End's parent and of
	// their ancestors (ReadsModelOf), not End's own: End's position is
	// its parent's matrix applied to its translation in Pose.
	Models []float32
	// Pose is the local pose, Len() = joint count; Start and Mid rotations
	// are rewritten in place.
	Pose *SoAPose
	// Reached is set by Run: whether the target was within reach; false
	// where Run leaves the pose as it is (Weight ≤ 0, or a bone or the
	// target's distance from Start under ikEpsilon).
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
	if !j.Skeleton.IsDescendant(j.Mid, j.Start) {
		return fmt.Errorf("anim: two-bone IK middle joint %q does not descend from start joint %q", j.Skeleton.Names[j.Mid], j.Skeleton.Names[j.Start])
	}
	if !j.Skeleton.IsDescendant(j.End, j.Mid) {
		return fmt.Errorf("anim: two-bone IK end joint %q does not descend from middle joint %q", j.Skeleton.Names[j.End], j.Skeleton.Names[j.Mid])
	}
	return nil
}

// ReadsModelOf is the joints whose model matrices Run reads, ancestors
// aside: Start, Mid and End's parent. Skeleton must be set.
func (j *TwoBoneIKJob) ReadsModelOf() [3]int {
	return [3]int{j.Start, j.Mid, j.Skeleton.Parents[j.End]}
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
			if !(unit && pose.HoldsIdentity(Scale)) && m[0]*(m[5]*m[10]-m[9]*m[6])+m[4]*(m[9]*m[2]-m[1]*m[10])+m[8]*(m[1]*m[6]-m[5]*m[2]) < 0 {
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
