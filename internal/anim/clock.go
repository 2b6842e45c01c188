package anim

import "math"

// LoopMode is what a clip clock does at the end of its clip.
type LoopMode uint8

const (
	// Loop wraps to the start (and, played backwards, to the end).
	Loop LoopMode = iota
	// Once stops on the last frame (or the first, played backwards).
	Once
	// PingPong plays forwards, then backwards, and so on.
	PingPong
	// Repeat plays Loops times, then holds the last frame.
	Repeat
)

func (m LoopMode) String() string {
	switch m {
	case Loop:
		return "loop"
	case Once:
		return "once"
	case PingPong:
		return "ping-pong"
	case Repeat:
		return "repeat"
	}
	return "LoopMode(?)"
}

// ClipClock maps global time to a clip's local time (GEA §12.4): with
// τ the time since the clip started, R the rate and T the duration,
// t = clamp(τ·R, 0, N·T) mod T. It holds the scaled time τ·R so that rate
// changes take effect from now on, without jumps.
type ClipClock struct {
	// Duration T of the clip in seconds.
	Duration float32
	// Rate R: 1 plays at authored speed, 0.5 half speed, negative plays
	// backwards. The zero value is treated as 1 by NewClipClock only.
	Rate float32
	// Mode at the end of the clip.
	Mode LoopMode
	// Loops N for Repeat; ignored otherwise.
	Loops int
	// Elapsed is τ·R, the clip time before looping is applied, in seconds.
	Elapsed float32
}

// NewClipClock returns a clock at the start of a clip of the given
// duration, playing forward at authored speed in mode.
func NewClipClock(duration float32, mode LoopMode) ClipClock {
	return ClipClock{Duration: duration, Rate: 1, Mode: mode, Loops: 1}
}

// Advance moves the clock by dt seconds of global time.
func (c *ClipClock) Advance(dt float32) { c.Elapsed += dt * c.Rate }

// Rewind takes whole cycles off a looping or ping-ponging clock's Elapsed,
// which changes no Local time, so that Local needs no division while the
// clock stays inside its first cycle (and float32 keeps its precision). A
// clock that stops (Once, Repeat) is held at its ends: played on past
// one, it keeps no time there to play back through before it moves again.
func (c *ClipClock) Rewind() {
	period := c.Duration
	switch c.Mode {
	case Loop:
	case PingPong:
		period *= 2
	case Once:
		c.Elapsed = min(max(c.Elapsed, 0), c.Duration)
		return
	case Repeat:
		c.Elapsed = min(max(c.Elapsed, 0), float32(max(c.Loops, 1))*c.Duration)
		return
	default:
		return
	}
	if period > 0 && (c.Elapsed >= period || c.Elapsed < 0) {
		c.Elapsed = float32(posMod(float64(c.Elapsed), float64(period)))
		if c.Elapsed >= period { // rounding of a tiny negative time
			c.Elapsed = 0
		}
	}
}

// Local is the clip-local time for Elapsed, in [0, Duration]. Elapsed
// within [0, Duration) is its own local time in every mode (each one's
// first pass), where a clock spends most frames: that answers without a
// call (Local inlines; localSlow does not).
func (c *ClipClock) Local() float32 {
	if c.Elapsed >= 0 && c.Elapsed < c.Duration {
		return c.Elapsed
	}
	return c.localSlow()
}

// localSlow is Local outside [0, Duration).
func (c *ClipClock) localSlow() float32 {
	t, d := float64(c.Elapsed), float64(c.Duration)
	if !(d > 0) {
		return 0
	}
	switch c.Mode {
	case Once:
		return min(max(c.Elapsed, 0), c.Duration)
	case PingPong:
		p := posMod(t, 2*d)
		if p > d {
			p = 2*d - p
		}
		return float32(p)
	case Repeat:
		n := float64(max(c.Loops, 1))
		if t <= 0 {
			return 0
		}
		if t >= n*d {
			return float32(d) // holds the end of the last loop, not the start
		}
		return float32(posMod(t, d))
	default:
		if t == d {
			return c.Duration // the end itself, where a seek to it asks to be
		}
		return float32(posMod(t, d))
	}
}

// Returning reports whether a PingPong clock is on its way back: Elapsed
// in the second half, [Duration, 2·Duration), of its cycle. False in the
// other modes and for no duration.
func (c *ClipClock) Returning() bool {
	d := float64(c.Duration)
	return c.Mode == PingPong && d > 0 && posMod(float64(c.Elapsed), 2*d) >= d
}

// Finished reports whether a clock that stops (Once, Repeat) has reached
// its end in the direction it plays.
func (c *ClipClock) Finished() bool {
	d := float64(c.Duration)
	switch c.Mode {
	case Once:
		return (c.Rate >= 0 && float64(c.Elapsed) >= d) || (c.Rate < 0 && c.Elapsed <= 0)
	case Repeat:
		return (c.Rate >= 0 && float64(c.Elapsed) >= float64(max(c.Loops, 1))*d) || (c.Rate < 0 && c.Elapsed <= 0)
	}
	return false
}

func posMod(a, m float64) float64 {
	r := math.Mod(a, m)
	if r < 0 {
		r += m
	}
	return r
}
