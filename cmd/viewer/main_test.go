package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/gltest"
)

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(runMainEnv); ok {
		// A child process of a test: the viewer itself, on these flags.
		os.Args = append([]string{"viewer"}, strings.Split(args, "\x1f")...)
		main()
		os.Exit(0)
	}
	gltest.Main(m)
}

// runMainEnv, set in a test binary's environment, makes it run the viewer
// on its value's flags (separated by U+001F) instead of the tests.
const runMainEnv = "VIEWER_TEST_RUN_MAIN"

// viewerProcess runs the viewer with args in a process of its own (this
// test binary, by runMainEnv), as a shell would, and returns what it wrote
// and how it ended.
func viewerProcess(args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), runMainEnv+"="+strings.Join(args, "\x1f"))
	var e bytes.Buffer
	cmd.Stderr = &e
	out, err := cmd.Output()
	return out, e.Bytes(), err
}

// runViewer is viewerProcess, failing the test unless the viewer exits 0;
// it returns the standard output.
func runViewer(t *testing.T, args ...string) []byte {
	t.Helper()
	out, stderr, err := viewerProcess(args...)
	if err != nil {
		t.Fatalf("viewer %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return out
}

// onGL runs f with a current GL context; see gltest.Do.
func onGL(t *testing.T, f func() error) { gltest.Do(t, f) }

// writeFile writes data to path, as a user's editor would. It reports a
// failure with t.Error, so the GL thread may call it too.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Error(err)
	}
}

// tempFile writes data to a file called name in a new temporary directory,
// for the app to load, and returns its path. Only the test's goroutine may
// call it.
func tempFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
