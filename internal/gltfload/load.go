package gltfload

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"github.com/skinview/skinview/internal/anim"
)

// maxFileBytes refuses files that are not plausibly a character model
// before reading them whole.
const maxFileBytes = 1 << 30

// Load reads a .gltf or .glb file from disk. External buffers and images
// resolve relative to the file's folder and may not leave it.
func Load(file string) (*Model, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, fmt.Errorf("gltfload: %w", err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("gltfload: %s is a folder, not a glTF file", file)
	}
	if st.Size() > maxFileBytes {
		return nil, fmt.Errorf("gltfload: %s: %d bytes is more than the %d-byte limit", file, st.Size(), maxFileBytes)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("gltfload: %w", err)
	}
	return Decode(data, os.DirFS(filepath.Dir(file)), filepath.Base(file))
}

// LoadFS reads name from fsys (an embed.FS, os.DirFS, ...). External
// resources resolve relative to name's folder inside fsys.
func LoadFS(fsys fs.FS, name string) (*Model, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("gltfload: %w", err)
	}
	sub := fsys
	if dir := path.Dir(name); dir != "." {
		if sub, err = fs.Sub(fsys, dir); err != nil {
			return nil, fmt.Errorf("gltfload: %w", err)
		}
	}
	return Decode(data, sub, path.Base(name))
}

// Decode parses a glTF JSON or GLB document held in data. External files
// are read from fsys (nil: none allowed); name is used in messages.
func Decode(data []byte, fsys fs.FS, name string) (*Model, error) {
	l := &loader{fsys: fsys, name: name}
	m, err := l.decode(data)
	if err != nil {
		return nil, fmt.Errorf("gltfload: %s: %w", name, err)
	}
	return m, nil
}

type loader struct {
	fsys  fs.FS
	name  string
	doc   *gltf.Document
	model *Model
	// strideWarned remembers views already reported by warnStride.
	strideWarned map[int]bool
}

func (l *loader) warnf(format string, args ...any) {
	l.model.Warnings = append(l.model.Warnings, fmt.Sprintf(format, args...))
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
	doc := new(gltf.Document)
	if err := json.Unmarshal(js, doc); err != nil {
		return nil, jsonError(err, js)
	}
	l.doc = doc
	if err := checkExtensions(js); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(doc.Asset.Version, "2.") {
		return nil, fmt.Errorf("asset.version %q: only glTF 2.x is supported", doc.Asset.Version)
	}
	for _, ext := range doc.ExtensionsRequired {
		switch ext {
		case "KHR_mesh_quantization":
		case "KHR_draco_mesh_compression", "EXT_meshopt_compression", "KHR_texture_basisu":
			return nil, fmt.Errorf("extensionsRequired: %s is not supported", ext)
		default:
			l.warnf("extensionsRequired: %s is not supported; the model is shown without it", ext)
		}
	}
	if err := l.loadBuffers(bin, isGLB); err != nil {
		return nil, err
	}
	if err := l.loadNodes(); err != nil {
		return nil, err
	}
	if err := l.loadSkins(); err != nil {
		return nil, err
	}
	if err := l.loadTextures(); err != nil {
		return nil, err
	}
	if err := l.loadMaterials(); err != nil {
		return nil, err
	}
	if err := l.loadMeshes(); err != nil {
		return nil, err
	}
	if err := l.loadScene(); err != nil {
		return nil, err
	}
	if err := l.loadAnimations(); err != nil {
		return nil, err
	}
	return l.model, nil
}

// splitGLB returns the JSON and BIN chunks of a GLB container, or data
// itself when it is plain JSON.
func (l *loader) splitGLB(data []byte) (js, bin []byte, isGLB bool, err error) {
	if len(data) < 4 || binary.LittleEndian.Uint32(data) != glbMagic {
		return data, nil, false, nil
	}
	if len(data) < 20 {
		return nil, nil, true, fmt.Errorf("glb: %d bytes is shorter than the 20-byte header", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
		return nil, nil, true, fmt.Errorf("glb: container version %d, want 2", v)
	}
	total := binary.LittleEndian.Uint32(data[8:])
	if int64(total) > int64(len(data)) {
		return nil, nil, true, fmt.Errorf("glb: header length %d but the file has %d bytes", total, len(data))
	}
	data = data[:total]
	off := 12
	for chunk := 0; off+8 <= len(data); chunk++ {
		clen := int64(binary.LittleEndian.Uint32(data[off:]))
		ctype := binary.LittleEndian.Uint32(data[off+4:])
		if int64(off)+8+clen > int64(len(data)) {
			return nil, nil, true, fmt.Errorf("glb: chunk %d length %d runs past the end of the file (%d bytes)", chunk, clen, len(data))
		}
		body := data[off+8 : off+8+int(clen)]
		switch {
		case chunk == 0 && ctype != glbChunkJSON:
			return nil, nil, true, fmt.Errorf("glb: first chunk has type 0x%08x, want JSON", ctype)
		case chunk == 0:
			js = body
		case chunk == 1 && ctype == glbChunkBIN:
			bin = body
		}
		off += 8 + int(clen)
	}
	if js == nil {
		return nil, nil, true, errors.New("glb: no JSON chunk")
	}
	return js, bin, true, nil
}

// jsonError adds a line and column to JSON syntax errors.
func jsonError(err error, js []byte) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(js, se.Offset)
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
	return fmt.Errorf("invalid glTF JSON: %w", err)
}

func lineCol(b []byte, off int64) (int, int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	before := b[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func (l *loader) loadBuffers(bin []byte, isGLB bool) error {
	for i, b := range l.doc.Buffers {
		where := fmt.Sprintf("buffers[%d]", i)
		if b == nil {
			return fmt.Errorf("%s: null", where)
		}
		if b.ByteLength < 1 {
			return fmt.Errorf("%s: byteLength %d, want at least 1", where, b.ByteLength)
		}
		var data []byte
		switch {
		case b.URI == "" && i == 0 && isGLB:
			if bin == nil {
				return fmt.Errorf("%s: GLB has no BIN chunk", where)
			}
			data = bin
		case b.URI == "":
			return fmt.Errorf("%s: no uri (only the first buffer of a GLB may omit it)", where)
		default:
			var err error
			if data, err = l.resolveURI(b.URI); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		}
		if len(data) < b.ByteLength {
			return fmt.Errorf("%s: byteLength is %d but only %d bytes are there", where, b.ByteLength, len(data))
		}
		b.Data = data[:b.ByteLength:b.ByteLength]
	}
	return nil
}

// resolveURI returns the bytes behind a buffer or image URI: a data URI or
// a relative path inside the model's folder.
func (l *loader) resolveURI(uri string) ([]byte, error) {
	if strings.HasPrefix(uri, "data:") {
		comma := strings.IndexByte(uri, ',')
		if comma < 0 {
			return nil, errors.New("data URI has no ',' before its data")
		}
		meta, payload := uri[5:comma], uri[comma+1:]
		if !strings.HasSuffix(meta, ";base64") {
			s, err := url.PathUnescape(payload)
			if err != nil {
				return nil, fmt.Errorf("data URI does not decode: %v", err)
			}
			return []byte(s), nil
		}
		d, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			return nil, fmt.Errorf("data URI does not decode: %v", err)
		}
		return d, nil
	}
	if u, err := url.Parse(uri); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return nil, fmt.Errorf("uri %q: only relative file paths and data URIs are read", uri)
	}
	p, err := url.PathUnescape(strings.ReplaceAll(uri, "\\", "/"))
	if err != nil {
		return nil, fmt.Errorf("uri %q: %v", uri, err)
	}
	p = strings.TrimPrefix(p, "./")
	if !fs.ValidPath(p) {
		return nil, fmt.Errorf("uri %q leaves the model's folder", uri)
	}
	if l.fsys == nil {
		return nil, fmt.Errorf("uri %q: external files cannot be read here", uri)
	}
	d, err := fs.ReadFile(l.fsys, p)
	if err != nil {
		return nil, fmt.Errorf("uri %q: %v", uri, err)
	}
	return d, nil
}

func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// loadNodes builds the skeleton over every node, parents first.
func (l *loader) loadNodes() error {
	nodes := l.doc.Nodes
	n := len(nodes)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
	}
	for i, nd := range nodes {
		if nd == nil {
			return fmt.Errorf("nodes[%d]: null", i)
		}
		for k, c := range nd.Children {
			if c < 0 || c >= n {
				return fmt.Errorf("nodes[%d].children[%d]: node %d does not exist (%d nodes)", i, k, c, n)
			}
			if c == i {
				return fmt.Errorf("nodes[%d].children[%d]: a node cannot be its own child", i, k)
			}
			if parent[c] >= 0 {
				return fmt.Errorf("nodes[%d].children[%d]: node %d already has parent nodes[%d]; a node has one parent", i, k, c, parent[c])
			}
			parent[c] = i
		}
	}
	order := make([]int, 0, n)
	jointOf := make([]int, n)
	for i := range jointOf {
		jointOf[i] = -1
	}
	stack := make([]int, 0, 16)
	for root := 0; root < n; root++ {
		if parent[root] >= 0 {
			continue
		}
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			jointOf[v] = len(order)
			order = append(order, v)
			ch := nodes[v].Children
			for k := len(ch) - 1; k >= 0; k-- {
				stack = append(stack, ch[k])
			}
		}
	}
	if len(order) != n {
		for i := range jointOf {
			if jointOf[i] < 0 {
				return fmt.Errorf("nodes[%d]: the node hierarchy has a cycle through this node", i)
			}
		}
	}
	sk := anim.Skeleton{Names: make([]string, n), Parents: make([]int, n), Rest: make([]anim.Transform, n)}
	for j, ni := range order {
		nd := nodes[ni]
		sk.Names[j] = nd.Name
		if nd.Name == "" {
			sk.Names[j] = fmt.Sprintf("node%d", ni)
		}
		if parent[ni] >= 0 {
			sk.Parents[j] = jointOf[parent[ni]]
		} else {
			sk.Parents[j] = -1
		}
		t, err := l.nodeTransform(ni, nd)
		if err != nil {
			return err
		}
		sk.Rest[j] = t
	}
	l.model.Skeleton = sk
	l.model.NodeOfJoint = order
	l.model.NodeNames = make([]string, n)
	for i, nd := range nodes {
		l.model.NodeNames[i] = nd.Name
	}
	l.model.JointOfNode = jointOf
	return nil
}

func (l *loader) nodeTransform(i int, nd *gltf.Node) (anim.Transform, error) {
	if nd.Matrix != gltf.DefaultMatrix {
		if !finite(nd.Matrix[:]...) {
			return anim.Transform{}, fmt.Errorf("nodes[%d].matrix: not finite", i)
		}
		var m mgl32.Mat4
		for k, v := range nd.Matrix {
			m[k] = float32(v)
		}
		if m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1 {
			l.warnf("nodes[%d].matrix: not affine (last row %v %v %v %v); the last row is ignored", i, m[3], m[7], m[11], m[15])
		}
		return anim.DecomposeMat4(m), nil
	}
	r, s, t := nd.RotationOrDefault(), nd.ScaleOrDefault(), nd.TranslationOrDefault()
	if !finite(r[:]...) || !finite(s[:]...) || !finite(t[:]...) {
		return anim.Transform{}, fmt.Errorf("nodes[%d]: translation, rotation or scale is not finite", i)
	}
	q := mgl32.Quat{W: float32(r[3]), V: mgl32.Vec3{float32(r[0]), float32(r[1]), float32(r[2])}}
	if ql := q.Len(); math.Abs(float64(ql)-1) > 1e-3 {
		l.warnf("nodes[%d].rotation: length %.4g, normalized", i, ql)
	}
	return anim.Transform{
		Translation: mgl32.Vec3{float32(t[0]), float32(t[1]), float32(t[2])},
		Rotation:    anim.NormalizeQuat(q),
		Scale:       mgl32.Vec3{float32(s[0]), float32(s[1]), float32(s[2])},
	}, nil
}

func (l *loader) loadSkins() error {
	for i, s := range l.doc.Skins {
		where := fmt.Sprintf("skins[%d]", i)
		if s == nil {
			return fmt.Errorf("%s: null", where)
		}
		if len(s.Joints) == 0 {
			return fmt.Errorf("%s.joints: empty", where)
		}
		sk := anim.Skin{Name: s.Name, Joints: make([]int, len(s.Joints)), InverseBind: make([]mgl32.Mat4, len(s.Joints))}
		for k, nd := range s.Joints {
			if nd < 0 || nd >= len(l.doc.Nodes) {
				return fmt.Errorf("%s.joints[%d]: node %d does not exist (%d nodes)", where, k, nd, len(l.doc.Nodes))
			}
			sk.Joints[k] = l.model.JointOfNode[nd]
			sk.InverseBind[k] = mgl32.Ident4()
		}
		if s.InverseBindMatrices != nil {
			acc := *s.InverseBindMatrices
			l.warnStride(acc, "inverse bind matrices")
			vals, _, err := l.floats(acc, gltf.AccessorMat4)
			if err != nil {
				return fmt.Errorf("%s.inverseBindMatrices: %w", where, err)
			}
			if len(vals)/16 < len(s.Joints) {
				return fmt.Errorf("%s.inverseBindMatrices: accessors[%d] has %d matrices for %d joints", where, acc, len(vals)/16, len(s.Joints))
			}
			for k := range s.Joints {
				m := vals[k*16 : k*16+16]
				for c := range 16 {
					if !finite(float64(m[c])) {
						return fmt.Errorf("%s.inverseBindMatrices: matrix %d is not finite", where, k)
					}
					sk.InverseBind[k][c] = m[c]
				}
			}
		}
		root := -1
		if s.Skeleton != nil {
			if *s.Skeleton < 0 || *s.Skeleton >= len(l.doc.Nodes) {
				return fmt.Errorf("%s.skeleton: node %d does not exist (%d nodes)", where, *s.Skeleton, len(l.doc.Nodes))
			}
			root = l.model.JointOfNode[*s.Skeleton]
		}
		l.model.Skins = append(l.model.Skins, sk)
		l.model.SkinRoots = append(l.model.SkinRoots, root)
	}
	return nil
}

// loadScene picks the shown scene and lists the nodes in it that draw.
func (l *loader) loadScene() error {
	var roots []int
	switch {
	case l.doc.Scene != nil:
		si := *l.doc.Scene
		if si < 0 || si >= len(l.doc.Scenes) || l.doc.Scenes[si] == nil {
			return fmt.Errorf("scene: scenes[%d] does not exist (%d scenes)", si, len(l.doc.Scenes))
		}
		roots = l.doc.Scenes[si].Nodes
		if len(roots) == 0 {
			return fmt.Errorf("scenes[%d]: no nodes; the shown scene is empty", si)
		}
	case len(l.doc.Scenes) > 0 && l.doc.Scenes[0] != nil:
		roots = l.doc.Scenes[0].Nodes
		if len(roots) == 0 {
			return fmt.Errorf("scenes[0]: no nodes; the shown scene is empty")
		}
	default:
		for i := range l.doc.Nodes {
			if l.model.Skeleton.Parents[l.model.JointOfNode[i]] < 0 {
				roots = append(roots, i)
			}
		}
		if len(l.doc.Nodes) > 0 {
			l.warnf("scene: the file names no scene; every root node is shown")
		}
	}
	shown := make([]bool, len(l.doc.Nodes))
	for k, r := range roots {
		if r < 0 || r >= len(l.doc.Nodes) {
			return fmt.Errorf("scenes.nodes[%d]: node %d does not exist (%d nodes)", k, r, len(l.doc.Nodes))
		}
		shown[l.model.JointOfNode[r]] = true
	}
	// Parents come first, so one pass marks whole subtrees.
	sk := &l.model.Skeleton
	for j := range sk.Parents {
		if p := sk.Parents[j]; p >= 0 && shown[p] {
			shown[j] = true
		}
	}
	for j, on := range shown {
		if !on {
			continue
		}
		ni := l.model.NodeOfJoint[j]
		nd := l.doc.Nodes[ni]
		if nd.Mesh == nil {
			continue
		}
		mi := *nd.Mesh
		if mi < 0 || mi >= len(l.model.Meshes) {
			return fmt.Errorf("nodes[%d].mesh: meshes[%d] does not exist (%d meshes)", ni, mi, len(l.model.Meshes))
		}
		inst := Instance{Node: ni, Mesh: mi, Skin: -1}
		if nd.Skin != nil {
			si := *nd.Skin
			if si < 0 || si >= len(l.model.Skins) {
				return fmt.Errorf("nodes[%d].skin: skins[%d] does not exist (%d skins)", ni, si, len(l.model.Skins))
			}
			inst.Skin = si
			for pi := range l.model.Meshes[mi].Primitives {
				p := &l.model.Meshes[mi].Primitives[pi]
				if p.Joints == nil {
					continue
				}
				if mj := maxUsedJoint(p); mj >= len(l.model.Skins[si].Joints) {
					return fmt.Errorf("meshes[%d].primitives[%d]: joint index %d is beyond the %d joints of skins[%d] (used by nodes[%d])", mi, pi, mj, len(l.model.Skins[si].Joints), si, ni)
				}
			}
		}
		l.model.Instances = append(l.model.Instances, inst)
	}
	return nil
}

func maxUsedJoint(p *Primitive) int {
	mj := -1
	for k, j := range p.AllJoints {
		if p.AllWeights[k] != 0 && int(j) > mj {
			mj = int(j)
		}
	}
	return mj
}
