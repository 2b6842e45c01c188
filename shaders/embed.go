// Package shaders embeds the GLSL sources of the renderer. It lives at the
// top of the tree because go:embed cannot reach into parent folders.
package shaders

import "embed"

// FS holds every shader source by file name (skin.vert, lit.frag, ...),
// and the parts they include (morph.glsl).
//
//go:embed *.vert *.frag *.glsl
var FS embed.FS
