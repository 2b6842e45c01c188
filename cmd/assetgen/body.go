package main

import "math"

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
		parts = append(parts, shoulder(js, side), arm(js, side), hand(js, side), thumb(js, side),
			leg(js, side), foot(js, side))
	}
	for _, p := range parts {
		if err := m.addPart(p); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// sideJoints returns the left or right variant of a joint.
func sideJoints(side float64, left, right int) int {
	if side > 0 {
		return left
	}
	return right
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
		name: "torso", origin: v3(0, 0, 0), axis: v3(0, 1, 0), rings: rings,
		segments: 16, exponent: 1, region: regTorso, flipV: true,
		weights: func(s float64, p vec3) []influence {
			in := spine(s)
			// The top corners of the chest follow the shoulders, so a shrug
			// or a raised arm pulls the torso outline with it.
			f := 0.6 * smoothstep(0.07, 0.17, math.Abs(p.X)) * smoothstep(1.30, 1.43, p.Y)
			if f == 0 {
				return in
			}
			for i := range in {
				in[i].w *= 1 - f
			}
			return append(in, influence{sideJoints(p.X, jShoulderL, jShoulderR), f})
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
		name: "neck", origin: v3(0, 0, -0.008), axis: v3(0, 1, 0), rings: rings,
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
		name: "head", origin: v3(0, 0, 0.01), axis: v3(0, 1, 0),
		rings:    ellipsoidRings(14, headCenterY, headRY, headRZ, headRX),
		segments: 20, exponent: 1, region: regHead, flipV: true, uWarp: headWarp,
		weights: along(neckChain()),
	}
}

// faceParts are a nose and ears: small, but they make the facing direction
// readable in silhouette.
func faceParts() []part {
	headOnly := func(float64, vec3) []influence { return []influence{{jHead, 1}} }
	nose := part{
		name: "nose", origin: v3(0, 1.663, 0.121), axis: v3(0, 0, 1),
		rings:    ellipsoidRings(5, 0, 0.025, 0.018, 0.014),
		segments: 8, exponent: 1, region: regNeck, weights: headOnly,
	}
	parts := []part{nose}
	for _, side := range []float64{1, -1} {
		parts = append(parts, part{
			name: "ear", origin: v3(side*0.093, 1.665, 0), axis: v3(side, 0, 0),
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
	l := to.sub(from).length()
	return part{
		name: "shoulder", origin: from, axis: to.sub(from).normalize(),
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

// hand is a flattened capsule: wide across the palm (along Z in the rest
// pose) and thin through it.
func hand(js []joint, side float64) part {
	return part{
		name: "hand", origin: js[sideJoints(side, jHandL, jHandR)].pos, axis: armDir(side),
		rings: []ring{
			{s: -0.02}, {s: -0.012, r1: 0.026, r2: 0.02}, {s: 0.015, r1: 0.04, r2: 0.022},
			{s: 0.06, r1: 0.047, r2: 0.023}, {s: 0.1, r1: 0.046, r2: 0.02},
			{s: 0.14, r1: 0.04, r2: 0.017}, {s: 0.17, r1: 0.03, r2: 0.014}, {s: handLen},
		},
		segments: 12, exponent: 1, region: regHand,
		weights: along(chainWeights(
			[]int{sideJoints(side, jForearmL, jForearmR), sideJoints(side, jHandL, jHandR)},
			[]boundary{{0, 0.03}})),
	}
}

// thumb points forward (+Z) and along the arm, so the hands read as hands
// and their orientation is visible.
func thumb(js []joint, side float64) part {
	d := armDir(side)
	_, palm := frame(d)
	base := js[sideJoints(side, jHandL, jHandR)].pos.add(d.scale(0.03)).add(v3(0, 0, 0.03)).add(palm.scale(-0.008))
	return part{
		name: "thumb", origin: base, axis: d.add(v3(0, 0, 0.9)).add(palm.scale(-0.25)).normalize(),
		rings: []ring{
			{s: -0.012}, {s: -0.004, r1: 0.012, r2: 0.011}, {s: 0.02, r1: 0.0145, r2: 0.013},
			{s: 0.045, r1: 0.0125, r2: 0.0115}, {s: 0.06, r1: 0.009, r2: 0.008}, {s: 0.066},
		},
		segments: 8, exponent: 1, region: regHand,
		weights: func(float64, vec3) []influence {
			return []influence{{sideJoints(side, jHandL, jHandR), 1}}
		},
	}
}

// leg runs from inside the pelvis to the ankle, through the knee, as one
// tube; like the arm this keeps the knee bend continuous.
func leg(js []joint, side float64) part {
	r := func(s, rad float64) ring { return ring{s: s, r1: rad, r2: rad} }
	ankle := thighLen + shinLen
	return part{
		name: "leg", origin: js[sideJoints(side, jThighL, jThighR)].pos, axis: v3(0, -1, 0),
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
	r := func(s, halfH, halfW float64) ring { return ring{s: s, r1: halfH, r2: halfW, off: v3(0, halfH, 0)} }
	shin, ft := sideJoints(side, jShinL, jShinR), sideJoints(side, jFootL, jFootR)
	return part{
		name: "foot", origin: v3(ankle.X, 0, -0.075), axis: v3(0, 0, 1),
		rings: []ring{
			{s: 0, off: v3(0, 0.035, 0)}, r(0.012, 0.03, 0.03), r(0.03, 0.045, 0.042),
			r(0.07, 0.05, 0.045), r(0.12, 0.045, 0.049), r(0.17, 0.036, 0.054),
			r(0.22, 0.029, 0.052), r(0.25, 0.023, 0.041), {s: 0.266, off: v3(0, 0.02, 0)},
		},
		segments: 12, exponent: 0.55, region: regFoot,
		weights: func(_ float64, p vec3) []influence {
			// The instep near the ankle follows the shin a little, matching
			// the bottom of the leg tube it surrounds.
			f := 0.6 * smoothstep(0.055, 0.105, p.Y) * (1 - smoothstep(0.03, 0.09, math.Abs(p.Z-ankle.Z)))
			return []influence{{ft, 1 - f}, {shin, f}}
		},
	}
}
