package gltfload

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Severity ranks an Issue as glTF-Validator does: 0 is an error.
type Severity int

const (
	Error Severity = iota
	Warning
	Info
	Hint
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "hint"
}

// Issue is one finding of the validation report, in glTF-Validator's
// terms: its issue code, a JSON pointer into the document where there is
// one ("/accessors/3/min"), and a message of one line that also names the
// place in glTF's dotted form and says what the viewer did about it.
type Issue struct {
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Severity Severity `json:"severity"`
	Pointer  string   `json:"pointer,omitempty"`
}

func (i Issue) String() string {
	return fmt.Sprintf("%s %s: %s", i.Severity, i.Code, i.Message)
}

// Report is what the loader found wrong in a file it could open, each
// problem with how it was mended or worked around.
type Report struct {
	Issues []Issue
	// Omitted counts, by severity, the issues past the caps below: a
	// hostile file could otherwise report one per vertex.
	Omitted [4]int
}

// Count is the number of issues of severity s, omitted ones included.
func (r *Report) Count(s Severity) int {
	n := r.Omitted[s]
	for _, i := range r.Issues {
		if i.Severity == s {
			n++
		}
	}
	return n
}

// Lines are the messages of the issues of severity up to worst, errors
// first, at most max of them (0: all), with a last line counting the rest.
func (r *Report) Lines(worst Severity, max int) []string {
	var out []string
	total := 0
	for s := Error; s <= worst; s++ {
		for _, i := range r.Issues {
			if i.Severity != s {
				continue
			}
			total++
			if max <= 0 || len(out) < max {
				out = append(out, i.Message)
			}
		}
		total += r.Omitted[s]
	}
	if rest := total - len(out); rest > 0 {
		out = append(out, fmt.Sprintf("... and %d more", rest))
	}
	return out
}

// Summary reads "2 errors, 1 warning" (infos and hints are not counted).
func (r *Report) Summary() string {
	return plural(r.Count(Error), "error") + ", " + plural(r.Count(Warning), "warning")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// Caps on the report: per issue code, and in all.
const (
	maxIssuesPerCode = 50
	maxIssues        = 1000
)

// severities gives each issue code the loader reports its severity:
// glTF-Validator's (ISSUES.md) for its codes, and the viewer's own codes
// for what the viewer does not draw although the file may be valid.
var severities = map[string]Severity{
	"ACCESSOR_ANIMATION_INPUT_NEGATIVE":                           Error,
	"ASSET_MIN_VERSION_GREATER_THAN_VERSION":                      Error,
	"MESH_PRIMITIVE_TOO_FEW_TEXCOORDS":                            Error,
	"MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE":                  Error,
	"BUFFER_VIEW_TARGET_OVERRIDE":                                 Error,
	"ACCESSOR_ANIMATION_INPUT_NON_INCREASING":                     Error,
	"NON_RELATIVE_URI":                                            Warning,
	"MESH_PRIMITIVE_INCOMPATIBLE_MODE":                            Warning,
	"UNKNOWN_ASSET_MINOR_VERSION":                                 Warning,
	"VALUE_NOT_IN_LIST":                                           Warning,
	"ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION": Error,
	"ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND":                           Error,
	"ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND":                           Error,
	"ACCESSOR_INDEX_PRIMITIVE_RESTART":                            Error,
	"ACCESSOR_INVALID_FLOAT":                                      Error,
	"ACCESSOR_INVALID_IBM":                                        Error,
	"ACCESSOR_INVALID_SIGN":                                       Error,
	"ACCESSOR_MAX_MISMATCH":                                       Error,
	"ACCESSOR_MIN_MISMATCH":                                       Error,
	"ACCESSOR_NON_CLAMPED":                                        Error,
	"ACCESSOR_NORMALIZED_INVALID":                                 Error,
	"ACCESSOR_OFFSET_ALIGNMENT":                                   Error,
	"ACCESSOR_TOTAL_OFFSET_ALIGNMENT":                             Error,
	"ACCESSOR_VECTOR3_NON_UNIT":                                   Error,
	// The viewer mends non-normalized weights the way every renderer
	// does, so it is a warning here (an error to glTF-Validator).
	"ACCESSOR_WEIGHTS_NON_NORMALIZED": Warning,
	// Errors to glTF-Validator that the viewer reads as the writer meant,
	// and that real exporters write (Khronos' Fox strides its animation
	// data; glTF-Asset-Generator's Animation_Skin_03 keeps its joints out
	// of the scene): warnings here, so that a model shown right does not
	// report errors.
	"ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE":          Warning,
	"IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE":                   Warning,
	"MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE":     Warning,
	"SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE":                   Warning,
	"NODE_SKIN_NO_SCENE":                                  Warning,
	"ANIMATION_CHANNEL_TARGET_NODE_MATRIX":                Error,
	"ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS":     Error,
	"ANIMATION_DUPLICATE_TARGETS":                         Error,
	"ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS":   Error,
	"ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS":     Error,
	"BUFFER_DATA_URI_MIME_TYPE_INVALID":                   Error,
	"BUFFER_GLB_CHUNK_TOO_BIG":                            Warning,
	"BUFFER_VIEW_INVALID_BYTE_STRIDE":                     Error,
	"BUFFER_VIEW_TOO_BIG_BYTE_STRIDE":                     Error,
	"CAMERA_XMAG_YMAG_NEGATIVE":                           Warning,
	"CAMERA_XMAG_YMAG_ZERO":                               Error,
	"CAMERA_YFOV_GEQUAL_PI":                               Warning,
	"CAMERA_ZFAR_LEQUAL_ZNEAR":                            Error,
	"VALUE_NOT_IN_RANGE":                                  Error,
	"DUPLICATE_ELEMENTS":                                  Error,
	"EMPTY_ENTITY":                                        Error,
	"GLB_CHUNK_LENGTH_UNALIGNED":                          Error,
	"GLB_EXTRA_DATA":                                      Warning,
	"IMAGE_DATA_INVALID":                                  Error,
	"IMAGE_MIME_TYPE_INVALID":                             Error,
	"IMAGE_UNEXPECTED_EOS":                                Error,
	"IMAGE_UNRECOGNIZED_FORMAT":                           Warning,
	"INVALID_JSON":                                        Error,
	"INVALID_URI":                                         Error,
	"IO_ERROR":                                            Error,
	"MATERIAL_ALPHA_CUTOFF_INVALID_MODE":                  Warning,
	"MESH_INVALID_WEIGHTS_COUNT":                          Error,
	"MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT":               Error,
	"NON_REQUIRED_EXTENSION":                              Error,
	"IMAGE_NON_ENABLED_MIME_TYPE":                         Error,
	"KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE": Error,
	"KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH": Error,
	"PATTERN_MISMATCH":                                    Error,
	"UNDEFINED_PROPERTY":                                  Error,
	"UNRESOLVED_REFERENCE":                                Error,
	"UNEXPECTED_EXTENSION_OBJECT":                         Error,
	"MESH_PRIMITIVE_ACCESSOR_UNALIGNED":                   Error,
	"MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT":   Error,
	"MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT":     Error,
	"MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY":          Error,
	"MESH_PRIMITIVE_INVALID_ATTRIBUTE":                    Error,
	"MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR":        Error,
	"MESH_PRIMITIVE_NO_POSITION":                          Warning,
	"MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS":     Error,
	"NODE_MATRIX_NON_TRS":                                 Error,
	"NODE_SKIN_WITH_NON_SKINNED_MESH":                     Error,
	"NODE_SKINNED_MESH_WITHOUT_SKIN":                      Warning,
	"NODE_WEIGHTS_INVALID":                                Error,
	"ONE_OF_MISMATCH":                                     Error,
	"ROTATION_NON_UNIT":                                   Error,
	"SCENE_NON_ROOT_NODE":                                 Error,
	"SKIN_NO_COMMON_ROOT":                                 Error,
	"SKIN_SKELETON_INVALID":                               Error,
	"UNDECLARED_EXTENSION":                                Error,
	"UNEXPECTED_PROPERTY":                                 Warning,
	"UNSATISFIED_DEPENDENCY":                              Error,
	"UNSUPPORTED_EXTENSION":                               Warning,
	"UNUSED_EXTENSION_REQUIRED":                           Error,
	"VALUE_MULTIPLE_OF":                                   Error,
	// The viewer's own: valid glTF it shows only in part.
	"VIEWER_NOT_DRAWN": Warning,
	// The viewer's own: accessor counts of a Draco primitive taken from
	// before compression, drawn as libdraco decodes them.
	"VIEWER_DRACO_COUNT": Warning,
	// The viewer's own: written in a way glTF allows but no exporter
	// should, read as meant.
	"VIEWER_NOTE": Info,
}

// loadError is a refusal: one printable line, wrapping the cause.
type loadError struct {
	msg string
	err error
}

func (e *loadError) Error() string { return e.msg }
func (e *loadError) Unwrap() error { return e.err }

// refuse wraps err as "gltfload: <prefix>: err" on a single line.
func refuse(prefix string, err error) error {
	full := fmt.Errorf("gltfload: %s%w", prefix, err)
	return &loadError{msg: oneLine(full.Error()), err: full}
}

// oneLine escapes control characters (file names, URIs and JSON keys may
// hold newlines) so that a message always prints as one line.
func oneLine(s string) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// issue adds a finding about the object at where (glTF's dotted path,
// "meshes[0].primitives[1]", or "" for the file as a whole).
func (l *loader) issue(code, where, format string, args ...any) {
	sev, ok := severities[code]
	if !ok {
		sev = Warning // TestEveryCodeHasASeverity keeps this from happening
	}
	r := &l.model.Report
	if l.perCode == nil {
		l.perCode, l.reported = map[string]int{}, map[string]bool{}
	}
	ptr := pointerOf(where)
	if ptr != "" {
		// Found twice (where it is mended and by the validation pass):
		// reported once.
		if l.reported[code+ptr] {
			return
		}
		l.reported[code+ptr] = true
	}
	l.perCode[code]++
	if l.perCode[code] > maxIssuesPerCode || len(r.Issues) >= maxIssues {
		r.Omitted[sev]++
		return
	}
	msg := fmt.Sprintf(format, args...)
	if where != "" {
		msg = where + ": " + msg
	}
	r.Issues = append(r.Issues, Issue{Code: code, Message: oneLine(msg), Severity: sev, Pointer: ptr})
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointerOf turns glTF's dotted path into a JSON pointer (RFC 6901):
// "meshes[0].attributes.NORMAL" is "/meshes/0/attributes/NORMAL".
func pointerOf(where string) string {
	if where == "" || where == "document" || where == "glb" {
		return ""
	}
	var b strings.Builder
	seg := func(s string) {
		b.WriteByte('/')
		b.WriteString(pointerEscaper.Replace(s))
	}
	start := 0
	for i := 0; i <= len(where); i++ {
		if i < len(where) && where[i] != '.' && where[i] != '[' && where[i] != ']' {
			continue
		}
		if i > start {
			seg(where[start:i])
		}
		start = i + 1
	}
	return b.String()
}
