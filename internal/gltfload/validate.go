package gltfload

import (
	"errors"
	"fmt"
	"image"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/qmuntal/gltf"
)

// The validation pass runs once the model has loaded and reports, with
// glTF-Validator's issue codes, what the file gets wrong although the
// viewer can show it: the data against what the JSON declares about it
// (accessor bounds, index values, unit vectors), the object graph (scenes,
// skins, morph targets, animation targets) and the parts the viewer does
// not draw (cameras, images no material uses). Nothing here changes the
// model; problems the loader mends are reported where they are mended.

// codedError is a failure that carries the issue code it is reported by.
type codedError struct {
	code string
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

func withCode(code string, err error) error {
	if err == nil {
		return nil
	}
	return &codedError{code, err}
}

// RefusalCode is the issue code of a refusal from Load or Decode: the
// code of its cause where it has one, else LOAD_REFUSED.
func RefusalCode(err error) string {
	var c *codedError
	if errors.As(err, &c) {
		return c.code
	}
	return "LOAD_REFUSED"
}

// imageCode is the issue code of an image that could not be read.
func imageCode(err error) string {
	var c *codedError
	if errors.As(err, &c) {
		return c.code
	}
	return "IMAGE_DATA_INVALID"
}

// decodeCode classifies an error of the image decoders.
func decodeCode(err error) string {
	switch {
	case errors.Is(err, image.ErrFormat):
		return "IMAGE_UNRECOGNIZED_FORMAT"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "IMAGE_UNEXPECTED_EOS"
	}
	return "IMAGE_DATA_INVALID"
}

func (l *loader) validate() error {
	l.validateJSON()
	l.validateBuffers()
	l.validateAccessorData()
	l.validateMeshes()
	l.validateNodes()
	l.validateSkins()
	l.validateAnimations()
	l.validateCameras()
	l.validateImages()
	return nil
}

// rawObject is the JSON object at root[array][i], or nil.
func (l *loader) rawObject(array string, i int) map[string]any {
	arr, _ := l.root[array].([]any)
	if i < 0 || i >= len(arr) {
		return nil
	}
	obj, _ := arr[i].(map[string]any)
	return obj
}

// uniqueArrays are the arrays whose items glTF requires to be unique
// (skins' joints are reported where they are read).
var uniqueArrays = map[string]bool{"extensionsUsed": true, "extensionsRequired": true, "nodes": true, "children": true}

// validateJSON walks the document for what its schema says of every
// array and extension: arrays are not empty, listed items are unique,
// and every extension used is declared.
func (l *loader) validateJSON() {
	used := map[string]bool{}
	for _, e := range l.doc.ExtensionsUsed {
		used[e] = true
	}
	if used["KHR_mesh_quantization"] && !slices.Contains(l.doc.ExtensionsRequired, "KHR_mesh_quantization") {
		l.issue("NON_REQUIRED_EXTENSION", "extensionsUsed", "KHR_mesh_quantization changes how attributes read, so it belongs in extensionsRequired too")
	}
	for i, e := range l.doc.ExtensionsRequired {
		if !used[e] {
			l.issue("UNUSED_EXTENSION_REQUIRED", fmt.Sprintf("extensionsRequired[%d]", i), "%s is not in extensionsUsed", e)
		}
	}
	var walk func(v any, where string, top bool)
	walk = func(v any, where string, top bool) {
		switch v := v.(type) {
		case []any:
			if len(v) == 0 {
				l.issue("EMPTY_ENTITY", where, "an empty array, where glTF asks for at least one item; ignored")
			}
			key := where[strings.LastIndexByte(where, '.')+1:]
			if uniqueArrays[key] && !(key == "nodes" && top) {
				seen := map[string]int{}
				for i, e := range v {
					k := fmt.Sprint(e)
					if first, ok := seen[k]; ok {
						l.issue("DUPLICATE_ELEMENTS", fmt.Sprintf("%s[%d]", where, i), "%v repeats item %d", e, first)
						continue
					}
					seen[k] = i
				}
			}
			for i, e := range v {
				walk(e, fmt.Sprintf("%s[%d]", where, i), false)
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				if k != "extras" {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				w := k
				if where != "" {
					w = where + "." + k
				}
				if k == "extensions" {
					if exts, ok := v[k].(map[string]any); ok {
						names := make([]string, 0, len(exts))
						for n := range exts {
							names = append(names, n)
						}
						slices.Sort(names)
						kind := objectKind(where)
						for _, n := range names {
							if !used[n] {
								l.issue("UNDECLARED_EXTENSION", w+"."+n, "%s is not declared in extensionsUsed", n)
							}
							if kinds, known := extensionPlaces[n]; known && !slices.Contains(kinds, kind) {
								l.issue("UNEXPECTED_EXTENSION_OBJECT", w+"."+n, "%s does not extend this object; ignored", n)
							}
						}
					}
				}
				walk(v[k], w, where == "")
			}
		}
	}
	walk(map[string]any(l.root), "", true)
}

// extensionPlaces lists, for the Khronos extensions the viewer knows,
// the kinds of object (see objectKind) each may extend.
var extensionPlaces = map[string][]string{
	"KHR_animation_pointer":               {"target"},
	"KHR_draco_mesh_compression":          {"primitive"},
	"KHR_lights_punctual":                 {"root", "node"},
	"KHR_materials_anisotropy":            {"material"},
	"KHR_materials_clearcoat":             {"material"},
	"KHR_materials_dispersion":            {"material"},
	"KHR_materials_emissive_strength":     {"material"},
	"KHR_materials_ior":                   {"material"},
	"KHR_materials_iridescence":           {"material"},
	"KHR_materials_pbrSpecularGlossiness": {"material"},
	"KHR_materials_sheen":                 {"material"},
	"KHR_materials_specular":              {"material"},
	"KHR_materials_transmission":          {"material"},
	"KHR_materials_unlit":                 {"material"},
	"KHR_materials_variants":              {"root", "primitive"},
	"KHR_materials_volume":                {"material"},
	"KHR_mesh_quantization":               {},
	"KHR_node_visibility":                 {"node"},
	"KHR_texture_basisu":                  {"texture"},
	"KHR_texture_transform":               {"textureInfo"},
	"EXT_mesh_gpu_instancing":             {"node"},
	"EXT_meshopt_compression":             {"bufferView", "buffer"},
	"EXT_texture_webp":                    {"texture"},
}

// objectKind names the kind of object at where (glTF's dotted path):
// "root", a top-level array's object ("node", "material", ...),
// "primitive", "target" (an animation channel's), "textureInfo" (any
// member named ...Texture), or "" for the others.
func objectKind(where string) string {
	if where == "" {
		return "root"
	}
	last := where[strings.LastIndexByte(where, '.')+1:]
	if i := strings.IndexByte(last, '['); i >= 0 {
		last = last[:i]
	}
	switch {
	case strings.HasSuffix(last, "Texture"):
		return "textureInfo"
	case last == "primitives":
		return "primitive"
	case last == "target" && strings.HasPrefix(where, "animations["):
		return "target"
	case strings.Contains(where, "."):
		return ""
	}
	for _, t := range topLevel {
		if t.name == last {
			return t.obj
		}
	}
	return ""
}

// validateBuffers checks the form of data URIs: their media type, and
// that their parameters are well formed.
func (l *loader) validateBuffers() {
	for i, v := range l.doc.BufferViews {
		if v == nil || v.ByteStride == 0 {
			continue
		}
		where := fmt.Sprintf("bufferViews[%d].byteStride", i)
		if v.ByteStride > v.ByteLength {
			l.issue("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", where, "%d is more than byteLength %d", v.ByteStride, v.ByteLength)
		}
		if v.Target == gltf.TargetElementArrayBuffer {
			l.issue("BUFFER_VIEW_INVALID_BYTE_STRIDE", where, "a view of indices (target ELEMENT_ARRAY_BUFFER) has no stride")
		}
	}
	for i, b := range l.doc.Buffers {
		if b == nil || !strings.HasPrefix(b.URI, "data:") {
			continue
		}
		where := fmt.Sprintf("buffers[%d].uri", i)
		mt, err := dataURIType(b.URI)
		if err != nil {
			l.issue("INVALID_URI", where, "%v", err)
			continue
		}
		if mt != "application/octet-stream" && mt != "application/gltf-buffer" {
			l.issue("BUFFER_DATA_URI_MIME_TYPE_INVALID", where, "media type %q, want application/octet-stream or application/gltf-buffer", mt)
		}
	}
}

// dataURIType returns the media type of a data URI (RFC 2397) and an
// error where its header is malformed.
func dataURIType(uri string) (string, error) {
	comma := strings.IndexByte(uri, ',')
	if comma < 0 {
		return "", errors.New("data URI has no ',' before its data")
	}
	parts := strings.Split(uri[len("data:"):comma], ";")
	mt := parts[0]
	if mt != "" {
		typ, sub, ok := strings.Cut(mt, "/")
		if !ok || typ == "" || sub == "" || strings.ContainsAny(mt, " \t\"(),:<>@[\\]?=") {
			return "", fmt.Errorf("data URI media type %q is malformed", mt)
		}
	}
	for k, p := range parts[1:] {
		if p == "base64" && k == len(parts)-2 {
			continue
		}
		if name, _, ok := strings.Cut(p, "="); !ok || name == "" {
			return "", fmt.Errorf("data URI parameter %q is malformed", p)
		}
	}
	return mt, nil
}

// validateAccessorData compares every accessor's data with its declared
// bounds and checks that floats are numbers.
func (l *loader) validateAccessorData() {
	for i, a := range l.doc.Accessors {
		if a == nil {
			continue
		}
		lay, err := layoutOf(a)
		if err != nil {
			continue
		}
		where := fmt.Sprintf("accessors[%d]", i)
		if l.dracoDecoded[i] {
			// The bounds describe the values before Draco quantized them.
			continue
		}
		if a.BufferView == nil && a.Sparse == nil {
			// All zeros with nothing behind them: the bounds are the
			// writer's intent, not a claim about data.
			if raw := l.rawObject("accessors", i); raw != nil && raw["byteOffset"] != nil {
				l.issue("UNSATISFIED_DEPENDENCY", where+".byteOffset", "needs a bufferView")
			}
			continue
		}
		n := lay.comps
		lo, hi := make([]float64, n), make([]float64, n)
		for c := range n {
			lo[c], hi[c] = math.Inf(1), math.Inf(-1)
		}
		firstOver, firstUnder := [2]int{-1, -1}, [2]int{-1, -1}
		bad := -1
		hasMin, hasMax := len(a.Min) == n, len(a.Max) == n
		declared := func(v float64) float64 {
			if a.ComponentType == gltf.ComponentFloat {
				return float64(float32(v))
			}
			return v
		}
		check := func(e, c int, v float64) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				if bad < 0 {
					bad = e
				}
				return
			}
			lo[c], hi[c] = min(lo[c], v), max(hi[c], v)
			if hasMax && v > declared(a.Max[c]) && firstOver[0] < 0 {
				firstOver = [2]int{e, c}
			}
			if hasMin && v < declared(a.Min[c]) && firstUnder[0] < 0 {
				firstUnder = [2]int{e, c}
			}
		}
		if a.Sparse == nil {
			err = l.rawAccessor(i, false, check)
		} else {
			// The bounds hold for the values after substitution: collect
			// them first (the sparse values overwrite the base ones).
			vals := make([]float64, a.Count*n)
			err = l.rawAccessor(i, false, func(e, c int, v float64) { vals[e*n+c] = v })
			for k, v := range vals {
				check(k/n, k%n, v)
			}
		}
		if err != nil {
			continue
		}
		if bad >= 0 {
			l.issue("ACCESSOR_INVALID_FLOAT", where, "element %d is not a finite number", bad)
			continue
		}
		if e := firstOver; e[0] >= 0 {
			l.issue("ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", where, "element %d component %d is above max[%d] %v", e[0], e[1], e[1], a.Max[e[1]])
		}
		if e := firstUnder; e[0] >= 0 {
			l.issue("ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", where, "element %d component %d is below min[%d] %v", e[0], e[1], e[1], a.Min[e[1]])
		}
		for c := range n {
			if hasMax && declared(a.Max[c]) != hi[c] {
				l.issue("ACCESSOR_MAX_MISMATCH", fmt.Sprintf("%s.max[%d]", where, c), "declared %v, the data's largest is %v", a.Max[c], hi[c])
				break
			}
		}
		for c := range n {
			if hasMin && declared(a.Min[c]) != lo[c] {
				l.issue("ACCESSOR_MIN_MISMATCH", fmt.Sprintf("%s.min[%d]", where, c), "declared %v, the data's smallest is %v", a.Min[c], lo[c])
				break
			}
		}
	}
}

// accessorOK is whether accessor i exists and its data can be read.
func (l *loader) accessorOK(i int) bool {
	return i >= 0 && i < len(l.doc.Accessors) && l.doc.Accessors[i] != nil && l.checkAccessor(i) == nil
}

// hasData is whether accessor i can be read and has data behind it: one
// without a bufferView or sparse values is zeros the file never wrote,
// which the data checks leave alone (as glTF-Validator does).
func (l *loader) hasData(i int) bool {
	return l.accessorOK(i) && (l.doc.Accessors[i].BufferView != nil || l.doc.Accessors[i].Sparse != nil)
}

// validateMeshes checks primitives' attributes, morph targets and indices
// against glTF's rules. (Unequal target counts are refused, and a weights
// count that does not match them reported, where the meshes load.)
func (l *loader) validateMeshes() {
	for mi, m := range l.doc.Meshes {
		if m == nil {
			continue
		}
		for pi, p := range m.Primitives {
			if p == nil {
				continue
			}
			where := fmt.Sprintf("meshes[%d].primitives[%d]", mi, pi)
			sets := map[string][]int{}
			for _, sem := range slices.Sorted(maps.Keys(p.Attributes)) {
				if acc := p.Attributes[sem]; l.accessorOK(acc) && l.doc.Accessors[acc].ComponentType == gltf.ComponentUint {
					l.issue("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT", where+".attributes."+sem, "accessors[%d] has UNSIGNED_INT components, which vertex attributes may not", acc)
				}
				if strings.HasPrefix(sem, "_") {
					continue
				}
				if _, ok := attributeRule(sem); !ok {
					l.issue("MESH_PRIMITIVE_INVALID_ATTRIBUTE", where+".attributes."+sem, "%q is not a glTF attribute semantic (application-specific ones start with '_'); not read", sem)
					continue
				}
				if base, _, ok := strings.Cut(sem, "_"); ok {
					sets[base] = append(sets[base], setIndex(sem))
				}
			}
			for _, base := range []string{"COLOR", "JOINTS", "TEXCOORD", "WEIGHTS"} {
				idx := sets[base]
				slices.Sort(idx)
				for k, v := range idx {
					if v != k {
						l.issue("MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY", where+".attributes", "%s_%d without %s_%d; sets must be numbered from 0 without gaps", base, v, base, k)
						break
					}
				}
			}
			if acc, ok := p.Attributes[gltf.POSITION]; ok && l.accessorOK(acc) {
				if a := l.doc.Accessors[acc]; a.Min == nil || a.Max == nil {
					l.issue("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", where+".attributes.POSITION", "accessors[%d] has no min and max, which glTF requires of positions", acc)
				}
			}
			for ti, t := range p.Targets {
				for _, sem := range slices.Sorted(maps.Keys(t)) {
					tw := fmt.Sprintf("%s.targets[%d].%s", where, ti, sem)
					if _, ok := p.Attributes[sem]; !ok {
						l.issue("MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR", tw, "the primitive has no %s for this target to displace", sem)
					}
					if acc := t[sem]; sem == gltf.POSITION && l.accessorOK(acc) {
						if a := l.doc.Accessors[acc]; a.Min == nil || a.Max == nil {
							l.issue("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", tw, "accessors[%d] has no min and max, which glTF requires of positions", acc)
						}
					}
				}
			}
			if p.Indices != nil && l.hasData(*p.Indices) {
				acc := *p.Indices
				restart := map[gltf.ComponentType]float64{gltf.ComponentUbyte: 0xFF, gltf.ComponentUshort: 0xFFFF, gltf.ComponentUint: 0xFFFFFFFF}[l.doc.Accessors[acc].ComponentType]
				first := -1
				l.rawAccessor(acc, false, func(e, _ int, v float64) {
					if v == restart && first < 0 {
						first = e
					}
				})
				if first >= 0 {
					l.issue("ACCESSOR_INDEX_PRIMITIVE_RESTART", where+".indices", "index %d is %v, the primitive restart value, which glTF does not allow", first, restart)
				}
			}
			l.validateVectors(where, p.Attributes)
		}
	}
}

// validateVectors checks the values glTF constrains: unit tangents with a
// w of ±1, and float colours in [0, 1].
func (l *loader) validateVectors(where string, attrs map[string]int) {
	if acc, ok := attrs[gltf.TANGENT]; ok && l.hasData(acc) && l.doc.Accessors[acc].Type == gltf.AccessorVec4 {
		var v [4]float64
		sign, unit := -1, -1
		l.rawAccessor(acc, true, func(e, c int, x float64) {
			v[c] = x
			if c < 3 {
				return
			}
			if v[3] != 1 && v[3] != -1 && sign < 0 {
				sign = e
			}
			if math.Abs(math.Sqrt(v[0]*v[0]+v[1]*v[1]+v[2]*v[2])-1) > unitTolerance && unit < 0 {
				unit = e
			}
		})
		if sign >= 0 {
			l.issue("ACCESSOR_INVALID_SIGN", where+".attributes.TANGENT", "tangent %d has w other than 1 or -1", sign)
		}
		if unit >= 0 {
			l.issue("ACCESSOR_VECTOR3_NON_UNIT", where+".attributes.TANGENT", "tangent %d is not of unit length", unit)
		}
	}
	for sem, acc := range attrs {
		if !strings.HasPrefix(sem, "COLOR_") || !l.hasData(acc) || l.doc.Accessors[acc].ComponentType != gltf.ComponentFloat {
			continue
		}
		first := -1
		l.rawAccessor(acc, false, func(e, _ int, x float64) {
			if (x < 0 || x > 1) && first < 0 {
				first = e
			}
		})
		if first >= 0 {
			l.issue("ACCESSOR_NON_CLAMPED", where+".attributes."+sem, "colour %d is outside [0, 1]", first)
		}
	}
}

// unitTolerance is how far from 1 glTF-Validator lets the length of a
// normal or a tangent's xyz be, and quatTolerance a rotation key's
// (errors.dart's unitLengthThresholdVec3 and Vec4): slightly more than
// signed 8-bit quantization's error, so that KHR_mesh_quantization's
// normalized bytes and shorts are unit vectors, as their writers mean.
const (
	unitTolerance = 0.00674
	quatTolerance = 0.00769
)
