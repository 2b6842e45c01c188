package anim

import (
	"fmt"
	"math"
	"sort"
)

// Event tracks (GEA §12.4.6): named markers at times of a clip, fired once
// each time the clip the timeline shows plays across them, whatever its
// rate, direction, loop wraps or ping-pong turns; a seek fires nothing.

// Marker is a named time in a clip.
type Marker struct {
	Time float32
	Name string
}

// contactRate is how often a clip is sampled to find contacts, and
// contactGap the shortest lift, in seconds, that ends one: a foot rolling
// over its sole wavers about the thresholds for a few samples.
const (
	contactRate = 60
	contactGap  = 0.15
)

// fillGaps marks as down every run of up samples shorter than gap between
// two down ones, the samples taken to loop.
func fillGaps(down []bool, gap int) {
	n := len(down)
	for start := 0; start < n; start++ {
		if !down[start] || down[(start+1)%n] {
			continue
		}
		// An up run starts at start+1: how long is it?
		k := 1
		for k < n && !down[(start+k)%n] {
			k++
		}
		if k < n && k-1 < gap {
			for i := 1; i < k; i++ {
				down[(start+i)%n] = true
			}
		}
	}
}

// Contacts finds the contact markers of clip rc, of skeleton sk, for
// joints: a marker "NAME:down", names[i] naming joints[i], where a joint
// comes down, its height above its lowest point in the clip under height
// and its vertical speed under speed (model units and units per second).
// The clip is sampled at contactRate; a contact starts where a joint goes
// from not down to down (a clip is taken to loop, so a contact under way
// at its start began at 0 only if it was not down at the end). The
// markers come joint by joint, each joint's in time order (SortMarkers
// orders them all); the slice and its scratch are allocated here.
func Contacts(rc *RuntimeClip, sk *Skeleton, joints []int, names []string, height, speed float32) []Marker {
	n := max(int(rc.duration*contactRate), 1)
	pose := NewPose(sk)
	models := make([]float32, PaletteFloats*sk.NumJoints())
	job := rc.NewSampleJob(false, pose)
	mp := ModelPaletteJob{Skeleton: sk, Input: pose, Models: models}
	pos := make([][][3]float32, len(joints)) // per joint, per sample
	for k := 0; k <= n; k++ {
		job.Time = rc.duration * float32(k) / float32(n)
		job.Run()
		mp.Run()
		for i, j := range joints {
			r := models[j*PaletteFloats:]
			pos[i] = append(pos[i], [3]float32{r[3], r[7], r[11]})
		}
	}
	dt := rc.duration / float32(n)
	var out []Marker
	for i := range joints {
		low := pos[i][0][1]
		for _, p := range pos[i] {
			low = min(low, p[1])
		}
		down := make([]bool, n+1)
		for k, p := range pos[i] {
			q := pos[i][min(k+1, n)]
			if k == n {
				q = pos[i][k-1]
			}
			// Vertical speed: an in-place cycle slides the planted foot
			// back at the walking speed.
			v := abs32(q[1]-p[1]) / max(dt, 1e-6)
			down[k] = p[1]-low < height && v < speed
		}
		fillGaps(down[:n], int(contactGap*contactRate))
		for k := 0; k < n; k++ {
			before := down[n-1]
			if k > 0 {
				before = down[k-1]
			}
			if down[k] && !before {
				out = append(out, Marker{Time: rc.duration * float32(k) / float32(n), Name: names[i] + ":down"})
			}
		}
	}
	return out
}

// Crossings calls fire for every marker (sorted by time) that a clip clock
// of the given duration, mode and loops passes moving from elapsed time e0
// by a signed advance a (ClipClock.Elapsed units, unwrapped), in the order
// they are passed. A marker at the starting point is not fired, one at the
// end point is (within eventSlack). It allocates nothing.
func Crossings(markers []Marker, duration float32, mode LoopMode, loops int, e0, a float32, fire func(Marker)) {
	if a == 0 || len(markers) == 0 || !(duration > 0) {
		return
	}
	d := float64(duration)
	c := crossing{lo: float64(e0), hi: float64(e0) + float64(a), forward: a > 0, fire: fire}
	if !c.forward {
		c.lo, c.hi = c.hi, c.lo
	}
	n := len(markers)
	// Each mode visits the elapsed times showing each marker in the order
	// a clock moving forward reaches them; a backward clock takes them in
	// the opposite order.
	switch mode {
	case Once:
		c.pass(markers, 0, 1, func(m Marker) (float64, bool) { return float64(m.Time), true })
	case Repeat:
		c.periods(0, float64(max(loops, 1)-1), func(k float64) {
			c.pass(markers, 0, 1, func(m Marker) (float64, bool) { return float64(m.Time) + d*k, true })
		})
	case PingPong:
		c.periods(math.Floor(c.lo/(2*d))-1, math.Ceil(c.hi/(2*d)), func(k float64) {
			there := func(m Marker) (float64, bool) { return float64(m.Time) + 2*d*k, true }
			back := func(m Marker) (float64, bool) {
				t := float64(m.Time)
				return 2*d - t + 2*d*k, t != 0 && t != d // the turning points are passed once
			}
			// pass reverses each half for a backward clock; the halves
			// swap here.
			if c.forward {
				c.pass(markers, 0, 1, there)
				c.pass(markers, n-1, -1, back)
			} else {
				c.pass(markers, n-1, -1, back)
				c.pass(markers, 0, 1, there)
			}
		})
	default: // Loop: a marker at the end shows at the start of the next cycle
		c.periods(math.Floor(c.lo/d)-1, math.Ceil(c.hi/d), func(k float64) {
			atEnd := func(m Marker) (float64, bool) { return d * k, float64(m.Time) >= d }
			inside := func(m Marker) (float64, bool) { return float64(m.Time) + d*k, float64(m.Time) < d }
			if c.forward {
				c.pass(markers, 0, 1, atEnd)
				c.pass(markers, 0, 1, inside)
			} else {
				c.pass(markers, 0, 1, inside)
				c.pass(markers, 0, 1, atEnd)
			}
		})
	}
}

// eventSlack is how near, in seconds, a clock counts as standing on a
// marker: far below a frame, far above float32 rounding of clip times.
const eventSlack = 1e-5

// crossing is one Crossings call: the elapsed interval passed, its
// direction and what to call.
type crossing struct {
	lo, hi  float64
	forward bool
	fire    func(Marker)
}

// periods runs f for k from k0 to k1, or back for a backward clock.
func (c *crossing) periods(k0, k1 float64, f func(k float64)) {
	if c.forward {
		for k := k0; k <= k1; k++ {
			f(k)
		}
		return
	}
	for k := k1; k >= k0; k-- {
		f(k)
	}
}

// pass fires the markers from index i by step (the order a forward clock
// meets them; reversed for a backward clock) whose elapsed time lies in
// the interval passed.
func (c *crossing) pass(ms []Marker, i, step int, at func(Marker) (float64, bool)) {
	if !c.forward {
		i, step = len(ms)-1-i, -step
	}
	for ; i >= 0 && i < len(ms); i += step {
		e, ok := at(ms[i])
		if !ok {
			continue
		}
		// The interval is shifted by a hair (eventSlack) in the direction
		// of travel: a frame time a float's rounding past a marker counts
		// as on it, so stepping off it again does not fire it twice.
		if (c.forward && e > c.lo+eventSlack && e <= c.hi+eventSlack) || (!c.forward && e >= c.lo-eventSlack && e < c.hi-eventSlack) {
			c.fire(ms[i])
		}
	}
}

// checkMarkers validates a clip's markers, sorted by time, against its
// duration: the error names the clip and the marker's index.
func checkMarkers(ms []Marker, clip string, duration float32) error {
	for i, m := range ms {
		if !(m.Time >= 0 && m.Time <= duration) {
			return fmt.Errorf("anim: clip %q: markers[%d]: marker %q at %v s is outside the clip (0 to %v s)", clip, i, m.Name, m.Time, duration)
		}
		if m.Name == "" {
			return fmt.Errorf("anim: clip %q: markers[%d]: marker without a name", clip, i)
		}
	}
	return nil
}

// SortMarkers orders markers by time, stably, in place.
func SortMarkers(ms []Marker) {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Time < ms[j].Time })
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
