package anim_test

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// TestCompressedKeyTimesDecode reads the times of every track that keys
// some of the table's times back from the packed bytes, bit by bit, as a
// file reader would: a mask of one bit per time of the table, or an index
// per key. They must be the times the sampler finds its keys at
// (keyTime, which finds a mask's k-th set bit a word at a time), and the
// clips must hold tracks of both forms.
func TestCompressedKeyTimesDecode(t *testing.T) {
	sk := animtest.Humanoid()
	var masks, indices int
	for _, tol := range []float64{1e-4, 1e-3, 1e-2} {
		for _, c := range []anim.Clip{mocapClip(sk, 4), animtest.HumanoidClips(sk)[1]} {
			rc, _, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: tol})
			if err != nil {
				t.Fatal(err)
			}
			pk := rc.FieldPk()
			for p := range pk.FieldTracks() {
				for j := range pk.FieldTracks()[p] {
					tr := &pk.FieldTracks()[p][j]
					if tr.FieldN() < 2 || tr.FieldEvery() {
						continue
					}
					var want []float32
					at := int(tr.FieldToff()) * 8
					if tr.FieldMask() {
						masks++
						for i := range pk.FieldTimes() {
							if anim.ReadBits(pk.FieldData(), at+i, 1) == 1 {
								want = append(want, pk.FieldTimes()[i])
							}
						}
					} else {
						indices++
						for k := range int(tr.FieldN()) {
							want = append(want, pk.FieldTimes()[anim.ReadBits(pk.FieldData(), at+k*int(pk.FieldTimeBits()), pk.FieldTimeBits())])
						}
					}
					var got []float32
					for k := range int(tr.FieldN()) {
						got = append(got, pk.KeyTime(tr, k))
					}
					if !slices.Equal(got, want) || !slices.IsSorted(want) {
						t.Fatalf("%s at %g: path %d joint %d (mask %v): key times %v; the bytes hold %v", c.Name, tol, p, j, tr.FieldMask(), got, want)
					}
					if tr.FieldMask() && len(pk.FieldTimes()) >= int(tr.FieldN())*int(pk.FieldTimeBits()) {
						t.Errorf("%s at %g: path %d joint %d: a mask of %d bits where %d indices take %d", c.Name, tol, p, j, len(pk.FieldTimes()), tr.FieldN(), int(tr.FieldN())*int(pk.FieldTimeBits()))
					}
				}
			}
		}
	}
	if masks == 0 || indices == 0 {
		t.Errorf("%d tracks with a mask and %d with indices; want both", masks, indices)
	}
}

// TestCompressedRangesDecode reads every coded track's ranges back from
// the packed bytes, as a file reader would (the engine keeps them decoded),
// and finds the values it samples with, on a clip whose rotations turn
// about one axis (minimums of exactly 0, written a bit each) and on one
// that turns about tilted axes.
func TestCompressedRangesDecode(t *testing.T) {
	sk := animtest.Humanoid()
	about := func(axis mgl32.Vec3) anim.Clip {
		c := anim.Clip{Name: "About", Duration: 1}
		for j := range sk.NumJoints() {
			tr := anim.Track{Joint: j, Path: anim.Rotation, Interp: anim.Linear}
			for k := 0; k <= 30; k++ {
				q := mgl32.QuatRotate(float32(0.6*math.Sin(2*math.Pi*float64(k)/30+float64(j))), axis)
				tr.Times = append(tr.Times, float32(k)/30)
				tr.Values = append(tr.Values, q.V[0], q.V[1], q.V[2], q.W)
			}
			c.Tracks = append(c.Tracks, tr)
		}
		return c
	}
	zeros := 0
	for _, c := range []anim.Clip{about(mgl32.Vec3{1, 0, 0}), mocapClip(sk, 1)} {
		rc, _, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: 1e-4})
		if err != nil {
			t.Fatal(err)
		}
		pk := rc.FieldPk()
		for p := range pk.FieldTracks() {
			for j, tr := range pk.FieldTracks()[p] {
				if tr.FieldN() < 2 || tr.FieldBits() == 32 {
					continue
				}
				if tr.FieldZero() {
					zeros++
				}
				at, m := int(tr.FieldOff())*8, tr.FieldRbits()
				read := func() float32 {
					if tr.FieldZero() {
						flag := anim.ReadBits(pk.FieldData(), at, 1)
						at++
						if flag == 0 {
							return 0
						}
					}
					v := math.Float32frombits(anim.ReadBits(pk.FieldData(), at, 9+m) << (23 - m))
					at += 9 + int(m)
					return v
				}
				for c := range 3 {
					if v := read(); math.Float32bits(v) != math.Float32bits(tr.FieldLo()[c]) {
						t.Fatalf("path %d joint %d: minimum %d reads %v; the engine has %v", p, j, c, v, tr.FieldLo()[c])
					}
				}
				for c := range 3 {
					if tr.FieldCbits()[c] == 0 {
						continue
					}
					if v := read(); math.Float32bits(v) != math.Float32bits(tr.FieldStep()[c]) {
						t.Fatalf("path %d joint %d: step %d reads %v; the engine has %v", p, j, c, v, tr.FieldStep()[c])
					}
				}
			}
		}
	}
	if zeros == 0 {
		t.Fatal("no track wrote its ranges with zero flags: the test needs one")
	}
}

// A few keys that a low rate codes exactly (a turn there and back) need
// no exact ranges either: they may spend a sixteenth of the budget, as a
// constant's value does, on shorter minimums and steps.
func TestCompressExactKeysCutTheirRanges(t *testing.T) {
	sk := animtest.Chain(3)
	q := mgl32.QuatRotate(0.5, mgl32.Vec3{1, 0, 0})
	c := anim.Clip{Name: "Nod", Duration: 2, Tracks: []anim.Track{{Joint: 0, Path: anim.Rotation, Interp: anim.Linear,
		Times: []float32{0, 1, 2}, Values: []float32{0, 0, 0, 1, q.V[0], q.V[1], q.V[2], q.W, 0, 0, 0, 1}}}}
	const tol = 1e-4
	rc, _, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	tr := rc.FieldPk().FieldTracks()[anim.Rotation][0]
	if tr.FieldN() != 3 || tr.FieldBits() >= 32 || tr.FieldRbits() >= 23 {
		t.Errorf("nod: %d keys at %v bits, ranges with %d mantissa bits; want 3 coded keys and cut ranges", tr.FieldN(), tr.FieldCbits(), tr.FieldRbits())
	}
	if e := compressedError(t, sk, &c, rc, keyTimes(&c)); e > tol {
		t.Errorf("error %g m, over the tolerance %g", e, tol)
	}
}

// A constant rotation away from rest keeps x, y and z (w rebuilt) where
// that is shorter than four floats, within the tolerance; the sign of a
// key given with w < 0 does not matter.
func TestCompressConstantRotationKeepsXYZ(t *testing.T) {
	sk := animtest.Chain(3)
	exactW := float32(math.Sqrt(1 - 0.375*0.375 - 0.625*0.625))
	q := mgl32.QuatRotate(2, mgl32.Vec3{0.3, 1, 0.2}.Normalize())
	c := anim.Clip{Name: "Pose", Duration: 1, Tracks: []anim.Track{
		{Joint: 0, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0, 1}, Values: []float32{q.V[0], q.V[1], q.V[2], q.W, q.V[0], q.V[1], q.V[2], q.W}},
		{Joint: 1, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0}, Values: []float32{-q.V[0], -q.V[1], -q.V[2], -q.W}},
		// x = 1.1b × 2⁻², y = 1.01b × 2⁻¹: exact in two mantissa bits.
		{Joint: 2, Path: anim.Rotation, Interp: anim.Linear, Times: []float32{0}, Values: []float32{0.375, 0.625, 0, exactW}},
	}}
	const tol = 1e-4
	rc, rep, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	// Each value is x, y, z as sign, exponent and m mantissa bits (9 + m
	// bits) after an 8-bit descriptor, behind the 12 bits of an empty
	// clip (TestCompressDropsConstantTracks). The bones are 1 long and the
	// components under 1, so m = 14 (an error under 2^-15 a component)
	// moves a vertex by less than 1e-4: at most 16 bits are needed for q,
	// 2 for joint 2: 12 + 2 × (8 + 3 × 25) + 8 + 3 × 11 = 219 bits, 28
	// bytes. Float32 values would take 51.
	if rep.Bytes > 28 {
		t.Errorf("%d bytes for three constant rotations; want ≤ 28 (x, y, z in at most 25 bits each)", rep.Bytes)
	}
	// Joint 2's two mantissa bits decode to its values exactly.
	got := animtest.FromSoA(sampleRuntime(rc, 0.5, sk))[2].Rotation
	if got.V != (mgl32.Vec3{0.375, 0.625, 0}) || math.Abs(float64(got.W-exactW)) > 1e-7 {
		t.Errorf("joint 2 sampled %v; want (0.375, 0.625, 0) and w %v", got, exactW)
	}
	for j := range 3 {
		if tr := rc.FieldPk().FieldTracks()[anim.Rotation][j]; tr.FieldN() != 1 || !tr.FieldXyz() {
			t.Errorf("joint %d: %d keys, x, y, z alone %v; want one value as x, y, z", j, tr.FieldN(), tr.FieldXyz())
		}
	}
	if e := compressedError(t, sk, &c, rc, []float32{0, 0.3, 1}); e > tol {
		t.Errorf("error %g m, over the tolerance %g", e, tol)
	}
}

// Progress only goes forward, from 0 to 1, through every packing tried
// (four for a clip with splines).
func TestCompressProgressGoesForward(t *testing.T) {
	sk := animtest.Humanoid()
	for _, c := range []anim.Clip{mocapClip(sk, 1), cubicClip(mocapClip(sk, 1))} {
		var got []float64
		if _, _, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: 1e-4, Progress: func(f float64) { got = append(got, f) }}); err != nil {
			t.Fatal(err)
		}
		if len(got) < 3 || got[len(got)-1] != 1 {
			t.Fatalf("%s: progress %v; want several steps ending at 1", c.Name, got)
		}
		for i, f := range got {
			if f < 0 || f > 1 || (i > 0 && f < got[i-1]) {
				t.Fatalf("%s: progress step %d is %v after %v", c.Name, i, f, got[max(i-1, 0)])
			}
		}
	}
}

// Half turns (w = 0) kept as x, y, z: what is stored is the cut x, y, z,
// whose w the sampler rebuilds, so that is what must be within the
// tolerance, even where normalizing the cut values would land back on the
// key exactly.
func TestCompressConstantHalfTurn(t *testing.T) {
	sk := animtest.Humanoid()
	c := mocapClip(sk, 2)
	arm := sk.JointIndex("upper_arm.L")
	h := float32(math.Sqrt2 / 2)
	for i := range c.Tracks {
		if tr := &c.Tracks[i]; tr.Joint == arm && tr.Path == anim.Rotation {
			tr.Times = []float32{0}
			tr.Values = []float32{h, 0, h, 0}
		}
	}
	for _, tol := range []float64{1e-3, 1e-4} {
		rc, rep, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: tol})
		if err != nil {
			t.Fatal(err)
		}
		if !rc.Compressed() || rep.Ratio() < 2 {
			t.Errorf("at %g: compressed %v, %d → %d bytes; want it packed", tol, rc.Compressed(), rep.RawBytes, rep.Bytes)
		}
		if e := compressedError(t, sk, &c, rc, keyTimes(&c)); e > tol || rep.MaxError > tol {
			t.Errorf("at %g: error %g m (reported %g)", tol, e, rep.MaxError)
		}
	}
}

// A long clip's times round coarser than a short one's (float32 at 40 s
// resolves 4 µs): rebuilding them evenly would move its keys further than
// a fast joint allows, so its table stays as it is, and the clip packs.
func TestCompressLongClip(t *testing.T) {
	sk := animtest.Humanoid()
	c := mocapClip(sk, 40)
	const tol = 1e-5
	rc, rep, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	if !rc.Compressed() || rep.Ratio() < 2 || rep.MaxError > tol {
		t.Errorf("40 s of motion at %g: compressed %v, %.2f:1, error %g", tol, rc.Compressed(), rep.Ratio(), rep.MaxError)
	}
}

// A joint swinging through a half turn about z (160° to 200°: w crosses 0,
// z stays near 1) codes x, y and w and rebuilds z, the component furthest
// from zero: rebuilding w made z swing between ±1 (w ≥ 0) and lost
// precision in the root near w = 0, which cost such tracks many bits or
// left them float32. It stays within the tolerance at the keys and
// between them, played backwards, which decodes the pairs afresh.
func TestCompressRebuildsTheLargestComponent(t *testing.T) {
	sk := animtest.Chain(3)
	c := anim.Clip{Name: "Swing", Duration: 2}
	turn := anim.Track{Joint: 0, Path: anim.Rotation, Interp: anim.Linear}
	for k := 0; k <= 60; k++ {
		tm := float32(k) / 30
		a := (180 + 20*math.Sin(math.Pi*float64(tm))) * math.Pi / 180 / 2
		turn.Times = append(turn.Times, tm)
		turn.Values = append(turn.Values, 0, 0, float32(math.Sin(a)), float32(math.Cos(a)))
	}
	c.Tracks = []anim.Track{turn}
	const tol = 1e-4
	rc, rep, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	// w spans cos 80° to −cos 80° (0.35); a 2 m reach at 1e-4 m wants it
	// to about 5e-5: 13 bits. Rebuilding w coded z over ±1 at 22.
	tr := rc.FieldPk().FieldTracks()[anim.Rotation][0]
	if tr.FieldN() < 2 || tr.FieldBits() >= 32 || tr.FieldDrop() != 2 || tr.KeyBits() > 16 {
		t.Fatalf("swing track: %d keys at %v bits rebuilding component %d; want coded keys of 16 bits or fewer, rebuilding z (2)", tr.FieldN(), tr.FieldCbits(), tr.FieldDrop())
	}
	times := keyTimes(&c)
	for i := len(times) - 1; i > 0; i-- { // halfway between keys, backwards
		times = append(times, (times[i]+times[i-1])/2)
	}
	if e := compressedError(t, sk, &c, rc, times); e > tol || rep.MaxError > tol {
		t.Errorf("error %g m (reported %g), over the tolerance %g", e, rep.MaxError, tol)
	}
}

// models64 is the palette job's model matrices in float64: a point p in
// joint j's space lands, through the chain, where translating, turning
// (q·p·q*) and scaling joint by joint puts it, and the engine's float32
// matrices are the same to float32 rounding.
func TestModels64(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const n = 6
	sk := animtest.Chain(n)
	pose, js := randPose(rng, n)
	got := make([]float64, anim.PaletteFloats*n)
	anim.Models64(sk.Parents, pose, got)
	engine := make([]float32, anim.PaletteFloats*n)
	(&anim.ModelPaletteJob{Skeleton: sk, Input: pose, Models: engine}).Run()
	rotate := func(q q64, v [3]float64) [3]float64 {
		r := q.mul(q64{v[0], v[1], v[2], 0}).mul(q.conj())
		return [3]float64{r[0], r[1], r[2]}
	}
	for j := range n {
		for _, p := range [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, -2, 0.7}} {
			want := p
			for a := j; a >= 0; a = sk.Parents[a] {
				s := js[a].s
				want = rotate(js[a].q, [3]float64{want[0] * s[0], want[1] * s[1], want[2] * s[2]})
				for c := range 3 {
					want[c] += js[a].t[c]
				}
			}
			m := got[j*anim.PaletteFloats:]
			e := engine[j*anim.PaletteFloats:]
			for r := range 3 {
				v := m[r*4]*p[0] + m[r*4+1]*p[1] + m[r*4+2]*p[2] + m[r*4+3]
				ve := float64(e[r*4])*p[0] + float64(e[r*4+1])*p[1] + float64(e[r*4+2])*p[2] + float64(e[r*4+3])
				// The pose's float32 quaternions are unit to 1e-7, which
				// the matrices carry and q·p·q* does not.
				if math.Abs(v-want[r]) > 1e-6*(1+math.Abs(want[r])) || math.Abs(ve-v) > 1e-5*(1+math.Abs(v)) {
					t.Fatalf("joint %d, point %v, row %d: models64 %v, engine %v; want %v", j, p, r, v, ve, want[r])
				}
			}
		}
	}
}
