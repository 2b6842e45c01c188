package anim

import "testing"

// BenchmarkBlend2Palette100Compressed is the workload of
// BLEND2PALETTE-100.md with its clips compressed at 0.01 cm beside the
// same clips uncompressed, portable kernels, ns per joint and bytes per
// clip.
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
	setKernelPath("portable")
	defer kernelPaths()
	for _, mode := range b2pWant {
		for _, form := range []struct {
			name  string
			clips []*RuntimeClip
			bytes int
		}{{"raw", raw, rawBytes(&clips[0]) + rawBytes(&clips[1])}, {"compressed", packed, bytes}} {
			b.Run(form.name+"/"+mode.name, func(b *testing.B) {
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
