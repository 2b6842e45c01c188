package main

import (
	"io"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/scene"
)

func TestParseFlags(t *testing.T) {
	cases := []struct {
		name    string
		args    string
		check   func(*options) bool
		wantErr string
	}{
		{"defaults", "", func(o *options) bool {
			return o.model == "" && o.width == 960 && o.height == 720 && o.skinning == scene.SkinGPU && o.view == scene.ViewShaded
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
