package anim

import (
	"fmt"
	"math"
)

// Interpolation is how a track fills the time between two keys.
type Interpolation uint8

const (
	// Linear lerps translation and scale and slerps rotation (shortest arc).
	Linear Interpolation = iota
	// Step holds the previous key's value until the next key.
	Step
	// CubicSpline is a Hermite spline with per-key in and out tangents.
	CubicSpline
)

func (i Interpolation) String() string {
	names := [...]string{Linear: "LINEAR", Step: "STEP", CubicSpline: "CUBICSPLINE"}
	return enumName(i, names[:], "Interpolation")
}

// enumName is the String of the package's byte-sized enums: the value's
// entry in names, or typeName(n) for a value past the table, so that a
// corrupt value still prints as something to debug.
func enumName[E ~uint8](v E, names []string, typeName string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typeName, uint8(v))
}

// Path is the joint property a track animates.
type Path uint8

const (
	// Translation tracks hold 3 floats per value.
	Translation Path = iota
	// Rotation tracks hold 4 floats per value, a quaternion as x, y, z, w.
	Rotation
	// Scale tracks hold 3 floats per value.
	Scale
)

func (p Path) String() string {
	names := [...]string{Translation: "translation", Rotation: "rotation", Scale: "scale"}
	return enumName(p, names[:], "Path")
}

// Components is the number of floats in one value of the path.
func (p Path) Components() int {
	if p == Rotation {
		return 4
	}
	return 3
}

// Track animates one property of one joint.
type Track struct {
	// Joint is the skeleton joint index the track writes.
	Joint int
	// Path is the property written.
	Path Path
	// Interp is the interpolation between keys.
	Interp Interpolation
	// Times are key times in seconds, strictly increasing, at least one.
	Times []float32
	// Values holds Path.Components() floats per key; for CubicSpline three
	// groups per key: in-tangent, value, out-tangent (the glTF layout).
	// Rotation values are unit quaternions.
	Values []float32
}

// Clip is a set of tracks played together.
type Clip struct {
	// Name from the source file, possibly empty.
	Name string
	// Duration in seconds: the latest key time over all tracks.
	Duration float32
	// Tracks in any order; at most one per joint and path is expected, a
	// later one overrides an earlier one.
	Tracks []Track
	// Morph animates morph target weights, at most one track per channel.
	Morph []MorphTrack
	// Markers are named times in the clip, for event tracks.
	Markers []Marker
	// SourceBytes is the size of the keys in the clip's file as float32:
	// for glTF, its samplers' input and output accessors, each once; 0
	// when unknown (CompressReport then counts the tracks).
	SourceBytes int
}

// Validate checks a clip against the number of joints it will drive.
func (c *Clip) Validate(numJoints int) error {
	for i := range c.Tracks {
		tr := &c.Tracks[i]
		if tr.Joint < 0 || tr.Joint >= numJoints {
			return fmt.Errorf("anim: clip %q track %d targets joint %d of %d", c.Name, i, tr.Joint, numJoints)
		}
		if len(tr.Times) == 0 {
			return fmt.Errorf("anim: clip %q track %d has no keys", c.Name, i)
		}
		per := tr.Path.Components()
		if tr.Interp == CubicSpline {
			per *= 3
		}
		if len(tr.Values) != per*len(tr.Times) {
			return fmt.Errorf("anim: clip %q track %d has %d values for %d keys; want %d", c.Name, i, len(tr.Values), len(tr.Times), per*len(tr.Times))
		}
		for k, t := range tr.Times {
			if math.IsNaN(float64(t)) || math.IsInf(float64(t), 0) {
				return fmt.Errorf("anim: clip %q track %d key %d has time %v", c.Name, i, k, t)
			}
			if k > 0 && t <= tr.Times[k-1] {
				return fmt.Errorf("anim: clip %q track %d key times not increasing at key %d (%v after %v)", c.Name, i, k, t, tr.Times[k-1])
			}
		}
		for k, v := range tr.Values {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("anim: clip %q track %d value %d is %v", c.Name, i, k, v)
			}
		}
	}
	return nil
}

// ComputeDuration returns the latest key time over all tracks (glTF: an
// animation lasts until its last key).
func (c *Clip) ComputeDuration() float32 {
	var d float32
	for i := range c.Tracks {
		if n := len(c.Tracks[i].Times); n > 0 && c.Tracks[i].Times[n-1] > d {
			d = c.Tracks[i].Times[n-1]
		}
	}
	for i := range c.Morph {
		if n := len(c.Morph[i].Times); n > 0 && c.Morph[i].Times[n-1] > d {
			d = c.Morph[i].Times[n-1]
		}
	}
	return d
}

// clipDuration is c.Duration, or the last key's time where it is unset.
func clipDuration(c *Clip) float32 {
	if c.Duration > 0 {
		return c.Duration
	}
	return c.ComputeDuration()
}
