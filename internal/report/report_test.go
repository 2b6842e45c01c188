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

// channelKind names a morph-weight channel by what animates it: channels
// 0 and 1 are a mesh's weights, 2 to 5 a material's colour (a pointer), 6
// a camera's field of view, 7 to 9 a light's colour; the ends of each
// range are the ones a bound can miss.
func TestChannelKinds(t *testing.T) {
	m := &gltfload.Model{
		MaterialChannels: []gltfload.MaterialChannel{{Channel: 2, Count: 4}},
		CameraChannels:   []gltfload.CameraChannel{{Channel: 6}},
		LightChannels:    []gltfload.LightChannel{{Channel: 7, Count: 3}},
	}
	want := []string{"weights", "weights", "material (pointer)", "material (pointer)", "material (pointer)", "material (pointer)",
		"camera (pointer)", "light (pointer)", "light (pointer)", "light (pointer)", "weights"}
	for ch, w := range want {
		if got := channelKind(m, ch); got != w {
			t.Errorf("channel %d: %q, want %q", ch, got, w)
		}
	}
}

// maxInfluences counts a vertex's non-zero weights over every set: with
// two sets, a vertex of six is six, not the first set's four.
func TestMaxInfluencesOverSets(t *testing.T) {
	p := &gltfload.Primitive{Sets: 2, Positions: make([]float32, 6),
		AllWeights: []float32{0.5, 0.5, 0, 0, 0, 0, 0, 0, 0.2, 0.2, 0.2, 0.1, 0.2, 0.1, 0, 0}}
	if got := maxInfluences(p); got != 6 {
		t.Errorf("up to %d influences; want 6 (vertex 1: four in the first set, two in the second)", got)
	}
}
