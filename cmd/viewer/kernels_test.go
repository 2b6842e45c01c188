package main

import (
	"bytes"
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

// TestDumpPoseIsReproducible: with the kernels fixed (-kernels LEVEL),
// two processes write the same pose byte for byte: the built-in
// character under its spec (blends, layers, IK, look-at) and one clip.
func TestDumpPoseIsReproducible(t *testing.T) {
	defer anim.SetKernels("auto")
	ran := 0
	for _, level := range []string{"portable", "avx2", "avx512"} {
		if anim.SetKernels(level) != nil {
			continue // not on this CPU or build
		}
		ran++
		for _, args := range [][]string{
			{"-param", "speed=0.7", "-param", "ik_weight=1", "-param", "look_weight=1", "-time", "0.83"},
			{"-clip", "Walk", "-time", "0.37"},
		} {
			args = append([]string{"-kernels", level, "-dump-pose", "-"}, args...)
			a, b := runViewer(t, args...), runViewer(t, args...)
			if len(a) < 1000 {
				t.Fatalf("%v: a pose of %d bytes: %q", args, len(a), a)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%v: two runs differ (%d and %d bytes)", args, len(a), len(b))
			}
		}
	}
	if ran == 0 {
		t.Fatal("no kernel level could be set, not even portable")
	}
}
