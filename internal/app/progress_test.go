package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// setProgressEvery sets the interval between progress updates to d for
// the rest of the test t.
func setProgressEvery(t *testing.T, d time.Duration) {
	old := progressEvery
	t.Cleanup(func() { progressEvery = old })
	progressEvery = d
}

// Off a terminal (a log, a pipe) progress is plain lines, one per
// interval, saying steps done of all and the share: 3 of 12 is 25%.
func TestProgressOnALog(t *testing.T) {
	setProgressEvery(t, 0)
	var b bytes.Buffer
	p := NewProgress(&b, "recording out.gif", 12)
	p.Step(3)
	p.Done()
	if got := b.String(); !strings.HasPrefix(got, "recording out.gif: 3/12 (25%, ") || strings.Contains(got, "\r") || strings.Count(got, "\n") != 1 {
		t.Errorf("progress on a log: %q; want one plain line of 3/12 (25%%)", got)
	}
	b.Reset()
	progressEvery = time.Hour
	p = NewProgress(&b, "quick", 2)
	p.Step(1)
	p.Done()
	if b.Len() != 0 {
		t.Errorf("work done within the first interval printed %q", b.String())
	}
}

// A terminal's bar is redrawn in place and wiped when the work is done.
func TestProgressBarOnATerminal(t *testing.T) {
	setProgressEvery(t, 0)
	var b bytes.Buffer
	p := NewProgress(&b, "corpus", 4)
	p.tty = true
	p.Step(2)
	p.Step(3)
	p.Done()
	got := b.String()
	if strings.Count(got, "\r") != 4 || strings.Contains(got, "\n") || !strings.Contains(got, "corpus [###############...............] 2/4  50%") || !strings.HasSuffix(got, "\r") {
		t.Errorf("terminal bar: %q; want two bars of 30 redrawn with \\r, then wiped", got)
	}
}

// Neither a buffer nor a regular file is a terminal.
func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(&bytes.Buffer{}) || IsTerminal(f) {
		t.Error("a buffer or a regular file taken for a terminal")
	}
}
