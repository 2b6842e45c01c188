package scene

import (
	"testing"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/gltest"
	"github.com/skinview/skinview/internal/gltfload"
)

func TestMain(m *testing.M) { gltest.Main(m) }

// onGL runs f on the GL thread with a current context.
func onGL(t testing.TB, f func() error) { gltest.Do(t, f) }

// character is the built-in character, decoded afresh.
func character(t testing.TB) *gltfload.Model {
	t.Helper()
	m, err := gltfload.Decode(assets.CharacterGLB, nil, "character.glb")
	if err != nil {
		t.Fatal(err)
	}
	return m
}
