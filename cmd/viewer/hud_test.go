package main

import (
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/golden"
	"github.com/skinview/skinview/internal/ui"
)

// TestHUDStates renders the viewer with its HUD in the states people look
// at most, driven through the key map as a user would (one key per frame,
// "wait" for a frame without one), and compares each with a golden.
func TestHUDStates(t *testing.T) {
	// 800×600: wide enough for the full panel (below CompactWidth the HUD
	// folds into one line, the "collapsed" case).
	hud := func(o options) options {
		o.width, o.height, o.hud = 800, 600, true
		return o
	}
	cases := []shot{
		{name: "paused_mid_clip", opt: hud(options{clip: "Walk"}), keys: "right*8",
			spots: []golden.Spot{{Name: "pause sign shown", X: 20, Y: 65, Want: ui.TextColor, Tolerance: 0.2}}},
		{name: "crossfade", opt: hud(options{clip: "Idle", fade: 0.5}), keys: "],enter,wait*5"},
		{name: "slider_selected", opt: hud(options{}), keys: "tab,up*4"},
		{name: "help", opt: hud(options{clip: "Walk"}), keys: "h"},
		{name: "joint_inspector", opt: hud(options{clip: "Wave", skeleton: true, joint: "forearm.R"}), keys: "right*20"},
		// Run added to Walk with A, then its weight down to 0.7: 59 % / 41 %.
		{name: "clip_blend", opt: hud(options{clip: "Walk"}), keys: "],],],a,down*6,wait"},
		{name: "onion_skin", opt: hud(options{clip: "Walk", onion: 3}), keys: "right*8"},
		// The morph panel of the morph creature at 0.5 s of Breathe, squash
		// selected and pinned 0.1 higher than the clip's 0.
		{name: "morph_panel", model: "@edge/morph_creature.gltf", opt: hud(options{clip: "Breathe"}), time: 0.5, keys: "space,n,=,="},
		{name: "collapsed", opt: options{clip: "Walk", width: 480, height: 360, hud: true}, keys: "right*8"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			img := renderShot(t, tc)
			golden.Check(t, "TestHUDStates/"+tc.name, img, golden.Options{})
			golden.CheckSpots(t, img, tc.spots)
		})
	}
}

// TestWeightsViewFollowsPickedJoint: a joint picked on the skeleton (K,
// then a click on it) is the one the weights view (V) shows, in the
// picture and in its label; before any pick it is -joint's.
func TestWeightsViewFollowsPickedJoint(t *testing.T) {
	withApp(t, options{clip: "Walk", joint: "forearm.R", width: 320, height: 240}, func(a *app.App) error {
		keys(t, a, "k,v,v")
		if a.UI.View != debugview.Weights {
			t.Errorf("view %v after V V, want the weights view", a.UI.View)
		}
		sk := a.Char.Model.Skeleton
		j := sk.JointIndex("forearm.L")
		x, y, ok := a.View.Camera().Project(a.Char.Shown(a.Char.JointWorld(j).Col(3).Vec3()), a.View.W, a.View.H)
		if !ok || !a.SelectJointAt(x, y) || a.UI.Joint != j {
			t.Errorf("pick at forearm.L (%v, %v, %v): selected %d, want %d", x, y, ok, a.UI.Joint, j)
			return nil
		}
		if a.View.WeightJoint != j {
			t.Errorf("weights view shows joint %d after picking forearm.L (%d)", a.View.WeightJoint, j)
		}
		if in := a.Info(); !strings.Contains(in.View, "forearm.L") {
			t.Errorf("weights view label %q, want forearm.L's", in.View)
		}
		return nil
	})
}
