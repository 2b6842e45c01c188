package main

import "github.com/skinview/skinview/internal/anim"

// playback is the interactive clip clock plus the play/pause state.
type playback struct {
	clock   anim.ClipClock
	playing bool
}

// frameStep is one scrub step: 1/30 s, the common key rate.
const frameStep = float32(1.0 / 30)

func newPlayback(duration, start float32) *playback {
	p := &playback{clock: anim.NewClipClock(duration, anim.Loop), playing: true}
	p.clock.Elapsed = start
	return p
}

// advance moves time on by dt seconds of wall-clock time while playing.
func (p *playback) advance(dt float32) {
	if p.playing {
		p.clock.Advance(dt)
	}
}

// step moves one frame (or one second with coarse) and pauses, the way
// scrubbing behaves in animation tools. Steps are in clip time, whatever
// the playback rate.
func (p *playback) step(dir int, coarse bool) {
	d := frameStep
	if coarse {
		d = 1
	}
	p.playing = false
	p.clock.Elapsed = p.clock.Local() + float32(dir)*d
}

// time is the clip-local time to show.
func (p *playback) time() float32 { return p.clock.Local() }
