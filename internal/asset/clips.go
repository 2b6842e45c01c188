package asset

import (
	"fmt"
	"strconv"

	"github.com/skinview/skinview/internal/gltfload"
)

// ClipName is clip i's name as the clip browser, -clip and every report
// name it: its own, made unique, or "clip 2" for an unnamed clip.
func ClipName(m *gltfload.Model, i int) string {
	name := m.Clips[i].Name
	if name == "" {
		return "clip " + strconv.Itoa(i)
	}
	for j := 0; j < i; j++ {
		if m.Clips[j].Name == name {
			return name + " #" + strconv.Itoa(i)
		}
	}
	return name
}

// FindClip resolves -clip (and the clips of -blend and -additive): a clip
// name, the clip browser's name ("clip 2" for an unnamed clip), else an
// index.
func FindClip(m *gltfload.Model, spec string) (int, error) {
	for i := range m.Clips {
		if m.Clips[i].Name == spec {
			return i, nil
		}
	}
	for i := range m.Clips {
		if ClipName(m, i) == spec { // "clip 2" for an unnamed clip
			return i, nil
		}
	}
	i, err := strconv.Atoi(spec)
	if err != nil || i < 0 || i >= len(m.Clips) {
		names := ""
		for k := range m.Clips {
			if k > 0 {
				names += ", "
			}
			names += fmt.Sprintf("%d:%q", k, ClipName(m, k))
		}
		return -1, fmt.Errorf("no clip %q in %s (%d clips: %s)", spec, m.Name, len(m.Clips), names)
	}
	return i, nil
}
