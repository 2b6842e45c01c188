package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// This file holds the building blocks the humanoid's clips are made of:
// feet placed on the ground and legs solved to reach them, hands, and the
// standing pose the clips start from.
//
// Joint-space conventions (all rest rotations are identity, so joint axes
// equal model axes): rotX with a negative angle swings a downward limb
// forward (+Z) and tilts an upward one (the spine) back; rotZ with a
// positive angle lifts the left (+X) arm and lowers the right one; rotY with
// a positive angle turns the face towards the character's left (+X).

// armDown lowers the arms from the A-pose to hang naturally at the sides.
const armDown = 36.0

// elbowAxis is the hinge that bends a forearm forward (hand towards +Z),
// in the forearm's parent frame where the arm still points along armDir.
func elbowAxis(side float64) mgl64.Vec3 {
	d := armDir(side)
	return d.Cross(mgl64.Vec3{0, 0, 1})
}

// footPlacement says where a foot is: ground is the point on the floor under
// the ankle when the foot is flat, lift raises the whole foot, pitch (degrees)
// rolls it about the ball of the foot when positive (heel up) or about the
// heel when negative (toes up), yaw turns the toes out, and toe bends the
// toes up relative to the foot (degrees).
type footPlacement struct {
	ground          mgl64.Vec3
	lift            float64
	pitch, yaw, toe float64
	kneeOut         float64 // turns the knee outward (degrees); 0 points it over the toes
}

// ankleAndRotation returns the ankle position and the foot's model rotation
// for a placement: the pivot (ball or heel) stays where the flat foot would
// have it.
func (f footPlacement) ankleAndRotation() (mgl64.Vec3, mgl64.Quat) {
	turn := rotY(f.yaw)
	rot := quatMul(turn, rotX(f.pitch))
	base := f.ground.Add(mgl64.Vec3{0, f.lift, 0})
	pivotZ := 0.0
	switch {
	case f.pitch > 0:
		pivotZ = ballZ
	case f.pitch < 0:
		pivotZ = heelZ
	}
	pivot := base.Add(turn.Rotate(mgl64.Vec3{0, 0, pivotZ}))
	return pivot.Add(rot.Rotate(mgl64.Vec3{0, ankleY, -pivotZ})), rot
}

// solveLeg poses one leg so the foot lands on its placement, given the hips
// already posed in p. A placement out of reach is counted in p.missed.
func solveLeg(js []joint, p *pose, side float64, f footPlacement) {
	thigh, shin := sideJoints(side, jThighL, jThighR), sideJoints(side, jShinL, jShinR)
	foot, toe := sideJoints(side, jFootL, jFootR), sideJoints(side, jToeL, jToeR)
	hipsRot := p.rot[jHips]
	root := p.root.Add(hipsRot.Rotate(localOffset(js, thigh)))
	ankle, footRot := f.ankleAndRotation()
	pole := rotY(f.yaw + side*f.kneeOut).Rotate(mgl64.Vec3{0, 0, 1})
	up, lo, ok := twoBoneIK(root, ankle, thighLen, shinLen, mgl64.Vec3{0, -1, 0}, mgl64.Vec3{0, 0, 1}, pole)
	setModelRot(p, thigh, hipsRot, up)
	setModelRot(p, shin, up, lo)
	setModelRot(p, foot, lo, footRot)
	p.rot[toe] = rotX(-f.toe)
	if !ok {
		p.missed++
	}
}

// handShape curls the fingers: curl 0 is flat, 1 a fist; thumb likewise for
// the thumb; spread fans the fingers (degrees).
type handShape struct {
	curl, thumb, spread float64
	// index overrides the index finger's curl when not nil (a trigger
	// finger).
	index *float64
}

// Per-joint flexion in degrees at curl 1, base joint first. The ring and
// little fingers curl a little more than the others, as in a relaxed hand.
var fingerCurlDeg = [fingerCount][3]float64{
	fThumb:  {20, 35, 40},
	fIndex:  {70, 95, 55},
	fMiddle: {75, 100, 60},
	fRing:   {80, 100, 60},
	fPinky:  {85, 100, 60},
}

// relaxedHand is how the hands hang when they are doing nothing.
var relaxedHand = handShape{curl: 0.22, thumb: 0.3, spread: 2}

func setHand(p *pose, side float64, h handShape) {
	cascade := [fingerCount]float64{fThumb: 1, fIndex: 0.85, fMiddle: 1, fRing: 1.1, fPinky: 1.2}
	for f := 0; f < fingerCount; f++ {
		c := h.curl * cascade[f]
		if f == fThumb {
			c = h.thumb
		}
		if f == fIndex && h.index != nil {
			c = *h.index
		}
		axis := fingerCurlAxis(side, f)
		spread := 0.0
		if f != fThumb && f != fMiddle {
			spread = h.spread * math.Abs(fingerSpecs[f].across-fingerSpecs[fMiddle].across) / 0.018
		}
		for k := 0; k < 3; k++ {
			q := axisAngle(axis, c*fingerCurlDeg[f][k])
			if k == 0 {
				q = quatMul(q, axisAngle(fingerSpreadAxis(side, f), spread))
			}
			p.rot[fingerJoint(side, f, k)] = q
		}
	}
}

// Standing: the feet a little wider than the hips and turned out, the knees
// soft.
const (
	standFootX   = 0.1
	standFootYaw = 6.0
	standDrop    = 0.006 // how far the hips sink from the rest height
)

func standFeet(side float64) footPlacement {
	return footPlacement{ground: mgl64.Vec3{side * standFootX, 0, 0}, yaw: side * standFootYaw}
}

// hangArms lets the arms hang at the sides, elbows slightly bent, swinging
// forward by fwd degrees (per side).
func hangArms(p *pose, side, fwd, elbow float64) {
	p.rot[sideJoints(side, jUpperArmL, jUpperArmR)] = chain(rotZ(-side*armDown), rotX(-fwd))
	p.rot[sideJoints(side, jForearmL, jForearmR)] = axisAngle(elbowAxis(side), elbow)
}

// stand is the neutral standing pose that Idle starts from and Jump, Wave
// and Lean start and end in.
func stand(js []joint, p *pose) {
	p.root = js[jHips].pos.Add(mgl64.Vec3{0, -standDrop, 0})
	for _, side := range []float64{1, -1} {
		hangArms(p, side, 0, 12)
		p.rot[sideJoints(side, jHandL, jHandR)] = axisAngle(elbowAxis(side), 4)
		setHand(p, side, relaxedHand)
		solveLeg(js, p, side, standFeet(side))
	}
}

// bothSides calls f for the left (+1) and right (-1) side.
func bothSides(f func(side float64)) {
	f(1)
	f(-1)
}

// hermite interpolates from p0 to p1 with slopes m0 and m1 over s in [0,1].
func hermite(p0, p1, m0, m1, s float64) float64 {
	s2, s3 := s*s, s*s*s
	return (2*s3-3*s2+1)*p0 + (s3-2*s2+s)*m0 + (-2*s3+3*s2)*p1 + (s3-s2)*m1
}

// key is one point of a curve.
type key struct{ t, v float64 }

// curve interpolates keys (sorted by time) with a monotone cubic
// (Fritsch–Carlson), so an authored curve never overshoots its keys and
// moves smoothly through them; it holds the end values outside.
func curve(ks []key, t float64) float64 {
	n := len(ks)
	if t <= ks[0].t {
		return ks[0].v
	}
	if t >= ks[n-1].t {
		return ks[n-1].v
	}
	slope := func(i int) float64 { return (ks[i+1].v - ks[i].v) / (ks[i+1].t - ks[i].t) }
	tangent := func(i int) float64 {
		if i == 0 || i == n-1 {
			return 0
		}
		a, b := slope(i-1), slope(i)
		if a*b <= 0 {
			return 0
		}
		// Harmonic mean keeps the curve monotone between keys.
		return 2 * a * b / (a + b)
	}
	i := 0
	for t > ks[i+1].t {
		i++
	}
	h := ks[i+1].t - ks[i].t
	s := (t - ks[i].t) / h
	return hermite(ks[i].v, ks[i+1].v, tangent(i)*h, tangent(i+1)*h, s)
}
