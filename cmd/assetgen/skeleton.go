package main

import "math"

// Joint indices, in the parents-first order used for skin.joints. The mesh
// weights and animation code refer to joints through these names.
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
	jointCount
)

// Limb dimensions shared by the skeleton and the mesh so the tubes line up
// with the joints they bend around.
const (
	upperArmLen = 0.28
	forearmLen  = 0.26
	handLen     = 0.185
	thighLen    = 0.40
	shinLen     = 0.42

	// aPoseDeg is how far the arms hang below horizontal in the rest pose.
	// An A-pose deforms better at the shoulders than a T-pose and still
	// leaves the arms clear of the torso.
	aPoseDeg = 45.0
)

type joint struct {
	name   string
	parent int // -1 for the skeleton root
	pos    vec3
}

// armDir is the rest direction of an arm, pointing away from the body; side
// is +1 for the left (+X) arm and -1 for the right one.
func armDir(side float64) vec3 {
	a := aPoseDeg * math.Pi / 180
	return v3(side*math.Cos(a), -math.Sin(a), 0)
}

// skeleton returns the rest pose with world-space joint positions. Rest
// rotations are identity, so every joint frame is aligned with the world
// axes, which keeps the animation code easy to reason about.
func skeleton() []joint {
	js := make([]joint, jointCount)
	set := func(i int, name string, parent int, pos vec3) {
		js[i] = joint{name: name, parent: parent, pos: pos}
	}
	set(jHips, "hips", -1, v3(0, 0.95, 0))
	set(jSpine, "spine", jHips, v3(0, 1.05, 0))
	set(jChest, "chest", jSpine, v3(0, 1.25, 0))
	set(jNeck, "neck", jChest, v3(0, 1.47, 0))
	set(jHead, "head", jNeck, v3(0, 1.56, 0))

	arm := func(shoulder, upper, fore, hand int, suffix string, side float64) {
		d := armDir(side)
		set(shoulder, "shoulder"+suffix, jChest, v3(side*0.035, 1.42, 0))
		up := v3(side*0.175, 1.41, 0)
		set(upper, "upper_arm"+suffix, shoulder, up)
		el := up.add(d.scale(upperArmLen))
		set(fore, "forearm"+suffix, upper, el)
		set(hand, "hand"+suffix, fore, el.add(d.scale(forearmLen)))
	}
	arm(jShoulderL, jUpperArmL, jForearmL, jHandL, ".L", 1)
	arm(jShoulderR, jUpperArmR, jForearmR, jHandR, ".R", -1)

	leg := func(thigh, shin, foot int, suffix string, side float64) {
		hip := v3(side*legX, 0.90, 0)
		set(thigh, "thigh"+suffix, jHips, hip)
		set(shin, "shin"+suffix, thigh, hip.add(v3(0, -thighLen, 0)))
		set(foot, "foot"+suffix, shin, hip.add(v3(0, -thighLen-shinLen, 0)))
	}
	leg(jThighL, jShinL, jFootL, ".L", 1)
	leg(jThighR, jShinR, jFootR, ".R", -1)

	// Positions are snapped through the rounded local offsets so that the
	// node translations, the inverse bind matrices and the mesh all agree.
	for i := range js {
		if p := js[i].parent; p >= 0 {
			js[i].pos = js[p].pos.add(localOffset(js, i))
		} else {
			js[i].pos = localOffset(js, i)
		}
	}
	return js
}

// legX is the distance of each hip joint from the body's centre line.
const legX = 0.09

// localOffset is the joint's translation relative to its parent, as written
// into the node.
func localOffset(js []joint, i int) vec3 {
	o := js[i].pos
	if p := js[i].parent; p >= 0 {
		o = o.sub(js[p].pos)
	}
	return v3(roundTo(o.X), roundTo(o.Y), roundTo(o.Z))
}
