package asset

import (
	"fmt"
	"strings"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/gltfload"
)

// Load reads the named file, the built-in character when path is empty,
// or a built-in asset by name: @character, @stress (345 joints), @twist
// (a forearm twisting 180°) or @edge/NAME.gltf.
func Load(path string) (*gltfload.Model, error) {
	switch {
	case path == "" || path == "@character":
		return gltfload.Decode(assets.CharacterGLB, nil, "character.glb")
	case path == "@stress":
		return gltfload.Decode(assets.StressGLB, nil, "stress.glb")
	case path == "@twist":
		return gltfload.Decode(assets.TwistGLB, nil, "twist.glb")
	case strings.HasPrefix(path, "@edge/"):
		return gltfload.LoadFS(assets.EdgeFS, strings.TrimPrefix(path, "@"))
	case strings.HasPrefix(path, "@"):
		return nil, fmt.Errorf("no built-in asset %q (built in: @character, @stress, @twist, @edge/NAME.gltf)", path)
	}
	return gltfload.Load(path)
}
