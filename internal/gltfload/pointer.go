package gltfload

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/qmuntal/gltf"
)

// KHR_animation_pointer: a channel's target is a JSON pointer into the
// document. Pointers to what the viewer draws play through the engine
// like ordinary channels; the others are reported once each.

// pathChannels marks a pointer target that is a run of pose channels: a
// material factor or a camera parameter.
const pathChannels gltf.TRSProperty = "material"

// pointerTarget is what one channel's pointer animates: nodes' path
// (translation, rotation, scale, weights), or for path pathChannels count
// pose channels from channel (a material's or camera's), read with rule;
// path "pointer" is a pointer not played.
type pointerTarget struct {
	nodes          []int
	path           gltf.TRSProperty
	channel, count int
	rule           accessorRule
}

// materialPointer is a material property a pointer may animate: which,
// of which texture slot, and how its keys read.
type materialPointer struct {
	prop  MaterialProperty
	slot  int
	count int
	rule  accessorRule
}

// materialPointers are the pointers below /materials/M/ the viewer plays.
var materialPointers = func() map[string]materialPointer {
	scalar := accessorRule{types: []gltf.AccessorType{gltf.AccessorScalar}, comps: cF}
	vec := func(t gltf.AccessorType) accessorRule { return accessorRule{types: []gltf.AccessorType{t}, comps: cF} }
	m := map[string]materialPointer{
		"pbrMetallicRoughness/baseColorFactor":                        {BaseColorFactor, 0, 4, vec(gltf.AccessorVec4)},
		"alphaCutoff":                                                 {AlphaCutoff, 0, 1, scalar},
		"pbrMetallicRoughness/metallicFactor":                         {MetallicFactor, 0, 1, scalar},
		"pbrMetallicRoughness/roughnessFactor":                        {RoughnessFactor, 0, 1, scalar},
		"emissiveFactor":                                              {EmissiveFactor, 0, 3, vec(gltf.AccessorVec3)},
		"extensions/KHR_materials_emissive_strength/emissiveStrength": {EmissiveStrength, 0, 1, scalar},
		"normalTexture/scale":                                         {NormalScale, 0, 1, scalar},
		"occlusionTexture/strength":                                   {OcclusionStrength, 0, 1, scalar},
	}
	for slot, tex := range [TextureSlots]string{"pbrMetallicRoughness/baseColorTexture", "pbrMetallicRoughness/metallicRoughnessTexture", "normalTexture", "occlusionTexture", "emissiveTexture"} {
		t := tex + "/extensions/KHR_texture_transform/"
		m[t+"offset"] = materialPointer{TextureOffset, slot, 2, vec(gltf.AccessorVec2)}
		m[t+"scale"] = materialPointer{TextureScale, slot, 2, vec(gltf.AccessorVec2)}
		m[t+"rotation"] = materialPointer{TextureRotation, slot, 1, scalar}
	}
	return m
}()

// pointerTarget resolves the KHR_animation_pointer target of channel ci
// of animation ai. A pointer to a node's translation, rotation, scale or
// weights is that node's ordinary channel; one to a mesh's weights
// animates every node that instances the mesh (in node order); one to a
// material factor of materialPointers gets pose channels of its own (see
// Model.MaterialChannels). Any other pointer gives path "pointer" and its
// channel is added to unplayed under the pointer. A channel without the
// extension gives the zero pointerTarget.
func (l *loader) pointerTarget(ai, ci int, unplayed map[string][]string) pointerTarget {
	a := l.rawObject("animations", ai)
	chans, _ := a["channels"].([]any)
	ch, _ := chans[ci].(map[string]any)
	target, _ := ch["target"].(map[string]any)
	exts, _ := target["extensions"].(map[string]any)
	ext, ok := exts["KHR_animation_pointer"].(map[string]any)
	if !ok || target["node"] != nil {
		return pointerTarget{}
	}
	p, _ := ext["pointer"].(string)
	if rest, ok := strings.CutPrefix(p, "/extensions/KHR_lights_punctual/lights/"); ok && len(l.model.Skeleton.Parents) > 0 {
		if i, param, ok := strings.Cut(rest, "/"); ok {
			if li, err := strconv.Atoi(i); err == nil && strconv.Itoa(li) == i {
				if ch, n, ok := l.lightChannel(li, param); ok {
					vec := gltf.AccessorScalar
					if n == 3 {
						vec = gltf.AccessorVec3
					}
					return pointerTarget{path: pathChannels, channel: ch, count: n, rule: accessorRule{types: []gltf.AccessorType{vec}, comps: cF}}
				}
			}
		}
	}
	parts := strings.SplitN(p, "/", 4)
	if len(parts) == 4 && parts[0] == "" {
		i, err := strconv.Atoi(parts[2])
		prop := gltf.TRSProperty(parts[3])
		switch {
		case err != nil || i < 0 || strconv.Itoa(i) != parts[2]:
		case parts[1] == "nodes" && i < len(l.doc.Nodes) && (prop == gltf.TRSTranslation || prop == gltf.TRSRotation || prop == gltf.TRSScale || prop == gltf.TRSWeights):
			return pointerTarget{nodes: []int{i}, path: prop}
		case parts[1] == "meshes" && prop == gltf.TRSWeights && i < len(l.doc.Meshes):
			var nodes []int
			for n, nd := range l.doc.Nodes {
				if nd != nil && nd.Mesh != nil && *nd.Mesh == i {
					nodes = append(nodes, n)
				}
			}
			if nodes != nil {
				return pointerTarget{nodes: nodes, path: prop}
			}
		case parts[1] == "cameras" && i < len(l.doc.Cameras) && l.doc.Cameras[i] != nil && len(l.model.Skeleton.Parents) > 0:
			if ch, ok := l.cameraChannel(i, parts[3]); ok {
				return pointerTarget{path: pathChannels, channel: ch, count: 1, rule: accessorRule{types: []gltf.AccessorType{gltf.AccessorScalar}, comps: cF}}
			}
		case parts[1] == "materials" && i < len(l.model.Materials) && len(l.model.Skeleton.Parents) > 0:
			if mp, ok := materialPointers[parts[3]]; ok {
				return pointerTarget{path: pathChannels, channel: l.materialChannel(i, mp), count: mp.count, rule: mp.rule}
			}
		}
	}
	unplayed[p] = append(unplayed[p], fmt.Sprintf("animations[%d].channels[%d]", ai, ci))
	return pointerTarget{path: "pointer"}
}

// materialChannel is the first pose channel of material m's property mp,
// added after the morph channels the first time a pointer animates it, at
// rest at the material's own value.
func (l *loader) materialChannel(m int, mp materialPointer) int {
	for _, mc := range l.model.MaterialChannels {
		if mc.Material == m && mc.Property == mp.prop && mc.Slot == mp.slot {
			return mc.Channel
		}
	}
	sk := &l.model.Skeleton
	mc := MaterialChannel{Material: m, Property: mp.prop, Slot: mp.slot, Channel: len(sk.MorphRest), Count: mp.count}
	for _, v := range l.model.Materials[m].Field(mp.prop, mp.slot) {
		// The root joint carries them: a joint mask keeps them with the
		// whole body.
		sk.MorphRest = append(sk.MorphRest, v)
		sk.MorphJoint = append(sk.MorphJoint, 0)
	}
	l.model.MaterialChannels = append(l.model.MaterialChannels, mc)
	return mc.Channel
}

// cameraParams are the pointers below /cameras/N/ the viewer plays.
var cameraParams = map[string]CameraParam{
	"perspective/yfov": CameraYFov, "perspective/aspectRatio": CameraAspect, "perspective/znear": CameraZNear,
	"perspective/zfar": CameraZFar, "orthographic/xmag": CameraXMag, "orthographic/ymag": CameraYMag,
	"orthographic/znear": CameraZNear, "orthographic/zfar": CameraZFar,
}

// cameraChannel is the pose channel of glTF camera ci's parameter at path
// (below /cameras/ci/), added the first time a pointer animates it, at
// rest at the camera's value; ok is false for a parameter not played or a
// camera no shown node looks through.
func (l *loader) cameraChannel(ci int, path string) (ch int, ok bool) {
	p, ok := cameraParams[path]
	if !ok {
		return 0, false
	}
	for _, cc := range l.model.CameraChannels {
		if cc.Index == ci && cc.Param == p {
			return cc.Channel, true
		}
	}
	for k := range l.model.Cameras {
		if c := &l.model.Cameras[k]; c.Index == ci {
			sk := &l.model.Skeleton
			cc := CameraChannel{Index: ci, Param: p, Channel: len(sk.MorphRest)}
			sk.MorphRest = append(sk.MorphRest, *c.Param(p))
			sk.MorphJoint = append(sk.MorphJoint, 0)
			l.model.CameraChannels = append(l.model.CameraChannels, cc)
			return cc.Channel, true
		}
	}
	return 0, false
}

// reportUnplayed says once per pointer which KHR_animation_pointer
// targets the viewer does not play, and in which channels.
func (l *loader) reportUnplayed(unplayed map[string][]string) {
	for _, p := range slices.Sorted(maps.Keys(unplayed)) {
		chans := unplayed[p]
		more := ""
		if len(chans) > 3 {
			chans, more = chans[:3], fmt.Sprintf(" and %d more", len(unplayed[p])-3)
		}
		l.issue("VIEWER_NOT_DRAWN", chans[0]+".target.extensions.KHR_animation_pointer.pointer", "%q is not played here (%s%s); ignored", p, strings.Join(chans, ", "), more)
	}
}
