package debugview

import "fmt"

// Mode is a debug view.
type Mode int

const (
	// Shaded is the lit, textured picture.
	Shaded Mode = iota
	// Partitions paints every draw call flat in a colour of its own.
	Partitions
	// Weights paints each vertex's weight on one joint, blue (none)
	// through green to red (all).
	Weights
	// BaseColor is the unlit base colour: factor × texture × vertex
	// colour with the alpha mode applied, sRGB-encoded.
	BaseColor
	// Normal, Metallic, Roughness, Occlusion, Emissive and Alpha show one
	// input of glTF's material model each: the shading normal (normal
	// map applied) as (n+1)/2, the metalness and roughness (factor ×
	// texture), the occlusion applied (1 + strength·(texel − 1)), the
	// emissive colour (sRGB-encoded) and alpha (1 for OPAQUE).
	Normal
	Metallic
	Roughness
	Occlusion
	Emissive
	Alpha
	// Count counts the modes.
	Count
)

var names = [Count]string{"shaded", "partitions", "weights", "basecolor", "normal", "metallic", "roughness", "occlusion", "emissive", "alpha"}

func (m Mode) String() string {
	if m >= 0 && m < Count {
		return names[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Parse reads a -view name: a mode's, or "skeleton" (shaded, with the
// skeleton drawn over the mesh); ok is false for any other name.
func Parse(name string) (m Mode, skeleton, ok bool) {
	if name == "skeleton" {
		return Shaded, true, true
	}
	for m := range Count {
		if m.String() == name {
			return m, false, true
		}
	}
	return Shaded, false, false
}
