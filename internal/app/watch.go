package app

import (
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watcher reports that one of a set of files changed on disk. It watches
// their folders, because editors save by writing a new file and renaming
// it over the old one, and waits for writes to settle before it reports.
type Watcher struct {
	w       *fsnotify.Watcher
	files   map[string]bool // cleaned absolute paths
	changed chan struct{}
}

// settle is how long after the last write to a file it is reloaded: a
// file written in several steps is read once, whole.
const settle = 150 * time.Millisecond

// Watch starts watching files (empty names are skipped).
func Watch(files ...string) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	wt := &Watcher{w: fw, files: map[string]bool{}, changed: make(chan struct{}, 1)}
	dirs := map[string]bool{}
	for _, f := range files {
		if f == "" {
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		wt.files[abs] = true
		if d := filepath.Dir(abs); !dirs[d] {
			dirs[d] = true
			if err := fw.Add(d); err != nil {
				fw.Close()
				return nil, err
			}
		}
	}
	go wt.run()
	return wt, nil
}

func (wt *Watcher) run() {
	var timer *time.Timer
	for {
		select {
		case ev, ok := <-wt.w.Events:
			if !ok {
				return
			}
			if !wt.files[filepath.Clean(ev.Name)] || !ev.Has(fsnotify.Write|fsnotify.Create|fsnotify.Rename) {
				continue
			}
			if timer != nil {
				timer.Stop()
			}
			timer = time.AfterFunc(settle, func() {
				select {
				case wt.changed <- struct{}{}:
				default: // one pending reload is enough
				}
			})
		case _, ok := <-wt.w.Errors:
			if !ok {
				return
			}
		}
	}
}

// Changed reports, without blocking, whether a watched file changed.
func (wt *Watcher) Changed() bool {
	select {
	case <-wt.changed:
		return true
	default:
		return false
	}
}

// Close stops watching.
func (wt *Watcher) Close() { wt.w.Close() }
