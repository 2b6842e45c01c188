package anim

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// SampleJob evaluates a clip at one time into a local pose. Joints without
// a track keep their rest transform. It allocates nothing: the caller owns
// Cursors and Output and keeps them between frames.
type SampleJob struct {
	// Clip to sample; validated against the skeleton beforehand.
	Clip *Clip
	// Time in seconds, in clip-local time. Before the first key the first
	// value holds, after the last key the last.
	Time float32
	// Rest is the skeleton's rest pose; len = joint count.
	Rest []Transform
	// Cursors is per-track key-search state; len = len(Clip.Tracks). Zero
	// values are fine; keeping it between calls makes playback O(1).
	Cursors []int
	// Output receives the local pose; len = joint count.
	Output []Transform
}

// Validate reports a job that Run cannot execute.
func (j *SampleJob) Validate() error {
	if j.Clip == nil {
		return errors.New("anim: sample job without clip")
	}
	if len(j.Cursors) != len(j.Clip.Tracks) {
		return fmt.Errorf("anim: sample job has %d cursors for %d tracks", len(j.Cursors), len(j.Clip.Tracks))
	}
	if len(j.Output) != len(j.Rest) {
		return fmt.Errorf("anim: sample job output has %d joints, rest pose %d", len(j.Output), len(j.Rest))
	}
	for i := range j.Clip.Tracks {
		if jt := j.Clip.Tracks[i].Joint; jt < 0 || jt >= len(j.Output) {
			return fmt.Errorf("anim: clip %q track %d targets joint %d of %d", j.Clip.Name, i, jt, len(j.Output))
		}
	}
	return nil
}

// Run samples the clip. Call Validate once when buffers are set up.
func (j *SampleJob) Run() {
	copy(j.Output, j.Rest)
	for i := range j.Clip.Tracks {
		tr := &j.Clip.Tracks[i]
		out := &j.Output[tr.Joint]
		var v [4]float32
		j.Cursors[i] = sampleTrack(tr, j.Time, j.Cursors[i], &v)
		switch tr.Path {
		case Translation:
			out.Translation = mgl32.Vec3{v[0], v[1], v[2]}
		case Scale:
			out.Scale = mgl32.Vec3{v[0], v[1], v[2]}
		case Rotation:
			out.Rotation = mgl32.Quat{W: v[3], V: mgl32.Vec3{v[0], v[1], v[2]}}
		}
	}
}

// sampleTrack writes the track's value at t into v and returns the cursor.
func sampleTrack(tr *Track, t float32, cursor int, v *[4]float32) int {
	nc := tr.Path.Components()
	stride, off := nc, 0
	if tr.Interp == CubicSpline {
		stride, off = 3*nc, nc // value sits between in- and out-tangent
	}
	times := tr.Times
	n := len(times)
	key := func(k int) []float32 { return tr.Values[k*stride+off : k*stride+off+nc] }
	if !(t > times[0]) || n == 1 { // a NaN time holds the first key too
		copy(v[:nc], key(0))
		return 0
	}
	if t >= times[n-1] {
		copy(v[:nc], key(n-1))
		return n - 2
	}
	k := seekKey(times, t, cursor)
	t0, t1 := times[k], times[k+1]
	dt := t1 - t0
	u := (t - t0) / dt
	switch tr.Interp {
	case Step:
		copy(v[:nc], key(k))
	case Linear:
		a, b := key(k), key(k+1)
		if tr.Path == Rotation {
			q := Slerp(mgl32.Quat{W: a[3], V: mgl32.Vec3{a[0], a[1], a[2]}}, mgl32.Quat{W: b[3], V: mgl32.Vec3{b[0], b[1], b[2]}}, u)
			v[0], v[1], v[2], v[3] = q.V[0], q.V[1], q.V[2], q.W
		} else {
			for c := 0; c < nc; c++ {
				v[c] = a[c] + (b[c]-a[c])*u
			}
		}
	case CubicSpline:
		// glTF 2.0 Appendix C: p(u) = h00·v0 + h10·dt·b0 + h01·v1 + h11·dt·a1
		// with b0 the out-tangent of key k and a1 the in-tangent of k+1.
		u2, u3 := u*u, u*u*u
		h00 := 2*u3 - 3*u2 + 1
		h10 := u3 - 2*u2 + u
		h01 := -2*u3 + 3*u2
		h11 := u3 - u2
		base0, base1 := k*stride, (k+1)*stride
		for c := 0; c < nc; c++ {
			v0 := tr.Values[base0+nc+c]
			b0 := tr.Values[base0+2*nc+c]
			a1 := tr.Values[base1+c]
			v1 := tr.Values[base1+nc+c]
			v[c] = h00*v0 + h10*dt*b0 + h01*v1 + h11*dt*a1
		}
		if tr.Path == Rotation {
			q := normalizeQuat(mgl32.Quat{W: v[3], V: mgl32.Vec3{v[0], v[1], v[2]}})
			v[0], v[1], v[2], v[3] = q.V[0], q.V[1], q.V[2], q.W
		}
	}
	return k
}
