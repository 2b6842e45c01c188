package asset_test

import (
	"strings"
	"testing"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
)

// CompressClips gives a character of the model the compressed clips,
// and says how far it has got on a clip that takes long (here, at once).
func TestCompressClipsProgressAndUse(t *testing.T) {
	m, err := gltfload.Decode(assets.StressGLB, nil, "stress.glb")
	if err != nil {
		t.Fatal(err)
	}
	old := *asset.ProgressEvery
	defer func() { *asset.ProgressEvery = old }()
	*asset.ProgressEvery = 0
	var log strings.Builder
	runtime, reports, err := asset.CompressClips(m, 0.0001, &log)
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != len(m.Clips) || len(runtime) != len(m.Clips) || !runtime[0].Compressed() {
		t.Fatalf("%d reports, %d runtime clips for %d clips", len(reports), len(runtime), len(m.Clips))
	}
	want := `compressing stress.glb clip 1/1 "` + m.Clips[0].Name + `": `
	if !strings.Contains(log.String(), want) || !strings.Contains(log.String(), "%") {
		t.Errorf("progress:\n%s\nwant lines starting %q", log.String(), want)
	}
	c, err := character.New(m, runtime, nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.Evaluate(0.3)
}

// An unnamed clip is "clip N" wherever it is named, as -clip and the clip
// browser know it: in the compression reports (-info -compress, -json)
// and in the list of clips an unknown -clip gets.
func TestUnnamedClipsAreClipN(t *testing.T) {
	m := twoClips(t)
	m.Clips[0].Name, m.Clips[1].Name = "", ""
	_, reports, err := asset.CompressClips(m, 0.0001, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"clip 0", "clip 1"} {
		if reports[i].Clip != want {
			t.Errorf("report %d names clip %q; want %q", i, reports[i].Clip, want)
		}
	}
	if _, err := asset.FindClip(m, "Nope"); err == nil || !strings.Contains(err.Error(), `0:"clip 0", 1:"clip 1"`) {
		t.Errorf("-clip Nope: %v; want the clips listed as \"clip 0\" and \"clip 1\"", err)
	}
}
