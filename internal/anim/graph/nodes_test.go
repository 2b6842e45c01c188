package graph

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// The node tests drive one tree through a controller on a small skeleton
// with clips whose values are simple functions of time, so every expected
// number is a line of arithmetic in the case's comment.

// nodeClips are the clips of the node tests, all on joint 0 of a
// two-joint chain unless said otherwise:
//
//	A  x = t          (2 s)
//	B  x = 10 + 10t   (1 s)
//	C  x = 100        (1 s)
//	D  x = 1000       (1 s)
//	R  joint 1 turns about Z by 90°·t (1 s)
//	S  joint 1 scales by 1 + 3t (1 s)
//	K  joint 1 scale 2 (1 s)
func nodeClips() []anim.Clip {
	return []anim.Clip{
		animtest.RampClip("A", 2, 0, 0, 2),
		animtest.RampClip("B", 1, 0, 10, 20),
		animtest.ConstClip("C", 1, 0, 100, 0, 0),
		animtest.ConstClip("D", 1, 0, 1000, 0, 0),
		animtest.TurnClip("R", 1, 1, 0, 90),
		scaleClip("S", 1, 1, 1, 4),
		scaleClip("K", 1, 1, 2, 2),
	}
}

func x0(c *Controller) float32 { return evalPose(c)[0].Translation[0] }

func TestClipNode(t *testing.T) {
	cases := []struct {
		name  string
		node  NodeSpec
		steps []float32
		want  float32
	}{
		{"plays at rate 1", clipNodeSpec("A"), []float32{0.25, 0.25}, 0.5},
		{"rate 2", NodeSpec{Type: NodeClip, Clip: ClipNamed("A"), Rate: inPtr(Const(2))}, []float32{0.5}, 1},
		{"offset starts later", NodeSpec{Type: NodeClip, Clip: ClipNamed("A"), Offset: 0.25}, nil, 0.25},
		{"loop wraps", clipNodeSpec("A"), []float32{1, 1, 0.5}, 0.5},
		{"once holds the end", NodeSpec{Type: NodeClip, Clip: ClipNamed("A"), Loop: anim.Once}, []float32{3}, 2},
		{"ping-pong comes back", NodeSpec{Type: NodeClip, Clip: ClipNamed("A"), Loop: anim.PingPong}, []float32{2.5}, 1.5},
		{"repeat twice then holds", NodeSpec{Type: NodeClip, Clip: ClipNamed("A"), Loop: anim.Repeat, Loops: 2}, []float32{4.5}, 2},
		{"clip by index", NodeSpec{Type: NodeClip, Clip: ClipRef{Index: 1}}, []float32{0.5}, 15},
		{"rate from a parameter", NodeSpec{Type: NodeClip, Clip: ClipNamed("A"), Rate: inPtr(Bind("r"))}, []float32{0.5}, 0.25},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := build(t, treeSpec(tc.node, ParamSpec{Name: "r", Min: -1, Max: 1, Default: 0.5}), animtest.Chain(2), nodeClips())
			for _, dt := range tc.steps {
				c.Update(dt)
			}
			if got := x0(c); !animtest.ApproxEqual(got, tc.want, 1e-5) {
				t.Fatalf("x = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLerpNode(t *testing.T) {
	sk := animtest.Chain(2)
	clips := nodeClips()
	tree := NodeSpec{Type: NodeLerp, Weight: inPtr(Bind("w")), Children: []NodeSpec{clipNodeSpec("A"), clipNodeSpec("B")}}
	c := build(t, treeSpec(tree, ParamSpec{Name: "w", Max: 1}), sk, clips)
	c.SetTime(0.5) // A: 0.5, B: 15
	cases := []struct {
		name  string
		w     float32
		want  float32
		exact []anim.Transform
	}{
		{"weight 0 is the first child exactly", 0, 0.5, samplePose(sk, &clips[0], 0.5)},
		{"weight 1 is the second child exactly", 1, 15, samplePose(sk, &clips[1], 0.5)},
		// 0.5 + 0.25·(15 − 0.5)
		{"quarter", 0.25, 4.125, nil},
		{"clamped above 1", 7, 15, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := c.SetParam("w", tc.w); err != nil {
				t.Fatal(err)
			}
			got := evalPose(c)
			if tc.exact != nil && !animtest.PosesEqual(got, tc.exact) {
				t.Fatalf("got %v, want exactly %v", got, tc.exact)
			}
			if !animtest.ApproxEqual(got[0].Translation[0], tc.want, 1e-5) {
				t.Fatalf("x = %v, want %v", got[0].Translation[0], tc.want)
			}
		})
	}
	t.Run("rotation slerps", func(t *testing.T) {
		// R at 0.5 s is 45°; lerped halfway with A (no rotation): 22.5°.
		tree := NodeSpec{Type: NodeLerp, Weight: inPtr(Const(0.5)), Children: []NodeSpec{clipNodeSpec("A"), clipNodeSpec("R")}}
		c := build(t, treeSpec(tree), sk, clips)
		c.SetTime(0.5)
		if got := evalPose(c)[1].Rotation; !animtest.QuatApprox(got, animtest.RotZ(22.5), 1e-5) {
			t.Fatalf("rotation %v, want 22.5° about Z", got)
		}
	})
}

func TestBlend1DNode(t *testing.T) {
	sk := animtest.Chain(2)
	clips := nodeClips()
	tree := NodeSpec{Type: NodeBlend1D, Param: Bind("speed"), Positions: []float32{0, 1, 3},
		Children: []NodeSpec{clipNodeSpec("A"), clipNodeSpec("B"), clipNodeSpec("C")}}
	c := build(t, treeSpec(tree, ParamSpec{Name: "speed", Min: -10, Max: 10}), sk, clips)
	c.SetTime(0.5) // A 0.5, B 15, C 100
	cases := []struct {
		name    string
		p       float32
		want    float32
		exact   int // clip index the pose must equal bit for bit, or −1
		sampled [3]int
	}{
		{"at the first sample", 0, 0.5, 0, [3]int{1, 0, 0}},
		{"at a middle sample", 1, 15, 1, [3]int{0, 1, 0}},
		{"at the last sample", 3, 100, 2, [3]int{0, 0, 1}},
		{"below the axis clamps", -4, 0.5, 0, [3]int{1, 0, 0}},
		{"above the axis clamps", 9, 100, 2, [3]int{0, 0, 1}},
		// Between 0 and 1 at 0.5: (0.5 + 15)/2.
		{"first segment", 0.5, 7.75, -1, [3]int{1, 1, 0}},
		// Between 1 and 3 at 2.5: u = 0.75 → 15 + 0.75·85.
		{"second segment", 2.5, 78.75, -1, [3]int{0, 1, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := c.SetParam("speed", tc.p); err != nil {
				t.Fatal(err)
			}
			var before [3]int
			for i := range before {
				before[i] = c.players[i].samples
			}
			got := evalPose(c)
			if !animtest.ApproxEqual(got[0].Translation[0], tc.want, 1e-4) {
				t.Fatalf("x = %v, want %v", got[0].Translation[0], tc.want)
			}
			if tc.exact >= 0 && !animtest.PosesEqual(got, samplePose(sk, &clips[tc.exact], 0.5)) {
				t.Fatalf("pose is not clip %d exactly", tc.exact)
			}
			for i := range before {
				if n := c.players[i].samples - before[i]; n != tc.sampled[i] {
					t.Fatalf("clip %d sampled %d times, want %d (only weighted clips are sampled)", i, n, tc.sampled[i])
				}
			}
		})
	}
}

func TestBlend2DNode(t *testing.T) {
	sk := animtest.Chain(2)
	// Clips P0…P4 hold joint 0 at (10·x, 10·y) of their blend-space point,
	// so any barycentric or bilinear blend puts the joint at 10·param:
	// both blends reproduce linear functions exactly.
	var clips []anim.Clip
	mk := func(pts ...mgl32.Vec2) []NodeSpec {
		clips = clips[:0]
		var ch []NodeSpec
		for i, p := range pts {
			name := "P" + string(rune('0'+i))
			clips = append(clips, animtest.ConstClip(name, 1, 0, 10*p[0], 10*p[1], 0))
			ch = append(ch, clipNodeSpec(name))
		}
		return ch
	}
	params := []ParamSpec{{Name: "x", Min: -5, Max: 5}, {Name: "y", Min: -5, Max: 5}}
	cases := []struct {
		name   string
		pts    []mgl32.Vec2
		mode   Blend2DMode
		p      mgl32.Vec2
		want   mgl32.Vec2
		sample int // the point's clip that must come out exactly, or −1
	}{
		{"rectangle bilinear inside", []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, Blend2DBilinear, mgl32.Vec2{0.25, 0.5}, mgl32.Vec2{2.5, 5}, -1},
		{"rectangle at a corner", []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, Blend2DAuto, mgl32.Vec2{1, 0}, mgl32.Vec2{10, 0}, 1},
		{"rectangle clamps outside", []mgl32.Vec2{{0, 0}, {2, 0}, {0, 1}, {2, 1}}, Blend2DAuto, mgl32.Vec2{3, 0.5}, mgl32.Vec2{20, 5}, -1},
		// Triangle (0,0) (2,0) (0,2) at (0.5, 0.5): weights ½, ¼, ¼.
		{"triangle barycentric", []mgl32.Vec2{{0, 0}, {2, 0}, {0, 2}}, Blend2DAuto, mgl32.Vec2{0.5, 0.5}, mgl32.Vec2{5, 5}, -1},
		{"triangle at a vertex", []mgl32.Vec2{{0, 0}, {2, 0}, {0, 2}}, Blend2DAuto, mgl32.Vec2{0, 2}, mgl32.Vec2{0, 20}, 2},
		// Outside beyond the hypotenuse: (3,3) projects onto (1,1).
		{"triangle outside projects", []mgl32.Vec2{{0, 0}, {2, 0}, {0, 2}}, Blend2DAuto, mgl32.Vec2{3, 3}, mgl32.Vec2{10, 10}, -1},
		{"delaunay inside", []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0.4, 0.6}}, Blend2DAuto, mgl32.Vec2{0.7, 0.2}, mgl32.Vec2{7, 2}, -1},
		{"delaunay at an inner sample", []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0.4, 0.6}}, Blend2DAuto, mgl32.Vec2{0.4, 0.6}, mgl32.Vec2{4, 6}, 4},
		{"square triangulated", []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, Blend2DTriangulate, mgl32.Vec2{0.3, 0.6}, mgl32.Vec2{3, 6}, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tree := NodeSpec{Type: NodeBlend2D, Params: [2]Input{Bind("x"), Bind("y")}, Points: tc.pts, Mode: tc.mode, Children: mk(tc.pts...)}
			c := build(t, treeSpec(tree, params...), sk, clips)
			_ = c.SetParam("x", tc.p[0])
			_ = c.SetParam("y", tc.p[1])
			got := evalPose(c)
			if g := got[0].Translation; !animtest.ApproxEqual(g[0], tc.want[0], 1e-4) || !animtest.ApproxEqual(g[1], tc.want[1], 1e-4) {
				t.Fatalf("joint at %v, want %v", g, tc.want)
			}
			if tc.sample >= 0 && !animtest.PosesEqual(got, samplePose(sk, &clips[tc.sample], 0)) {
				t.Fatalf("pose is not sample %d exactly", tc.sample)
			}
		})
	}
}

func TestAverageNode(t *testing.T) {
	sk := animtest.Chain(2)
	clips := nodeClips()
	cases := []struct {
		name    string
		weights []Input
		want    float32
	}{
		// (0 + 10 + 2·100)/4 at t = 0.
		{"normalized", []Input{Const(1), Const(1), Const(2)}, 52.5},
		{"scaled weights same result", []Input{Const(2), Const(2), Const(4)}, 52.5},
		{"one weight is that child", []Input{Const(0), Const(3), Const(0)}, 10},
		{"parameter weight", []Input{Bind("w"), Const(1), Const(0)}, 5},
		{"all zero is the rest pose", []Input{Const(0), Const(0), Const(0)}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tree := NodeSpec{Type: NodeAverage, Weights: tc.weights, Children: []NodeSpec{clipNodeSpec("A"), clipNodeSpec("B"), clipNodeSpec("C")}}
			c := build(t, treeSpec(tree, ParamSpec{Name: "w", Max: 5, Default: 1}), sk, clips)
			if got := x0(c); !animtest.ApproxEqual(got, tc.want, 1e-4) {
				t.Fatalf("x = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCrossFadeNode(t *testing.T) {
	sk := animtest.Chain(2)
	clips := nodeClips()
	cases := []struct {
		name   string
		ease   Ease
		frozen bool
		steps  []float32 // updates after the selector goes to 1
		want   float32
	}{
		// After 0.1 s of a 0.4 s linear fade: u = ¼. A ran to 0.1, B to
		// 11: 0.75·0.1 + 0.25·11.
		{"smooth, both clocks run", Ease{}, false, []float32{0.1}, 2.825},
		// Frozen: A holds at 0: 0.25·11.
		{"frozen holds the clip faded out of", Ease{}, true, []float32{0.1}, 2.75},
		// S-curve at ¼ is 0.1: 0.9·0.1 + 0.1·11.
		{"eased weight", EaseS, false, []float32{0.1}, 1.19},
		{"fade complete is the second child", Ease{}, false, []float32{0.3, 0.3}, 16},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tree := NodeSpec{Type: NodeCrossFade, Param: Bind("sel"), Duration: 0.4, Ease: tc.ease, Frozen: tc.frozen,
				Children: []NodeSpec{clipNodeSpec("A"), clipNodeSpec("B")}}
			c := build(t, treeSpec(tree, ParamSpec{Name: "sel", Max: 1}), sk, clips)
			if !animtest.PosesEqual(evalPose(c), samplePose(sk, &clips[0], 0)) {
				t.Fatal("selector 0 must give the first child exactly")
			}
			_ = c.SetParam("sel", 1)
			for _, dt := range tc.steps {
				c.Update(dt)
			}
			if got := x0(c); !animtest.ApproxEqual(got, tc.want, 1e-4) {
				t.Fatalf("x = %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("reverses midway without a jump", func(t *testing.T) {
		tree := NodeSpec{Type: NodeCrossFade, Param: Bind("sel"), Duration: 0.4, Children: []NodeSpec{clipNodeSpec("C"), clipNodeSpec("D")}}
		c := build(t, treeSpec(tree, ParamSpec{Name: "sel", Max: 1}), sk, clips)
		_ = c.SetParam("sel", 1)
		c.Update(0.3) // u = ¾: 0.25·100 + 0.75·1000 = 775
		_ = c.SetParam("sel", 0)
		c.Update(0.1) // back to u = ½: 550
		if got := x0(c); !animtest.ApproxEqual(got, 550, 1e-3) {
			t.Fatalf("x = %v, want 550", got)
		}
	})
}

func TestAdditiveNode(t *testing.T) {
	sk := animtest.Chain(2)
	clips := nodeClips()
	t.Run("half of R onto C", func(t *testing.T) {
		// R's first frame is 0°, at 0.5 s it is 45°: half the difference is
		// 22.5° on top of C, whose joint 1 is unrotated.
		tree := NodeSpec{Type: NodeAdditive, Base: ptr(clipNodeSpec("C")), Source: ptr(clipNodeSpec("R")), Weight: inPtr(Const(0.5))}
		c := build(t, treeSpec(tree), sk, clips)
		c.SetTime(0.5)
		got := evalPose(c)
		if !animtest.QuatApprox(got[1].Rotation, animtest.RotZ(22.5), 1e-5) || !animtest.ApproxEqual(got[0].Translation[0], 100, 1e-5) {
			t.Fatalf("got %v, want C with joint 1 at 22.5° about Z", got)
		}
	})
	t.Run("scale is raised to the weight", func(t *testing.T) {
		// S at 0.5 s scales 2.5 against 1 at its start; weight ½ →
		// √2.5 on top of K's scale 2: 2·√2.5.
		tree := NodeSpec{Type: NodeAdditive, Base: ptr(clipNodeSpec("K")), Source: ptr(clipNodeSpec("S")), Weight: inPtr(Const(0.5))}
		c := build(t, treeSpec(tree), sk, clips)
		c.SetTime(0.5)
		if got, want := evalPose(c)[1].Scale[0], float32(2*math.Sqrt(2.5)); !animtest.ApproxEqual(got, want, 1e-5) {
			t.Fatalf("scale %v, want %v", got, want)
		}
	})
	t.Run("onto its own reference gives the source", func(t *testing.T) {
		// Base: R held on its first frame (rate 0). Source: R playing.
		hold := NodeSpec{Type: NodeClip, Clip: ClipNamed("R"), Rate: inPtr(Const(0))}
		tree := NodeSpec{Type: NodeAdditive, Base: &hold, Source: ptr(clipNodeSpec("R"))}
		c := build(t, treeSpec(tree), sk, clips)
		c.Update(0.7)
		want := samplePose(sk, &clips[4], 0.7)
		got := evalPose(c)
		for j := range got {
			if !animtest.QuatApprox(got[j].Rotation, want[j].Rotation, 1e-6) || !animtest.VecApprox(got[j].Translation, want[j].Translation, 1e-6) {
				t.Fatalf("joint %d: %v, want the source %v", j, got[j], want[j])
			}
		}
	})
	t.Run("explicit reference from another clip", func(t *testing.T) {
		// Difference of B at 0.5 s (x 15) against A at 2 s (x 2) is 13,
		// added to C: 113.
		tree := NodeSpec{Type: NodeAdditive, Base: ptr(clipNodeSpec("C")), Source: ptr(clipNodeSpec("B")),
			Reference: &PoseRef{Clip: ClipNamed("A"), Time: 2}}
		c := build(t, treeSpec(tree), sk, clips)
		c.SetTime(0.5)
		if got := x0(c); !animtest.ApproxEqual(got, 113, 1e-4) {
			t.Fatalf("x = %v, want 113", got)
		}
	})
	t.Run("weight 0 is the base exactly and skips the source", func(t *testing.T) {
		tree := NodeSpec{Type: NodeAdditive, Base: ptr(clipNodeSpec("C")), Source: ptr(clipNodeSpec("R")), Weight: inPtr(Const(0))}
		c := build(t, treeSpec(tree), sk, clips)
		if !animtest.PosesEqual(evalPose(c), samplePose(sk, &clips[2], 0)) {
			t.Fatal("not the base")
		}
		if n := c.players[1].samples; n != 0 {
			t.Fatalf("source sampled %d times at weight 0", n)
		}
	})
}

func ptr(n NodeSpec) *NodeSpec { return &n }

func TestMaskNode(t *testing.T) {
	sk := animtest.Chain(3)
	clips := []anim.Clip{
		animtest.Merge("zero", animtest.ConstClip("", 1, 0, 0, 0, 0), animtest.ConstClip("", 1, 1, 0, 0, 0), animtest.ConstClip("", 1, 2, 0, 0, 0)),
		animtest.Merge("ten", animtest.ConstClip("", 1, 0, 10, 0, 0), animtest.ConstClip("", 1, 1, 10, 0, 0), animtest.ConstClip("", 1, 2, 10, 0, 0)),
	}
	// Mask on j1 with falloff 1: j0 0, j1 ½, j2 1.
	cases := []struct {
		name string
		w    float32
		want [3]float32
	}{
		{"full weight follows the mask", 1, [3]float32{0, 5, 10}},
		{"half weight", 0.5, [3]float32{0, 2.5, 5}},
		{"weight 0 is the base", 0, [3]float32{0, 0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tree := NodeSpec{Type: NodeMask, Base: ptr(clipNodeSpec("zero")), Overlay: ptr(clipNodeSpec("ten")),
				Mask: &MaskSpec{Joints: []string{"j1"}, Falloff: 1}, Weight: inPtr(Const(tc.w))}
			c := build(t, treeSpec(tree), sk, clips)
			got := evalPose(c)
			for j := range got {
				if !animtest.ApproxEqual(got[j].Translation[0], tc.want[j], 1e-5) {
					t.Fatalf("joint %d x = %v, want %v", j, got[j].Translation[0], tc.want[j])
				}
			}
			if tc.w == 0 && got[1] != samplePose(sk, &clips[0], 0)[1] {
				t.Fatal("weight 0 must give the base exactly")
			}
		})
	}
}

func TestLayerNode(t *testing.T) {
	sk := animtest.Chain(2)
	clips := nodeClips()
	// Base C (x 100). Override layer D (x 1000) at ½: 550. Then additive B
	// against its first frame (x 10) at 0.5 s (x 15): +5 → 555.
	tree := NodeSpec{Type: NodeLayer, Base: ptr(clipNodeSpec("C")), Layers: []NodeLayerSpec{
		{Node: clipNodeSpec("D"), Weight: inPtr(Bind("over"))},
		{Node: clipNodeSpec("B"), Mode: LayerAdditive},
	}}
	c := build(t, treeSpec(tree, ParamSpec{Name: "over", Max: 1, Default: 0.5}), sk, clips)
	c.SetTime(0.5)
	if got := x0(c); !animtest.ApproxEqual(got, 555, 1e-3) {
		t.Fatalf("x = %v, want 555", got)
	}
	_ = c.SetParam("over", 0)
	if got := x0(c); !animtest.ApproxEqual(got, 105, 1e-4) {
		t.Fatalf("override off: x = %v, want 105", got)
	}
}

func TestPhaseSync(t *testing.T) {
	sk := animtest.Chain(2)
	// Walk (1 s) x = 10t; Run (2 s) x = 100 + 20t.
	clips := []anim.Clip{animtest.RampClip("Walk", 1, 0, 0, 10), animtest.RampClip("Run", 2, 0, 100, 140)}
	mk := func(sync bool) *Controller {
		tree := NodeSpec{Type: NodeBlend1D, Param: Const(0.5), Sync: sync, Children: []NodeSpec{clipNodeSpec("Walk"), clipNodeSpec("Run")}}
		return build(t, treeSpec(tree), sk, clips)
	}
	t.Run("synced: normalized times advance together", func(t *testing.T) {
		c := mk(true)
		// Weighted duration ½·1 + ½·2 = 1.5 s; 0.75 s is phase ½: Walk at
		// 0.5 s (x 5), Run at 1 s (x 120); blended (5 + 120)/2.
		c.Update(0.75)
		if got := x0(c); !animtest.ApproxEqual(got, 62.5, 1e-4) {
			t.Fatalf("x = %v, want 62.5", got)
		}
		if tm := c.Status().Layers[0].Time; !animtest.ApproxEqual(tm, 0.5, 1e-6) {
			t.Fatalf("normalized time %v, want 0.5", tm)
		}
		// Another 1.5 s is one full cycle: back to phase ½.
		c.Update(1.5)
		if got := x0(c); !animtest.ApproxEqual(got, 62.5, 1e-3) {
			t.Fatalf("after a cycle x = %v, want 62.5", got)
		}
	})
	t.Run("unsynced: each clip keeps its own clock", func(t *testing.T) {
		c := mk(false)
		// Walk at 0.75 s (x 7.5), Run at 0.75 s (x 115).
		c.Update(0.75)
		if got := x0(c); !animtest.ApproxEqual(got, 61.25, 1e-4) {
			t.Fatalf("x = %v, want 61.25", got)
		}
		c.Update(0.5) // Walk wraps to 0.25 (2.5), Run at 1.25 (125)
		if got := x0(c); !animtest.ApproxEqual(got, 63.75, 1e-3) {
			t.Fatalf("x = %v, want 63.75", got)
		}
	})
}

// TestClipNodeClock: a clip node's normalized time, its change per update
// (unwrapped for looping clocks) and its sync cycle, worked out by hand.
func TestClipNodeClock(t *testing.T) {
	x := &evalContext{dir: 1}
	node := func(d, rate float32, mode anim.LoopMode, loops int) *clipNode {
		n := &clipNode{clock: anim.ClipClock{Duration: d, Rate: 1, Mode: mode, Loops: loops}, rate: input{param: -1, value: rate}}
		n.reset(x)
		return n
	}
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-6 }

	n := node(2, 1, anim.Loop, 1)
	n.update(x, 0.5)
	if !near(n.nt, 0.25) || !near(n.nd, 0.25) {
		t.Fatalf("loop 2 s after 0.5 s: nt %v nd %v, want 0.25 0.25", n.nt, n.nd)
	}
	n.update(x, 1.75) // to 2.25 s: wraps to 0.25 s
	if !near(n.nt, 0.125) || !near(n.nd, 0.875) {
		t.Fatalf("loop 2 s after 2.25 s: nt %v nd %v, want 0.125 and the unwrapped 0.875", n.nt, n.nd)
	}

	n = node(2, 1, anim.Once, 1)
	n.update(x, 0.5)
	n.update(x, 5) // clamps at the end
	if !near(n.nt, 1) || !near(n.nd, 0.75) {
		t.Fatalf("once 2 s after 5.5 s: nt %v nd %v, want 1 and 0.75", n.nt, n.nd)
	}

	n = node(1, 1, anim.Repeat, 2)
	n.update(x, 0.5)
	n.update(x, 1) // 1.5 s: second loop, still wrapping
	if !near(n.nt, 0.5) || !near(n.nd, 1) {
		t.Fatalf("repeat ×2 after 1.5 s: nt %v nd %v, want 0.5 and 1", n.nt, n.nd)
	}
	n.update(x, 1) // 2.5 s: finished, held at the end
	if !near(n.nt, 1) || !near(n.nd, 0.5) {
		t.Fatalf("repeat ×2 after 2.5 s: nt %v nd %v, want 1 and 0.5", n.nt, n.nd)
	}

	// Paused on the end of a loop (a seek there): it keeps showing the end.
	n = node(2, 1, anim.Loop, 1)
	n.clock.Elapsed = 2
	n.update(&evalContext{dir: 0}, 0.1)
	if !near(n.nt, 1) {
		t.Fatalf("paused on the end: nt %v, want 1", n.nt)
	}

	n = node(0, 1, anim.Loop, 1)
	n.update(x, 0.5)
	if n.nt != 0 || n.nd != 0 || n.cycle() != 0 {
		t.Fatalf("zero-length clip: nt %v nd %v cycle %v, want 0 0 0", n.nt, n.nd, n.cycle())
	}

	for _, c := range []struct {
		d, rate float32
		mode    anim.LoopMode
		want    float32
	}{
		{2, 2, anim.Loop, 1},         // 2 s at double speed
		{3, -0.5, anim.PingPong, 12}, // there and back, 6 s, at half speed backwards
		{2, 1, anim.Once, 0},         // not on the sync clock
		{2, 0, anim.Loop, 0},         // stopped
	} {
		if got := node(c.d, c.rate, c.mode, 1).cycle(); !near(got, c.want) {
			t.Errorf("cycle of %v s at rate %v, %v: %v, want %v", c.d, c.rate, c.mode, got, c.want)
		}
	}

	// Backwards, phase p runs from the end: 0.25 of a 2 s loop is 1.5 s.
	n = node(2, -1, anim.Loop, 1)
	n.setPhase(0.25)
	if !near(n.clock.Local(), 1.5) || !near(n.nt, 0.75) {
		t.Fatalf("backwards phase 0.25: local %v nt %v, want 1.5 and 0.75", n.clock.Local(), n.nt)
	}
}

// twoClips is a blend node over two looping clips that hold joint 1 at
// x = 0 and x = 4, of durations d0 and d1, with the context to run it.
func twoClips(t *testing.T, kind NodeType, d0, d1 float32) (*blendNode, [2]*clipNode, *evalContext) {
	t.Helper()
	sk := animtest.Chain(2)
	var cs [2]*clipNode
	for i, c := range []anim.Clip{animtest.ConstClip("A", d0, 1, 0, 0, 0), animtest.ConstClip("B", d1, 1, 4, 0, 0)} {
		rc, err := anim.NewRuntimeClip(&c, sk)
		if err != nil {
			t.Fatal(err)
		}
		cs[i] = &clipNode{job: anim.SampleSoAJob{Clip: rc, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen())},
			clock: anim.ClipClock{Duration: c.Duration, Rate: 1, Mode: anim.Loop, Loops: 1}, rate: input{param: -1, value: 1}}
	}
	x := &evalContext{dir: 1, rest: anim.NewSoAPose(2), stack: []*anim.SoAPose{anim.NewSoAPose(2), anim.NewSoAPose(2)}}
	n := &blendNode{kind: kind, children: []node{cs[0], cs[1]}, w: make([]float32, 2), param: input{param: -1}, weight: input{param: -1}}
	return n, cs, x
}

// TestBlendNodeByHand: a lerp's pose, a synchronized blend's cycle and
// phase, a cross-fade's selector at exactly one half.
func TestBlendNodeByHand(t *testing.T) {
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

	n, _, x := twoClips(t, NodeLerp, 1, 1)
	n.weight.value = 0.25
	n.reset(x)
	out := anim.NewSoAPose(2)
	n.eval(x, out)
	if !near(out.At(1).Translation[0], 1) { // 0.75·0 + 0.25·4
		t.Fatalf("lerp at 0.25: x = %v, want 1", out.At(1).Translation[0])
	}

	// Synchronized, durations 1 and 2, weights 0.75 and 0.25: the cycle is
	// 0.75·1 + 0.25·2 = 1.25 s, so 0.625 s is half of it, and both clips
	// are half way: 0.5 s and 1 s.
	n, cs, x := twoClips(t, NodeLerp, 1, 2)
	n.weight.value, n.sync = 0.25, true
	n.reset(x)
	if c := n.cycle(); !near(c, 1.25) {
		t.Fatalf("cycle %v, want 1.25", c)
	}
	n.update(x, 0.625)
	if !near(n.phase, 0.5) || !near(cs[0].clock.Local(), 0.5) || !near(cs[1].clock.Local(), 1) {
		t.Fatalf("after 0.625 s: phase %v, clips at %v and %v; want 0.5, 0.5, 1", n.phase, cs[0].clock.Local(), cs[1].clock.Local())
	}
	n.update(x, 0.625) // exactly one cycle: back to the start, not the end
	if n.phase != 0 || cs[0].clock.Local() != 0 || cs[1].clock.Local() != 0 {
		t.Fatalf("after one cycle: phase %v, clips at %v and %v; want 0", n.phase, cs[0].clock.Local(), cs[1].clock.Local())
	}
	for _, c := range cs {
		c.clock.Mode = anim.Once // off the sync clock: no cycle, no phase
	}
	n.update(x, 0.5)
	if n.nd != 0 || n.phase != 0 {
		t.Fatalf("no cycle: nd %v phase %v, want 0 0", n.nd, n.phase)
	}

	// A cross-fade selects its second child from 0.5 on.
	n, _, x = twoClips(t, NodeCrossFade, 1, 1)
	n.duration, n.param.value = 1, 0.5
	n.reset(x)
	if n.w[1] != 1 {
		t.Fatalf("cross-fade reset at 0.5: weights %v, want settled on the second", n.w)
	}
	n.param.value = 0
	n.reset(x)
	n.param.value = 0.5
	n.update(x, 0.25)
	if !near(n.u, 0.25) {
		t.Fatalf("cross-fade towards 0.5: progress %v after 0.25 s of 1 s, want 0.25", n.u)
	}
}
