package anim_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// fuzzReader hands out fuzz bytes; past the end it gives zeros.
type fuzzReader struct{ b []byte }

func (r *fuzzReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *fuzzReader) float(raw bool) float32 {
	var w [4]byte
	for i := range w {
		w[i] = r.byte()
	}
	if raw {
		return math.Float32frombits(binary.LittleEndian.Uint32(w[:]))
	}
	// A bounded value: int16 steps of 1/64.
	return float32(int16(binary.LittleEndian.Uint16(w[:]))) / 64
}

// fuzzClip builds a clip from fuzz bytes: key counts, joints, paths and
// interpolations at random; times and values either raw float bits (NaN,
// Inf, unsorted) or bounded, increasing times and bounded values. bounded
// reports the second kind, for which sampling must stay finite.
func fuzzClip(data []byte) (c anim.Clip, joints int, cursors []int, bounded bool) {
	r := &fuzzReader{b: data}
	joints = 1 + int(r.byte()%8)
	mode := r.byte()
	bounded = mode&1 == 0
	tracks := int(r.byte() % 6)
	for range tracks {
		tr := anim.Track{
			Joint:  int(r.byte()) % (joints + 1), // sometimes out of range: Validate must say so
			Path:   anim.Path(r.byte() % 3),
			Interp: anim.Interpolation(r.byte() % 3),
		}
		keys := int(r.byte() % 9) // zero keys: Validate must say so
		t := float32(0)
		for range keys {
			if bounded {
				t += 1/64.0 + float32(r.byte())/32
				tr.Times = append(tr.Times, t-2)
			} else {
				tr.Times = append(tr.Times, r.float(true))
			}
		}
		per := tr.Path.Components()
		if tr.Interp == anim.CubicSpline {
			per *= 3
		}
		if mode&2 != 0 && keys > 0 {
			per += int(r.byte()%3) - 1 // a wrong value count
		}
		for range per * keys {
			tr.Values = append(tr.Values, r.float(!bounded))
		}
		c.Tracks = append(c.Tracks, tr)
	}
	c.Duration = c.ComputeDuration()
	cursors = make([]int, len(c.Tracks))
	for i := range cursors {
		cursors[i] = int(int8(r.byte()))
	}
	return c, joints, cursors, bounded
}

// FuzzSample samples clips built from fuzz bytes at arbitrary times. Only
// clips that Validate accepts are sampled; sampling must not panic, and
// bounded keys at a time that is a number give finite poses.
func FuzzSample(f *testing.F) {
	linear := seedTrack{joint: 0, path: anim.Translation, interp: anim.Linear, steps: []byte{10, 20, 30}, values: []int16{0, 64, -64, 128, 0, 5, -300, 7, 1}}
	slerp := seedTrack{joint: 1, path: anim.Rotation, interp: anim.Linear, steps: []byte{5, 5}, values: []int16{0, 0, 0, 64, 0, 0, 45, 45}}
	cubic := seedTrack{joint: 2, path: anim.Scale, interp: anim.CubicSpline, steps: []byte{1, 100},
		values: []int16{1, 2, 3, 64, 64, 64, -9, 8, 7, 6, 5, 4, 128, 0, 64, 0, 0, 0}}
	step := seedTrack{joint: 0, path: anim.Rotation, interp: anim.Step, steps: []byte{0, 0, 0}, values: make([]int16, 12)}
	cubicRot := seedTrack{joint: 1, path: anim.Rotation, interp: anim.CubicSpline, steps: []byte{3, 4},
		values: []int16{9, 9, 9, 9, 0, 64, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 64, 0, 2, 2, 2, 2}}
	f.Add(fuzzSeed(3, 0, linear, slerp, cubic), float32(0.5))
	f.Add(fuzzSeed(2, 0, step, cubicRot), float32(-2))
	f.Add(fuzzSeed(3, 0, cubic, linear), float32(math.NaN()))
	f.Add(fuzzSeed(1, 2, linear), float32(1)) // a wrong value count
	f.Add(fuzzSeed(4, 1, linear, slerp), float32(math.Inf(1)))
	f.Add([]byte{0, 1, 1, 0, 0, 0, 2, 0, 0, 128, 127, 0, 0, 192, 127}, float32(0)) // Inf then NaN key times
	f.Fuzz(func(t *testing.T, data []byte, at float32) {
		c, joints, cursors, bounded := fuzzClip(data)
		if c.Validate(joints) != nil {
			return
		}
		rest := make([]anim.Transform, joints)
		for i := range rest {
			rest[i] = anim.IdentityTransform
		}
		rc, err := anim.NewRuntimeClip(&c, &anim.Skeleton{Names: make([]string, joints), Parents: rootParents(joints), Rest: rest})
		if err != nil {
			t.Fatalf("a validated clip does not build: %v", err)
		}
		_ = cursors
		out := make([]anim.Transform, joints)
		soa := anim.NewSoAPose(joints)
		job := rc.NewSampleJob(false, soa)
		if err := job.Validate(); err != nil {
			t.Fatalf("a validated clip fails the job's validation: %v", err)
		}
		nan, inf := float32(math.NaN()), float32(math.Inf(1))
		times := []float32{at, 0, c.Duration, c.Duration / 2, -inf, inf, nan, math.MaxFloat32, -math.MaxFloat32, at}
		for _, tr := range c.Tracks {
			for k, kt := range tr.Times {
				times = append(times, kt)
				if k > 0 {
					times = append(times, (kt+tr.Times[k-1])/2, math.Nextafter32(kt, -inf))
				}
			}
		}
		for _, tm := range times {
			job.Time = tm
			job.Run()
			soa.ToTransforms(out)
			// A NaN time holds the first key, so it too must give a
			// finite pose.
			if !bounded {
				continue
			}
			for j, o := range out {
				if !fuzzFinite(o.Translation[0], o.Translation[1], o.Translation[2], o.Scale[0], o.Scale[1], o.Scale[2],
					o.Rotation.W, o.Rotation.V[0], o.Rotation.V[1], o.Rotation.V[2]) {
					t.Fatalf("joint %d at time %v: %+v is not finite", j, tm, o)
				}
			}
		}
	})
}

// seedTrack describes a track for fuzzSeed: steps are the bytes that
// space bounded key times, values are int16 steps of 1/64.
type seedTrack struct {
	joint  byte
	path   anim.Path
	interp anim.Interpolation
	steps  []byte
	values []int16
}

// fuzzSeed encodes tracks in the layout fuzzClip reads.
func fuzzSeed(joints byte, mode byte, tracks ...seedTrack) []byte {
	b := []byte{joints - 1, mode, byte(len(tracks))}
	for _, tr := range tracks {
		b = append(b, tr.joint, byte(tr.path), byte(tr.interp), byte(len(tr.steps)))
		if mode&1 == 0 {
			b = append(b, tr.steps...)
		} else {
			for k := range tr.steps {
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(k)))
			}
		}
		if mode&2 != 0 {
			b = append(b, 0)
		}
		for _, v := range tr.values {
			if mode&1 == 0 {
				b = binary.LittleEndian.AppendUint16(b, uint16(v))
				b = append(b, 0, 0)
			} else {
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)*1e30))
			}
		}
	}
	return append(b, 1, 200, 3)
}

func fuzzFinite(v ...float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// FuzzSampleSoA samples clips built from fuzz bytes with a RuntimeClip and
// compares with refSampleJob. Clips that Validate accepts must build; any
// time must sample without a panic; for bounded keys at a time that is a
// number, every value agrees. The fuzz keys' rotations are not unit
// quaternions: the runtime clip normalizes LINEAR ones, so the reference
// samples a copy whose LINEAR rotation keys are normalized the same way.
func FuzzSampleSoA(f *testing.F) {
	linear := seedTrack{joint: 0, path: anim.Translation, interp: anim.Linear, steps: []byte{10, 20, 30}, values: []int16{0, 64, -64, 128, 0, 5, -300, 7, 1}}
	cubic := seedTrack{joint: 2, path: anim.Scale, interp: anim.CubicSpline, steps: []byte{1, 100},
		values: []int16{1, 2, 3, 64, 64, 64, -9, 8, 7, 6, 5, 4, 128, 0, 64, 0, 0, 0}}
	step := seedTrack{joint: 0, path: anim.Rotation, interp: anim.Step, steps: []byte{0, 0, 0}, values: make([]int16, 12)}
	f.Add(fuzzSeed(3, 0, linear, cubic), float32(0.5))
	f.Add(fuzzSeed(2, 0, step, linear), float32(-2))
	f.Add(fuzzSeed(4, 1, linear), float32(math.Inf(1)))
	f.Fuzz(func(t *testing.T, data []byte, at float32) {
		c, joints, cursors, bounded := fuzzClip(data)
		if c.Validate(joints) != nil {
			return
		}
		sk := animtest.Chain(joints)
		rc, err := anim.NewRuntimeClip(&c, sk)
		if err != nil {
			t.Fatalf("a validated clip does not build: %v", err)
		}
		// Two keys 180° apart (dot 0) have two shortest arcs; which one
		// is taken depends on how earlier keys were sign-aligned, so such
		// a joint's rotations are not compared.
		unit := c
		unit.Tracks = append([]anim.Track(nil), c.Tracks...)
		tie := make([]bool, joints)
		for i := range unit.Tracks {
			tr := &unit.Tracks[i]
			if tr.Path != anim.Rotation {
				continue
			}
			tie[tr.Joint] = false // the last rotation track of a joint wins
			if tr.Interp != anim.Linear {
				continue
			}
			tr.Values = append([]float32(nil), tr.Values...)
			var prev mgl32.Quat
			for k := 0; k+4 <= len(tr.Values); k += 4 {
				v := tr.Values[k : k+4]
				q := anim.NormalizeQuat(mgl32.Quat{W: v[3], V: mgl32.Vec3{v[0], v[1], v[2]}})
				v[0], v[1], v[2], v[3] = q.V[0], q.V[1], q.V[2], q.W
				if k > 0 && math.Abs(float64(prev.Dot(q))) < 1e-3 {
					tie[tr.Joint] = true
				}
				prev = q
			}
		}
		ref := refSampleJob{Clip: &unit, Rest: sk.Rest, Cursors: cursors, Output: make([]anim.Transform, joints)}
		job := rc.NewSampleJob(false, anim.NewSoAPose(joints))
		for i := range job.Cursors {
			job.Cursors[i] = int32(int8(i * 37)) // stale or garbage cursors are fine
		}
		nan, inf := float32(math.NaN()), float32(math.Inf(1))
		times := []float32{at, 0, c.Duration, -inf, inf, nan, math.MaxFloat32, at}
		for _, tr := range c.Tracks {
			for k, kt := range tr.Times {
				times = append(times, kt)
				if k > 0 {
					times = append(times, (kt+tr.Times[k-1])/2)
				}
			}
		}
		close := func(a, b float32) bool {
			return float32(math.Abs(float64(a-b))) <= 1e-4*(1+float32(math.Abs(float64(a)))+float32(math.Abs(float64(b))))
		}
		for _, tm := range times {
			ref.Time, job.Time = tm, tm
			ref.Run()
			job.Run()
			if !bounded || tm != tm {
				continue
			}
			for j := range joints {
				got, want := job.Output.At(j), ref.Output[j]
				for k := range 3 {
					if !close(got.Translation[k], want.Translation[k]) || !close(got.Scale[k], want.Scale[k]) {
						t.Fatalf("t=%v joint %d: %+v, refSampleJob %+v", tm, j, got, want)
					}
				}
				if !tie[j] && !sameQuat(got.Rotation, want.Rotation, close) {
					t.Fatalf("t=%v joint %d rotation: %v, refSampleJob %v", tm, j, got.Rotation, want.Rotation)
				}
			}
		}
	})
}

// sameQuat compares quaternions component by component, up to sign.
func sameQuat(a, b mgl32.Quat, close func(a, b float32) bool) bool {
	same := func(s float32) bool {
		return close(a.W, s*b.W) && close(a.V[0], s*b.V[0]) && close(a.V[1], s*b.V[1]) && close(a.V[2], s*b.V[2])
	}
	return same(1) || same(-1)
}

// rootParents is the parent list of n unrelated root joints.
func rootParents(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = -1
	}
	return p
}
