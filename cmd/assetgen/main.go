// Command assetgen writes skinview's generated assets: the default humanoid
// character, a stress model with hundreds of joints, a twisting limb that
// shows where linear blend skinning collapses, and small edge-case files
// for the loader tests. It uses only the standard library and mathgl's
// mgl64.
//
// The output is fully deterministic, so the committed files under assets/
// can be checked against a fresh generation byte for byte:
//
//	go run ./cmd/assetgen -out assets
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// output is one generated file, named relative to the output directory.
type output struct {
	name     string
	generate func() ([]byte, error)
}

// outputs lists every file assetgen writes.
func outputs() []output {
	outs := []output{
		{"character.glb", character},
		{"stress.glb", stress},
		{"twist.glb", twist},
	}
	for _, e := range edgeCases() {
		outs = append(outs, output{filepath.Join("edge", e.name), e.generate})
	}
	return outs
}

func main() {
	out := flag.String("out", "assets", "directory to write the assets into")
	flag.Parse()
	if err := run(*out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "assetgen:", err)
		os.Exit(1)
	}
}

// run generates every asset into dir and reports the written files on w.
func run(dir string, w io.Writer) error {
	for _, o := range outputs() {
		data, err := o.generate()
		if err != nil {
			return fmt.Errorf("%s: %w", o.name, err)
		}
		path := filepath.Join(dir, o.name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "wrote %s (%d bytes)\n", path, len(data)); err != nil {
			return err
		}
	}
	return nil
}
