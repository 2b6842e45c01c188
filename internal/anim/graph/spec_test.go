package graph

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

func TestParseSpecErrors(t *testing.T) {
	cases := []struct {
		name, json, want string
	}{
		{"syntax error has a line and column", "{\n  \"tree\": ,\n}", "anim: spec: line 2, column 11"},
		{"unknown field names the node", `{"tree": {"type": "blend1d", "param": 0, "chidren": []}}`, `anim: spec tree: unknown field "chidren" in blend1d node`},
		{"unknown node type", `{"tree": {"type": "blend3d"}}`, `anim: spec tree.type: unknown node type "blend3d"`},
		{"node without a type", `{"tree": {"clip": "A"}}`, `anim: spec tree: node without a "type"`},
		{"two forms", `{"tree": "A", "states": [{"name": "a"}]}`, `want exactly one of "tree", "states" or "layers"`},
		{"no form", `{"params": []}`, `want exactly one of`},
		{"unknown state in a transition", `{"states": [{"name": "a"}], "transitions": [{"from": "a", "to": "zz"}]}`, `anim: spec transitions[0].to: unknown state "zz"`},
		{"wildcard matching nothing", `{"states": [{"name": "a"}], "transitions": [{"from": "w*", "to": "a"}]}`, `transitions[0].from: "w*" matches no state`},
		{"bad pattern", `{"states": [{"name": "a"}], "transitions": [{"from": "[", "to": "a"}]}`, `transitions[0].from: bad pattern`},
		{"unknown parameter", `{"tree": {"type": "lerp", "weight": "mix", "children": ["A", "B"]}}`, `anim: spec tree.weight: unknown parameter "mix"`},
		{"window out of order", `{"states": [{"name": "a"}], "transitions": [{"from": "a", "to": "a", "window": [0.7, 0.2]}]}`, `transitions[0].window: window [0.7, 0.2]`},
		{"lerp child count", `{"tree": {"type": "lerp", "weight": 0, "children": ["A", "B", "C"]}}`, `tree.children: lerp has 3 children; want 2`},
		{"lerp without weight", `{"tree": {"type": "lerp", "children": ["A", "B"]}}`, `tree.weight: lerp needs a weight`},
		{"positions not increasing", `{"tree": {"type": "blend1d", "param": 0, "positions": [0, 0], "children": ["A", "B"]}}`, `tree.positions[1]: position 0`},
		{"mask node without mask", `{"layers": [{"states": [{"name": "s", "tree": {"type": "mask", "base": "A", "overlay": "B"}}]}]}`, `anim: spec layers[0].states[0].tree.mask: mask node needs a mask`},
		{"nested path", `{"tree": {"type": "additive", "base": "A", "source": {"type": "lerp", "weight": 0, "children": ["A", {"type": "clip"}]}}}`, `tree.source.children[1].clip: clip node needs a clip`},
		{"unknown ease", `{"states": [{"name": "a"}], "transitions": [{"from": "a", "to": "a", "ease": "bouncy"}]}`, `transitions[0].ease: unknown ease "bouncy"`},
		{"wrong input type", `{"tree": {"type": "clip", "clip": "A", "rate": true}}`, `tree.rate: want a parameter name or a number`},
		{"unknown loop mode", `{"tree": {"type": "clip", "clip": "A", "loop": "forever"}}`, `tree.loop: unknown loop mode "forever"`},
		{"duplicate state", `{"states": [{"name": "a"}, {"name": "a"}]}`, `states[1].name: state "a" declared twice`},
		{"state name with a slash", `{"states": [{"name": "a/b"}]}`, `states[0].name: state name "a/b"`},
		{"duplicate parameter", `{"params": [{"name": "p"}, {"name": "p"}], "tree": "A"}`, `params[1].name: parameter "p" declared twice`},
		{"parameter range", `{"params": [{"name": "p", "min": 2, "max": 1}], "tree": "A"}`, `params[0]: parameter "p" has min 2 above max 1`},
		{"unknown post type", `{"tree": "A", "post": [{"type": "fabrik", "joints": [], "target": [0, 0, 0]}]}`, `post[0].type: unknown post-processing type "fabrik"`},
		{"ik joint count", `{"tree": "A", "post": [{"type": "two_bone_ik", "joints": ["a"], "target": [0, 0, 0]}]}`, `post[0].joints: two-bone IK needs 3 joints`},
		{"look-at limit over 180°", `{"tree": "A", "post": [{"type": "look_at", "joints": ["a"], "target": [0, 0, 1], "limit": 200}]}`, `post[0].limit: limit 200°; want 0 (none) to 180`},
		{"limit on IK", `{"tree": "A", "post": [{"type": "two_bone_ik", "joints": ["a", "b", "c"], "target": [0, 0, 1], "limit": 90}]}`, `post[0].limit: limit does not apply to two_bone_ik`},
		{"target is three values", `{"tree": "A", "post": [{"type": "look_at", "joints": ["a"], "target": [0, 0]}]}`, `post[0].target: want 3 values, got 2`},
		{"transitions with a single tree", `{"tree": "A", "transitions": []}`, `"transitions" and "initial" need "states"`},
		{"layer mode", `{"layers": [{"mode": "multiply", "states": [{"name": "a"}]}]}`, `layers[0].mode: unknown layer mode "multiply"`},
		{"empty states", `{"states": []}`, `states: want at least one state`},
		{"not an object", `[1, 2]`, `anim: spec: want a JSON object (spec)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSpec([]byte(tc.json))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v; want it to contain %s", err, tc.want)
			}
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *SpecError", err)
			}
		})
	}
}

func TestNewControllerErrors(t *testing.T) {
	clips := append(nodeClips(), anim.Clip{Name: "Bad", Duration: 1, Tracks: []anim.Track{{Joint: 7, Path: anim.Translation, Times: []float32{0}, Values: []float32{0, 0, 0}}}})
	cases := []struct {
		name, json, want string
	}{
		{"unknown clip names the path", `{"params": [{"name": "speed"}], "states": [{"name": "a", "tree": "A"}, {"name": "b", "tree": {"type": "blend1d", "param": "speed", "children": ["Jog", "B"]}}]}`,
			`anim: spec states[1].tree.children[0]: unknown clip "Jog" (clips: "A", "B", "C", "D", "R", "S", "K", "Bad")`},
		{"clip index out of range", `{"tree": {"type": "clip", "clip": 9}}`, `anim: spec tree: clip index 9 out of range; the model has 8 clips`},
		{"clip index one past the last", `{"tree": {"type": "clip", "clip": 8}}`, `anim: spec tree: clip index 8 out of range; the model has 8 clips`},
		{"invalid clip", `{"tree": "Bad"}`, `anim: spec tree: clip "Bad" track 0 targets joint 7 of 2`},
		{"unknown mask joint", `{"tree": {"type": "mask", "base": "A", "overlay": "B", "mask": {"joints": ["torso"]}}}`, `tree.mask.joints[0]: unknown joint "torso" (joints: "j0", "j1")`},
		{"unknown post joint", `{"tree": "A", "post": [{"type": "look_at", "joints": ["j0", "eye"], "target": [0, 0, 1]}]}`, `post[0].joints[1]: unknown joint "eye"`},
		{"ik joints not a chain", `{"tree": "A", "post": [{"type": "two_bone_ik", "joints": ["j1", "j0", "j1"], "target": [0, 0, 1]}]}`, `post[0].joints: two-bone IK middle joint "j0" does not descend from start joint "j1"`},
		{"collinear blend2d", `{"tree": {"type": "blend2d", "params": [0, 0], "points": [[0, 0], [1, 1], [2, 2]], "children": ["A", "B", "C"]}}`, `tree.points: all points lie on one line`},
		{"bilinear needs a rectangle", `{"tree": {"type": "blend2d", "mode": "bilinear", "params": [0, 0], "points": [[0, 0], [1, 0], [0, 1], [2, 2]], "children": ["A", "B", "C", "D"]}}`, `tree.points: bilinear mode needs 4 points`},
		{"additive of a blend needs a reference", `{"tree": {"type": "additive", "base": "A", "source": {"type": "lerp", "weight": 0.5, "children": ["B", "C"]}}}`,
			`tree.reference: missing: tree.source is a lerp node, not a clip`},
		{"additive layer state needs a reference", `{"layers": [{"states": [{"name": "a", "tree": "A"}]}, {"mode": "additive", "states": [{"name": "s", "tree": {"type": "lerp", "weight": 0, "children": ["B", "C"]}}]}]}`,
			`layers[1].states[0].reference: missing`},
		{"unknown reference clip", `{"tree": {"type": "additive", "base": "A", "source": "B", "reference": {"clip": "Zed"}}}`, `anim: spec tree.reference: unknown clip "Zed"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := ParseSpec([]byte(tc.json))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("NewController panicked: %v; want an error containing %s", r, tc.want)
				}
			}()
			_, err = NewController(spec, animtest.Chain(2), clips)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v; want it to contain %s", err, tc.want)
			}
		})
	}
	if _, err := NewController(nil, animtest.Chain(2), clips); err == nil {
		t.Error("nil spec accepted")
	}
	bad := animtest.Chain(2)
	bad.Parents[1] = 1
	if _, err := NewController(DefaultSpec(clips), bad, clips); err == nil {
		t.Error("invalid skeleton accepted")
	}
}

func TestCharacterSpec(t *testing.T) {
	c, sk := characterController(t)
	wantStates := "locomotion,wave_full,still,sway/on,sway/off,gesture/none,gesture/wave"
	if got := strings.Join(c.States(), ","); got != wantStates {
		t.Fatalf("States() = %s, want %s", got, wantStates)
	}
	var names []string
	for _, p := range c.Params() {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ","); got != "speed,sway,gesture,look_x,look_y,look_z,look_weight,ik_x,ik_y,ik_z,ik_weight" {
		t.Fatalf("Params() = %s", got)
	}

	soa := anim.NewSoAPose(sk.NumJoints())
	pose := make([]anim.Transform, sk.NumJoints())
	step := func(frames int) {
		for i := 0; i < frames; i++ {
			c.Update(1.0 / 60)
			c.Evaluate(soa)
			soa.ToTransforms(pose)
			for j, tr := range pose {
				for _, v := range [...]float32{tr.Translation[0], tr.Translation[1], tr.Translation[2], tr.Rotation.W, tr.Scale[0]} {
					if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
						t.Fatalf("joint %s is %v", sk.Names[j], tr)
					}
				}
			}
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.SetParam("speed", 0.6))
	step(30)
	must(c.Request("greet")) // the gesture layer, by transition name
	step(5)
	if l := c.Status().Layers[2]; l.State != "wave" || l.From != "none" {
		t.Fatalf("gesture layer %+v, want blending none → wave", l)
	}
	step(150) // the wave plays once and the auto transition returns to none
	if l := c.Status().Layers[2]; l.State != "none" {
		t.Fatalf("gesture layer %+v, want back in none", l)
	}
	must(c.Request("wave_full"))
	step(90)
	must(c.Request("freeze"))
	step(1)
	if s := c.Status(); s.State != "still" || s.From != "" {
		t.Fatalf("status %+v, want settled in still (immediate)", s)
	}

	// Look-at and IK at full weight: the head faces its target and the
	// left hand reaches its own, checked on the recomputed model pose.
	look := mgl32.Vec3{0.5, 1.8, 1.5}
	reach := mgl32.Vec3{0.3, 1.25, 0.3}
	for name, v := range map[string]float32{"look_x": look[0], "look_y": look[1], "look_z": look[2], "look_weight": 1,
		"ik_x": reach[0], "ik_y": reach[1], "ik_z": reach[2], "ik_weight": 1} {
		must(c.SetParam(name, v))
	}
	step(1)
	models := modelMats(sk, pose)
	head := sk.JointIndex("head")
	eye := models[head].Mul4x1(mgl32.Vec4{0, 0.08, 0.1, 1}).Vec3()
	fwd := models[head].Mul4x1(mgl32.Vec4{0, 0, 1, 0}).Vec3().Normalize()
	if d := fwd.Dot(look.Sub(eye).Normalize()); d < 1-1e-4 {
		t.Errorf("head forward·direction to target = %v, want 1", d)
	}
	if hand := models[sk.JointIndex("hand.L")].Col(3).Vec3(); !animtest.VecApprox(hand, reach, 1e-3) {
		t.Errorf("left hand at %v, want %v", hand, reach)
	}
}

func TestGeneratedSpecs(t *testing.T) {
	sk := animtest.Chain(2)
	clips := nodeClips()[:3] // A x = t, B x = 10 + 10t, C x = 100
	t.Run("default: all clips on a blend1d", func(t *testing.T) {
		c := build(t, DefaultSpec(clips), sk, clips)
		if p := c.Params(); len(p) != 1 || p[0].Name != "blend" || p[0].Min != 0 || p[0].Max != 2 {
			t.Fatalf("params %+v", p)
		}
		if got := x0(c); got != 0 {
			t.Fatalf("blend 0 gives x %v, want A's 0", got)
		}
		_ = c.SetParam("blend", 1.5) // halfway from B (10) to C (100)
		if got := x0(c); !animtest.ApproxEqual(got, 55, 1e-4) {
			t.Fatalf("x = %v, want 55", got)
		}
	})
	t.Run("default without clips is the rest pose", func(t *testing.T) {
		c := build(t, DefaultSpec(nil), sk, nil)
		c.Update(1)
		if !animtest.PosesEqual(evalPose(c), sk.Rest) {
			t.Fatal("not the rest pose")
		}
	})
	t.Run("fixed blend", func(t *testing.T) {
		weights, err := ParseClipWeights("A:0.7, B:0.3")
		if err != nil {
			t.Fatal(err)
		}
		c := build(t, BlendSpec(weights), sk, clips)
		c.SetTime(0.5) // A 0.5, B 15: 0.7·0.5 + 0.3·15
		if got := x0(c); !animtest.ApproxEqual(got, 4.85, 1e-4) {
			t.Fatalf("x = %v, want 4.85", got)
		}
	})
	t.Run("additive flag", func(t *testing.T) {
		clip, w, ref, err := ParseAdditive("B:0.5@0.25")
		if err != nil {
			t.Fatal(err)
		}
		c := build(t, AdditiveSpec("C", clip, w, ref), sk, clips)
		// B at 0.5 s (15) against B at 0.25 s (12.5), half: +1.25 on C.
		c.SetTime(0.5)
		if got := x0(c); !animtest.ApproxEqual(got, 101.25, 1e-4) {
			t.Fatalf("x = %v, want 101.25", got)
		}
		if p := c.Params()[0]; p.Name != "additive" || p.Value != 0.5 {
			t.Fatalf("param %+v", p)
		}
	})
}

func TestParseFlags(t *testing.T) {
	blends := []struct {
		in   string
		want []ClipWeight
		ok   bool
	}{
		{"Walk:0.7,Run:0.3", []ClipWeight{{"Walk", 0.7}, {"Run", 0.3}}, true},
		{"Walk:1", []ClipWeight{{"Walk", 1}}, true},
		{"Walk", nil, false},
		{"Walk:-1", nil, false},
		{"Walk:0,Run:0", nil, false},
		{"Walk:x", nil, false},
	}
	for _, tc := range blends {
		got, err := ParseClipWeights(tc.in)
		if (err == nil) != tc.ok || len(got) != len(tc.want) {
			t.Errorf("ParseClipWeights(%q) = %v, %v", tc.in, got, err)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("ParseClipWeights(%q)[%d] = %v, want %v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
	adds := []struct {
		in      string
		clip    string
		w, time float32
		ok      bool
	}{
		{"Wave:0.5", "Wave", 0.5, 0, true},
		{"Wave:1@0.75", "Wave", 1, 0.75, true},
		{"Wave", "", 0, 0, false},
		{"Wave:a", "", 0, 0, false},
		{"Wave:1@b", "", 0, 0, false},
	}
	for _, tc := range adds {
		clip, w, tm, err := ParseAdditive(tc.in)
		if (err == nil) != tc.ok || clip != tc.clip || w != tc.w || tm != tc.time {
			t.Errorf("ParseAdditive(%q) = %q, %v, %v, %v", tc.in, clip, w, tm, err)
		}
	}
}

// TestSpecEdges: what Validate accepts at its limits, and that an error
// after a valid entry is still found.
func TestSpecEdges(t *testing.T) {
	if s := NodeType(len(nodeTypeNames)).String(); s == "" {
		t.Fatal("an unknown node type has no name")
	}
	clip := func(name string) *NodeSpec { n := clipNodeSpec(name); return &n }
	machine := func(trs ...TransitionSpec) *Spec {
		return &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "a", Tree: clip("A")}, {Name: "b", Tree: clip("B")}}, Transitions: trs}}}
	}
	for _, tc := range []struct {
		name    string
		spec    *Spec
		wantErr string // "" for valid
	}{
		{"a transition of no duration", machine(TransitionSpec{From: "a", To: "b"}), ""},
		{"a window of one instant", machine(TransitionSpec{From: "a", To: "b", Window: &Window{Begin: 0.5, End: 0.5}}), ""},
		{"a window to the very end", machine(TransitionSpec{From: "a", To: "b", Window: &Window{Begin: 0.75, End: 1}}), ""},
		{"an error after a valid transition", machine(TransitionSpec{From: "a", To: "b"}, TransitionSpec{From: "b", To: "c"}), `unknown state "c"`},
		{"a constant weight that is NaN", &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "a", Tree: &NodeSpec{Type: NodeLerp,
			Children: []NodeSpec{clipNodeSpec("A"), clipNodeSpec("B")}, Weight: &Input{Value: float32(math.NaN())}}}}}}}, "weight"},
		{"an error in a later child", &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "a", Tree: &NodeSpec{Type: NodeLerp,
			Children: []NodeSpec{clipNodeSpec("A"), {Type: NodeType(99)}}, Weight: &Input{Value: 0.5}}}}}}}, "children[1]"},
	} {
		err := tc.spec.Validate()
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: got %v, want an error naming %s", tc.name, err, tc.wantErr)
		}
	}
	two := &Spec{Layers: []LayerSpec{{}, {}}}
	if two.layerName(0) != "base" || two.layerName(1) != "layer1" {
		t.Fatalf("unnamed layers are %q and %q, want base and layer1", two.layerName(0), two.layerName(1))
	}
}

// TestSpecErrorsAfterValidParts: each kind of node and post step with its
// first parts valid and a later one wrong; the error must still be found
// (a check that stopped at its first valid part would miss every one).
func TestSpecErrorsAfterValidParts(t *testing.T) {
	nan := &Input{Value: float32(math.NaN())}
	bad := &NodeSpec{Type: NodeType(99)}
	a, b := clipNodeSpec("A"), clipNodeSpec("B")
	half := &Input{Value: 0.5}
	mask := &MaskSpec{Joints: []string{"j1"}}
	nodes := []struct {
		name, want string
		node       NodeSpec
	}{
		{"blend2d points after params", "points", NodeSpec{Type: NodeBlend2D, Children: []NodeSpec{a, b}, Points: []mgl32.Vec2{{0, 0}}}},
		{"average: a negative constant weight after a valid one", "negative", NodeSpec{Type: NodeAverage, Children: []NodeSpec{a, b}, Weights: []Input{{Value: 1}, {Value: -1}}}},
		{"cross-fade duration after its param", "duration", NodeSpec{Type: NodeCrossFade, Children: []NodeSpec{a, b}, Duration: -1}},
		{"cross-fade children after its ease", "children", NodeSpec{Type: NodeCrossFade, Children: []NodeSpec{a, b, a}}},
		{"additive mask after its weight", "mask", NodeSpec{Type: NodeAdditive, Weight: half, Mask: &MaskSpec{}, Base: &a, Source: &b}},
		{"additive base after its mask", "base", NodeSpec{Type: NodeAdditive, Mask: mask, Base: bad, Source: &b}},
		{"additive source after its base", "source", NodeSpec{Type: NodeAdditive, Base: &a, Source: bad}},
		{"mask node without a mask after its weight", "mask", NodeSpec{Type: NodeMask, Weight: half, Base: &a, Overlay: &b}},
		{"mask node base after its mask", "base", NodeSpec{Type: NodeMask, Mask: mask, Base: bad, Overlay: &b}},
		{"mask node overlay after its base", "overlay", NodeSpec{Type: NodeMask, Mask: mask, Base: &a, Overlay: bad}},
		{"layer mask after its weight", "mask", NodeSpec{Type: NodeLayer, Base: &a, Layers: []NodeLayerSpec{{Node: b, Weight: half, Mask: &MaskSpec{}}}}},
		{"layer node after its mask", "node", NodeSpec{Type: NodeLayer, Base: &a, Layers: []NodeLayerSpec{{Node: *bad, Mask: mask}}}},
		{"second layer after a valid first", "layers[1]", NodeSpec{Type: NodeLayer, Base: &a, Layers: []NodeLayerSpec{{Node: b}, {Node: *bad}}}},
	}
	for _, tc := range nodes {
		n := tc.node
		s := &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "s", Tree: &n}}}}}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error at %s", tc.name, err, tc.want)
		}
	}
	one := []StateSpec{{Name: "s", Tree: &a}}
	posts := []struct {
		name, want string
		post       PostSpec
	}{
		{"IK target after its pole", "target", PostSpec{Type: PostTwoBoneIK, Joints: []string{"a", "b", "c"}, Target: [3]Input{{}, *nan, {}}}},
		{"look-at weight after its target", "weight", PostSpec{Type: PostLookAt, Joints: []string{"a"}, Weight: nan}},
	}
	for _, tc := range posts {
		s := &Spec{Layers: []LayerSpec{{States: one}}, Post: []PostSpec{tc.post}}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error at %s", tc.name, err, tc.want)
		}
	}
	valid := []NodeSpec{{Type: NodeCrossFade, Children: []NodeSpec{a, b}, Duration: 0}}
	for _, n := range valid {
		s := &Spec{Layers: []LayerSpec{{States: []StateSpec{{Name: "s", Tree: &n}}}}, Post: []PostSpec{{Type: PostLookAt, Joints: []string{"a", "b"}, Shares: []float32{0, 1}}}}
		if err := s.Validate(); err != nil {
			t.Errorf("a cross-fade of no duration and a look-at share of 0: %v", err)
		}
	}
}

// TestSpecJSONForms: a clip by index 0, a Bézier ease as [p1, p2].
func TestSpecJSONForms(t *testing.T) {
	s, err := ParseSpec([]byte(`{"states": [{"name": "a", "tree": {"type": "clip", "clip": 0}}, {"name": "b", "tree": "B"}],
	  "transitions": [{"from": "a", "to": "b", "duration": 0.5, "ease": [0.25, 0.75]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if ref := s.Layers[0].States[0].Tree.Clip; ref.Index != 0 || ref.Name != "" {
		t.Fatalf("clip 0 parsed as %+v", ref)
	}
	if e := s.Layers[0].Transitions[0].Ease; e.Shape != EaseBezier || e.P1 != 0.25 || e.P2 != 0.75 {
		t.Fatalf("ease [0.25, 0.75] parsed as %+v", e)
	}
}
