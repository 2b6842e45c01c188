package anim_test

import (
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// BenchmarkBlend2Palette100Compressed is the workload of
// BLEND2PALETTE-100.md with its clips compressed at 0.01 cm beside the
// same clips uncompressed, on every kernel path, ns per joint and bytes
// per clip.
func BenchmarkBlend2Palette100Compressed(b *testing.B) {
	sk, skin, clips := animtest.B2PSkeleton(), animtest.B2PSkin(), animtest.B2PClips()
	raw := animtest.B2PRuntimeClips(b, sk)
	var packed []*anim.RuntimeClip
	bytes := 0
	for i := range clips {
		rc, rep, err := anim.CompressClip(&clips[i], sk, anim.CompressOptions{Tolerance: 1e-4})
		if err != nil {
			b.Fatal(err)
		}
		packed = append(packed, rc)
		bytes += rep.Bytes
	}
	for _, path := range kernelPaths() {
		for _, mode := range animtest.B2PWant {
			for _, form := range []struct {
				name  string
				clips []*anim.RuntimeClip
				bytes int
			}{{"raw", raw, anim.RawBytes(&clips[0]) + anim.RawBytes(&clips[1])}, {"compressed", packed, bytes}} {
				b.Run(path+"/"+form.name+"/"+mode.Name, func(b *testing.B) {
					anim.SetKernelPath(path)
					defer anim.RestoreKernels()
					f := animtest.NewB2PFastRuntime(b, sk, skin, form.clips, mode.Nlerp)
					b.ReportAllocs()
					for b.Loop() {
						f.Eval()
					}
					animtest.ReportNsPerJoint(b)
					b.ReportMetric(float64(form.bytes)/2, "bytes/clip")
				})
			}
		}
	}
}

// BenchmarkSampleCompressed samples Blend2Palette-100's clip A alone, raw
// and compressed at 0.01 cm, with nlerp: advancing 1/60 s per sample (every
// track crosses a key every other sample) and 1/6000 s (almost never).
func BenchmarkSampleCompressed(b *testing.B) {
	sk, clips := animtest.B2PSkeleton(), animtest.B2PClips()
	raw := animtest.B2PRuntimeClips(b, sk)[0]
	packed, _, err := anim.CompressClip(&clips[0], sk, anim.CompressOptions{Tolerance: 1e-4})
	if err != nil {
		b.Fatal(err)
	}
	anim.SetKernelPath("portable")
	defer kernelPaths()
	for _, step := range []struct {
		name string
		dt   float32
	}{{"crossing", 1.0 / 60}, {"within", 1.0 / 6000}} {
		for _, c := range []*anim.RuntimeClip{raw, packed} {
			name := "raw"
			if c.Compressed() {
				name = "compressed"
			}
			b.Run(name+"/"+step.name, func(b *testing.B) {
				job := anim.SampleSoAJob{Clip: c, Nlerp: true, Cursors: make([]int32, c.NumCursors()), Cache: make([]float32, c.CacheLen()), Output: anim.NewSoAPose(animtest.B2PJoints)}
				for b.Loop() {
					if job.Time += step.dt; job.Time >= 2 {
						job.Time -= 2
					}
					job.Run()
				}
				animtest.ReportNsPerJoint(b)
			})
		}
	}
}
