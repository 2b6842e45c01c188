package scene

import (
	"strings"
	"testing"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/gltfload"
)

// CompressClips gives every character of the model the compressed clips,
// and says how far it has got on a clip that takes long (here, at once).
func TestCompressClipsProgressAndUse(t *testing.T) {
	m, err := gltfload.Decode(assets.StressGLB, nil, "stress.glb")
	if err != nil {
		t.Fatal(err)
	}
	old := progressEvery
	defer func() { progressEvery = old }()
	progressEvery = 0
	var log strings.Builder
	reports, err := CompressClips(m, 0.0001, &log)
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != len(m.Clips) || len(m.Runtime) != len(m.Clips) || !m.Runtime[0].Compressed() {
		t.Fatalf("%d reports, %d runtime clips for %d clips", len(reports), len(m.Runtime), len(m.Clips))
	}
	want := `compressing stress.glb clip 1/1 "` + m.Clips[0].Name + `": `
	if !strings.Contains(log.String(), want) || !strings.Contains(log.String(), "%") {
		t.Errorf("progress:\n%s\nwant lines starting %q", log.String(), want)
	}
	c, err := NewCharacter(m, nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.Evaluate(0.3)
}
