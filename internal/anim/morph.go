package anim

import (
	"fmt"
	"slices"
)

// Morph target weights are part of the pose: every pose of a skeleton that
// has morph channels (Skeleton.MorphRest) carries one weight per channel in
// SoAPose.W, sampled from a clip's MorphTracks, blended, averaged, masked
// and added like the joints' components (linearly: weights are not
// rotations), and passed through cross-fades and state machines with the
// rest of the pose. A channel belongs to the joint of the node whose mesh it
// weights (Skeleton.MorphJoint), so a joint mask covers the morph weights of
// the meshes on its joints.

// MorphTrack animates the morph weights of one node: Count consecutive
// channels of the pose from Channel on, glTF's "weights" path.
type MorphTrack struct {
	// Channel is the first weight's index in the pose's W; Count weights
	// follow.
	Channel, Count int
	// Interp is the interpolation between keys.
	Interp Interpolation
	// Times are key times in seconds, strictly increasing, at least one.
	Times []float32
	// Values holds Count floats per key; for CubicSpline three groups of
	// Count per key: in-tangents, values, out-tangents (glTF's layout).
	Values []float32
}

// validateMorph checks a clip's morph tracks against m weight channels.
func (c *Clip) validateMorph(m int) error {
	for i := range c.Morph {
		tr := &c.Morph[i]
		if tr.Count < 1 || tr.Channel < 0 || tr.Channel+tr.Count > m {
			return fmt.Errorf("anim: clip %q morph track %d weights channels %d to %d of %d", c.Name, i, tr.Channel, tr.Channel+tr.Count-1, m)
		}
		if len(tr.Times) == 0 {
			return fmt.Errorf("anim: clip %q morph track %d has no keys", c.Name, i)
		}
		per := tr.Count
		if tr.Interp == CubicSpline {
			per *= 3
		}
		if len(tr.Values) != per*len(tr.Times) {
			return fmt.Errorf("anim: clip %q morph track %d has %d values for %d keys of %d weights; want %d", c.Name, i, len(tr.Values), len(tr.Times), tr.Count, per*len(tr.Times))
		}
		for k := 1; k < len(tr.Times); k++ {
			if !(tr.Times[k] > tr.Times[k-1]) {
				return fmt.Errorf("anim: clip %q morph track %d key times do not increase at key %d", c.Name, i, k)
			}
		}
	}
	return nil
}

// validateMorph checks the skeleton's morph channels.
func (s *Skeleton) validateMorph() error {
	if len(s.MorphJoint) != len(s.MorphRest) {
		return fmt.Errorf("anim: skeleton has %d morph rest weights for %d morph channels", len(s.MorphRest), len(s.MorphJoint))
	}
	for k, j := range s.MorphJoint {
		if j < 0 || j >= len(s.Parents) {
			return fmt.Errorf("anim: morph channel %d belongs to joint %d of %d", k, j, len(s.Parents))
		}
	}
	return nil
}

// NewPose returns a pose shaped for sk: its joints at the identity, and
// its morph weights (W) at sk's rest weights. The poses the engine makes
// for a skeleton are made here.
func NewPose(sk *Skeleton) *SoAPose {
	p := NewSoAPose(sk.NumJoints())
	p.W = slices.Clone(sk.MorphRest)
	p.wj = sk.MorphJoint
	return p
}

// NewRestPose returns a new pose of sk at its rest pose (NewPose, then
// FromRest), its translation and scale stripes tagged as holding those
// values, as a clip without such keys tags the stripes it holds: a blend
// over the pose, or a clip sampled into a copy of it, keeps them without
// arithmetic or copying.
func NewRestPose(sk *Skeleton) *SoAPose {
	p := NewPose(sk)
	p.FromRest(sk)
	for _, path := range tsPaths {
		p.held[path] = tagStripes(path, p.stripes(path))
	}
	return p
}

// FromRest sets p to sk's rest pose: every joint's rest transform and
// every morph channel's rest weight.
func (p *SoAPose) FromRest(sk *Skeleton) {
	p.FromTransforms(sk.Rest)
	copy(p.W, sk.MorphRest)
}

// lerpW is the morph part of a blend: out = a + (b − a)·w, per channel
// weighed by the mask of its joint when mask is not nil.
func lerpW(out, a, b *SoAPose, w float32, mask []float32) {
	ow, aw, bw := out.W, a.W[:len(out.W)], b.W[:len(out.W)]
	for k := range ow {
		wk := w
		if mask != nil {
			wk *= mask[out.wj[k]]
		}
		switch {
		case wk <= 0:
			ow[k] = aw[k]
		case wk >= 1:
			ow[k] = bw[k]
		default:
			ow[k] = aw[k] + (bw[k]-aw[k])*wk
		}
	}
}

// sampleMorph writes the clip's morph weights at time t into out.W, with
// the job's morph cursors and its cache (CacheLen).
func sampleMorph(c *RuntimeClip, t float32, cursors []int32, cache []float32, out *SoAPose) {
	var pairs []float32
	if c.pm != nil {
		pairs = cache[len(cache)-4*len(c.pm.chans):]
	}
	sampleMorphW(c, t, cursors, pairs, out.W)
}

// sampleMorphW writes the clip's morph weights at time t into w: the rest
// weights, then every track's channels, then a compressed clip's packed
// channels, whose cursors follow the tracks' and whose key pairs are in
// pairs (packedMorph.sample).
func sampleMorphW(c *RuntimeClip, t float32, cursors []int32, pairs, w []float32) {
	copy(w, c.morphRest)
	for i := range c.morph {
		tr := &c.morph[i]
		if tr.Channel+tr.Count > len(w) {
			continue // a pose without this skeleton's channels
		}
		sampleMorphTrack(tr, t, &cursors[i], w[tr.Channel:tr.Channel+tr.Count])
	}
	if c.pm != nil {
		c.pm.sample(t, cursors[len(c.morph):], pairs, w)
	}
}

// sampleMorphTrack samples one track into dst (Count weights).
func sampleMorphTrack(tr *MorphTrack, t float32, cur *int32, dst []float32) {
	n, ts := tr.Count, tr.Times
	per, base := n, 0
	if tr.Interp == CubicSpline {
		per, base = 3*n, n // the value sits after the in-tangents
	}
	last := len(ts) - 1
	switch {
	case last == 0 || !(t > ts[0]):
		copy(dst, tr.Values[base:base+n])
		return
	case t >= ts[last]:
		copy(dst, tr.Values[last*per+base:last*per+base+n])
		return
	}
	k := int(*cur)
	if k < 0 || k >= last || !(ts[k] <= t && t < ts[k+1]) {
		// The last key at or before t (t ≥ ts[0] here).
		var found bool
		k, found = slices.BinarySearch(ts, t)
		if !found {
			k--
		}
		k = max(0, min(last-1, k))
		*cur = int32(k)
	}
	dt := ts[k+1] - ts[k]
	u := Clamp01((t - ts[k]) / dt)
	v0, v1 := tr.Values[k*per:(k+1)*per], tr.Values[(k+1)*per:(k+2)*per]
	switch tr.Interp {
	case Step:
		copy(dst, v0[:n])
	case CubicSpline:
		hermite(dst[:n], v0, v1, dt, u)
	default:
		for c := range n {
			dst[c] = v0[c] + (v1[c]-v0[c])*u
		}
	}
}
