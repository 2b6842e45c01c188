// Package ibl produces the data of image-based lighting, the way
// glTF-Sample-Viewer lights a model, without GL: an environment read from
// a Radiance .hdr file (ParseHDR) or built in (Studio), a cube map mip
// chain of GGX-prefiltered radiance for the split-sum approximation
// (Prefilter), and the diffuse irradiance as nine spherical-harmonic
// coefficients (Irradiance, SH9.Eval). The renderer uploads the results.
// It imports the standard library only.
//
// Directions are right-handed, +Y up, unit length where a function says so.
// An equirectangular image maps a direction d to (u, v) in [0,1]² as
// glTF-Sample-Viewer's panorama does:
//
//	u = 0.5 + atan2(d.z, d.x) / 2π     (u = 0 and 1 at −X, 0.25 at −Z, 0.5 at +X, 0.75 at +Z)
//	v = acos(d.y) / π                  (v = 0 at +Y, the top row; v = 1 at −Y)
//
// Pixel (i, j), row j from the top, covers u ∈ [i/W, (i+1)/W),
// v ∈ [j/H, (j+1)/H); see EquirectUV and EquirectDir.
//
// Cube maps follow the OpenGL specification's face selection (CubeFace,
// CubeDir), so that a shader's texture(samplerCube, d) reads the texel
// stored for d when faces are uploaded in order +X, −X, +Y, −Y, +Z, −Z
// with row 0 as t = 0.
package ibl
