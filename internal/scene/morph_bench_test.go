package scene

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
)

// morphGrid is a model of one skinned 224×224 grid (50,176 vertices) on a
// two-joint chain whose second joint turns in its clip, with targets morph
// targets that displace every vertex a little (so that the picture, and
// the rasterizer's work, stays the same); the clip keys weights (1, 0.5, 0, …)
// so that two of them are non-zero at any time.
func morphGrid(targets int) *gltfload.Model {
	const side = 224
	p := gltfload.Primitive{Material: -1, Sets: 1}
	for y := range side {
		for x := range side {
			fx, fy := float32(x)/(side-1), float32(y)/(side-1)
			p.Positions = append(p.Positions, fx-0.5, fy*2, 0)
			p.Normals = append(p.Normals, 0, 0, 1)
			p.Joints = append(p.Joints, 0, 1, 0, 0)
			p.Weights = append(p.Weights, 1-fy, fy, 0, 0)
		}
	}
	for y := range side - 1 {
		for x := range side - 1 {
			a := uint32(y*side + x)
			p.Indices = append(p.Indices, a, a+1, a+side+1, a, a+side+1, a+side)
		}
	}
	p.AllJoints, p.AllWeights = p.Joints, p.Weights
	for t := range targets {
		mt := gltfload.MorphTarget{Positions: make([]float32, len(p.Positions))}
		for v := 2; v < len(mt.Positions); v += 3 {
			mt.Positions[v] = 0.001 * float32(math.Sin(float64(v*(t+1))*1e-3))
		}
		p.Targets = append(p.Targets, mt)
	}
	m := &gltfload.Model{Name: fmt.Sprintf("grid-%d-targets", targets)}
	m.Skeleton = anim.Skeleton{Names: []string{"root", "tip"}, Parents: []int{-1, 0},
		Rest: []anim.Transform{anim.IdentityTransform, {Translation: mgl32.Vec3{0, 1, 0}, Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}}}
	m.NodeOfJoint, m.JointOfNode, m.NodeNames = []int{0, 1, 2}, []int{0, 1, 2}, []string{"root", "tip", "grid"}
	m.Skeleton.Names = append(m.Skeleton.Names, "grid")
	m.Skeleton.Parents = append(m.Skeleton.Parents, -1)
	m.Skeleton.Rest = append(m.Skeleton.Rest, anim.IdentityTransform)
	m.Skins = []anim.Skin{{Joints: []int{0, 1}, InverseBind: []mgl32.Mat4{mgl32.Ident4(), mgl32.Translate3D(0, -1, 0)}}}
	m.SkinRoots = []int{0}
	m.Meshes = []gltfload.Mesh{{Name: "grid", Primitives: []gltfload.Primitive{p}, Targets: targets, TargetNames: make([]string, targets)}}
	m.Instances = []gltfload.Instance{{Node: 2, Mesh: 0, Skin: 0}}
	m.NodeMorph, m.NodeMesh = []int{-1, -1, -1}, []int{-1, -1, 0}
	clip := anim.Clip{Name: "bend", Duration: 1, Tracks: []anim.Track{{Joint: 1, Path: anim.Rotation, Interp: anim.Linear,
		Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, 0, 0, 0.38268343, 0.9238795}}}}
	if targets > 0 {
		m.NodeMorph[2] = 0
		for range targets {
			m.Skeleton.MorphRest = append(m.Skeleton.MorphRest, 0)
			m.Skeleton.MorphJoint = append(m.Skeleton.MorphJoint, 2)
		}
		keys := make([]float32, 2*targets)
		keys[0], keys[1], keys[targets], keys[targets+1] = 1, 0.5, 0.5, 1
		clip.Morph = []anim.MorphTrack{{Channel: 0, Count: targets, Interp: anim.Linear, Times: []float32{0, 1}, Values: keys}}
	}
	m.Clips = []anim.Clip{clip}
	return m
}

// BenchmarkMorphFrame is the viewer's frame (engine update, palettes and
// weights to the GPU, the draw, and glFinish so that the shading is part
// of it) of a 50k-vertex skinned mesh with 8 morph targets, 2 of them
// weighted, against the same mesh without targets, for GPU and CPU
// skinning. Under Mesa llvmpipe the GPU figures are the CPU rasterizer's.
func BenchmarkMorphFrame(b *testing.B) {
	for _, mode := range []string{SkinGPU, SkinCPU} {
		for _, targets := range []int{0, 8} {
			b.Run(fmt.Sprintf("%s/targets=%d", mode, targets), func(b *testing.B) {
				m := morphGrid(targets)
				c, err := character.New(m, nil, nil, 0, 0)
				if err != nil {
					b.Fatal(err)
				}
				c.Ctl.SetLoopMode(anim.Loop)
				onGL(b, func() error {
					v, err := NewView(c, ViewOptions{Skinning: mode}, 320, 240)
					if err != nil {
						return err
					}
					defer v.Destroy()
					frame := func() error {
						if err := v.Update(1.0 / 60); err != nil {
							return err
						}
						if err := v.Draw(); err != nil {
							return err
						}
						v.R.Finish()
						return nil
					}
					for range 5 { // warm-up: the driver compiles and caches on first use
						if err := frame(); err != nil {
							return err
						}
					}
					if targets > 0 {
						active := 0
						for _, w := range c.MorphWeights(2) {
							if w != 0 {
								active++
							}
						}
						if active != 2 {
							return fmt.Errorf("%d targets weighted, want 2", active)
						}
					}
					b.ResetTimer()
					for b.Loop() {
						if err := frame(); err != nil {
							return err
						}
					}
					b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
					return nil
				})
			})
		}
	}
}
