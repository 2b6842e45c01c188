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
	// Count counts the modes.
	Count
)

var names = [Count]string{"shaded", "partitions", "weights", "basecolor"}

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
