package gltest

import "github.com/go-gl/gl/v4.1-core/gl"

// LiveObjects counts the GL objects alive in the context among the first
// names (buffers, textures, vertex arrays, programs, shaders, framebuffers
// and renderbuffers), for leak tests: drivers hand names out from 1
// upwards and reuse freed ones.
func LiveObjects(names uint32) int {
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
