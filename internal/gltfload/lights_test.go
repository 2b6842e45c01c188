package gltfload

import (
	"math"
	"testing"
)

// The scene's light nodes become lights with KHR_lights_punctual's
// parameters and defaults (white, intensity 1, unlimited range, cone 0 to
// π/4); a node naming no light, not even the one just past the last, is
// reported.
func TestLights(t *testing.T) {
	js := []byte(`{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_lights_punctual"],
	  "extensions": {"KHR_lights_punctual": {"lights": [
	    {"type": "point", "color": [1, 0.5, 0.25], "intensity": 3, "range": 5, "name": "Bulb"},
	    {"type": "spot", "spot": {"innerConeAngle": 0.2, "outerConeAngle": 0.4}},
	    {"type": "directional"}]}},
	  "nodes": [{"extensions": {"KHR_lights_punctual": {"light": 0}}}, {"extensions": {"KHR_lights_punctual": {"light": 1}}},
	    {"extensions": {"KHR_lights_punctual": {"light": 2}}}, {"extensions": {"KHR_lights_punctual": {"light": 7}}},
	    {"extensions": {"KHR_lights_punctual": {"light": 3}}}],
	  "scenes": [{"nodes": [0, 1, 2, 3, 4]}], "scene": 0}`)
	m, err := Decode(js, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	want := []Light{
		{Name: "Bulb", Node: 0, Index: 0, Kind: PointLight, Color: [3]float32{1, 0.5, 0.25}, Intensity: 3, Range: 5, OuterCone: math.Pi / 4},
		{Name: "light 1", Node: 1, Index: 1, Kind: SpotLight, Color: [3]float32{1, 1, 1}, Intensity: 1, InnerCone: 0.2, OuterCone: 0.4},
		{Name: "light 2", Node: 2, Index: 2, Kind: DirectionalLight, Color: [3]float32{1, 1, 1}, Intensity: 1, OuterCone: math.Pi / 4},
	}
	if len(m.Lights) != len(want) {
		t.Fatalf("lights %+v, want %+v", m.Lights, want)
	}
	for i := range want {
		if m.Lights[i] != want[i] {
			t.Errorf("light %d: %+v, want %+v", i, m.Lights[i], want[i])
		}
	}
	for _, n := range []string{"3", "4"} {
		if !issueAt(m, "VIEWER_NOT_DRAWN", "/nodes/"+n+"/extensions/KHR_lights_punctual/light") {
			t.Errorf("no line on node %s's missing light: %q", n, m.Report.Lines(Hint, 0))
		}
	}
}

// TestLightBounds: KHR_lights_punctual (and glTF-Validator) bound color
// components and intensity at 0 inclusive, innerConeAngle to [0, π/2) and
// outerConeAngle to (0, π/2]. A value on an inclusive bound is kept; one on
// an exclusive bound, or beyond π/2, leaves the default (0 and π/4).
func TestLightBounds(t *testing.T) {
	js := []byte(`{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_lights_punctual"],
	  "extensions": {"KHR_lights_punctual": {"lights": [
	    {"type": "point", "color": [0, 1, 0], "intensity": 0},
	    {"type": "spot", "spot": {"innerConeAngle": 1.5707963267948966, "outerConeAngle": 1.5707963267948966}},
	    {"type": "spot", "spot": {"innerConeAngle": 0.1, "outerConeAngle": 0}},
	    {"type": "spot", "spot": {"innerConeAngle": 2, "outerConeAngle": 2}}]}},
	  "nodes": [{"extensions": {"KHR_lights_punctual": {"light": 0}}}, {"extensions": {"KHR_lights_punctual": {"light": 1}}},
	    {"extensions": {"KHR_lights_punctual": {"light": 2}}}, {"extensions": {"KHR_lights_punctual": {"light": 3}}}],
	  "scenes": [{"nodes": [0, 1, 2, 3]}], "scene": 0}`)
	m, err := Decode(js, nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	white := [3]float32{1, 1, 1}
	want := []Light{
		{Name: "light 0", Node: 0, Index: 0, Kind: PointLight, Color: [3]float32{0, 1, 0}, Intensity: 0, OuterCone: math.Pi / 4},
		{Name: "light 1", Node: 1, Index: 1, Kind: SpotLight, Color: white, Intensity: 1, InnerCone: 0, OuterCone: math.Pi / 2},
		{Name: "light 2", Node: 2, Index: 2, Kind: SpotLight, Color: white, Intensity: 1, InnerCone: 0.1, OuterCone: math.Pi / 4},
		{Name: "light 3", Node: 3, Index: 3, Kind: SpotLight, Color: white, Intensity: 1, InnerCone: 0, OuterCone: math.Pi / 4},
	}
	if len(m.Lights) != len(want) {
		t.Fatalf("lights %+v, want %+v", m.Lights, want)
	}
	for i := range want {
		if m.Lights[i] != want[i] {
			t.Errorf("light %d: %+v, want %+v", i, m.Lights[i], want[i])
		}
	}
}
