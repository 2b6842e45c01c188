package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Heights of the torso tube; the texture uses them to place the belt.
const (
	torsoBottomY = 0.805
	torsoTopY    = 1.475
)

// Leg tube extent along its (downward) axis, measured from the hip joint.
const (
	legTopS    = -0.07
	legBottomS = 0.865
)

// buildBody assembles the whole character mesh from its parts.
func buildBody(js []joint) (*meshData, error) {
	m := &meshData{}
	parts := []part{torso(), neck(), head()}
	parts = append(parts, faceParts()...)
	for _, side := range []float64{1, -1} {
		parts = append(parts, shoulder(js, side), arm(js, side), hand(js, side), leg(js, side), foot(js, side))
		for f := 0; f < fingerCount; f++ {
			parts = append(parts, finger(js, side, f))
		}
	}
	for _, p := range parts {
		if err := m.addPart(p); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// torso is one continuous tube from the crotch to the base of the neck, so
// the hips-spine-chest blend has no seams. It is wider than deep.
func torso() part {
	profile := []struct{ y, rx, rz float64 }{
		{torsoBottomY, 0, 0},
		{0.818, 0.07, 0.045},
		{0.845, 0.12, 0.07},
		{0.88, 0.152, 0.09},
		{0.93, 0.166, 0.103},
		{0.98, 0.159, 0.101},
		{1.03, 0.149, 0.097},
		{1.08, 0.146, 0.098},
		{1.14, 0.152, 0.104},
		{1.20, 0.163, 0.112},
		{1.26, 0.172, 0.116},
		{1.32, 0.178, 0.114},
		{1.37, 0.177, 0.107},
		{1.41, 0.166, 0.097},
		{1.44, 0.142, 0.084},
		{1.463, 0.095, 0.058},
		{torsoTopY, 0, 0},
	}
	rings := make([]ring, len(profile))
	for i, p := range profile {
		// With the axis along +Y, side1 is -Z (depth) and side2 is -X (width).
		rings[i] = ring{s: p.y, r1: p.rz, r2: p.rx}
	}
	spine := chainWeights([]int{jHips, jSpine, jChest}, []boundary{{1.05, 0.06}, {1.25, 0.08}})
	return part{
		name: "torso", origin: mgl64.Vec3{0, 0, 0}, axis: mgl64.Vec3{0, 1, 0}, rings: rings,
		segments: 16, exponent: 1, region: regTorso, flipV: true,
		weights: func(s float64, p mgl64.Vec3) []influence {
			in := spine(s)
			// The top corners of the chest follow the shoulders, so a shrug
			// or a raised arm pulls the torso outline with it.
			f := 0.6 * smoothstep(0.07, 0.17, math.Abs(p.X())) * smoothstep(1.30, 1.43, p.Y())
			if f == 0 {
				return in
			}
			for i := range in {
				in[i].w *= 1 - f
			}
			return append(in, influence{sideJoints(p.X(), jShoulderL, jShoulderR), f})
		},
	}
}

func neck() part {
	rings := []ring{
		{s: 1.39}, {s: 1.40, r1: 0.038, r2: 0.04}, {s: 1.43, r1: 0.053, r2: 0.056},
		{s: 1.47, r1: 0.051, r2: 0.053}, {s: 1.51, r1: 0.049, r2: 0.051},
		{s: 1.56, r1: 0.049, r2: 0.05}, {s: 1.60, r1: 0.047, r2: 0.048}, {s: 1.61},
	}
	return part{
		name: "neck", origin: mgl64.Vec3{0, 0, -0.008}, axis: mgl64.Vec3{0, 1, 0}, rings: rings,
		segments: 12, exponent: 1, region: regNeck, flipV: true,
		weights: along(neckChain()),
	}
}

// neckChain is shared by the neck and the head so the chin and the top of
// the neck move together.
func neckChain() func(float64) []influence {
	return chainWeights([]int{jChest, jNeck, jHead}, []boundary{{1.47, 0.04}, {1.56, 0.035}})
}

// ellipsoidRings samples an ellipsoid centred at s0 with semi-axis rAxis
// along the part axis and r1, r2 across it, pole to pole.
func ellipsoidRings(n int, s0, rAxis, r1, r2 float64) []ring {
	rings := make([]ring, n+1)
	for k := 0; k <= n; k++ {
		phi := math.Pi * float64(k) / float64(n)
		sin := math.Sin(phi)
		if k == 0 || k == n {
			sin = 0
		}
		rings[k] = ring{s: s0 - rAxis*math.Cos(phi), r1: r1 * sin, r2: r2 * sin}
	}
	return rings
}

// Head ellipsoid: centre height, and radii across (X), up (Y) and deep (Z).
const (
	headCenterY = 1.67
	headRX      = 0.10
	headRY      = 0.13
	headRZ      = 0.115
)

func head() part {
	return part{
		name: "head", origin: mgl64.Vec3{0, 0, 0.01}, axis: mgl64.Vec3{0, 1, 0},
		rings:    ellipsoidRings(14, headCenterY, headRY, headRZ, headRX),
		segments: 20, exponent: 1, region: regHead, flipV: true, uWarp: headWarp,
		weights: along(neckChain()),
	}
}

// faceParts are a nose and ears: small, but they make the facing direction
// readable in silhouette.
func faceParts() []part {
	headOnly := func(float64, mgl64.Vec3) []influence { return []influence{{jHead, 1}} }
	nose := part{
		name: "nose", origin: mgl64.Vec3{0, 1.663, 0.121}, axis: mgl64.Vec3{0, 0, 1},
		rings:    ellipsoidRings(5, 0, 0.025, 0.018, 0.014),
		segments: 8, exponent: 1, region: regNeck, weights: headOnly,
	}
	parts := []part{nose}
	for _, side := range []float64{1, -1} {
		parts = append(parts, part{
			name: "ear", origin: mgl64.Vec3{side * 0.093, 1.665, 0}, axis: mgl64.Vec3{side, 0, 0},
			rings:    ellipsoidRings(5, 0, 0.018, 0.026, 0.036),
			segments: 8, exponent: 1, region: regNeck, weights: headOnly,
		})
	}
	return parts
}

// shoulder bridges the top of the chest and the top of the arm, rounding the
// shoulder outline and bending with the clavicle joint.
func shoulder(js []joint, side float64) part {
	from := js[sideJoints(side, jShoulderL, jShoulderR)].pos
	to := js[sideJoints(side, jUpperArmL, jUpperArmR)].pos
	l := to.Sub(from).Len()
	return part{
		name: "shoulder", origin: from, axis: to.Sub(from).Normalize(),
		rings: []ring{
			{s: -0.03}, {s: -0.02, r1: 0.035, r2: 0.03}, {s: 0.01, r1: 0.05, r2: 0.045},
			{s: l * 0.5, r1: 0.056, r2: 0.052}, {s: l, r1: 0.058, r2: 0.055},
			{s: l + 0.03, r1: 0.045, r2: 0.042}, {s: l + 0.045},
		},
		segments: 12, exponent: 1, region: regShoulder,
		weights: along(chainWeights(
			[]int{jChest, sideJoints(side, jShoulderL, jShoulderR), sideJoints(side, jUpperArmL, jUpperArmR)},
			[]boundary{{0, 0.04}, {l, armShoulderBlend}})),
	}
}

// armShoulderBlend is the blend radius around the shoulder ball joint, shared
// by the shoulder and arm tubes.
const armShoulderBlend = 0.06

// arm is one tube from the shoulder to the wrist: upper arm and forearm share
// rings, so the elbow bends as one surface instead of two capsules.
func arm(js []joint, side float64) part {
	r := func(s, rad float64) ring { return ring{s: s, r1: rad, r2: rad * 0.96} }
	wrist := upperArmLen + forearmLen
	return part{
		name: "arm", origin: js[sideJoints(side, jUpperArmL, jUpperArmR)].pos, axis: armDir(side),
		rings: []ring{
			{s: -0.045}, r(-0.037, 0.035), r(-0.018, 0.05), r(0.02, 0.055), r(0.07, 0.052),
			r(0.14, 0.048), r(0.20, 0.045), r(0.245, 0.042), r(upperArmLen, 0.041),
			r(0.315, 0.041), r(0.36, 0.043), r(0.42, 0.039), r(0.48, 0.034),
			r(wrist, 0.031), r(wrist+0.025, 0.024), {s: wrist + 0.035},
		},
		segments: 12, exponent: 1, region: regSleeve,
		weights: along(chainWeights(
			[]int{sideJoints(side, jShoulderL, jShoulderR), sideJoints(side, jUpperArmL, jUpperArmR),
				sideJoints(side, jForearmL, jForearmR), sideJoints(side, jHandL, jHandR)},
			[]boundary{{0, armShoulderBlend}, {upperArmLen, 0.055}, {wrist, 0.03}})),
	}
}

// hand is the palm: a flattened capsule, wide across the palm (along Z in
// the rest pose) and thin through it, ending in the knuckles where the
// fingers start. Near the knuckles it follows the finger bases, so a fist
// rounds the back of the hand.
func hand(js []joint, side float64) part {
	h := js[sideJoints(side, jHandL, jHandR)].pos
	wrist := chainWeights(
		[]int{sideJoints(side, jForearmL, jForearmR), sideJoints(side, jHandL, jHandR)},
		[]boundary{{0, 0.03}})
	return part{
		name: "palm", origin: h, axis: armDir(side),
		rings: []ring{
			{s: -0.02}, {s: -0.012, r1: 0.027, r2: 0.02}, {s: 0.01, r1: 0.039, r2: 0.022},
			{s: 0.04, r1: 0.046, r2: 0.022}, {s: 0.07, r1: 0.047, r2: 0.02},
			{s: 0.092, r1: 0.045, r2: 0.017}, {s: 0.104, r1: 0.038, r2: 0.013}, {s: 0.111},
		},
		segments: 14, exponent: 0.8, region: regHand,
		weights: func(s float64, p mgl64.Vec3) []influence {
			in := wrist(s)
			across := p.Z() - h.Z()
			// The knuckle end follows the two nearest finger bases.
			k := 0.5 * smoothstep(0.07, 0.1, s)
			// The ball of the thumb follows the thumb's first joint.
			t := 0.4 * smoothstep(0.012, 0.035, across) * smoothstep(-0.01, 0.015, s) * (1 - smoothstep(0.05, 0.075, s))
			for i := range in {
				in[i].w *= 1 - k - t
			}
			in = append(in, influence{fingerJoint(side, fThumb, 0), t})
			return append(in, knuckleWeights(side, across, k)...)
		},
	}
}

// knuckleWeights shares weight w between the base joints of the two fingers
// nearest to the given position across the palm.
func knuckleWeights(side, across, w float64) []influence {
	if w == 0 {
		return nil
	}
	fs := []int{fIndex, fMiddle, fRing, fPinky} // across decreases
	if across >= fingerSpecs[fIndex].across {
		return []influence{{fingerJoint(side, fIndex, 0), w}}
	}
	for i := 0; i+1 < len(fs); i++ {
		a, b := fingerSpecs[fs[i]].across, fingerSpecs[fs[i+1]].across
		if across >= b {
			f := smoothstep(0, 1, (a-across)/(a-b))
			return []influence{{fingerJoint(side, fs[i], 0), w * (1 - f)}, {fingerJoint(side, fs[i+1], 0), w * f}}
		}
	}
	return []influence{{fingerJoint(side, fPinky, 0), w}}
}

// finger is one tube through a finger's three joints, starting inside the
// palm (or, for the thumb, inside the ball of the thumb) and rounded at the
// tip.
func finger(js []joint, side float64, f int) part {
	s := fingerSpecs[f]
	l1, l2, l3 := s.bones[0], s.bones[1], s.bones[2]
	tip := l1 + l2 + l3
	r := s.radius
	rg := func(at, scale float64) ring { return ring{s: at, r1: r * scale, r2: r * scale * 0.85} }
	rings := []ring{
		{s: -0.012}, rg(-0.008, 1.05), rg(0, 1.05), rg(l1*0.5, 1), rg(l1, 1.02),
		rg(l1+l2*0.5, 0.93), rg(l1+l2, 0.94), rg(l1+l2+l3*0.45, 0.88),
		rg(tip-r*0.55, 0.78), rg(tip-r*0.2, 0.5), {s: tip},
	}
	blend := []boundary{{0, 0.01}, {l1, 0.008}, {l1 + l2, 0.007}}
	if f == fThumb {
		// The first thumb bone lies in the ball of the thumb, which is
		// fleshy and wide.
		rings = []ring{
			{s: -0.012}, rg(-0.006, 1.25), rg(0.01, 1.35), rg(0.028, 1.2), rg(l1, 1.02),
			rg(l1+l2*0.5, 0.98), rg(l1+l2, 0.92), rg(l1+l2+l3*0.45, 0.86),
			rg(tip-r*0.55, 0.74), rg(tip-r*0.2, 0.48), {s: tip},
		}
		blend = []boundary{{0, 0.02}, {l1, 0.01}, {l1 + l2, 0.008}}
	}
	return part{
		name: fingerNames[f], origin: js[fingerJoint(side, f, 0)].pos, axis: fingerDir(side, f),
		rings: rings, segments: 8, exponent: 1, region: regHand,
		weights: along(chainWeights(
			[]int{sideJoints(side, jHandL, jHandR), fingerJoint(side, f, 0), fingerJoint(side, f, 1), fingerJoint(side, f, 2)},
			blend)),
	}
}

// leg runs from inside the pelvis to the ankle, through the knee, as one
// tube; like the arm this keeps the knee bend continuous.
func leg(js []joint, side float64) part {
	r := func(s, rad float64) ring { return ring{s: s, r1: rad, r2: rad} }
	ankle := thighLen + shinLen
	return part{
		name: "leg", origin: js[sideJoints(side, jThighL, jThighR)].pos, axis: mgl64.Vec3{0, -1, 0},
		rings: []ring{
			{s: legTopS}, r(-0.06, 0.045), r(-0.04, 0.07), r(0, 0.079), r(0.08, 0.077),
			r(0.18, 0.07), r(0.28, 0.06), r(0.35, 0.053), r(thighLen, 0.05), r(0.45, 0.05),
			r(0.52, 0.053), r(0.60, 0.05), r(0.69, 0.041), r(0.77, 0.036),
			r(ankle, 0.036), r(0.85, 0.027), {s: legBottomS},
		},
		segments: 12, exponent: 1, region: regLeg,
		weights: along(chainWeights(
			[]int{jHips, sideJoints(side, jThighL, jThighR), sideJoints(side, jShinL, jShinR),
				sideJoints(side, jFootL, jFootR)},
			[]boundary{{0, 0.07}, {thighLen, 0.06}, {ankle, 0.04}})),
	}
}

// foot is a rounded box from heel to toe with a flat sole on y=0. Its rings
// are lifted by their own half height so the sole stays on the ground while
// the instep rises towards the ankle.
func foot(js []joint, side float64) part {
	ankle := js[sideJoints(side, jFootL, jFootR)].pos
	r := func(s, halfH, halfW float64) ring {
		return ring{s: s, r1: halfH, r2: halfW, off: mgl64.Vec3{0, halfH, 0}}
	}
	shin, ft, toe := sideJoints(side, jShinL, jShinR), sideJoints(side, jFootL, jFootR), sideJoints(side, jToeL, jToeR)
	return part{
		name: "foot", origin: mgl64.Vec3{ankle.X(), 0, heelZ}, axis: mgl64.Vec3{0, 0, 1},
		rings: []ring{
			{s: 0, off: mgl64.Vec3{0, 0.035, 0}}, r(0.012, 0.03, 0.03), r(0.03, 0.045, 0.042),
			r(0.07, 0.05, 0.045), r(0.12, 0.045, 0.049), r(0.17, 0.036, 0.054),
			r(0.22, 0.029, 0.052), r(0.25, 0.023, 0.041), {s: 0.266, off: mgl64.Vec3{0, 0.02, 0}},
		},
		segments: 12, exponent: 0.55, region: regFoot,
		weights: func(_ float64, p mgl64.Vec3) []influence {
			// The instep near the ankle follows the shin a little, matching
			// the bottom of the leg tube it surrounds.
			f := 0.6 * smoothstep(0.055, 0.105, p.Y()) * (1 - smoothstep(0.03, 0.09, math.Abs(p.Z()-ankle.Z())))
			// The toes bend at the ball of the foot.
			t := smoothstep(ballZ-0.025, ballZ+0.02, p.Z()-ankle.Z())
			return []influence{{ft, (1 - f) * (1 - t)}, {shin, f * (1 - t)}, {toe, t}}
		},
	}
}
