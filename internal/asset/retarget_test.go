package asset_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/gltfload"
)

// builtin is the built-in character, loaded afresh.
func builtin(t *testing.T) *gltfload.Model {
	m, err := asset.Load("@character")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestImportClipsErrors: a name map naming a missing joint, and a file
// none of whose nodes matches, are one clear line each.
func TestImportClipsErrors(t *testing.T) {
	dst := builtin(t)
	if _, err := asset.ImportClips(dst, builtin(t), map[string]string{"nohere": "hips"}); err == nil || !strings.Contains(err.Error(), `character.glb has no node named "nohere"`) {
		t.Errorf("map from a missing source joint: %v", err)
	}
	if _, err := asset.ImportClips(dst, builtin(t), map[string]string{"hips": "tail"}); err == nil || !strings.Contains(err.Error(), `has no node named "tail" (mapped from "hips")`) {
		t.Errorf("map to a missing target joint: %v", err)
	}
	// A name the source repeats, mapped onto itself, is no clash: its
	// first joint drives the target, as without a map.
	twice := builtin(t)
	spine := slices.Index(twice.NodeNames, "spine")
	twice.NodeNames[spine] = "hips"
	if _, err := asset.ImportClips(builtin(t), twice, map[string]string{"hips": "hips"}); err != nil {
		t.Errorf("a repeated source name mapped onto itself: %v", err)
	}
	// spine mapped onto hips, which the source's own hips drives too.
	if _, err := asset.ImportClips(dst, builtin(t), map[string]string{"spine": "hips"}); err == nil || !strings.Contains(err.Error(), `"hips" and "spine" both drive`) {
		t.Errorf("two source joints onto one target: %v", err)
	}
	// hips mapped onto spine, which the source's own spine drives by
	// name: the clash is found on the second, unmapped one too.
	if _, err := asset.ImportClips(dst, builtin(t), map[string]string{"hips": "spine"}); err == nil || !strings.Contains(err.Error(), `"hips" and "spine" both drive`) {
		t.Errorf("a mapped joint, then one of the same name: %v", err)
	}
	other := builtin(t)
	for n := range other.NodeNames {
		other.NodeNames[n] = "x_" + other.NodeNames[n]
	}
	if _, err := asset.ImportClips(dst, other, nil); err == nil || !strings.Contains(err.Error(), "none of its nodes has the name of a joint") {
		t.Errorf("no matching joint: %v", err)
	}
	// The same file mapped back by a name map plays.
	names := map[string]string{}
	for _, n := range other.NodeNames {
		if n != "x_" {
			names[n] = strings.TrimPrefix(n, "x_")
		}
	}
	if un, err := asset.ImportClips(dst, other, names); err != nil || len(un) != 0 {
		t.Errorf("mapped back: unmatched %v, %v", un, err)
	}
}

// TestImportClipsTwiceNamesApart: the same file imported twice gives its
// clips names of their own, so each can be asked for.
func TestImportClipsTwiceNamesApart(t *testing.T) {
	dst := builtin(t)
	for range 3 {
		if _, err := asset.ImportClips(dst, builtin(t), nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"Walk", "Walk (character.glb)", "Walk (character.glb) #2", "Walk (character.glb) #3"} {
		if _, err := asset.FindClip(dst, name); err != nil {
			t.Errorf("no clip %q: %v", name, err)
		}
	}
}

// A source that does not drive the target's hips moves no root: every
// joint keeps the target's rest translation, however far the source's
// own joints sit from their parents (here twice as far).
func TestImportClipsWithoutHipsMovesNoRoot(t *testing.T) {
	dst, src := builtin(t), builtin(t)
	hips := slices.Index(src.NodeNames, "hips")
	if hips < 0 {
		t.Fatal("the built-in character has no node named hips")
	}
	src.NodeNames[hips] = "x_hips"
	for j := range src.Skeleton.Rest {
		src.Skeleton.Rest[j].Translation = src.Skeleton.Rest[j].Translation.Mul(2)
	}
	before := len(dst.Clips)
	if _, err := asset.ImportClips(dst, src, nil); err != nil {
		t.Fatal(err)
	}
	if len(dst.Clips) == before {
		t.Fatal("no clip imported")
	}
	sk := &dst.Skeleton
	for i := before; i < len(dst.Clips); i++ {
		rc, err := anim.NewRuntimeClip(&dst.Clips[i], sk)
		if err != nil {
			t.Fatal(err)
		}
		job := rc.NewSampleJob(false, anim.NewPose(sk))
		for _, tm := range []float32{0, 0.37, dst.Clips[i].Duration} {
			job.Time = tm
			job.Run()
			for j := range sk.NumJoints() {
				if got, want := job.Output.At(j).Translation, sk.Rest[j].Translation; got.Sub(want).Len() > 1e-6 {
					t.Errorf("%s at %v: joint %s at %v; want its rest %v", dst.Clips[i].Name, tm, sk.Names[j], got, want)
				}
			}
		}
	}
}
