package render

import (
	"fmt"
	"image"
	"image/color"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/debugview"
)

// PaletteEntryFloats is the linear-blend palette's entry as skin.vert reads
// it: an affine 3×4 matrix, three std140 vec4 rows, anim.PaletteFloats
// floats. render may not import anim, so internal/scene, which imports
// both, fails to build if the two disagree.
const PaletteEntryFloats = 12

// paletteEntryBytes is one std140 palette entry.
const paletteEntryBytes = 4 * PaletteEntryFloats

// maxPaletteJoints caps the palette size even on drivers with very large
// uniform blocks: beyond it a skin is split into partitions anyway.
const maxPaletteJoints = 1024

// MeshID names an uploaded mesh.
type MeshID int

// TextureID names an uploaded texture; NoTexture is plain white.
type TextureID int

// NoTexture means a material without a base colour texture.
const NoTexture TextureID = -1

// MeshData is one triangle list in the vertex layout skin.vert reads.
// Vertex count n = len(Positions)/3.
type MeshData struct {
	Positions []float32 // xyz per vertex, bind space
	Normals   []float32 // xyz per vertex
	UV        []float32 // TEXCOORD_0, uv per vertex, or nil
	UV1       []float32 // TEXCOORD_1, or nil
	Tangents  []float32 // TANGENT, xyzw per vertex (bind space, skinned with the normals), or nil
	// FlatNormals draws each triangle with its own posed normal (glTF's
	// flat normals for a primitive without NORMAL), whatever Normals say.
	FlatNormals bool
	Colors      []float32 // linear RGBA per vertex multiplying the base colour, or nil
	// Joints and Weights: four per vertex, indices into the palette drawn
	// with. Nil for a rigid mesh, which is drawn with palette entry 0.
	Joints  []uint16
	Weights []float32
	Indices []uint32 // three per triangle
	// Dynamic meshes have their positions and normals rewritten every
	// frame (CPU skinning) through UpdateVertices.
	Dynamic bool
	// Targets are the morph targets a draw's Morph weights apply.
	Targets []MorphTarget
}

// DrawItem is one draw call.
type DrawItem struct {
	Mesh     MeshID
	Material Material
	// Palette holds PaletteEntryFloats floats (three rows) per joint, or 8
	// per joint (a dual quaternion) when the frame skins with DualQuat.
	Palette []float32
	// Tint is the flat colour of the Partitions view (linear RGBA).
	Tint [4]float32
	// WeightJoint is the palette entry whose weights the Weights view
	// shows, or -1 when this draw has no such joint.
	WeightJoint int
	// Morph holds the weights of the mesh's morph targets, one per
	// target, or nil to draw the mesh unmorphed.
	Morph []float32
	// Center is a world-space point of the draw (its bounds' centre),
	// by which blended draws are sorted back to front.
	Center [3]float32
	// Mirrored makes the mesh's clockwise triangles its front faces: its
	// node's global transform has a negative determinant, which mirrors
	// it, and glTF (§3.7.4) then reverses the winding order.
	Mirrored bool
	// Instances, when above 0, draws the mesh that many times in one
	// call (a crowd): instance k is member Members[k] of Batch, whose
	// record holds its palette, offset and morph weights (Palette and
	// Morph are not read). Instances skin by linear blend.
	Instances int
	Members   []int32
	Batch     *InstanceBatch
}

// Skinning is a vertex-skinning method.
type Skinning int

const (
	// LinearBlend blends 3×4 matrices (PaletteEntryFloats floats per
	// joint).
	LinearBlend Skinning = iota
	// DualQuat blends unit dual quaternions (8 floats per joint: real
	// x y z w, then dual x y z w).
	DualQuat
)

// Frame is everything drawn in one frame.
type Frame struct {
	// Target is where the frame is drawn: nil is the default framebuffer
	// (the window's).
	Target        *Target
	Width, Height int // viewport in framebuffer pixels
	// Skinning selects the vertex shader; it decides the palette layout
	// of every item.
	Skinning Skinning
	// View is the debug view (debugview.Shaded by default).
	View debugview.Mode
	// Wireframe draws triangle edges only.
	Wireframe bool
	// Grid, when not nil, is drawn before the items, depth-tested.
	Grid *Grid
	// Trail, when not nil, is drawn after the items, depth-tested: the
	// body hides what of it passes behind.
	Trail  *Path
	Camera Camera
	Clear  color.NRGBA
	Items  []DrawItem
	// Model moves every item (not the grid): a rigid transform, the
	// identity when zero.
	Model mgl32.Mat4
	// Lighting is how Shaded lights: the viewer's own look, or the
	// reference renderer's stage, for comparisons. Lights are the file's
	// punctual lights, which the reference stage adds (at most MaxLights).
	Lighting Lighting
	Lights   []Light
	// Tonemap maps the viewer's look's light to the display, after
	// scaling it by 2^Exposure (EV); the reference stage and the debug
	// views are not tone mapped.
	Tonemap  Tonemap
	Exposure float32
	// Shadow draws the key light's shadow of the opaque and masked items
	// onto the ground plane y = GroundY (world units), in the viewer's
	// look.
	Shadow  bool
	GroundY float32
}

// Tonemap is a mapping of scene light to display values.
type Tonemap int

const (
	// Neutral is the Khronos PBR Neutral tone mapping: base colours under
	// unit light stay as authored, highlights compress towards white.
	Neutral Tonemap = iota
	// ACES is Stephen Hill's fit of the ACES reference rendering and
	// output transforms.
	ACES
	// NoTonemap clamps.
	NoTonemap
)

// ParseTonemap reads -tonemap's names: neutral, aces, none.
func ParseTonemap(s string) (Tonemap, error) {
	switch s {
	case "neutral", "":
		return Neutral, nil
	case "aces":
		return ACES, nil
	case "none":
		return NoTonemap, nil
	}
	return Neutral, fmt.Errorf("-tonemap %q: want neutral, aces or none", s)
}

// Lighting is a lighting of the shaded view.
type Lighting int

const (
	// OwnLighting is the viewer's look: glTF's metallic-roughness
	// materials lit by the environment (SetEnvironment) and a key light,
	// tone mapped.
	OwnLighting Lighting = iota
	// ReferenceStage lights glTF's metallic-roughness materials as the
	// reference renderer's lit frames are (three.js r187's
	// MeshStandardMaterial under HemisphereLight(0xffffff, 0x444444,
	// 1.5) and DirectionalLight(0xffffff, 2.0) at (1, 2, 3), no
	// environment, no tone mapping): a verification mode, not a look.
	ReferenceStage
)

type gpuMesh struct {
	vao, vbo, ebo uint32
	count         int32 // indices
	vertices      int32
	posOff        int // byte offsets of positions and normals in vbo
	nrmOff        int
	hasUV, hasUV1 bool
	hasTangent    bool
	flat          bool // MeshData.FlatNormals
	hasColor      bool
	skinned       bool
	live          bool
	// morphBuf and morphTex hold the morph targets' displacements, 0
	// when the mesh has none; targets counts them.
	morphBuf, morphTex uint32
	targets            int32
}

// Renderer draws skinned meshes. It needs a current GL 4.1 context and must
// be used from the thread that owns it.
type Renderer struct {
	// frameUniforms hold the values Draw hands to GL by pointer.
	frameUniforms struct {
		vp, model   mgl32.Mat4
		light, eye  mgl32.Vec3
		shadow      [4]float32
		shadowColor [3]float32
	}
	lbs, dq pipeline
	inst    pipeline // skin.vert instanced, for crowds
	// The ground shadow pass's twins of lbs, dq and inst (shadow.frag).
	shadowLBS, shadowDQ, shadowInst pipeline
	instanceBytes                   int        // uploaded for instanced items by the last Draw
	blendOrder                      []int      // the blended items of the frame being drawn
	uv                              [9]float32 // the UV transform handed to GL by pointer
	mapUV                           [4][9]float32
	hasMap                          [4]int32
	sets                            [5]int32 // the coordinate set of the base colour texture and each map
	dfg                             uint32   // the split-sum table (dfgTable)
	// env is the prefiltered radiance cube map, envLevels its highest
	// level, envSH the irradiance coefficients (SetEnvironment).
	env        uint32
	shadowPass bool // drawShadow's items are drawing
	envLevels  float32
	envSH      [9][3]float32
	timer      gpuTimer // Draw on the GPU (GPUMillis)
	// lightUniforms hold the lights Draw hands to GL by pointer.
	lightUniforms struct {
		kind            [MaxLights]int32
		pos, dir, color [MaxLights]mgl32.Vec3
		rng             [MaxLights]float32
		cone            [MaxLights][2]float32
	}
	lines       *lines
	ubo         uint32
	uboSize     int
	uboAlign    int
	maxJoints   int
	white       uint32
	meshes      []gpuMesh
	textures    []uint32
	uploadBuf   []byte
	offsets     []int
	PaletteUsed int // bytes of palette uploaded by the last Draw
	DrawCalls   int // draw calls of the scene's items issued by the last Draw
	ShadowCalls int // draw calls of their ground shadow
	defines     string
	// The Morph blocks of the last Draw (see morph.go), and the empty
	// displacement texture of meshes without targets.
	morphUBO          uint32
	morphSize         int
	morphOffsets      []int
	morphData         []float32
	noMorph, noMorphB uint32
	// MorphDropped counts the targets of non-zero weight the last Draw
	// left out, beyond MaxActiveTargets per draw.
	MorphDropped int
}

// New initializes GL function pointers and builds the shaders. The palette
// capacity comes from GL_MAX_UNIFORM_BLOCK_SIZE.
func New() (*Renderer, error) {
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("render: OpenGL: %w", err)
	}
	r := &Renderer{}
	var maxBlock, align int32
	gl.GetIntegerv(gl.MAX_UNIFORM_BLOCK_SIZE, &maxBlock)
	gl.GetIntegerv(gl.UNIFORM_BUFFER_OFFSET_ALIGNMENT, &align)
	r.maxJoints = int(maxBlock) / paletteEntryBytes
	if r.maxJoints > maxPaletteJoints {
		r.maxJoints = maxPaletteJoints
	}
	if r.maxJoints < 1 {
		return nil, fmt.Errorf("render: GL_MAX_UNIFORM_BLOCK_SIZE is %d bytes, too small for a palette", maxBlock)
	}
	r.uboAlign = max(int(align), 16)
	r.defines = fmt.Sprintf("#define MAX_JOINTS %d\n#define MAX_MORPH_PAIRS %d\n", r.maxJoints, MaxActiveTargets/2)
	var err error
	for _, p := range []struct {
		pl          *pipeline
		vert, frag  string
		instanced   bool
		entryFloats int
	}{
		{&r.lbs, "skin.vert", "lit.frag", false, PaletteEntryFloats},
		{&r.dq, "skin_dq.vert", "lit.frag", false, 8},
		{&r.inst, "skin.vert", "lit.frag", true, PaletteEntryFloats},
		{&r.shadowLBS, "skin.vert", "shadow.frag", false, PaletteEntryFloats},
		{&r.shadowDQ, "skin_dq.vert", "shadow.frag", false, 8},
		{&r.shadowInst, "skin.vert", "shadow.frag", true, PaletteEntryFloats},
	} {
		defines := r.defines
		if p.instanced {
			defines += "#define INSTANCED\n"
		}
		if *p.pl, err = newPipeline(p.vert, p.frag, defines, p.entryFloats); err != nil {
			r.Destroy()
			return nil, err
		}
	}
	if r.lines, err = newLines(); err != nil {
		r.Destroy()
		return nil, err
	}
	gl.GenBuffers(1, &r.ubo)
	gl.GenBuffers(1, &r.morphUBO)
	r.noMorphB, r.noMorph = newNoMorph()
	r.white = uploadTexture(image.NewNRGBA(image.Rect(0, 0, 1, 1)), true, Sampler{}, true)
	r.dfg = uploadDFG()
	if err := r.SetEnvironment(UniformEnvironment(0.5)); err != nil {
		r.Destroy()
		return nil, err
	}
	return r, nil
}

// MaxJoints is how many palette entries one draw call can use.
func (r *Renderer) MaxJoints() int { return r.maxJoints }

// AddMesh uploads a mesh and returns its handle.
func (r *Renderer) AddMesh(d MeshData) (MeshID, error) {
	n := len(d.Positions) / 3
	if len(d.Normals) != n*3 || (d.UV != nil && len(d.UV) != n*2) || (d.UV1 != nil && len(d.UV1) != n*2) || (d.Tangents != nil && len(d.Tangents) != n*4) || (d.Colors != nil && len(d.Colors) != n*4) ||
		(d.Joints == nil) != (d.Weights == nil) || (d.Joints != nil && (len(d.Joints) != n*4 || len(d.Weights) != n*4)) {
		return -1, fmt.Errorf("render: mesh arrays disagree on the vertex count (%d positions)", n)
	}
	for _, i := range d.Indices {
		if int(i) >= n {
			return -1, fmt.Errorf("render: index %d out of %d vertices", i, n)
		}
	}
	for k, j := range d.Joints {
		if int(j) >= r.maxJoints && d.Weights[k] != 0 {
			return -1, fmt.Errorf("render: joint %d is beyond the palette's %d entries", j, r.maxJoints)
		}
	}
	var m gpuMesh
	gl.GenVertexArrays(1, &m.vao)
	gl.BindVertexArray(m.vao)
	// One buffer, attributes one after another: simpler than interleaving
	// and just as fast for a viewer's vertex counts.
	size := n * (12 + 12 + 8 + 8 + 16 + 8 + 16 + 16)
	gl.GenBuffers(1, &m.vbo)
	gl.BindBuffer(gl.ARRAY_BUFFER, m.vbo)
	usage := uint32(gl.STATIC_DRAW)
	if d.Dynamic {
		usage = gl.DYNAMIC_DRAW
	}
	gl.BufferData(gl.ARRAY_BUFFER, size, nil, usage)
	off := 0
	put := func(ptr unsafe.Pointer, bytes int) int {
		at := off
		if bytes > 0 {
			gl.BufferSubData(gl.ARRAY_BUFFER, off, bytes, ptr)
		}
		off += bytes
		return at
	}
	pos := put(gl.Ptr(d.Positions), n*12)
	m.posOff = pos
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, 0, uintptr(pos))
	nrm := put(gl.Ptr(d.Normals), n*12)
	m.nrmOff = nrm
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 3, gl.FLOAT, false, 0, uintptr(nrm))
	// attrib puts data (comps floats a vertex) at the next offset as
	// attribute loc, or disables loc without data; it says which.
	attrib := func(loc uint32, comps int32, data []float32) bool {
		if data == nil || n == 0 {
			gl.DisableVertexAttribArray(loc)
			return false
		}
		at := put(gl.Ptr(data), n*int(comps)*4)
		gl.EnableVertexAttribArray(loc)
		gl.VertexAttribPointerWithOffset(loc, comps, gl.FLOAT, false, 0, uintptr(at))
		return true
	}
	m.hasUV, m.hasUV1, m.hasColor = attrib(2, 2, d.UV), attrib(6, 2, d.UV1), attrib(5, 4, d.Colors)
	m.hasTangent = attrib(7, 4, d.Tangents)
	m.flat = d.FlatNormals
	if d.Joints != nil && n > 0 {
		j := put(gl.Ptr(d.Joints), n*8)
		gl.EnableVertexAttribArray(3)
		gl.VertexAttribIPointerWithOffset(3, 4, gl.UNSIGNED_SHORT, 0, uintptr(j))
		w := put(gl.Ptr(d.Weights), n*16)
		gl.EnableVertexAttribArray(4)
		gl.VertexAttribPointerWithOffset(4, 4, gl.FLOAT, false, 0, uintptr(w))
		m.skinned = true
	} else {
		gl.DisableVertexAttribArray(3)
		gl.DisableVertexAttribArray(4)
	}
	if err := m.uploadTargets(n, d.Targets); err != nil {
		gl.BindVertexArray(0)
		gl.DeleteVertexArrays(1, &m.vao)
		gl.DeleteBuffers(1, &m.vbo)
		return -1, err
	}
	gl.GenBuffers(1, &m.ebo)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, m.ebo)
	if len(d.Indices) > 0 {
		gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, len(d.Indices)*4, gl.Ptr(d.Indices), gl.STATIC_DRAW)
	}
	m.count = int32(len(d.Indices))
	m.vertices = int32(n)
	m.live = true
	gl.BindVertexArray(0)
	r.meshes = append(r.meshes, m)
	return MeshID(len(r.meshes) - 1), nil
}

// UpdateVertices replaces a mesh's positions and normals (same vertex
// count as uploaded): the CPU-skinning path draws through this.
func (r *Renderer) UpdateVertices(id MeshID, positions, normals []float32) error {
	if id < 0 || int(id) >= len(r.meshes) || !r.meshes[id].live {
		return fmt.Errorf("render: update of mesh %d, which is not uploaded", id)
	}
	m := &r.meshes[id]
	n := int(m.vertices)
	if len(positions) != n*3 || len(normals) != n*3 {
		return fmt.Errorf("render: mesh %d has %d vertices; update has %d positions and %d normals", id, n, len(positions)/3, len(normals)/3)
	}
	if n == 0 {
		return nil
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, m.vbo)
	// unsafe.Pointer rather than gl.Ptr: gl.Ptr takes an interface and
	// allocates, and this runs every frame.
	gl.BufferSubData(gl.ARRAY_BUFFER, m.posOff, n*12, unsafe.Pointer(&positions[0]))
	gl.BufferSubData(gl.ARRAY_BUFFER, m.nrmOff, n*12, unsafe.Pointer(&normals[0]))
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	return nil
}

// RemoveMesh frees a mesh's GL objects.
func (r *Renderer) RemoveMesh(id MeshID) {
	if id < 0 || int(id) >= len(r.meshes) || !r.meshes[id].live {
		return
	}
	m := &r.meshes[id]
	gl.DeleteVertexArrays(1, &m.vao)
	gl.DeleteBuffers(1, &m.vbo)
	gl.DeleteBuffers(1, &m.ebo)
	m.freeTargets()
	m.live = false
}

// Clear frees every mesh and texture, keeping the program: used when the
// viewer switches models.
func (r *Renderer) Clear() {
	for i := range r.meshes {
		r.RemoveMesh(MeshID(i))
	}
	r.meshes = r.meshes[:0]
	if len(r.textures) > 0 {
		gl.DeleteTextures(int32(len(r.textures)), &r.textures[0])
	}
	r.textures = r.textures[:0]
}

// Finish waits until the GPU has done every command sent so far, so that
// a timing taken after it measures the frame, not only its submission.
func (r *Renderer) Finish() { gl.Finish() }

// Destroy frees everything the renderer made.
func (r *Renderer) Destroy() {
	r.Clear()
	r.timer.destroy()
	if r.white != 0 {
		gl.DeleteTextures(1, &r.white)
		gl.DeleteTextures(1, &r.dfg)
	}
	if r.env != 0 {
		gl.DeleteTextures(1, &r.env)
	}
	if r.ubo != 0 {
		gl.DeleteBuffers(1, &r.ubo)
	}
	if r.morphUBO != 0 {
		gl.DeleteBuffers(1, &r.morphUBO)
		gl.DeleteTextures(1, &r.noMorph)
		gl.DeleteBuffers(1, &r.noMorphB)
	}
	r.lbs.destroy()
	r.dq.destroy()
	r.inst.destroy()
	r.shadowLBS.destroy()
	r.shadowDQ.destroy()
	r.shadowInst.destroy()
	if r.lines != nil {
		r.lines.destroy()
	}
	*r = Renderer{}
}
