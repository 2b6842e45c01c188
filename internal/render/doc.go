// Package render owns every OpenGL call: shader programs, vertex arrays, the
// palette uniform buffer, textures and offscreen read-back. Callers hand it
// plain arrays and matrices and never see a GL enum. GL 4.1 core.
package render
