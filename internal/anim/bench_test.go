package anim

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// benchRig is a chain-and-branches skeleton of n joints with a looping
// clip animating every joint's rotation and translation over 31 keys.
func benchRig(n int) (*Skeleton, *Clip, *Skin) {
	sk := &Skeleton{Names: make([]string, n), Parents: make([]int, n), Rest: make([]Transform, n)}
	clip := &Clip{Name: "bench", Duration: 1}
	skin := &Skin{Joints: make([]int, n), InverseBind: make([]mgl32.Mat4, n)}
	for j := 0; j < n; j++ {
		if j == 0 {
			sk.Parents[j] = -1
		} else {
			sk.Parents[j] = (j - 1) / 2
		}
		sk.Rest[j] = IdentityTransform
		sk.Rest[j].Translation = mgl32.Vec3{0, 0.1, 0}
		skin.Joints[j] = j
		skin.InverseBind[j] = mgl32.Translate3D(0, -0.1*float32(j), 0)
		times := make([]float32, 31)
		rot := make([]float32, 31*4)
		tr := make([]float32, 31*3)
		for k := range times {
			times[k] = float32(k) / 30
			a := 0.5 * math.Sin(2*math.Pi*float64(k)/30+float64(j))
			q := mgl32.QuatRotate(float32(a), mgl32.Vec3{0, 0, 1})
			rot[k*4], rot[k*4+1], rot[k*4+2], rot[k*4+3] = q.V[0], q.V[1], q.V[2], q.W
			tr[k*3+1] = 0.1 + 0.01*float32(a)
		}
		clip.Tracks = append(clip.Tracks,
			Track{Joint: j, Path: Rotation, Interp: Linear, Times: times, Values: rot},
			Track{Joint: j, Path: Translation, Interp: Linear, Times: times, Values: tr})
	}
	return sk, clip, skin
}

// BenchmarkSampleToPalette measures one character's frame on the CPU:
// sample → local-to-model → palette, reported per joint.
func BenchmarkSampleToPalette(b *testing.B) {
	const joints = 64
	sk, clip, skin := benchRig(joints)
	pose := make([]Transform, joints)
	models := make([]mgl32.Mat4, joints)
	pal := make([]float32, joints*PaletteFloats)
	sj := refSampleJob{Clip: clip, Rest: sk.Rest, Cursors: make([]int, len(clip.Tracks)), Output: pose}
	l2m := refLocalToModelJob{Skeleton: sk, Input: pose, Output: models}
	pj := refPaletteJob{Skin: skin, Models: models, Output: pal}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sj.Time = float32(i%1000) / 1000
		sj.Run()
		l2m.Run()
		pj.Run()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/joints, "ns/joint")
}
