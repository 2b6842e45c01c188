package main

import (
	"errors"
	"flag"
	"image/color"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
)

func TestParseFlags(t *testing.T) {
	cases := []struct {
		name    string
		args    string
		check   func(*options) bool
		wantErr string
	}{
		{"defaults", "", func(o *options) bool {
			return o.model == "" && o.width == 960 && o.height == 720 && o.skinning == scene.SkinGPU && o.view == debugview.Shaded
		}, ""},
		{"flags after the model", "a.glb -clip Walk -time 0.5", func(o *options) bool { return o.model == "a.glb" && o.clip == "Walk" && o.time == 0.5 }, ""},
		{"size", "-size 320x200", func(o *options) bool { return o.width == 320 && o.height == 200 }, ""},
		{"palette limit", "-palette-limit 12 -skinning dq", func(o *options) bool { return o.paletteLimit == 12 && o.skinning == scene.SkinDQ }, ""},
		{"two models", "a.glb b.glb", nil, "one model at a time"},
		{"bad size", "-size 10", nil, "-size"},
		{"bad skinning", "-skinning magic", nil, "-skinning"},
		{"bad view", "-view xray", nil, "-view"},
		{"negative limit", "-palette-limit -3", nil, "-palette-limit"},
		{"two modes", "-info -stats", nil, "separate runs"},
		{"keys with record", "-keys 4 -record a.gif", nil, "-keys plays in the window"},
		{"from after to", "-record a.gif -from 0.5 -to 0.2", nil, "-from 0.5 is after -to 0.2"},
		{"crowd with dump-pose", "-crowd 5 -dump-pose -", nil, "-crowd does not apply"},
		{"record to a format it cannot write", "-record out.avi", nil, "-record out.avi: cannot write .avi files; give out.gif (an animated GIF), out.mp4"},
		{"record PNG frames", "-record frames", func(o *options) bool { return o.record == "frames" }, ""},
		// The eye 3 units in front of and 4 above (1, 1, 0): distance 5,
		// pitch asin(4/5), yaw 0; clip planes at 5/100 and 500.
		{"placed camera", "-eye 1,5,3 -target 1,1,0 -fov 45 -bg 255,0,255", func(o *options) bool {
			c := o.stage.Camera
			return c != nil && c.Distance == 5 && c.Yaw == 0 && math.Abs(float64(c.Pitch)-math.Asin(0.8)) < 1e-6 &&
				c.Target == mgl32.Vec3{1, 1, 0} && math.Abs(float64(c.FovY)-math.Pi/4) < 1e-6 && c.Near == 0.05 && c.Far == 500 &&
				o.stage.Background == color.NRGBA{255, 0, 255, 255}
		}, ""},
		{"reference lighting", "-lighting three", func(o *options) bool { return o.stage.Lighting == render.ReferenceStage }, ""},
		{"bad lighting", "-lighting studio", nil, `-lighting "studio": want default or three`},
		{"eye without target", "-eye 0,1,2", nil, "want both, each X,Y,Z"},
		{"file camera and eye", "-camera 0 -eye 0,1,2 -target 0,0,0", nil, "-camera and -eye/-target both place the camera; give one"},
		{"fov without eye", "-fov 60", nil, "-fov 60 is the -eye camera's field of view: give -eye and -target too"},
		{"eye above the target", "-eye 0,3,0 -target 0,0,0", nil, "not straight above or below"},
		{"bad fov", "-eye 0,1,2 -target 0,1,0 -fov 180", nil, "-fov 180"},
		{"background not whole numbers", "-bg 1.5,0,0", nil, "-bg"},
		{"background out of range", "-bg 0,0,256", nil, "-bg"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opt, err := parseFlags(strings.Fields(tc.args), io.Discard)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(opt) {
				t.Fatalf("options %+v do not match", *opt)
			}
		})
	}
}

// A mistyped flag is one line pointing at -h; -h prints every flag.
func TestBadFlagIsOneLine(t *testing.T) {
	var stderr strings.Builder
	_, err := parseFlags([]string{"-nope"}, &stderr)
	if err == nil || !strings.Contains(err.Error(), "-nope") || !strings.Contains(err.Error(), "viewer -h") {
		t.Fatalf("error %v: want it to name -nope and point at viewer -h", err)
	}
	if stderr.Len() != 0 {
		t.Fatalf("a bad flag wrote %d lines besides its error:\n%s", strings.Count(stderr.String(), "\n"), stderr.String())
	}
	stderr.Reset()
	_, err = parseFlags([]string{"-h"}, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h returned %v", err)
	}
	for _, name := range []string{"usage: viewer", "-clip", "-screenshot", "-record"} {
		if !strings.Contains(stderr.String(), name) {
			t.Fatalf("-h output lacks %q:\n%s", name, stderr.String())
		}
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Count(line, "(default") > 1 || strings.Contains(line, "(default [])") {
			t.Errorf("usage line states its default twice or empty: %q", line)
		}
	}
}

// TestEveryKeyReachesTheWindow: every key of the key map has a window key
// that sends it (a key added to ui and forgotten in uiKey is dead in the
// window, though -keys scripts reach it).
func TestEveryKeyReachesTheWindow(t *testing.T) {
	sent := map[ui.Key]bool{}
	for k := glfw.KeySpace; k <= glfw.KeyLast; k++ {
		sent[uiKey(k)] = true
	}
	for k := ui.KeyNone + 1; k < ui.NumKeys; k++ {
		if !sent[k] {
			t.Errorf("no window key sends ui key %d", k)
		}
	}
}

// TestRateZeroHoldsAndBadValues: -rate 0 is given (it holds the pose);
// a negative -onion and a -joint-map without -clips are one-line errors.
func TestRateZeroHoldsAndBadValues(t *testing.T) {
	opt, err := parseFlags([]string{"-rate", "0"}, io.Discard)
	if err != nil || !opt.rateSet || opt.rate != 0 {
		t.Fatalf("-rate 0: %+v, %v", opt, err)
	}
	for _, args := range [][]string{{"-onion", "-2"}, {"-joint-map", "m.json"}} {
		if _, err := parseFlags(args, io.Discard); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// -frames sets how many frames -stats times, only when given.
func TestStatsFrames(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"-stats"}, 0},
		{[]string{"-stats", "-frames", "3"}, 3},
	} {
		opt, err := parseFlags(c.args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got := opt.app().StatsFrames; got != c.want {
			t.Errorf("%v: -stats times %d frames (0: its default); want %d", c.args, got, c.want)
		}
	}
}
