package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusInvalidFolderRule: a file under "invalid" passes -corpus when
// it is refused, or when it loads with a report naming what is wrong (an
// empty scene: VIEWER_NOTE, "nothing to draw"); one that loads with
// nothing reported fails the run.
func TestCorpusInvalidFolderRule(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "invalid")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"refused.gltf":  []byte(`{"asset": {"version": "2.0"}, "scenes": [`),
		"reported.gltf": []byte(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{}]}`),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(bad, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	table := string(runViewer(t, "-corpus", dir, "-out", out))
	for _, want := range []string{"refused as expected", "loaded and reported: info VIEWER_NOTE", "corpus: 2 passed, 0 failed"} {
		if !strings.Contains(table, want) {
			t.Errorf("-corpus printed\n%s\nwant %q", table, want)
		}
	}
	// A clean file under "invalid" loads with nothing to report.
	if err := os.WriteFile(filepath.Join(bad, "silent.gltf"), sparseGLTF(t, "rigid"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := viewerProcess("-corpus", dir, "-out", out)
	if err == nil || !strings.Contains(string(stdout), "FAIL: loaded a file that should be refused, and reported nothing") {
		t.Errorf("a silent load under invalid/: exit %v, printed\n%s", err, stdout)
	}
}
