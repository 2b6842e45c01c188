package asset

import (
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// Retargeting (GEA §12.4.7.1): a clip authored for one skeleton played on
// another whose joints have the same names (or names mapped) but other
// proportions and other joint axes, as glTF tools export them.

// RetargetMap says how a source skeleton's clips drive a target skeleton.
type RetargetMap struct {
	// Joint[s] is the target joint that source joint s drives, −1 for
	// none; len = the source's joint count. No two source joints may
	// drive one target joint.
	Joint []int
	// Root is the target joint whose translation follows the source's
	// (the hips), −1 for none. Its source is the joint Joint maps onto it;
	// without one no translation is carried over.
	Root int
	// Scale multiplies the root's displacement from its rest position:
	// the ratio of the target's rest hip height to the source's. 0 is
	// taken as 1.
	Scale float32
	// Turn is the rotation that takes the source character's world to
	// the target's: a character facing −Z drives one facing +Z as a
	// mirror image in a glass would otherwise (its left arm raised where
	// the source lowers it). The source's rest pose, its motion and its
	// root's displacement are all turned by it. The zero value is no
	// turn. FacingTurn finds it from the two rest skeletons.
	Turn mgl32.Quat
}

// bakeSubsteps is the number of samples a baked clip takes in each key
// interval of a CUBICSPLINE source track, whose curve the baked LINEAR
// keys follow as chords.
const bakeSubsteps = 8

// Retarget rewrites a source clip for the target skeleton in world space.
// Each skeleton's rest pose is its joints' Rest transforms, every node
// above the skinned joints included (inverse bind matrices play no part:
// files disagree there). For each target joint j driven by source joint s,
// the world rotation turns away from its rest exactly as the source's
// does,
//
//	R_t(t) = F·R_s(t) · (F·R_s,rest)⁻¹ · R_t,rest,
//
// F being m.Turn (the source's world turned to face as the target's
// does), and its local rotation is its parent's retargeted world rotation⁻¹ ·
// R_t(t). Target joints no source joint drives keep their rest local
// rotation, their world rotation following their parent's. The root's
// world position moves from its rest by the source root's world
// displacement, turned by F, times m.Scale, expressed in its parent's
// retargeted frame;
// every other translation, and every scale, stays the target's rest.
// World rotations are the products of local rotations, which is what the
// model matrices hold under uniform scales.
//
// The result is an ordinary clip baked per key: one LINEAR key (STEP
// where every source track it follows steps) at every key time of the
// source tracks on driven joints and on the joints above them, and
// bakeSubsteps samples per interval of a CUBICSPLINE track. Between keys
// of LINEAR sources whose hierarchy both skeletons share it is exact,
// since constant factors on either side commute with slerp. Morph weight
// tracks are dropped (their meshes are the source file's). The clip shares
// nothing with src.
func Retarget(src *anim.Clip, from, to *anim.Skeleton, m *RetargetMap) (anim.Clip, error) {
	nf, nt := from.NumJoints(), to.NumJoints()
	if len(m.Joint) != nf {
		return anim.Clip{}, fmt.Errorf("retarget map has %d joints for a source skeleton of %d", len(m.Joint), nf)
	}
	if m.Root >= nt {
		return anim.Clip{}, fmt.Errorf("retarget root %d outside a target skeleton of %d joints", m.Root, nt)
	}
	driver := make([]int, nt) // the source joint driving each target joint
	for j := range driver {
		driver[j] = -1
	}
	for s, j := range m.Joint {
		switch {
		case j < 0:
		case j >= nt:
			return anim.Clip{}, fmt.Errorf("retarget map sends source joint %q to joint %d of a target skeleton of %d", from.Names[s], j, nt)
		case driver[j] >= 0:
			return anim.Clip{}, fmt.Errorf("retarget map has source joints %q and %q both driving %q", from.Names[driver[j]], from.Names[s], to.Names[j])
		default:
			driver[j] = s
		}
	}
	for _, tr := range src.Tracks {
		if tr.Joint < 0 || tr.Joint >= nf {
			return anim.Clip{}, fmt.Errorf("clip %q track on joint %d of %d", src.Name, tr.Joint, nf)
		}
	}
	out := anim.Clip{Name: src.Name, Duration: src.Duration, Markers: slices.Clone(src.Markers)}

	// The source joints whose motion reaches a driven joint.
	follows := make([]bool, nf)
	for s, j := range m.Joint {
		for a := s; j >= 0 && a >= 0 && !follows[a]; a = from.Parents[a] {
			follows[a] = true
		}
	}
	times, interp := bakeTimes(src, follows)
	if len(times) == 0 {
		return out, nil
	}
	sampled := anim.Clip{Name: src.Name, Duration: src.Duration, Tracks: src.Tracks}
	rc, err := anim.NewRuntimeClip(&sampled, from)
	if err != nil {
		return anim.Clip{}, fmt.Errorf("retarget clip %q: %w", src.Name, err)
	}
	pose := anim.NewSoAPose(nf)
	job := rc.NewSampleJob(false, pose)
	local := make([]anim.Transform, nf)

	srcRest, tgtRest := restWorldRotations(from), restWorldRotations(to)
	turn := m.Turn
	if turn == (mgl32.Quat{}) {
		turn = mgl32.QuatIdent()
	}
	turn = turn.Normalize()
	// change[j]: the constant right factor (F·R_s,rest)⁻¹ · R_t,rest.
	change := make([]mgl32.Quat, nt)
	for j, s := range driver {
		if s >= 0 {
			change[j] = turn.Mul(srcRest[s]).Inverse().Mul(tgtRest[j]).Normalize()
		}
	}
	root, srcRoot := m.Root, -1
	if root >= 0 {
		srcRoot = driver[root]
	}
	scale := m.Scale
	if scale == 0 {
		scale = 1
	}
	var srcRootRest, tgtRootRest mgl32.Vec3
	if srcRoot >= 0 {
		srcRootRest = from.RestModel(srcRoot).Col(3).Vec3()
		tgtRootRest = to.RestModel(root).Col(3).Vec3()
	}

	rot := make([][]float32, nt) // baked local rotation keys per driven joint
	for j, s := range driver {
		if s >= 0 {
			rot[j] = make([]float32, 0, 4*len(times))
		}
	}
	var trans []float32
	srcRot, srcMat := make([]mgl32.Quat, nf), make([]mgl32.Mat4, nf)
	tgtRot, tgtMat := make([]mgl32.Quat, nt), make([]mgl32.Mat4, nt)
	for _, t := range times {
		job.Time = t
		job.Run()
		pose.ToTransforms(local)
		for s := range nf {
			if p := from.Parents[s]; p >= 0 {
				srcRot[s] = srcRot[p].Mul(local[s].Rotation).Normalize()
				srcMat[s] = srcMat[p].Mul4(local[s].Mat4())
			} else {
				srcRot[s], srcMat[s] = local[s].Rotation.Normalize(), local[s].Mat4()
			}
		}
		for j := range nt {
			pr, pm := mgl32.QuatIdent(), mgl32.Ident4()
			if p := to.Parents[j]; p >= 0 {
				pr, pm = tgtRot[p], tgtMat[p]
			}
			lt := to.Rest[j]
			if s := driver[j]; s >= 0 {
				w := turn.Mul(srcRot[s]).Mul(change[j]).Normalize()
				lt.Rotation = pr.Inverse().Mul(w).Normalize()
				rot[j] = appendQuat(rot[j], lt.Rotation)
				tgtRot[j] = w
			} else {
				tgtRot[j] = pr.Mul(lt.Rotation).Normalize()
			}
			if j == root && srcRoot >= 0 {
				d := turn.Rotate(srcMat[srcRoot].Col(3).Vec3().Sub(srcRootRest)).Mul(scale)
				lt.Translation = pm.Inv().Mul4x1(tgtRootRest.Add(d).Vec4(1)).Vec3()
				trans = append(trans, lt.Translation[:]...)
			}
			tgtMat[j] = pm.Mul4(lt.Mat4())
		}
	}
	for j, vals := range rot {
		if vals == nil {
			continue
		}
		r := to.Rest[j].Rotation
		rest := []float32{r.V[0], r.V[1], r.V[2], r.W}
		if constant(vals, rest, 4, true) {
			continue // the rest pose, which the target keeps without a track
		}
		out.Tracks = append(out.Tracks, bakedTrack(j, anim.Rotation, interp, times, vals))
	}
	if trans != nil {
		out.Tracks = append(out.Tracks, bakedTrack(root, anim.Translation, interp, times, trans))
	}
	return out, nil
}

// bakeTimes are the times a retargeted clip takes keys at: every key of
// src's tracks on the joints follows marks, more inside the intervals of
// CUBICSPLINE tracks (bakeSubsteps) and, unless every such track steps,
// one just before each STEP key so the step stays a step. The keys are
// STEP when every track is, LINEAR otherwise.
func bakeTimes(src *anim.Clip, follows []bool) ([]float32, anim.Interpolation) {
	var times []float32
	interp := anim.Step
	for _, tr := range src.Tracks {
		if follows[tr.Joint] && tr.Interp != anim.Step {
			interp = anim.Linear
		}
	}
	for _, tr := range src.Tracks {
		if !follows[tr.Joint] {
			continue
		}
		times = append(times, tr.Times...)
		for k := 1; k < len(tr.Times); k++ {
			t0, t1 := tr.Times[k-1], tr.Times[k]
			switch {
			case tr.Interp == anim.CubicSpline:
				for i := 1; i < bakeSubsteps; i++ {
					times = append(times, t0+(t1-t0)*float32(i)/bakeSubsteps)
				}
			case tr.Interp == anim.Step && interp != anim.Step:
				times = append(times, t1-(t1-t0)*1e-3)
			}
		}
	}
	slices.Sort(times)
	// Keys closer than float noise are one key.
	out := times[:0]
	for _, t := range times {
		if len(out) == 0 || t-out[len(out)-1] > 1e-6*max(1, float32(math.Abs(float64(t)))) {
			out = append(out, t)
		}
	}
	return out, interp
}

// restWorldRotations are sk's joints' world rotations in its rest pose.
func restWorldRotations(sk *anim.Skeleton) []mgl32.Quat {
	out := make([]mgl32.Quat, sk.NumJoints())
	for j, p := range sk.Parents {
		if p >= 0 {
			out[j] = out[p].Mul(sk.Rest[j].Rotation).Normalize()
		} else {
			out[j] = sk.Rest[j].Rotation.Normalize()
		}
	}
	return out
}

// appendQuat appends q in the hemisphere of the key before it, so that
// each pair interpolates along the shorter arc.
func appendQuat(vals []float32, q mgl32.Quat) []float32 {
	if n := len(vals); n >= 4 {
		if vals[n-4]*q.V[0]+vals[n-3]*q.V[1]+vals[n-2]*q.V[2]+vals[n-1]*q.W < 0 {
			q = q.Scale(-1)
		}
	}
	return append(vals, q.V[0], q.V[1], q.V[2], q.W)
}

// constant reports whether every key of vals (c floats each) equals want
// within float noise, or −want too where signFree (a rotation).
func constant(vals, want []float32, c int, signFree bool) bool {
	for k := 0; k+c <= len(vals); k += c {
		var d, e float32 // distances to want and to −want
		for i := range c {
			d = max(d, float32(math.Abs(float64(vals[k+i]-want[i]))))
			e = max(e, float32(math.Abs(float64(vals[k+i]+want[i]))))
		}
		if !signFree {
			e = d
		}
		if min(d, e) > 1e-6 {
			return false
		}
	}
	return true
}

// bakedTrack is a track of keys at times, one key when they all hold the
// first one's value.
func bakedTrack(j int, p anim.Path, interp anim.Interpolation, times, vals []float32) anim.Track {
	c := p.Components()
	if constant(vals, vals[:c], c, p == anim.Rotation) {
		return anim.Track{Joint: j, Path: p, Interp: interp, Times: []float32{times[0]}, Values: slices.Clone(vals[:c])}
	}
	return anim.Track{Joint: j, Path: p, Interp: interp, Times: slices.Clone(times), Values: vals}
}

// FacingTurn is the quarter turn about +Y (glTF's up) that best takes the
// source skeleton's rest shape onto the target's: the horizontal offsets
// of the joints pairs[k] = {source joint, target joint} from their
// centroids, matched in the least-squares sense (2-D Procrustes), then
// rounded to the nearest multiple of 90°. Rigs exported facing +Z, −Z,
// +X or −X differ by such a turn, while their rest poses (a T-pose and an
// A-pose, say) differ by arm angles the rounding leaves out. Skeletons
// that face alike, a skeleton and itself among them, get exactly no turn.
// So do pairs that cannot say: under two joints, joints spread too little
// horizontally (under a tenth of their spread, as a spine alone), or
// shapes that no turn brings into agreement (the best turn's correlation
// under half).
func FacingTurn(from, to *anim.Skeleton, pairs [][2]int) mgl32.Quat {
	if len(pairs) < 2 {
		return mgl32.QuatIdent()
	}
	var cs, ct mgl32.Vec3
	for _, p := range pairs {
		cs = cs.Add(from.RestModel(p[0]).Col(3).Vec3())
		ct = ct.Add(to.RestModel(p[1]).Col(3).Vec3())
	}
	cs, ct = cs.Mul(1/float32(len(pairs))), ct.Mul(1/float32(len(pairs)))
	// A horizontal offset (x, z) as the complex number z + ix: a turn by
	// φ about +Y multiplies it by e^(iφ), so the best φ is the argument of
	// Σ conj(a)·b over the pairs.
	var re, im, ha, hb, sa, sb float64
	for _, p := range pairs {
		a := from.RestModel(p[0]).Col(3).Vec3().Sub(cs)
		b := to.RestModel(p[1]).Col(3).Vec3().Sub(ct)
		az, ax, bz, bx := float64(a[2]), float64(a[0]), float64(b[2]), float64(b[0])
		re += az*bz + ax*bx
		im += az*bx - ax*bz
		ha, hb = ha+az*az+ax*ax, hb+bz*bz+bx*bx
		sa, sb = sa+float64(a.Dot(a)), sb+float64(b.Dot(b))
	}
	if ha < 0.01*sa || hb < 0.01*sb || math.Hypot(re, im) < 0.5*math.Sqrt(ha*hb) {
		return mgl32.QuatIdent()
	}
	quarters := math.Round(math.Atan2(im, re) / (math.Pi / 2))
	switch int(quarters) {
	case 0:
		return mgl32.QuatIdent()
	case 2, -2:
		return mgl32.Quat{W: 0, V: mgl32.Vec3{0, 1, 0}}
	}
	h := float32(math.Sqrt2 / 2)
	return mgl32.Quat{W: h, V: mgl32.Vec3{0, float32(quarters) * h, 0}}
}
