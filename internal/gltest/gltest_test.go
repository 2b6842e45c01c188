package gltest

import (
	"strings"
	"testing"
)

// recorder stands in for a test to see what Do does with it.
type recorder struct {
	testing.TB
	failed, skipped string
}

type stop struct{}

func (r *recorder) Helper()               {}
func (r *recorder) Fatal(args ...any)     { r.failed = strings.TrimSpace(sprint(args)); panic(stop{}) }
func (r *recorder) Skip(args ...any)      { r.skipped = strings.TrimSpace(sprint(args)); panic(stop{}) }
func (r *recorder) Skipf(string, ...any)  { r.skipped = "skipf"; panic(stop{}) }
func (r *recorder) SkipNow()              { r.skipped = "skipnow"; panic(stop{}) }
func (r *recorder) Fatalf(string, ...any) { r.failed = "fatalf"; panic(stop{}) }
func sprint(args []any) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(a.(string))
	}
	return b.String()
}

// Without a display a GL test fails and says how to run it; it is not
// skipped, which would let a suite pass that never drew.
func TestNoDisplayFails(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("CI", "")
	r := &recorder{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil {
				if _, ok := p.(stop); !ok {
					panic(p)
				}
			}
		}()
		Do(r, func() error { return nil })
	}()
	if r.skipped != "" {
		t.Fatalf("Do skipped without a display (%q); it must fail", r.skipped)
	}
	if !strings.Contains(r.failed, "xvfb-run") || !strings.Contains(r.failed, "DISPLAY") {
		t.Fatalf("Do without a display failed with %q; want a message naming DISPLAY and xvfb-run", r.failed)
	}
}
