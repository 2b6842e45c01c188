package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -record writes what its output's extension names, and refuses one it
// cannot write, naming those it can.
func TestRecordOutput(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "frames.v2")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"out.gif", "gif"}, {"out.GIF", "gif"}, {"out.mp4", "video"}, {"a/out.webm", "video"}, {"frames", "png"}, {dir, "png"},
	} {
		if got, err := RecordOutput(c.path); got != c.want || err != nil {
			t.Errorf("-record %s: %q, %v; want %q", c.path, got, err, c.want)
		}
	}
	_, err := RecordOutput("out.avi")
	if err == nil || !strings.Contains(err.Error(), "out.avi") || !strings.Contains(err.Error(), "out.gif") || !strings.Contains(err.Error(), ".mp4") || !strings.Contains(err.Error(), "PNG") {
		t.Errorf("-record out.avi: %v; want an error naming the file and the outputs -record writes", err)
	}
}
