package gltfload

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/qmuntal/gltf"
)

// maxFileBytes refuses files that are not plausibly a character model
// before reading them whole. It caps external buffers and images too.
const maxFileBytes = 1 << 30

// Load reads a .gltf or .glb file from disk. External buffers and images
// resolve relative to the file's folder: inside it through an os.Root (a
// symbolic link there may not lead out of it), and, for a relative path
// that climbs out with "..", from the folder it names on disk, as glTF's
// relative URIs mean (a file shared by several models, as in the Khronos
// samples). Absolute paths and URLs are not read.
func Load(file string) (*Model, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, refuse("", err)
	}
	if st.IsDir() {
		return nil, refuse("", fmt.Errorf("%s is a folder, not a glTF file", file))
	}
	if !st.Mode().IsRegular() {
		return nil, refuse("", fmt.Errorf("%s is not a regular file", file))
	}
	if st.Size() > maxFileBytes {
		return nil, refuse("", fmt.Errorf("%s: %d bytes is more than the %d-byte limit", file, st.Size(), maxFileBytes))
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, refuse("", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes))
	f.Close()
	if err != nil {
		return nil, refuse("", err)
	}
	// The file itself may be a link; what it refers to stays in its folder.
	root, err := os.OpenRoot(filepath.Dir(file))
	if err != nil {
		return nil, refuse("", err)
	}
	defer root.Close()
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, refuse("", err)
	}
	return decodeSafely(data, root.FS(), dir, filepath.Base(file))
}

// LoadFS reads name from fsys (an embed.FS, os.DirFS, ...). External
// resources resolve relative to name's folder inside fsys.
func LoadFS(fsys fs.FS, name string) (*Model, error) {
	data, err := readAll(fsys, name, maxFileBytes)
	if err != nil {
		return nil, refuse("", err)
	}
	sub := fsys
	if dir := path.Dir(name); dir != "." {
		if sub, err = fs.Sub(fsys, dir); err != nil {
			return nil, refuse("", err)
		}
	}
	return Decode(data, sub, path.Base(name))
}

// readAll reads a regular file of at most limit bytes. Memory grows with
// the bytes actually read, not with a size the file system claims.
func readAll(fsys fs.FS, name string, limit int64) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes is more than the %d-byte limit", name, st.Size(), limit)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: more than the %d-byte limit", name, limit)
	}
	return data, nil
}

// Decode parses a glTF JSON or GLB document held in data. External files
// are read from fsys (nil: none allowed); name is used in messages.
//
// Every refusal is an error of one line, "gltfload: <name>: <glTF path>:
// <rule>". Recoverable problems load with a line in Model.Warnings.
func Decode(data []byte, fsys fs.FS, name string) (m *Model, err error) {
	return decodeSafely(data, fsys, "", name)
}

// decodeSafely is Decode; a relative URI that leaves fsys's folder is read
// from disk beside dir, the folder's path, unless dir is "".
func decodeSafely(data []byte, fsys fs.FS, dir, name string) (m *Model, err error) {
	defer func() {
		// Every input is validated before use, so this is a loader bug;
		// still, a file from the internet must not take the viewer down.
		if p := recover(); p != nil {
			m, err = nil, refuse(name+": ", fmt.Errorf("internal error (a loader bug, please report it with the file): %v [%s]", p, oneLine(firstFrames(debug.Stack()))))
		}
	}()
	return decodeIn(data, fsys, dir, name)
}

// decode is Decode without the recovery, for tests and fuzzing.
func decode(data []byte, fsys fs.FS, name string) (*Model, error) {
	return decodeIn(data, fsys, "", name)
}

// decodeIn is decode with the model's folder on disk (see loader.dir).
func decodeIn(data []byte, fsys fs.FS, dir, name string) (*Model, error) {
	l := &loader{fsys: fsys, dir: dir, name: name}
	m, err := l.decode(data)
	if err != nil {
		return nil, refuse(name+": ", err)
	}
	return m, nil
}

func firstFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	var out []string
	for _, ln := range lines {
		if strings.Contains(ln, "/gltfload/") && strings.HasPrefix(ln, "\t") {
			out = append(out, path.Base(strings.TrimSpace(ln)))
		}
		if len(out) == 3 {
			break
		}
	}
	return strings.Join(out, " < ")
}

type loader struct {
	fsys fs.FS
	// dir is the model's folder on disk, from which relative URIs that
	// climb out of fsys are read ("": they are refused).
	dir   string
	name  string
	doc   *gltf.Document
	model *Model
	// strideWarned remembers views already reported by warnStride.
	strideWarned map[int]bool
	// budget is what decoded accessors may still allocate (see setBudget).
	budget, budgetTotal, budgetBase int64
	// accChecked marks accessors that passed checkAccessor.
	accChecked []bool
	// meshJoints[m] is the largest joint index a vertex of mesh m uses
	// with weight (-1: none) and the primitive that uses it; skinned says
	// whether any primitive has JOINTS_0.
	meshJoints []meshJoint
	// meshTargets[m] is the number of morph targets of mesh m.
	meshTargets []int
	// Decoded arrays shared between uses (see floats).
	floatCache map[cacheKey][]float32
	uintCache  map[int][]uint32
	rgbaCache  map[int][]float32
	inflCache  map[string]*influences
	seqCache   map[int][]uint32
	// checked lists the checks already run on shared arrays (firstCheck),
	// maxJoint the largest joint of shared influences.
	checked  map[checkKey]bool
	maxJoint map[*uint16]int
	// times caches checked key times by accessor index.
	times map[int][]float32
	// images caches decoded images by glTF image index.
	images      map[int]imageResult
	pixelBudget int64

	// perCode counts the issues reported under each code, reported the
	// code and pointer of those with one (see issue).
	perCode  map[string]int
	reported map[string]bool
	// bufferMissing says why a buffer has no bytes, by index (see noBytes).
	bufferMissing map[int]string
	// attrView maps each view vertex attributes read to the first
	// accessor that reads it (see checkPrimitiveLayout).
	attrView map[int]int
	// viewUse is the target of each view without one, from its first use.
	viewUse map[int]gltf.Target
	// unknownType holds the accessors whose type glTF does not define,
	// by index: unused data unless something reads them.
	unknownType map[int]string
	// root is the document's JSON as checkSchema left it; parents[n] is
	// node n's parent or -1 (see validateNodes).
	root    map[string]any
	parents []int
	// dracoDecoded marks the accessors whose values Draco decoded.
	dracoDecoded map[int]bool
}

type meshJoint struct {
	joint, prim int
	skinned     bool
}

const (
	glbMagic     = 0x46546C67 // "glTF"
	glbChunkJSON = 0x4E4F534A
	glbChunkBIN  = 0x004E4942
)

func (l *loader) decode(data []byte) (*Model, error) {
	l.model = &Model{Name: l.name}
	js, bin, isGLB, err := l.splitGLB(data)
	if err != nil {
		return nil, err
	}
	js = l.trimJSON(js, isGLB)
	if start := bytes.TrimLeft(js, " \t\r\n"); len(start) == 0 || start[0] != '{' {
		if isGLB {
			return nil, errors.New("glb: the JSON chunk does not hold a JSON object")
		}
		return nil, errors.New(`not a glTF file: it starts with neither "glTF" (binary glTF) nor "{" (JSON)`)
	}
	root, err := parseJSON(js)
	if err != nil {
		return nil, err
	}
	l.root = root
	stripped, err := l.checkSchema(root)
	if err != nil {
		return nil, err
	}
	if stripped {
		if js, err = json.Marshal(root); err != nil {
			return nil, fmt.Errorf("invalid glTF: %v", err)
		}
	}
	doc := new(gltf.Document)
	if err := json.Unmarshal(js, doc); err != nil {
		return nil, jsonError(err, js)
	}
	l.doc = doc
	if !strings.HasPrefix(doc.Asset.Version, "2.") {
		return nil, fmt.Errorf("asset.version %q: only glTF 2.x is supported", doc.Asset.Version)
	}
	if v := doc.Asset.Version; v != "2.0" {
		l.issue("UNKNOWN_ASSET_MINOR_VERSION", "asset.version", "%q: read as glTF 2.0; what later versions add is not drawn", v)
	}
	if mv := doc.Asset.MinVersion; mv != "" && mv != "2.0" {
		// minVersion is the least a reader must know; a 2.x file is still
		// glTF 2.0 to a reader that knows only 2.0.
		if versionBelow(doc.Asset.Version, mv) {
			l.issue("ASSET_MIN_VERSION_GREATER_THAN_VERSION", "asset.minVersion", "%q is above asset.version %q; read as glTF 2.0", mv, doc.Asset.Version)
		} else {
			l.issue("VIEWER_NOTE", "asset.minVersion", "%q: read as glTF 2.0; what later versions add is not drawn", mv)
		}
	}
	for i, ext := range doc.ExtensionsRequired {
		switch ext {
		case "KHR_mesh_quantization", extDraco, extMeshopt, extWebP, "KHR_animation_pointer":
			// KHR_animation_pointer: node and morph weight pointers play;
			// loadAnimations reports each other pointer once.
		case extBasisu:
			// KTX2 images are not decoded: their textures draw a fallback
			// source where there is one, else their materials' factors,
			// and decodeTextures says which.
		default:
			l.issue("UNSUPPORTED_EXTENSION", fmt.Sprintf("extensionsRequired[%d]", i), "%s is not supported; the model is shown without it", ext)
		}
	}
	steps := []func() error{
		func() error { return l.loadBuffers(bin, isGLB, int64(len(data))) },
		l.decompress,
		l.checkViews,
		l.checkAllAccessors,
		l.expandInstancing,
		l.loadNodes,
		l.loadSkins,
		l.loadTextures,
		l.loadMaterials,
		l.decodeTextures,
		l.loadMeshes,
		l.loadScene,
		l.loadMorphs,
		l.loadAnimations,
		l.validate,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return l.model, nil
}

// versionBelow says whether glTF version a ("major.minor") is below b;
// versions that do not parse compare as equal.
func versionBelow(a, b string) bool {
	var amaj, amin, bmaj, bmin int
	if _, err := fmt.Sscanf(a, "%d.%d", &amaj, &amin); err != nil {
		return false
	}
	if _, err := fmt.Sscanf(b, "%d.%d", &bmaj, &bmin); err != nil {
		return false
	}
	return amaj < bmaj || (amaj == bmaj && amin < bmin)
}

// trimJSON drops a UTF-8 byte order mark and a GLB JSON chunk's trailing
// padding, which some writers fill with NUL bytes instead of spaces.
func (l *loader) trimJSON(js []byte, isGLB bool) []byte {
	if bytes.HasPrefix(js, []byte("\xef\xbb\xbf")) {
		l.issue("INVALID_JSON", "", "the JSON starts with a byte order mark, which glTF forbids; skipped")
		js = js[3:]
	}
	if isGLB {
		if t := bytes.TrimRight(js, "\x00"); len(t) != len(js) {
			l.issue("INVALID_JSON", "glb", "the JSON chunk is padded with NUL bytes instead of spaces")
			js = t
		}
	}
	return js
}

// splitGLB returns the JSON and BIN chunks of a GLB container, or data
// itself when it is plain JSON.
func (l *loader) splitGLB(data []byte) (js, bin []byte, isGLB bool, err error) {
	if len(data) < 4 || binary.LittleEndian.Uint32(data) != glbMagic {
		return data, nil, false, nil
	}
	if len(data) < 20 {
		return nil, nil, true, fmt.Errorf("glb: %d bytes is shorter than the 12-byte header and one chunk header", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
		return nil, nil, true, fmt.Errorf("glb: container version %d, want 2", v)
	}
	total := int64(binary.LittleEndian.Uint32(data[8:]))
	if total > int64(len(data)) {
		return nil, nil, true, fmt.Errorf("glb: header length %d but the file has %d bytes", total, len(data))
	}
	if total < 20 {
		return nil, nil, true, fmt.Errorf("glb: header length %d is shorter than the 12-byte header and one chunk header", total)
	}
	if total < int64(len(data)) {
		l.issue("GLB_EXTRA_DATA", "glb", "%d bytes after the length the header gives (%d) are ignored", int64(len(data))-total, total)
	}
	data = data[:total]
	off := int64(12)
	for chunk := 0; off < int64(len(data)); chunk++ {
		if off+8 > int64(len(data)) {
			return nil, nil, true, fmt.Errorf("glb: chunk %d header at byte %d runs past the end of the file (%d bytes)", chunk, off, len(data))
		}
		clen := int64(binary.LittleEndian.Uint32(data[off:]))
		ctype := binary.LittleEndian.Uint32(data[off+4:])
		if off+8+clen > int64(len(data)) {
			return nil, nil, true, fmt.Errorf("glb: chunk %d length %d runs past the end of the file (%d bytes)", chunk, clen, len(data))
		}
		body := data[off+8 : off+8+clen]
		switch {
		case chunk == 0 && ctype != glbChunkJSON:
			return nil, nil, true, fmt.Errorf("glb: chunk 0 has type 0x%08x, want JSON (0x%08x)", ctype, glbChunkJSON)
		case chunk == 0:
			js = body
		case ctype == glbChunkJSON:
			return nil, nil, true, fmt.Errorf("glb: chunk %d is a second JSON chunk", chunk)
		case chunk == 1 && ctype == glbChunkBIN:
			bin = body
		case ctype == glbChunkBIN:
			return nil, nil, true, fmt.Errorf("glb: chunk %d is a BIN chunk, which may only be chunk 1", chunk)
		}
		if clen%4 != 0 {
			l.issue("GLB_CHUNK_LENGTH_UNALIGNED", "glb", "chunk %d length %d is not a multiple of 4", chunk, clen)
		}
		off += 8 + clen
	}
	if js == nil {
		return nil, nil, true, errors.New("glb: no JSON chunk")
	}
	return js, bin, true, nil
}

func (l *loader) loadBuffers(bin []byte, isGLB bool, inputBytes int64) error {
	external := int64(0)
	for i, b := range l.doc.Buffers {
		where := fmt.Sprintf("buffers[%d]", i)
		if b == nil {
			return fmt.Errorf("%s: null", where)
		}
		if b.ByteLength < 1 || b.ByteLength > maxFileBytes {
			return fmt.Errorf("%s: byteLength %d is outside [1, %d]", where, b.ByteLength, maxFileBytes)
		}
		if l.isFallback(i) {
			continue
		}
		var data []byte
		switch {
		case b.URI == "" && i == 0 && isGLB:
			if bin == nil {
				return fmt.Errorf("%s: no uri, and the GLB has no BIN chunk", where)
			}
			if len(bin) > b.ByteLength+3 {
				l.issue("BUFFER_GLB_CHUNK_TOO_BIG", where, "the GLB BIN chunk has %d bytes, more than byteLength %d and padding; the rest is ignored", len(bin), b.ByteLength)
			}
			data = bin
		case b.URI == "":
			l.issue("VIEWER_NOTE", where, "no uri (only the first buffer of a GLB may omit it): no bytes; what reads it is not drawn")
			l.noBytes(i, "has no uri (only the first buffer of a GLB may omit it)")
			continue
		case isWebURI(b.URI):
			l.issue("NON_RELATIVE_URI", where+".uri", "%q is not fetched (only relative file paths and data URIs are read); what reads it is not drawn", b.URI)
			l.noBytes(i, fmt.Sprintf("is not fetched (uri %q)", b.URI))
			continue
		default:
			var err error
			ext := !strings.HasPrefix(b.URI, "data:")
			if data, err = l.resolveURI(where, b.URI, int64(b.ByteLength)); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			if ext {
				external += int64(len(data))
			}
		}
		if len(data) < b.ByteLength {
			return fmt.Errorf("%s: byteLength is %d but only %d bytes are there", where, b.ByteLength, len(data))
		}
		b.Data = data[:b.ByteLength:b.ByteLength]
	}
	l.setBudget(inputBytes + external)
	return nil
}

// isWebURI says whether uri names a resource on the web, which the viewer
// does not fetch (the file still loads; what needs it is not drawn).
func isWebURI(uri string) bool {
	u, err := url.Parse(uri)
	return err == nil && (strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https"))
}

// errNoBytes marks a read of a buffer the loader has no bytes for:
// primitives and animation channels that need it are not drawn, the file
// still loads; anything else that reads it is refused.
var errNoBytes = errors.New("no bytes to read")

// noBytes records that buffer i has no bytes here, and why.
func (l *loader) noBytes(i int, why string) {
	if l.bufferMissing == nil {
		l.bufferMissing = map[int]string{}
	}
	l.bufferMissing[i] = why
}

// Budget for decoded accessor data. Decoding widens every component to 4
// bytes and the same accessor may be read more than once, so the data a
// file can justify is a multiple of the bytes it actually has; a small
// constant covers accessors without a bufferView (zeros plus sparse
// values) in tiny files. A file declaring more is refused: that is how a
// 1 kB file is kept from allocating a gigabyte.
const (
	budgetFactor = 64
	budgetBase   = 1 << 20
)

func (l *loader) setBudget(bytesRead int64) {
	l.budgetBase = bytesRead
	l.budgetTotal = budgetFactor*bytesRead + budgetBase
	l.budget = l.budgetTotal
}

// chargeSeen, where a test sets it, is told of every charge asked for and
// of the budget left before it.
var chargeSeen func(what string, n, left int64)

// charge takes n bytes from the budget before they are allocated.
func (l *loader) charge(what string, n int64) error {
	if chargeSeen != nil {
		chargeSeen(what, n, l.budget)
	}
	if n > l.budget {
		return fmt.Errorf("%s: decoding needs %d bytes, more than the %d left of this file's budget (%d × its %d bytes + %d); the file declares far more data than it holds",
			what, n, l.budget, budgetFactor, l.budgetBase, budgetBase)
	}
	l.budget -= n
	return nil
}

// resolveURI returns the bytes behind a buffer or image URI: a data URI or
// a relative path, inside the model's folder or, where the model was read
// from disk, climbing out of it. At most limit bytes are read.
func (l *loader) resolveURI(where, uri string, limit int64) ([]byte, error) {
	if strings.HasPrefix(uri, "data:") {
		return l.dataURI(where, uri)
	}
	if strings.HasPrefix(uri, ":") {
		return nil, withCode("INVALID_URI", fmt.Errorf("uri %q has an empty scheme", uri))
	}
	if u, err := url.Parse(uri); err == nil && len(u.Scheme) > 1 {
		return nil, withCode("VIEWER_NOT_DRAWN", fmt.Errorf("uri %q: only relative file paths and data URIs are read, not %s: URLs", uri, u.Scheme))
	}
	p, err := url.PathUnescape(uri)
	if err != nil {
		p = uri // a literal '%' in a file name: harmless, use it as written
	}
	p = strings.ReplaceAll(p, "\\", "/")
	if strings.HasPrefix(p, "/") || (len(p) >= 2 && p[1] == ':' && (p[0]|0x20) >= 'a' && (p[0]|0x20) <= 'z') {
		return nil, withCode("VIEWER_NOT_DRAWN", fmt.Errorf("uri %q is an absolute path; only paths relative to the model's folder are read", uri))
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	fsys := l.fsys
	if !fs.ValidPath(p) {
		if l.dir == "" {
			return nil, withCode("VIEWER_NOT_DRAWN", fmt.Errorf("uri %q leaves the model's folder", uri))
		}
		full := filepath.Join(l.dir, filepath.FromSlash(p))
		fsys, p = os.DirFS(filepath.Dir(full)), filepath.Base(full)
	}
	if fsys == nil {
		return nil, fmt.Errorf("uri %q: external files cannot be read here", uri)
	}
	st, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, withCode("IO_ERROR", fmt.Errorf("uri %q: %v", uri, unwrapPath(err)))
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("uri %q is not a regular file", uri)
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, fmt.Errorf("uri %q: %v", uri, unwrapPath(err))
	}
	defer f.Close()
	d, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, fmt.Errorf("uri %q: %v", uri, unwrapPath(err))
	}
	return d, nil
}

// unwrapPath drops the path a *fs.PathError repeats: the message names
// the URI already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (l *loader) dataURI(where, uri string) ([]byte, error) {
	comma := strings.IndexByte(uri, ',')
	if comma < 0 {
		return nil, withCode("INVALID_URI", errors.New("data URI has no ',' before its data"))
	}
	meta, payload := uri[5:comma], uri[comma+1:]
	if !strings.HasSuffix(meta, ";base64") {
		s, err := url.PathUnescape(payload)
		if err != nil {
			return nil, withCode("INVALID_URI", fmt.Errorf("data URI does not decode: %v", err))
		}
		return []byte(s), nil
	}
	d, err := base64.StdEncoding.DecodeString(payload)
	if err == nil {
		return d, nil
	}
	// Unpadded or URL-safe base64 is wrong but unambiguous.
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if d, err2 := enc.DecodeString(payload); err2 == nil {
			l.issue("INVALID_URI", where, "the data URI is not in standard padded base64; decoded anyway")
			return d, nil
		}
	}
	return nil, withCode("INVALID_URI", fmt.Errorf("data URI does not decode: %v", err))
}
