package render

import (
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// linkCapture builds a transform-feedback program: the very skinning
// shader the renderer draws with, its world-space output recorded instead
// of rasterized, so tests compare what the GPU computes with the CPU:
// positions and normals, interleaved.
func linkCapture(vert, defines string) (program, error) {
	vs, err := compileShader(vert, gl.VERTEX_SHADER, defines)
	if err != nil {
		return 0, err
	}
	defer gl.DeleteShader(vs)
	p := gl.CreateProgram()
	gl.AttachShader(p, vs)
	names, free := gl.Strs("vWorld\x00", "vNormal\x00")
	gl.TransformFeedbackVaryings(p, 2, names, gl.INTERLEAVED_ATTRIBS)
	free()
	prog, err := link(p, "capture program from "+vert)
	if err != nil {
		return 0, err
	}
	if err := bindPalette(prog, vert); err != nil {
		gl.DeleteProgram(p)
		return 0, err
	}
	if err := bindMorphBlock(prog, vert, false); err != nil {
		gl.DeleteProgram(p)
		return 0, err
	}
	return prog, nil
}

// captureSkinned runs skin.vert (skin_dq.vert for DualQuat) over every
// vertex of a mesh with the given palette and returns the skinned
// world-space positions and normals, xyz per vertex in the mesh's vertex
// order, read back by transform feedback. Normals are as the shader hands
// them to the fragment stage, not normalized.
func (r *Renderer) captureSkinned(id MeshID, palette []float32, method Skinning) (pos, nrm []float32, err error) {
	return r.captureMorphed(id, palette, nil, method)
}

// captureMorphed is captureSkinned with the mesh's morph targets applied
// at weights (one per target; nil applies none), before skinning, as a
// draw applies them.
func (r *Renderer) captureMorphed(id MeshID, palette, weights []float32, method Skinning) (pos, nrm []float32, err error) {
	pl := &r.lbs
	if method == DualQuat {
		pl = &r.dq
	}
	capture, err := linkCapture(pl.vert, pl.defines)
	if err != nil {
		return nil, nil, err
	}
	defer gl.DeleteProgram(uint32(capture))
	if id < 0 || int(id) >= len(r.meshes) || !r.meshes[id].live {
		return nil, nil, fmt.Errorf("render: capture of mesh %d, which is not uploaded", id)
	}
	m := r.meshes[id]
	items := []DrawItem{{Mesh: id, Palette: palette, Morph: weights}}
	if err := r.uploadPalettes(items, pl.entryFloats); err != nil {
		return nil, nil, err
	}
	r.uploadMorph(items)
	n := int(m.vertices)
	var tfb uint32
	gl.GenBuffers(1, &tfb)
	defer gl.DeleteBuffers(1, &tfb)
	gl.BindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, tfb)
	gl.BufferData(gl.TRANSFORM_FEEDBACK_BUFFER, max(n, 1)*24, nil, gl.STREAM_READ)
	gl.BindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, tfb)

	gl.UseProgram(uint32(capture))
	ident := [16]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	gl.UniformMatrix4fv(capture.uniform("uViewProj"), 1, false, &ident[0])
	gl.UniformMatrix4fv(capture.uniform("uModel"), 1, false, &ident[0])
	gl.Uniform1i(capture.uniform("uSelJoint"), -1)
	gl.BindBufferRange(gl.UNIFORM_BUFFER, 0, r.ubo, 0, len(palette)*4)
	r.bindMorph(0, &m)
	r.setMissingAttributes(&m)
	gl.BindVertexArray(m.vao)
	gl.Enable(gl.RASTERIZER_DISCARD)
	gl.BeginTransformFeedback(gl.POINTS)
	gl.DrawArrays(gl.POINTS, 0, int32(n))
	gl.EndTransformFeedback()
	gl.Disable(gl.RASTERIZER_DISCARD)
	gl.BindVertexArray(0)

	both := make([]float32, n*6)
	if n > 0 {
		gl.GetBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, n*24, gl.Ptr(both))
	}
	gl.BindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, 0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		return nil, nil, fmt.Errorf("render: transform feedback failed: GL error 0x%x", e)
	}
	pos, nrm = make([]float32, n*3), make([]float32, n*3)
	for v := range n {
		copy(pos[v*3:v*3+3], both[v*6:])
		copy(nrm[v*3:v*3+3], both[v*6+3:])
	}
	return pos, nrm, nil
}
