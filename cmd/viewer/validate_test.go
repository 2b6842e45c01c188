package main

// Tests of the modes that check files without a window: -validate, -info
// and -corpus.

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/report"
)

// brokenTriangle is one triangle whose positions have no bounds (an
// error) under a camera whose far plane is before its near one (another).
func brokenTriangle(t *testing.T) string {
	var bin bytes.Buffer
	binary.Write(&bin, binary.LittleEndian, []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	doc := `{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
	  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
	  "cameras": [{"type": "perspective", "perspective": {"yfov": 1, "znear": 1, "zfar": 0.5}}],
	  "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
	  "bufferViews": [{"buffer": 0, "byteLength": 36}],
	  "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,` + base64.StdEncoding.EncodeToString(bin.Bytes()) + `"}]}`
	return tempFile(t, "broken.gltf", []byte(doc))
}

func TestValidateJSON(t *testing.T) {
	path := brokenTriangle(t)
	var out bytes.Buffer
	err := validate(&out, path)
	if err == nil || err.Error() != path+": 2 errors" {
		t.Fatalf("validate returned %v; want %q", err, path+": 2 errors")
	}
	var rep struct {
		URI, MimeType string
		Issues        struct {
			NumErrors, NumWarnings int
			Messages               []struct {
				Code, Message, Pointer string
				Severity               int
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if rep.URI != path || rep.MimeType != "model/gltf+json" || rep.Issues.NumErrors != 2 {
		t.Fatalf("report %+v", rep)
	}
	want := map[string]string{
		"MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS": "/meshes/0/primitives/0/attributes/POSITION",
		"CAMERA_ZFAR_LEQUAL_ZNEAR":                        "/cameras/0/perspective/zfar",
	}
	for _, m := range rep.Issues.Messages {
		if m.Severity == 0 && want[m.Code] == m.Pointer {
			delete(want, m.Code)
		}
	}
	if len(want) != 0 {
		t.Fatalf("missing %v in %s", want, out.String())
	}

	out.Reset()
	if err := validate(&out, "@character"); err != nil || !strings.Contains(out.String(), `"numErrors": 0`) || !strings.Contains(out.String(), `"model/gltf-binary"`) {
		t.Fatalf("the built-in character: %v\n%s", err, out.String())
	}

	bad := tempFile(t, "bad.gltf", []byte(`{"asset": {"version": "1.0"}}`))
	out.Reset()
	if err := validate(&out, bad); err == nil || !strings.Contains(out.String(), `"code": "LOAD_REFUSED"`) || !strings.Contains(out.String(), "only glTF 2.x") {
		t.Fatalf("a refused file: %v\n%s", err, out.String())
	}
}

func TestInfoGroupsTheReport(t *testing.T) {
	m, err := gltfload.Load(brokenTriangle(t))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	report.WriteReport(&out, &m.Report)
	got := out.String()
	for _, want := range []string{
		"validation: 2 errors, 0 warnings, 0 infos\n",
		"error MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS (1)\n    meshes[0].primitives[0].attributes.POSITION: accessors[0] has no min and max",
		"error CAMERA_ZFAR_LEQUAL_ZNEAR (1)\n    cameras[0].perspective.zfar: 0.5 is not beyond znear 1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("-info report lacks %q:\n%s", want, got)
		}
	}
	summary, lines := report.IssueSummary(&m.Report)
	if summary != "2 errors, 0 warnings" || len(lines) != 2 {
		t.Errorf("HUD summary %q %q", summary, lines)
	}
}

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
