package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
)

// A clip that no packing kept within the tolerance says so, in the text
// and in the JSON, rather than reading as a 1:1 compression.
func TestCompressionSaysWhatStayedUncompressed(t *testing.T) {
	reps := []anim.CompressReport{
		{Clip: "Walk", RawBytes: 400, Bytes: 100, MaxError: 5e-5},
		{Clip: "Noise", RawBytes: 300, Bytes: 300, Kept: true},
	}
	var text, js bytes.Buffer
	WriteCompression(&text, reps, 0.01)
	if err := WriteCompressionJSON(&js, reps); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text.String(), "\n")
	if !strings.Contains(lines[0], `compressed clip 0 "Walk" at 0.01 cm: 400 → 100 bytes (4.00:1)`) ||
		lines[1] != `clip 1 "Noise" kept uncompressed: no packing stayed within 0.01 cm (300 bytes)` {
		t.Errorf("text:\n%s", text.String())
	}
	jl := strings.Split(strings.TrimSpace(js.String()), "\n")
	if strings.Contains(jl[0], "uncompressed") || !strings.Contains(jl[1], `"uncompressed":true`) {
		t.Errorf("JSON:\n%s", js.String())
	}
}
