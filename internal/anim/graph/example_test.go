package graph_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
)

// oneJoint is a skeleton with a single root joint.
func oneJoint() *anim.Skeleton {
	return &anim.Skeleton{Names: []string{"root"}, Parents: []int{-1}, Rest: []anim.Transform{anim.IdentityTransform}}
}

// slide is a one-second clip moving the root along X from x0 to x1.
func slide(name string, x0, x1 float32) anim.Clip {
	return anim.Clip{Name: name, Duration: 1, Tracks: []anim.Track{{
		Joint: 0, Path: anim.Translation, Interp: anim.Linear,
		Times: []float32{0, 1}, Values: []float32{x0, 0, 0, x1, 0, 0},
	}}}
}

func ExampleNewController() {
	spec, err := graph.ParseSpec([]byte(`{
	  "params": [{"name": "speed", "min": 0, "max": 1}],
	  "tree": {"type": "blend1d", "param": "speed", "children": ["Idle", "Walk"]}
	}`))
	if err != nil {
		panic(err)
	}
	clips := []anim.Clip{slide("Idle", 0, 0), slide("Walk", 0, 4)}
	c, err := graph.NewController(spec, oneJoint(), clips)
	if err != nil {
		panic(err)
	}
	pose := anim.NewSoAPose(c.NumJoints())
	_ = c.SetParam("speed", 0.25) // a quarter of the way from Idle to Walk
	c.Update(0.5)                 // both clips at 0.5 s: Idle x 0, Walk x 2
	c.Evaluate(pose)
	fmt.Printf("x = %.2f\n", pose.At(0).Translation[0])
	// Output: x = 0.50
}

func ExampleParseSpec_errorPath() {
	_, err := graph.ParseSpec([]byte(`{"states": [{"name": "idle", "tree": {"type": "blend1d", "param": 0, "chidren": []}}]}`))
	fmt.Println(err)
	// Output: anim: spec states[0].tree: unknown field "chidren" in blend1d node (fields: type, children, positions, param, sync, syncMarker, nlerp)
}

func ExampleController_Request() {
	spec, err := graph.ParseSpec([]byte(`{
	  "states": [{"name": "idle", "tree": "Idle"}, {"name": "walk", "tree": "Walk"}],
	  "transitions": [{"from": "*", "to": "walk", "duration": 0.5, "ease": "linear"}]
	}`))
	if err != nil {
		panic(err)
	}
	c, err := graph.NewController(spec, oneJoint(), []anim.Clip{slide("Idle", 0, 0), slide("Walk", 10, 10)})
	if err != nil {
		panic(err)
	}
	if err := c.Request("walk"); err != nil {
		panic(err)
	}
	pose := anim.NewSoAPose(1)
	for i := 0; i < 4; i++ {
		c.Update(0.25)
		c.Evaluate(pose)
		s := c.Status()
		fmt.Printf("%s→%s weight %.2f x %.1f\n", s.From, s.State, s.Weight, pose.At(0).Translation[0])
	}
	// Output:
	// idle→walk weight 0.00 x 0.0
	// idle→walk weight 0.50 x 5.0
	// →walk weight 1.00 x 10.0
	// →walk weight 1.00 x 10.0
}

func ExampleDefaultSpec() {
	clips := []anim.Clip{slide("Idle", 0, 0), slide("Walk", 0, 4), slide("Run", 0, 8)}
	c, err := graph.NewController(graph.DefaultSpec(clips), oneJoint(), clips)
	if err != nil {
		panic(err)
	}
	for _, p := range c.Params() {
		fmt.Printf("%s in [%g, %g]\n", p.Name, p.Min, p.Max)
	}
	// Output: blend in [0, 2]
}

func ExampleEase_At() {
	for _, e := range []graph.Ease{{}, graph.EaseIn, graph.EaseInOut, graph.EaseS} {
		fmt.Printf("%-11s %.3f %.3f %.3f\n", e, e.At(0.25), e.At(0.5), e.At(0.75))
	}
	// Output:
	// linear      0.250 0.500 0.750
	// ease-in     0.109 0.375 0.703
	// ease-in-out 0.156 0.500 0.844
	// s-curve     0.100 0.500 0.900
}

// A crowd of characters sliding the root along X, each under its own
// controller blending two clips by its own parameter, on two worker
// goroutines. The palette entry's translation column (floats 3, 7, 11) is
// where the root stands.
func ExampleNewCrowd() {
	sk := oneJoint()
	skin := anim.Skin{Joints: []int{0}, InverseBind: []mgl32.Mat4{mgl32.Ident4()}}
	var clips []*anim.RuntimeClip
	for _, c := range []anim.Clip{slide("left", 0, -4), slide("right", 0, 4)} {
		rc, err := anim.NewRuntimeClip(&c, sk)
		if err != nil {
			panic(err)
		}
		clips = append(clips, rc)
	}
	spec, err := graph.ParseSpec([]byte(`{"params": [{"name": "right", "min": 0, "max": 1}],
	  "tree": {"type": "lerp", "weight": "right", "children": ["left", "right"]}}`))
	if err != nil {
		panic(err)
	}
	var ctls []*graph.Controller
	for i := range 3 {
		c, err := graph.NewControllerRuntime(spec, sk, clips)
		if err != nil {
			panic(err)
		}
		_ = c.SetParam("right", float32(i)/2) // 0, ½ and 1 "right"
		ctls = append(ctls, c)
	}
	crowd, err := graph.NewCrowd(sk, []anim.Skin{skin}, ctls)
	if err != nil {
		panic(err)
	}
	defer crowd.Close()
	crowd.Evaluate(0.5, 2) // every clip at 0.5 s
	for i := range crowd.Len() {
		fmt.Printf("character %d at x %.2f\n", i, crowd.Palette(i, 0)[3])
	}
	// Output:
	// character 0 at x -2.00
	// character 1 at x 0.00
	// character 2 at x 2.00
}
