package anim

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Root motion (GEA §12.11.4.1): the part of the root joint's motion that
// moves the whole character (its travel and turn) is taken out of the
// pose and handed to the character's model transform, so that a walk
// walks instead of snapping back at every loop.
//
// A RootMotion set-up computes, for each clip a frame plays, the motion
// the clip made over the clip time the frame moved it, loop wraps,
// reversal and ping-pong turns included, as a rigid transform relative to
// where the root stood before (ClipMotion). Poses carry it like a joint
// (SoAPose.Motion), so blends, averages, masks and cross-fades blend the
// motions of their inputs (an additive layer adds none). TakeOut then
// takes the motion's part out of the blended pose's root joint, and the
// character accumulates the frame's motion with Then.

// RootMode says what root motion takes out of the root joint.
type RootMode uint8

const (
	// RootOff leaves the root joint alone.
	RootOff RootMode = iota
	// RootXZ takes the horizontal translation (model-space X and Z) and the
	// turn about the vertical (Y) axis.
	RootXZ
	// RootAll takes the whole translation and rotation.
	RootAll
)

func (m RootMode) String() string {
	switch m {
	case RootXZ:
		return "xz"
	case RootAll:
		return "all"
	}
	return "off"
}

// ParseRootMode reads "xz" or "all".
func ParseRootMode(s string) (RootMode, error) {
	switch s {
	case "xz":
		return RootXZ, nil
	case "all":
		return RootAll, nil
	}
	return RootOff, fmt.Errorf("root motion %q: want xz (horizontal travel and turn) or all", s)
}

// RootMotion is one character's root-motion set-up: the root joint, what
// is taken from it, and its parent's model matrix at rest (taken to stay
// put). It is immutable once made; its methods allocate nothing and may
// run on many goroutines at once.
type RootMotion struct {
	joint            int
	mode             RootMode
	parent, parentIn mgl32.Mat4
}

// NewRootMotion returns the set-up taking mode's part of joint j of sk
// (mode RootOff returns nil: no root motion). It fails for a joint outside
// sk.
func NewRootMotion(sk *Skeleton, j int, mode RootMode) (*RootMotion, error) {
	if mode == RootOff {
		return nil, nil
	}
	if j < 0 || j >= sk.NumJoints() {
		return nil, fmt.Errorf("anim: root motion joint %d of %d", j, sk.NumJoints())
	}
	rm := &RootMotion{joint: j, mode: mode, parent: sk.RestModel(sk.Parents[j])}
	rm.parentIn = rm.parent.Inv()
	return rm, nil
}

// Joint is the root joint.
func (rm *RootMotion) Joint() int { return rm.joint }

// Mode is what is taken from the root joint (RootXZ or RootAll).
func (rm *RootMotion) Mode() RootMode { return rm.mode }

// extract splits a root transform (model space) into the part root motion
// takes (travel and turn) and what stays.
func (rm *RootMotion) extract(world mgl32.Mat4) (pos mgl32.Vec3, rot mgl32.Quat) {
	t := DecomposeMat4(world)
	if rm.mode == RootAll {
		return t.Translation, t.Rotation
	}
	// The turn about Y: the twist of the rotation about the vertical.
	q := t.Rotation
	tw := mgl32.Quat{W: q.W, V: mgl32.Vec3{0, q.V[1], 0}}
	if l := tw.Len(); l > 1e-6 {
		tw = tw.Scale(1 / l)
	} else {
		tw = mgl32.QuatIdent()
	}
	return mgl32.Vec3{t.Translation[0], 0, t.Translation[2]}, tw
}

// rootAt is the extracted part of clip rc's root at clip time t.
func (rm *RootMotion) rootAt(rc *RuntimeClip, t float32) (mgl32.Vec3, mgl32.Quat) {
	p, q, s := rc.jointAt(rm.joint, t)
	local := Transform{Translation: p, Rotation: q, Scale: s}.Mat4()
	return rm.extract(rm.parent.Mul4(local))
}

// between is the motion from clip time t0 to t1 of one cycle: the root's
// extracted transform at t1 seen from the one at t0.
func (rm *RootMotion) between(rc *RuntimeClip, t0, t1 float32) Transform {
	p0, q0 := rm.rootAt(rc, t0)
	p1, q1 := rm.rootAt(rc, t1)
	in := q0.Inverse()
	return Transform{Translation: in.Rotate(p1.Sub(p0)), Rotation: in.Mul(q1).Normalize(), Scale: mgl32.Vec3{1, 1, 1}}
}

// then composes motion a followed by b (b in the frame a ends in).
func then(a, b Transform) Transform {
	return Transform{Translation: a.Translation.Add(a.Rotation.Rotate(b.Translation)), Rotation: a.Rotation.Mul(b.Rotation).Normalize(), Scale: mgl32.Vec3{1, 1, 1}}
}

// identityMotion is no motion.
var identityMotion = Transform{Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}

// ClipMotion is the motion clip rc made while a clock of clock's
// duration, mode and loops moved from elapsed time e0 by adv (signed,
// ClipClock.Elapsed units; clock.Elapsed itself is not read): the root's
// travel and turn in the frame it started in, split where the clip wraps
// or turns so that each piece lies inside one cycle. Identity for no
// advance or no duration.
func (rm *RootMotion) ClipMotion(rc *RuntimeClip, clock ClipClock, e0, adv float32) Transform {
	m := identityMotion
	d := float64(clock.Duration)
	if adv == 0 || !(d > 0) {
		return m
	}
	e, end := float64(e0), float64(e0)+float64(adv)
	local := func(e float64) float32 { clock.Elapsed = float32(e); return clock.Local() }
	forward := end > e
	// Whole cycles at once: a loop repeats the motion of one cycle from
	// where the clock stands; a ping-pong there and back goes nowhere.
	switch clock.Mode {
	case Loop:
		if k := int(math.Floor(math.Abs(end-e) / d)); k > 0 {
			t := local(e)
			if onBoundary(e, d) {
				t = ifElse(forward, 0, float32(d))
			}
			var cycle Transform
			if forward {
				cycle = then(rm.between(rc, t, float32(d)), rm.between(rc, 0, t))
			} else {
				cycle = then(rm.between(rc, t, 0), rm.between(rc, float32(d), t))
			}
			m = power(cycle, k)
			e += float64(k) * d * ifElse64(forward, 1, -1)
		}
	case PingPong:
		if k := math.Floor(math.Abs(end-e) / (2 * d)); k > 0 {
			e += k * 2 * d * ifElse64(forward, 1, -1)
		}
	}
	// The rest, split at the boundaries it crosses (multiples of the
	// duration: wraps and turns; Once clamps and has none): at most a few.
	loopEnd := float64(max(clock.Loops, 1)) * d
	for i := 0; i < 2*max(clock.Loops, 1)+4 && e != end; i++ {
		next := end
		if clock.Mode != Once {
			var b float64
			if forward {
				b = (math.Floor(e/d+1e-9) + 1) * d
				if b < end {
					next = b
				}
			} else {
				b = (math.Ceil(e/d-1e-9) - 1) * d
				if b > end {
					next = b
				}
			}
		}
		if math.Abs(next-e) < 1e-6*d {
			// A sliver past a boundary, from float32 rounding of the
			// clock: its end would round onto the boundary's other side.
			e = next
			continue
		}
		t0, t1 := local(e), local(next)
		switch {
		case clock.Mode == Repeat && max(e, next) <= 0:
			t0, t1 = 0, 0 // before the first loop: held at the start
		case clock.Mode == Repeat && min(e, next) >= loopEnd:
			t0, t1 = float32(d), float32(d) // past the last loop: held
		case clock.Mode == Loop || clock.Mode == Repeat:
			// A wrap shows the clip's other end: a piece starting on an
			// inner boundary starts at 0 (going forward) or at the end
			// (going back), and ends at the end or at 0.
			inner := func(x float64) bool {
				return onBoundary(x, d) && (clock.Mode == Loop || (x > 0 && x < loopEnd))
			}
			if inner(e) {
				t0 = ifElse(forward, 0, float32(d))
			}
			if inner(next) {
				t1 = ifElse(forward, float32(d), 0)
			}
		}
		m = then(m, rm.between(rc, t0, t1))
		e = next
	}
	return m
}

// power composes motion m with itself k times, by squaring.
func power(m Transform, k int) Transform {
	out := identityMotion
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			out = then(out, m)
		}
		m = then(m, m)
	}
	return out
}

func ifElse64(cond bool, a, b float64) float64 {
	if cond {
		return a
	}
	return b
}

// onBoundary reports whether elapsed time e is a whole number of
// durations d.
func onBoundary(e, d float64) bool {
	k := e / d
	return math.Abs(k-math.Round(k)) < 1e-7
}

func ifElse(cond bool, a, b float32) float32 {
	if cond {
		return a
	}
	return b
}

// jointAt samples joint j's translation, rotation and scale at clip time
// t without cursors (a binary search), as SampleSoAJob does with slerp.
func (c *RuntimeClip) jointAt(j int, t float32) (mgl32.Vec3, mgl32.Quat, mgl32.Vec3) {
	var out [3][4]float32
	for p := Translation; p <= Scale; p++ {
		nc := p.Components()
		stride := recHead + nc
		var tr laneTrack
		if c.pk == nil {
			tr = c.lanes[p][j]
		}
		other := false
		for _, o := range c.other {
			if int(o.cursor) == int(p)*c.numJoints+j {
				tr, other = o.track, true // a STEP or CUBICSPLINE track (behind its shadow)
			}
		}
		var cur int32
		if other {
			sampleOther(c.keys, tr, nc, t, &cur, &out[p])
			continue
		}
		var a, b []float32
		var u float32
		if c.pk != nil {
			// A pair as the cache lays it out, its components 8 apart.
			var g [groupLanes*(1+2*4) + 1]float32
			var end float32
			c.pk.refill(p, j, t, &cur, g[:], &end)
			var ka, kb [4]float32
			for i := range nc {
				ka[i], kb[i] = g[groupLanes*(2+i)], g[groupLanes*(2+nc+i)]
			}
			a, b, u = ka[:nc], kb[:nc], Clamp01((t-g[0])*g[groupLanes])
		} else {
			k, uk := bracket(c.keys, tr, stride, t, &cur)
			r := c.keys[int(tr.off)+k*stride:]
			a, b, u = r[recHead:recHead+nc], r[stride+recHead:stride+recHead+nc], uk
		}
		if p == Rotation {
			out[p][0], out[p][1], out[p][2], out[p][3] = slerpPoly(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], u)
			continue
		}
		for i := range nc {
			out[p][i] = a[i] + (b[i]-a[i])*u
		}
	}
	return mgl32.Vec3{out[0][0], out[0][1], out[0][2]},
		mgl32.Quat{W: out[1][3], V: mgl32.Vec3{out[1][0], out[1][1], out[1][2]}},
		mgl32.Vec3{out[2][0], out[2][1], out[2][2]}
}

// TakeOut removes the root motion's part from the pose's root joint: the
// root's model transform P·L becomes E⁻¹·P·L, E its extracted part, so
// that the root keeps its height and sway but not its travel or turn.
// It returns the part taken out. out must be a pose of the set-up's
// skeleton.
func (rm *RootMotion) TakeOut(out *SoAPose) Transform {
	root := out.At(rm.joint)
	world := rm.parent.Mul4(root.Mat4())
	p, q := rm.extract(world)
	e := mgl32.Translate3D(p[0], p[1], p[2]).Mul4(q.Mat4())
	t := DecomposeMat4(rm.parentIn.Mul4(e.Inv()).Mul4(world))
	t.Scale = root.Scale // kept exactly: the decomposition would round it
	out.Set(rm.joint, t)
	return Transform{Translation: p, Rotation: q, Scale: mgl32.Vec3{1, 1, 1}}
}

// Then composes motion b after a (b in the frame a ends in): the way a
// character's model transform accumulates the motion of each frame.
func Then(a, b Transform) Transform { return then(a, b) }

// sameTransform is *a == *b, its fields compared in line: comparing the
// structs calls their type's equality function, on every blend.
func sameTransform(a, b *Transform) bool {
	return a.Translation == b.Translation && a.Rotation.W == b.Rotation.W && a.Rotation.V == b.Rotation.V && a.Scale == b.Scale
}

// lerpMotion is the root-motion part of a blend: translation lerped,
// rotation slerped, by w.
func lerpMotion(out, a, b *SoAPose, w float32) {
	switch {
	case sameTransform(&a.Motion, &b.Motion): // root motion off: both identity
		out.Motion = a.Motion
	case w <= 0:
		out.Motion = a.Motion
	case w >= 1:
		out.Motion = b.Motion
	default:
		out.Motion = Transform{
			Translation: a.Motion.Translation.Add(b.Motion.Translation.Sub(a.Motion.Translation).Mul(w)),
			Rotation:    Slerp(a.Motion.Rotation, b.Motion.Rotation, w),
			Scale:       mgl32.Vec3{1, 1, 1},
		}
	}
}
