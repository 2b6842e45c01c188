package session

import (
	"fmt"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/scene"
)

// corpusPoseTimes is how many evenly spaced times of each clip are dumped.
const corpusPoseTimes = 5

// CorpusFiles lists the .gltf and .glb files under dir, sorted, for
// Corpus; it fails when there are none.
func CorpusFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(p)); !d.IsDir() && (ext == ".gltf" || ext == ".glb") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no .gltf or .glb files under %s", dir)
	}
	sort.Strings(files)
	return files, nil
}

// Corpus loads, poses and renders files (CorpusFiles of dir), writing pose
// dumps and one screenshot per model under out, and prints a table. Files
// under a folder named "invalid" must be refused; any other file must load
// and render. It fails if any file does otherwise. A GL context must be
// current.
func Corpus(w io.Writer, dir string, files []string, out string, width, height int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(w, "%-72s %8s %6s %5s %8s  %s\n", "model", "load ms", "joints", "clips", "vertices", "status")
	failed := 0
	prog := NewProgress(os.Stderr, "corpus", len(files))
	for i, f := range files {
		prog.Step(i)
		rel, _ := filepath.Rel(dir, f)
		row, ok := corpusModel(f, rel, out, width, height)
		if !ok {
			failed++
		}
		prog.Hide()
		fmt.Fprintf(w, "%-72s %s\n", rel, row)
	}
	prog.Done()
	fmt.Fprintf(w, "screenshots and poses in %s\n", out)
	fmt.Fprintf(w, "corpus: %d passed, %d failed\n", len(files)-failed, failed)
	if failed > 0 {
		return fmt.Errorf("%d of %d corpus files failed", failed, len(files))
	}
	return nil
}

// corpusModel handles one file and returns its table row and whether it
// behaved as expected. A panic is caught and reported as a failure.
func corpusModel(file, rel, out string, width, height int) (row string, ok bool) {
	expectRefusal := false
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if part == "invalid" {
			expectRefusal = true
		}
	}
	defer func() {
		if p := recover(); p != nil {
			row, ok = fmt.Sprintf("%8s %6s %5s %8s  FAIL: panic: %v", "-", "-", "-", "-", p), false
		}
	}()
	start := time.Now()
	m, err := gltfload.Load(file)
	ms := float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		if expectRefusal {
			return fmt.Sprintf("%8.1f %6s %5s %8s  refused as expected: %s", ms, "-", "-", "-", OneLine(err)), true
		}
		return fmt.Sprintf("%8.1f %6s %5s %8s  FAIL: %s", ms, "-", "-", "-", OneLine(err)), false
	}
	verts := 0
	for _, me := range m.Meshes {
		for _, p := range me.Primitives {
			verts += p.NumVertices()
		}
	}
	cols := fmt.Sprintf("%8.1f %6d %5d %8d ", ms, m.Skeleton.NumJoints(), len(m.Clips), verts)
	if expectRefusal {
		return cols + " FAIL: loaded a file that should be refused", false
	}
	base := strings.NewReplacer("/", "_", "\\", "_", " ", "_").Replace(strings.TrimSuffix(rel, filepath.Ext(rel)))
	for ci := range m.Clips {
		c, err := scene.NewCharacter(m, nil, ci, 0)
		if err != nil {
			return cols + " FAIL: " + OneLine(err), false
		}
		for k := 0; k < corpusPoseTimes; k++ {
			t := c.Span() * float32(k) / (corpusPoseTimes - 1)
			if err := DumpPose(filepath.Join(out, fmt.Sprintf("%s.clip%d.t%d.json", base, ci, k)), c, t, false); err != nil {
				return cols + " FAIL: pose: " + OneLine(err), false
			}
		}
	}
	c, err := scene.NewCharacter(m, nil, -1, 0)
	if err != nil {
		return cols + " FAIL: " + OneLine(err), false
	}
	img, err := scene.RenderImage(c, scene.ViewOptions{Skinning: scene.SkinGPU}, c.Span()/2, width, height)
	if err != nil {
		return cols + " FAIL: render: " + OneLine(err), false
	}
	shot := filepath.Join(out, base+".png")
	f, err := os.Create(shot)
	if err != nil {
		return cols + " FAIL: " + OneLine(err), false
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		return cols + " FAIL: " + OneLine(err), false
	}
	return cols + " ok", true
}

// OneLine keeps a refusal on one readable line, whatever the source error
// contains.
func OneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
