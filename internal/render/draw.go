package render

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/debugview"
)

// Drawing a frame: Prepare's uploads, then Draw's passes (the ground
// shadow, opaque items, blended items sorted far to near) and each item's
// draw call.

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
	gl.FrontFace(gl.CCW)
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
	if it.Mirrored {
		gl.FrontFace(gl.CW)
	} else {
		gl.FrontFace(gl.CCW)
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
