package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/gltfload"
)

// TestInfoListsCompression: -info names each compression extension with
// its bytes before and after decoding.
func TestInfoListsCompression(t *testing.T) {
	m := &gltfload.Model{Name: "c.glb", Compression: []gltfload.Compression{
		{Extension: "EXT_meshopt_compression", Objects: 3, Compressed: 100, Decoded: 400},
		{Extension: "KHR_draco_mesh_compression", Objects: 1, Compressed: 50, Decoded: 700},
	}}
	var b bytes.Buffer
	WriteInfo(&b, m, 0)
	for _, want := range []string{
		"compression EXT_meshopt_compression: 3 bufferViews, 100 bytes decoded to 400\n",
		"compression KHR_draco_mesh_compression: 1 primitive, 50 bytes decoded to 700\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("-info lacks %q:\n%s", want, b.String())
		}
	}
}
