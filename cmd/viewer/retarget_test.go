package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRetargetBadInputExits: a -clips file sharing no joint name with the
// model, and a -joint-map naming joints that do not exist, each end the
// viewer with one line naming the files and joints, and status 1.
func TestRetargetBadInputExits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rig := func(prefix string) string {
		return `{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
		  "nodes": [{"name": "` + prefix + `hips", "translation": [0, 1, 0], "children": [1]}, {"name": "` + prefix + `spine", "translation": [0, 0.2, 0]}],
		  "skins": [{"joints": [0, 1]}]}`
	}
	model := write("hero.gltf", rig(""))
	same := write("walk.gltf", rig(""))
	other := write("other.gltf", rig("x_"))
	names := write("names.json", `{"hips": "pelvis", "tail": "spine"}`)
	out := filepath.Join(dir, "pose.json")
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the one line
	}{
		{"no shared joint", []string{"-dump-pose", out, "-clips", other, model},
			[]string{"other.gltf", "none of its nodes has the name of a joint of hero.gltf"}},
		{"map of missing joints", []string{"-dump-pose", out, "-clips", same, "-joint-map", names, model},
			[]string{"names.json", `walk.gltf has no node named "tail"`, `hero.gltf has no node named "pelvis" (mapped from "hips")`}},
		{"good", []string{"-dump-pose", out, "-clips", same, model}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, err := viewerProcess(tc.args...)
			var exit *exec.ExitError
			lines := strings.Split(strings.TrimSpace(string(stderr)), "\n")
			if tc.want == nil {
				if err != nil {
					t.Fatalf("%v: %s", err, string(stderr))
				}
				return
			}
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("exit %v, want status 1; stderr:\n%s", err, string(stderr))
			}
			if len(lines) != 1 || strings.Contains(string(stderr), "panic") {
				t.Fatalf("stderr is not one line:\n%s", string(stderr))
			}
			for _, w := range tc.want {
				if !strings.Contains(lines[0], w) {
					t.Errorf("stderr %q does not say %q", lines[0], w)
				}
			}
		})
	}
}
