package anim_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// expressive is a RobotExpressive-like character: a chain of 5 joints
// turning, keyed at 30 Hz for 10 s, and on joint 2's mesh 20 expression
// weights, each a sum of two slow sines keyed at 30 Hz on one LINEAR
// track, and 2 blink weights on a STEP track keyed every half second.
// disp[k] is channel k's displacement: 2 mm·(k+1), 0 for channel 5 (a
// target that moves nothing), 1 cm for the blinks.
type expressive struct {
	sk   *anim.Skeleton
	clip anim.Clip
	disp []float64
}

const (
	exprWeights = 20
	exprBlinks  = 2
)

// expressionWeight is weight c at t: within [0, 1], smooth.
func expressionWeight(c int, t float64) float64 {
	f := 0.15 + 0.03*float64(c)
	return 0.5 + 0.35*math.Sin(2*math.Pi*f*t+float64(c)) + 0.15*math.Sin(2*math.Pi*2.1*f*t+2*float64(c))
}

func newExpressive() expressive {
	sk := animtest.Chain(5)
	n := exprWeights + exprBlinks
	sk.MorphRest = make([]float32, n)
	sk.MorphJoint = make([]int, n)
	for k := range sk.MorphJoint {
		sk.MorphJoint[k] = 2
	}
	c := anim.Clip{Name: "Dance", Duration: 10}
	const keys = 300
	for j := range sk.NumJoints() {
		r := anim.Track{Joint: j, Path: anim.Rotation, Interp: anim.Linear}
		axis := mgl32.Vec3{0.3, 1, float32(j%3) * 0.2}.Normalize()
		for k := 0; k <= keys; k++ {
			t := float64(k) / 30
			q := mgl32.QuatRotate(float32(0.4*math.Sin(2*math.Pi*t*0.5+float64(j))), axis)
			r.Times = append(r.Times, float32(t))
			r.Values = append(r.Values, q.V[0], q.V[1], q.V[2], q.W)
		}
		c.Tracks = append(c.Tracks, r)
	}
	face := anim.MorphTrack{Channel: 0, Count: exprWeights, Interp: anim.Linear}
	for k := 0; k <= keys; k++ {
		t := float64(k) / 30
		face.Times = append(face.Times, float32(t))
		for w := range exprWeights {
			face.Values = append(face.Values, float32(expressionWeight(w, t)))
		}
	}
	blink := anim.MorphTrack{Channel: exprWeights, Count: exprBlinks, Interp: anim.Step}
	for k := 0; k <= 20; k++ {
		blink.Times = append(blink.Times, float32(k)/2)
		blink.Values = append(blink.Values, float32(k%2), float32(k%3)/2)
	}
	c.Morph = []anim.MorphTrack{face, blink}
	disp := make([]float64, n)
	for k := range disp {
		disp[k] = 0.002 * float64(k+1)
		if k >= exprWeights {
			disp[k] = 0.01
		}
	}
	disp[5] = 0
	return expressive{sk, c, disp}
}

// sourceWeight is weight channel w of clip c at t by the glTF rules,
// computed here: the first key's value up to it, the last's from it,
// between keys linear (LINEAR) or the earlier key's (STEP); the rest
// weight where no track drives it.
func sourceWeight(c *anim.Clip, rest []float32, w int, t float64) float64 {
	for _, tr := range c.Morph {
		if w < tr.Channel || w >= tr.Channel+tr.Count {
			continue
		}
		ts := tr.Times
		v := func(k int) float64 { return float64(tr.Values[k*tr.Count+w-tr.Channel]) }
		last := len(ts) - 1
		switch {
		case t <= float64(ts[0]):
			return v(0)
		case t >= float64(ts[last]):
			return v(last)
		}
		k := 0
		for float64(ts[k+1]) <= t {
			k++
		}
		if tr.Interp == anim.Step {
			return v(k)
		}
		u := (t - float64(ts[k])) / (float64(ts[k+1]) - float64(ts[k]))
		return v(k) + (v(k+1)-v(k))*u
	}
	return float64(rest[w])
}

// denseTimes are the times from lo to hi every step, and every key time
// of c's weights.
func denseWeightTimes(c *anim.Clip, lo, hi, step float64) []float32 {
	var ts []float32
	for t := lo; t <= hi; t += step {
		ts = append(ts, float32(t))
	}
	for _, tr := range c.Morph {
		ts = append(ts, tr.Times...)
	}
	return ts
}

// weightError is the worst vertex error of rc's weights against the
// source's over times, each channel's weight error times its
// displacement, with one job kept over the times (as playback keeps it);
// STEP channels (from) must match exactly.
func weightError(t *testing.T, e *expressive, rc *anim.RuntimeClip, times []float32) float64 {
	t.Helper()
	job := rc.NewSampleJob(false, anim.NewPose(e.sk))
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	var worst float64
	for _, tm := range times {
		job.Time = tm
		job.Run()
		for w, d := range e.disp {
			want := sourceWeight(&e.clip, e.sk.MorphRest, w, float64(tm))
			got := float64(job.Output.W[w])
			if w >= exprWeights {
				if got != want {
					t.Errorf("t=%v: STEP weight %d is %v; want %v exactly", tm, w, got, want)
				}
				continue
			}
			worst = max(worst, d*math.Abs(got-want))
		}
	}
	return worst
}

func TestCompressMorphExpressions(t *testing.T) {
	e := newExpressive()
	const tol = 1e-4 // 0.01 cm
	rc, rep, err := anim.CompressClip(&e.clip, e.sk, anim.CompressOptions{Tolerance: tol, MorphDisplacement: e.disp})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kept {
		t.Fatal("clip kept uncompressed")
	}
	// The weights as stored raw: floats and a descriptor (3 bytes and the
	// key count's varint) per track.
	wantRaw := 4*301*(1+exprWeights) + 3 + 2 + 4*21*(1+exprBlinks) + 3 + 1
	if rep.MorphRawBytes != wantRaw {
		t.Errorf("raw weights %d bytes; want %d", rep.MorphRawBytes, wantRaw)
	}
	t.Logf("weights %d → %d bytes, error max %.3g cm; clip %d → %d bytes", rep.MorphRawBytes, rep.MorphBytes, 100*rep.MorphMaxError, rep.RawBytes, rep.Bytes)
	if rep.MorphBytes > rep.MorphRawBytes*7/10 {
		t.Errorf("weights %d → %d bytes; want 30%% smaller at least", rep.MorphRawBytes, rep.MorphBytes)
	}
	if !(rep.MorphMaxError > 0 && rep.MorphMaxError <= tol) {
		t.Errorf("reported weight error %g; want within (0, %g]", rep.MorphMaxError, tol)
	}
	if got := weightError(t, &e, rc, denseWeightTimes(&e.clip, -0.2, 10.2, 1.0/997)); got > tol {
		t.Errorf("weights move vertices by %g; want ≤ %g", got, tol)
	}
	if got := compressedError(t, e.sk, &e.clip, rc, denseWeightTimes(&e.clip, 0, 10, 1.0/97)); got > tol {
		t.Errorf("joint error %g; want ≤ %g", got, tol)
	}
	// The joints pack as they do without the weights packed: the sizes
	// differ by the weights' alone.
	rc0, rep0, err := anim.CompressClip(&e.clip, e.sk, anim.CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	if rep0.MorphBytes != wantRaw || rep0.MorphRawBytes != wantRaw || rep0.MorphMaxError != 0 {
		t.Errorf("without displacements: weights %d → %d bytes, error %g; want %d both, no error", rep0.MorphRawBytes, rep0.MorphBytes, rep0.MorphMaxError, wantRaw)
	}
	if rep.Bytes-rep.MorphBytes != rep0.Bytes-rep0.MorphBytes {
		t.Errorf("joints %d bytes with the weights packed, %d without", rep.Bytes-rep.MorphBytes, rep0.Bytes-rep0.MorphBytes)
	}
	if got := weightError(t, &e, rc0, denseWeightTimes(&e.clip, 0, 10, 1.0/97)); got > 1e-6 {
		t.Errorf("raw weights stray by %g", got)
	}
	// Channel 5 moves nothing: dropped to its rest weight, no channel at
	// all; the others keep fewer keys than the source's 301.
	_, _, chans := anim.PackedMorph(rc)
	if len(chans) != exprWeights-1 {
		t.Errorf("%d packed channels; want %d", len(chans), exprWeights-1)
	}
	for _, ch := range chans {
		if ch.W == 5 || ch.W >= exprWeights {
			t.Errorf("channel %d packed", ch.W)
		}
		if ch.N >= 301 || ch.Bits >= 32 {
			t.Errorf("channel %d keeps %d keys at %d bits", ch.W, ch.N, ch.Bits)
		}
	}
}

// A weight that moves nothing costs what a weight that never changes
// costs: nothing but its bit.
func TestCompressMorphZeroDisplacementCostsNothing(t *testing.T) {
	e := newExpressive()
	flat := newExpressive()
	face := &flat.clip.Morph[0]
	face.Values = append([]float32(nil), face.Values...)
	for k := range face.Times {
		face.Values[k*exprWeights+5] = 0 // its rest weight
	}
	_, rep, err := anim.CompressClip(&e.clip, e.sk, anim.CompressOptions{Tolerance: 1e-4, MorphDisplacement: e.disp})
	if err != nil {
		t.Fatal(err)
	}
	_, repFlat, err := anim.CompressClip(&flat.clip, flat.sk, anim.CompressOptions{Tolerance: 1e-4, MorphDisplacement: flat.disp})
	if err != nil {
		t.Fatal(err)
	}
	if rep.MorphBytes != repFlat.MorphBytes {
		t.Errorf("weights %d bytes with channel 5 animated at no displacement, %d with it still", rep.MorphBytes, repFlat.MorphBytes)
	}
}

// Sizes by hand. Three weights of displacement 0.1 m at 0.01 cm, keyed
// at 0 and 1 s: a ramp from 0 to 1 (its two keys coded in 1 bit each, its
// range's minimum 0 and step 1 with no mantissa bits), 0.25 throughout (a
// constant: 0.25 with no mantissa bits) and one of no displacement
// (dropped). The time table is a grid of 2 times, 0 and 1 s, 1 apart: 1
// bit for its form, 3 for its count (exp-Golomb of 2), 9 for the step with
// no mantissa bits, 5 saying so and 1 saying the first time is 0: 19 bits.
// Then a bit per weight, 3; the ramp, 1 (coded) + 5 + 5 + 1 (keys every
// time) + 2·9 (range) + 2·1 (codes) = 32; the constant 2 + 5 + 9 = 16:
// 70 bits, 9 bytes. The source track is 2 keys of 3 weights: 4·(2+6)
// bytes of floats, 3 of descriptor and 1 of key count, 36.
func TestCompressMorphSizesByHand(t *testing.T) {
	sk := animtest.Chain(2)
	sk.MorphRest, sk.MorphJoint = []float32{0, 0, 0.5}, []int{1, 1, 1}
	c := animtest.TurnClip("Nod", 1, 1, 0, 30)
	c.Morph = []anim.MorphTrack{{Channel: 0, Count: 3, Interp: anim.Linear, Times: []float32{0, 1},
		Values: []float32{0, 0.25, 0.9, 1, 0.25, 0.1}}}
	rc, rep, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: 1e-4, MorphDisplacement: []float64{0.1, 0.1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.MorphRawBytes != 36 || rep.MorphBytes != 9 || rep.MorphMaxError != 0 {
		t.Errorf("weights %d → %d bytes, error %g; want 36 → 9, none", rep.MorphRawBytes, rep.MorphBytes, rep.MorphMaxError)
	}
	times, step, chans := anim.PackedMorph(rc)
	want := []anim.MorphChan{{W: 0, N: 2, Bits: 1, Every: true}, {W: 1, N: 1}}
	if len(times) != 2 || times[0] != 0 || times[1] != 1 || step != 1 || len(chans) != len(want) {
		t.Fatalf("table %v step %v, channels %+v; want 0 and 1 s on a grid of 1, %+v", times, step, chans, want)
	}
	for i := range want {
		if chans[i] != want[i] {
			t.Errorf("channel %+v; want %+v", chans[i], want[i])
		}
	}
	for _, tm := range []float32{0, 0.25, 0.5, 0.75, 1} {
		w := sampleRuntime(rc, tm, sk).W
		if w[0] != tm || w[1] != 0.25 || w[2] != 0.5 {
			t.Errorf("t=%v: weights %v; want %v 0.25 0.5 (the ramp, the constant, the rest)", tm, w, tm)
		}
	}
}

// The packed weights sample as the source's at the clip's ends, on keys,
// before and after it, and as playback meets them: a job kept over a
// clock in every loop mode, forwards and backwards, gives what a fresh
// job gives at each time, bit for bit, and no allocation.
func TestCompressMorphBoundaries(t *testing.T) {
	e := newExpressive()
	const tol = 1e-4
	rc, _, err := anim.CompressClip(&e.clip, e.sk, anim.CompressOptions{Tolerance: tol, MorphDisplacement: e.disp})
	if err != nil {
		t.Fatal(err)
	}
	table, _, chans := anim.PackedMorph(rc)
	if len(chans) == 0 {
		t.Fatal("no weight packed") // as where the packing, checked as played, was found over the tolerance
	}
	edges := []float32{0, 10, -1, 11, float32(math.Nextafter32(0, 1)), math.Nextafter32(10, 0), 1.0 / 30, 299.0 / 30}
	edges = append(edges, table...)
	if got := weightError(t, &e, rc, edges); got > tol {
		t.Errorf("at the edges and keys, weights move vertices by %g; want ≤ %g", got, tol)
	}
	// Exactly on the ends: the first and the last key as packed, which
	// stand for the source's first and last.
	for _, tm := range []float32{0, 10} {
		w := sampleRuntime(rc, tm, e.sk).W
		for k := range exprWeights {
			if d := e.disp[k] * math.Abs(float64(w[k])-sourceWeight(&e.clip, e.sk.MorphRest, k, float64(tm))); d > tol {
				t.Errorf("t=%v: weight %d moves vertices by %g", tm, k, d)
			}
		}
	}
	for _, c := range []struct {
		mode anim.LoopMode
		rate float32
	}{{anim.Loop, 1}, {anim.Loop, -1.3}, {anim.Once, 1}, {anim.Once, -1}, {anim.PingPong, 1.7}, {anim.Repeat, 1}} {
		clock := anim.NewClipClock(10, c.mode)
		clock.Rate, clock.Loops = c.rate, 2
		kept := rc.NewSampleJob(false, anim.NewPose(e.sk))
		for step := range 1500 {
			clock.Advance(1.0 / 60)
			tm := clock.Local()
			kept.Time = tm
			kept.Run()
			fresh := sampleRuntime(rc, tm, e.sk)
			for k, w := range fresh.W {
				if kept.Output.W[k] != w {
					t.Fatalf("%v at rate %v, step %d (t=%v): weight %d is %v kept, %v fresh", c.mode, c.rate, step, tm, k, kept.Output.W[k], w)
				}
			}
		}
		if a := testing.AllocsPerRun(100, func() { clock.Advance(0.05); kept.Time = clock.Local(); kept.Run() }); a != 0 {
			t.Errorf("%v: %v allocations a sample", c.mode, a)
		}
	}
	// A job given another clip's cursors and cache (a clip of the same
	// shape, its weights halved) samples that clip as a fresh job does.
	half := newExpressive()
	face := &half.clip.Morph[0]
	face.Values = append([]float32(nil), face.Values...)
	for k := range face.Values {
		face.Values[k] /= 2
	}
	rc2, _, err := anim.CompressClip(&half.clip, half.sk, anim.CompressOptions{Tolerance: tol, MorphDisplacement: half.disp})
	if err != nil {
		t.Fatal(err)
	}
	if rc2.NumCursors() != rc.NumCursors() || rc2.CacheLen() != rc.CacheLen() {
		t.Fatalf("halved clip needs %d cursors and %d floats of cache; the clip %d and %d", rc2.NumCursors(), rc2.CacheLen(), rc.NumCursors(), rc.CacheLen())
	}
	job := rc.NewSampleJob(false, anim.NewPose(e.sk))
	for _, tm := range []float32{2.5, 2.51, 7, 7.02} {
		job.Clip, job.Time = rc, tm
		job.Run()
		job.Clip = rc2
		job.Run()
		fresh := sampleRuntime(rc2, tm, e.sk)
		for k, w := range fresh.W {
			if job.Output.W[k] != w {
				t.Fatalf("t=%v: weight %d of the halved clip is %v after the clip's, %v fresh", tm, k, job.Output.W[k], w)
			}
		}
	}
}

// Sampling the expressive clip as playback does, its weights raw and
// packed: what decoding the packed weights costs a frame.
func BenchmarkSampleMorphExpressions(b *testing.B) {
	e := newExpressive()
	raw, _, err := anim.CompressClip(&e.clip, e.sk, anim.CompressOptions{Tolerance: 1e-4})
	if err != nil {
		b.Fatal(err)
	}
	packed, _, err := anim.CompressClip(&e.clip, e.sk, anim.CompressOptions{Tolerance: 1e-4, MorphDisplacement: e.disp})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		rc   *anim.RuntimeClip
	}{{"raw", raw}, {"packed", packed}} {
		b.Run(c.name, func(b *testing.B) {
			job := c.rc.NewSampleJob(false, anim.NewPose(e.sk))
			for i := 0; b.Loop(); i++ {
				job.Time = float32(i%600) / 60
				job.Run()
			}
		})
	}
}
