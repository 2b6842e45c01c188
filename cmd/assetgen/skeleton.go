package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Joint indices, in the parents-first order used for skin.joints. The mesh
// weights and animation code refer to joints through these names. The first
// 19 are the original skeleton, whose names and order other code relies on;
// toes and fingers follow.
const (
	jHips = iota
	jSpine
	jChest
	jNeck
	jHead
	jShoulderL
	jUpperArmL
	jForearmL
	jHandL
	jShoulderR
	jUpperArmR
	jForearmR
	jHandR
	jThighL
	jShinL
	jFootL
	jThighR
	jShinR
	jFootR
	jToeL
	jToeR
	jFingersL                              // thumb_1.L; see fingerJoint
	jFingersR  = jFingersL + fingerCount*3 // thumb_1.R
	jointCount = jFingersR + fingerCount*3
)

// Fingers, thumb first; each has three joints (_1 at the base).
const (
	fThumb = iota
	fIndex
	fMiddle
	fRing
	fPinky
	fingerCount
)

var fingerNames = [fingerCount]string{"thumb", "index", "middle", "ring", "pinky"}

// fingerJoint is the k-th joint (0..2) of finger f on one side.
func fingerJoint(side float64, f, k int) int {
	return sideJoints(side, jFingersL, jFingersR) + 3*f + k
}

// Limb dimensions shared by the skeleton and the mesh so the tubes line up
// with the joints they bend around.
const (
	upperArmLen = 0.28
	forearmLen  = 0.26
	thighLen    = 0.40
	shinLen     = 0.42

	// aPoseDeg is how far the arms hang below horizontal in the rest pose.
	// An A-pose deforms better at the shoulders than a T-pose and still
	// leaves the arms clear of the torso.
	aPoseDeg = 45.0

	// ankleY is the rest height of the ankle joints; the soles are on y=0.
	ankleY = 0.08
	// Foot landmarks relative to the ankle, along +Z: the back of the heel,
	// the ball of the foot (where the toe joint bends) and the toe tip.
	heelZ = -0.075
	ballZ = 0.118
	toeZ  = 0.191
	// toeJointY is the height of the toe joint: mid-way through the foot at
	// the ball, so the toes bend about the middle of their thickness.
	toeJointY = 0.03
)

// fingerSpec places one finger: where its base joint sits on the hand (along
// the hand, across the palm towards the thumb, and out of the palm), its
// direction in hand coordinates and the lengths of its three bones (the last
// runs to the finger tip), plus the finger's radius at the base.
type fingerSpec struct {
	along, across, lift float64
	dirAlong, dirAcross float64
	dirPalm             float64
	bones               [3]float64
	radius              float64
}

// fingerSpecs are the finger layouts, index to pinky fanning a little.
var fingerSpecs = [fingerCount]fingerSpec{
	fThumb:  {along: 0.02, across: 0.024, lift: -0.008, dirAlong: 1, dirAcross: 0.5, dirPalm: 0.35, bones: [3]float64{0.042, 0.032, 0.03}, radius: 0.0135},
	fIndex:  {along: 0.094, across: 0.03, dirAlong: 1, dirAcross: 0.06, bones: [3]float64{0.038, 0.024, 0.022}, radius: 0.0105},
	fMiddle: {along: 0.097, across: 0.01, dirAlong: 1, bones: [3]float64{0.042, 0.027, 0.023}, radius: 0.011},
	fRing:   {along: 0.094, across: -0.01, dirAlong: 1, dirAcross: -0.04, bones: [3]float64{0.039, 0.025, 0.022}, radius: 0.0102},
	fPinky:  {along: 0.086, across: -0.029, dirAlong: 1, dirAcross: -0.1, bones: [3]float64{0.030, 0.019, 0.019}, radius: 0.009},
}

// armDir is the rest direction of an arm, pointing away from the body; side
// is +1 for the left (+X) arm and -1 for the right one.
func armDir(side float64) mgl64.Vec3 {
	a := mgl64.DegToRad(aPoseDeg)
	return mgl64.Vec3{side * math.Cos(a), -math.Sin(a), 0}
}

// palmNormal is the direction the palm faces in the rest pose: down and in,
// towards the thigh, perpendicular to the arm.
func palmNormal(side float64) mgl64.Vec3 {
	a := mgl64.DegToRad(aPoseDeg)
	return mgl64.Vec3{-side * math.Sin(a), -math.Cos(a), 0}
}

// handPoint maps hand coordinates (along the hand, across the palm towards
// the thumb which points forward, out of the palm's back) to model space.
func handPoint(js []joint, side, along, across, lift float64) mgl64.Vec3 {
	h := js[sideJoints(side, jHandL, jHandR)].pos
	return h.Add(armDir(side).Mul(along)).Add(mgl64.Vec3{0, 0, across}).Add(palmNormal(side).Mul(-lift))
}

// fingerDir is the rest direction of a finger.
func fingerDir(side float64, f int) mgl64.Vec3 {
	s := fingerSpecs[f]
	return armDir(side).Mul(s.dirAlong).Add(mgl64.Vec3{0, 0, s.dirAcross}).Add(palmNormal(side).Mul(s.dirPalm)).Normalize()
}

// fingerCurlAxis is the local axis about which a positive angle flexes the
// finger's joints towards the palm (for the thumb: across the palm towards
// the little finger).
func fingerCurlAxis(side float64, f int) mgl64.Vec3 {
	d := fingerDir(side, f)
	if f == fThumb {
		towards := palmNormal(side).Mul(0.7).Add(mgl64.Vec3{0, 0, -0.7})
		return d.Cross(towards).Normalize()
	}
	return d.Cross(palmNormal(side)).Normalize()
}

// fingerSpreadAxis is the local axis about which a positive angle spreads a
// finger away from the middle finger, across the palm.
func fingerSpreadAxis(side float64, f int) mgl64.Vec3 {
	n := palmNormal(side)
	away := fingerSpecs[f].across - fingerSpecs[fMiddle].across
	if n.Cross(fingerDir(side, f)).Z()*away < 0 {
		n = n.Mul(-1)
	}
	return n
}

// skeleton returns the rest pose with model-space joint positions. Rest
// rotations are identity, so every joint frame is aligned with the model
// axes, which keeps the animation code easy to reason about.
func skeleton() []joint {
	js := make([]joint, jointCount)
	set := func(i int, name string, parent int, pos mgl64.Vec3) {
		js[i] = joint{name: name, parent: parent, pos: pos}
	}
	set(jHips, "hips", -1, mgl64.Vec3{0, 0.95, 0})
	set(jSpine, "spine", jHips, mgl64.Vec3{0, 1.05, 0})
	set(jChest, "chest", jSpine, mgl64.Vec3{0, 1.25, 0})
	set(jNeck, "neck", jChest, mgl64.Vec3{0, 1.47, 0})
	set(jHead, "head", jNeck, mgl64.Vec3{0, 1.56, 0})

	arm := func(shoulder, upper, fore, hand int, suffix string, side float64) {
		d := armDir(side)
		set(shoulder, "shoulder"+suffix, jChest, mgl64.Vec3{side * 0.035, 1.42, 0})
		up := mgl64.Vec3{side * 0.175, 1.41, 0}
		set(upper, "upper_arm"+suffix, shoulder, up)
		el := up.Add(d.Mul(upperArmLen))
		set(fore, "forearm"+suffix, upper, el)
		set(hand, "hand"+suffix, fore, el.Add(d.Mul(forearmLen)))
	}
	arm(jShoulderL, jUpperArmL, jForearmL, jHandL, ".L", 1)
	arm(jShoulderR, jUpperArmR, jForearmR, jHandR, ".R", -1)

	leg := func(thigh, shin, foot, toe int, suffix string, side float64) {
		hip := mgl64.Vec3{side * legX, 0.90, 0}
		set(thigh, "thigh"+suffix, jHips, hip)
		set(shin, "shin"+suffix, thigh, hip.Add(mgl64.Vec3{0, -thighLen, 0}))
		set(foot, "foot"+suffix, shin, mgl64.Vec3{hip.X(), ankleY, 0})
		set(toe, "toe"+suffix, foot, mgl64.Vec3{hip.X(), toeJointY, ballZ})
	}
	leg(jThighL, jShinL, jFootL, jToeL, ".L", 1)
	leg(jThighR, jShinR, jFootR, jToeR, ".R", -1)

	// Finger positions depend on the hand joint, so the arm joints are
	// snapped first.
	snapJoints(js[:jToeR+1])
	for _, side := range []float64{1, -1} {
		suffix := ".L"
		if side < 0 {
			suffix = ".R"
		}
		for f := 0; f < fingerCount; f++ {
			s := fingerSpecs[f]
			p := handPoint(js, side, s.along, s.across, s.lift)
			d := fingerDir(side, f)
			parent := sideJoints(side, jHandL, jHandR)
			for k := 0; k < 3; k++ {
				j := fingerJoint(side, f, k)
				set(j, fingerNames[f]+"_"+string(rune('1'+k))+suffix, parent, p)
				p = p.Add(d.Mul(s.bones[k]))
				parent = j
			}
		}
	}
	snapJoints(js)
	return js
}

// legX is the distance of each hip joint from the body's centre line.
const legX = 0.09
