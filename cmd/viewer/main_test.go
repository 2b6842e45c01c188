package main

import (
	"os"
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
