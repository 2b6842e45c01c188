package graph

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
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
func b2pSkeleton() *anim.Skeleton {
	sk := &anim.Skeleton{Names: make([]string, b2pJoints), Parents: make([]int, b2pJoints), Rest: make([]anim.Transform, b2pJoints)}
	for j := range b2pJoints {
		sk.Parents[j] = (j - 1) / 2
		if j == 0 {
			sk.Parents[j] = -1
		}
		sk.Names[j] = "j" + itoa(j)
		sk.Rest[j] = anim.IdentityTransform
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
func b2pSkin() *anim.Skin {
	sk := &anim.Skin{Name: "b2p", Joints: make([]int, b2pJoints), InverseBind: make([]mgl32.Mat4, b2pJoints)}
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
func b2pClips() []anim.Clip {
	rng := mulberry32(42)
	r := func() float64 { return 2*rng.next() - 1 }
	clips := make([]anim.Clip, 2)
	for c := range clips {
		clip := anim.Clip{Name: string(rune('A' + c)), Duration: b2pLength}
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
				anim.Track{Joint: j, Path: anim.Translation, Interp: anim.Linear, Times: times(), Values: tv},
				anim.Track{Joint: j, Path: anim.Rotation, Interp: anim.Linear, Times: times(), Values: rv},
				anim.Track{Joint: j, Path: anim.Scale, Interp: anim.Linear, Times: times(), Values: sv})
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
	sum += float64(len(pal) / anim.PaletteFloats)
	e := pal[len(pal)-anim.PaletteFloats:]
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

// b2pFast is the workload on the fast pipeline: two SampleSoAJobs,
// BlendSoA and ModelPaletteJob, nlerp or slerp for keys and blend alike.
type b2pFast struct {
	t      float32
	sa, sb anim.SampleSoAJob
	blend  *anim.SoAPose
	mp     anim.ModelPaletteJob
	nlerp  bool
}

func newB2PFast(tb testing.TB, sk *anim.Skeleton, skin *anim.Skin, clips []anim.Clip, nlerp bool) *b2pFast {
	var rcs []*anim.RuntimeClip
	for i := range clips {
		rc, err := anim.NewRuntimeClip(&clips[i], sk)
		if err != nil {
			tb.Fatal(err)
		}
		rcs = append(rcs, rc)
	}
	return newB2PFastRuntime(tb, sk, skin, rcs, nlerp)
}

// newB2PFastRuntime is newB2PFast over runtime clips, compressed or not.
func newB2PFastRuntime(tb testing.TB, sk *anim.Skeleton, skin *anim.Skin, rcs []*anim.RuntimeClip, nlerp bool) *b2pFast {
	n := sk.NumJoints()
	f := &b2pFast{nlerp: nlerp, blend: anim.NewSoAPose(n)}
	for i, job := range []*anim.SampleSoAJob{&f.sa, &f.sb} {
		rc := rcs[i]
		*job = anim.SampleSoAJob{Clip: rc, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(n)}
	}
	f.mp = anim.ModelPaletteJob{Skeleton: sk, Skin: skin, Input: f.blend, Models: make([]float32, anim.PaletteFloats*n), Output: make([]float32, anim.PaletteFloats*n)}
	for _, v := range []interface{ Validate() error }{&f.sa, &f.sb, &f.mp} {
		if err := v.Validate(); err != nil {
			tb.Fatal(err)
		}
	}
	return f
}

func (f *b2pFast) eval() {
	f.sample()
	anim.BlendSoA(f.blend, f.sa.Output, f.sb.Output, b2pWeight, f.nlerp)
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

func reportNsPerJoint(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/b2pJoints, "ns/joint")
}

// b2pRuntimeClips builds the workload's clips once for many controllers.
func b2pRuntimeClips(tb testing.TB, sk *anim.Skeleton) []*anim.RuntimeClip {
	var rcs []*anim.RuntimeClip
	for _, c := range b2pClips() {
		rc, err := anim.NewRuntimeClip(&c, sk)
		if err != nil {
			tb.Fatal(err)
		}
		rcs = append(rcs, rc)
	}
	return rcs
}

// b2pSpec is the workload written as a spec: the two clips in a blend1d
// at 0.4, nlerp or slerp for keys and blend alike.
func b2pSpec(tb testing.TB, nlerp bool) *Spec {
	src := `{"params": [{"name": "w", "max": 1, "default": 0.4}],
	  "tree": {"type": "blend1d", "param": "w", "children": ["A", "B"], "nlerp": ` + fmt.Sprint(nlerp) + `}}`
	spec, err := ParseSpec([]byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	return spec
}

// b2pController is the workload through the engine users run: a
// controller built from b2pSpec, updated by one step per evaluation, its
// pose turned into the palette by ModelPaletteJob.
type b2pController struct {
	c    *Controller
	pose *anim.SoAPose
	mp   anim.ModelPaletteJob
}

func newB2PController(tb testing.TB, sk *anim.Skeleton, skin *anim.Skin, rcs []*anim.RuntimeClip, nlerp bool) *b2pController {
	c, err := NewControllerRuntime(b2pSpec(tb, nlerp), sk, rcs)
	if err != nil {
		tb.Fatal(err)
	}
	n := sk.NumJoints()
	g := &b2pController{c: c, pose: anim.NewSoAPose(n)}
	g.mp = anim.ModelPaletteJob{Skeleton: sk, Skin: skin, Input: g.pose, Models: make([]float32, anim.PaletteFloats*n), Output: make([]float32, anim.PaletteFloats*n)}
	return g
}

func (g *b2pController) eval() {
	g.c.Update(b2pStep)
	g.c.Evaluate(g.pose)
	g.mp.Run()
}

// TestBlend2Palette100Spec runs the workload as a spec through a
// controller for 30 evaluations and compares with the workload file's
// checksums.
func TestBlend2Palette100Spec(t *testing.T) {
	sk, skin := b2pSkeleton(), b2pSkin()
	rcs := b2pRuntimeClips(t, sk)
	for _, want := range b2pWant {
		g := newB2PController(t, sk, skin, rcs, want.nlerp)
		for range 30 {
			g.eval()
		}
		sum, last := b2pChecksum(g.mp.Output)
		if math.Abs(sum-want.sum) > 1e-3 || !vecApprox(last, want.last, 1e-3) {
			t.Errorf("%s: checksum %.4f, palette[99] %v; want %.4f, %v", want.name, sum, last, want.sum, want.last)
		}
	}
}

// BenchmarkBlend2Palette100Spec is the workload written as a spec
// (b2pSpec) through NewController, Update, Evaluate and ModelPaletteJob:
// the path every viewer mode runs.
func BenchmarkBlend2Palette100Spec(b *testing.B) {
	sk, skin := b2pSkeleton(), b2pSkin()
	rcs := b2pRuntimeClips(b, sk)
	for _, mode := range b2pWant {
		b.Run(mode.name, func(b *testing.B) {
			g := newB2PController(b, sk, skin, rcs, mode.nlerp)
			b.ReportAllocs()
			for b.Loop() {
				g.eval()
			}
			reportNsPerJoint(b)
		})
	}
}

// BenchmarkSpecVsBest measures what BenchmarkBlend2Palette100Spec's
// acceptance compares, the spec's nlerp path over the workload's best
// path, alternating in one process (vsBest).
func BenchmarkSpecVsBest(b *testing.B) {
	sk := b2pSkeleton()
	g := newB2PController(b, sk, b2pSkin(), b2pRuntimeClips(b, sk), true)
	vsBest(b, g.eval, b2pJoints, "spec-ns/joint")
}

// crowd1000 is the workload's Crowd-1000 through controllers: 1000
// controllers of b2pSpec sharing one copy of the runtime clips, character i
// starting at i·2 ms.
func crowd1000(tb testing.TB, nlerp bool) *Crowd {
	sk := b2pSkeleton()
	return crowdOf(tb, sk, b2pRuntimeClips(tb, sk), nlerp)
}

// crowdOf is crowd1000 over the runtime clips rcs of skeleton sk.
func crowdOf(tb testing.TB, sk *anim.Skeleton, rcs []*anim.RuntimeClip, nlerp bool) *Crowd {
	skin := b2pSkin()
	spec := b2pSpec(tb, nlerp)
	ctls := make([]*Controller, 1000)
	for i := range ctls {
		c, err := NewControllerRuntime(spec, sk, rcs)
		if err != nil {
			tb.Fatal(err)
		}
		c.SetTime(float32(i) * 0.002)
		ctls[i] = c
	}
	c, err := NewCrowd(sk, []anim.Skin{*skin}, ctls)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkCrowd1000 is one frame of the workload's Crowd-1000 (nlerp) on
// one and on two worker goroutines, in ms per frame.
func BenchmarkCrowd1000(b *testing.B) {
	benchCrowd(b, func() *Crowd { return crowd1000(b, true) })
}

// benchCrowd times one frame of the crowds mk builds on one and on two
// worker goroutines, in ms per frame.
func benchCrowd(b *testing.B, mk func() *Crowd) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			c := mk()
			defer c.Close()
			c.Evaluate(b2pStep, threads) // start the workers
			b.ReportAllocs()
			for b.Loop() {
				c.Evaluate(b2pStep, threads)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
		})
	}
}

// BenchmarkCrowd1000Compressed is BenchmarkCrowd1000 with the clips
// compressed at 0.01 cm: 1,000 characters sharing two clips of 102 KB
// each instead of 317 KB.
func BenchmarkCrowd1000Compressed(b *testing.B) {
	sk, clips := b2pSkeleton(), b2pClips()
	var rcs []*anim.RuntimeClip
	for i := range clips {
		rc, _, err := anim.CompressClip(&clips[i], sk, anim.CompressOptions{Tolerance: 1e-4})
		if err != nil {
			b.Fatal(err)
		}
		rcs = append(rcs, rc)
	}
	benchCrowd(b, func() *Crowd { return crowdOf(b, sk, rcs, true) })
}

// TestBlend2Palette100BetweenKeys runs the workload (slerp) half a frame
// off its keys — keys every 1/30 s, times k/60 + 1/120 — so that every
// evaluation interpolates, through a controller, and compares each
// palette with the jobs' (b2pFast) at the same time; anim's test of the
// same name holds the jobs, on every kernel path, to the reference jobs.
func TestBlend2Palette100BetweenKeys(t *testing.T) {
	sk, skin, clips := b2pSkeleton(), b2pSkin(), b2pClips()
	const offset = 1.0 / 120
	ref := newB2PFast(t, sk, skin, clips, false)
	ref.t = offset
	g := newB2PController(t, sk, skin, b2pRuntimeClips(t, sk), false)
	g.c.SetTime(offset)
	for frame := range 45 {
		ref.eval()
		g.eval()
		for i, want := range ref.mp.Output {
			if !approxEqual(g.mp.Output[i], want, 1e-4) {
				t.Fatalf("spec frame %d (t=%v): palette float %d = %v, jobs %v", frame, ref.t, i, g.mp.Output[i], want)
			}
		}
	}
}
