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

// TestCameraLimits: glTF 2.0 §5.13–5.15 bound a perspective camera's
// znear above 0 and its zfar, where given, above znear, and an
// orthographic camera's zfar above its znear; an absent aspectRatio and
// zfar mean the viewport's aspect and an infinite far plane. A camera just
// inside the bounds is looked through with its values; one on a bound is
// named in the report and left out.
func TestCameraLimits(t *testing.T) {
	js := []byte(`{"asset": {"version": "2.0"},
	  "cameras": [
	    {"type": "perspective", "perspective": {"yfov": 0.7, "znear": 0.25}},
	    {"type": "perspective", "perspective": {"yfov": 0.7, "znear": 0.25, "zfar": 0.5, "aspectRatio": 2}},
	    {"type": "perspective", "perspective": {"yfov": 0.7, "znear": 0}},
	    {"type": "perspective", "perspective": {"yfov": 0.7, "znear": 0.25, "zfar": 0.25}},
	    {"type": "orthographic", "orthographic": {"xmag": 1, "ymag": 1, "znear": 0.5, "zfar": 0.5}},
	    {"type": "orthographic", "orthographic": {"xmag": 1, "ymag": 1, "znear": 0.5, "zfar": 0.75}},
	    {"type": "perspective", "perspective": {"yfov": 3.14159, "znear": 0.25}},
	    {"type": "perspective", "perspective": {"yfov": 3.1415, "znear": 0.25}}],
	  "nodes": [{"camera": 0}, {"camera": 1}, {"camera": 2}, {"camera": 3}, {"camera": 4}, {"camera": 5}, {"camera": 6}, {"camera": 7}],
	  "scenes": [{"nodes": [0, 1, 2, 3, 4, 5, 6, 7]}], "scene": 0}`)
	m, err := Decode(js, nil, "limits.gltf")
	if err != nil {
		t.Fatal(err)
	}
	want := []Camera{
		{Name: "camera 0", Node: 0, Index: 0, YFov: 0.7, ZNear: 0.25},                       // aspect and zfar absent
		{Name: "camera 1", Node: 1, Index: 1, YFov: 0.7, Aspect: 2, ZNear: 0.25, ZFar: 0.5}, // zfar beyond znear
		{Name: "camera 5", Node: 5, Index: 5, Orthographic: true, XMag: 1, YMag: 1, ZNear: 0.5, ZFar: 0.75},
		{Name: "camera 7", Node: 7, Index: 7, YFov: 3.1415, ZNear: 0.25}, // a field of view just under the bound
	}
	if len(m.Cameras) != len(want) {
		t.Fatalf("cameras %+v, want %+v", m.Cameras, want)
	}
	for i := range want {
		if m.Cameras[i] != want[i] {
			t.Errorf("camera %d: %+v, want %+v", i, m.Cameras[i], want[i])
		}
	}
	for _, p := range []string{"/cameras/2/perspective", "/cameras/3/perspective", "/cameras/4/orthographic", "/cameras/6/perspective"} {
		if !issueAt(m, "VIEWER_NOT_DRAWN", p) {
			t.Errorf("no VIEWER_NOT_DRAWN line at %s: %q", p, m.Report.Lines(Hint, 0))
		}
	}
}
