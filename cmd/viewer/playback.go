package main

// playback is the interactive clip clock: it loops the clip while playing
// and steps by frames when scrubbing.
type playback struct {
	time    float32 // clip-local seconds
	playing bool
}

// frameStep is one scrub step: 1/30 s, the common key rate.
const frameStep = float32(1.0 / 30)

func (p *playback) advance(dt, duration float32) {
	if !p.playing || duration <= 0 {
		return
	}
	p.time += dt
	p.wrap(duration)
}

// step moves one frame (or one second with coarse) and pauses, the way
// scrubbing behaves in animation tools.
func (p *playback) step(dir int, coarse bool, duration float32) {
	d := frameStep
	if coarse {
		d = 1
	}
	p.playing = false
	p.time += float32(dir) * d
	p.wrap(duration)
}

func (p *playback) wrap(duration float32) {
	if duration <= 0 {
		p.time = 0
		return
	}
	for p.time >= duration {
		p.time -= duration
	}
	for p.time < 0 {
		p.time += duration
	}
}
