package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The humanoid's clips. They are authored to blend: every clip starts from
// the same standing pose or cycles through the same foot phases, and the
// hips never leave their rest position horizontally (in-place motion; only
// their height moves).
//
// Foot phases of the loops, as normalized time (time / duration):
//
//	Walk, Run, StrafeLeft, StrafeRight: left foot contact at 0.0, right foot
//	contact at 0.5. Walk and Run also share the mid-stance of the left foot
//	near 0.3 (Walk) and 0.18 (Run), so a cross-fade or a synchronized
//	blend between them keeps the feet in step.
func humanClips(js []joint) []clip {
	return []clip{
		// The first three keep the indices they had in the original
		// character, for anything that refers to clips by index.
		{name: "Walk", duration: 1, loop: true, sample: gaitClip(js, walkGait, walkUpper)},
		{name: "Wave", duration: 2, sample: func(p *pose, t float64) { wave(js, p, t) }},
		{name: "Idle", duration: 3, loop: true, sample: func(p *pose, t float64) { idle(js, p, t) }},
		{name: "Run", duration: 0.7, loop: true, sample: gaitClip(js, runGait, runUpper)},
		{name: "StrafeLeft", duration: 1, loop: true, sample: gaitClip(js, strafeGait(1), strafeUpper(1))},
		{name: "StrafeRight", duration: 1, loop: true, sample: gaitClip(js, strafeGait(-1), strafeUpper(-1))},
		{name: "Jump", duration: 1.2, sample: func(p *pose, t float64) { jump(js, p, t) }},
		{name: "AimCenter", sample: func(p *pose, _ float64) { aim(js, p, 0, 0) }},
		{name: "AimLeft", sample: func(p *pose, _ float64) { aim(js, p, 1, 0) }},
		{name: "AimRight", sample: func(p *pose, _ float64) { aim(js, p, -1, 0) }},
		{name: "AimUp", sample: func(p *pose, _ float64) { aim(js, p, 0, 1) }},
		{name: "AimDown", sample: func(p *pose, _ float64) { aim(js, p, 0, -1) }},
		{name: "Lean", sample: func(p *pose, _ float64) { lean(js, p) }},
	}
}

// gaitSpec describes a cyclic gait as what the feet do on the ground; the
// legs are solved to follow them.
type gaitSpec struct {
	period float64    // seconds per cycle (two steps)
	duty   float64    // fraction of the cycle a foot is on the ground
	dir    mgl64.Vec3 // travel direction; a stance foot slides the opposite way
	stride float64    // metres a stance foot travels relative to the hips
	centre float64    // mid-stance position along dir, relative to the hips
	footX  float64    // lateral distance of each foot from the centre line
	yaw    float64    // toe-out, degrees
	lift   float64    // peak swing clearance, metres
	// liftPeak is when in the swing (0..1) the foot is highest.
	liftPeak float64
	// strikePitch (negative: toes up) is the foot's pitch at contact;
	// pushPitch (heel up) at toe-off; heelOff is the fraction of the
	// stance after which the heel rises.
	strikePitch, pushPitch, heelOff float64
	// retract is the fraction of the stance speed the swing foot keeps at
	// lift-off and touch-down: the foot keeps moving back briefly after
	// leaving the ground and is drawn back just before landing.
	retract float64
	// The hips sink by drop on average and bob by ±bob, highest at bobHigh
	// (normalized time, repeating every half cycle).
	drop, bob, bobHigh float64
	kneeOut            float64
}

// legPhase is the normalized cycle time of one leg: 0 at its contact.
func (g gaitSpec) legPhase(t, side float64) float64 {
	ph := t / g.period
	if side < 0 {
		ph += 0.5
	}
	return frac(ph)
}

// foot places one foot at its phase of the cycle.
func (g gaitSpec) foot(side, ph float64) footPlacement {
	f := footPlacement{yaw: side * g.yaw, kneeOut: g.kneeOut}
	var u float64 // position along dir relative to the mid-stance point
	if ph < g.duty {
		q := ph / g.duty
		u = g.stride * (0.5 - q)
		f.pitch = g.strikePitch * (1 - smoothstep(0, 0.2, q))
		if q > g.heelOff {
			r := (q - g.heelOff) / (1 - g.heelOff)
			f.pitch += g.pushPitch * r * r
		}
		f.toe = math.Max(0, f.pitch)
	} else {
		s := (ph - g.duty) / (1 - g.duty)
		m := -g.stride * (1 - g.duty) / g.duty * g.retract
		u = hermite(-g.stride/2, g.stride/2, m, m, s)
		if s < g.liftPeak {
			f.lift = g.lift * math.Pow(math.Sin(math.Pi/2*s/g.liftPeak), 2)
		} else {
			f.lift = g.lift * math.Pow(math.Cos(math.Pi/2*(s-g.liftPeak)/(1-g.liftPeak)), 2)
		}
		f.pitch = g.pushPitch*(1-smoothstep(0, 0.5, s)) + g.strikePitch*smoothstep(0.45, 1, s)
		f.toe = g.pushPitch * (1 - smoothstep(0, 0.35, s))
	}
	f.ground = mgl64.Vec3{side * g.footX, 0, 0}.Add(g.dir.Mul(g.centre + u))
	return f
}

// gaitClip samples a gait: the upper-body function poses the hips rotation
// and everything above them, then the legs are solved.
func gaitClip(js []joint, g gaitSpec, upper func(p *pose, ph float64)) func(*pose, float64) {
	return func(p *pose, t float64) {
		ph := frac(t / g.period)
		p.root = js[jHips].pos.Add(mgl64.Vec3{0, -g.drop + g.bob*math.Cos(4*math.Pi*(ph-g.bobHigh)), 0})
		upper(p, ph)
		bothSides(func(side float64) { solveLeg(js, p, side, g.foot(side, g.legPhase(t, side))) })
	}
}

// walkGait: about 1.1 m/s, a 1 s cycle. The hips are highest over the
// stance foot (compass gait) and lowest in double support.
var walkGait = gaitSpec{
	period: 1, duty: 0.6, dir: mgl64.Vec3{0, 0, 1}, stride: 0.66, centre: 0.02,
	footX: 0.09, yaw: 5, lift: 0.065, liftPeak: 0.35,
	strikePitch: -18, pushPitch: 35, heelOff: 0.5, retract: 0.35,
	drop: 0.034, bob: 0.02, bobHigh: 0.3, kneeOut: 2,
}

// walkUpper counter-rotates shoulders against the pelvis and swings each arm
// with the opposite leg. ph is the normalized cycle time.
func walkUpper(p *pose, ph float64) {
	c := math.Cos(2 * math.Pi * ph) // 1 at left contact, -1 at right contact
	s := math.Sin(2 * math.Pi * ph)
	// The pelvis turns the forward leg's hip forward and drops on the
	// swing side; the spine turns the shoulders the other way.
	p.rot[jHips] = chain(rotZ(3*s), rotY(-5*c), rotX(2))
	p.rot[jSpine] = chain(rotZ(-2.5*s), rotY(7*c), rotX(-1))
	p.rot[jChest] = chain(rotZ(-0.5*s), rotY(4*c), rotX(2))
	p.rot[jNeck] = rotY(-3 * c)
	p.rot[jHead] = chain(rotZ(-0.5*s), rotY(-3*c), rotX(-1.5+math.Cos(4*math.Pi*(ph-0.3))))
	lag := math.Cos(2 * math.Pi * (ph - 0.05))
	bothSides(func(side float64) {
		fwd := -side * 18 * lag // left arm back when the left foot lands
		hangArms(p, side, fwd, 14+10*math.Max(0, fwd)/18)
		p.rot[sideJoints(side, jHandL, jHandR)] = axisAngle(elbowAxis(side), 4+3*math.Max(0, fwd)/18)
		setHand(p, side, relaxedHand)
		p.rot[sideJoints(side, jShoulderL, jShoulderR)] = rotY(side * 2 * lag)
	})
}

// runGait: a jog of about 2.5 m/s with a flight phase; the hips are lowest
// at mid-stance (the leg loads like a spring) and highest in flight.
var runGait = gaitSpec{
	period: 0.7, duty: 0.36, dir: mgl64.Vec3{0, 0, 1}, stride: 0.62, centre: -0.08,
	footX: 0.09, yaw: 4, lift: 0.3, liftPeak: 0.45,
	strikePitch: -8, pushPitch: 45, heelOff: 0.3, retract: 0.3,
	drop: 0.04, bob: 0.02, bobHigh: 0.36/2 + 0.25, kneeOut: 3,
}

// runUpper: a forward lean, bigger counter-rotation, arms bent at about 90
// degrees pumping forward and back, loose fists.
func runUpper(p *pose, ph float64) {
	c := math.Cos(2 * math.Pi * ph)
	s := math.Sin(2 * math.Pi * ph)
	p.rot[jHips] = chain(rotZ(3*s), rotY(-7*c), rotX(8))
	p.rot[jSpine] = chain(rotZ(-2.5*s), rotY(9*c), rotX(3))
	p.rot[jChest] = chain(rotZ(-0.5*s), rotY(6*c), rotX(2))
	p.rot[jNeck] = chain(rotY(-4*c), rotX(-3))
	p.rot[jHead] = chain(rotY(-4*c), rotX(-5+1.5*math.Cos(4*math.Pi*(ph-0.2))))
	lag := math.Cos(2 * math.Pi * (ph - 0.04))
	bothSides(func(side float64) {
		fwd := -side * 35 * lag
		up := sideJoints(side, jUpperArmL, jUpperArmR)
		// Arms come out from the sides a little and the forearms point
		// slightly across the body.
		p.rot[up] = chain(rotZ(-side*(armDown-6)), rotX(-fwd-8))
		p.rot[sideJoints(side, jForearmL, jForearmR)] = chain(axisAngle(elbowAxis(side), 80+12*math.Max(0, fwd)/35), rotY(-side*12))
		p.rot[sideJoints(side, jHandL, jHandR)] = axisAngle(elbowAxis(side), 8)
		setHand(p, side, handShape{curl: 0.65, thumb: 0.6})
		p.rot[sideJoints(side, jShoulderL, jShoulderR)] = chain(rotY(side*4*lag), rotZ(-side*2))
	})
}

// strafeGait is a side step towards dirX (+1: the character's left):
// the leading foot steps out, the trailing foot closes in. The feet never
// cross, so they stand wider than in the walk.
func strafeGait(dirX float64) gaitSpec {
	return gaitSpec{
		period: 1, duty: 0.6, dir: mgl64.Vec3{dirX, 0, 0}, stride: 0.22, centre: 0,
		footX: 0.16, yaw: 8, lift: 0.08, liftPeak: 0.45,
		strikePitch: 0, pushPitch: 18, heelOff: 0.6, retract: 0.25,
		drop: 0.035, bob: 0.01, bobHigh: 0.3, kneeOut: 4,
	}
}

// strafeUpper keeps the chest facing forward while the pelvis rolls over
// the stance foot; the arms sway a little against the motion.
func strafeUpper(dirX float64) func(p *pose, ph float64) {
	return func(p *pose, ph float64) {
		s := math.Sin(2 * math.Pi * ph)
		c := math.Cos(2 * math.Pi * ph)
		p.rot[jHips] = chain(rotZ(2.5*s), rotY(2*c), rotX(3))
		p.rot[jSpine] = chain(rotZ(-1.5*s+dirX*2), rotY(-2*c))
		p.rot[jChest] = chain(rotZ(-1*s), rotX(2))
		p.rot[jNeck] = rotZ(-dirX * 1)
		p.rot[jHead] = chain(rotZ(0.5*s-dirX*1), rotX(-1))
		bothSides(func(side float64) {
			hangArms(p, side, 6, 22)
			up := sideJoints(side, jUpperArmL, jUpperArmR)
			// The arms lift slightly away from the body on each step.
			p.rot[up] = quatMul(rotZ(side*(3+2*s*dirX*side)), p.rot[up])
			p.rot[sideJoints(side, jHandL, jHandR)] = axisAngle(elbowAxis(side), 5)
			setHand(p, side, relaxedHand)
		})
	}
}

// idle: a 3 s breathing loop with the arms relaxed, a slow weight shift
// from foot to foot and the head looking slightly from side to side.
func idle(js []joint, p *pose, t float64) {
	w := 2 * math.Pi * t / 3
	breath := (1 - math.Cos(w)) / 2 // 0 at the ends, 1 at full inhale
	stand(js, p)
	p.rot[jHips] = rotZ(0.8 * math.Sin(w))
	p.rot[jSpine] = chain(rotZ(-0.8*math.Sin(w)), rotX(-1*breath))
	p.rot[jChest] = rotX(-2 * breath)
	p.rot[jShoulderL] = rotZ(2 * breath)
	p.rot[jShoulderR] = rotZ(-2 * breath)
	p.rot[jNeck] = rotY(4 * math.Sin(w))
	p.rot[jHead] = chain(rotX(1.5*breath), rotY(7*math.Sin(w)))
	bothSides(func(side float64) {
		p.rot[sideJoints(side, jUpperArmL, jUpperArmR)] = chain(rotZ(-side*(armDown+1.5*breath)), rotX(-2*math.Sin(w)))
		p.rot[sideJoints(side, jForearmL, jForearmR)] = axisAngle(elbowAxis(side), 12+3*breath)
		h := relaxedHand
		h.curl += 0.04 * side * math.Sin(w)
		setHand(p, side, h)
		solveLeg(js, p, side, standFeet(side))
	})
}

// jump: a standing jump straight up, 1.2 s, starting and ending in the
// standing pose. Anticipation crouch, push-off with an arm swing, a ballistic
// flight of 0.36 s with the legs tucking a little, and a landing that
// absorbs into a crouch before standing up again.
func jump(js []joint, p *pose, t float64) {
	const (
		takeoff = 0.44
		land    = 0.8
		g       = 9.81
		airY    = 0.04 // hips height at take-off and touch-down, on tiptoe
	)
	stand(js, p)
	base := p.root

	// Hips height relative to the standing pose outside the flight.
	ground := curve([]key{
		{0, 0}, {0.12, -0.03}, {0.3, -0.17}, {0.36, -0.16}, {takeoff, airY},
		{land, airY}, {0.9, -0.15}, {0.98, -0.17}, {1.2, 0},
	}, t)
	y := ground
	var feetLift, tuck float64
	if t > takeoff && t < land {
		// Ballistic: leave and return at the same height with the
		// vertical speed that makes the flight last land-takeoff.
		ft := t - takeoff
		v := g * (land - takeoff) / 2
		y = airY + v*ft - g*ft*ft/2
		s := ft / (land - takeoff)
		tuck = 0.09 * math.Sin(math.Pi*s)
		feetLift = y - airY + tuck
	}
	p.root = base.Add(mgl64.Vec3{0, y, 0})

	// Heels rise through the push and the feet point down in the air;
	// the landing is toes first.
	pitch := curve([]key{{0, 0}, {0.33, 0}, {takeoff, 38}, {0.55, 24}, {0.74, 26}, {land, 25}, {0.87, 0}, {1.2, 0}}, t)
	crouch := -ground / 0.17 // 1 at the deepest crouch
	if t > takeoff && t < land {
		crouch = 0
	}
	crouch = math.Max(0, crouch)
	lean := curve([]key{{0, 0}, {0.3, 24}, {0.38, 18}, {takeoff, 2}, {0.6, 0}, {land, 4}, {0.95, 20}, {1.2, 0}}, t)
	p.rot[jHips] = rotX(lean * 0.6)
	p.rot[jSpine] = rotX(lean * 0.25)
	p.rot[jChest] = rotX(lean * 0.15)
	p.rot[jNeck] = rotX(-lean * 0.3)
	p.rot[jHead] = rotX(-lean * 0.35)

	// Arms: back in the crouch, forward and up through the push, out for
	// balance on the landing.
	swing := curve([]key{{0, 0}, {0.12, -10}, {0.3, -45}, {0.36, -40}, {takeoff, 120}, {0.55, 140}, {0.7, 60}, {land, 30}, {0.9, 35}, {1.2, 0}}, t)
	spreadOut := curve([]key{{0, 0}, {0.55, 5}, {0.75, 20}, {0.9, 18}, {1.2, 0}}, t)
	elbow := curve([]key{{0, 12}, {0.3, 10}, {takeoff, 20}, {0.6, 30}, {0.9, 35}, {1.2, 12}}, t)
	open := curve([]key{{0, 0}, {0.36, 0}, {0.5, 1}, {0.9, 1}, {1.2, 0}}, t)
	bothSides(func(side float64) {
		p.rot[sideJoints(side, jUpperArmL, jUpperArmR)] = chain(rotZ(-side*(armDown-spreadOut)), rotX(-swing))
		p.rot[sideJoints(side, jForearmL, jForearmR)] = axisAngle(elbowAxis(side), elbow)
		h := relaxedHand
		h.curl = lerp(relaxedHand.curl, 0.08, open)
		h.spread = lerp(relaxedHand.spread, 6, open)
		setHand(p, side, h)
		f := standFeet(side)
		f.lift = feetLift
		f.pitch = pitch
		f.toe = math.Max(0, pitch) * (1 - smoothstep(takeoff, takeoff+0.1, t) + smoothstep(land-0.06, land, t))
		f.kneeOut = 6 * crouch
		solveLeg(js, p, side, f)
	})
}

// wave: the right arm rises sideways above the shoulder, the forearm waves
// three times with the hand open, and everything returns to the standing
// pose at 2 s. The legs stay planted; it is meant for the upper body.
func wave(js []joint, p *pose, t float64) {
	stand(js, p)
	raise := smoothstep(0, 0.45, t) * (1 - smoothstep(1.55, 2, t))
	env := smoothstep(0.3, 0.55, t) * (1 - smoothstep(1.45, 1.7, t))
	osc := env * math.Sin(2*math.Pi*3*(t-0.4)/1.2)
	lag := env * math.Sin(2*math.Pi*3*(t-0.47)/1.2)

	// From hanging (armDown below the A-pose) to 45 degrees above
	// horizontal, and the shoulder lifts it further; a little forward
	// swing keeps the hand in front of the body plane.
	p.rot[jShoulderR] = rotZ(-12 * raise)
	p.rot[jUpperArmR] = chain(rotZ(armDown-(armDown+90)*raise), rotY(12*raise))
	// Bending the forearm towards the head, about the forward axis, makes
	// it about vertical; the wave swings it to and fro in the same plane.
	p.rot[jForearmR] = quatMul(rotZ(-25*osc), nlerp(axisAngle(elbowAxis(-1), 12), rotZ(-36), raise))
	p.rot[jHandR] = nlerp(axisAngle(elbowAxis(-1), 4), rotZ(-12*lag), raise)
	setHand(p, -1, handShape{
		curl: lerp(relaxedHand.curl, 0.05, raise), thumb: lerp(relaxedHand.thumb, 0.1, raise),
		spread: lerp(relaxedHand.spread, 7, raise),
	})

	// The free arm relaxes and the body sways gently over planted feet.
	sway := math.Sin(math.Pi * t)
	p.rot[jUpperArmL] = chain(rotZ(-armDown-2*raise), rotX(-3*raise))
	p.rot[jHips] = rotZ(1.2 * sway)
	p.rot[jSpine] = rotZ(-2.5 * sway * raise)
	p.rot[jChest] = rotZ(-1 * raise)
	p.rot[jNeck] = rotZ(2 * raise)
	p.rot[jHead] = chain(rotZ(4*raise), rotY(-10*raise), rotX(-3*raise))
	bothSides(func(side float64) { solveLeg(js, p, side, standFeet(side)) })
}

// Aim poses: a two-handed grip held in front of the face. The arms are
// solved once, for the centre, in the chest's frame; the directions turn the
// hips, spine and chest (yaw) or the spine, chest and both upper arms about
// the shoulder line (pitch), so the hands never separate and any blend of
// the five poses still holds the grip.
const (
	aimYaw   = 60.0 // degrees for AimLeft/AimRight
	aimPitch = 40.0 // degrees for AimUp/AimDown
)

// aim poses the character aiming yaw (+1 left, -1 right) and pitch (+1 up,
// -1 down) of the full range.
func aim(js []joint, p *pose, yaw, pitch float64) {
	p.root = js[jHips].pos.Add(mgl64.Vec3{0, -0.035, 0})
	// Turning: hips 15, spine 20, chest 25 degrees of 60.
	y := yaw * aimYaw
	// Pitch: spine 8, chest 12 and the arms 20 of 40 degrees; the head
	// follows a little less than the gun so the sights stay in view.
	pt := pitch * aimPitch
	p.rot[jHips] = chain(rotY(y*0.25), rotX(3))
	p.rot[jSpine] = chain(rotY(y*0.33), rotX(-pt*0.2-2))
	p.rot[jChest] = chain(rotY(y*0.42), rotX(-pt*0.3+2))
	p.rot[jNeck] = rotX(-pt * 0.2)
	p.rot[jHead] = chain(rotX(-pt*0.15+6), rotZ(-3))

	// The arms: solved in a frame where the chest is upright, then
	// expressed relative to it.
	arms := aimArms(js)
	for j, q := range arms {
		p.rot[j] = q
	}
	bothSides(func(side float64) {
		up := sideJoints(side, jUpperArmL, jUpperArmR)
		p.rot[up] = quatMul(rotX(-pt*0.5), p.rot[up])
		trigger := 0.05
		if side > 0 {
			trigger = 0.6 // the support hand wraps around
		}
		setHand(p, side, handShape{curl: 0.85, thumb: 0.7, index: &trigger})
	})
	bothSides(func(side float64) {
		f := footPlacement{ground: mgl64.Vec3{side * 0.14, 0, -side * 0.03}, yaw: side * 10, kneeOut: 4}
		solveLeg(js, p, side, f)
	})
}

// aimArms solves both arms for the centre aim with the chest upright at its
// rest position: the wrists meet in front of the chin, the right hand
// gripping, the left cupping it, elbows down and out.
func aimArms(js []joint) map[int]mgl64.Quat {
	out := map[int]mgl64.Quat{}
	bothSides(func(side float64) {
		up, fore, hand := sideJoints(side, jUpperArmL, jUpperArmR), sideJoints(side, jForearmL, jForearmR), sideJoints(side, jHandL, jHandR)
		shoulder := js[up].pos
		wrist := mgl64.Vec3{side * 0.035, 1.46, 0.42}
		pole := mgl64.Vec3{side * 0.6, -1, -0.35}.Normalize()
		u, l, _ := twoBoneIK(shoulder, wrist, upperArmLen, forearmLen, armDir(side), mgl64.Vec3{0, 0, -1}, pole)
		out[up] = u
		out[fore] = quatMul(u.Conjugate(), l)
		// The hand points forward and a little down, palm facing the
		// other hand.
		handRot := basisRotation(armDir(side), palmNormal(side),
			mgl64.Vec3{-side * 0.12, -0.18, 1}.Normalize(), mgl64.Vec3{-side, 0, 0})
		out[hand] = quatMul(l.Conjugate(), handRot)
	})
	return out
}

// lean is the difference source of a tired slump: the standing pose (Idle's
// first frame, the reference to difference it against) with the back
// rounded forward, the head hanging, the shoulders dropped and the knees
// soft. The arms still hang straight down.
func lean(js []joint, p *pose) {
	idle(js, p, 0)
	p.root = p.root.Add(mgl64.Vec3{0, -0.02, 0})
	p.rot[jHips] = rotX(4)
	p.rot[jSpine] = rotX(10)
	p.rot[jChest] = rotX(12)
	p.rot[jNeck] = rotX(12)
	p.rot[jHead] = rotX(10)
	bothSides(func(side float64) {
		p.rot[sideJoints(side, jShoulderL, jShoulderR)] = chain(rotZ(-side*4), rotY(side*6))
		// Undo the torso's forward tilt so the arms hang plumb.
		p.rot[sideJoints(side, jUpperArmL, jUpperArmR)] = chain(rotZ(-side*(armDown+2)), rotX(-30))
		p.rot[sideJoints(side, jForearmL, jForearmR)] = axisAngle(elbowAxis(side), 16)
		solveLeg(js, p, side, standFeet(side))
	})
}
