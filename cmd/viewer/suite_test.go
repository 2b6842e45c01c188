package main

import (
	"image"
	"strconv"
	"testing"

	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/golden"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
)

// shot is one case of the screenshot regression suite: a model, the flags
// a user would give, and the pixels that say what the case is about.
type shot struct {
	name  string
	model string // as on the command line; "" is the built-in character
	opt   options
	time  float32
	keys  string
	rest  bool // the bind pose: no animation at all
	spots []golden.Spot
	// same names an earlier case this one must match (GPU vs CPU, forced
	// palette limits): the same picture by another route.
	same string
}

var (
	// body and empty are the spot colours: anything but the background,
	// and the background.
	body  = golden.Spot{Want: scene.Background, Not: true, Tolerance: 0.02}
	empty = golden.Spot{Want: scene.Background}
)

func spot(s golden.Spot, name string, x, y int) golden.Spot {
	s.Name, s.X, s.Y = name, x, y
	return s
}

// suite lists the cases, 220×280 each, camera framed on the clip.
func suite() []shot {
	clipAt := func(clip string, t float32) shot {
		return shot{name: clip + "_" + ftoa(t), opt: options{clip: clip}, time: t}
	}
	cases := []shot{
		{name: "bind_pose", rest: true, spots: []golden.Spot{
			spot(body, "right hand out to the side (A-pose)", 42, 133), spot(body, "left hand out to the side", 193, 142)}},
		clipAt("Idle", 1.5), clipAt("Walk", 0),
		with(clipAt("Walk", 0.25), spot(body, "foot on the ground", 115, 246), spot(empty, "no hand out to the side", 45, 148)),
		clipAt("Walk", 0.5), clipAt("Walk", 0.75),
		clipAt("Run", 0.15), clipAt("Run", 0.5), clipAt("StrafeLeft", 0.5), clipAt("StrafeRight", 0.5),
		clipAt("Jump", 0.3),
		with(clipAt("Jump", 0.6), spot(empty, "feet off the ground", 110, 246), spot(body, "hands up", 130, 31)),
		clipAt("Jump", 0.9), clipAt("Wave", 0.6),
		with(clipAt("Wave", 1.2), spot(body, "hand raised above the head", 90, 24)),
		clipAt("AimCenter", 0),
		with(clipAt("AimLeft", 0), spot(body, "arm points to the character's left", 143, 73)),
		with(clipAt("AimRight", 0), spot(body, "arm points to the character's right", 58, 74)),
		clipAt("AimUp", 0), clipAt("AimDown", 0), clipAt("Lean", 0),
		{name: "lerp_walk_run", opt: options{blend: "Walk:0.5,Run:0.5"}, time: 0.3},
		{name: "blend3_idle_walk_run", opt: options{blend: "Idle:0.2,Walk:0.3,Run:0.5"}, time: 0.3},
		{name: "blend1d_idle_walk", opt: options{params: paramList{{Name: "speed", Value: 0.5}}}, time: 0.4},
		{name: "blend1d_walk_run", opt: options{params: paramList{{Name: "speed", Value: 1.5}}}, time: 0.4},
		{name: "blend2d_off_sample", opt: options{params: paramList{{Name: "aim_x", Value: 0.5}, {Name: "aim_y", Value: 0.4}}}, keys: "5,wait*15"},
		{name: "additive_lean_0.5", opt: options{params: paramList{{Name: "lean", Value: 0.5}}}, time: 0.3},
		{name: "additive_flag_wave_on_walk", opt: options{clip: "Walk", additive: "Wave:0.5@0"}, time: 0.4},
		{name: "masked_wave_while_walking", opt: options{params: paramList{{Name: "speed", Value: 1}}}, keys: "8,wait*30"},
		{name: "crossfade_smooth_half", opt: options{tree: "testdata/fades.json"}, keys: "1,wait*6"},
		{name: "crossfade_frozen_half", opt: options{tree: "testdata/fades.json"}, keys: "2,wait*6"},
		{name: "ik_left_hand_reach", opt: options{params: paramList{{Name: "ik_weight", Value: 1}}}, time: 0.3, spots: []golden.Spot{
			spot(body, "left hand reaches out to the target", 158, 85)}},
		{name: "look_at", opt: options{params: paramList{{Name: "look_weight", Value: 1}}}, time: 0.3},
		{name: "walk_cpu_skinning", opt: options{clip: "Walk", skinning: scene.SkinCPU}, time: 0.25, same: "Walk_0.25"},
		// Clips compressed at 0.01 cm draw the same picture.
		{name: "walk_compressed", opt: options{clip: "Walk", compress: 0.01}, time: 0.25, same: "Walk_0.25"},
		{name: "blend1d_walk_run_compressed", opt: options{params: paramList{{Name: "speed", Value: 1.5}}, compress: 0.01}, time: 0.4, same: "blend1d_walk_run"},
		{name: "walk_palette_limit_12", opt: options{clip: "Walk", paletteLimit: 12}, time: 0.25, same: "Walk_0.25"},
		{name: "walk_palette_limit_16", opt: options{clip: "Walk", paletteLimit: 16}, time: 0.25, same: "Walk_0.25"},
		{name: "walk_dual_quaternion", opt: options{clip: "Walk", skinning: scene.SkinDQ}, time: 0.25},
		{name: "view_partitions_12", opt: options{clip: "Walk", paletteLimit: 12, view: debugview.Partitions}, time: 0.25},
		{name: "view_weights_forearm", opt: options{clip: "Wave", view: debugview.Weights, joint: "forearm.R"}, time: 1.0},
		{name: "view_skeleton", opt: options{clip: "Walk", skeleton: true}, time: 0.25},
		{name: "wireframe_and_grid", opt: options{clip: "Walk"}, keys: "w,g"},
		{name: "stress_gpu", model: "@stress", time: 0.5},
		{name: "stress_palette_limit_12", model: "@stress", opt: options{paletteLimit: 12}, time: 0.5, same: "stress_gpu"},
		{name: "stress_cpu", model: "@stress", opt: options{skinning: scene.SkinCPU}, time: 0.5, same: "stress_gpu"},
		{name: "stress_partitions", model: "@stress", opt: options{paletteLimit: 40, view: debugview.Partitions}, time: 0.5},
		{name: "twist180_linear_blend", model: "@twist", opt: options{clip: "Twist180"}, spots: []golden.Spot{
			spot(empty, "the twist collapses the limb (candy wrapper)", 149, 143), spot(empty, "collapsed below the axis too", 149, 156)}},
		{name: "twist180_dual_quaternion", model: "@twist", opt: options{clip: "Twist180", skinning: scene.SkinDQ}, spots: []golden.Spot{
			spot(body, "dual quaternions keep the volume", 149, 143), spot(body, "below the axis too", 149, 156)}},
		{name: "edge_two_skins", model: "@edge/two_skins.gltf", time: 0.5},
		{name: "edge_joints_outside", model: "@edge/joints_outside.gltf", time: 0.5},
		{name: "edge_no_ibm", model: "@edge/no_ibm.gltf", time: 0.5},
		{name: "edge_eight_influences", model: "@edge/eight_influences.gltf", time: 0.5},
		{name: "edge_normalized_weights", model: "@edge/normalized_weights.gltf", time: 0.5},
		{name: "edge_cubic_step", model: "@edge/cubic_step.gltf", time: 0.7},
		// Rotation keys 170° and −170°: the shortest arc keeps the upper
		// segment folded down over the lower one all clip long, so the frame
		// holds one segment's length; the long way would sweep it up.
		{name: "slerp_shortest_arc", model: "test:hemisphere", time: 0.5, spots: []golden.Spot{
			spot(body, "the folded bar fills the frame's centre", 110, 140)}},
		// A joint mirrored and stretched, normals tilted: the upper segment
		// is lit like the lower one only if skin.vert turns the cofactor's
		// normal back out and uses the inverse transpose.
		{name: "mirrored_joint", model: "test:mirror", rest: true},
		// The Step clip between its keys: held at the key before.
		{name: "edge_step", model: "@edge/cubic_step.gltf", opt: options{clip: "Step"}, time: 0.7},
		// glTF's alpha modes (blended panes drawn farthest first, cut-out
		// cards), the base colour view, and the reference renderer's
		// stage: each matched three.js r187's picture (make oracle) when
		// approved.
		{name: "alpha_blend", model: "@edge/alpha_blend.gltf", time: 1.48},
		{name: "alpha_mask_basecolor", model: "@edge/alpha_mask.gltf", opt: options{view: debugview.BaseColor}, time: 0.74},
		{name: "lighting_three", opt: options{clip: "Walk", stage: app.Stage{Lighting: render.ReferenceStage}}, time: 0.25},
		// Every input of the material model on one quad, each view
		// showing one (the lit picture matched three.js's when approved).
		{name: "maps_basecolor", model: "@edge/material_maps.gltf", opt: options{view: debugview.BaseColor}, time: 0.5},
		{name: "maps_normal", model: "@edge/material_maps.gltf", opt: options{view: debugview.Normal}, time: 0.5},
		{name: "maps_metallic", model: "@edge/material_maps.gltf", opt: options{view: debugview.Metallic}, time: 0.5},
		{name: "maps_roughness", model: "@edge/material_maps.gltf", opt: options{view: debugview.Roughness}, time: 0.5},
		{name: "maps_occlusion", model: "@edge/material_maps.gltf", opt: options{view: debugview.Occlusion}, time: 0.5},
		{name: "maps_emissive", model: "@edge/material_maps.gltf", opt: options{view: debugview.Emissive}, time: 0.5},
		{name: "maps_lighting_three", model: "@edge/material_maps.gltf", opt: options{stage: app.Stage{Lighting: render.ReferenceStage}}, time: 0.5},
		// Morph targets driven by a clip beside a joint: at 0.5 s of
		// Breathe the middle swells (bulge 1), the top leans right as a
		// shape (lean 0.5) and the middle joint bends 20°. The CPU and a
		// forced two-joint partition give the same picture.
		{name: "morph_creature", model: "@edge/morph_creature.gltf", opt: options{clip: "Breathe"}, time: 0.5},
		{name: "morph_creature_cpu", model: "@edge/morph_creature.gltf", opt: options{clip: "Breathe", skinning: scene.SkinCPU}, time: 0.5, same: "morph_creature"},
		{name: "morph_creature_limit_2", model: "@edge/morph_creature.gltf", opt: options{clip: "Breathe", paletteLimit: 2}, time: 0.5, same: "morph_creature"},
		{name: "morph_creature_dual_quaternion", model: "@edge/morph_creature.gltf", opt: options{clip: "Breathe", skinning: scene.SkinDQ}, time: 0.5},
		// Root motion: 2.6 s into the walker's Walk, 2.08 m from where it
		// started, the camera following and the path it took on the ground.
		{name: "root_motion_walk", model: "@edge/root_walk.gltf", opt: options{clip: "Walk", rootMotion: "xz"}, time: 2.6},
		// Swell's cubic spline halfway: bulge 3·½² − 2·½³ = ½, squash ¼.
		{name: "morph_creature_cubic", model: "@edge/morph_creature.gltf", opt: options{clip: "Swell"}, time: 0.5},
		// A crowd drawn with one instanced call per mesh, and each member
		// by itself: the same picture, shaded and by partition (four
		// partitions of the twelve-joint limit). Morphs too.
		{name: "crowd_9", opt: options{clip: "Walk", crowd: 9, lod: "on", crowdDraw: "instanced"}, time: 0.25},
		{name: "crowd_9_members", opt: options{clip: "Walk", crowd: 9, lod: "on", crowdDraw: "members"}, time: 0.25, same: "crowd_9"},
		{name: "crowd_9_partitions", opt: options{clip: "Walk", crowd: 9, lod: "on", crowdDraw: "instanced", paletteLimit: 12, view: debugview.Partitions}, time: 0.25},
		{name: "crowd_9_partitions_members", opt: options{clip: "Walk", crowd: 9, lod: "on", crowdDraw: "members", paletteLimit: 12, view: debugview.Partitions}, time: 0.25, same: "crowd_9_partitions"},
		{name: "crowd_4_morph", model: "@edge/morph_creature.gltf", opt: options{clip: "Breathe", crowd: 4, lod: "on", crowdDraw: "instanced"}, time: 0.5},
		{name: "crowd_4_morph_members", model: "@edge/morph_creature.gltf", opt: options{clip: "Breathe", crowd: 4, lod: "on", crowdDraw: "members"}, time: 0.5, same: "crowd_4_morph"},
	}
	return cases
}

func with(s shot, spots ...golden.Spot) shot {
	s.spots = append(s.spots, spots...)
	return s
}

func ftoa(t float32) string { return strconv.FormatFloat(float64(t), 'f', -1, 32) }

// TestScreenshotSuite renders every case twice in one context (the second
// picture must be identical: no leaked GL state), compares it with its
// golden and checks its named pixels.
func TestScreenshotSuite(t *testing.T) {
	images := map[string]*image.NRGBA{}
	for _, tc := range suite() {
		t.Run(tc.name, func(t *testing.T) {
			img := renderShot(t, tc)
			images[tc.name] = img
			golden.Check(t, "TestScreenshotSuite/"+tc.name, img, golden.Options{})
			golden.CheckSpots(t, img, append(tc.spots, spot(empty, "corner is background", 1, 1)))
			if tc.same != "" {
				ref := images[tc.same]
				if ref == nil {
					t.Fatalf("case %s must run after %s", tc.name, tc.same)
				}
				if r := golden.Compare(img, ref, golden.Options{Threshold: 0.05, MaxBadFraction: 0.0005}); !r.OK() {
					t.Errorf("differs from %s: %d bad pixels (budget %d), worst region %v", tc.same, r.BadPixels, r.Budget, r.Worst)
				}
			}
		})
	}
}

// renderShot draws one case through the same path as -screenshot.
func renderShot(t *testing.T, tc shot) *image.NRGBA {
	t.Helper()
	opt := tc.opt
	opt.model = tc.model
	if opt.skinning == "" {
		opt.skinning = scene.SkinGPU
	}
	if opt.width == 0 {
		opt.width, opt.height = 220, 280
	}
	if opt.fade == 0 {
		opt.fade = 0.3
	}
	var m *gltfload.Model
	var err error
	switch opt.model {
	case "test:hemisphere":
		m, err = gltfload.Decode(hemisphereGLTF(t), nil, "hemisphere.gltf")
	case "test:mirror":
		m, err = gltfload.Decode(mirrorGLTF(t), nil, "mirror.gltf")
	default:
		m, err = asset.Load(opt.model)
	}
	if err != nil {
		t.Fatal(err)
	}
	var c *character.Character
	if tc.rest {
		c, err = character.New(m, nil, &graph.Spec{Layers: []graph.LayerSpec{{States: []graph.StateSpec{{Name: "rest"}}}}}, -1, 0)
	} else {
		c, err = app.NewCharacter(m, opt.load())
	}
	if err != nil {
		t.Fatal(err)
	}
	evs, err := ui.ParseKeys(tc.keys)
	if err != nil {
		t.Fatal(err)
	}
	var img, again *image.NRGBA
	onGL(t, func() error {
		a, err := newApp(&opt, c, opt.width, opt.height)
		if err != nil {
			return err
		}
		defer a.Destroy()
		if img, err = a.Shoot(tc.time, evs); err != nil {
			return err
		}
		if err := a.Draw(); err != nil {
			return err
		}
		again = a.View.Target.ReadImage()
		return nil
	})
	if r := golden.Compare(again, img, golden.Options{Threshold: 1e-9, MaxBadPixels: -1}); !r.OK() {
		t.Errorf("second draw differs in %d pixels (worst %v): GL state leaks between frames", r.BadPixels, r.Worst)
	}
	return img
}
