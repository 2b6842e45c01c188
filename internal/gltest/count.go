package gltest

import "github.com/go-gl/gl/v4.1-core/gl"

// LiveObjects counts the GL objects alive in the context (buffers,
// textures, vertex arrays, programs, shaders, framebuffers and
// renderbuffers) among the first names, or up to the next name each kind
// would be given if that is higher, for leak tests.
func LiveObjects(names uint32) int {
	// Drivers may hand out names counting up without reusing freed ones,
	// so after many objects the live ones can sit above names.
	var buf, tex, vao, fbo, rbo uint32
	gl.GenBuffers(1, &buf)
	gl.GenTextures(1, &tex)
	gl.GenVertexArrays(1, &vao)
	gl.GenFramebuffers(1, &fbo)
	gl.GenRenderbuffers(1, &rbo)
	prog := gl.CreateProgram()
	names = max(names, buf, tex, vao, fbo, rbo, prog)
	gl.DeleteBuffers(1, &buf)
	gl.DeleteTextures(1, &tex)
	gl.DeleteVertexArrays(1, &vao)
	gl.DeleteFramebuffers(1, &fbo)
	gl.DeleteRenderbuffers(1, &rbo)
	gl.DeleteProgram(prog)
	n := 0
	for id := uint32(1); id <= names; id++ {
		for _, alive := range []bool{
			gl.IsBuffer(id), gl.IsTexture(id), gl.IsVertexArray(id), gl.IsProgram(id),
			gl.IsShader(id), gl.IsFramebuffer(id), gl.IsRenderbuffer(id),
		} {
			if alive {
				n++
			}
		}
	}
	return n
}
