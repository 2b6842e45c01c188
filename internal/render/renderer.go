package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
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

// Prepare is the CPU side of drawing frame f, which Draw starts with: it
// packs and uploads every item's palette, morph weights and instance
// records, one upload of each a frame.
func (r *Renderer) Prepare(f *Frame) error {
	pl := &r.lbs
	if f.Skinning == DualQuat {
		pl = &r.dq
	}
	if err := r.uploadPalettes(f.Items, pl.entryFloats); err != nil {
		return err
	}
	if err := r.uploadInstances(f.Items); err != nil {
		return err
	}
	r.uploadMorph(f.Items)
	return nil
}

// Draw renders a frame into its target. All palettes go into one uniform
// buffer, each draw binding its range.
func (r *Renderer) Draw(f *Frame) error {
	r.beginTimer()
	defer r.endTimer()
	bindTarget(f.Target)
	pl := &r.lbs
	if f.Skinning == DualQuat {
		pl = &r.dq
	}
	if err := r.Prepare(f); err != nil {
		return err
	}
	gl.Viewport(0, 0, int32(f.Width), int32(f.Height))
	gl.ClearColor(float32(f.Clear.R)/255, float32(f.Clear.G)/255, float32(f.Clear.B)/255, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT)
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LESS)
	aspect := float32(f.Width) / float32(max(f.Height, 1))
	// Uniform values live in the renderer: a pointer to a local handed to
	// cgo would move it to the heap every frame.
	u := &r.frameUniforms
	u.vp = f.Camera.Proj(aspect).Mul4(f.Camera.View())
	if f.Grid != nil {
		r.lines.draw((*[16]float32)(&u.vp), f.Grid)
	}
	if f.Wireframe {
		gl.PolygonMode(gl.FRONT_AND_BACK, gl.LINE)
		defer gl.PolygonMode(gl.FRONT_AND_BACK, gl.FILL)
	}
	u.model = f.Model
	if u.model == (mgl32.Mat4{}) {
		u.model = mgl32.Ident4()
	}
	u.light = KeyLight
	u.eye = f.Camera.Eye()
	instanced := false
	for i := range f.Items {
		instanced = instanced || f.Items[i].Instances > 0
	}
	if instanced {
		if f.Skinning != LinearBlend {
			return fmt.Errorf("render: instanced draws skin by linear blend only")
		}
		r.setFrame(&r.inst, f)
	}
	r.setFrame(pl, f)
	r.DrawCalls, r.ShadowCalls = 0, 0
	if f.Shadow && f.View == debugview.Shaded && f.Lighting == OwnLighting {
		if err := r.drawShadow(pl, f); err != nil {
			return err
		}
	}
	// Opaque and masked draws first, in order; then the blended ones,
	// farthest first, over them without writing depth.
	r.blendOrder = r.blendOrder[:0]
	for i := range f.Items {
		if f.Items[i].Material.Alpha == Blend {
			r.blendOrder = append(r.blendOrder, i)
			continue
		}
		if err := r.drawItem(pl, f, i); err != nil {
			return err
		}
	}
	if len(r.blendOrder) > 0 {
		r.sortBlended(f)
		gl.Enable(gl.BLEND)
		// The destination keeps its alpha: read-back pictures stay opaque.
		gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE)
		gl.DepthMask(false)
		for _, i := range r.blendOrder {
			if err := r.drawItem(pl, f, i); err != nil {
				gl.DepthMask(true)
				gl.Disable(gl.BLEND)
				return err
			}
		}
		gl.DepthMask(true)
		gl.Disable(gl.BLEND)
	}
	gl.BindVertexArray(0)
	if f.Trail != nil {
		r.lines.drawVertices((*[16]float32)(&u.vp), f.Trail.Points, f.Trail.Color, gl.LINE_STRIP)
	}
	return nil
}

// KeyLight is the direction the viewer's key light travels: from above
// front-left (azimuth −45° from +Z towards +X, elevation 40°), where the
// built-in studio environment has its key softbox, so that the shadow on
// the ground falls where the environment's brightest light would cast it.
var KeyLight = mgl32.Vec3{0.5417, -0.6428, -0.5417}.Normalize()

// setFrame hands f's uniforms to pipeline pl's program and leaves it in
// use.
func (r *Renderer) setFrame(pl *pipeline, f *Frame) {
	u := &r.frameUniforms
	gl.UseProgram(uint32(pl.prog))
	gl.UniformMatrix4fv(pl.uViewProj, 1, false, &u.vp[0])
	gl.UniformMatrix4fv(pl.uModel, 1, false, &u.model[0])
	gl.Uniform3fv(pl.uLightDir, 1, &u.light[0])
	gl.Uniform3fv(pl.uEye, 1, &u.eye[0])
	gl.Uniform1i(pl.uBaseTex, 0)
	gl.Uniform1iv(pl.uMaps, int32(len(mapUnits)), &mapUnits[0])
	gl.Uniform1i(pl.uLighting, int32(f.Lighting))
	r.setLights(pl, f.Lights)
	gl.Uniform1i(pl.uDFG, dfgUnit)
	gl.ActiveTexture(gl.TEXTURE0 + dfgUnit)
	gl.BindTexture(gl.TEXTURE_2D, r.dfg)
	gl.Uniform1i(pl.uEnv, envUnit)
	gl.ActiveTexture(gl.TEXTURE0 + envUnit)
	gl.BindTexture(gl.TEXTURE_CUBE_MAP, r.env)
	gl.Uniform1f(pl.uEnvMaxLod, r.envLevels)
	gl.Uniform3fv(pl.uSH, 9, &r.envSH[0][0])
	gl.Uniform1f(pl.uExposure, float32(math.Exp2(float64(f.Exposure))))
	gl.Uniform1i(pl.uTonemap, int32(f.Tonemap))
	gl.Uniform1i(pl.uView, int32(f.View))
	gl.ActiveTexture(gl.TEXTURE0)
}

// shadowAlpha is how much of the light behind it the key light's shadow
// on the ground takes away.
const shadowAlpha = 0.4

// drawShadow draws the key light's shadow of f's opaque and masked items
// onto the ground plane with the shadow pipelines: each vertex, posed,
// slides along the light to the plane, and the triangles draw the
// background darkened by shadowAlpha with a minimum blend, so that where
// they overlap the shadow is no darker, without writing depth, before the
// items draw over it.
func (r *Renderer) drawShadow(pl *pipeline, f *Frame) error {
	u := &r.frameUniforms
	u.shadow = [4]float32{u.light[0], u.light[1], u.light[2], f.GroundY}
	for k, c := range [3]uint8{f.Clear.R, f.Clear.G, f.Clear.B} {
		u.shadowColor[k] = encodeSRGB(decodeSRGB(float32(c)/255) * (1 - shadowAlpha))
	}
	sp := &r.shadowLBS
	if pl == &r.dq {
		sp = &r.shadowDQ
	}
	for _, p := range [2]*pipeline{&r.shadowInst, sp} {
		gl.UseProgram(uint32(p.prog))
		gl.UniformMatrix4fv(p.uViewProj, 1, false, &u.vp[0])
		gl.UniformMatrix4fv(p.uModel, 1, false, &u.model[0])
		gl.Uniform1i(p.uBaseTex, 0)
		gl.Uniform4fv(p.uShadow, 1, &u.shadow[0])
		gl.Uniform3fv(p.uShadowColor, 1, &u.shadowColor[0])
		gl.Uniform1i(p.uShadowPass, 1)
	}
	gl.Enable(gl.BLEND)
	gl.BlendEquation(gl.MIN)
	gl.DepthMask(false)
	r.shadowPass = true
	var err error
	for i := range f.Items {
		if f.Items[i].Material.Alpha == Blend {
			continue
		}
		if err = r.drawItem(sp, f, i); err != nil {
			break
		}
	}
	r.shadowPass = false
	gl.DepthMask(true)
	gl.BlendEquation(gl.FUNC_ADD)
	gl.Disable(gl.BLEND)
	return err
}

// decodeSRGB and encodeSRGB are the sRGB transfer function (IEC
// 61966-2-1) and its inverse, on [0, 1].
func decodeSRGB(c float32) float32 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return float32(math.Pow((float64(c)+0.055)/1.055, 2.4))
}

func encodeSRGB(c float32) float32 {
	if c <= 0.0031308 {
		return c * 12.92
	}
	return float32(1.055*math.Pow(float64(c), 1/2.4) - 0.055)
}

// drawItem issues frame f's item i with its material.
func (r *Renderer) drawItem(pl *pipeline, f *Frame, i int) error {
	it := &f.Items[i]
	if it.Mesh < 0 || int(it.Mesh) >= len(r.meshes) || !r.meshes[it.Mesh].live {
		return fmt.Errorf("render: draw item %d names mesh %d, which is not uploaded", i, it.Mesh)
	}
	m := &r.meshes[it.Mesh]
	if it.Instances > 0 {
		pl = &r.inst
		if r.shadowPass {
			pl = &r.shadowInst
		}
	}
	gl.UseProgram(uint32(pl.prog))
	mat := &it.Material
	if mat.DoubleSided || r.shadowPass {
		gl.Disable(gl.CULL_FACE)
	} else {
		gl.Enable(gl.CULL_FACE)
		gl.CullFace(gl.BACK)
	}
	tex := r.white
	if t := mat.Texture; t >= 0 && int(t) < len(r.textures) {
		tex = r.textures[t]
	}
	gl.BindTexture(gl.TEXTURE_2D, tex)
	c := mat.BaseColor
	gl.Uniform4f(pl.uBaseColor, c[0], c[1], c[2], c[3])
	r.uv = mat.UV
	if r.uv == ([9]float32{}) {
		r.uv = [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	gl.UniformMatrix3fv(pl.uUVTransform, 1, false, &r.uv[0])
	for k := range mat.Maps {
		mp := &mat.Maps[k]
		tex, has := r.white, int32(0)
		if t := mp.Tex - 1; t >= 0 && int(t) < len(r.textures) {
			tex, has = r.textures[t], 1
		}
		gl.ActiveTexture(gl.TEXTURE0 + uint32(mapUnits[k]))
		gl.BindTexture(gl.TEXTURE_2D, tex)
		r.mapUV[k] = mp.UV
		if r.mapUV[k] == ([9]float32{}) {
			r.mapUV[k] = [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 1}
		}
		r.hasMap[k] = has
		r.sets[k+1] = int32(mp.Set)
	}
	r.sets[0] = int32(mat.Set)
	gl.Uniform1iv(pl.uSets, int32(len(r.sets)), &r.sets[0])
	gl.ActiveTexture(gl.TEXTURE0)
	gl.UniformMatrix3fv(pl.uMapUV, int32(len(r.mapUV)), false, &r.mapUV[0][0])
	gl.Uniform1iv(pl.uHasMap, int32(len(r.hasMap)), &r.hasMap[0])
	gl.Uniform2f(pl.uMetalRough, mat.Metallic, mat.Roughness)
	gl.Uniform2f(pl.uNormalOcclusion, mat.NormalScale, mat.OcclusionStrength)
	gl.Uniform3f(pl.uEmissive, mat.Emissive[0], mat.Emissive[1], mat.Emissive[2])
	unlit := int32(0)
	if mat.Unlit {
		unlit = 1
	}
	gl.Uniform1i(pl.uUnlit, unlit)
	flat := int32(0)
	if m.flat {
		flat = 1
	}
	gl.Uniform1i(pl.uFlat, flat)
	gl.Uniform1i(pl.uAlphaMode, int32(mat.Alpha))
	gl.Uniform1f(pl.uAlphaCutoff, mat.AlphaCutoff)
	gl.Uniform4f(pl.uTint, it.Tint[0], it.Tint[1], it.Tint[2], it.Tint[3])
	gl.Uniform1i(pl.uSelJoint, int32(it.WeightJoint))
	r.bindMorph(i, m)
	r.setMissingAttributes(m)
	gl.BindVertexArray(m.vao)
	if it.Instances > 0 {
		r.bindInstances(pl, it, m)
		if m.count > 0 {
			gl.DrawElementsInstanced(gl.TRIANGLES, m.count, gl.UNSIGNED_INT, nil, int32(it.Instances))
			r.countCall()
		}
		return nil
	}
	gl.BindBufferRange(gl.UNIFORM_BUFFER, 0, r.ubo, r.offsets[i], len(it.Palette)*4)
	if m.count > 0 {
		gl.DrawElementsWithOffset(gl.TRIANGLES, m.count, gl.UNSIGNED_INT, 0)
		r.countCall()
	}
	return nil
}

// countCall counts a draw call as the scene's or its shadow's.
func (r *Renderer) countCall() {
	if r.shadowPass {
		r.ShadowCalls++
	} else {
		r.DrawCalls++
	}
}

// sortBlended orders blendOrder farthest first by the distance from the
// eye to each item's Center along the view direction; items at the same
// depth keep their order. An insertion sort: the list is short and
// mostly sorted from the frame before, and it allocates nothing.
func (r *Renderer) sortBlended(f *Frame) {
	eye := f.Camera.Eye()
	fwd := f.Camera.Target.Sub(eye)
	depth := func(i int) float32 {
		c := f.Items[i].Center
		return mgl32.Vec3{c[0], c[1], c[2]}.Sub(eye).Dot(fwd)
	}
	o := r.blendOrder
	for k := 1; k < len(o); k++ {
		for j := k; j > 0 && depth(o[j]) > depth(o[j-1]); j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
}

// setMissingAttributes gives the attributes a mesh lacks their defaults.
// Those read the context's current values, which are not part of the
// vertex array, so they are set for every draw of such a mesh.
func (r *Renderer) setMissingAttributes(m *gpuMesh) {
	if !m.hasUV {
		gl.VertexAttrib2f(2, 0, 0)
	}
	if !m.hasUV1 {
		gl.VertexAttrib2f(6, 0, 0)
	}
	if !m.hasTangent {
		gl.VertexAttrib4f(7, 0, 0, 0, 0) // none: the fragment shader's derivative frame
	}
	if !m.hasColor {
		gl.VertexAttrib4f(5, 1, 1, 1, 1)
	}
	if !m.skinned {
		gl.VertexAttribI4ui(3, 0, 0, 0, 0) // rigid: palette entry 0 ...
		gl.VertexAttrib4f(4, 1, 0, 0, 0)   // ... with full weight
	}
}

// uploadPalettes packs every item's palette at aligned offsets into one
// buffer and uploads it, orphaning last frame's storage so the driver never
// waits for draws still reading it.
func (r *Renderer) uploadPalettes(items []DrawItem, entryFloats int) error {
	r.offsets = r.offsets[:0]
	size := 0
	for i, it := range items {
		if it.Instances > 0 {
			r.offsets = append(r.offsets, 0) // in the instance records instead
			continue
		}
		if len(it.Palette) == 0 || len(it.Palette)%entryFloats != 0 {
			return fmt.Errorf("render: draw item %d has a palette of %d floats; want a positive multiple of %d", i, len(it.Palette), entryFloats)
		}
		if len(it.Palette)/entryFloats > r.maxJoints {
			return fmt.Errorf("render: draw item %d uses %d joints; one draw holds %d", i, len(it.Palette)/entryFloats, r.maxJoints)
		}
		r.offsets = append(r.offsets, size)
		size += len(it.Palette) * 4
		size = (size + r.uboAlign - 1) / r.uboAlign * r.uboAlign
	}
	if cap(r.uploadBuf) < size {
		r.uploadBuf = make([]byte, size)
	}
	buf := r.uploadBuf[:size]
	for i, it := range items {
		if it.Instances > 0 {
			continue
		}
		copy(buf[r.offsets[i]:], unsafe.Slice((*byte)(unsafe.Pointer(&it.Palette[0])), len(it.Palette)*4))
	}
	gl.BindBuffer(gl.UNIFORM_BUFFER, r.ubo)
	if size > r.uboSize {
		r.uboSize = size
	}
	gl.BufferData(gl.UNIFORM_BUFFER, r.uboSize, nil, gl.STREAM_DRAW)
	if size > 0 {
		gl.BufferSubData(gl.UNIFORM_BUFFER, 0, size, unsafe.Pointer(&buf[0]))
	}
	r.PaletteUsed = size
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
