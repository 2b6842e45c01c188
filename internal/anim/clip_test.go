package anim_test

import (
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

// The enums print their glTF names; a value past the table prints as the
// type and number (the first such value too), never a panic.
func TestEnumNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{anim.Linear.String(), "LINEAR"},
		{anim.CubicSpline.String(), "CUBICSPLINE"},
		{anim.Interpolation(3).String(), "Interpolation(3)"},
		{anim.Scale.String(), "scale"},
		{anim.Path(3).String(), "Path(3)"},
		{anim.Path(255).String(), "Path(255)"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// Validate takes joints 0 to numJoints−1 and names the first bad track
// with what it expected.
func TestClipValidateBounds(t *testing.T) {
	track := func(joint int) anim.Track {
		return anim.Track{Joint: joint, Path: anim.Translation, Times: []float32{0}, Values: []float32{1, 2, 3}}
	}
	for _, c := range []struct {
		name string
		clip anim.Clip
		want string // "" for valid
	}{
		{"first joint", anim.Clip{Tracks: []anim.Track{track(0)}}, ""},
		{"last joint", anim.Clip{Tracks: []anim.Track{track(2)}}, ""},
		{"one past the last", anim.Clip{Tracks: []anim.Track{track(0), track(3)}}, "track 1 targets joint 3 of 3"},
		{"below the first", anim.Clip{Tracks: []anim.Track{track(-1)}}, "track 0 targets joint -1 of 3"},
		{"values short", anim.Clip{Tracks: []anim.Track{{Path: anim.Rotation, Interp: anim.CubicSpline, Times: []float32{0, 1}, Values: make([]float32, 23)}}},
			"track 0 has 23 values for 2 keys; want 24"},
	} {
		err := c.clip.Validate(3)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// ComputeDuration is the latest key of joint and morph tracks alike; a
// track without keys adds nothing.
func TestComputeDurationCountsMorphTracks(t *testing.T) {
	c := anim.Clip{
		Tracks: []anim.Track{{Times: []float32{0, 1}}, {}},
		Morph:  []anim.MorphTrack{{Times: []float32{0.5, 2}}, {}, {Times: []float32{1.5}}},
	}
	if d := c.ComputeDuration(); d != 2 {
		t.Errorf("duration %v, want 2 (the morph track's last key)", d)
	}
	c.Morph = c.Morph[1:]
	if d := c.ComputeDuration(); d != 1.5 {
		t.Errorf("duration %v, want 1.5", d)
	}
	if d := (&anim.Clip{Morph: []anim.MorphTrack{{}}}).ComputeDuration(); d != 0 {
		t.Errorf("a clip of one empty morph track lasts %v, want 0", d)
	}
}

// Ratio is raw bytes over packed bytes, 0 when nothing was packed.
func TestCompressReportRatio(t *testing.T) {
	for _, c := range []struct {
		raw, packed int
		want        float64
	}{{100, 25, 4}, {30, 40, 0.75}, {100, 0, 0}} {
		if got := (anim.CompressReport{RawBytes: c.raw, Bytes: c.packed}).Ratio(); got != c.want {
			t.Errorf("%d bytes packed to %d: ratio %v, want %v", c.raw, c.packed, got, c.want)
		}
	}
}
