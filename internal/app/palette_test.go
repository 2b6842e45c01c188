package app

import (
	"strings"
	"testing"
)

// TestPaletteLimitNote: a -palette-limit the driver holds says nothing;
// one above it names both counts.
func TestPaletteLimitNote(t *testing.T) {
	for _, c := range []struct{ asked, used int }{{0, 1365}, {12, 12}, {1365, 1365}} {
		if n := paletteLimitNote(c.asked, c.used); n != "" {
			t.Errorf("paletteLimitNote(%d, %d) = %q, want none", c.asked, c.used, n)
		}
	}
	n := paletteLimitNote(5000, 1365)
	if !strings.Contains(n, "-palette-limit 5000") || !strings.Contains(n, "at most 1365") {
		t.Errorf("paletteLimitNote(5000, 1365) = %q, want the asked and the used counts", n)
	}
}
