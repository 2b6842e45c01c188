package asset_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/gltfload"
)

// twoClips is edge/cubic_step.gltf, a model of two clips, loaded afresh.
func twoClips(t *testing.T) *gltfload.Model {
	t.Helper()
	m, err := gltfload.LoadFS(assets.EdgeFS, "edge/cubic_step.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Clips) != 2 {
		t.Fatalf("cubic_step.gltf has %d clips; want 2", len(m.Clips))
	}
	return m
}

// FindClip takes a clip's name, the clip browser's name for it, or an
// index from 0 to the last; anything else is refused with -1 and every
// clip listed, index and name, comma-separated.
func TestFindClip(t *testing.T) {
	m := twoClips(t)
	m.Clips[0].Name, m.Clips[1].Name = "Walk", "Walk"
	for _, c := range []struct {
		spec string
		want int
	}{
		{"Walk", 0},
		{"Walk #1", 1}, // the browser's name of the second
		{"0", 0},
		{"1", 1},
	} {
		if got, err := asset.FindClip(m, c.spec); err != nil || got != c.want {
			t.Errorf("-clip %q: %d, %v; want %d", c.spec, got, err, c.want)
		}
	}
	list := `no clip %q in ` + m.Name + ` (2 clips: 0:"Walk", 1:"Walk #1")`
	for _, spec := range []string{"2", "-1", "Run", ""} {
		got, err := asset.FindClip(m, spec)
		if err == nil || got != -1 {
			t.Errorf("-clip %q: %d, %v; want -1 and an error", spec, got, err)
			continue
		}
		if want := strings.Replace(list, "%q", strconv.Quote(spec), 1); err.Error() != want {
			t.Errorf("-clip %q: %q; want %q", spec, err, want)
		}
	}
}

// The progress lines of a long compression give the clip's number of the
// model's clips and a share done from 0 to 100 %, never going back.
func TestCompressClipsProgressLines(t *testing.T) {
	m := twoClips(t)
	old := *asset.ProgressEvery
	defer func() { *asset.ProgressEvery = old }()
	*asset.ProgressEvery = 0
	var log strings.Builder
	if _, _, err := asset.CompressClips(m, 0.0001, &log); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^compressing ` + regexp.QuoteMeta(m.Name) + ` clip ([0-9]+)/2 "([^"]*)": ([0-9]+)% \([0-9.]+ s\)$`)
	last := map[string]int{}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		g := line.FindStringSubmatch(l)
		if g == nil {
			t.Errorf("progress line %q; want %q", l, line)
			continue
		}
		k, _ := strconv.Atoi(g[1])
		if want := asset.ClipName(m, k-1); k < 1 || k > 2 || g[2] != want {
			t.Errorf("progress line %q: clip %d named %q; want 1 or 2, and clip k-1's name", l, k, g[2])
			continue
		}
		pct, _ := strconv.Atoi(g[3])
		if pct < last[g[1]] || pct > 100 {
			t.Errorf("progress line %q: %d %% after %d %%", l, pct, last[g[1]])
		}
		last[g[1]], seen[g[1]] = pct, true
	}
	if !seen["1"] || !seen["2"] {
		t.Errorf("progress:\n%s\nwant lines for clips 1/2 and 2/2", log.String())
	}
}
