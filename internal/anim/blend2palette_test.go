package anim

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// The Blend2Palette-100 workload of /work/shared/bench/BLEND2PALETTE-100.md:
// a 100-joint binary tree, two 2 s clips with 61 random keys per track
// (mulberry32, seed 42), blended 0.6/0.4 and turned into a palette.

const (
	b2pJoints = 100
	b2pKeys   = 61
	b2pStep   = 1.0 / 60 // seconds per evaluation
	b2pLength = 2.0      // clip duration, seconds
	b2pWeight = 0.4      // weight of clip B (A has 0.6)
)

// mulberry32 is the workload's PRNG: 32-bit wrapping arithmetic.
type mulberry32 uint32

func (m *mulberry32) next() float64 {
	*m += 0x6D2B79F5
	t := uint32(*m)
	t = (t ^ (t >> 15)) * (t | 1)
	t ^= t + (t^(t>>7))*(t|61)
	return float64(t^(t>>14)) / 4294967296
}

// b2pSkeleton is joint i > 0 under joint (i−1)/2, rest translation (0,1,0).
func b2pSkeleton() *Skeleton {
	sk := &Skeleton{Names: make([]string, b2pJoints), Parents: make([]int, b2pJoints), Rest: make([]Transform, b2pJoints)}
	for j := range b2pJoints {
		sk.Parents[j] = (j - 1) / 2
		if j == 0 {
			sk.Parents[j] = -1
		}
		sk.Names[j] = "j" + itoa(j)
		sk.Rest[j] = IdentityTransform
		sk.Rest[j].Translation = mgl32.Vec3{0, 1, 0}
	}
	return sk
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// b2pSkin maps joints 1:1 with inverse binds computed in float64 from the
// rest pose (independently of refLocalToModelJob): the rest world matrix of a
// joint is a translation by (0, depth+1, 0).
func b2pSkin() *Skin {
	sk := &Skin{Name: "b2p", Joints: make([]int, b2pJoints), InverseBind: make([]mgl32.Mat4, b2pJoints)}
	for j := range b2pJoints {
		sk.Joints[j] = j
		y := 0.0
		for k := j; k >= 0; k = (k - 1) / 2 {
			y++
			if k == 0 {
				break
			}
		}
		sk.InverseBind[j] = mgl32.Translate3D(0, float32(-y), 0)
	}
	return sk
}

// b2pClips draws clips A and B in the file's order.
func b2pClips() []Clip {
	rng := mulberry32(42)
	r := func() float64 { return 2*rng.next() - 1 }
	clips := make([]Clip, 2)
	for c := range clips {
		clip := Clip{Name: string(rune('A' + c)), Duration: b2pLength}
		for j := range b2pJoints {
			times := func() []float32 {
				t := make([]float32, b2pKeys)
				for k := range t {
					t[k] = float32(float64(k) / 30)
				}
				return t
			}
			tv := make([]float32, 0, 3*b2pKeys)
			rv := make([]float32, 0, 4*b2pKeys)
			sv := make([]float32, 0, 3*b2pKeys)
			for range b2pKeys {
				tx, ty, tz := r()*0.5, 1+r()*0.5, r()*0.5
				ax, ay, az := r(), r(), r()
				l := math.Sqrt(ax*ax + ay*ay + az*az)
				if l < 1e-6 {
					ax, ay, az = 0, 1, 0
				} else {
					ax, ay, az = ax/l, ay/l, az/l
				}
				angle := r() * 60 * math.Pi / 180
				s, cw := math.Sin(angle/2), math.Cos(angle/2)
				sx, sy, sz := 0.9+0.2*rng.next(), 0.9+0.2*rng.next(), 0.9+0.2*rng.next()
				tv = append(tv, float32(tx), float32(ty), float32(tz))
				rv = append(rv, float32(ax*s), float32(ay*s), float32(az*s), float32(cw))
				sv = append(sv, float32(sx), float32(sy), float32(sz))
			}
			clip.Tracks = append(clip.Tracks,
				Track{Joint: j, Path: Translation, Interp: Linear, Times: times(), Values: tv},
				Track{Joint: j, Path: Rotation, Interp: Linear, Times: times(), Values: rv},
				Track{Joint: j, Path: Scale, Interp: Linear, Times: times(), Values: sv})
		}
		clips[c] = clip
	}
	return clips
}

// b2pChecksum is the workload's checksum of a 3×4 palette: the sum of the
// 4×4 matrices' floats, whose dropped bottom rows (0 0 0 1) add 1 each
// (TestBlend2Palette100Checksum checks that against the full matrices),
// and the translation column of the last entry.
func b2pChecksum(pal []float32) (sum float64, last mgl32.Vec3) {
	for _, v := range pal {
		sum += float64(v)
	}
	sum += float64(len(pal) / PaletteFloats)
	e := pal[len(pal)-PaletteFloats:]
	return sum, mgl32.Vec3{e[3], e[7], e[11]}
}

// b2pTime advances a character's clock by one evaluation, looping.
func b2pTime(t float32) float32 {
	t += b2pStep
	if t >= b2pLength {
		t -= b2pLength
	}
	return t
}

// b2pJobs is the workload on the generic jobs: two SampleJobs, a pose
// blend, refLocalToModelJob and refPaletteJob, the engine as it was before the
// fast pipeline.
type b2pJobs struct {
	t      float32
	sa, sb refSampleJob
	blend  []Transform
	l2m    refLocalToModelJob
	pal    refPaletteJob
	nlerp  bool
}

func newB2PJobs(sk *Skeleton, skin *Skin, clips []Clip, nlerp bool) *b2pJobs {
	n := sk.NumJoints()
	g := &b2pJobs{nlerp: nlerp, blend: make([]Transform, n)}
	g.sa = refSampleJob{Clip: &clips[0], Rest: sk.Rest, Cursors: make([]int, len(clips[0].Tracks)), Output: make([]Transform, n)}
	g.sb = refSampleJob{Clip: &clips[1], Rest: sk.Rest, Cursors: make([]int, len(clips[1].Tracks)), Output: make([]Transform, n)}
	g.l2m = refLocalToModelJob{Skeleton: sk, Input: g.blend, Output: make([]mgl32.Mat4, n)}
	g.pal = refPaletteJob{Skin: skin, Models: g.l2m.Output, Output: make([]float32, n*PaletteFloats)}
	return g
}

func (g *b2pJobs) eval() {
	g.t = b2pTime(g.t)
	g.sa.Time, g.sb.Time = g.t, g.t
	g.sa.Run()
	g.sb.Run()
	refLerpPose(g.blend, g.sa.Output, g.sb.Output, b2pWeight, g.nlerp)
	g.l2m.Run()
	g.pal.Run()
}

// b2pFast is the workload on the fast pipeline: two SampleSoAJobs,
// BlendSoA and ModelPaletteJob, nlerp or slerp for keys and blend alike.
type b2pFast struct {
	t      float32
	sa, sb SampleSoAJob
	blend  *SoAPose
	mp     ModelPaletteJob
	nlerp  bool
}

func newB2PFast(tb testing.TB, sk *Skeleton, skin *Skin, clips []Clip, nlerp bool) *b2pFast {
	var rcs []*RuntimeClip
	for i := range clips {
		rc, err := NewRuntimeClip(&clips[i], sk)
		if err != nil {
			tb.Fatal(err)
		}
		rcs = append(rcs, rc)
	}
	return newB2PFastRuntime(tb, sk, skin, rcs, nlerp)
}

// newB2PFastRuntime is newB2PFast over runtime clips, compressed or not.
func newB2PFastRuntime(tb testing.TB, sk *Skeleton, skin *Skin, rcs []*RuntimeClip, nlerp bool) *b2pFast {
	n := sk.NumJoints()
	f := &b2pFast{nlerp: nlerp, blend: NewSoAPose(n)}
	for i, job := range []*SampleSoAJob{&f.sa, &f.sb} {
		rc := rcs[i]
		*job = SampleSoAJob{Clip: rc, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: NewSoAPose(n)}
	}
	f.mp = ModelPaletteJob{Skeleton: sk, Skin: skin, Input: f.blend, Models: make([]float32, PaletteFloats*n), Output: make([]float32, PaletteFloats*n)}
	for _, v := range []interface{ Validate() error }{&f.sa, &f.sb, &f.mp} {
		if err := v.Validate(); err != nil {
			tb.Fatal(err)
		}
	}
	return f
}

func (f *b2pFast) eval() {
	f.sample()
	BlendSoA(f.blend, f.sa.Output, f.sb.Output, b2pWeight, f.nlerp)
	f.mp.Run()
}

// sample is eval's first stage, which BenchmarkBlend2Palette100Stages
// times alone: it advances the clock and samples both clips.
func (f *b2pFast) sample() {
	f.t = b2pTime(f.t)
	f.sa.Time, f.sb.Time = f.t, f.t
	f.sa.Run()
	f.sb.Run()
}

// b2pWant is the checksum table of the workload file.
var b2pWant = []struct {
	name  string
	nlerp bool
	sum   float64
	last  mgl32.Vec3
}{
	{"slerp", false, 428.2946, mgl32.Vec3{-2.3314, 5.4522, -2.0550}},
	{"nlerp", true, 428.3750, mgl32.Vec3{-2.3118, 5.4626, -2.0738}},
}

// kernelPaths lists the kernel paths this build and CPU can run: portable
// always, SIMD levels in a GOEXPERIMENT=simd build. Running a subtest per
// path selects it with setKernelPath; kernelPaths puts back the measured
// choice after.
func kernelPaths() []string {
	var paths []string
	for _, p := range []string{"portable", "avx2", "avx512"} {
		if setKernelPath(p) {
			paths = append(paths, p)
		}
	}
	restoreKernels()
	return paths
}

// TestBlend2Palette100Checksum runs the workload for 30 evaluations (t =
// 0.5 s) and compares the palette with the workload file's table, on the
// generic jobs (slerp keys; the blend slerped or nlerped) and on every
// kernel path of the fast pipeline (keys and blend alike).
func TestBlend2Palette100Checksum(t *testing.T) {
	sk, skin, clips := b2pSkeleton(), b2pSkin(), b2pClips()
	check := func(t *testing.T, pal []float32, sum float64, last mgl32.Vec3) {
		t.Helper()
		got, gotLast := b2pChecksum(pal)
		if math.Abs(got-sum) > 1e-3 {
			t.Errorf("sum(palette) = %.4f, want %.4f", got, sum)
		}
		if !vecApprox(gotLast, last, 1e-3) {
			t.Errorf("palette[99] translation = %v, want %v", gotLast, last)
		}
	}
	for _, want := range b2pWant {
		t.Run("jobs-"+want.name, func(t *testing.T) {
			g := newB2PJobs(sk, skin, clips, want.nlerp)
			for range 30 {
				g.eval()
			}
			if math.Abs(float64(g.t)-0.5) > 1e-5 {
				t.Fatalf("time after 30 evaluations = %v, want 0.5", g.t)
			}
			check(t, g.pal.Output, want.sum, want.last)
			// The table sums whole 4×4 matrices: recompute them as Mat4
			// products and sum all 16 floats, bottom rows included.
			var full float64
			for j := range b2pJoints {
				m := g.l2m.Output[j].Mul4(skin.InverseBind[j])
				for _, v := range m {
					full += float64(v)
				}
			}
			if math.Abs(full-want.sum) > 1e-3 {
				t.Errorf("sum of the 4×4 palette = %.4f, want %.4f", full, want.sum)
			}
		})
		for _, path := range kernelPaths() {
			t.Run(path+"-"+want.name, func(t *testing.T) {
				setKernelPath(path)
				defer kernelPaths()
				f := newB2PFast(t, sk, skin, clips, want.nlerp)
				for range 30 {
					f.eval()
				}
				check(t, f.mp.Output, want.sum, want.last)
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
	sk, skin, clips := b2pSkeleton(), b2pSkin(), b2pClips()
	for _, nlerp := range []bool{false, true} {
		run := func(path string) [][]float32 {
			setKernelPath(path)
			defer kernelPaths()
			f := newB2PFast(t, sk, skin, clips, nlerp)
			var frames [][]float32
			for range 200 {
				f.eval()
				frames = append(frames, append([]float32(nil), f.mp.Output...))
			}
			return frames
		}
		ref := run("portable")
		for _, path := range paths[1:] {
			got := run(path)
			for fr := range ref {
				for i := range ref[fr] {
					if !approxEqual(got[fr][i], ref[fr][i], 1e-4) {
						t.Fatalf("nlerp=%v %s frame %d float %d = %v, portable %v", nlerp, path, fr, i, got[fr][i], ref[fr][i])
					}
				}
			}
		}
	}
}

func reportNsPerJoint(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/b2pJoints, "ns/joint")
}

// BenchmarkBlend2Palette100 is the workload of BLEND2PALETTE-100.md, one
// evaluation per iteration, per kernel path (portable, and the SIMD ones
// of a GOEXPERIMENT=simd build) with nlerp or slerp for keys and blend;
// "calibrated" is each kernel at the level SetKernels("auto") chose for
// it on this CPU (a SIMD build), what the viewer runs by default; "jobs-slerp" is the
// generic jobs the engine used before.
func BenchmarkBlend2Palette100(b *testing.B) {
	sk, skin, clips := b2pSkeleton(), b2pSkin(), b2pClips()
	paths := kernelPaths()
	if simdPath() != "portable" {
		paths = append(paths, "calibrated")
	}
	for _, path := range paths {
		for _, mode := range b2pWant {
			b.Run(path+"/"+mode.name, func(b *testing.B) {
				if path != "calibrated" {
					setKernelPath(path)
					defer restoreKernels()
				}
				f := newB2PFast(b, sk, skin, clips, mode.nlerp)
				b.ReportAllocs()
				for b.Loop() {
					f.eval()
				}
				reportNsPerJoint(b)
			})
		}
	}
	b.Run("jobs-slerp", func(b *testing.B) {
		g := newB2PJobs(sk, skin, clips, false)
		b.ReportAllocs()
		for b.Loop() {
			g.eval()
		}
		reportNsPerJoint(b)
	})
}

// BenchmarkBlend2Palette100Stages splits the evaluation into its stages:
// sampling both clips (the clock advancing as in the workload), the blend,
// and local-to-model with the palette.
func BenchmarkBlend2Palette100Stages(b *testing.B) {
	sk, skin, clips := b2pSkeleton(), b2pSkin(), b2pClips()
	for _, path := range kernelPaths() {
		for _, mode := range b2pWant {
			f := newB2PFast(b, sk, skin, clips, mode.nlerp)
			f.eval()
			stage := func(name string, run func()) {
				b.Run(path+"/"+mode.name+"/"+name, func(b *testing.B) {
					setKernelPath(path)
					defer kernelPaths()
					for b.Loop() {
						run()
					}
					reportNsPerJoint(b)
				})
			}
			stage("sample", f.sample)
			stage("blend", func() { BlendSoA(f.blend, f.sa.Output, f.sb.Output, b2pWeight, f.nlerp) })
			if mode.nlerp {
				stage("model-palette", f.mp.Run)
			}
		}
	}
}

// b2pRuntimeClips builds the workload's clips once for many controllers.
func b2pRuntimeClips(tb testing.TB, sk *Skeleton) []*RuntimeClip {
	var rcs []*RuntimeClip
	for _, c := range b2pClips() {
		rc, err := NewRuntimeClip(&c, sk)
		if err != nil {
			tb.Fatal(err)
		}
		rcs = append(rcs, rc)
	}
	return rcs
}

// TestBlend2Palette100BetweenKeys runs the workload (slerp) half a frame
// off its keys — keys every 1/30 s, times k/60 + 1/120 — so that every
// evaluation interpolates, on every kernel path, and compares each
// palette with the reference jobs' at the same time (the graph's test of
// the same name runs it through a controller).
func TestBlend2Palette100BetweenKeys(t *testing.T) {
	sk, skin, clips := b2pSkeleton(), b2pSkin(), b2pClips()
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
		setKernelPath(p)
		f := newB2PFast(t, sk, skin, clips, false)
		f.t = offset
		paths = append(paths, path{p, func() { setKernelPath(p); f.eval() }, f.mp.Output})
	}
	defer kernelPaths()
	for frame := range 45 {
		ref.eval()
		for _, p := range paths {
			p.eval()
			for i, want := range ref.pal.Output {
				if !approxEqual(p.pal[i], want, 1e-4) {
					t.Fatalf("%s frame %d (t=%v): palette float %d = %v, reference %v", p.name, frame, ref.t, i, p.pal[i], want)
				}
			}
		}
	}
}
