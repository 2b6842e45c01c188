// Package codec decodes the compressed geometry glTF extensions carry:
// KHR_draco_mesh_compression through libdraco and EXT_meshopt_compression
// through libmeshoptimizer. It checks every size before the libraries see it.
package codec
