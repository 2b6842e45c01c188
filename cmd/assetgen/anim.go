package main

import "math"

const keyRate = 30 // keys per second

// pose is the animated state of the skeleton at one instant: a local
// rotation per joint plus the hips translation (the only moving offset).
type pose struct {
	rot  [jointCount]quat
	hips vec3
}

func restPose(js []joint) pose {
	var p pose
	for i := range p.rot {
		p.rot[i] = identityQuat
	}
	p.hips = js[jHips].pos
	return p
}

// clip describes an animation as a function of time; it is sampled into
// LINEAR keys when the file is written.
type clip struct {
	name     string
	duration float64
	loop     bool // the last key repeats the first exactly
	sample   func(p *pose, t float64)
}

func clips() []clip {
	return []clip{
		{name: "Walk", duration: 1, loop: true, sample: walk},
		{name: "Wave", duration: 2, loop: false, sample: wave},
		{name: "Idle", duration: 3, loop: true, sample: idle},
	}
}

// sampledClip holds the keys of one clip: times, and per animated joint the
// rotations (and the hips translations if they move).
type sampledClip struct {
	name     string
	times    []float64
	rotJoint []int
	rots     [][]quat
	hips     []vec3 // nil when the hips do not translate
}

// sampleClip evaluates c at keyRate, including both ends, and keeps only the
// channels that actually move so the file has no dead data.
func sampleClip(js []joint, c clip) sampledClip {
	n := int(math.Round(c.duration*keyRate)) + 1
	rest := restPose(js)
	out := sampledClip{name: c.name, times: make([]float64, n)}
	poses := make([]pose, n)
	for i := range poses {
		out.times[i] = float64(i) / keyRate
		poses[i] = rest
		c.sample(&poses[i], out.times[i])
	}
	if c.loop {
		poses[n-1] = poses[0]
	}

	for j := 0; j < jointCount; j++ {
		keys := make([]quat, n)
		moves := false
		for i := range poses {
			q := poses[i].rot[j].normalize()
			// Keep consecutive keys in the same hemisphere so LINEAR
			// interpolation takes the short way round.
			if i > 0 && q.dot(keys[i-1]) < 0 {
				q = q.neg()
			}
			keys[i] = q
			if 1-math.Abs(q.W) > 1e-9 {
				moves = true
			}
		}
		if moves {
			out.rotJoint = append(out.rotJoint, j)
			out.rots = append(out.rots, keys)
		}
	}
	for i := range poses {
		if poses[i].hips != rest.hips {
			out.hips = make([]vec3, n)
			for k := range poses {
				out.hips[k] = poses[k].hips
			}
			break
		}
	}
	return out
}

// Joint-space conventions used below (all rest rotations are identity, so
// joint axes equal world axes): rotX with a negative angle swings a downward
// limb forward (+Z); rotZ with a positive angle lifts the left (+X) arm and
// lowers the right one; rotY with a positive angle turns the face towards
// the character's left.

// armDown lowers the arms from the A-pose to hang naturally at the sides.
const armDown = 36.0

// elbowAxis is the hinge that bends a forearm forward (hand towards +Z),
// in the forearm's parent frame where the arm still points along armDir.
func elbowAxis(side float64) vec3 {
	d := armDir(side)
	return d.cross(v3(0, 0, 1))
}

// walk: a 1 s in-place walk cycle. phase 0 is the right foot's mid-stance.
func walk(p *pose, t float64) {
	ph := 2 * math.Pi * t
	for _, side := range []float64{1, -1} {
		legPh := ph
		if side < 0 {
			legPh += math.Pi
		}
		swing := 30 * math.Sin(legPh) // thigh angle, positive forward
		// The knee flexes while the leg travels forward behind the body
		// (after toe-off) and straightens again before heel strike.
		pulse := math.Max(0, math.Cos(legPh+math.Pi/6))
		knee := 5 + 55*pulse*pulse
		p.rot[sideJoints(side, jThighL, jThighR)] = rotX(-swing)
		p.rot[sideJoints(side, jShinL, jShinR)] = rotX(knee)
		// The ankle mostly cancels the leg so the foot stays near level:
		// toes up at heel strike, down at toe-off.
		p.rot[sideJoints(side, jFootL, jFootR)] = rotX(-0.8 * (knee - swing))

		// Arms swing against the leg on the same side.
		armFwd := -25 * math.Sin(legPh)
		p.rot[sideJoints(side, jUpperArmL, jUpperArmR)] = chain(rotZ(-side*armDown), rotX(-armFwd))
		p.rot[sideJoints(side, jForearmL, jForearmR)] = axisAngle(elbowAxis(side), 15+0.4*armFwd)
	}
	// The pelvis turns with the forward leg and the spine turns back, so the
	// shoulders counter-rotate; the head keeps looking ahead.
	p.rot[jHips] = rotY(-6 * math.Sin(ph))
	p.rot[jSpine] = rotY(10 * math.Sin(ph))
	p.rot[jHead] = rotY(-4 * math.Sin(ph))
	p.rot[jChest] = rotX(3) // a slight forward lean
	// The body is lowest when both feet are down (double support).
	p.hips.Y -= 0.025 * (1 - math.Cos(2*ph)) / 2
}

// wave: the right arm rises sideways above the shoulder, the forearm waves
// three times, and everything returns to rest at 2 s.
func wave(p *pose, t float64) {
	raise := smoothstep(0, 0.45, t) * (1 - smoothstep(1.55, 2, t))
	env := smoothstep(0.3, 0.55, t) * (1 - smoothstep(1.45, 1.7, t))
	osc := env * math.Sin(2*math.Pi*3*(t-0.4)/1.2)
	lag := env * math.Sin(2*math.Pi*3*(t-0.47)/1.2)

	// 90 degrees about Z takes the arm from 45 degrees below horizontal to
	// 45 above, and the shoulder lifts it further; a little forward swing
	// keeps the hand in front of the body plane.
	p.rot[jShoulderR] = rotZ(-12 * raise)
	p.rot[jUpperArmR] = chain(rotZ(-90*raise), rotY(12*raise))
	// Bending the forearm towards the head, about the forward axis, makes it
	// about vertical; the wave swings it to and fro in the same plane.
	p.rot[jForearmR] = rotZ(-(36*raise + 25*osc))
	p.rot[jHandR] = rotZ(-12 * lag)

	// The free arm relaxes down and the body sways gently.
	sway := math.Sin(math.Pi * t)
	p.rot[jUpperArmL] = rotZ(-armDown * raise)
	p.rot[jForearmL] = axisAngle(elbowAxis(1), 10*raise)
	p.rot[jHips] = rotZ(1.5 * sway)
	p.rot[jSpine] = rotZ(-2.5 * sway * raise)
	p.rot[jHead] = chain(rotZ(5*raise), rotY(-8*raise))
	for _, th := range []int{jThighL, jThighR} {
		p.rot[th] = rotZ(-1.5 * sway) // keeps the feet planted under the sway
	}
}

// idle: a 3 s breathing loop with the arms relaxed and the head looking
// slightly from side to side.
func idle(p *pose, t float64) {
	w := 2 * math.Pi * t / 3
	breath := (1 - math.Cos(w)) / 2 // 0 at the ends, 1 at full inhale
	p.rot[jSpine] = rotX(-1 * breath)
	p.rot[jChest] = rotX(-2.5 * breath)
	p.rot[jShoulderL] = rotZ(2.5 * breath)
	p.rot[jShoulderR] = rotZ(-2.5 * breath)
	p.rot[jNeck] = rotY(4 * math.Sin(w))
	p.rot[jHead] = chain(rotX(2*breath), rotY(8*math.Sin(w)))
	for _, side := range []float64{1, -1} {
		p.rot[sideJoints(side, jUpperArmL, jUpperArmR)] = chain(rotZ(-side*(armDown+1.5*breath)), rotX(-2*math.Sin(w)))
		p.rot[sideJoints(side, jForearmL, jForearmR)] = axisAngle(elbowAxis(side), 12+3*breath)
	}
	// A slow weight shift from foot to foot.
	p.rot[jHips] = rotZ(1.2 * math.Sin(w))
	p.rot[jSpine] = p.rot[jSpine].mul(rotZ(-1.2 * math.Sin(w)))
	p.rot[jThighL] = rotZ(-1.2 * math.Sin(w))
	p.rot[jThighR] = rotZ(-1.2 * math.Sin(w))
}
