package asset_test

import (
	"slices"
	"strings"
	"testing"

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
	for range 2 {
		if _, err := asset.ImportClips(dst, builtin(t), nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"Walk", "Walk (character.glb)", "Walk (character.glb) #2"} {
		if _, err := asset.FindClip(dst, name); err != nil {
			t.Errorf("no clip %q: %v", name, err)
		}
	}
}
