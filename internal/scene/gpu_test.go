package scene

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
	"github.com/skinview/skinview/internal/skin"
)

// TestPartitionedSkinningMatchesUnsplit splits the character into draw
// calls of at most 12 joints. Each partition, skinned with the palette it
// gathered and its remapped joints, must put every vertex where skinning
// the unsplit primitive with the whole skin does (to 1e-5 of the
// diagonal); and the picture drawn by skin.vert from the partitions must
// be the picture of the CPU-skinned unsplit mesh. (render's own tests
// check skin.vert against the CPU to 1e-5 per vertex.)
func TestPartitionedSkinningMatchesUnsplit(t *testing.T) {
	m := assettest.Character(t)
	p := &m.Meshes[0].Primitives[0]
	const at = 0.37
	draw := func(skinning string, limit int, check func(v *View) error) *image.NRGBA {
		c, err := character.New(m, nil, nil, -1, 0)
		if err != nil {
			t.Fatal(err)
		}
		var img *image.NRGBA
		onGL(t, func() error {
			v, err := NewView(c, ViewOptions{Skinning: skinning, PaletteLimit: limit}, 400, 400)
			if err != nil {
				return err
			}
			defer v.Destroy()
			if err := v.PoseAt(at); err != nil {
				return err
			}
			if err := v.Draw(); err != nil {
				return err
			}
			img = v.Target.ReadImage()
			if check != nil {
				return check(v)
			}
			return nil
		})
		return img
	}
	parts, worst := 0, 0.0
	covered := map[uint32]bool{}
	gpu := draw(SkinGPU, 12, func(v *View) error {
		want := make([]float32, len(p.Positions))
		if err := skin.Positions(want, p.Positions, p.Joints, p.Weights, 4, v.c.Palettes[m.Instances[0].Skin]); err != nil {
			return err
		}
		lo, hi, _ := skin.Bounds(want)
		diag := math.Sqrt(float64((hi[0]-lo[0])*(hi[0]-lo[0]) + (hi[1]-lo[1])*(hi[1]-lo[1]) + (hi[2]-lo[2])*(hi[2]-lo[2])))
		for _, d := range v.Scene.draws {
			if d.joints == nil {
				continue
			}
			parts++
			got := make([]float32, len(d.prim.Positions))
			if err := skin.Positions(got, d.prim.Positions, d.prim.Joints, d.prim.Weights, 4, d.palette); err != nil {
				return err
			}
			for i, src := range d.source {
				covered[src] = true
				for k := range 3 {
					worst = max(worst, math.Abs(float64(got[i*3+k]-want[int(src)*3+k]))/diag)
				}
			}
		}
		return nil
	})
	cpu := draw(SkinCPU, 0, nil)
	if parts < 2 {
		t.Fatalf("palette limit 12 gave %d partitions; the default character needs several", parts)
	}
	if len(covered) != p.NumVertices() {
		t.Errorf("partitions cover %d of %d vertices", len(covered), p.NumVertices())
	}
	if worst > 1e-5 {
		t.Errorf("partitioned skinning differs from the unsplit by %.3g of the diagonal", worst)
	}
	// The pictures agree to a level or two a pixel, but for a few pixels on
	// the silhouette: the shader and Go round the same skinning sum in a
	// different order, and with the palette's last bits as one kernel level
	// or another computes them (AVX-512 here), a vertex a few ulps apart
	// moves an edge across a pixel centre. A partition drawn with another's
	// palette moves hundreds of pixels; the vertex check above is exact.
	differ, drawn := 0, 0
	for i := 0; i < len(gpu.Pix); i += 4 {
		d := 0
		for k := range 3 {
			d = max(d, absInt(int(gpu.Pix[i+k])-int(cpu.Pix[i+k])))
		}
		if d > 2 {
			differ++
		}
		if gpu.Pix[i] != Background.R || gpu.Pix[i+1] != Background.G || gpu.Pix[i+2] != Background.B {
			drawn++
		}
	}
	if drawn < 8000 || differ > 4 {
		t.Errorf("%d of %d drawn pixels differ between the split GPU skinning and the CPU skinning", differ, drawn)
	}
	t.Logf("%d partitions, worst vertex %.3g of the diagonal, %d of %d drawn pixels differ", parts, worst, differ, drawn)
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestPaletteLimitClamped: a palette limit above what the renderer's
// uniform block holds draws at the renderer's capacity, as none does; one
// within it is kept.
func TestPaletteLimitClamped(t *testing.T) {
	m := assettest.Character(t)
	for _, asked := range []int{0, 12, 1 << 20} {
		c, err := character.New(m, nil, nil, -1, 0)
		if err != nil {
			t.Fatal(err)
		}
		onGL(t, func() error {
			v, err := NewView(c, ViewOptions{Skinning: SkinGPU, PaletteLimit: asked}, 64, 64)
			if err != nil {
				return err
			}
			defer v.Destroy()
			want := v.R.MaxJoints()
			if asked == 12 {
				want = 12
			}
			if got := v.Scene.Limit(); got != want {
				t.Errorf("-palette-limit %d: draw calls of %d joints, want %d", asked, got, want)
			}
			return nil
		})
	}
}

// TestMaterialTextures: the base colour and emissive textures are read as
// colour (sRGB), the metallic-roughness, normal and occlusion ones as
// data, texture 0 as much as any; each map keeps its texture coordinate
// set; the emitted colour is the factor times the strength.
func TestMaterialTextures(t *testing.T) {
	tex := gpuTextures{colour: []render.TextureID{10, 11}, data: []render.TextureID{20, 21}}
	mat := gltfload.DefaultMaterial
	mat.Emissive, mat.EmissiveStrength = [3]float32{0.5, 0.25, 1}, 2
	mat.BaseColorTexture = gltfload.TextureRef{Texture: 0, TexCoord: 1, Scale: [2]float32{1, 1}}
	mat.MetallicRoughnessTexture = gltfload.TextureRef{Texture: 0, Scale: [2]float32{1, 1}}
	mat.NormalTexture = gltfload.TextureRef{Texture: 1, TexCoord: 1, Scale: [2]float32{1, 1}}
	mat.EmissiveTexture = gltfload.TextureRef{Texture: 1, Scale: [2]float32{1, 1}}
	rm := tex.material(&mat)
	if rm.Emissive != [3]float32{1, 0.5, 2} {
		t.Errorf("emissive %v × 2 gave %v, want [1 0.5 2]", mat.Emissive, rm.Emissive)
	}
	if rm.Texture != 10 || rm.Set != 1 {
		t.Errorf("base colour texture %d, set %d; want colour texture 0 (10), set 1", rm.Texture, rm.Set)
	}
	// Map.Tex is the texture ID + 1; the zero Map is none.
	want := [4]struct {
		tex render.TextureID
		set int
	}{
		render.MetallicRoughnessMap: {21, 0},
		render.NormalMap:            {22, 1},
		render.OcclusionMap:         {0, 0},
		render.EmissiveMap:          {12, 0},
	}
	for k, w := range want {
		if got := rm.Maps[k]; got.Tex != w.tex || got.Set != w.set {
			t.Errorf("map %d: texture %d set %d, want %d set %d", k, got.Tex, got.Set, w.tex, w.set)
		}
	}
}

// TestPartitionPrimitiveCopiesAttributes: four vertices, each on its own
// joint, in triangles (0 1 2) and (1 3 2), split at 3 joints a draw. Every
// attribute of every vertex a partition draws is its source vertex's:
// attribute a, component k of vertex v holds 100v + 10a + k, and the
// position's x (a = 0, k = 0) names the vertex. Morph target 1 has no
// normals.
func TestPartitionPrimitiveCopiesAttributes(t *testing.T) {
	attr := func(a, size int) []float32 {
		s := make([]float32, 4*size)
		for v := range 4 {
			for k := range size {
				s[v*size+k] = float32(100*v + 10*a + k)
			}
		}
		return s
	}
	p := &gltfload.Primitive{
		Positions: attr(0, 3), Normals: attr(1, 3), UV0: attr(2, 2), UV1: attr(3, 2),
		Tangents: attr(4, 4), Colors: attr(5, 4), Material: 7,
		Targets: []gltfload.MorphTarget{{Positions: attr(6, 3), Normals: attr(7, 3)}, {Positions: attr(8, 3)}},
		Indices: []uint32{0, 1, 2, 1, 3, 2},
		Joints:  []uint16{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0},
		Weights: []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
	}
	plan, err := skin.PlanPartitions(p.Indices, p.Joints, p.Weights, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Partitions) != 2 {
		t.Fatalf("%d partitions, want 2", len(plan.Partitions))
	}
	for pi := range plan.Partitions {
		q := partitionPrimitive(p, plan, &plan.Partitions[pi])
		if q.Material != 7 {
			t.Errorf("partition %d: material %d, want 7", pi, q.Material)
		}
		n := q.NumVertices()
		got := []struct {
			name    string
			a, size int
			s       []float32
		}{
			{"normals", 1, 3, q.Normals}, {"UV0", 2, 2, q.UV0}, {"UV1", 3, 2, q.UV1},
			{"tangents", 4, 4, q.Tangents}, {"colours", 5, 4, q.Colors},
			{"target 0 positions", 6, 3, q.Targets[0].Positions}, {"target 0 normals", 7, 3, q.Targets[0].Normals},
			{"target 1 positions", 8, 3, q.Targets[1].Positions},
		}
		if q.Targets[1].Normals != nil {
			t.Errorf("partition %d: target 1 has normals %v; the source has none", pi, q.Targets[1].Normals)
		}
		for o := range n {
			v := int(q.Positions[o*3]) / 100
			for _, g := range got {
				if len(g.s) != n*g.size {
					t.Fatalf("partition %d: %d %s for %d vertices", pi, len(g.s), g.name, n)
				}
				for k := range g.size {
					if w := float32(100*v + 10*g.a + k); g.s[o*g.size+k] != w {
						t.Errorf("partition %d vertex %d (source %d): %s[%d] = %g, want %g", pi, o, v, g.name, k, g.s[o*g.size+k], w)
					}
				}
			}
		}
	}
}

// TestUploadDrawList: how upload lays out the built-in character's
// draws. A skin that fits the palette limit exactly is drawn whole, one
// draw a primitive; at 12 joints it is split. Parts counts every
// GPU-skinned draw; each draw frames with its primitive's bounds (one
// entry of frames a primitive, in order); -skinning dq keeps 8 floats a
// palette entry; only -skinning cpu morphs in Go, and only primitives
// with morph targets (the character has none; morphGrid's one has), whose
// items then draw without morph weights.
func TestUploadDrawList(t *testing.T) {
	m := assettest.Character(t)
	skinJoints := len(m.Skins[0].Joints)
	grid := morphGrid(2)
	for _, tc := range []struct {
		model  *gltfload.Model
		mode   string
		limit  int
		split  bool
		morphs bool
	}{
		{m, SkinGPU, skinJoints, false, false},
		{m, SkinGPU, 12, true, false},
		{m, SkinDQ, 12, true, false},
		{m, SkinCPU, 0, false, false},
		{grid, SkinGPU, 0, false, false},
		{grid, SkinCPU, 0, false, true},
	} {
		c, err := character.New(tc.model, nil, nil, -1, 0)
		if err != nil {
			t.Fatal(err)
		}
		onGL(t, func() error {
			v, err := NewView(c, ViewOptions{Skinning: tc.mode, PaletteLimit: tc.limit}, 64, 64)
			if err != nil {
				return err
			}
			defer v.Destroy()
			s := v.Scene
			what := fmt.Sprintf("%s, -skinning %s, limit %d", tc.model.Name, tc.mode, tc.limit)
			gpu, prims, last := 0, 0, [2]int{-1, -1}
			for i, d := range s.draws {
				if key := [2]int{d.instance, d.primitive}; key != last {
					prims, last = prims+1, key
				}
				if d.frame != prims-1 {
					t.Errorf("%s: draw %d frames with bounds %d, want %d (its primitive's)", what, i, d.frame, prims-1)
				}
				if d.gpu {
					gpu++
					if (d.joints != nil) != tc.split {
						t.Errorf("%s: draw %d partitioned %v, want %v", what, i, d.joints != nil, tc.split)
					}
				}
				if tc.mode == SkinDQ {
					entries := len(d.joints)
					if d.joints == nil {
						entries = skinJoints
					}
					if len(d.dq) != entries*skin.DualQuatFloats {
						t.Errorf("%s: draw %d has %d dual-quaternion floats for %d joints", what, i, len(d.dq), entries)
					}
				}
				if d.morphCPU != tc.morphs {
					t.Errorf("%s: draw %d morphed in Go %v, want %v", what, i, d.morphCPU, tc.morphs)
				}
				if hasMorph := s.items[i].Morph != nil; hasMorph != (tc.model == grid && !tc.morphs) {
					t.Errorf("%s: draw %d reads morph weights %v, want %v", what, i, hasMorph, !hasMorph)
				}
			}
			if s.Parts != gpu || gpu == 0 && tc.mode != SkinCPU {
				t.Errorf("%s: Parts %d, %d GPU-skinned draws", what, s.Parts, gpu)
			}
			return nil
		})
	}
}

// TestUploadTextures: a texture is uploaded once as colour where a
// material reads it as base colour or emission, once as data where one
// reads it as metallic-roughness, normals or occlusion, texture 0 as much
// as any, and not at all where its image could not be read.
func TestUploadTextures(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	ref := func(i int) gltfload.TextureRef { return gltfload.TextureRef{Texture: i, Scale: [2]float32{1, 1}} }
	a, b := gltfload.DefaultMaterial, gltfload.DefaultMaterial
	a.BaseColorTexture, a.NormalTexture = ref(0), ref(0)
	b.EmissiveTexture, b.OcclusionTexture = ref(1), ref(2)
	linear := gltfload.Sampler{MagFilter: 9729, MinFilter: 9729, WrapS: 10497, WrapT: 10497}
	m := &gltfload.Model{Textures: []*image.NRGBA{img, nil, img}, Samplers: []gltfload.Sampler{linear, linear, linear}, Materials: []gltfload.Material{a, b}}
	_, c := rigidTwoJoint(t)
	onGL(t, func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU}, 16, 16)
		if err != nil {
			return err
		}
		defer v.Destroy()
		tex := uploadTextures(v.R, m)
		for i, w := range [3][2]bool{{true, true}, {false, false}, {false, true}} {
			if got := [2]bool{tex.colour[i] != render.NoTexture, tex.data[i] != render.NoTexture}; got != w {
				t.Errorf("texture %d uploaded as colour, as data: %v; want %v", i, got, w)
			}
		}
		return nil
	})
}

// TestAddMarksAnimatedMaterials: a draw whose primitive's material a clip
// animates (a material channel names it) is refreshed with the clip's
// factors; the others are not.
func TestAddMarksAnimatedMaterials(t *testing.T) {
	m, c := rigidTwoJoint(t)
	onGL(t, func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU}, 16, 16)
		if err != nil {
			return err
		}
		defer v.Destroy()
		s := &GPU{mode: SkinGPU, matChannels: []gltfload.MaterialChannel{{Material: 1}}}
		for mat := range 3 {
			p := m.Meshes[0].Primitives[0].WithFlatNormals()
			p.Material = mat
			if err := s.add(v.R, nil, drawSource{prim: &p, palette: identityEntry()}, render.Material{Texture: render.NoTexture}); err != nil {
				return err
			}
			if got := s.draws[mat].animated; got != (mat == 1) {
				t.Errorf("draw of material %d animated %v; only material 1 is", mat, got)
			}
		}
		return nil
	})
}

// TestBlendedDrawCentre: a blended draw is sorted by the centre of its
// posed box, which Refresh keeps: the two-joint bar at rest runs from
// (0, 1, 0) to (0, 3, 0), so its centre is (0, 2, 0).
func TestBlendedDrawCentre(t *testing.T) {
	_, c := twoJoint(t, "blend.gltf", -1, [2]string{`"WEIGHTS_0": 2}}]}],`, `"WEIGHTS_0": 2}, "material": 0}]}], "materials": [{"alphaMode": "BLEND"}],`})
	withView(t, c, func(v *View) error {
		if err := v.PoseAt(0); err != nil {
			return err
		}
		items := v.Scene.items
		if len(items) != 1 || items[0].Material.Alpha != render.Blend {
			t.Errorf("%d draws; want the bar's one, blended", len(items))
			return nil
		}
		if got := items[0].Center; math.Abs(float64(got[0])) > 1e-5 || math.Abs(float64(got[1]-2)) > 1e-5 || math.Abs(float64(got[2])) > 1e-5 {
			t.Errorf("the blended bar's centre is %v; want (0, 2, 0)", got)
		}
		return nil
	})
}

// TestBoundsRefuseTornInfluences: a skinned primitive whose joint list is
// not a whole number of influences per vertex (5 for 3 vertices), or
// whose weights do not pair with its joints, has no bounds: an error
// naming the counts.
func TestBoundsRefuseTornInfluences(t *testing.T) {
	_, c := twoJoint(t, "torn.gltf", -1)
	withView(t, c, func(v *View) error {
		for _, tc := range []struct{ joints, weights int }{{5, 5}, {6, 3}} {
			p := &gltfload.Primitive{Positions: make([]float32, 9), Joints: make([]uint16, tc.joints), Weights: make([]float32, tc.weights)}
			want := fmt.Sprintf("scene: 3 vertices with %d joints and %d weights are not a whole number of influences per vertex", tc.joints, tc.weights)
			if err := v.Scene.addBounds(c, 0, p, nil); err == nil || err.Error() != want {
				t.Errorf("joints %d, weights %d: error %v; want %q", tc.joints, tc.weights, err, want)
			}
		}
		// A joint past the skin's two.
		p := &gltfload.Primitive{Positions: make([]float32, 3), Indices: []uint32{0, 0, 0}, Joints: []uint16{2, 0, 0, 0}, Weights: []float32{1, 0, 0, 0}}
		const want = "scene: vertex 0 uses joint 2; the skin has 2"
		if err := v.Scene.addBounds(c, 0, p, nil); err == nil || err.Error() != want {
			t.Errorf("joint 2 of 2: error %v; want %q", err, want)
		}
		return nil
	})
}

// TestSkinnedBoundsFollowThePose: at 1 s the two-joint bar's tip has
// turned 90° about +Z at (0, 2, 0). The root's vertices, (0, 1, 0) and
// (0, 3, 0) (half its), stay; the tip's, (0, 2, 0) and (0, 3, 0), turn
// to (0, 2, 0) and (−1, 2, 0). The box over both joints' boxes runs from
// (−1, 1, 0) to (0, 3, 0).
func TestSkinnedBoundsFollowThePose(t *testing.T) {
	_, c := twoJoint(t, "pose.gltf", 0)
	withView(t, c, func(v *View) error {
		if err := v.PoseAt(1); err != nil {
			return err
		}
		lo, hi, ok := v.Scene.Bounds(c)
		want := [2][3]float32{{-1, 1, 0}, {0, 3, 0}}
		for k := range 3 {
			if !ok || math.Abs(float64(lo[k]-want[0][k])) > 1e-5 || math.Abs(float64(hi[k]-want[1][k])) > 1e-5 {
				t.Errorf("bounds at 1 s %v..%v (%v); want %v..%v", lo, hi, ok, want[0], want[1])
				break
			}
		}
		return nil
	})
}
