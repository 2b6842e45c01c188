package app

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Progress says how far long work has got. On a terminal it is one bar
// redrawn in place with \r; elsewhere (a log, a pipe) a plain line now
// and then, so that the log stays readable. Nothing is said of work that
// ends within its first interval.
type Progress struct {
	w     io.Writer
	tty   bool
	what  string
	total int
	start time.Time
	next  time.Time
	drawn int // the width of the bar on the terminal's line, 0 for none
}

// progressEvery is how long work runs before it first says how far it has
// got, and how often it says so again on a log (a terminal's bar is
// redrawn ten times as often).
var progressEvery = 2 * time.Second

// NewProgress starts reporting work of total steps, called what, on w:
// usually os.Stderr, so that the results on stdout stay clean.
func NewProgress(w io.Writer, what string, total int) *Progress {
	now := time.Now()
	return &Progress{w: w, tty: IsTerminal(w), what: what, total: total, start: now, next: now.Add(progressEvery)}
}

// IsTerminal reports whether w is a terminal (a character device), where
// a line can be redrawn.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Step says that done of the total steps are done, when it is time to.
func (p *Progress) Step(done int) {
	if p == nil || p.w == nil {
		return
	}
	now := time.Now()
	if now.Before(p.next) {
		return
	}
	elapsed := now.Sub(p.start).Seconds()
	share := float64(done) / float64(max(p.total, 1))
	if p.tty {
		const width = 30
		n := min(int(share*width), width)
		bar := fmt.Sprintf("%s [%s%s] %d/%d %3.0f%% %.0f s ", p.what, strings.Repeat("#", n), strings.Repeat(".", width-n), done, p.total, 100*share, elapsed)
		fmt.Fprint(p.w, "\r", bar)
		p.drawn = len(bar)
		p.next = now.Add(progressEvery / 10)
		return
	}
	fmt.Fprintf(p.w, "%s: %d/%d (%.0f%%, %.0f s)\n", p.what, done, p.total, 100*share, elapsed)
	p.next = now.Add(progressEvery)
}

// Hide wipes the bar off the terminal's line, for a line of output to
// take its place; the next Step draws it again below.
func (p *Progress) Hide() {
	if p != nil && p.drawn > 0 {
		fmt.Fprint(p.w, "\r", strings.Repeat(" ", p.drawn), "\r")
		p.drawn = 0
	}
}

// Done wipes the bar, so that the work's results are read without it.
func (p *Progress) Done() { p.Hide() }
