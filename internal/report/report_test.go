package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
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

// A palette limit below the joints one triangle needs makes no plan: the
// report says the model cannot be drawn at it, where it counted the
// unplanned primitive as one draw call of no partitions.
func TestPartitionPlanSaysWhatCannotBeDrawn(t *testing.T) {
	m, err := gltfload.Decode(assets.CharacterGLB, nil, "character.glb")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	writePartitionPlan(&out, m, 2)
	if s := out.String(); !strings.Contains(s, "a partition holds at most 2") || !strings.Contains(s, "draw calls at K=2: none:") || strings.Contains(s, "skinned partitions") {
		t.Errorf("plan at K=2:\n%s", s)
	}
	out.Reset()
	writePartitionPlan(&out, m, 64)
	if s := out.String(); !strings.Contains(s, "draw calls at K=64: ") || strings.Contains(s, "none:") {
		t.Errorf("plan at K=64:\n%s", s)
	}
}

// -info names an unnamed clip as -clip and the clip browser do: "clip 1".
func TestInfoNamesAnUnnamedClip(t *testing.T) {
	m, err := gltfload.LoadFS(assets.EdgeFS, "edge/cubic_step.gltf")
	if err != nil {
		t.Fatal(err)
	}
	m.Clips[1].Name = ""
	var b bytes.Buffer
	WriteInfo(&b, m, 0)
	if !strings.Contains(b.String(), `clip 1 "clip 1": `) || strings.Contains(b.String(), `""`) {
		t.Errorf("-info:\n%s\nwant clip 1 named \"clip 1\"", b.String())
	}
}

// A clip with morph weights reports their part too: their bytes before
// and after, and the worst vertex error they cause, in the text and in
// the JSON; a clip without weights says nothing of them.
func TestCompressionReportsMorphWeights(t *testing.T) {
	reps := []anim.CompressReport{
		{Clip: "Dance", RawBytes: 4000, Bytes: 1000, MaxError: 5e-5, MorphRawBytes: 1300, MorphBytes: 400, MorphMaxError: 8e-5},
		{Clip: "Walk", RawBytes: 400, Bytes: 100, MaxError: 5e-5},
	}
	var text, js bytes.Buffer
	WriteCompression(&text, reps, 0.01)
	if err := WriteCompressionJSON(&js, reps); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text.String(), "\n")
	if !strings.HasSuffix(lines[0], `; morph weights 1300 → 400 bytes, error max 0.00800 cm`) || strings.Contains(lines[1], "morph") {
		t.Errorf("text:\n%s", text.String())
	}
	jl := strings.Split(strings.TrimSpace(js.String()), "\n")
	if !strings.Contains(jl[0], `"morph":{"raw_bytes":1300,"bytes":400,"max_error_cm":0.008}`) || strings.Contains(jl[1], "morph") {
		t.Errorf("JSON:\n%s", js.String())
	}
}

// -info says which primitives carry tangents the loader generated.
func TestInfoSaysTangentsWereGenerated(t *testing.T) {
	m, err := gltfload.LoadFS(assets.EdgeFS, "edge/cubic_step.gltf")
	if err != nil {
		t.Fatal(err)
	}
	var before bytes.Buffer
	WriteInfo(&before, m, 0)
	m.Meshes[0].Primitives[0].TangentsGenerated = true
	var b bytes.Buffer
	WriteInfo(&b, m, 0)
	if strings.Contains(before.String(), "tangents") || !strings.Contains(b.String(), "primitive 0: ") ||
		!strings.Contains(b.String(), ", tangents generated (MikkTSpace)\n") {
		t.Errorf("-info:\n%s\nwant primitive 0's line to end in \", tangents generated (MikkTSpace)\"", b.String())
	}
}
