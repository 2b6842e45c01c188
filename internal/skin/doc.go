// Package skin is the CPU reference for skinning as skin.vert does it, plus a
// dual-quaternion reference, per-joint bounds for framing, and the planner that
// splits a primitive into partitions of at most K joints for the GPU palette.
package skin
