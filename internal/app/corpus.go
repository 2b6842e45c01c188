package app

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/report"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
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
// under a folder named "invalid" must be refused, or load with a
// validation report that names what is wrong or what was not drawn (and
// then render); any other file must load and render. It fails if any file
// does otherwise. A GL context must be current.
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
			return fmt.Sprintf("%8.1f %6s %5s %8s  refused as expected: %s", ms, "-", "-", "-", report.OneLine(err)), true
		}
		return fmt.Sprintf("%8.1f %6s %5s %8s  FAIL: %s", ms, "-", "-", "-", report.OneLine(err)), false
	}
	verts := 0
	for _, me := range m.Meshes {
		for _, p := range me.Primitives {
			verts += p.NumVertices()
		}
	}
	cols := fmt.Sprintf("%8.1f %6d %5d %8d ", ms, m.Skeleton.NumJoints(), len(m.Clips), verts)
	status := " ok"
	if expectRefusal {
		// A malformed file the viewer can still show safely loads, but
		// never silently: its report must name what is wrong or what was
		// not drawn.
		if len(m.Report.Issues) == 0 {
			return cols + " FAIL: loaded a file that should be refused, and reported nothing", false
		}
		status = " loaded and reported: " + m.Report.Issues[0].String()
	}
	base := strings.NewReplacer("/", "_", "\\", "_", " ", "_").Replace(strings.TrimSuffix(rel, filepath.Ext(rel)))
	for ci := range m.Clips {
		c, err := character.New(m, nil, nil, ci, 0)
		if err != nil {
			return cols + " FAIL: " + report.OneLine(err), false
		}
		for k := 0; k < corpusPoseTimes; k++ {
			t := c.Span() * float32(k) / (corpusPoseTimes - 1)
			if err := DumpPose(filepath.Join(out, fmt.Sprintf("%s.clip%d.t%d.json", base, ci, k)), c, t, false); err != nil {
				return cols + " FAIL: pose: " + report.OneLine(err), false
			}
		}
	}
	img, err := corpusShot(m, width, height)
	if err != nil {
		return cols + " FAIL: render: " + report.OneLine(err), false
	}
	shot := filepath.Join(out, base+".png")
	f, err := os.Create(shot)
	if err != nil {
		return cols + " FAIL: " + report.OneLine(err), false
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		return cols + " FAIL: " + report.OneLine(err), false
	}
	return cols + status, true
}

// corpusKeys is what a user tries in the first minute with a model: play,
// step, the next clip and a cross-fade to it, the loop modes, the joint
// overlay, the debug views, the morph panel, the bind pose, framing, the
// onion skin, and the state line.
const corpusKeys = "space,right*3,],enter,wait*3,l,l,l,r,home,end,i,o,alt+i,k,v,v,v,m,n,=,backspace,b,b,f,shift+o,shift+o,a,tab,up,s,left,space"

// corpusShot takes m's picture by the path -screenshot -hud takes (a
// app on the clip browser, half-way through the first clip), then
// plays corpusKeys through it as the window would, and a crowd of three
// for a frame: whatever m holds or lacks (clips, skins, meshes, morph
// targets), each must run.
func corpusShot(m *gltfload.Model, width, height int) (*image.NRGBA, error) {
	lo := &LoadOptions{Model: m.Name}
	opt := &Options{Skinning: scene.SkinGPU, HUD: true}
	c, err := NewCharacter(m, lo)
	if err != nil {
		return nil, err
	}
	a, err := New(opt, lo, c, width, height)
	if err != nil {
		return nil, err
	}
	a.Stdout = io.Discard
	img, err := a.Shoot(c.Span()/2, nil)
	if err == nil {
		var evs []ui.Event
		if evs, err = ui.ParseKeys(corpusKeys); err == nil {
			err = a.RunKeys(evs)
		}
	}
	a.Destroy()
	if err != nil {
		return nil, err
	}
	if c.RootMotionOn() {
		return img, nil
	}
	crowd := &Options{Skinning: scene.SkinGPU, Crowd: 3}
	cc, err := NewCharacter(m, lo)
	if err != nil {
		return nil, err
	}
	ca, err := New(crowd, lo, cc, width/2, height/2)
	if err != nil {
		return nil, fmt.Errorf("crowd: %w", err)
	}
	defer ca.Destroy()
	ca.Stdout = io.Discard
	if _, err := ca.Shoot(cc.Span()/3, nil); err != nil {
		return nil, fmt.Errorf("crowd: %w", err)
	}
	return img, nil
}
