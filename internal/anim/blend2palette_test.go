package anim_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// The Blend2Palette-100 workload (animtest.B2PClips and the rest) on
// anim's jobs: its checksums, its kernel paths, its benchmarks.

// b2pJobs is the workload on the generic jobs: two SampleJobs, a pose
// blend, refLocalToModelJob and refPaletteJob, the engine as it was before the
// fast pipeline.
type b2pJobs struct {
	t      float32
	sa, sb refSampleJob
	blend  []anim.Transform
	l2m    refLocalToModelJob
	pal    refPaletteJob
	nlerp  bool
}

func newB2PJobs(sk *anim.Skeleton, skin *anim.Skin, clips []anim.Clip, nlerp bool) *b2pJobs {
	n := sk.NumJoints()
	g := &b2pJobs{nlerp: nlerp, blend: make([]anim.Transform, n)}
	g.sa = refSampleJob{Clip: &clips[0], Rest: sk.Rest, Cursors: make([]int, len(clips[0].Tracks)), Output: make([]anim.Transform, n)}
	g.sb = refSampleJob{Clip: &clips[1], Rest: sk.Rest, Cursors: make([]int, len(clips[1].Tracks)), Output: make([]anim.Transform, n)}
	g.l2m = refLocalToModelJob{Skeleton: sk, Input: g.blend, Output: make([]mgl32.Mat4, n)}
	g.pal = refPaletteJob{Skin: skin, Models: g.l2m.Output, Output: make([]float32, n*anim.PaletteFloats)}
	return g
}

func (g *b2pJobs) eval() {
	g.t = animtest.B2PTime(g.t)
	g.sa.Time, g.sb.Time = g.t, g.t
	g.sa.Run()
	g.sb.Run()
	refLerpPose(g.blend, g.sa.Output, g.sb.Output, animtest.B2PWeight, g.nlerp)
	g.l2m.Run()
	g.pal.Run()
}

// kernelPaths lists the kernel paths this build and CPU can run: portable
// always, SIMD levels in a GOEXPERIMENT=simd build. Running a subtest per
// path selects it with setKernelPath; kernelPaths puts back the measured
// choice after.
func kernelPaths() []string {
	var paths []string
	for _, p := range []string{"portable", "avx2", "avx512"} {
		if anim.SetKernelPath(p) {
			paths = append(paths, p)
		}
	}
	anim.RestoreKernels()
	return paths
}

// The portable path is in every build and CPU, and selecting it reads
// back as it; a name no build has is refused.
func TestKernelPathNames(t *testing.T) {
	defer anim.RestoreKernels()
	if !anim.SetKernelPath("portable") || anim.SimdPath() != "portable" {
		t.Errorf("the portable path: selected as %q; every build has it", anim.SimdPath())
	}
	if anim.SetKernelPath("sse9") {
		t.Error("a path of no such name (sse9) was taken")
	}
}

// eachKernelPath runs f on every kernel path kernelPaths lists, with that
// path selected, and puts back the measured choice after, when f fails
// the test too.
func eachKernelPath(f func(path string)) {
	paths := kernelPaths()
	defer anim.RestoreKernels()
	for _, p := range paths {
		anim.SetKernelPath(p)
		f(p)
	}
}

// TestBlend2Palette100Checksum runs the workload for 30 evaluations (t =
// 0.5 s) and compares the palette with the workload file's table, on the
// generic jobs (slerp keys; the blend slerped or nlerped) and on every
// kernel path of the fast pipeline (keys and blend alike).
func TestBlend2Palette100Checksum(t *testing.T) {
	sk, skin, clips := animtest.B2PSkeleton(), animtest.B2PSkin(), animtest.B2PClips()
	check := func(t *testing.T, pal []float32, sum float64, last mgl32.Vec3) {
		t.Helper()
		got, gotLast := animtest.B2PChecksum(pal)
		if math.Abs(got-sum) > 1e-3 {
			t.Errorf("sum(palette) = %.4f, want %.4f", got, sum)
		}
		if !animtest.VecApprox(gotLast, last, 1e-3) {
			t.Errorf("palette[99] translation = %v, want %v", gotLast, last)
		}
	}
	for _, want := range animtest.B2PWant {
		t.Run("jobs-"+want.Name, func(t *testing.T) {
			g := newB2PJobs(sk, skin, clips, want.Nlerp)
			for range 30 {
				g.eval()
			}
			if math.Abs(float64(g.t)-0.5) > 1e-5 {
				t.Fatalf("time after 30 evaluations = %v, want 0.5", g.t)
			}
			check(t, g.pal.Output, want.Sum, want.Last)
			// The table sums whole 4×4 matrices: recompute them as Mat4
			// products and sum all 16 floats, bottom rows included.
			var full float64
			for j := range animtest.B2PJoints {
				m := g.l2m.Output[j].Mul4(skin.InverseBind[j])
				for _, v := range m {
					full += float64(v)
				}
			}
			if math.Abs(full-want.Sum) > 1e-3 {
				t.Errorf("sum of the 4×4 palette = %.4f, want %.4f", full, want.Sum)
			}
		})
		for _, path := range kernelPaths() {
			t.Run(path+"-"+want.Name, func(t *testing.T) {
				anim.SetKernelPath(path)
				defer kernelPaths()
				f := animtest.NewB2PFast(t, sk, skin, clips, want.Nlerp)
				for range 30 {
					f.Eval()
				}
				check(t, f.MP.Output, want.Sum, want.Last)
			})
		}
	}
}

// TestKernelPathsAgree runs the workload on every kernel path for 200
// evaluations (every key segment crossed, one loop wrap) and compares
// each palette float with the portable kernels'.
func TestKernelPathsAgree(t *testing.T) {
	paths := kernelPaths()
	if len(paths) == 1 {
		t.Skip("portable kernels only: build with GOEXPERIMENT=simd on amd64 for the SIMD ones")
	}
	sk, skin, clips := animtest.B2PSkeleton(), animtest.B2PSkin(), animtest.B2PClips()
	for _, nlerp := range []bool{false, true} {
		run := func(path string) [][]float32 {
			anim.SetKernelPath(path)
			defer kernelPaths()
			f := animtest.NewB2PFast(t, sk, skin, clips, nlerp)
			var frames [][]float32
			for range 200 {
				f.Eval()
				frames = append(frames, append([]float32(nil), f.MP.Output...))
			}
			return frames
		}
		ref := run("portable")
		for _, path := range paths[1:] {
			got := run(path)
			for fr := range ref {
				for i := range ref[fr] {
					if !animtest.ApproxEqual(got[fr][i], ref[fr][i], 1e-4) {
						t.Fatalf("nlerp=%v %s frame %d float %d = %v, portable %v", nlerp, path, fr, i, got[fr][i], ref[fr][i])
					}
				}
			}
		}
	}
}

// BenchmarkBlend2Palette100 is the workload of BLEND2PALETTE-100.md, one
// evaluation per iteration, per kernel path (portable, and the SIMD ones
// of a GOEXPERIMENT=simd build) with nlerp or slerp for keys and blend;
// "calibrated" is each kernel at the level SetKernels("auto") chose for
// it on this CPU (a SIMD build), what the viewer runs by default; "jobs-slerp" is the
// generic jobs the engine used before.
func BenchmarkBlend2Palette100(b *testing.B) {
	sk, skin, clips := animtest.B2PSkeleton(), animtest.B2PSkin(), animtest.B2PClips()
	paths := kernelPaths()
	if anim.SimdPath() != "portable" {
		paths = append(paths, "calibrated")
	}
	for _, path := range paths {
		for _, mode := range animtest.B2PWant {
			b.Run(path+"/"+mode.Name, func(b *testing.B) {
				if path != "calibrated" {
					anim.SetKernelPath(path)
					defer anim.RestoreKernels()
				}
				f := animtest.NewB2PFast(b, sk, skin, clips, mode.Nlerp)
				b.ReportAllocs()
				for b.Loop() {
					f.Eval()
				}
				animtest.ReportNsPerJoint(b)
			})
		}
	}
	b.Run("jobs-slerp", func(b *testing.B) {
		g := newB2PJobs(sk, skin, clips, false)
		b.ReportAllocs()
		for b.Loop() {
			g.eval()
		}
		animtest.ReportNsPerJoint(b)
	})
}

// BenchmarkBlend2Palette100Stages splits the evaluation into its stages:
// sampling both clips (the clock advancing as in the workload), the blend,
// and local-to-model with the palette.
func BenchmarkBlend2Palette100Stages(b *testing.B) {
	sk, skin, clips := animtest.B2PSkeleton(), animtest.B2PSkin(), animtest.B2PClips()
	for _, path := range kernelPaths() {
		for _, mode := range animtest.B2PWant {
			f := animtest.NewB2PFast(b, sk, skin, clips, mode.Nlerp)
			f.Eval()
			stage := func(name string, run func()) {
				b.Run(path+"/"+mode.Name+"/"+name, func(b *testing.B) {
					anim.SetKernelPath(path)
					defer kernelPaths()
					for b.Loop() {
						run()
					}
					animtest.ReportNsPerJoint(b)
				})
			}
			stage("sample", f.Sample)
			stage("blend", func() { anim.BlendSoA(f.Blend, f.SA.Output, f.SB.Output, animtest.B2PWeight, f.Nlerp) })
			if mode.Nlerp {
				stage("model-palette", f.MP.Run)
			}
		}
	}
}

// TestBlend2Palette100BetweenKeys runs the workload (slerp) half a frame
// off its keys — keys every 1/30 s, times k/60 + 1/120 — so that every
// evaluation interpolates, on every kernel path, and compares each
// palette with the reference jobs' at the same time (the graph's test of
// the same name runs it through a controller).
func TestBlend2Palette100BetweenKeys(t *testing.T) {
	sk, skin, clips := animtest.B2PSkeleton(), animtest.B2PSkin(), animtest.B2PClips()
	const offset = 1.0 / 120
	ref := newB2PJobs(sk, skin, clips, false)
	ref.t = offset
	type path struct {
		name string
		eval func()
		pal  []float32
	}
	var paths []path
	for _, p := range kernelPaths() {
		anim.SetKernelPath(p)
		f := animtest.NewB2PFast(t, sk, skin, clips, false)
		f.T = offset
		paths = append(paths, path{p, func() { anim.SetKernelPath(p); f.Eval() }, f.MP.Output})
	}
	defer kernelPaths()
	for frame := range 45 {
		ref.eval()
		for _, p := range paths {
			p.eval()
			for i, want := range ref.pal.Output {
				if !animtest.ApproxEqual(p.pal[i], want, 1e-4) {
					t.Fatalf("%s frame %d (t=%v): palette float %d = %v, reference %v", p.name, frame, ref.t, i, p.pal[i], want)
				}
			}
		}
	}
}
