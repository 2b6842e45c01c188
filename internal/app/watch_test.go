package app

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWatcherSeesAnEdit: a file written in place and one replaced by a
// rename (as editors save) are both reported, once the writes settle.
func TestWatcherSeesAnEdit(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Watch(f, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	wait := func(what string) {
		t.Helper()
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if w.Changed() {
				return
			}
		}
		t.Fatalf("%s: no change reported", what)
	}
	if err := os.WriteFile(f, []byte(`{"a": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	wait("write")
	tmp := filepath.Join(dir, ".spec.json.swp")
	if err := os.WriteFile(tmp, []byte(`{"a": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, f); err != nil {
		t.Fatal(err)
	}
	wait("rename over")
	if err := os.WriteFile(filepath.Join(dir, "other.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * settle)
	if w.Changed() {
		t.Error("a file that is not watched was reported")
	}
}
