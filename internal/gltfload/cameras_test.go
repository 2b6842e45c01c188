package gltfload

import "testing"

// The scene's camera nodes become cameras to look through, with glTF's
// parameters; one that cannot be looked through is named in the report.
func TestCameras(t *testing.T) {
	js := []byte(`{"asset": {"version": "2.0"},
	  "cameras": [{"type": "perspective", "perspective": {"yfov": 0.8, "aspectRatio": 1.5, "znear": 0.01}},
	    {"name": "Top", "type": "orthographic", "orthographic": {"xmag": 2, "ymag": 1, "znear": 0, "zfar": 50}},
	    {"type": "perspective", "perspective": {"yfov": 0, "znear": 0.1}}],
	  "nodes": [{"name": "Eye", "camera": 0}, {"camera": 1}, {"camera": 2}, {"camera": 1}],
	  "scenes": [{"nodes": [0, 1, 2]}], "scene": 0}`)
	m, err := Decode(js, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	want := []Camera{
		{Name: "Eye", Node: 0, Index: 0, YFov: 0.8, Aspect: 1.5, ZNear: 0.01}, // no zfar: infinite
		{Name: "Top", Node: 1, Index: 1, Orthographic: true, XMag: 2, YMag: 1, ZFar: 50},
	}
	if len(m.Cameras) != len(want) {
		t.Fatalf("cameras %+v, want %+v (node 3 is in no scene)", m.Cameras, want)
	}
	for i := range want {
		if m.Cameras[i] != want[i] {
			t.Errorf("camera %d: %+v, want %+v", i, m.Cameras[i], want[i])
		}
	}
	if !issueAt(m, "VIEWER_NOT_DRAWN", "/cameras/2/perspective") || !issueAt(m, "VALUE_NOT_IN_RANGE", "/cameras/2/perspective/yfov") {
		t.Errorf("no lines on cameras[2]'s zero yfov: %q", m.Report.Lines(Hint, 0))
	}
}
