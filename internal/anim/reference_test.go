package anim_test

// Reference implementations the engine is tested against: the plain AoS
// forms of sampling, pose blending and local-to-model, written for clarity,
// one joint at a time. They are no playback path; the engine runs the SoA
// jobs.

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// refSampleJob evaluates a clip at one time into a local pose. Joints without
// a track keep their rest transform. It allocates nothing: the caller owns
// Cursors and Output and keeps them between frames.
type refSampleJob struct {
	// Clip to sample; validated against the skeleton beforehand.
	Clip *anim.Clip
	// Time in seconds, in clip-local time. Before the first key the first
	// value holds, after the last key the last.
	Time float32
	// Rest is the skeleton's rest pose; len = joint count.
	Rest []anim.Transform
	// Cursors is per-track key-search state; len = len(Clip.Tracks). Zero
	// values are fine; keeping it between calls makes playback O(1).
	Cursors []int
	// Output receives the local pose; len = joint count.
	Output []anim.Transform
}

// Validate reports a job that Run cannot execute.
func (j *refSampleJob) Validate() error {
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
func (j *refSampleJob) Run() {
	copy(j.Output, j.Rest)
	for i := range j.Clip.Tracks {
		tr := &j.Clip.Tracks[i]
		out := &j.Output[tr.Joint]
		var v [4]float32
		j.Cursors[i] = sampleTrack(tr, j.Time, j.Cursors[i], &v)
		switch tr.Path {
		case anim.Translation:
			out.Translation = mgl32.Vec3{v[0], v[1], v[2]}
		case anim.Scale:
			out.Scale = mgl32.Vec3{v[0], v[1], v[2]}
		case anim.Rotation:
			out.Rotation = mgl32.Quat{W: v[3], V: mgl32.Vec3{v[0], v[1], v[2]}}
		}
	}
}

// sampleTrack writes the track's value at t into v and returns the cursor.
func sampleTrack(tr *anim.Track, t float32, cursor int, v *[4]float32) int {
	nc := tr.Path.Components()
	stride, off := nc, 0
	if tr.Interp == anim.CubicSpline {
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
	case anim.Step:
		copy(v[:nc], key(k))
	case anim.Linear:
		a, b := key(k), key(k+1)
		if tr.Path == anim.Rotation {
			q := anim.Slerp(mgl32.Quat{W: a[3], V: mgl32.Vec3{a[0], a[1], a[2]}}, mgl32.Quat{W: b[3], V: mgl32.Vec3{b[0], b[1], b[2]}}, u)
			v[0], v[1], v[2], v[3] = q.V[0], q.V[1], q.V[2], q.W
		} else {
			for c := 0; c < nc; c++ {
				v[c] = a[c] + (b[c]-a[c])*u
			}
		}
	case anim.CubicSpline:
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
		if tr.Path == anim.Rotation {
			q := anim.NormalizeQuat(mgl32.Quat{W: v[3], V: mgl32.Vec3{v[0], v[1], v[2]}})
			v[0], v[1], v[2], v[3] = q.V[0], q.V[1], q.V[2], q.W
		}
	}
	return k
}

// refLocalToModelJob turns a local pose into model-space matrices with one
// forward pass over the parents-first joint order.
type refLocalToModelJob struct {
	// Skeleton gives the hierarchy.
	Skeleton *anim.Skeleton
	// Input is the local pose; len = joint count.
	Input []anim.Transform
	// Output receives each joint's model matrix; len = joint count.
	Output []mgl32.Mat4
}

// Validate reports a job that Run cannot execute.
func (j *refLocalToModelJob) Validate() error {
	if j.Skeleton == nil {
		return anim.ErrNilSkeleton
	}
	n := j.Skeleton.NumJoints()
	if len(j.Input) != n || len(j.Output) != n {
		return fmt.Errorf("anim: local-to-model has %d inputs and %d outputs for %d joints", len(j.Input), len(j.Output), n)
	}
	return nil
}

// Run computes Output[i] = Output[parent(i)] · Input[i].
func (j *refLocalToModelJob) Run() {
	parents := j.Skeleton.Parents
	for i := range j.Input {
		local := j.Input[i].Mat4()
		if p := parents[i]; p >= 0 {
			j.Output[i] = mulAffine(&j.Output[p], &local)
		} else {
			j.Output[i] = local
		}
	}
}

// mulAffine multiplies two affine matrices (bottom row 0 0 0 1), skipping
// the products that are known to be zero.
func mulAffine(a, b *mgl32.Mat4) mgl32.Mat4 {
	var m mgl32.Mat4
	for c := 0; c < 4; c++ {
		b0, b1, b2 := b[c*4], b[c*4+1], b[c*4+2]
		m[c*4+0] = a[0]*b0 + a[4]*b1 + a[8]*b2
		m[c*4+1] = a[1]*b0 + a[5]*b1 + a[9]*b2
		m[c*4+2] = a[2]*b0 + a[6]*b1 + a[10]*b2
	}
	m[12] += a[12]
	m[13] += a[13]
	m[14] += a[14]
	m[15] = 1
	return m
}

// refPaletteJob builds the skinning matrix palette of one skin:
// entry i = model(Skin.Joints[i]) · Skin.InverseBind[i], written as rows.
type refPaletteJob struct {
	// Skin selects joints and inverse binds.
	Skin *anim.Skin
	// Models are the skeleton's model matrices (refLocalToModelJob output).
	Models []mgl32.Mat4
	// Output receives PaletteFloats floats per skin joint, std140 layout:
	// entry i, row r, column c at Output[i*12 + r*4 + c].
	Output []float32
}

// Run writes the palette.
func (j *refPaletteJob) Run() {
	for i, jt := range j.Skin.Joints {
		m := mulAffine(&j.Models[jt], &j.Skin.InverseBind[i])
		anim.WritePaletteEntry(j.Output[i*anim.PaletteFloats:i*anim.PaletteFloats+anim.PaletteFloats], &m)
	}
}

// Pose operations. Every function here works joint by joint on local SRT
// poses ([]Transform, one entry per skeleton joint), writes into a buffer the
// caller owns and allocates nothing. Unless a function says otherwise, out
// may alias any input: each joint is read before it is written. Slices of
// different lengths are a programmer error and panic with an index error.

// refLerpPose blends two poses: out = a at w = 0, b at w = 1. Translation and
// scale are lerped, rotation is slerped along the shortest arc (nlerped with
// nlerp). w ≤ 0 and w ≥ 1 copy a or b bit for bit, so a blend at its ends
// reproduces its input exactly. len(out) == len(a) == len(b).
func refLerpPose(out, a, b []anim.Transform, w float32, nlerp bool) {
	if w <= 0 {
		copy(out, a)
		return
	}
	if w >= 1 {
		copy(out, b)
		return
	}
	_, _ = a[len(out)-1], b[len(out)-1]
	for i := range out {
		out[i] = lerpTransform(&a[i], &b[i], w, nlerp)
	}
}

func lerpTransform(a, b *anim.Transform, w float32, fast bool) anim.Transform {
	var r mgl32.Quat
	if fast {
		r = anim.Nlerp(a.Rotation, b.Rotation, w)
	} else {
		r = anim.Slerp(a.Rotation, b.Rotation, w)
	}
	return anim.Transform{
		Translation: lerpVec3(a.Translation, b.Translation, w),
		Rotation:    r,
		Scale:       lerpVec3(a.Scale, b.Scale, w),
	}
}

func lerpVec3(a, b mgl32.Vec3, w float32) mgl32.Vec3 {
	return mgl32.Vec3{a[0] + (b[0]-a[0])*w, a[1] + (b[1]-a[1])*w, a[2] + (b[2]-a[2])*w}
}

// seekKey returns k with times[k] <= t < times[k+1], clamped to
// [0, len-2], starting from the cursor of the previous call. Playback moves
// a little each frame, so the answer is almost always the cursor or its
// neighbour: O(1) amortized. A jump (scrub, loop wrap) falls back to a
// binary search.
func seekKey(times []float32, t float32, cursor int) int {
	n := len(times)
	if n < 2 {
		return 0
	}
	last := n - 2
	if cursor < 0 || cursor > last {
		cursor = 0
	}
	if times[cursor] <= t {
		for step := 0; step < 4; step++ {
			if cursor == last || t < times[cursor+1] {
				return cursor
			}
			cursor++
		}
	} else if cursor > 0 && times[cursor-1] <= t {
		return cursor - 1
	}
	lo, hi := 0, last // invariant: answer in [lo, hi]
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if times[mid] <= t {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
