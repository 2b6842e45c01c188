package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// assetsDir holds the committed files the viewer embeds; they must be
// exactly what the generator produces today.
const assetsDir = "../../assets"

func TestRegenerationMatchesCommittedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := run(dir, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, o := range outputs() {
		got, err := os.ReadFile(filepath.Join(dir, o.name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(assetsDir, o.name))
		if err != nil {
			t.Errorf("%s: %v; run `go generate ./assets`", o.name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("generated %s (%d bytes) differs from the committed file (%d bytes); run `go generate ./assets`",
				o.name, len(got), len(want))
		}
	}
	// Nothing stale: every file under assets/edge is generated.
	generated := map[string]bool{}
	for _, o := range outputs() {
		generated[filepath.ToSlash(o.name)] = true
	}
	entries, err := os.ReadDir(filepath.Join(assetsDir, "edge"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := "edge/" + e.Name(); !generated[name] {
			t.Errorf("assets/%s is not written by the generator", name)
		}
	}
}

func TestGenerationIsDeterministic(t *testing.T) {
	for _, o := range outputs() {
		a, err := o.generate()
		if err != nil {
			t.Fatal(err)
		}
		b, err := o.generate()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two generations differ", o.name)
		}
	}
}

// TestStandardLibraryAndMgl64Only: only the loader may import
// qmuntal/gltf; the generator writes glTF with the standard library alone
// and does its vector maths with mathgl's mgl64, as the engine does.
func TestStandardLibraryAndMgl64Only(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		ast, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") && path != "github.com/go-gl/mathgl/mgl64" {
				t.Errorf("%s imports %s; assetgen uses the standard library and mgl64 only", f, path)
			}
		}
	}
}
