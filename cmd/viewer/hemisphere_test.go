package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// hemisphereGLTF is a two-segment bar whose upper segment turns about +Z
// from 170° to −170°: consecutive rotation keys with a negative dot
// product. Along the shortest arc the segment passes through 180°
// (pointing down); the long way it would sweep up through 0°.
func hemisphereGLTF(t testing.TB) []byte {
	return barGLTF(t, [3]float32{0, 0, 1}, "", true)
}

// mirrorGLTF is the same bar at rest with its upper segment mirrored and
// stretched by its joint, scale (−2, 1, 1), and turned 35° about Y, and
// that segment's normals tilted to (0.8, 0, 0.6), so that the normal
// transform shows twice: through the mirror, transformed by the cofactor
// matrix the normal turns inside out unless the shader flips its sign; and
// through the stretch, transformed by the matrix itself instead of its
// inverse transpose it leans the wrong way. The segment is wound the other
// way (as a limb made by mirroring is), so it is a front face, lit as one,
// not the back face of a double-sided quad. The lower segment is the
// unmirrored reference, its normals (0, 0, 1).
func mirrorGLTF(t testing.TB) []byte {
	half := 35.0 / 2 * math.Pi / 180
	return barGLTF(t, [3]float32{0.8, 0, 0.6}, fmt.Sprintf(`, "scale": [-2, 1, 1], "rotation": [0, %g, 0, %g]`, math.Sin(half), math.Cos(half)), false)
}

// barGLTF writes the two-segment bar: upper is the upper segment's normal,
// tip the extra properties of its joint node, anim whether the 170° to
// −170° turn comes with it.
func barGLTF(t testing.TB, upper [3]float32, tip string, anim bool) []byte {
	t.Helper()
	upperTris := []uint16{0, 1, 2, 2, 1, 3, 4, 5, 6, 6, 5, 7}
	if strings.Contains(tip, "-") {
		// A mirrored segment is authored wound the other way, as a limb
		// made by mirroring is: mirrored again by its joint, it faces the
		// camera and is lit as a front face.
		upperTris = []uint16{0, 1, 2, 2, 1, 3, 4, 6, 5, 6, 7, 5}
	}
	d := gltfData{t: t}
	// Eight vertices: a lower quad on "root" (y 0..1) and an upper quad on
	// "tip" (y 1..2), 0.3 wide, facing +Z.
	d.add([]float32{
		-0.15, 0, 0, 0.15, 0, 0, -0.15, 1, 0, 0.15, 1, 0,
		-0.15, 1, 0, 0.15, 1, 0, -0.15, 2, 0, 0.15, 2, 0,
	}, "VEC3", `"min": [-0.15, 0, 0], "max": [0.15, 2, 0]`) // 0: positions
	u := upper
	d.add([]float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, u[0], u[1], u[2], u[0], u[1], u[2], u[0], u[1], u[2], u[0], u[1], u[2]}, "VEC3", "") // 1: normals
	d.add([]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4", "")               // 2: joints
	d.add([]float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4", "")             // 3: weights
	d.add(upperTris, "SCALAR", "")                                                                                                           // 4: indices
	d.add([]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}, "MAT4", "")            // 5: inverse binds
	d.add([]float32{0, 1}, "SCALAR", `"min": [0], "max": [1]`)                                                                               // 6: times
	s, c := float32(math.Sin(85*math.Pi/180)), float32(math.Cos(85*math.Pi/180))
	d.add([]float32{0, 0, s, c, 0, 0, -s, c}, "VEC4", "") // 7: 170° and −170° about Z: dot = c² − s² < 0
	animation := `
  "animations": [{"name": "turn", "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}], "samplers": [{"input": 6, "output": 7}]}],`
	if !anim {
		animation = ""
	}
	doc := fmt.Sprintf(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 2]}],
  "nodes": [{"name": "root", "children": [1]}, {"name": "tip", "translation": [0, 1, 0]%s}, {"name": "bar", "mesh": 0, "skin": 0}],
  "skins": [{"joints": [0, 1], "inverseBindMatrices": 5}],
  "materials": [{"doubleSided": true, "pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.6, 0.2, 1]}}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "JOINTS_0": 2, "WEIGHTS_0": 3}, "indices": 4, "material": 0}]}],%s
  %s}`, tip, animation, d.members())
	return []byte(doc)
}
