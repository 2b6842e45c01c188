package scene

import (
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltest"
	"github.com/skinview/skinview/internal/gltfload"
)

// TestMain runs the tests on the GL thread (gltest.Main) and bounds them:
// they take seconds, so a crowd worker that never finishes or a loop that
// never ends fails them in 2 minutes, saying so, instead of hanging until
// go test's own timeout. Benchmarks run unbounded.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" {
		go func() {
			time.Sleep(2 * time.Minute)
			fmt.Fprintln(os.Stderr, "internal/scene: the tests ran over 2 minutes: something does not end")
			os.Exit(1)
		}()
	}
	gltest.Main(m)
}

// onGL runs f on the GL thread with a current context.
func onGL(t testing.TB, f func() error) { gltest.Do(t, f) }

// decodeChar decodes a document a test wrote, named name in messages, and
// makes its character playing clip (−1: none); either failing ends the
// test.
func decodeChar(t testing.TB, doc []byte, name string, clip int) (*gltfload.Model, *character.Character) {
	t.Helper()
	m, err := gltfload.Decode(doc, nil, name)
	if err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	c, err := character.New(m, nil, nil, clip, 0)
	if err != nil {
		t.Fatalf("character of %s: %v", name, err)
	}
	return m, c
}
