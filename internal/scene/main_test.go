package scene

import (
	"testing"

	"github.com/skinview/skinview/internal/gltest"
)

func TestMain(m *testing.M) { gltest.Main(m) }

// onGL runs f on the GL thread with a current context.
func onGL(t testing.TB, f func() error) { gltest.Do(t, f) }
