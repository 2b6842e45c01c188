package gltfload

import (
	"fmt"
	"math"
)

// addLight adds the KHR_lights_punctual light of glTF node ni, if it has
// one; a light that does not resolve is reported and left out.
func (l *loader) addLight(ni int) {
	exts, _ := l.rawObject("nodes", ni)["extensions"].(map[string]any)
	ref, ok := exts["KHR_lights_punctual"].(map[string]any)
	if !ok {
		return
	}
	li, ok := jsonIndex(ref["light"])
	defs := l.lightDefs()
	where := fmt.Sprintf("nodes[%d].extensions.KHR_lights_punctual.light", ni)
	if !ok || li >= len(defs) {
		l.issue("VIEWER_NOT_DRAWN", where, "not a light of extensions.KHR_lights_punctual.lights (%d lights); not lit", len(defs))
		return
	}
	def, _ := defs[li].(map[string]any)
	g := Light{Node: ni, Index: li, Color: [3]float32{1, 1, 1}, Intensity: 1, OuterCone: math.Pi / 4}
	g.Name, _ = def["name"].(string)
	if g.Name == "" {
		g.Name = fmt.Sprintf("light %d", li)
	}
	switch def["type"] {
	case "directional":
		g.Kind = DirectionalLight
	case "point":
		g.Kind = PointLight
	case "spot":
		g.Kind = SpotLight
	default:
		l.issue("VIEWER_NOT_DRAWN", fmt.Sprintf("extensions.KHR_lights_punctual.lights[%d].type", li), "%v is not directional, point or spot; not lit", def["type"])
		return
	}
	if c, _ := def["color"].([]any); len(c) == 3 {
		for k := range 3 {
			if v, ok := jsonFloat(c[k]); ok && v >= 0 && finite32(v) {
				g.Color[k] = float32(v)
			}
		}
	}
	if v, ok := jsonFloat(def["intensity"]); ok && v >= 0 && finite32(v) {
		g.Intensity = float32(v)
	}
	if v, ok := jsonFloat(def["range"]); ok && v > 0 && finite32(v) {
		g.Range = float32(v)
	}
	if spot, ok := def["spot"].(map[string]any); ok {
		if v, ok := jsonFloat(spot["innerConeAngle"]); ok && v >= 0 && v < math.Pi/2 {
			g.InnerCone = float32(v)
		}
		if v, ok := jsonFloat(spot["outerConeAngle"]); ok && v > 0 && v <= math.Pi/2 {
			g.OuterCone = float32(v)
		}
	}
	l.model.Lights = append(l.model.Lights, g)
}

// lightDefs is extensions.KHR_lights_punctual.lights of the document.
func (l *loader) lightDefs() []any {
	exts, _ := l.root["extensions"].(map[string]any)
	lp, _ := exts["KHR_lights_punctual"].(map[string]any)
	defs, _ := lp["lights"].([]any)
	return defs
}

// jsonIndex is a JSON integer at least 0.
func jsonIndex(v any) (int, bool) {
	f, ok := jsonFloat(v)
	if !ok || f < 0 || f != math.Trunc(f) || f > 1<<30 {
		return 0, false
	}
	return int(f), true
}

// lightParams are the pointers below /extensions/KHR_lights_punctual/lights/N/
// the viewer plays.
var lightParams = map[string]struct {
	p     LightParam
	count int
}{
	"color": {LightColor, 3}, "intensity": {LightIntensity, 1}, "range": {LightRange, 1},
	"spot/innerConeAngle": {LightInnerCone, 1}, "spot/outerConeAngle": {LightOuterCone, 1},
}

// lightChannel is the first pose channel of light li's parameter at path,
// added the first time a pointer animates it, at rest at the light's
// value; ok is false for a parameter not played or a light no shown node
// carries.
func (l *loader) lightChannel(li int, path string) (ch, count int, ok bool) {
	lp, ok := lightParams[path]
	if !ok {
		return 0, 0, false
	}
	for _, lc := range l.model.LightChannels {
		if lc.Index == li && lc.Param == lp.p {
			return lc.Channel, lc.Count, true
		}
	}
	for k := range l.model.Lights {
		if g := &l.model.Lights[k]; g.Index == li {
			sk := &l.model.Skeleton
			lc := LightChannel{Index: li, Param: lp.p, Channel: len(sk.MorphRest), Count: lp.count}
			for _, v := range g.Field(lp.p) {
				sk.MorphRest = append(sk.MorphRest, v)
				sk.MorphJoint = append(sk.MorphJoint, 0)
			}
			l.model.LightChannels = append(l.model.LightChannels, lc)
			return lc.Channel, lc.Count, true
		}
	}
	return 0, 0, false
}
