package anim

import "testing"

// BenchmarkBlend2Palette100Compressed is the workload of
// BLEND2PALETTE-100.md with its clips compressed at 0.01 cm beside the
// same clips uncompressed, on every kernel path, ns per joint and bytes
// per clip.
func BenchmarkBlend2Palette100Compressed(b *testing.B) {
	sk, skin, clips := b2pSkeleton(), b2pSkin(), b2pClips()
	raw := b2pRuntimeClips(b, sk)
	var packed []*RuntimeClip
	bytes := 0
	for i := range clips {
		rc, rep, err := CompressClip(&clips[i], sk, CompressOptions{Tolerance: 1e-4})
		if err != nil {
			b.Fatal(err)
		}
		packed = append(packed, rc)
		bytes += rep.Bytes
	}
	for _, path := range kernelPaths() {
		for _, mode := range b2pWant {
			for _, form := range []struct {
				name  string
				clips []*RuntimeClip
				bytes int
			}{{"raw", raw, rawBytes(&clips[0]) + rawBytes(&clips[1])}, {"compressed", packed, bytes}} {
				b.Run(path+"/"+form.name+"/"+mode.name, func(b *testing.B) {
					setKernelPath(path)
					defer restoreKernels()
					f := newB2PFastRuntime(b, sk, skin, form.clips, mode.nlerp)
					b.ReportAllocs()
					for b.Loop() {
						f.eval()
					}
					reportNsPerJoint(b)
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
	sk, clips := b2pSkeleton(), b2pClips()
	raw := b2pRuntimeClips(b, sk)[0]
	packed, _, err := CompressClip(&clips[0], sk, CompressOptions{Tolerance: 1e-4})
	if err != nil {
		b.Fatal(err)
	}
	setKernelPath("portable")
	defer kernelPaths()
	for _, step := range []struct {
		name string
		dt   float32
	}{{"crossing", 1.0 / 60}, {"within", 1.0 / 6000}} {
		for _, c := range []*RuntimeClip{raw, packed} {
			name := "raw"
			if c.Compressed() {
				name = "compressed"
			}
			b.Run(name+"/"+step.name, func(b *testing.B) {
				job := SampleSoAJob{Clip: c, Nlerp: true, Cursors: make([]int32, c.NumCursors()), Cache: make([]float32, c.CacheLen()), Output: NewSoAPose(b2pJoints)}
				for b.Loop() {
					if job.Time += step.dt; job.Time >= 2 {
						job.Time -= 2
					}
					job.Run()
				}
				reportNsPerJoint(b)
			})
		}
	}
}
