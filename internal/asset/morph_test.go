package asset_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/gltfload"
)

// morphModel is a model of three joints and two meshes with morph
// targets, without a file: node 1 draws mesh 0 rigidly under a root
// scaled 2 and itself scaled (1, 3, 1), its targets on channels 0 and 1;
// node 2 draws mesh 1 skinned, its target on channel 1 too; channel 2
// animates a material.
func morphModel() *gltfload.Model {
	rest := func(sx, sy, sz float32) anim.Transform {
		tr := anim.IdentityTransform
		tr.Scale = mgl32.Vec3{sx, sy, sz}
		return tr
	}
	return &gltfload.Model{
		Skeleton: anim.Skeleton{
			Names:      []string{"root", "head", "body"},
			Parents:    []int{-1, 0, 0},
			Rest:       []anim.Transform{rest(2, 2, 2), rest(1, 3, 1), rest(5, 5, 5)},
			MorphRest:  []float32{0, 0, 1},
			MorphJoint: []int{1, 1, 0},
		},
		JointOfNode: []int{0, 1, 2},
		NodeMesh:    []int{-1, 0, 1},
		NodeMorph:   []int{-1, 0, 1},
		Meshes: []gltfload.Mesh{
			{Name: "face", Targets: 2, Primitives: []gltfload.Primitive{
				{Targets: []gltfload.MorphTarget{{Positions: []float32{3, 4, 0, 0, 0, 1}}, {Positions: []float32{0, 0, 0, 0, 0, 0}}}},
				{Targets: []gltfload.MorphTarget{{Positions: []float32{0, 0, 2}}, {Positions: []float32{1, 2, 2}}}},
			}},
			{Name: "body", Targets: 1, Primitives: []gltfload.Primitive{
				{Targets: []gltfload.MorphTarget{{Positions: []float32{0, 40, 0, 0, 1, 0}}}},
			}},
		},
		Instances: []gltfload.Instance{{Node: 1, Mesh: 0, Skin: -1}, {Node: 2, Mesh: 1, Skin: 0}},
	}
}

// A channel's displacement is its target's longest over the primitives of
// each mesh it weights, scaled by a rigid node's rest scales, the largest
// over the nodes sharing it. Node 1 draws mesh 0 rigidly (morphModel):
// 6 times mesh 0's targets, whose
// longest displacements are |(3, 4, 0)| = 5 (primitive 0) and |(1, 2, 2)|
// = 3 (primitive 1): 30 and 18 for channels 0 and 1. Node 2 draws mesh 1
// skinned (scale 1) on channel 1 too: |(0, 40, 0)| = 40, larger than 18.
// Channel 2 animates a material: −1.
func TestMorphDisplacements(t *testing.T) {
	m := morphModel()
	got := asset.MorphDisplacements(m)
	want := []float64{30, 40, -1}
	if len(got) != len(want) {
		t.Fatalf("displacements %v; want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("channel %d: displacement %v; want %v", k, got[k], want[k])
		}
	}
}

// A node the mesh tables do not reach (NodeMesh shorter than NodeMorph,
// or naming a mesh past the last) adds nothing: node 2's 40 is gone, and
// channel 1 keeps node 1's 18.
func TestMorphDisplacementsSkipNodesWithoutAMesh(t *testing.T) {
	for _, nodeMesh := range [][]int{{-1, 0}, {-1, 0, 2}} {
		m := morphModel()
		m.NodeMesh = nodeMesh
		got := asset.MorphDisplacements(m)
		if want := []float64{30, 18, -1}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("NodeMesh %v: displacements %v; want %v", nodeMesh, got, want)
		}
	}
}

// A rigid node the joint table does not reach is taken at scale 1: node
// 1's targets give 5 and 3, and channel 1 keeps node 2's 40.
func TestMorphDisplacementsNodeWithoutAJoint(t *testing.T) {
	m := morphModel()
	m.JointOfNode = []int{0}
	got := asset.MorphDisplacements(m)
	if want := []float64{5, 40, -1}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("displacements %v; want %v", got, want)
	}
}

// Tables that disagree are read as far as they agree, without a panic: a
// node's joint past the skeleton is taken at scale 1 (5 and 3); a mesh's
// targets past the last channel are left out (node 1's on channels 2 and
// 3: 30 on 2, nothing on 3); a primitive holding fewer targets than its
// mesh adds nothing for the others (primitive 1's second target gone:
// channel 1 is node 2's 40 either way, channel 0 still 30).
func TestMorphDisplacementsTablesThatDisagree(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(m *gltfload.Model)
		want []float64
	}{
		{"joint past the skeleton", func(m *gltfload.Model) { m.JointOfNode = []int{0, 3, 2} }, []float64{5, 40, -1}},
		{"targets past the channels", func(m *gltfload.Model) { m.NodeMorph = []int{-1, 2, 1} }, []float64{-1, 40, 30}},
		{"a primitive short of targets", func(m *gltfload.Model) {
			p := &m.Meshes[0].Primitives[1]
			p.Targets = p.Targets[:1]
		}, []float64{30, 40, -1}},
	} {
		m := morphModel()
		c.edit(m)
		got := asset.MorphDisplacements(m)
		if len(got) != len(c.want) || got[0] != c.want[0] || got[1] != c.want[1] || got[2] != c.want[2] {
			t.Errorf("%s: displacements %v; want %v", c.name, got, c.want)
		}
	}
}

// CompressClips packs the weights of morph targets within the tolerance
// and keeps the material's as they are.
func TestCompressClipsPacksMorphWeights(t *testing.T) {
	m := morphModel()
	c := anim.Clip{Name: "Smile", Duration: 2}
	c.Tracks = []anim.Track{{Joint: 1, Path: anim.Translation, Interp: anim.Linear, Times: []float32{0, 2}, Values: []float32{0, 0, 0, 0.1, 0, 0}}}
	face := anim.MorphTrack{Channel: 0, Count: 2, Interp: anim.Linear}
	tint := anim.MorphTrack{Channel: 2, Count: 1, Interp: anim.Linear}
	for k := 0; k <= 60; k++ {
		tm := float64(k) / 30
		face.Times = append(face.Times, float32(tm))
		face.Values = append(face.Values, float32(0.5+0.5*math.Sin(2*tm)), float32(0.5-0.5*math.Cos(3*tm)))
		tint.Times = append(tint.Times, float32(tm))
		tint.Values = append(tint.Values, float32(float64(k)/30*float64(k)/30/4))
	}
	c.Morph = []anim.MorphTrack{face, tint}
	m.Clips = []anim.Clip{c}
	const tol = 1e-4
	runtime, reports, err := asset.CompressClips(m, tol, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := reports[0]
	// Raw: 61 keys of 2 weights and of 1, floats and a descriptor each.
	raw := 4*61*3 + 4 + 4*61*2 + 4
	if r.Kept || r.MorphRawBytes != raw || r.MorphBytes >= raw || !(r.MorphMaxError > 0 && r.MorphMaxError <= tol) {
		t.Errorf("weights %d → %d bytes, error %g, kept %v; want %d → fewer, within %g", r.MorphRawBytes, r.MorphBytes, r.MorphMaxError, r.Kept, raw, tol)
	}
	job := runtime[0].NewSampleJob(false, anim.NewPose(&m.Skeleton))
	for k := 0; k <= 200; k++ {
		job.Time = float32(k) / 100
		job.Run()
		// Linear between the keys, (k/30)²/4 at key k.
		key := func(k float64) float64 { return float64(float32(k / 30 * k / 30 / 4)) }
		x := float64(job.Time) * 30
		k0 := min(math.Floor(x), 59)
		want := key(k0) + (key(k0+1)-key(k0))*(x-k0)
		if d := float64(job.Output.W[2]) - want; d > 1e-6 || d < -1e-6 {
			t.Errorf("t=%v: material channel %v; want %v", job.Time, job.Output.W[2], want)
		}
	}
}
