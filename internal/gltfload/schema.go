package gltfload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The schema pass checks the raw JSON against the glTF 2.0 JSON schema
// before the typed decode: every known property's JSON type, required
// properties, enumerations, integer ranges and that every index names an
// existing object. The typed decoder (qmuntal/gltf) would refuse most of
// these too, but with messages that name neither the object nor its index.

// maxObjects caps each top-level array. An object of a few bytes ("{}")
// becomes a few hundred in memory, and every node a joint posed each
// frame: a character has hundreds, not hundreds of thousands.
const maxObjects = 1 << 16

// maxJSONInt is the largest integer JSON numbers carry exactly. Keeping
// every integer below it also keeps offset arithmetic far from overflow.
const maxJSONInt = 1<<53 - 1

type jkind uint8

const (
	jAny jkind = iota
	jObject
	jArray
	jMap // an object whose members all follow elem (attributes, targets)
	jString
	jNumber
	jInteger
	jBool
)

func (k jkind) String() string {
	return [...]string{"any value", "object", "array", "object", "string", "number", "integer", "boolean"}[k]
}

// field describes one property's JSON value.
type field struct {
	kind     jkind
	obj      string  // jObject: the schema object it follows
	elem     *field  // jArray, jMap: the items
	min      int64   // jInteger: smallest value
	max      int64   // jInteger: largest value (0: maxJSONInt)
	ref      string  // jInteger: index into this top-level array
	enumI    []int64 // jInteger: allowed values
	enumS    []string
	minItems int // jArray, jMap
	maxItems int // jArray (0: any)
	req      bool
}

func integer(min int64) field { return field{kind: jInteger, min: min} }
func index(ref string) field  { return field{kind: jInteger, ref: ref} }
func number() field           { return field{kind: jNumber} }
func str() field              { return field{kind: jString} }
func boolean() field          { return field{kind: jBool} }
func object(name string) field {
	return field{kind: jObject, obj: name}
}
func arrayOf(f field, minItems, maxItems int) field {
	return field{kind: jArray, elem: &f, minItems: minItems, maxItems: maxItems}
}
func mapOf(f field, minItems int) field { return field{kind: jMap, elem: &f, minItems: minItems} }
func enumInt(v ...int64) field          { return field{kind: jInteger, enumI: v} }
func enumStr(v ...string) field         { return field{kind: jString, enumS: v} }
func required(f field) field            { f.req = true; return f }

// topLevel lists the arrays indices may point into, with their objects.
var topLevel = []struct{ name, obj string }{
	{"accessors", "accessor"}, {"animations", "animation"}, {"buffers", "buffer"},
	{"bufferViews", "bufferView"}, {"cameras", "camera"}, {"images", "image"},
	{"materials", "material"}, {"meshes", "mesh"}, {"nodes", "node"},
	{"samplers", "sampler"}, {"scenes", "scene"}, {"skins", "skin"}, {"textures", "texture"},
}

var schema = map[string]map[string]field{
	"glTF": {
		"asset":              required(object("asset")),
		"extensionsUsed":     arrayOf(str(), 0, 0),
		"extensionsRequired": arrayOf(str(), 0, 0),
		"scene":              index("scenes"),
	},
	"asset": {
		"version":    required(str()),
		"minVersion": str(),
		"copyright":  str(),
		"generator":  str(),
	},
	"accessor": {
		"bufferView":    index("bufferViews"),
		"byteOffset":    integer(0),
		"componentType": required(enumInt(5120, 5121, 5122, 5123, 5125, 5126)),
		"normalized":    boolean(),
		"count":         required(integer(1)),
		"type":          required(enumStr("SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4")),
		"max":           arrayOf(number(), 1, 16),
		"min":           arrayOf(number(), 1, 16),
		"sparse":        object("sparse"),
	},
	"sparse": {
		"count":   required(integer(1)),
		"indices": required(object("sparseIndices")),
		"values":  required(object("sparseValues")),
	},
	"sparseIndices": {
		"bufferView":    required(index("bufferViews")),
		"byteOffset":    integer(0),
		"componentType": required(enumInt(5121, 5123, 5125)),
	},
	"sparseValues": {
		"bufferView": required(index("bufferViews")),
		"byteOffset": integer(0),
	},
	"animation": {
		"channels": required(arrayOf(object("channel"), 1, 0)),
		"samplers": required(arrayOf(object("animationSampler"), 1, 0)),
	},
	"channel": {
		"sampler": required(integer(0)), // an index into the animation's own samplers: checked by the animation
		"target":  required(object("target")),
	},
	"target": {
		"node": index("nodes"),
		"path": required(str()), // extensions may add paths: unknown ones are ignored with a warning
	},
	"animationSampler": {
		"input":         required(index("accessors")),
		"interpolation": enumStr("LINEAR", "STEP", "CUBICSPLINE"),
		"output":        required(index("accessors")),
	},
	"buffer": {
		"uri":        str(),
		"byteLength": required(integer(1)),
	},
	"bufferView": {
		"buffer":     required(index("buffers")),
		"byteOffset": integer(0),
		"byteLength": required(integer(1)),
		"byteStride": field{kind: jInteger, min: 0, max: 252},
		"target":     field{kind: jInteger, max: 65535}, // 34962 or 34963; another value is harmless here
	},
	"camera": {
		"type":         required(enumStr("perspective", "orthographic")),
		"perspective":  object("perspective"),
		"orthographic": object("orthographic"),
	},
	"perspective": {
		"aspectRatio": number(),
		"yfov":        required(number()),
		"zfar":        number(),
		"znear":       required(number()),
	},
	"orthographic": {
		"xmag":  required(number()),
		"ymag":  required(number()),
		"zfar":  required(number()),
		"znear": required(number()),
	},
	"image": {
		"uri":        str(),
		"mimeType":   str(),
		"bufferView": index("bufferViews"),
	},
	"material": {
		"pbrMetallicRoughness": object("pbr"),
		"normalTexture":        object("normalTextureInfo"),
		"occlusionTexture":     object("occlusionTextureInfo"),
		"emissiveTexture":      object("textureInfo"),
		"emissiveFactor":       arrayOf(number(), 3, 3),
		"alphaMode":            enumStr("OPAQUE", "MASK", "BLEND"),
		"alphaCutoff":          number(),
		"doubleSided":          boolean(),
	},
	"pbr": {
		"baseColorFactor":          arrayOf(number(), 4, 4),
		"baseColorTexture":         object("textureInfo"),
		"metallicFactor":           number(),
		"roughnessFactor":          number(),
		"metallicRoughnessTexture": object("textureInfo"),
	},
	"textureInfo": {
		"index":    required(index("textures")),
		"texCoord": integer(0),
	},
	"normalTextureInfo": {
		"index":    required(index("textures")),
		"texCoord": integer(0),
		"scale":    number(),
	},
	"occlusionTextureInfo": {
		"index":    required(index("textures")),
		"texCoord": integer(0),
		"strength": number(),
	},
	"mesh": {
		"primitives": required(arrayOf(object("primitive"), 1, 0)),
		"weights":    arrayOf(number(), 1, 0),
	},
	"primitive": {
		"attributes": required(mapOf(index("accessors"), 1)),
		"indices":    index("accessors"),
		"material":   index("materials"),
		"mode":       enumInt(0, 1, 2, 3, 4, 5, 6),
		"targets":    arrayOf(mapOf(index("accessors"), 1), 1, 0),
	},
	"node": {
		"camera":      index("cameras"),
		"children":    arrayOf(index("nodes"), 0, 0),
		"skin":        index("skins"),
		"matrix":      arrayOf(number(), 16, 16),
		"mesh":        index("meshes"),
		"rotation":    arrayOf(number(), 4, 4),
		"scale":       arrayOf(number(), 3, 3),
		"translation": arrayOf(number(), 3, 3),
		"weights":     arrayOf(number(), 1, 0),
	},
	"sampler": {
		"magFilter": enumInt(9728, 9729),
		"minFilter": enumInt(9728, 9729, 9984, 9985, 9986, 9987),
		"wrapS":     enumInt(33071, 33648, 10497),
		"wrapT":     enumInt(33071, 33648, 10497),
	},
	"scene": {
		"nodes": arrayOf(index("nodes"), 0, 0),
	},
	"skin": {
		"inverseBindMatrices": index("accessors"),
		"skeleton":            index("nodes"),
		"joints":              required(arrayOf(index("nodes"), 1, 0)),
	},
	"texture": {
		"sampler": index("samplers"),
		"source":  index("images"),
	},
}

func init() {
	for _, t := range topLevel {
		schema["glTF"][t.name] = arrayOf(object(t.obj), 0, 0)
	}
	// Every object may carry a name (most do), extensions and extras.
	for name, props := range schema {
		props["extensions"] = field{kind: jObject, obj: "extensions"}
		props["extras"] = field{kind: jAny}
		if _, ok := props["name"]; !ok && name != "glTF" && name != "asset" {
			props["name"] = str()
		}
	}
}

// parseJSON decodes the document into generic values, numbers kept as
// json.Number so that integers are judged exactly.
func parseJSON(js []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			line, col := lineCol(js, int64(len(js)))
			return nil, fmt.Errorf("JSON syntax error at line %d, column %d: unexpected end of the document", line, col)
		}
		return nil, jsonError(err, js)
	}
	off := dec.InputOffset()
	for off < int64(len(js)) && strings.IndexByte(" \t\r\n", js[off]) >= 0 {
		off++
	}
	var extra any
	if err := dec.Decode(&extra); err != io.EOF {
		line, col := lineCol(js, off)
		return nil, fmt.Errorf("JSON syntax error at line %d, column %d: data after the end of the document", line, col)
	}
	obj, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the document is a JSON %s, want an object", kindOf(root))
	}
	return obj, nil
}

// schemaChecker walks the generic document. path is a stack of segments,
// formatted only when there is something to report.
type schemaChecker struct {
	root map[string]any
	path []any // string (member) or int (array index)
	l    *loader
	// stripped is set when a harmless violation was removed from the tree,
	// which the typed decoder would otherwise refuse.
	stripped bool
	// replacement, when set, is the value to put where value() just looked.
	replacement any
}

func (c *schemaChecker) replaceIn(obj map[string]any, k string) {
	if c.replacement != nil {
		obj[k], c.replacement = c.replacement, nil
	}
}

func (c *schemaChecker) where() string {
	var b strings.Builder
	for _, s := range c.path {
		switch s := s.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		case int:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s))
			b.WriteByte(']')
		}
	}
	if b.Len() == 0 {
		return "document"
	}
	return b.String()
}

func (c *schemaChecker) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %s", c.where(), fmt.Sprintf(format, args...))
}

func (c *schemaChecker) push(s any) { c.path = append(c.path, s) }
func (c *schemaChecker) pop()       { c.path = c.path[:len(c.path)-1] }

func (l *loader) checkSchema(root map[string]any) (stripped bool, err error) {
	c := &schemaChecker{root: root, l: l}
	// Indices are checked against these arrays before their turn comes.
	for _, t := range topLevel {
		if v, ok := root[t.name]; ok {
			arr, ok := v.([]any)
			if !ok {
				return false, fmt.Errorf("%s: JSON value is %s, want array", t.name, kindOf(v))
			}
			if len(arr) > maxObjects {
				return false, fmt.Errorf("%s: %d objects, more than the %d a model here may have", t.name, len(arr), maxObjects)
			}
		}
	}
	err = c.object(root, "glTF")
	return c.stripped, err
}

func (c *schemaChecker) object(obj map[string]any, name string) error {
	if name == "extensions" {
		return c.extensions(obj)
	}
	props := schema[name]
	// Required properties first, in a fixed order, then the rest.
	var reqs []string
	for k, f := range props {
		if f.req {
			if _, ok := obj[k]; !ok {
				reqs = append(reqs, k)
			}
		}
	}
	if len(reqs) > 0 {
		slices.Sort(reqs)
		return c.errorf("%s is required", reqs[0])
	}
	keys := make([]string, 0, len(obj))
	var folded []string
	for k := range obj {
		if _, ok := props[k]; ok {
			keys = append(keys, k)
			continue
		}
		for p := range props {
			if strings.EqualFold(k, p) {
				folded = append(folded, k)
				break
			}
		}
	}
	// glTF names are case-sensitive, so "Count" is an unknown property to
	// ignore; the typed decoder would take it for "count", unchecked.
	slices.Sort(folded)
	for _, k := range folded {
		c.push(k)
		c.l.issue("UNEXPECTED_PROPERTY", c.where(), "unknown property ignored (glTF property names are case-sensitive)")
		c.pop()
		delete(obj, k)
		c.stripped = true
	}
	slices.Sort(keys)
	for _, k := range keys {
		c.push(k)
		err := c.value(obj[k], props[k])
		c.pop()
		c.replaceIn(obj, k)
		if err != nil {
			return err
		}
	}
	return c.rules(obj, name)
}

// extensions must be an object of objects (glTF §3.12); their contents
// belong to each extension and are not checked.
func (c *schemaChecker) extensions(obj map[string]any) error {
	names := make([]string, 0, len(obj))
	for n := range obj {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if _, ok := obj[n].(map[string]any); !ok {
			c.push(n)
			defer c.pop()
			return c.errorf("must be a JSON object")
		}
	}
	return nil
}

func (c *schemaChecker) value(v any, f field) error {
	if f.kind == jAny {
		return nil
	}
	got := kindOf(v)
	switch f.kind {
	case jObject, jMap:
		obj, ok := v.(map[string]any)
		if !ok {
			if f.obj == "extensions" {
				return c.errorf("must be a JSON object")
			}
			return c.errorf("JSON value is %s, want object", got)
		}
		if f.kind == jObject {
			return c.object(obj, f.obj)
		}
		if len(obj) < f.minItems {
			return c.errorf("empty; at least %d member is required", f.minItems)
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			c.push(k)
			err := c.value(obj[k], *f.elem)
			c.pop()
			c.replaceIn(obj, k)
			if err != nil {
				return err
			}
		}
	case jArray:
		arr, ok := v.([]any)
		if !ok {
			return c.errorf("JSON value is %s, want array", got)
		}
		if len(arr) < f.minItems || (f.maxItems > 0 && len(arr) > f.maxItems) {
			switch {
			case f.minItems == f.maxItems:
				return c.errorf("%d items, want %d", len(arr), f.minItems)
			case len(arr) < f.minItems:
				return c.errorf("%d items, want at least %d", len(arr), f.minItems)
			default:
				return c.errorf("%d items, want at most %d", len(arr), f.maxItems)
			}
		}
		for i, e := range arr {
			c.push(i)
			err := c.value(e, *f.elem)
			c.pop()
			if c.replacement != nil {
				arr[i], c.replacement = c.replacement, nil
			}
			if err != nil {
				return err
			}
		}
	case jString:
		s, ok := v.(string)
		if !ok {
			return c.errorf("JSON value is %s, want string", got)
		}
		if f.enumS != nil && !slices.Contains(f.enumS, s) {
			if c.l.deferUnknownType(c.path, s) {
				c.replacement, c.stripped = "SCALAR", true
				return nil
			}
			return c.errorf("%q is not one of %s", s, strings.Join(f.enumS, ", "))
		}
	case jBool:
		if _, ok := v.(bool); !ok {
			return c.errorf("JSON value is %s, want boolean", got)
		}
	case jNumber:
		n, ok := v.(json.Number)
		if !ok {
			return c.errorf("JSON value is %s, want number", got)
		}
		if _, err := strconv.ParseFloat(string(n), 64); err != nil {
			return c.errorf("number %s is out of range", clip(string(n)))
		}
	case jInteger:
		n, ok := v.(json.Number)
		if !ok {
			return c.errorf("JSON value is %s, want integer", got)
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			if isIntegerLiteral(string(n)) {
				return c.errorf("%s is out of range", clip(string(n)))
			}
			// 3.0 for 3 is unambiguous; the typed decoder would refuse it.
			x, ferr := strconv.ParseFloat(string(n), 64)
			if (ferr != nil && !math.IsInf(x, 0)) || x != math.Trunc(x) {
				return c.errorf("%s is not an integer", clip(string(n)))
			}
			if math.Abs(x) > maxJSONInt {
				return c.errorf("%s is out of range", clip(string(n)))
			}
			i = int64(x)
			c.l.issue("VIEWER_NOTE", c.where(), "integer written as %s; read as %d", clip(string(n)), i)
			c.replacement = json.Number(strconv.FormatInt(i, 10))
			c.stripped = true
		}
		return c.integer(i, f)
	}
	return nil
}

func (c *schemaChecker) integer(i int64, f field) error {
	if f.ref != "" {
		if i < 0 {
			return c.errorf("index %d is negative", i)
		}
		arr, _ := c.root[f.ref].([]any)
		if i >= int64(len(arr)) {
			return c.errorf("%s[%d] does not exist (%d %s)", f.ref, i, len(arr), f.ref)
		}
		return nil
	}
	if f.enumI != nil {
		if !slices.Contains(f.enumI, i) {
			vals := make([]string, len(f.enumI))
			for k, e := range f.enumI {
				vals[k] = strconv.FormatInt(e, 10)
			}
			return c.errorf("%d is not one of %s", i, strings.Join(vals, ", "))
		}
		return nil
	}
	max := f.max
	if max == 0 {
		max = maxJSONInt
	}
	if i < f.min {
		return c.errorf("%d is less than the minimum %d", i, f.min)
	}
	if i > max {
		return c.errorf("%d is more than the maximum %d", i, max)
	}
	return nil
}

// rules are the schema's checks that involve more than one property.
func (c *schemaChecker) rules(obj map[string]any, name string) error {
	switch name {
	case "node":
		if _, ok := obj["matrix"]; ok {
			for _, k := range []string{"translation", "rotation", "scale"} {
				if _, ok := obj[k]; ok {
					return c.errorf("has both matrix and %s; a node has one or the other", k)
				}
			}
		}
	case "asset":
		if obj["version"] == "" {
			c.push("version")
			return c.errorf("empty; want a glTF version such as \"2.0\"")
		}
	case "camera":
		_, p := obj["perspective"]
		_, o := obj["orthographic"]
		if p && o {
			return c.errorf("has both perspective and orthographic")
		}
		switch t := obj["type"]; {
		case t == "perspective" && !p:
			return c.errorf("type perspective needs a perspective object")
		case t == "orthographic" && !o:
			return c.errorf("type orthographic needs an orthographic object")
		}
	case "material":
		if _, ok := obj["alphaCutoff"]; ok {
			if _, ok := obj["alphaMode"]; !ok {
				// Harmless: the cutoff only applies in MASK mode.
				c.l.issue("MATERIAL_ALPHA_CUTOFF_INVALID_MODE", c.where()+".alphaCutoff", "without alphaMode MASK (OPAQUE by default) it is ignored")
				delete(obj, "alphaCutoff")
				c.stripped = true
			}
		}
	case "animation":
		samplers, _ := obj["samplers"].([]any)
		channels, _ := obj["channels"].([]any)
		for ci, ch := range channels {
			s, _ := ch.(map[string]any)["sampler"].(json.Number)
			if i, _ := strconv.ParseInt(string(s), 10, 64); i >= int64(len(samplers)) {
				c.push("channels")
				c.push(ci)
				c.push("sampler")
				return c.errorf("samplers[%d] does not exist (%d samplers in this animation)", i, len(samplers))
			}
		}
	}
	return nil
}

func isIntegerLiteral(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// clip shortens a value quoted in a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// jsonError adds a line and column to JSON syntax errors and names the
// property of a type error.
func jsonError(err error, js []byte) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the offending byte; the column names it.
		line, col := lineCol(js, se.Offset-1)
		return fmt.Errorf("JSON syntax error at line %d, column %d: %v", line, col, se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := jsonKind(te.Type)
		where := te.Field
		if p := locateTypeError(js, te.Field, te.Value); p != "" {
			where = p
		}
		if where == "" {
			return fmt.Errorf("JSON value is %s, want %s", te.Value, want)
		}
		return fmt.Errorf("%s: JSON value is %s, want %s", where, te.Value, want)
	}
	return fmt.Errorf("invalid glTF: %s", strings.TrimPrefix(err.Error(), "gltf: "))
}

func lineCol(b []byte, off int64) (int, int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	if off < 0 {
		off = 0
	}
	before := b[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// jsonKind names a Go type the way the glTF schema would.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	}
	return t.Kind().String()
}

// locateTypeError turns encoding/json's dotted field path, which has no
// array indices ("meshes.primitives"), into the first concrete glTF path
// holding a value of the offending kind ("meshes[0].primitives"). The
// schema pass catches type errors first; this names what it may miss.
func locateTypeError(js []byte, field, got string) string {
	var root any
	if field == "" || json.Unmarshal(js, &root) != nil {
		return ""
	}
	if strings.HasPrefix(got, "number") {
		got = "number"
	}
	return locate(root, strings.Split(field, "."), "", got)
}

func locate(v any, segs []string, path, got string) string {
	if len(segs) == 0 {
		k := kindOf(v)
		if k == got || (got == "number" && k == "integer") || (got == "bool" && k == "boolean") {
			return path
		}
	}
	if arr, ok := v.([]any); ok {
		for i, e := range arr {
			if p := locate(e, segs, path+"["+strconv.Itoa(i)+"]", got); p != "" {
				return p
			}
		}
		return ""
	}
	if len(segs) == 0 {
		return ""
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	child, ok := obj[segs[0]]
	if !ok {
		return ""
	}
	p := segs[0]
	if path != "" {
		p = path + "." + segs[0]
	}
	return locate(child, segs[1:], p, got)
}

// kindOf names a generic JSON value's kind.
func kindOf(v any) string {
	switch x := v.(type) {
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if isIntegerLiteral(string(x)) {
			return "integer"
		}
		return "number"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case nil:
		return "null"
	}
	return "unknown"
}
