package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Pose operations. Every function here works joint by joint on local SRT
// poses ([]Transform, one entry per skeleton joint), writes into a buffer the
// caller owns and allocates nothing. Unless a function says otherwise, out
// may alias any input: each joint is read before it is written. Slices of
// different lengths are a programmer error and panic with an index error.

// LerpPose blends two poses: out = a at w = 0, b at w = 1. Translation and
// scale are lerped, rotation is slerped along the shortest arc. w ≤ 0 and
// w ≥ 1 copy a or b bit for bit, so a blend at its ends reproduces its input
// exactly. len(out) == len(a) == len(b).
func LerpPose(out, a, b []Transform, w float32) {
	if w <= 0 {
		copy(out, a)
		return
	}
	if w >= 1 {
		copy(out, b)
		return
	}
	_, _ = a[len(out)-1], b[len(out)-1]
	for i := range out {
		out[i] = lerpTransform(&a[i], &b[i], w, false)
	}
}

// NlerpPose is LerpPose with normalized linear interpolation of rotations:
// cheaper (no trigonometry), along the same shortest arc, and with an
// angular speed that is only approximately constant, which is invisible
// for the small angles between poses blended in practice.
func NlerpPose(out, a, b []Transform, w float32) {
	if w <= 0 {
		copy(out, a)
		return
	}
	if w >= 1 {
		copy(out, b)
		return
	}
	_, _ = a[len(out)-1], b[len(out)-1]
	for i := range out {
		out[i] = lerpTransform(&a[i], &b[i], w, true)
	}
}

// MaskedLerpPose is a partial-skeleton blend: joint i is blended with weight
// w·mask[i], so joints where the mask is 0 keep a and joints where it is 1
// follow b by w. A nil mask weighs every joint 1. Per-joint weights at 0 or 1
// copy the joint exactly. nlerp selects NlerpPose's rotation interpolation.
// len(mask) == len(out) when mask is not nil.
func MaskedLerpPose(out, a, b []Transform, w float32, mask []float32, nlerp bool) {
	if mask == nil {
		if nlerp {
			NlerpPose(out, a, b, w)
		} else {
			LerpPose(out, a, b, w)
		}
		return
	}
	_, _, _ = a[len(out)-1], b[len(out)-1], mask[len(out)-1]
	for i := range out {
		wi := w * mask[i]
		switch {
		case wi <= 0:
			out[i] = a[i]
		case wi >= 1:
			out[i] = b[i]
		default:
			out[i] = lerpTransform(&a[i], &b[i], wi, nlerp)
		}
	}
}

func lerpTransform(a, b *Transform, w float32, fast bool) Transform {
	var r mgl32.Quat
	if fast {
		r = Nlerp(a.Rotation, b.Rotation, w)
	} else {
		r = Slerp(a.Rotation, b.Rotation, w)
	}
	return Transform{
		Translation: lerpVec3(a.Translation, b.Translation, w),
		Rotation:    r,
		Scale:       lerpVec3(a.Scale, b.Scale, w),
	}
}

func lerpVec3(a, b mgl32.Vec3, w float32) mgl32.Vec3 {
	return mgl32.Vec3{a[0] + (b[0]-a[0])*w, a[1] + (b[1]-a[1])*w, a[2] + (b[2]-a[2])*w}
}

// WeightedAveragePose is the flat weighted average of GEA §12.10.1: the
// weights are normalized to sum to 1, translations and scales are averaged,
// and rotations are summed (each flipped into the hemisphere of the running
// sum, so q and −q count as the same rotation) and normalized. Poses with a
// weight ≤ 0 are not read. With exactly one positive weight the result is
// that pose bit for bit; with two it is LerpPose's slerp; with none out is
// left unchanged and the function returns false.
// len(poses) == len(weights); every pose has len(out) joints. Unlike the
// other operations, out must not alias any of poses: it holds the running
// sums while later poses are read.
func WeightedAveragePose(out []Transform, poses [][]Transform, weights []float32) bool {
	first, second, n := -1, -1, 0
	var total float32
	for i, w := range weights {
		if w > 0 {
			switch n {
			case 0:
				first = i
			case 1:
				second = i
			}
			n++
			total += w
		}
	}
	switch n {
	case 0:
		return false
	case 1:
		copy(out, poses[first])
		return true
	case 2:
		LerpPose(out, poses[first], poses[second], weights[second]/total)
		return true
	}
	startAccumulate(out, poses[first], weights[first])
	for i := first + 1; i < len(poses); i++ {
		if weights[i] > 0 {
			accumulate(out, poses[i], weights[i])
		}
	}
	finishAccumulate(out, total)
	return true
}

// startAccumulate turns p scaled by w into an accumulator in acc: the
// Transform fields then hold weighted sums rather than a pose.
func startAccumulate(acc, p []Transform, w float32) {
	_ = p[len(acc)-1]
	for i := range acc {
		t := &p[i]
		acc[i] = Transform{
			Translation: t.Translation.Mul(w),
			Rotation:    mgl32.Quat{W: t.Rotation.W * w, V: t.Rotation.V.Mul(w)},
			Scale:       t.Scale.Mul(w),
		}
	}
}

// accumulate adds p scaled by w to the accumulator acc.
func accumulate(acc, p []Transform, w float32) {
	_ = p[len(acc)-1]
	for i := range acc {
		a, t := &acc[i], &p[i]
		a.Translation = a.Translation.Add(t.Translation.Mul(w))
		a.Scale = a.Scale.Add(t.Scale.Mul(w))
		qw := w
		if a.Rotation.Dot(t.Rotation) < 0 {
			qw = -w // q and −q are one rotation: add the one on our side
		}
		a.Rotation.W += t.Rotation.W * qw
		a.Rotation.V[0] += t.Rotation.V[0] * qw
		a.Rotation.V[1] += t.Rotation.V[1] * qw
		a.Rotation.V[2] += t.Rotation.V[2] * qw
	}
}

// finishAccumulate turns the accumulator back into a pose: sums divided by
// the total weight, rotations normalized.
func finishAccumulate(acc []Transform, total float32) {
	inv := 1 / total
	for i := range acc {
		a := &acc[i]
		a.Translation = a.Translation.Mul(inv)
		a.Scale = a.Scale.Mul(inv)
		a.Rotation = normalizeQuat(a.Rotation)
	}
}

// DifferencePose computes the additive difference D of src against ref, per
// joint: translation src − ref, rotation ref⁻¹ ⊗ src, scale src / ref per
// component (1 where the reference scale is 0, which has no inverse).
// AddPose(base, D, 1) with base = ref gives src back.
func DifferencePose(out, src, ref []Transform) {
	_, _ = src[len(out)-1], ref[len(out)-1]
	for i := range out {
		s, r := &src[i], &ref[i]
		out[i] = Transform{
			Translation: s.Translation.Sub(r.Translation),
			Rotation:    normalizeQuat(r.Rotation.Conjugate().Mul(s.Rotation)),
			Scale:       mgl32.Vec3{ratio(s.Scale[0], r.Scale[0]), ratio(s.Scale[1], r.Scale[1]), ratio(s.Scale[2], r.Scale[2])},
		}
	}
}

func ratio(a, b float32) float32 {
	if b == 0 {
		return 1
	}
	return a / b
}

// AddPose applies a difference pose (see DifferencePose) to base with
// weight w, joint i weighted w·mask[i] (nil mask: every joint 1):
// rotation base ⊗ slerp(identity, D, w), translation base + w·D, scale
// base · D^w per component. w = 0 copies base exactly; a joint weight of 1
// skips the slerp and the power. Weights above 1 exaggerate the difference.
// A negative scale ratio (a mirror) cannot be raised to a fractional power;
// it is interpolated linearly from 1 instead.
func AddPose(out, base, diff []Transform, w float32, mask []float32) {
	if w == 0 {
		copy(out, base)
		return
	}
	_ = base[len(out)-1]
	_ = diff[len(out)-1]
	if mask != nil {
		_ = mask[len(out)-1]
	}
	for i := range out {
		wi := w
		if mask != nil {
			wi *= mask[i]
		}
		if wi == 0 {
			out[i] = base[i]
			continue
		}
		b, d := &base[i], &diff[i]
		var t Transform
		if wi == 1 {
			t.Translation = b.Translation.Add(d.Translation)
			t.Rotation = b.Rotation.Mul(d.Rotation)
			t.Scale = mgl32.Vec3{b.Scale[0] * d.Scale[0], b.Scale[1] * d.Scale[1], b.Scale[2] * d.Scale[2]}
		} else {
			t.Translation = b.Translation.Add(d.Translation.Mul(wi))
			t.Rotation = b.Rotation.Mul(Slerp(mgl32.QuatIdent(), d.Rotation, wi))
			t.Scale = mgl32.Vec3{b.Scale[0] * powScale(d.Scale[0], wi), b.Scale[1] * powScale(d.Scale[1], wi), b.Scale[2] * powScale(d.Scale[2], wi)}
		}
		t.Rotation = normalizeQuat(t.Rotation)
		out[i] = t
	}
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
