// Package gltfload turns glTF 2.0 files (.gltf with external or data-URI
// buffers, .glb) into an anim.Skeleton, skins, clips and CPU mesh arrays.
// It is the only package that imports qmuntal/gltf; errors name the glTF path.
package gltfload
