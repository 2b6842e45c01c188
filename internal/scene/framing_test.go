package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/golden"
)

// framesGLTF is a flat square animated the way a bird's flap is exported
// from a vertex-animated source: its rest positions are a hundredth of
// its size, and each of its frames morph targets moves the square to one
// frame of the flap, a unit square (0.6 + 0.1·k wide), which the clip
// shows alone at time k s (weight 1 for target k, 0 for the others).
// With extra set the position accessor holds a fifth vertex at
// (1000, 0, 0) that no index draws, as some exporters leave them. Every
// vertex has the normal +Z, so that the drawn copy keeps the file's
// vertices.
func framesGLTF(t *testing.T, frames int, extra bool) []byte {
	t.Helper()
	var bin bytes.Buffer
	put := func(v ...float32) {
		if err := binary.Write(&bin, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	corners := [][2]float32{{-0.5, 0}, {0.5, 0}, {0.5, 1}, {-0.5, 1}}
	nv := 4
	if extra {
		nv = 5
	}
	const rest = 0.01
	for _, c := range corners {
		put(c[0]*rest, c[1]*rest, 0)
	}
	if extra {
		put(1000, 0, 0)
	}
	for k := 0; k < frames; k++ {
		s := 0.6 + 0.1*float32(k)
		for _, c := range corners {
			put(c[0]*(s-rest), c[1]*(s-rest), 0)
		}
		if extra {
			put(0, 0, 0)
		}
	}
	for k := 0; k < frames; k++ {
		put(float32(k))
	}
	for k := 0; k < frames; k++ {
		for j := 0; j < frames; j++ {
			w := float32(0)
			if j == k {
				w = 1
			}
			put(w)
		}
	}
	idx := bin.Len()
	for _, i := range []uint16{0, 1, 2, 0, 2, 3} {
		if err := binary.Write(&bin, binary.LittleEndian, i); err != nil {
			t.Fatal(err)
		}
	}
	nrm := bin.Len()
	for range nv {
		put(0, 0, 1)
	}
	vsize := nv * 12
	var targets, views, accs bytes.Buffer
	fmt.Fprintf(&views, `{"buffer": 0, "byteOffset": 0, "byteLength": %d}`, vsize)
	fmt.Fprintf(&accs, `{"bufferView": 0, "componentType": 5126, "count": %d, "type": "VEC3", "min": [-0.005, 0, 0], "max": [%g, 0.01, 0]}`, nv, map[bool]float64{false: 0.005, true: 1000}[extra])
	for k := 0; k < frames; k++ {
		if k > 0 {
			targets.WriteString(", ")
		}
		fmt.Fprintf(&targets, `{"POSITION": %d}`, k+1)
		fmt.Fprintf(&views, `, {"buffer": 0, "byteOffset": %d, "byteLength": %d}`, vsize*(k+1), vsize)
		fmt.Fprintf(&accs, `, {"bufferView": %d, "componentType": 5126, "count": %d, "type": "VEC3", "min": [-1, 0, 0], "max": [1, 2, 0]}`, k+1, nv)
	}
	times := vsize * (frames + 1)
	fmt.Fprintf(&views, `, {"buffer": 0, "byteOffset": %d, "byteLength": %d}`, times, 4*frames)
	fmt.Fprintf(&views, `, {"buffer": 0, "byteOffset": %d, "byteLength": %d}`, times+4*frames, 4*frames*frames)
	fmt.Fprintf(&views, `, {"buffer": 0, "byteOffset": %d, "byteLength": 12}`, idx)
	fmt.Fprintf(&accs, `, {"bufferView": %d, "componentType": 5126, "count": %d, "type": "SCALAR", "min": [0], "max": [%d]}`, frames+1, frames, frames-1)
	fmt.Fprintf(&accs, `, {"bufferView": %d, "componentType": 5126, "count": %d, "type": "SCALAR"}`, frames+2, frames*frames)
	fmt.Fprintf(&accs, `, {"bufferView": %d, "componentType": 5123, "count": 6, "type": "SCALAR"}`, frames+3)
	fmt.Fprintf(&views, `, {"buffer": 0, "byteOffset": %d, "byteLength": %d}`, nrm, vsize)
	fmt.Fprintf(&accs, `, {"bufferView": %d, "componentType": 5126, "count": %d, "type": "VEC3"}`, frames+4, nv)
	doc := fmt.Sprintf(`{
  "asset": {"version": "2.0"},
  "scene": 0, "scenes": [{"nodes": [0]}],
  "nodes": [{"name": "bird", "mesh": 0}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": %d}, "indices": %d, "targets": [%s]}]}],
  "animations": [{"name": "flap", "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}],
                  "samplers": [{"input": %d, "output": %d, "interpolation": "STEP"}]}],
  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [%s],
  "accessors": [%s]
}`, frames+4, frames+3, targets.String(), frames+1, frames+2, bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes()), views.String(), accs.String())
	return []byte(doc)
}

// span is the share of the image's width and of its height that the
// pixels differing from Background cover, from the first to the last.
func span(img *image.NRGBA) (w, h float64) {
	b := img.Bounds()
	x0, y0, x1, y1 := b.Max.X, b.Max.Y, b.Min.X-1, b.Min.Y-1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.NRGBAAt(x, y) != Background {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < x0 {
		return 0, 0
	}
	return float64(x1-x0+1) / float64(b.Dx()), float64(y1-y0+1) / float64(b.Dy())
}

// TestFramingFillsTheFrame renders models whose drawn shape is far smaller
// than a careless bound (the sum of every morph target, a vertex no
// triangle uses) through the screenshot path and measures the picture.
// The square's frames are at most 1.1 × 1.1 (the last, 0.6 + 0.1·5) and
// the view frames a box, so the square at time 0 (0.6 wide, the smallest)
// covers over half the largest frame's extent: well over 30 % of the
// image. Summing all six targets would make the box 6 × 3.8 units and
// the square a tenth of the picture; the unused vertex a thousandth.
func TestFramingFillsTheFrame(t *testing.T) {
	for _, tc := range []struct {
		name   string
		frames int
		extra  bool
	}{
		{"morph frames", 6, false},
		{"unused vertex", 1, true},
		{"both", 6, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := gltfload.Decode(framesGLTF(t, tc.frames, tc.extra), nil, "frames.gltf")
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			c, err := character.New(m, nil, nil, 0, 0)
			if err != nil {
				t.Fatalf("character: %v", err)
			}
			var img *image.NRGBA
			onGL(t, func() error {
				img, err = RenderImage(c, ViewOptions{Skinning: SkinGPU}, 0, 160, 160)
				return err
			})
			w, h := span(img)
			if max(w, h) < 0.3 {
				t.Errorf("the model spans %.0f%% × %.0f%% of the picture; want at least 30%% one way", 100*w, 100*h)
			}
		})
	}
}

// morphTriangleGLTF is a triangle (0, 0, 0), (1, 0, 0), (0.5, 0.5, 0) with
// two morph targets that move only its third vertex, by (0.5, 1, 0.25)
// and (1.5, 1, 0.5), at the mesh's default weights (a JSON list). Given
// a clip, a second copy of it stands 10 units along +x, its weights keyed
// by the clip at 0 and 1 s: keys are the sampler's output (two weights a
// key, and for CUBICSPLINE each key's in-tangents, values, out-tangents).
func morphTriangleGLTF(t *testing.T, weights string, clip *morphClip) []byte {
	t.Helper()
	var bin bytes.Buffer
	put := func(v ...float32) {
		if err := binary.Write(&bin, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	put(0, 0, 0, 1, 0, 0, 0.5, 0.5, 0, 0, 0, 0, 0, 0, 0, 0.5, 1, 0.25, 0, 0, 0, 0, 0, 0, 1.5, 1, 0.5)
	nodes, anims, views, accs := `{"mesh": 0}`, "", "", ""
	if clip != nil {
		put(0, 1)
		put(clip.keys...)
		nodes += `, {"mesh": 0, "translation": [10, 0, 0]}`
		anims = fmt.Sprintf(`"animations": [{"channels": [{"sampler": 0, "target": {"node": 1, "path": "weights"}}], "samplers": [{"input": 3, "output": 4, "interpolation": %q}]}],`, clip.interp)
		views = fmt.Sprintf(`, {"buffer": 0, "byteOffset": 108, "byteLength": 8}, {"buffer": 0, "byteOffset": 116, "byteLength": %d}`, 4*len(clip.keys))
		accs = fmt.Sprintf(`, {"bufferView": 3, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]}, {"bufferView": 4, "componentType": 5126, "count": %d, "type": "SCALAR"}`, len(clip.keys))
	}
	doc := fmt.Sprintf(`{
  "asset": {"version": "2.0"},
  "scene": 0, "scenes": [{"nodes": [0%s]}],
  "nodes": [%s],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "targets": [{"POSITION": 1}, {"POSITION": 2}]}], "weights": %s}],
  %s
  "buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 36}, {"buffer": 0, "byteOffset": 72, "byteLength": 36}%s],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 0.5, 0]},
    {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [0.5, 1, 0.25]},
    {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1.5, 1, 0.5]}%s
  ]
}`, map[bool]string{false: "", true: ", 1"}[clip != nil], nodes, weights, anims, bin.Len(), base64.StdEncoding.EncodeToString(bin.Bytes()), views, accs)
	return []byte(doc)
}

// morphClip is morphTriangleGLTF's clip: its weights and how they are
// interpolated.
type morphClip struct {
	keys   []float32
	interp string
}

// TestMorphShapesBound: the bounds hold each morph target's shape at
// weight 1 — the third vertex at (1, 1.5, 0.25) and (2, 1.5, 0.5) — and,
// where the targets weigh in together (default weights 1 and 1), their
// sum, (2.5, 2.5, 0.75); but not the sum where they never do.
func TestMorphShapesBound(t *testing.T) {
	for _, tc := range []struct {
		weights string
		hi      mgl32.Vec3
	}{
		{"[0, 0]", mgl32.Vec3{2, 1.5, 0.5}},
		{"[1, 0]", mgl32.Vec3{2, 1.5, 0.5}},
		{"[1, 1]", mgl32.Vec3{2.5, 2.5, 0.75}},
		// A weight outside [0, 1] is bounded as it is: the vertex at
		// (0.5, 0.5, 0) + 2·(0.5, 1, 0.25).
		{"[2, 0]", mgl32.Vec3{2, 2.5, 0.5}},
	} {
		boundsFromOrigin(t, morphTriangleGLTF(t, tc.weights, nil), "weights "+tc.weights, tc.hi)
	}
}

// boundsFromOrigin checks that the model of doc, at rest (no clip), is
// bounded by the box from the origin to hi, and so is a crowd of one,
// which stands at the origin with the same weights.
func boundsFromOrigin(t *testing.T, doc []byte, what string, hi mgl32.Vec3) {
	t.Helper()
	m, c := decodeChar(t, doc, "morph.gltf", -1)
	withView(t, c, func(v *View) error {
		if lo, got, ok := v.Scene.Bounds(c); !ok || !lo.ApproxEqualThreshold(mgl32.Vec3{}, 1e-6) || !got.ApproxEqualThreshold(hi, 1e-6) {
			t.Errorf("%s: bounds %v..%v (%v); want 0..%v", what, lo, got, ok, hi)
		}
		cr, err := NewCrowd(v.R, m, 0.3, c, v.Scene, 1, CrowdOptions{})
		if err != nil {
			return err
		}
		defer cr.Close()
		cr.PoseAt(0)
		if lo, got, ok := cr.Bounds(); !ok || !lo.ApproxEqualThreshold(mgl32.Vec3{}, 1e-6) || !got.ApproxEqualThreshold(hi, 1e-6) {
			t.Errorf("%s: a crowd of one's bounds %v..%v (%v); want 0..%v", what, lo, got, ok, hi)
		}
		return nil
	})
}

// TestMorphTargetsSummedBound: a triangle whose vertex (1, 0, 0) three
// targets move by +1, +1 and −1 along x. Rest weights (1, 1, 0) put it at
// x = 3, past every authored shape (x = 2 at most: each target alone; the
// three never weigh in together); the bounds hold it. Weights (0.5, 0.5,
// 0) sum to 1 and stay among the shapes: x = 2. The crowd's bounds, the
// same function per member, agree (boundsFromOrigin).
func TestMorphTargetsSummedBound(t *testing.T) {
	var bin bytes.Buffer
	for _, v := range [][]float32{{0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 0, 1, 0, 0, 0, 0, 0}, {0, 0, 0, 1, 0, 0, 0, 0, 0}, {0, 0, 0, -1, 0, 0, 0, 0, 0}} {
		if err := binary.Write(&bin, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		weights string
		hi      mgl32.Vec3
	}{
		{"[1, 1, 0]", mgl32.Vec3{3, 1, 0}},
		{"[0.5, 0.5, 0]", mgl32.Vec3{2, 1, 0}},
		{"[0, 1, 1]", mgl32.Vec3{2, 1, 0}}, // the vertex back at x = 1; the shapes' x = 2 still bounds it
	} {
		doc := fmt.Sprintf(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "targets": [{"POSITION": 1}, {"POSITION": 2}, {"POSITION": 3}]}], "weights": %s}],
  "buffers": [{"byteLength": 144, "uri": "data:application/octet-stream;base64,%s"}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 36}, {"buffer": 0, "byteOffset": 72, "byteLength": 36}, {"buffer": 0, "byteOffset": 108, "byteLength": 36}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
    {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 0, 0]},
    {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 0, 0]},
    {"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC3", "min": [-1, 0, 0], "max": [0, 0, 0]}]}`,
			tc.weights, base64.StdEncoding.EncodeToString(bin.Bytes()))
		boundsFromOrigin(t, []byte(doc), "weights "+tc.weights, tc.hi)
	}
}

// TestMorphShapesTogetherInAClip: the morph triangle twice, the second
// copy 10 units along +x with a clip on its weights. Where the clip gives
// both targets weight at once — at a key, (1, 1) at 1 s — their sum is a
// shape the copy takes and is in the bounds, (12.5, 2.5, 0.75); where a
// STEP clip shows each alone, (1, 0) then (0, 1), it is not: the bounds
// end at the single shapes, (12, 1.5, 0.5). The first copy, at rest
// weights 0, never sums. The second copy's weights are the model's
// channels 2 and 3, not 0 and 1.
func TestMorphShapesTogetherInAClip(t *testing.T) {
	for _, tc := range []struct {
		name string
		clip morphClip
		hi   mgl32.Vec3
	}{
		{"together", morphClip{[]float32{0, 0, 1, 1}, "LINEAR"}, mgl32.Vec3{12.5, 2.5, 0.75}},
		{"apart", morphClip{[]float32{1, 0, 0, 1}, "STEP"}, mgl32.Vec3{12, 1.5, 0.5}},
		// A STEP key holds until the next: (1, 1) from 0 s.
		{"together at a STEP key", morphClip{[]float32{1, 1, 0, 0}, "STEP"}, mgl32.Vec3{12.5, 2.5, 0.75}},
		// The values between the tangents: (0, 0), then (1, 1).
		{"together, cubic", morphClip{[]float32{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0}, "CUBICSPLINE"}, mgl32.Vec3{12.5, 2.5, 0.75}},
	} {
		m, err := gltfload.Decode(morphTriangleGLTF(t, "[0, 0]", &tc.clip), nil, "morph2.gltf")
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		c, err := character.New(m, nil, nil, 0, 0)
		if err != nil {
			t.Fatalf("character: %v", err)
		}
		withView(t, c, func(v *View) error {
			lo, hi, ok := v.Scene.Bounds(c)
			if !ok || !lo.ApproxEqualThreshold(mgl32.Vec3{}, 1e-6) || !hi.ApproxEqualThreshold(tc.hi, 1e-6) {
				t.Errorf("%s: bounds %v..%v (%v); want 0..%v", tc.name, lo, hi, ok, tc.hi)
			}
			return nil
		})
	}
}

// TestFramingFitsANarrowPicture: the morph triangle's bounds, 2 wide and
// 1.5 tall (its shapes), in a picture half as wide as it is tall: the
// width is what limits the framing, and nothing drawn reaches the left or
// right edge.
func TestFramingFitsANarrowPicture(t *testing.T) {
	m, err := gltfload.Decode(morphTriangleGLTF(t, "[0, 0]", nil), nil, "morph.gltf")
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	c, err := character.New(m, nil, nil, -1, 0)
	if err != nil {
		t.Fatalf("character: %v", err)
	}
	const w, h = 100, 200
	var img *image.NRGBA
	onGL(t, func() error {
		img, err = RenderImage(c, ViewOptions{Skinning: SkinGPU}, 0, w, h)
		return err
	})
	if img == nil {
		return
	}
	drawn := 0
	for y := range h {
		for x := range w {
			if img.NRGBAAt(x, y) == Background {
				continue
			}
			drawn++
			if x == 0 || x == w-1 {
				t.Errorf("pixel (%d, %d) at the picture's side is drawn: the framing overflows its width", x, y)
				return
			}
		}
	}
	if drawn == 0 {
		t.Error("nothing drawn")
	}
}

// TestCPUMorphsEveryCopy: with -skinning cpu every morphed draw is
// morphed in Go each frame, not only the first: the two copies of the
// morph triangle at 1 s (the second's weights (1, 1), the first's at
// rest) look as the GPU draws them, to a few edge pixels.
func TestCPUMorphsEveryCopy(t *testing.T) {
	clip := morphClip{[]float32{0, 0, 1, 1}, "LINEAR"}
	cpuAsGPU(t, morphTriangleGLTF(t, "[0, 0]", &clip), 320, 240, 500)
}

// TestCPUSkinsEveryDraw: with -skinning cpu every skinned draw is skinned
// in Go each frame, not only the first: the two-joint file with a second
// primitive, a triangle (0, 1, 0), (1, 2, 0), (0, 3, 0) on the same
// joints, drawn after the bar, looks at 1 s (the tip turned 90°) as the
// GPU draws it.
func TestCPUSkinsEveryDraw(t *testing.T) {
	bin := assettest.TwoJointBin(t, []float32{0, 1, 0, 1, 2, 0, 0, 3, 0})
	doc := string(assettest.TwoJointDoc(bin, assettest.TwoJointBend,
		`    {"buffer": 0, "byteOffset": 264, "byteLength": 36}`,
		`    {"bufferView": 6, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 1, 0], "max": [1, 3, 0]}`))
	const one = `{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}`
	if !strings.Contains(doc, one) {
		t.Fatalf("the two-joint file no longer has %s", one)
	}
	cpuAsGPU(t, []byte(strings.Replace(doc, one, one+`, {"attributes": {"POSITION": 6, "JOINTS_0": 1, "WEIGHTS_0": 2}}`, 1)), 160, 160, 200)
}

// cpuAsGPU draws the file's first clip at 1 s, w×h, with -skinning gpu and
// cpu: at least minDrawn pixels are drawn, and the two pictures differ in
// no more than one in fifty of them (edge pixels).
func cpuAsGPU(t *testing.T, doc []byte, w, h, minDrawn int) {
	t.Helper()
	m, err := gltfload.Decode(doc, nil, "cpu.gltf")
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	c, err := character.New(m, nil, nil, 0, 0)
	if err != nil {
		t.Fatalf("character: %v", err)
	}
	var gpu, cpu *image.NRGBA
	onGL(t, func() error {
		if gpu, err = RenderImage(c, ViewOptions{Skinning: SkinGPU}, 1, w, h); err != nil {
			return err
		}
		cpu, err = RenderImage(c, ViewOptions{Skinning: SkinCPU}, 1, w, h)
		return err
	})
	if gpu == nil || cpu == nil {
		return
	}
	drawn := 0
	for i := 0; i < len(gpu.Pix); i += 4 {
		if gpu.Pix[i] != Background.R || gpu.Pix[i+1] != Background.G || gpu.Pix[i+2] != Background.B {
			drawn++
		}
	}
	if res := golden.Compare(cpu, gpu, golden.Options{}); drawn < minDrawn || res.BadPixels > drawn/50 {
		t.Errorf("CPU and GPU pictures differ in %d pixels of %d drawn", res.BadPixels, drawn)
	}
}
