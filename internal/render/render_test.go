package render

import (
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltest"
	"github.com/skinview/skinview/internal/skin"
)

func TestMain(m *testing.M) { gltest.Main(m) }

// TestPaletteBlockLayout asks the driver how it laid out the Palette
// block: a vec4 array at offset 0 with a 16-byte stride, 48 bytes per
// joint, exactly the floats anim.PaletteJob writes.
func TestPaletteBlockLayout(t *testing.T) {
	gltest.Do(t, func() error {
		r, err := New()
		if err != nil {
			return err
		}
		defer r.Destroy()
		p := uint32(r.lbs.prog)
		blk := gl.GetUniformBlockIndex(p, gl.Str("Palette\x00"))
		var size int32
		gl.GetActiveUniformBlockiv(p, blk, gl.UNIFORM_BLOCK_DATA_SIZE, &size)
		if want := int32(r.MaxJoints() * anim.PaletteFloats * 4); size != want {
			t.Errorf("Palette block is %d bytes, want %d (48 per joint)", size, want)
		}
		var idx uint32
		name, free := gl.Strs("uRows\x00")
		defer free()
		gl.GetUniformIndices(p, 1, name, &idx)
		var offset, stride int32
		gl.GetActiveUniformsiv(p, 1, &idx, gl.UNIFORM_OFFSET, &offset)
		gl.GetActiveUniformsiv(p, 1, &idx, gl.UNIFORM_ARRAY_STRIDE, &stride)
		if offset != 0 || stride != 16 {
			t.Errorf("uRows at offset %d with stride %d, want 0 and 16", offset, stride)
		}
		return nil
	})
}

// randomSkin makes a mesh of n vertices bound to up to four of joints
// joints with random weights (every fifth vertex to one joint alone) and
// random unit normals, and a palette of random affine matrices with
// rotation, translation and non-uniform scale, every third one mirrored.
func randomSkin(seed int64, n, joints int) (MeshData, []float32) {
	rng := rand.New(rand.NewSource(seed))
	d := MeshData{Positions: make([]float32, n*3), Normals: make([]float32, n*3), Joints: make([]uint16, n*4), Weights: make([]float32, n*4)}
	for v := 0; v < n; v++ {
		for c := 0; c < 3; c++ {
			d.Positions[v*3+c] = rng.Float32()*4 - 2
		}
		nrm := mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5}.Normalize()
		copy(d.Normals[v*3:], nrm[:])
		var sum float32
		for k := 0; k < 4; k++ {
			d.Joints[v*4+k] = uint16(rng.Intn(joints))
			d.Weights[v*4+k] = rng.Float32()
			sum += d.Weights[v*4+k]
		}
		for k := 0; k < 4; k++ {
			d.Weights[v*4+k] /= sum
		}
		if v%5 == 0 { // every fifth vertex follows one joint alone
			d.Weights[v*4], d.Weights[v*4+1], d.Weights[v*4+2], d.Weights[v*4+3] = 1, 0, 0, 0
		}
		if v%7 == 1 { // and every seventh has no weight at all
			d.Weights[v*4], d.Weights[v*4+1], d.Weights[v*4+2], d.Weights[v*4+3] = 0, 0, 0, 0
		}
		if v%11 == 3 && v%5 != 0 && v%7 != 1 { // of the others, every
			// eleventh none in its first slot: the others' hemisphere is
			// not the first slot's joint's
			w := d.Weights[v*4]
			d.Weights[v*4] = 0
			d.Weights[v*4+1] += w
		}
	}
	d.Indices = make([]uint32, n/3*3)
	for i := range d.Indices {
		d.Indices[i] = uint32(i)
	}
	pal := make([]float32, joints*anim.PaletteFloats)
	for j := 0; j < joints; j++ {
		axis := mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5}.Normalize()
		tr := anim.Transform{
			Translation: mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1},
			Rotation:    mgl32.QuatRotate(rng.Float32()*6, axis),
			Scale:       mgl32.Vec3{0.5 + rng.Float32(), 0.5 + rng.Float32(), 0.5 + rng.Float32()},
		}
		if j%3 == 0 { // a mirrored joint: one negative scale
			tr.Scale[j%2] = -tr.Scale[j%2]
		}
		m := tr.Mat4()
		anim.WritePaletteEntry(pal[j*anim.PaletteFloats:], &m)
	}
	return d, pal
}

// TestGPUSkinningMatchesCPU records skin.vert's output by transform
// feedback and compares it with the CPU reference, relative to the
// bounding-box diagonal.
func TestGPUSkinningMatchesCPU(t *testing.T) {
	d, pal := randomSkin(7, 3000, 60)
	want := make([]float32, len(d.Positions))
	if err := skin.Positions(want, d.Positions, d.Joints, d.Weights, 4, pal); err != nil {
		t.Fatal(err)
	}
	got, _ := capture(t, d, pal, LinearBlend)
	checkWeightless(t, d, got)
	worst, at, diag := worstRelative(got, want)
	if worst > 1e-5 {
		t.Fatalf("GPU and CPU skinning differ by %.3g of the diagonal at vertex %d (GPU %v, CPU %v)", worst, at/3, got[at/3*3:at/3*3+3], want[at/3*3:at/3*3+3])
	}
	t.Logf("worst GPU/CPU difference: %.3g of the %.3f diagonal", worst, diag)
}

// TestGPUDualQuatMatchesCPU does the same for skin_dq.vert against the
// CPU dual-quaternion reference, both fed the same dual quaternions.
func TestGPUDualQuatMatchesCPU(t *testing.T) {
	d, pal := randomSkin(11, 2000, 40)
	dq := make([]float32, len(pal)/anim.PaletteFloats*skin.DualQuatFloats)
	skin.WriteDualQuats(dq, pal)
	want := make([]float32, len(d.Positions))
	wantN := make([]float32, len(d.Normals))
	if err := skin.SkinDQ(want, wantN, d.Positions, d.Normals, d.Joints, d.Weights, dq); err != nil {
		t.Fatal(err)
	}
	got, gotN := capture(t, d, dq, DualQuat)
	checkWeightless(t, d, got)
	worst, _, _ := worstRelative(got, want)
	if worst > 1e-5 {
		t.Fatalf("GPU and CPU dual-quaternion skinning differ by %.3g of the diagonal", worst)
	}
	if deg, v := worstAngle(gotN, wantN); deg > 0.01 {
		t.Fatalf("GPU and CPU dual-quaternion normals differ by %.3g° at vertex %d (GPU %v, CPU %v)", deg, v, gotN[v*3:v*3+3], wantN[v*3:v*3+3])
	}
}

// checkWeightless: a vertex without weight stays at its bind position,
// exactly, whatever the palette.
func checkWeightless(t *testing.T, d MeshData, got []float32) {
	t.Helper()
	n := 0
	for v := 1; v < len(d.Positions)/3; v += 7 {
		if !slices.Equal(got[v*3:v*3+3], d.Positions[v*3:v*3+3]) {
			t.Fatalf("weightless vertex %d drawn at %v; want its bind position %v", v, got[v*3:v*3+3], d.Positions[v*3:v*3+3])
		}
		n++
	}
	if n == 0 {
		t.Fatal("no weightless vertex")
	}
}

// TestGPUNormalsMatchCPU: skin.vert's normals against the CPU's, and, for
// vertices that follow one joint alone, against the textbook normal
// transform computed here with mathgl: n' = normalize((M₃⁻¹)ᵀ·n). It stays
// outward under a mirror (n'·M₃n = |n|² > 0), where the shader's cofactor
// det·(M₃⁻¹)ᵀ points inward: the shader's sign(det) must turn it back.
func TestGPUNormalsMatchCPU(t *testing.T) {
	d, pal := randomSkin(5, 3000, 60)
	wantN := make([]float32, len(d.Normals))
	if err := skin.Normals(wantN, d.Normals, d.Joints, d.Weights, pal); err != nil {
		t.Fatal(err)
	}
	_, gotN := capture(t, d, pal, LinearBlend)
	if deg, v := worstAngle(gotN, wantN); deg > 0.01 {
		t.Fatalf("GPU and CPU normals differ by %.3g° at vertex %d (GPU %v, CPU %v)", deg, v, gotN[v*3:v*3+3], wantN[v*3:v*3+3])
	}
	mirrored := 0
	for v := 0; v < len(d.Normals)/3; v += 5 {
		if v%7 == 1 {
			continue // weightless
		}
		e := pal[int(d.Joints[v*4])*anim.PaletteFloats:]
		m := mgl32.Mat3{e[0], e[4], e[8], e[1], e[5], e[9], e[2], e[6], e[10]} // rows → column-major
		n := mgl32.Vec3{d.Normals[v*3], d.Normals[v*3+1], d.Normals[v*3+2]}
		want := m.Inv().Transpose().Mul3x1(n).Normalize()
		if m.Det() < 0 {
			mirrored++
		}
		got := mgl32.Vec3{gotN[v*3], gotN[v*3+1], gotN[v*3+2]}.Normalize()
		if a := angleDeg(got, want); a > 0.01 {
			t.Fatalf("vertex %d (joint %d, det %.3f): GPU normal %v, want %v (%.3g° apart)", v, d.Joints[v*4], m.Det(), got, want, a)
		}
	}
	if mirrored == 0 {
		t.Fatal("no single-joint vertex on a mirrored joint: the test lost its point")
	}
}

// worstAngle is the largest angle in degrees between corresponding
// normals of a and b, each normalized, and the vertex where it is.
func worstAngle(a, b []float32) (deg float64, at int) {
	for v := 0; v < len(b)/3; v++ {
		x := mgl32.Vec3{a[v*3], a[v*3+1], a[v*3+2]}.Normalize()
		y := mgl32.Vec3{b[v*3], b[v*3+1], b[v*3+2]}.Normalize()
		if d := angleDeg(x, y); d > deg || math.IsNaN(d) {
			deg, at = d, v
			if math.IsNaN(d) {
				return math.Inf(1), v
			}
		}
	}
	return deg, at
}

func angleDeg(a, b mgl32.Vec3) float64 {
	c := float64(a.Dot(b))
	s := float64(a.Cross(b).Len())
	return math.Atan2(s, c) * 180 / math.Pi
}

// TestShaderErrorsNameTheFile: a shader that does not compile is reported
// with its file name and the driver's log, which names the culprit.
func TestShaderErrorsNameTheFile(t *testing.T) {
	var err error
	gltest.Do(t, func() error {
		if e := gl.Init(); e != nil {
			return e
		}
		var sh uint32
		sh, err = compileSource("broken.vert", "#version 410 core\nvoid main() { gl_Position = vec4(undeclaredThing); }\n", gl.VERTEX_SHADER)
		if err == nil {
			gl.DeleteShader(sh)
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "broken.vert") || !strings.Contains(err.Error(), "undeclaredThing") {
		t.Fatalf("got %v, want an error naming broken.vert with the driver's log about undeclaredThing", err)
	}
}

// capture uploads a mesh and records skin.vert's (or skin_dq.vert's)
// world-space output for it by transform feedback.
func capture(t *testing.T, d MeshData, palette []float32, method Skinning) (pos, nrm []float32) {
	t.Helper()
	withMesh(t, d, func(r *Renderer, id MeshID) (err error) {
		pos, nrm, err = r.captureSkinned(id, palette, method)
		return err
	})
	return pos, nrm
}

// withMesh runs f on the GL thread with a new renderer holding mesh d.
func withMesh(t *testing.T, d MeshData, f func(r *Renderer, id MeshID) error) {
	t.Helper()
	gltest.Do(t, func() error {
		r, err := New()
		if err != nil {
			return err
		}
		defer r.Destroy()
		id, err := r.AddMesh(d)
		if err != nil {
			return err
		}
		return f(r, id)
	})
}

// worstRelative is the largest coordinate difference between got and want
// over want's bounding-box diagonal, where it is, and the diagonal.
func worstRelative(got, want []float32) (worst float64, at int, diag float64) {
	lo, hi, _ := skin.Bounds(want)
	diag = math.Sqrt(float64((hi[0]-lo[0])*(hi[0]-lo[0]) + (hi[1]-lo[1])*(hi[1]-lo[1]) + (hi[2]-lo[2])*(hi[2]-lo[2])))
	for i := range want {
		if e := math.Abs(float64(got[i]-want[i])) / diag; e > worst {
			worst, at = e, i
		}
	}
	return worst, at, diag
}
