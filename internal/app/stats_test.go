package app

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/skinview/skinview/internal/anim"
)

// TestStatsPrint: -stats gives per-frame means over the frames rendered,
// and says which animation kernels ran (a SIMD build may run portable
// kernels where they measured faster).
func TestStatsPrint(t *testing.T) {
	s := frameStats{partitions: 2, joints: 53, vertices: 3322, shadowCalls: 3}
	s.add(3*time.Millisecond, 10*time.Millisecond, 4, 2448)
	s.add(1*time.Millisecond, 20*time.Millisecond, 4, 2448)
	var b bytes.Buffer
	s.print(&b)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{
		"frames 2: animation 2.000 ms/frame, render 15.000 ms/frame (CPU), draw calls 4 (+3 for the shadow), partitions 2, upload 2448 bytes/frame, joints 53, vertices 3322",
		"animation kernels: " + anim.KernelPath(),
	}
	// A crowd: the members at each rate and out of view, a frame.
	s.crowd, s.lod, s.culled = true, [3]int{2, 4, 10}, 6
	b.Reset()
	s.print(&b)
	if !strings.Contains(b.String(), "crowd level of detail: 1.0 members/frame updated every frame, 2.0 every 2nd frame, 5.0 every 4th; 3.0 out of view") {
		t.Errorf("-stats of a crowd printed %q; want the members at each rate a frame", b.String())
	}
	if len(lines) != len(want) {
		t.Fatalf("-stats printed %q, want %q", lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i, lines[i], want[i])
		}
	}
}
