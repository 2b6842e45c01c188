package anim

// MorphChan is what a test reads of one packed morph weight channel.
type MorphChan struct {
	W, N, Bits, Rbits int
	Every, Mask       bool
}

// PackedMorph is rc's packed morph weights: the time table, its grid
// step (0 for a list) and the channels; nil times and channels where rc
// has none.
func PackedMorph(rc *RuntimeClip) (times []float32, step float32, chans []MorphChan) {
	pm := rc.pm
	if pm == nil {
		return nil, 0, nil
	}
	for _, ch := range pm.chans {
		chans = append(chans, MorphChan{int(ch.w), int(ch.n), int(ch.bits), int(ch.rbits), ch.every, ch.mask})
	}
	return pm.times, pm.step, chans
}
