//go:build goexperiment.simd && amd64

package anim_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"simd/archsimd"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// TestChooseLevel: a wider kernel is kept only where it measured at least
// 5 % faster than every narrower one; a tie or a slower one keeps the
// narrower.
func TestChooseLevel(t *testing.T) {
	cases := []struct {
		times []time.Duration // portable, AVX2, AVX-512
		want  int
	}{
		{[]time.Duration{100}, anim.LevelPortable},
		{[]time.Duration{100, 90}, anim.LevelAVX2},
		{[]time.Duration{100, 94}, anim.LevelAVX2},
		{[]time.Duration{100, 96}, anim.LevelPortable},
		{[]time.Duration{100, 100}, anim.LevelPortable},
		{[]time.Duration{115, 777}, anim.LevelPortable}, // avx2 slerp on an Intel core before the VZEROUPPER fixes
		{[]time.Duration{100, 60, 58}, anim.LevelAVX2},  // AVX-512 within the noise of AVX2
		{[]time.Duration{100, 60, 67}, anim.LevelAVX2},  // AVX-512 slower (an Intel VM, Blend2Palette-100)
		{[]time.Duration{100, 60, 50}, anim.LevelAVX512},
		{[]time.Duration{100, 98, 90}, anim.LevelAVX512}, // AVX2 no gain, AVX-512 a clear one
		{[]time.Duration{100, 120, 90}, anim.LevelAVX512},
		{[]time.Duration{100, 120, 97}, anim.LevelPortable},
		{[]time.Duration{100, 96, 94}, anim.LevelPortable}, // AVX-512 within 5 % of AVX2, AVX2 of portable
		{[]time.Duration{100, 80, 77}, anim.LevelAVX2},     // AVX-512 within 5 % of AVX2
	}
	for _, tc := range cases {
		if got := anim.ChooseLevel(tc.times); got != tc.want {
			t.Errorf("times %v: level %d, want %d", tc.times, got, tc.want)
		}
	}
}

// TestKernelPathNamesEveryKernel: KernelPath says what each kernel runs.
func TestKernelPathNamesEveryKernel(t *testing.T) {
	p := anim.KernelPath()
	if anim.CpuLevel == anim.LevelPortable {
		if p != "portable" {
			t.Fatalf("KernelPath() = %q on a CPU without SIMD", p)
		}
		return
	}
	for _, k := range []string{"sample", "blend slerp", "blend nlerp", "model-palette"} {
		if !strings.Contains(p, k) {
			t.Errorf("KernelPath() = %q does not name %s", p, k)
		}
	}
	t.Log(p)
}

// TestLayerLanes: the vector lane masks agree with the joint-by-joint
// tests they replace (sameJoint, identityAt), on poses where some joints
// are equal or the identity, some differ in one component only, and some
// hold −0 (equal to 0) or NaN (equal to nothing).
func TestLayerLanes(t *testing.T) {
	if anim.CpuLevel < anim.LevelAVX2 {
		t.Skip("this CPU has no AVX2") // the portable build tests the joint-by-joint path
	}
	const n = 37 // five blocks, the last one partly padding
	rng := rand.New(rand.NewPCG(3, 4))
	a, b, id := anim.NewSoAPose(n), anim.NewSoAPose(n), anim.NewSoAPose(n)
	for i := range n {
		tr := anim.Transform{Translation: mgl32.Vec3{rng.Float32(), rng.Float32(), rng.Float32()}, Rotation: mgl32.QuatRotate(rng.Float32(), mgl32.Vec3{0, 1, 0}), Scale: mgl32.Vec3{1, 1, 1}}
		a.Set(i, tr)
		b.Set(i, tr)
	}
	for i := range n {
		switch i % 6 {
		case 1: // one component differs
			k := rng.IntN(10)
			b.FieldBuf()[k*len(b.FieldBuf())/10+i] += 0.25
			id.FieldBuf()[k*len(id.FieldBuf())/10+i] = 0.5
		case 2: // −0 against 0
			a.FieldTx()[i], b.FieldTx()[i], id.FieldQy()[i] = 0, float32(math.Copysign(0, -1)), float32(math.Copysign(0, -1))
		case 3: // NaN is equal to nothing, itself included
			a.FieldQz()[i], b.FieldQz()[i], id.FieldSz()[i] = float32(math.NaN()), float32(math.NaN()), float32(math.NaN())
		}
	}
	for i := 0; i < n; i += anim.SoaLanes {
		var wantSame, wantID uint8
		for l := range anim.SoaLanes {
			if a.SameJoint(i+l, b) {
				wantSame |= 1 << l
			}
			if id.IdentityAt(i + l) {
				wantID |= 1 << l
			}
		}
		if got := uint8(anim.SameBlock8(a, b, i).ToBits()); got != wantSame {
			t.Errorf("block %d: sameBlock8 %08b, want %08b", i, got, wantSame)
		}
		if got := anim.IdentityLanes8(id, i, false); got != wantID {
			t.Errorf("block %d: identityLanes8 %08b, want %08b", i, got, wantID)
		}
	}
	// With translations and scales the identity's, as a difference
	// clip's tags say, the rotations alone decide.
	rot := anim.NewSoAPose(n)
	copy(rot.Stripes(anim.Rotation), id.Stripes(anim.Rotation))
	for _, p := range anim.TsPaths {
		rot.FieldHeld()[p] = anim.TagStripes(p, rot.Stripes(p))
	}
	for i := 0; i < n; i += anim.SoaLanes {
		var want uint8
		for l := range anim.SoaLanes {
			if rot.IdentityAt(i + l) {
				want |= 1 << l
			}
		}
		if got := anim.IdentityLanes8(rot, i, true); got != want {
			t.Errorf("block %d: identityLanes8 of rotations %08b, want %08b", i, got, want)
		}
	}

	// The masks of a pose longer than one chunk of 512 joints, chunk by
	// chunk, against the joint-by-joint tests.
	const long = 600
	la, lb, lid := anim.NewSoAPose(long), anim.NewSoAPose(long), anim.NewSoAPose(long)
	for i := range long {
		tr := anim.Transform{Translation: mgl32.Vec3{float32(i), 1, 0}, Rotation: mgl32.QuatRotate(float32(i)/long, mgl32.Vec3{1, 0, 0}), Scale: mgl32.Vec3{1, 1, 1}}
		la.Set(i, tr)
		if i%3 == 0 {
			lb.Set(i, tr)
		}
		if i%5 == 0 {
			lid.Set(i, tr)
		}
	}
	for from := 0; from < long; from += 512 {
		var same, still anim.LaneMasks
		foundSame, foundStill := anim.SameMasks8(la, lb, from, &same), anim.IdentityMasks8(lid, from, &still)
		anySame, anyStill := false, false
		for i := from; i < min(from+512, long); i++ {
			if same.Has(i) != la.SameJoint(i, lb) {
				t.Errorf("joint %d: sameMasks8 says %v", i, same.Has(i))
			}
			if still.Has(i) != lid.IdentityAt(i) {
				t.Errorf("joint %d: identityMasks8 says %v", i, still.Has(i))
			}
			anySame, anyStill = anySame || la.SameJoint(i, lb), anyStill || lid.IdentityAt(i)
		}
		if foundSame != anySame || foundStill != anyStill {
			t.Errorf("chunk from %d: masks report %v and %v found, want %v and %v", from, foundSame, foundStill, anySame, anyStill)
		}
	}
}

// dropClip is a clip of 21 joints (three cache groups, the last part
// padding) whose packed rotations rebuild each of x, y, z and w: joints
// 3i to 3i+2 turn about x, y and z through more than half a turn over the
// clip, the rest a little about a tilted axis; every fourth joint keys
// one time in two (not in the frames), every fifth holds still (not in
// the frames, a constant), joint 10 turns by more than half a turn about
// z, and the translations move.
func dropClip(sk *anim.Skeleton) anim.Clip {
	c := anim.Clip{Name: "Drops", Duration: 1}
	for j := range sk.NumJoints() {
		r := anim.Track{Joint: j, Path: anim.Rotation, Interp: anim.Linear}
		tr := anim.Track{Joint: j, Path: anim.Translation, Interp: anim.Linear}
		axis := mgl32.Vec3{0.3, 1, 0.2}.Normalize()
		big := j < 9
		if big {
			axis = mgl32.Vec3{}
			axis[j%3] = 1
		}
		for k := 0; k <= 30; k++ {
			if j%4 == 3 && k%2 == 1 {
				continue
			}
			t := float64(k) / 30
			a := 0.3 * math.Sin(2*math.Pi*t+float64(j))
			if big {
				a = 2.5 + 1.5*t + 0.2*math.Sin(7*t) // through ±π: the keys change hemisphere
			}
			if j%5 == 4 {
				a = 0.7
			}
			if j == 10 {
				// w, rebuilt, passes through 0: the stored keys change
				// hemisphere, and pairs start from a negated key.
				axis, a = mgl32.Vec3{0, 0, 1}, 5*t+0.3*math.Sin(9*t)
			}
			q := mgl32.QuatRotate(float32(a), axis)
			r.Times = append(r.Times, float32(t))
			r.Values = append(r.Values, q.V[0], q.V[1], q.V[2], q.W)
			tr.Times = append(tr.Times, float32(t))
			tr.Values = append(tr.Values, float32(0.1*math.Sin(3*t+float64(j))), 0.2, float32(0.05*t))
		}
		c.Tracks = append(c.Tracks, r, tr)
	}
	return c
}

// TestShiftFrames8MatchesScalar: the 8-lane frame shift writes the pairs
// the scalar one does, to the bit, in groups with lanes outside the
// frames, for every rebuilt component, and where a code decodes just
// outside the unit sphere (the group falls back to the scalar lanes).
func TestShiftFrames8MatchesScalar(t *testing.T) {
	if anim.CpuLevel < anim.LevelAVX2 {
		t.Skip("this CPU has no AVX2") // the portable build tests the scalar shift
	}
	sk := animtest.Chain(21)
	c := dropClip(sk)
	// Compressed on the portable kernels: the compressor samples what it
	// packs, and the clip must not depend on the code under test.
	anim.SetKernelPath("portable")
	rc, _, err := anim.CompressClip(&c, sk, anim.CompressOptions{Tolerance: 1e-4})
	anim.RestoreKernels()
	if err != nil {
		t.Fatal(err)
	}
	pk := rc.FieldPk()
	if pk == nil || len(pk.FieldGroups()) == 0 {
		t.Fatal("the clip has no frame groups")
	}
	var drops [4]bool
	partial := false
	for _, fg := range pk.FieldGroups() {
		for l, s := range fg.FieldSel() {
			if s == 0 {
				partial = true
			} else if fg.FieldRot() {
				drops[fg.FieldDrop()[l]] = true
			}
		}
	}
	if !partial || drops != [4]bool{true, true, true, true} {
		t.Fatalf("groups: some lane outside the frames %v, drops rebuilt %v; the test needs both", partial, drops)
	}
	check := func(what string) {
		t.Helper()
		for k := 1; k+1 < len(pk.FieldTimes()); k++ {
			a := make([]float32, rc.CacheLen()-anim.StreamHead)
			for i := range a {
				a[i] = float32(i) // lanes outside the frames must keep what they hold
			}
			pk.FillFrames(k-1, a)
			b := slices.Clone(a)
			pk.ShiftFrames(k, a, pk.FieldFrame())
			anim.ShiftFramesAt(pk, k, b, true)
			for i := range a {
				if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
					t.Fatalf("%s: frame %d, float %d: 8 lanes %v, scalar %v", what, k, i, b[i], a[i])
				}
			}
		}
	}
	check("as packed")
	// A rotation lane whose x decodes past 1: w is not real, and the
	// scalar path normalizes x, y, z.
	for gi := range pk.FieldGroups() {
		fg := &pk.FieldGroups()[gi]
		if !fg.FieldRot() {
			continue
		}
		for l, s := range fg.FieldSel() {
			if s != 0 {
				fg.FieldLo()[0][l] += 1.5
				pk.FieldFrame()[fg.FieldFrame()[l]].FieldLo()[0] += 1.5
				break
			}
		}
		break
	}
	check("a code outside the sphere")
}

// TestCompressedKernelPathsAgree: a compressed clip samples alike on every
// kernel path (the 8-lane stale test and frame shift against the scalar
// ones), in playback and after jumps, with tracks outside the frames.
func TestCompressedKernelPathsAgree(t *testing.T) {
	paths := kernelPaths()
	if len(paths) == 1 {
		t.Skip("portable kernels only: build with GOEXPERIMENT=simd on amd64 for the SIMD ones")
	}
	sk := animtest.B2PSkeleton()
	clip := animtest.B2PClips()[1]
	clip.Tracks = slices.Clone(clip.Tracks)
	for i := range clip.Tracks {
		if tr := &clip.Tracks[i]; tr.Path == anim.Rotation && tr.Joint%9 == 4 {
			// Every other key: outside the frames.
			var times, values []float32
			for k := 0; k < len(tr.Times); k += 2 {
				times = append(times, tr.Times[k])
				values = append(values, tr.Values[4*k:4*k+4]...)
			}
			tr.Times, tr.Values = times, values
		}
	}
	anim.SetKernelPath("portable")
	rc, _, err := anim.CompressClip(&clip, sk, anim.CompressOptions{Tolerance: 1e-4})
	anim.RestoreKernels()
	if err != nil {
		t.Fatal(err)
	}
	if len(rc.FieldPk().FieldFrame()) == 0 || len(rc.FieldPk().FieldLoose()[anim.Rotation]) == 0 {
		t.Fatalf("%d frame tracks, %d rotations outside the frames: the test needs both", len(rc.FieldPk().FieldFrame()), len(rc.FieldPk().FieldLoose()[anim.Rotation]))
	}
	var times []float32
	for k := range 130 {
		times = append(times, float32(k)/60)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		times = append(times, -0.1+rng.Float32()*2.2)
	}
	sample := func(path string, nlerp bool) [][]anim.Transform {
		anim.SetKernelPath(path)
		defer anim.RestoreKernels()
		job := rc.NewSampleJob(nlerp, anim.NewSoAPose(animtest.B2PJoints))
		var out [][]anim.Transform
		for _, tm := range times {
			job.Time = tm
			job.Run()
			out = append(out, animtest.FromSoA(job.Output))
		}
		return out
	}
	for _, nlerp := range []bool{false, true} {
		ref := sample("portable", nlerp)
		for _, path := range paths[1:] {
			got := sample(path, nlerp)
			for f := range ref {
				for j := range ref[f] {
					if !transformApprox(got[f][j], ref[f][j], 1e-5) {
						t.Fatalf("nlerp %v, %s at %v, joint %d: %v; portable %v", nlerp, path, times[f], j, got[f][j], ref[f][j])
					}
				}
			}
		}
	}
}

// TestSlerpLanesAccuracy holds slerp8 and slerp16 to TestSlerpPolyAccuracy's
// bound, on groups whose arcs differ in length, so that a group's series is
// cut for its widest arc, and on groups of arcs all near one length.
func TestSlerpLanesAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var a [5][16]float32 // ax … aw, then u, by lane
	var b [4][16]float32 // bx … bw
	worst := 0.0
	for g := range 400 {
		var qa, qb [16]mgl32.Quat
		for l := range 16 {
			i := g
			if g%2 == 0 {
				i = l // mixed lengths in one group
			}
			var u float32
			qa[l], qb[l], u = slerpCase(r, i)
			for c := range 4 {
				a[c][l], b[c][l] = qa[l].V.Vec4(qa[l].W)[c], qb[l].V.Vec4(qb[l].W)[c]
			}
			a[4][l] = u
		}
		ld := func(s *[16]float32) archsimd.Float32x8 { return archsimd.LoadFloat32x8((*[8]float32)(s[:8])) }
		x8, y8, z8, w8 := anim.Slerp8(ld(&a[0]), ld(&a[1]), ld(&a[2]), ld(&a[3]), ld(&b[0]), ld(&b[1]), ld(&b[2]), ld(&b[3]), ld(&a[4]), false)
		var out [4][16]float32
		x8.Store((*[8]float32)(out[0][:8]))
		y8.Store((*[8]float32)(out[1][:8]))
		z8.Store((*[8]float32)(out[2][:8]))
		w8.Store((*[8]float32)(out[3][:8]))
		archsimd.ClearAVXUpperBits()
		for l := range 8 {
			worst = max(worst, slerpError(qa[l], qb[l], a[4][l], [4]float32{out[0][l], out[1][l], out[2][l], out[3][l]}))
		}
		if anim.CpuLevel >= anim.LevelAVX512 {
			ld16 := func(s *[16]float32) archsimd.Float32x16 { return archsimd.LoadFloat32x16(s) }
			x, y, z, w := anim.Slerp16(ld16(&a[0]), ld16(&a[1]), ld16(&a[2]), ld16(&a[3]), ld16(&b[0]), ld16(&b[1]), ld16(&b[2]), ld16(&b[3]), ld16(&a[4]))
			x.Store(&out[0])
			y.Store(&out[1])
			z.Store(&out[2])
			w.Store(&out[3])
			archsimd.ClearAVXUpperBits()
			for l := range 16 {
				worst = max(worst, slerpError(qa[l], qb[l], a[4][l], [4]float32{out[0][l], out[1][l], out[2][l], out[3][l]}))
			}
		}
	}
	if worst > 1e-6 {
		t.Fatalf("lane slerp is %g from the definition; want ≤ 1e-6", worst)
	}
}

// TestSetKernels: each level this CPU has runs every kernel at it, as
// KernelPath then says; a level above the CPU's, or a name that is none,
// fails and leaves the choice as it was.
func TestSetKernels(t *testing.T) {
	defer anim.SetKernels("auto")
	for l := anim.LevelPortable; l <= anim.LevelAVX512; l++ {
		name := anim.LevelName(l)
		err := anim.SetKernels(name)
		if l > anim.CpuLevel {
			if err == nil {
				t.Errorf("SetKernels(%q) on a CPU at %s: no error", name, anim.LevelName(anim.CpuLevel))
			}
			continue
		}
		if err != nil {
			t.Fatalf("SetKernels(%q): %v", name, err)
		}
		if got := anim.SimdPath(); got != name {
			t.Errorf("SetKernels(%q): KernelPath runs %q", name, got)
		}
		if *anim.SampleLevel != [2]int{l, l} || *anim.BlendLevel != [2]int{l, l} || *anim.PaletteLevel != l || *anim.LayerLevel != l {
			t.Errorf("SetKernels(%q): levels sample %v blend %v palette %d layers %d, want %d everywhere", name, *anim.SampleLevel, *anim.BlendLevel, *anim.PaletteLevel, *anim.LayerLevel, l)
		}
	}
	before := anim.KernelPath()
	if err := anim.SetKernels("sse9"); err == nil || !strings.Contains(err.Error(), "sse9") {
		t.Errorf("SetKernels(\"sse9\") = %v, want an error naming it", err)
	}
	if anim.KernelPath() != before {
		t.Errorf("a failed SetKernels changed the kernels: %q, was %q", anim.KernelPath(), before)
	}
}
