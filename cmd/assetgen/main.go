// Command assetgen writes the default skinview character, a small skinned,
// textured and animated humanoid, as a binary glTF 2.0 file.
//
// The output is fully deterministic, so the committed assets/character.glb
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

// outputName is the file written into the output directory.
const outputName = "character.glb"

func main() {
	out := flag.String("out", "assets", "directory to write "+outputName+" into")
	flag.Parse()
	if err := run(*out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "assetgen:", err)
		os.Exit(1)
	}
}

// run generates the character into dir and reports the written file on w.
func run(dir string, w io.Writer) error {
	data, err := generate()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, outputName)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "wrote %s (%d bytes)\n", path, len(data))
	return err
}
