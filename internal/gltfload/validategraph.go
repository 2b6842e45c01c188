package gltfload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/qmuntal/gltf"
)

// validateNodes checks the node graph: the first of the object graph's
// checks (nodes, skins, animations, cameras, images) this file holds.
func (l *loader) validateNodes() {
	parent := make([]int, len(l.doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range l.doc.Nodes {
		if n == nil {
			continue
		}
		for _, c := range n.Children {
			if c >= 0 && c < len(parent) {
				parent[c] = i
			}
		}
	}
	l.parents = parent
	for i, n := range l.doc.Nodes {
		if n == nil {
			continue
		}
		where := fmt.Sprintf("nodes[%d]", i)
		if n.Mesh == nil {
			if n.Skin != nil {
				l.issue("UNSATISFIED_DEPENDENCY", where+".skin", "a skin on a node without a mesh; ignored")
			}
			if n.Weights != nil {
				l.issue("UNSATISFIED_DEPENDENCY", where+".weights", "morph weights on a node without a mesh; ignored")
			}
			continue
		}
		mi := *n.Mesh
		if mi < 0 || mi >= len(l.doc.Meshes) || l.doc.Meshes[mi] == nil || len(l.doc.Meshes[mi].Primitives) == 0 {
			continue
		}
		m := l.doc.Meshes[mi]
		if p := m.Primitives[0]; p != nil && n.Weights != nil && len(n.Weights) != len(p.Targets) {
			l.issue("NODE_WEIGHTS_INVALID", where+".weights", "%d weights for the %d morph targets of meshes[%d]", len(n.Weights), len(p.Targets), mi)
		}
		if n.Skin != nil && !slices.ContainsFunc(m.Primitives, skinnedPrimitive) {
			l.issue("NODE_SKIN_WITH_NON_SKINNED_MESH", where, "has skins[%d] but meshes[%d] has no JOINTS_0/WEIGHTS_0; drawn rigidly", *n.Skin, mi)
		}
		if n.Skin == nil && slices.ContainsFunc(m.Primitives, skinnedPrimitive) {
			l.issue("NODE_SKINNED_MESH_WITHOUT_SKIN", where, "meshes[%d] has JOINTS_0/WEIGHTS_0 but the node has no skin; drawn rigidly", mi)
		}
	}
	for si, s := range l.doc.Scenes {
		if s == nil {
			continue
		}
		for k, ni := range s.Nodes {
			if ni >= 0 && ni < len(parent) && parent[ni] >= 0 {
				l.issue("SCENE_NON_ROOT_NODE", fmt.Sprintf("scenes[%d].nodes[%d]", si, k), "nodes[%d] is a child of nodes[%d]; a scene lists root nodes only", ni, parent[ni])
			}
		}
	}
}

// rootOf is the topmost ancestor of node n (cycles are refused earlier).
func (l *loader) rootOf(n int) int {
	for steps := 0; l.parents[n] >= 0 && steps <= len(l.parents); steps++ {
		n = l.parents[n]
	}
	return n
}

// isAncestor says whether a is n or one of n's ancestors.
func (l *loader) isAncestor(a, n int) bool {
	for steps := 0; n >= 0 && steps <= len(l.parents); steps++ {
		if n == a {
			return true
		}
		n = l.parents[n]
	}
	return false
}

func (l *loader) validateSkins() {
	valid := func(n int) bool { return n >= 0 && n < len(l.parents) }
	for si, s := range l.doc.Skins {
		if s == nil || len(s.Joints) == 0 {
			continue
		}
		where := fmt.Sprintf("skins[%d]", si)
		root := -1
		common := true
		for _, j := range s.Joints {
			if !valid(j) {
				common = false
				break
			}
			if r := l.rootOf(j); root < 0 {
				root = r
			} else if r != root {
				l.issue("SKIN_NO_COMMON_ROOT", where+".joints", "nodes[%d] and nodes[%d] are in different trees; a skin's joints have one common root", s.Joints[0], j)
				common = false
				break
			}
		}
		if s.Skeleton != nil && valid(*s.Skeleton) && common {
			for _, j := range s.Joints {
				if !l.isAncestor(*s.Skeleton, j) {
					l.issue("SKIN_SKELETON_INVALID", where+".skeleton", "nodes[%d] is not an ancestor of joint nodes[%d]", *s.Skeleton, j)
					break
				}
			}
		}
		if s.InverseBindMatrices != nil && l.hasData(*s.InverseBindMatrices) && l.doc.Accessors[*s.InverseBindMatrices].Type == gltf.AccessorMat4 {
			bad := -1
			l.rawAccessor(*s.InverseBindMatrices, false, func(e, c int, v float64) {
				want := 0.0
				if c == 15 {
					want = 1
				}
				if (c == 3 || c == 7 || c == 11 || c == 15) && v != want && bad < 0 {
					bad = e
				}
			})
			if bad >= 0 {
				l.issue("ACCESSOR_INVALID_IBM", fmt.Sprintf("accessors[%d]", *s.InverseBindMatrices), "inverse bind matrix %d does not end in the row 0 0 0 1", bad)
			}
		}
	}
	// A node drawn with a skin needs the skin's joints in its scene.
	for sci, sc := range l.doc.Scenes {
		if sc == nil {
			continue
		}
		in := map[int]bool{}
		for _, r := range sc.Nodes {
			if valid(r) {
				in[r] = true
			}
		}
		for n := range l.parents {
			if r := l.rootOf(n); in[r] {
				in[n] = true
			}
		}
		for n, nd := range l.doc.Nodes {
			if nd == nil || !in[n] || nd.Skin == nil || nd.Mesh == nil || *nd.Skin < 0 || *nd.Skin >= len(l.doc.Skins) || l.doc.Skins[*nd.Skin] == nil {
				continue
			}
			for _, j := range l.doc.Skins[*nd.Skin].Joints {
				if valid(j) && !in[j] {
					l.issue("NODE_SKIN_NO_SCENE", fmt.Sprintf("nodes[%d]", n), "in scenes[%d], but joint nodes[%d] of its skin is not", sci, j)
					break
				}
			}
		}
	}
}

func (l *loader) validateAnimations() {
	for ai, a := range l.doc.Animations {
		if a == nil {
			continue
		}
		for si, s := range a.Samplers {
			if s == nil || !l.accessorOK(s.Input) {
				continue
			}
			where := fmt.Sprintf("animations[%d].samplers[%d]", ai, si)
			in := l.doc.Accessors[s.Input]
			if in.Min == nil || in.Max == nil {
				l.issue("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", where+".input", "accessors[%d] has no min and max, which glTF requires of key times", s.Input)
			}
			if s.Interpolation == gltf.InterpolationCubicSpline && in.Count < 2 {
				l.issue("ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", where+".input", "%d key for CUBICSPLINE, which needs at least 2", in.Count)
			}
		}
		for ci, ch := range a.Channels {
			if ch == nil {
				continue
			}
			l.validatePointerTarget(ai, ci)
			if ch.Target.Node == nil {
				continue
			}
			switch ch.Target.Path {
			case gltf.TRSTranslation, gltf.TRSRotation, gltf.TRSScale:
				if nd := l.rawObject("nodes", *ch.Target.Node); nd != nil && nd["matrix"] != nil {
					l.issue("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", fmt.Sprintf("animations[%d].channels[%d].target.node", ai, ci), "nodes[%d] has a matrix; glTF animates only nodes given as translation, rotation and scale", *ch.Target.Node)
				}
			}
		}
	}
}

// validatePointerTarget checks a channel target extended by
// KHR_animation_pointer: its path is "pointer", it names no node, and its
// pointer is a JSON pointer. What such channels animate is read in
// loadAnimations (pointerTargets).
func (l *loader) validatePointerTarget(ai, ci int) {
	anim := l.rawObject("animations", ai)
	chans, _ := anim["channels"].([]any)
	ch, _ := chans[ci].(map[string]any)
	target, _ := ch["target"].(map[string]any)
	exts, _ := target["extensions"].(map[string]any)
	ext, ok := exts["KHR_animation_pointer"].(map[string]any)
	if !ok {
		return
	}
	where := fmt.Sprintf("animations[%d].channels[%d].target.extensions.KHR_animation_pointer", ai, ci)
	if target["path"] != "pointer" {
		l.issue("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH", where, "the target's path must be \"pointer\"")
	}
	if target["node"] != nil {
		l.issue("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", where, "the target must not name a node as well")
	}
	switch p, ok := ext["pointer"].(string); {
	case !ok:
		l.issue("UNDEFINED_PROPERTY", where, "pointer is required")
	case !strings.HasPrefix(p, "/"):
		l.issue("PATTERN_MISMATCH", where+".pointer", "%q is not a JSON pointer (it starts with '/')", p)
	}
}

// deref is *p, or 0 for nil.
func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func (l *loader) validateCameras() {
	for i, c := range l.doc.Cameras {
		if c == nil {
			continue
		}
		where := fmt.Sprintf("cameras[%d]", i)
		if o := c.Orthographic; o != nil {
			if o.Xmag == 0 || o.Ymag == 0 {
				l.issue("CAMERA_XMAG_YMAG_ZERO", where+".orthographic", "xmag and ymag must not be zero")
			} else if o.Xmag < 0 || o.Ymag < 0 {
				l.issue("CAMERA_XMAG_YMAG_NEGATIVE", where+".orthographic", "xmag or ymag is negative: the image is flipped")
			}
			if o.Zfar <= o.Znear {
				l.issue("CAMERA_ZFAR_LEQUAL_ZNEAR", where+".orthographic.zfar", "%v is not beyond znear %v", o.Zfar, o.Znear)
			}
			if o.Znear < 0 {
				l.issue("VALUE_NOT_IN_RANGE", where+".orthographic.znear", "%v: must be 0 or more", o.Znear)
			}
		}
		if p := c.Perspective; p != nil {
			// The schema's exclusive minimums.
			for _, v := range []struct {
				name string
				val  float64
				set  bool
			}{{"yfov", p.Yfov, true}, {"znear", p.Znear, true}, {"aspectRatio", deref(p.AspectRatio), p.AspectRatio != nil}} {
				if v.set && !(v.val > 0) {
					l.issue("VALUE_NOT_IN_RANGE", where+".perspective."+v.name, "%v: must be more than 0", v.val)
				}
			}
			if p.Zfar != nil && *p.Zfar <= p.Znear {
				l.issue("CAMERA_ZFAR_LEQUAL_ZNEAR", where+".perspective.zfar", "%v is not beyond znear %v", *p.Zfar, p.Znear)
			}
			if p.Yfov >= math.Pi {
				l.issue("CAMERA_YFOV_GEQUAL_PI", where+".perspective.yfov", "%v radians is half a turn or more", p.Yfov)
			}
		}
	}
}

// validateImages reads the images no material of the viewer's uses as it
// reads the others, under a budget of its own, so that a broken one is
// reported all the same.
func (l *loader) validateImages() {
	for i := range l.doc.Textures {
		for _, ext := range []string{"EXT_texture_webp", "KHR_texture_basisu"} {
			tex := l.rawObject("textures", i)
			exts, _ := tex["extensions"].(map[string]any)
			e, _ := exts[ext].(map[string]any)
			if n, ok := e["source"].(json.Number); ok {
				if v, err := n.Int64(); err != nil || v < 0 || v >= int64(len(l.doc.Images)) {
					l.issue("UNRESOLVED_REFERENCE", fmt.Sprintf("textures[%d].extensions.%s.source", i, ext), "images[%s] does not exist (%d images)", n, len(l.doc.Images))
				}
			}
		}
	}
	budget := int64(totalTexturePixels)
	for i, im := range l.doc.Images {
		if im == nil {
			continue
		}
		where := fmt.Sprintf("images[%d]", i)
		if im.BufferView != nil {
			if im.MimeType == "" {
				l.issue("UNSATISFIED_DEPENDENCY", where+".bufferView", "an image in a bufferView needs a mimeType")
			}
			if v := *im.BufferView; v >= 0 && v < len(l.doc.BufferViews) && l.doc.BufferViews[v] != nil && l.doc.BufferViews[v].ByteStride != 0 {
				l.issue("IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", where+".bufferView", "bufferViews[%d] has a byteStride, which image data has no use for; ignored", v)
			}
		}
		mime := im.MimeType
		if strings.HasPrefix(im.URI, "data:") {
			mime, _ = dataURIType(im.URI)
		} else if strings.HasSuffix(strings.ToLower(im.URI), ".webp") {
			mime = "image/webp"
		} else if strings.HasSuffix(strings.ToLower(im.URI), ".ktx2") {
			mime = "image/ktx2"
		}
		if mime == "image/webp" && !slices.Contains(l.doc.ExtensionsUsed, extWebP) {
			l.issue("IMAGE_NON_ENABLED_MIME_TYPE", where, "a WebP image without EXT_texture_webp in extensionsUsed; not read")
			continue
		}
		if mime == "image/ktx2" {
			// KTX2 is not decoded here (see decodeTextures).
			if !slices.Contains(l.doc.ExtensionsUsed, extBasisu) {
				l.issue("IMAGE_NON_ENABLED_MIME_TYPE", where, "a KTX2 image without KHR_texture_basisu in extensionsUsed; not read")
			}
			continue
		}
		if _, done := l.images[i]; done {
			continue
		}
		_, err := l.readImage(i, &budget)
		if err != nil {
			l.issue(imageCode(err), where, "%v", err)
		}
	}
}

// jpegMarkers walks the marker segments of JPEG data up to its first scan
// (ITU T.81 B.1.1): Go's decoder reads a malformed marker as the end of
// the data, which would be reported as a truncated image.
func jpegMarkers(data []byte) error {
	if imageType(data) != "image/jpeg" {
		return nil
	}
	eos := withCode("IMAGE_UNEXPECTED_EOS", errors.New("cannot decode: the JPEG data ends before its first scan"))
	p := 2
	for {
		if p >= len(data) {
			return eos
		}
		if data[p] != 0xFF {
			return withCode("IMAGE_DATA_INVALID", fmt.Errorf("cannot decode: byte %d of the JPEG data is not a marker", p))
		}
		for p < len(data) && data[p] == 0xFF { // fill bytes
			p++
		}
		if p >= len(data) {
			return eos
		}
		m := data[p]
		p++
		switch {
		case m == 0xDA: // start of scan: the rest is entropy-coded
			return nil
		case m >= 0xD0 && m <= 0xD8, m == 0x01:
			continue // no length
		case m < 0xC0:
			return withCode("IMAGE_DATA_INVALID", fmt.Errorf("cannot decode: JPEG marker 0x%02X at byte %d is not a marker", m, p-1))
		}
		if p+2 > len(data) {
			return eos
		}
		n := int(data[p])<<8 | int(data[p+1])
		if n < 2 {
			return withCode("IMAGE_DATA_INVALID", fmt.Errorf("cannot decode: JPEG segment length %d at byte %d", n, p))
		}
		p += n
	}
}

// imageType is the media type of encoded image data, from its signature.
func imageType(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(data, []byte("\xABKTX 20\xBB\r\n\x1A\n")):
		return "image/ktx2"
	}
	return ""
}

// skinnedPrimitive says whether p has JOINTS_0.
func skinnedPrimitive(p *gltf.Primitive) bool {
	if p == nil {
		return false
	}
	_, ok := p.Attributes["JOINTS_0"]
	return ok
}
