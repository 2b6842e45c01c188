//go:build goexperiment.simd && amd64

package anim

import (
	"math"
	"time"

	"github.com/go-gl/mathgl/mgl32"
)

// calibrate times each kernel at every level this CPU has on a small
// synthetic character (56 joints, two 31-key clips: the shape of the
// Blend2Palette workload, and a joint count whose 16-lane blocks end in
// one of 8, as most skeletons' do) and returns the level each kernel
// should run at. It runs once, at start-up (its cost on one machine is in
// docs/performance.md).
func calibrate() kernelChoice {
	const n, keys = 56, 31
	sk := &Skeleton{Names: make([]string, n), Parents: make([]int, n), Rest: make([]Transform, n)}
	skin := &Skin{Joints: make([]int, n), InverseBind: make([]mgl32.Mat4, n)}
	for j := range n {
		sk.Parents[j] = (j - 1) / 2
		sk.Rest[j] = IdentityTransform
		skin.Joints[j], skin.InverseBind[j] = j, mgl32.Ident4()
	}
	sk.Parents[0] = -1
	seed := uint32(12345)
	rnd := func() float32 { // a small LCG: any spread of values will do
		seed = seed*1664525 + 1013904223
		return float32(seed>>8)/float32(1<<24)*2 - 1
	}
	var clips [2]*RuntimeClip
	for c := range clips {
		clip := Clip{Duration: 1}
		for j := range n {
			times := make([]float32, keys)
			for k := range times {
				times[k] = float32(k) / (keys - 1)
			}
			tr := Track{Joint: j, Path: Translation, Times: times}
			rot := Track{Joint: j, Path: Rotation, Times: times}
			sc := Track{Joint: j, Path: Scale, Times: times}
			for range keys {
				tr.Values = append(tr.Values, rnd(), 1+rnd()/2, rnd())
				// Random axes, up to 60° about them, as in the workload.
				axis := mgl32.Vec3{rnd(), rnd(), rnd() + 1e-3}.Normalize()
				q := mgl32.QuatRotate(rnd()*math.Pi/3, axis)
				rot.Values = append(rot.Values, q.V[0], q.V[1], q.V[2], q.W)
				sc.Values = append(sc.Values, 1+rnd()/10, 1+rnd()/10, 1+rnd()/10)
			}
			clip.Tracks = append(clip.Tracks, tr, rot, sc)
		}
		rc, err := NewRuntimeClip(&clip, sk)
		if err != nil {
			panic("anim: calibration clip: " + err.Error()) // built above, valid by construction
		}
		clips[c] = rc
	}
	a, b, out := NewSoAPose(n), NewSoAPose(n), NewSoAPose(n)
	ibs := bindRows(skin.InverseBind)
	cursors, cache := make([]int32, clips[0].NumCursors()), make([]float32, clips[0].CacheLen())
	models, pal := make([]float32, PaletteFloats*n), make([]float32, PaletteFloats*n)
	t := float32(0)
	sample := func(nlerp bool) func() {
		return func() {
			t += 1.0 / 60 // crossing keys as playback does
			if t >= 1 {
				t = 0
			}
			sampleSoA(clips[0], t, nlerp, cursors, cache, a)
		}
	}
	sampleSoA(clips[1], 0.37, false, make([]int32, clips[1].NumCursors()), make([]float32, clips[1].CacheLen()), b)

	// Layers, as a character's frame runs them in place over its base
	// pose: an additive layer (its difference from a reference, then the
	// difference added) that moves one joint in four, and a masked layer
	// over three quarters of the body that changes one joint in four, as
	// clips that animate part of a skeleton give. The moved joints turn
	// and shift; a clip that scales them is rare.
	base, over, diff, mask := NewSoAPose(n), NewSoAPose(n), NewSoAPose(n), make([]float32, n)
	base.CopyFrom(b)
	sampleSoA(clips[0], 0.61, false, make([]int32, clips[0].NumCursors()), make([]float32, clips[0].CacheLen()), over)
	for j := range n {
		if j%4 == 1 {
			over.Set(j, Transform{Translation: over.At(j).Translation, Rotation: over.At(j).Rotation, Scale: base.At(j).Scale})
		} else {
			over.Set(j, base.At(j))
		}
		if j >= n/4 {
			mask[j] = 1
		}
	}
	layers := func() {
		out.CopyFrom(base)
		DifferenceSoA(diff, over, base)
		AddSoA(out, out, diff, 0.5, nil)
		MaskedBlendSoA(out, out, over, 0.5, mask, false)
	}

	var k kernelChoice
	// Sampling, the palette and the layers run the same 8-lane code at
	// AVX2 and AVX-512: they are timed up to AVX2 only, so that the noise
	// between two runs of one kernel cannot name it AVX-512.
	top := min(cpuLevel, levelAVX2)
	k.sampleSlerp = pick(top, func(l int) { sampleLevel[0] = l }, sample(false))
	k.sampleNlerp = pick(top, func(l int) { sampleLevel[1] = l }, sample(true))
	k.blendSlerp = pick(cpuLevel, func(l int) { blendLevel[0] = l }, func() { blendSoA(out, a, b, 0.4, false, 0) })
	k.blendNlerp = pick(cpuLevel, func(l int) { blendLevel[1] = l }, func() { blendSoA(out, a, b, 0.4, true, 0) })
	k.palette = pick(top, func(l int) { paletteLevel = l }, func() { modelPalette(sk.Parents, out, models, ibs, pal) })
	k.layers = pick(top, func(l int) { layerLevel, layerLanes = l, l >= levelAVX2 }, layers)
	return k
}

// pick times run with the kernel at every level from portable to top
// (set chooses the level) and returns the level to keep.
func pick(top int, set func(level int), run func()) int {
	// Fourteen rounds, each timing 16 runs at every level in turn, so that
	// a burst of load (a virtual machine's stolen time lasts milliseconds)
	// hits every level alike; each level keeps its best round. An untimed
	// run after each switch keeps one level's warm-up (and a core's change
	// of clock for wide registers) out of the next level's time.
	var times [levelAVX512 + 1]time.Duration
	for round := range 14 {
		for l := levelPortable; l <= top; l++ {
			set(l)
			run()
			start := time.Now()
			for range 16 {
				run()
			}
			if d := time.Since(start); round == 0 || d < times[l] {
				times[l] = d
			}
		}
	}
	return chooseLevel(times[:top+1])
}

// chooseLevel returns the level to run given each level's time, from
// portable up: a wider level is kept only where it measured at least 5 %
// faster than every narrower one. Within the noise the narrower kernel is
// the safe choice: portable before SIMD, and AVX2 before AVX-512, which
// runs the same work in fewer, wider instructions that need not be faster
// (a pose of 24 lanes is one block of 16 and one of 8, and some cores slow
// down when 512-bit registers are in use).
func chooseLevel(times []time.Duration) int {
	best, fastest := levelPortable, times[levelPortable]
	for l := levelPortable + 1; l < len(times); l++ {
		if float64(times[l]) < 0.95*float64(fastest) {
			best = l
		}
		fastest = min(fastest, times[l])
	}
	return best
}
