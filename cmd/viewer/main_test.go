package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
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

// gltfData lays out a test file's binary buffer: each add appends one
// array, padded to 4 bytes, as a buffer view of its own and an accessor
// over it, so that no offset is counted by hand.
type gltfData struct {
	t                testing.TB
	bin              bytes.Buffer
	views, accessors []string
}

// add appends v, a []float32, []uint16 or []uint8, as the next accessor,
// of type typ (SCALAR, VEC3, VEC4 or MAT4) with bounds (JSON members
// such as `"min": [0], "max": [1]`, or ""), and returns its index.
func (d *gltfData) add(v any, typ, bounds string) int {
	d.t.Helper()
	var comp, size, n int
	switch v := v.(type) {
	case []float32:
		comp, size, n = 5126, 4, len(v)
	case []uint16:
		comp, size, n = 5123, 2, len(v)
	case []uint8:
		comp, size, n = 5121, 1, len(v)
	default:
		d.t.Fatalf("gltfData.add: %T is not an accessor's data", v)
	}
	comps := map[string]int{"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[typ]
	if comps == 0 || n%comps != 0 {
		d.t.Fatalf("gltfData.add: %d components do not make %s elements", n, typ)
	}
	off := d.bin.Len()
	if err := binary.Write(&d.bin, binary.LittleEndian, v); err != nil {
		d.t.Fatal(err)
	}
	for d.bin.Len()%4 != 0 {
		d.bin.WriteByte(0)
	}
	if bounds != "" {
		bounds = ", " + bounds
	}
	d.views = append(d.views, fmt.Sprintf(`{"buffer": 0, "byteOffset": %d, "byteLength": %d}`, off, n*size))
	d.accessors = append(d.accessors, fmt.Sprintf(`{"bufferView": %d, "componentType": %d, "count": %d, "type": %q%s}`, len(d.views)-1, comp, n/comps, typ, bounds))
	return len(d.accessors) - 1
}

// members is the document's "buffers", "bufferViews" and "accessors",
// the one buffer embedded as a data URI.
func (d *gltfData) members() string {
	return fmt.Sprintf(`"buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [
    %s],
  "accessors": [
    %s]`, d.bin.Len(), base64.StdEncoding.EncodeToString(d.bin.Bytes()), strings.Join(d.views, ",\n    "), strings.Join(d.accessors, ",\n    "))
}
