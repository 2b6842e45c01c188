package gltfload

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

// Channels whose targets are KHR_animation_pointer JSON pointers play as
// the ordinary channels they name: node translation, rotation, scale and
// weights, and a mesh's weights on every node that instances the mesh.

// pointerPair is the skinned document with a morph target and three
// channels (a rotation, a translation and morph weights) given once as
// ordinary targets and once as pointers, the weights through the mesh.
func pointerPair(t *testing.T) (plain, pointer jdoc) {
	plain, pointer = skinnedDoc(t), skinnedDoc(t)
	for _, d := range []jdoc{plain, pointer} {
		d.raw(t, "meshes/0/primitives/0/targets", `[{"POSITION": 1}]`)
		d.add(t, "animations/0/samplers", `{"input": 7, "output": 7}`)
	}
	plain.add(t, "animations/0/channels", `{"sampler": 2, "target": {"node": 0, "path": "weights"}}`)
	pointer.raw(t, "animations/0/channels", `[
	  {"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/nodes/1/rotation"}}}},
	  {"sampler": 1, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/nodes/2/translation"}}}},
	  {"sampler": 2, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/meshes/0/weights"}}}}]`)
	pointer.raw(t, "extensionsUsed", `["KHR_animation_pointer"]`)
	return plain, pointer
}

func TestPointerChannelsPlayAsOrdinaryOnes(t *testing.T) {
	plain, pointer := pointerPair(t)
	a, err := Decode(plain.bytes(t), nil, "plain.gltf")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Decode(pointer.bytes(t), nil, "pointer.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Clips) != 1 || len(b.Clips) != 1 {
		t.Fatalf("%d and %d clips, want one each", len(a.Clips), len(b.Clips))
	}
	ca, cb := a.Clips[0], b.Clips[0]
	if len(ca.Tracks) != 2 || len(ca.Morph) != 1 {
		t.Fatalf("the plain file has %d tracks and %d morph tracks, want 2 and 1", len(ca.Tracks), len(ca.Morph))
	}
	if !reflect.DeepEqual(ca.Tracks, cb.Tracks) || !reflect.DeepEqual(ca.Morph, cb.Morph) || ca.Duration != cb.Duration {
		t.Fatalf("pointer clip differs:\n plain   %+v %+v\n pointer %+v %+v", ca.Tracks, ca.Morph, cb.Tracks, cb.Morph)
	}
	if lines := b.Report.Lines(Info, 0); len(lines) != 0 {
		t.Fatalf("want no report line above hints, got %q", lines)
	}
}

// A mesh's weights animate every node that instances it; a pointer the
// viewer does not play is named once, however many channels use it.
func TestPointerMeshWeightsAndUnplayedPointers(t *testing.T) {
	_, d := pointerPair(t)
	d.add(t, "nodes", `{"mesh": 0, "skin": 0}`)
	d.raw(t, "scenes/0/nodes", `[0, 1, 3]`)
	for range 2 {
		d.add(t, "animations/0/channels", `{"sampler": 2, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/cameras/0/perspective/yfov"}}}}`)
	}
	m, err := Decode(d.bytes(t), nil, "pointer.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c := m.Clips[0]
	if len(c.Morph) != 2 || c.Morph[0].Channel == c.Morph[1].Channel {
		t.Fatalf("want the mesh's weights on two nodes' morph channels, got %+v", c.Morph)
	}
	if c.Morph[0].Channel != m.NodeMorph[0] || c.Morph[1].Channel != m.NodeMorph[3] {
		t.Fatalf("morph channels %d, %d; want nodes 0 and 3's: %d, %d", c.Morph[0].Channel, c.Morph[1].Channel, m.NodeMorph[0], m.NodeMorph[3])
	}
	named := messagesWith(m, "/cameras/0/perspective/yfov")
	if len(named) != 1 || !strings.Contains(named[0], "channels[3], animations[0].channels[4]") {
		t.Fatalf("want one line naming the pointer and both channels, got %q", named)
	}
}

// messagesWith is the messages of m's report that contain sub, in order.
func messagesWith(m *Model, sub string) []string {
	var out []string
	for _, i := range m.Report.Issues {
		if strings.Contains(i.Message, sub) {
			out = append(out, i.Message)
		}
	}
	return out
}

// TestMaterialPointerPlays: a KHR_animation_pointer channel on a material
// factor (no node: its target is a run of pose channels) plays: the
// skinned document's rotation sampler (unit VEC4 keys) driving
// materials[0]'s baseColorFactor becomes one material channel of four
// pose channels and a clip track on them with that sampler's times and
// values, beside the node tracks.
func TestMaterialPointerPlays(t *testing.T) {
	d := skinnedDoc(t)
	d.add(t, "animations/0/channels", `{"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/materials/0/pbrMetallicRoughness/baseColorFactor"}}}}`)
	d.raw(t, "extensionsUsed", `["KHR_animation_pointer"]`)
	m, err := Decode(d.bytes(t), nil, "pointer.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.MaterialChannels) != 1 || len(m.Clips) != 1 {
		t.Fatalf("%d material channels, %d clips; want one of each", len(m.MaterialChannels), len(m.Clips))
	}
	mc, c := m.MaterialChannels[0], m.Clips[0]
	if mc.Material != 0 || mc.Property != BaseColorFactor || mc.Count != 4 {
		t.Errorf("material channel %+v; want materials[0]'s base colour, 4 channels", mc)
	}
	var rot *anim.Track
	for i := range c.Tracks {
		if c.Tracks[i].Path == anim.Rotation {
			rot = &c.Tracks[i]
		}
	}
	if rot == nil || len(c.Morph) != 1 {
		t.Fatalf("tracks %+v, morph %+v; want the rotation track and one track on the material's channels", c.Tracks, c.Morph)
	}
	mt := c.Morph[0]
	// (The rotation track's keys are normalized, the factor's kept: the
	// same within a float32 rounding.)
	near := slices.EqualFunc(mt.Values, rot.Values, func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-6 })
	if mt.Channel != mc.Channel || mt.Count != 4 || !slices.Equal(mt.Times, rot.Times) || !near {
		t.Errorf("material track %+v; want channels %d…+4 keyed as the rotation track %+v", mt, mc.Channel, *rot)
	}
}

// TestLightPointerPlays: pointers to a punctual light's color (VEC3 keys)
// and intensity (SCALAR keys) play on pose channels of their own, at rest
// at the light's values; a second channel on the same parameter shares its
// pose channels; a light index written with a leading zero, a parameter the
// viewer does not play and a pointer to the light itself are named as not
// played.
func TestLightPointerPlays(t *testing.T) {
	d := skinnedDoc(t)
	d.raw(t, "extensions", `{"KHR_lights_punctual": {"lights": [{"type": "point", "color": [1, 0.5, 0.25], "intensity": 3}]}}`)
	d.raw(t, "nodes/1/extensions", `{"KHR_lights_punctual": {"light": 0}}`)
	d.raw(t, "extensionsUsed", `["KHR_animation_pointer", "KHR_lights_punctual"]`)
	d.add(t, "animations/0/samplers", `{"input": 7, "output": 7}`)
	ptr := func(sampler int, p string) string {
		return `{"sampler": ` + itoa(sampler) + `, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "` + p + `"}}}}`
	}
	const lights = "/extensions/KHR_lights_punctual/lights/"
	for _, c := range []string{ptr(1, lights+"0/color"), ptr(2, lights+"0/intensity"), ptr(1, lights+"0/color"),
		ptr(2, lights+"00/intensity"), ptr(2, lights+"0/shadow"), ptr(2, lights+"0")} {
		d.add(t, "animations/0/channels", c)
	}
	m, err := Decode(d.bytes(t), nil, "light.gltf")
	if err != nil {
		t.Fatal(err)
	}
	lc := m.LightChannels
	if len(lc) != 2 || lc[0].Param != LightColor || lc[0].Count != 3 || lc[1].Param != LightIntensity || lc[1].Count != 1 ||
		lc[0].Index != 0 || lc[1].Index != 0 || lc[1].Channel != lc[0].Channel+3 {
		t.Fatalf("light channels %+v; want light 0's color (3) and then its intensity (1)", lc)
	}
	if rest := m.Skeleton.MorphRest[lc[0].Channel : lc[0].Channel+4]; !slices.Equal(rest, []float32{1, 0.5, 0.25, 3}) {
		t.Errorf("the channels rest at %v, want the light's color and intensity 1 0.5 0.25 3", rest)
	}
	var got []string
	for _, mt := range m.Clips[0].Morph {
		got = append(got, itoa(mt.Channel)+"×"+itoa(mt.Count)+":"+strings.Trim(strings.Join(strings.Fields(fmt.Sprint(mt.Values)), " "), "[]"))
	}
	c0, c1 := itoa(lc[0].Channel), itoa(lc[1].Channel)
	want := []string{c0 + "×3:0 0 0 0 1 0", c1 + "×1:0 1", c0 + "×3:0 0 0 0 1 0"}
	if !slices.Equal(got, want) {
		t.Errorf("morph tracks %q, want %q", got, want)
	}
	for k, p := range []string{lights + "00/intensity", lights + "0/shadow", lights + "0"} {
		named := messagesWith(m, `"`+p+`" is not played`)
		if len(named) != 1 || !strings.Contains(named[0], "channels["+itoa(5+k)+"]") {
			t.Errorf("%s: %q, want one line naming channel %d", p, named, 5+k)
		}
	}
}

// An unplayed pointer's line names up to three channels, and how many
// more there are past three.
func TestUnplayedPointerNamesThreeChannels(t *testing.T) {
	d := skinnedDoc(t)
	d.raw(t, "extensionsUsed", `["KHR_animation_pointer"]`)
	for k := range 7 {
		p := "/asset/three"
		if k >= 3 {
			p = "/asset/four"
		}
		d.add(t, "animations/0/channels", `{"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "`+p+`"}}}}`)
	}
	m, err := Decode(d.bytes(t), nil, "pointer.gltf")
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		"/asset/three": "(animations[0].channels[2], animations[0].channels[3], animations[0].channels[4]); ignored",
		"/asset/four":  "(animations[0].channels[5], animations[0].channels[6], animations[0].channels[7] and 1 more); ignored",
	} {
		if named := messagesWith(m, `"`+p+`"`); len(named) != 1 || !strings.HasSuffix(named[0], want) {
			t.Errorf("%s: %q, want one line ending %q", p, named, want)
		}
	}
}
