// Package report writes what the viewer says about a model without
// drawing it: the -info description (skins, clips, meshes, the partition
// plan, compression), the loader's report grouped by severity, and
// -validate's JSON in glTF-Validator's shape. It reads gltfload's model,
// skin's partition planner and anim's compression reports, and touches no
// GL and no window.
package report
