package gltfload

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// checkExtensions walks the raw JSON and refuses any "extensions" member
// that is not an object of objects (glTF §3.12). The typed decoder keeps
// unknown extensions as opaque values, so nothing else would notice.
func checkExtensions(js []byte) error {
	var root any
	if err := json.Unmarshal(js, &root); err != nil {
		return nil // the typed decode reports syntax errors with a position
	}
	return walkExtensions(root, "")
}

func walkExtensions(v any, path string) error {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if k == "extensions" {
				ext, ok := x[k].(map[string]any)
				if !ok {
					return fmt.Errorf("%s: must be a JSON object", p)
				}
				names := make([]string, 0, len(ext))
				for n := range ext {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					if _, ok := ext[n].(map[string]any); !ok {
						return fmt.Errorf("%s.%s: must be a JSON object", p, n)
					}
				}
			}
			if err := walkExtensions(x[k], p); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := walkExtensions(e, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	}
	return nil
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
// holding a value of the offending kind ("meshes[0].primitives").
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
