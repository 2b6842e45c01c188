package graph

import (
	"fmt"
	"math"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

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
	g.c.Update(animtest.B2PStep)
	g.c.Evaluate(g.pose)
	g.mp.Run()
}

// TestBlend2Palette100Spec runs the workload as a spec through a
// controller for 30 evaluations and compares with the workload file's
// checksums.
func TestBlend2Palette100Spec(t *testing.T) {
	sk, skin := animtest.B2PSkeleton(), animtest.B2PSkin()
	rcs := animtest.B2PRuntimeClips(t, sk)
	for _, want := range animtest.B2PWant {
		g := newB2PController(t, sk, skin, rcs, want.Nlerp)
		for range 30 {
			g.eval()
		}
		sum, last := animtest.B2PChecksum(g.mp.Output)
		if math.Abs(sum-want.Sum) > 1e-3 || !animtest.VecApprox(last, want.Last, 1e-3) {
			t.Errorf("%s: checksum %.4f, palette[99] %v; want %.4f, %v", want.Name, sum, last, want.Sum, want.Last)
		}
	}
}

// BenchmarkBlend2Palette100Spec is the workload written as a spec
// (b2pSpec) through NewController, Update, Evaluate and ModelPaletteJob:
// the path every viewer mode runs.
func BenchmarkBlend2Palette100Spec(b *testing.B) {
	sk, skin := animtest.B2PSkeleton(), animtest.B2PSkin()
	rcs := animtest.B2PRuntimeClips(b, sk)
	for _, mode := range animtest.B2PWant {
		b.Run(mode.Name, func(b *testing.B) {
			g := newB2PController(b, sk, skin, rcs, mode.Nlerp)
			b.ReportAllocs()
			for b.Loop() {
				g.eval()
			}
			animtest.ReportNsPerJoint(b)
		})
	}
}

// BenchmarkSpecVsBest measures what BenchmarkBlend2Palette100Spec's
// acceptance compares, the spec's nlerp path over the workload's best
// path, alternating in one process (vsBest).
func BenchmarkSpecVsBest(b *testing.B) {
	sk := animtest.B2PSkeleton()
	g := newB2PController(b, sk, animtest.B2PSkin(), animtest.B2PRuntimeClips(b, sk), true)
	vsBest(b, g.eval, animtest.B2PJoints, "spec-ns/joint")
}

// crowd1000 is the workload's Crowd-1000 through controllers: 1000
// controllers of b2pSpec sharing one copy of the runtime clips, character i
// starting at i·2 ms.
func crowd1000(tb testing.TB, nlerp bool) *Crowd {
	sk := animtest.B2PSkeleton()
	return crowdOf(tb, sk, animtest.B2PRuntimeClips(tb, sk), nlerp)
}

// crowdOf is crowd1000 over the runtime clips rcs of skeleton sk.
func crowdOf(tb testing.TB, sk *anim.Skeleton, rcs []*anim.RuntimeClip, nlerp bool) *Crowd {
	skin := animtest.B2PSkin()
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
			c.Evaluate(animtest.B2PStep, threads) // start the workers
			b.ReportAllocs()
			for b.Loop() {
				c.Evaluate(animtest.B2PStep, threads)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
		})
	}
}

// BenchmarkCrowd1000Compressed is BenchmarkCrowd1000 with the clips
// compressed at 0.01 cm: 1,000 characters sharing two clips of 102 KB
// each instead of 317 KB.
func BenchmarkCrowd1000Compressed(b *testing.B) {
	sk, clips := animtest.B2PSkeleton(), animtest.B2PClips()
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
// palette with the jobs' (animtest.B2PFast) at the same time; anim's test of the
// same name holds the jobs, on every kernel path, to the reference jobs.
func TestBlend2Palette100BetweenKeys(t *testing.T) {
	sk, skin, clips := animtest.B2PSkeleton(), animtest.B2PSkin(), animtest.B2PClips()
	const offset = 1.0 / 120
	ref := animtest.NewB2PFast(t, sk, skin, clips, false)
	ref.T = offset
	g := newB2PController(t, sk, skin, animtest.B2PRuntimeClips(t, sk), false)
	g.c.SetTime(offset)
	for frame := range 45 {
		ref.Eval()
		g.eval()
		for i, want := range ref.MP.Output {
			if !animtest.ApproxEqual(g.mp.Output[i], want, 1e-4) {
				t.Fatalf("spec frame %d (t=%v): palette float %d = %v, jobs %v", frame, ref.T, i, g.mp.Output[i], want)
			}
		}
	}
}
