package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/skinview/skinview/internal/ui"
)

// The documentation lives in README.md (the front page) and docs/*.md;
// these tests keep it true to the viewer's key map and flag set, and its
// links whole. They need no GL.

const (
	readmePath = "../../README.md"
	usagePath  = "../../docs/usage.md"
	docsDir    = "../../docs"
	readmeMax  = 150 // lines
)

func readDoc(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// viewerFlags returns the name of every flag the viewer defines.
func viewerFlags(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	defineFlags(fs, &options{})
	fs.VisitAll(func(f *flag.Flag) { names[f.Name] = true })
	if len(names) < 20 {
		t.Fatalf("found only %d flags", len(names))
	}
	return names
}

// keyRow is the Markdown table row documenting a key map entry.
func keyRow(k [2]string) string {
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	return "| " + esc(k[0]) + " | " + esc(k[1]) + " |"
}

// TestDocsUsageListsEveryKeyAndFlag: docs/usage.md has a row for every
// entry of the key map, word for word, and a table row of its own for
// every flag, starting "| `-name".
func TestDocsUsageListsEveryKeyAndFlag(t *testing.T) {
	usage := readDoc(t, usagePath)
	lines := strings.Split(usage, "\n")
	for _, k := range ui.KeyMap {
		if !strings.Contains(usage, keyRow(k)) {
			t.Errorf("docs/usage.md lacks the key row %q", keyRow(k))
		}
	}
	for n := range viewerFlags(t) {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, "| `-"+n+" ") || strings.HasPrefix(l, "| `-"+n+"`") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("docs/usage.md has no table row for -%s", n)
		}
	}
}

// TestREADMEFrontPage: the README is at most readmeMax lines and opens
// with its title, one paragraph, then a code block whose first two
// commands are make run and make test.
func TestREADMEFrontPage(t *testing.T) {
	lines := strings.Split(strings.TrimRight(readDoc(t, readmePath), "\n"), "\n")
	if len(lines) > readmeMax {
		t.Errorf("README.md has %d lines, want at most %d (the rest belongs under docs/)", len(lines), readmeMax)
	}
	if err := checkFrontPage(lines); err != "" {
		t.Error("README.md: " + err)
	}
}

// checkFrontPage says what is wrong with the opening of lines, or "".
func checkFrontPage(lines []string) string {
	i := 0
	if i >= len(lines) || !strings.HasPrefix(lines[i], "# ") {
		return "the first line is not a title (# ...)"
	}
	i++
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i >= len(lines) || strings.HasPrefix(lines[i], "```") || strings.HasPrefix(lines[i], "#") {
		return "no paragraph after the title"
	}
	for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
		i++
	}
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i+2 >= len(lines) || !strings.HasPrefix(lines[i], "```") {
		return "the paragraph after the title is not followed by a code block"
	}
	if !strings.HasPrefix(lines[i+1], "make run") || !strings.HasPrefix(lines[i+2], "make test") {
		return "the first code block does not start with make run, then make test"
	}
	return ""
}

var (
	// inlineCode matches a span of inline code.
	inlineCode = regexp.MustCompile("`([^`]+)`")
	// commandFlag matches a flag on a command line after bin/viewer.
	commandFlag = regexp.MustCompile(`(?:^|\s)-([a-z][a-z0-9-]*)`)
)

// commandFlags returns the flags on the bin/viewer command in line, if any.
func commandFlags(line string) []string {
	_, cmd, ok := strings.Cut(line, "bin/viewer")
	if !ok {
		return nil
	}
	cmd, _, _ = strings.Cut(cmd, "#")
	var flags []string
	for _, m := range commandFlag.FindAllStringSubmatch(cmd, -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// TestREADMENamesOnlyRealKeysAndFlags: every row of the README's key
// table is a key map entry, word for word, and every flag the README
// names (inline code starting with -name, or a bin/viewer command line in
// a code block or inline code) is defined.
func TestREADMENamesOnlyRealKeysAndFlags(t *testing.T) {
	keys, flags := readmeKeysAndFlags(readDoc(t, readmePath))
	known := map[string]bool{}
	for _, k := range ui.KeyMap {
		known[keyRow(k)] = true
	}
	if len(keys) == 0 {
		t.Error("README.md has no key table (| key | action |)")
	}
	for _, row := range keys {
		if !known[row] {
			t.Errorf("README.md's key row %q is not an entry of ui.KeyMap", row)
		}
	}
	defined := viewerFlags(t)
	if len(flags) == 0 {
		t.Error("README.md names no flag")
	}
	for _, f := range flags {
		if !defined[f] {
			t.Errorf("README.md names -%s, which the viewer does not define", f)
		}
	}
}

// readmeKeysAndFlags returns the rows of every table headed
// "| key | action |" and the flags named in doc, as described at
// TestREADMENamesOnlyRealKeysAndFlags.
func readmeKeysAndFlags(doc string) (keys, flags []string) {
	inFence, inKeys := false, false
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			flags = append(flags, commandFlags(l)...)
			continue
		}
		switch {
		case l == "| key | action |":
			inKeys = true
		case inKeys && strings.HasPrefix(l, "|---"):
		case inKeys && strings.HasPrefix(l, "|"):
			keys = append(keys, l)
		default:
			inKeys = false
		}
		for _, m := range inlineCode.FindAllStringSubmatch(l, -1) {
			flags = append(flags, commandFlags(m[1])...)
			if f := commandFlag.FindStringSubmatch(m[1]); f != nil && strings.HasPrefix(m[1], "-") {
				flags = append(flags, f[1])
			}
		}
	}
	return keys, flags
}

// mdLink matches a Markdown link or image target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinksResolve: every relative link in README.md and docs/*.md
// leads to a file that exists and, with a #fragment into a Markdown file,
// to one of its headings.
func TestDocsLinksResolve(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(docsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, readmePath)
	if len(files) < 6 {
		t.Fatalf("found only %v", files)
	}
	for _, f := range files {
		for _, bad := range brokenLinks(t, f) {
			t.Errorf("%s: %s", filepath.Base(f), bad)
		}
	}
}

// brokenLinks lists what is wrong with the relative links of file f.
func brokenLinks(t *testing.T, f string) []string {
	var bad []string
	for _, m := range mdLink.FindAllStringSubmatch(stripCode(readDoc(t, f)), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		path, frag, _ := strings.Cut(target, "#")
		full := f
		if path != "" {
			full = filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
			if _, err := os.Stat(full); err != nil {
				bad = append(bad, "link to a missing file: "+target)
				continue
			}
		}
		if frag != "" && strings.HasSuffix(full, ".md") && !headingAnchors(readDoc(t, full))[frag] {
			bad = append(bad, "link to a missing heading: "+target)
		}
	}
	return bad
}

// stripCode blanks fenced code blocks, whose brackets are not links.
func stripCode(doc string) string {
	var b strings.Builder
	inFence := false
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			continue
		}
		if !inFence {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// headingAnchors returns the anchors GitHub gives the headings of doc:
// lower case, spaces to hyphens, other punctuation dropped.
func headingAnchors(doc string) map[string]bool {
	anchors := map[string]bool{}
	for _, l := range strings.Split(stripCode(doc), "\n") {
		text, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " ")
		if !ok || !strings.HasPrefix(l, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(text)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		anchors[b.String()] = true
	}
	return anchors
}
