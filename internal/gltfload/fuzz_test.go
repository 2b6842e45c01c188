package gltfload

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skinview/skinview/internal/anim"
)

func characterGLB(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile("../../assets/character.glb")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// fuzzFS gives fuzzed documents something to find beside them.
var fuzzFS = fstest.MapFS{
	"a.bin":     {Data: make([]byte, 64)},
	"skin.png":  {Data: tinyPNG(2, 2)},
	"dir/b.bin": {Data: make([]byte, 8)},
}

// FuzzDecode feeds arbitrary bytes to the loader: it must not panic, a
// refusal is one line naming the file, and a model it returns keeps every
// invariant the viewer relies on.
func FuzzDecode(f *testing.F) {
	d := skinnedDoc(f)
	f.Add(d.bytes(f))
	f.Add(glbOf(f, d))
	f.Add(characterGLB(f))
	f.Add(dracoGridDoc(f, makeGrid(3)))
	f.Add(makeMeshoptDoc().json(f))
	// The project's other generated assets, where small enough to mutate.
	edge, _ := filepath.Glob("../../assets/edge/*.gltf")
	for _, p := range append(edge, "../../assets/twist.glb") {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= 64<<10 {
			f.Add(data)
		}
	}
	for _, tc := range invalidCases {
		// Big seeds (65537 nodes, deep nesting) slow every mutation of
		// them; their rules are covered by the table test.
		if data := tc.data(f); len(data) <= 16<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decode(data, fuzzFS, "f.gltf")
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "gltfload: f.gltf: ") || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("refusal is not one line starting with the package and file: %q", msg)
			}
			return
		}
		checkModel(t, m)
	})
}

// checkModel checks what the viewer assumes of a loaded model.
func checkModel(t *testing.T, m *Model) {
	t.Helper()
	sk := &m.Skeleton
	if err := sk.Validate(); err != nil {
		t.Fatal(err)
	}
	n := sk.NumJoints()
	if len(m.NodeOfJoint) != n || len(m.JointOfNode) != n || len(m.NodeNames) != n {
		t.Fatalf("%d joints, %d NodeOfJoint, %d JointOfNode, %d names", n, len(m.NodeOfJoint), len(m.JointOfNode), len(m.NodeNames))
	}
	for j, tr := range sk.Rest {
		if !finiteFloats(tr.Translation[:]...) || !finiteFloats(tr.Scale[:]...) || !finiteFloats(tr.Rotation.W, tr.Rotation.V[0], tr.Rotation.V[1], tr.Rotation.V[2]) {
			t.Fatalf("joint %d rest transform %v is not finite", j, tr)
		}
	}
	for i := range m.Skins {
		if err := m.Skins[i].Validate(sk); err != nil {
			t.Fatal(err)
		}
		for _, ib := range m.Skins[i].InverseBind {
			if !finiteFloats(ib[:]...) {
				t.Fatalf("skin %d inverse bind %v is not finite", i, ib)
			}
		}
	}
	if len(m.SkinRoots) != len(m.Skins) {
		t.Fatalf("%d skin roots for %d skins", len(m.SkinRoots), len(m.Skins))
	}
	for ci := range m.Clips {
		c := &m.Clips[ci]
		if err := c.Validate(n); err != nil {
			t.Fatal(err)
		}
		rc, err := anim.NewRuntimeClip(c, sk)
		if err != nil {
			t.Fatal(err)
		}
		out := anim.NewSoAPose(n)
		job := rc.NewSampleJob(false, out)
		if err := job.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, at := range []float32{-1, 0, c.Duration / 3, c.Duration, float32(math.Inf(1)), float32(math.NaN())} {
			job.Time = at
			job.Run()
		}
	}
	for mi := range m.Meshes {
		for pi := range m.Meshes[mi].Primitives {
			checkPrimitive(t, m, &m.Meshes[mi].Primitives[pi])
		}
	}
	for _, inst := range m.Instances {
		if inst.Mesh < 0 || inst.Mesh >= len(m.Meshes) || inst.Skin < -1 || inst.Skin >= len(m.Skins) || inst.Node < 0 || inst.Node >= n {
			t.Fatalf("instance %+v out of range", inst)
		}
		if inst.Skin < 0 {
			continue
		}
		for _, p := range m.Meshes[inst.Mesh].Primitives {
			for k, j := range p.Joints {
				if p.Weights[k] != 0 && int(j) >= len(m.Skins[inst.Skin].Joints) {
					t.Fatalf("instance %+v uses joint %d of a %d-joint skin", inst, j, len(m.Skins[inst.Skin].Joints))
				}
			}
		}
	}
	for _, mat := range m.Materials {
		for _, r := range []TextureRef{mat.BaseColorTexture, mat.MetallicRoughnessTexture, mat.NormalTexture, mat.OcclusionTexture, mat.EmissiveTexture} {
			if r.Texture >= len(m.Textures) || r.Texture >= len(m.Samplers) {
				t.Fatalf("material %+v: texture out of range", mat)
			}
		}
		if !finiteFloats(mat.BaseColor[:]...) || !finiteFloats(mat.Emissive[:]...) || !finiteFloats(mat.Metallic, mat.Roughness, mat.AlphaCutoff) {
			t.Fatalf("material %+v: a factor not finite", mat)
		}
	}
	if len(m.Report.Issues) > maxIssues {
		t.Fatalf("%d issues", len(m.Report.Issues))
	}
	for _, i := range m.Report.Issues {
		if strings.ContainsAny(i.Message, "\n\r") || severities[i.Code] != i.Severity {
			t.Fatalf("issue %q is not one line or has the wrong severity", i)
		}
	}
}

func checkPrimitive(t *testing.T, m *Model, p *Primitive) {
	t.Helper()
	n := p.NumVertices()
	if len(p.Positions) != 3*n || (p.Normals != nil && len(p.Normals) != 3*n) || (p.UV0 != nil && len(p.UV0) != 2*n) ||
		(p.Colors != nil && len(p.Colors) != 4*n) || (p.Joints != nil && (len(p.Joints) != 4*n || len(p.Weights) != 4*n)) ||
		(p.AllJoints != nil && (len(p.AllJoints) != 4*n*p.Sets || len(p.AllWeights) != 4*n*p.Sets)) {
		t.Fatalf("primitive arrays disagree on %d vertices", n)
	}
	if len(p.Indices)%3 != 0 {
		t.Fatalf("%d indices are not whole triangles", len(p.Indices))
	}
	for _, i := range p.Indices {
		if int(i) >= n {
			t.Fatalf("index %d of %d vertices", i, n)
		}
	}
	if p.Material < -1 || p.Material >= len(m.Materials) {
		t.Fatalf("material %d of %d", p.Material, len(m.Materials))
	}
	for _, s := range [][]float32{p.Positions, p.Normals, p.UV0, p.Colors, p.Weights, p.AllWeights} {
		if !finiteFloats(s...) {
			t.Fatal("a vertex array holds a value that is not finite")
		}
	}
	for v := 0; p.Weights != nil && v < n; v++ {
		w := p.Weights[v*4 : v*4+4]
		// 1, or 0 for a vertex without weight (kept at its bind position).
		if s := w[0] + w[1] + w[2] + w[3]; math.Abs(float64(s)-1) > 1e-3 && s != 0 {
			t.Fatalf("vertex %d weights %v sum to %v", v, w, s)
		}
	}
	if len(p.Indices) <= 3<<10 {
		p.WithFlatNormals()
	}
}

func finiteFloats(v ...float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
