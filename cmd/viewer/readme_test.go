package main

import (
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/ui"
)

// TestREADMEListsEveryKeyAndFlag keeps the README true: every key of the
// key map and every flag of the viewer is documented there.
func TestREADMEListsEveryKeyAndFlag(t *testing.T) {
	data, err := os.ReadFile("../../docs/usage.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	for _, k := range ui.KeyMap {
		row := "| " + strings.ReplaceAll(k[0], "|", "\\\\|") + " | " + k[1] + " |"
		if !strings.Contains(readme, row) {
			t.Errorf("README lacks the key row %q", row)
		}
	}
	// parseFlags defines every flag on its FlagSet; collect their names.
	var names []string
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	defineFlags(fs, &options{})
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if len(names) < 20 {
		t.Fatalf("found only %d flags", len(names))
	}
	for _, n := range names {
		if !strings.Contains(readme, "`-"+n) {
			t.Errorf("README does not document -%s", n)
		}
	}
}
