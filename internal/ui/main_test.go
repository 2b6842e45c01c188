package ui

import (
	"flag"
	"fmt"
	"os"
	"testing"
	"time"
)

// TestMain bounds the package's tests, which take well under a second:
// a layout or key loop that never ends fails them in 20 s, saying so,
// instead of hanging until go test's own timeout. Benchmarks and fuzzing
// run unbounded.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" && flag.Lookup("test.fuzz").Value.String() == "" {
		go func() {
			time.Sleep(20 * time.Second)
			fmt.Fprintln(os.Stderr, "internal/ui: the tests ran over 20 s: a layout or key loop does not end")
			os.Exit(1)
		}()
	}
	os.Exit(m.Run())
}
