package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skinview/skinview/internal/gltest"
)

func TestMain(m *testing.M) { gltest.Main(m) }

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
