package gltfload

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// maxWarnings caps Model.Warnings: a hostile file could otherwise produce
// one per node or key. The rest are counted in a last line.
const maxWarnings = 100

// loadError is a refusal: one printable line, wrapping the cause.
type loadError struct {
	msg string
	err error
}

func (e *loadError) Error() string { return e.msg }
func (e *loadError) Unwrap() error { return e.err }

// refuse wraps err as "gltfload: <prefix>: err" on a single line.
func refuse(prefix string, err error) error {
	full := fmt.Errorf("gltfload: %s%w", prefix, err)
	return &loadError{msg: oneLine(full.Error()), err: full}
}

// oneLine escapes control characters (file names, URIs and JSON keys may
// hold newlines) so that a message always prints as one line.
func oneLine(s string) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (l *loader) warnf(format string, args ...any) {
	if len(l.model.Warnings) >= maxWarnings {
		l.moreWarnings++
		return
	}
	l.model.Warnings = append(l.model.Warnings, oneLine(fmt.Sprintf(format, args...)))
}

// tally reports a warning that may repeat for many objects once, naming
// the first and counting the others (see flushTallies).
func (l *loader) tally(rule, format string, args ...any) {
	if l.tallies == nil {
		l.tallies = map[string]*tallied{}
	}
	t := l.tallies[rule]
	if t == nil {
		t = &tallied{first: fmt.Sprintf(format, args...)}
		l.tallies[rule] = t
		l.tallyOrder = append(l.tallyOrder, rule)
	}
	t.n++
}

type tallied struct {
	first string
	n     int
}

func (l *loader) flushWarnings() {
	for _, rule := range l.tallyOrder {
		t := l.tallies[rule]
		if t.n > 1 {
			l.warnf("%s (and %d more like it)", t.first, t.n-1)
		} else {
			l.warnf("%s", t.first)
		}
	}
	l.tallies, l.tallyOrder = nil, nil
	if l.moreWarnings > 0 {
		l.model.Warnings = append(l.model.Warnings, fmt.Sprintf("... and %d more warnings", l.moreWarnings))
	}
}
