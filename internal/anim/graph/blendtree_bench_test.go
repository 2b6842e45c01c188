package graph

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

const benchJoints = 64

// benchTreeRig is animtest.BenchRig's 64-joint skeleton with named joints and five
// copies of its clip, c0…c4, so that trees can blend distinct players.
func benchTreeRig() (*anim.Skeleton, []anim.Clip) {
	sk, clip, _ := animtest.BenchRig(benchJoints)
	for i := range sk.Names {
		sk.Names[i] = fmt.Sprintf("j%d", i)
	}
	clips := make([]anim.Clip, 5)
	for i := range clips {
		clips[i] = *clip
		clips[i].Name = fmt.Sprintf("c%d", i)
	}
	return sk, clips
}

// reportPerJoint adds the ns/joint metric the project compares.
func reportPerJoint(b *testing.B, joints int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(joints), "ns/joint")
}

// nodeCase is one node type in a tree whose only state is that node over
// clip players, with parameters set so that every child is active (the
// most work the node can do).
type nodeCase struct {
	name string
	tree NodeSpec
}

// benchFrames times Update + Evaluate of c at 60 frames a second.
func benchFrames(b *testing.B, c *Controller) {
	pose := anim.NewSoAPose(benchJoints)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Update(1.0 / 60)
		c.Evaluate(pose)
	}
	reportPerJoint(b, benchJoints)
}

// nodeCases lists every node type for BenchmarkNode and
// TestNodeAllocatesNothing; the trees use the parameters p and q of
// nodeParams.
func nodeCases() []nodeCase {
	clip := func(i int) NodeSpec { return clipNodeSpec(fmt.Sprintf("c%d", i)) }
	return []nodeCase{
		{"clip", clip(0)},
		{"lerp", NodeSpec{Type: NodeLerp, Weight: inPtr(Bind("p")), Children: []NodeSpec{clip(0), clip(1)}}},
		{"lerp-nlerp", NodeSpec{Type: NodeLerp, Nlerp: true, Weight: inPtr(Bind("p")), Children: []NodeSpec{clip(0), clip(1)}}},
		{"blend1d", NodeSpec{Type: NodeBlend1D, Param: Bind("p"), Children: []NodeSpec{clip(0), clip(1), clip(2), clip(3)}}},
		{"blend1d-sync", NodeSpec{Type: NodeBlend1D, Sync: true, Param: Bind("p"), Children: []NodeSpec{clip(0), clip(1), clip(2), clip(3)}}},
		{"blend2d-triangle", NodeSpec{Type: NodeBlend2D, Params: [2]Input{Bind("q"), Bind("q")},
			Points: []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}}, Children: []NodeSpec{clip(0), clip(1), clip(2)}}},
		{"blend2d-bilinear", NodeSpec{Type: NodeBlend2D, Params: [2]Input{Bind("q"), Bind("q")},
			Points: []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, Children: []NodeSpec{clip(0), clip(1), clip(2), clip(3)}}},
		{"blend2d-delaunay", NodeSpec{Type: NodeBlend2D, Params: [2]Input{Bind("q"), Bind("q")},
			Points: []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0.6, 0.2}}, Children: []NodeSpec{clip(0), clip(1), clip(2), clip(3), clip(4)}}},
		{"average-4", NodeSpec{Type: NodeAverage, Weights: []Input{Const(1), Const(2), Const(3), Const(4)}, Children: []NodeSpec{clip(0), clip(1), clip(2), clip(3)}}},
		{"crossfade", NodeSpec{Type: NodeCrossFade, Param: Bind("q"), Duration: 1e9, Ease: EaseInOut, Children: []NodeSpec{clip(0), clip(1)}}},
		{"additive", NodeSpec{Type: NodeAdditive, Base: ptr(clip(0)), Source: ptr(clip(1)), Weight: inPtr(Bind("q"))}},
		{"mask", NodeSpec{Type: NodeMask, Base: ptr(clip(0)), Overlay: ptr(clip(1)), Weight: inPtr(Bind("q")), Mask: &MaskSpec{Joints: []string{"j1"}, Falloff: 2}}},
		{"layer", NodeSpec{Type: NodeLayer, Base: ptr(clip(0)), Layers: []NodeLayerSpec{
			{Node: clip(1), Weight: inPtr(Bind("q")), Mask: &MaskSpec{Joints: []string{"j2"}}},
			{Node: clip(2), Mode: LayerAdditive, Weight: inPtr(Bind("q"))},
		}}},
	}
}

// nodeParams are the parameters the node cases bind.
var nodeParams = []ParamSpec{{Name: "p", Max: 3, Default: 0.5}, {Name: "q", Max: 1, Default: 0.3}}

// newNodeController builds a node case's controller on the bench rig.
func newNodeController(tb testing.TB, tc nodeCase, sk *anim.Skeleton, clips []anim.Clip) *Controller {
	c := build(tb, treeSpec(tc.tree, nodeParams...), sk, clips)
	if tc.name == "crossfade" {
		_ = c.SetParam("q", 1) // start a fade that never ends
	}
	return c
}

// BenchmarkNode measures Update + Evaluate of a controller whose only state
// is one node of each type (nodeCases).
func BenchmarkNode(b *testing.B) {
	sk, clips := benchTreeRig()
	for _, tc := range nodeCases() {
		b.Run(tc.name, func(b *testing.B) {
			c := newNodeController(b, tc, sk, clips)
			benchFrames(b, c)
		})
	}
}

// TestNodeAllocatesNothing checks Update + Evaluate of every node type.
func TestNodeAllocatesNothing(t *testing.T) {
	sk, clips := benchTreeRig()
	for _, tc := range nodeCases() {
		c := newNodeController(t, tc, sk, clips)
		pose := anim.NewSoAPose(benchJoints)
		if a := testing.AllocsPerRun(50, func() {
			c.Update(1.0 / 60)
			c.Evaluate(pose)
		}); a != 0 {
			t.Errorf("%s: %v allocations per frame; want 0", tc.name, a)
		}
	}
}

// BenchmarkTransition measures a state machine in the middle of a smooth
// cross-fade between two single-clip states, and of a frozen one (which
// samples only the destination).
func BenchmarkTransition(b *testing.B) {
	sk, clips := benchTreeRig()
	for _, ty := range []TransitionType{TransitionSmooth, TransitionFrozen} {
		b.Run(ty.String(), func(b *testing.B) {
			spec := &Spec{Layers: []LayerSpec{{
				States:      []StateSpec{{Name: "a", Tree: ptr(clipNodeSpec("c0"))}, {Name: "b", Tree: ptr(clipNodeSpec("c1"))}},
				Transitions: []TransitionSpec{{From: "*", To: "b", Type: ty, Duration: 1e9}},
			}}}
			c := build(b, spec, sk, clips)
			if err := c.Request("b"); err != nil {
				b.Fatal(err)
			}
			c.Update(0.1)
			benchFrames(b, c)
		})
	}
}

// characterFrame sets up testdata/character.json on the humanoid with
// every layer busy: locomotion mid-blend, the sway, the gesture wave (asked
// for every 120 frames), look-at and IK, through to the palette of a skin of
// every joint. It returns one frame's work and the joint count.
func characterFrame(tb testing.TB) (frame func(), joints int) {
	c, sk := characterController(tb)
	for name, v := range map[string]float32{"speed": 0.5, "look_weight": 1, "ik_weight": 1} {
		if err := c.SetParam(name, v); err != nil {
			tb.Fatal(err)
		}
	}
	n := sk.NumJoints()
	pose := anim.NewSoAPose(n)
	skin := &anim.Skin{Joints: make([]int, n), InverseBind: make([]mgl32.Mat4, n)}
	for i := range n {
		skin.Joints[i], skin.InverseBind[i] = i, mgl32.Ident4()
	}
	mp := anim.ModelPaletteJob{Skeleton: sk, Skin: skin, Input: pose, Models: make([]float32, anim.PaletteFloats*n), Output: make([]float32, anim.PaletteFloats*n)}
	i := 0
	return func() {
		if i%120 == 0 {
			_ = c.Request("greet")
		}
		i++
		c.Update(1.0 / 60)
		c.Evaluate(pose)
		mp.Run()
	}, n
}

// BenchmarkCharacter is a frame of characterFrame.
func BenchmarkCharacter(b *testing.B) {
	frame, n := characterFrame(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		frame()
	}
	reportPerJoint(b, n)
}

// BenchmarkCharacterVsBest measures what BenchmarkCharacter's acceptance
// compares, the character's cost per joint over the Blend2Palette-100
// workload's (nlerp, on the kernels start-up calibration chose), in one
// process and alternating (vsBest).
func BenchmarkCharacterVsBest(b *testing.B) {
	frame, n := characterFrame(b)
	vsBest(b, frame, n, "char-ns/joint")
}

// vsBest times run (a frame of joints joints) against the Blend2Palette-100
// workload's best path (nlerp, on the kernels start-up calibration chose),
// alternating in one process: each iteration times 2 ms of run and 2 ms of
// workload evaluations, which goes first taking turns. On a machine whose
// speed drifts (a shared virtual machine), two separate benchmarks can run
// in different weather, and a ratio of them can be off by a third;
// alternating cancels it. Each slice is timed once, not the faster of two
// tries (docs/performance.md has why). It reports run's median ns/joint
// (under unit), the workload's, and the median of the iterations' ratios.
func vsBest(b *testing.B, run func(), joints int, unit string) {
	best := animtest.NewB2PFast(b, animtest.B2PSkeleton(), animtest.B2PSkin(), animtest.B2PClips(), true)
	slice := func(run func(), joints int) float64 {
		k, start := 0, time.Now()
		for time.Since(start) < 2*time.Millisecond {
			for range 8 {
				run()
			}
			k += 8
		}
		return float64(time.Since(start).Nanoseconds()) / float64(k*joints)
	}
	var runs, bests, ratios []float64
	for i := 0; b.Loop(); i++ {
		var r, w float64
		if i%2 == 0 {
			r, w = slice(run, joints), slice(best.Eval, animtest.B2PJoints)
		} else {
			w, r = slice(best.Eval, animtest.B2PJoints), slice(run, joints)
		}
		runs, bests, ratios = append(runs, r), append(bests, w), append(ratios, r/w)
	}
	median := func(v []float64) float64 {
		slices.Sort(v)
		return v[len(v)/2]
	}
	b.ReportMetric(median(runs), unit)
	b.ReportMetric(median(bests), "best-ns/joint")
	b.ReportMetric(median(ratios), "ratio")
}
