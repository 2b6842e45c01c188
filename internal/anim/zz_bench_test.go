package anim

import "testing"

func BenchmarkZZSample(b *testing.B) {
	sk, clips := b2pSkeleton(), b2pClips()
	raw := b2pRuntimeClips(b, sk)
	pc, _, _ := CompressClip(&clips[0], sk, CompressOptions{Tolerance: 1e-4})
	for _, dt := range []float32{1.0 / 60, 1.0 / 6000} {
		for _, c := range []*RuntimeClip{raw[0], pc} {
			name := "raw"
			if c.Compressed() {
				name = "packed"
			}
			b.Run(name+map[bool]string{true: "/cross", false: "/still"}[dt > 0.001], func(b *testing.B) {
				job := SampleSoAJob{Clip: c, Nlerp: true, Cursors: make([]int32, c.NumCursors()), Cache: make([]float32, c.CacheLen()), Output: NewSoAPose(100)}
				t := float32(0)
				for b.Loop() {
					t += dt
					if t >= 2 {
						t -= 2
					}
					job.Time = t
					job.Run()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/joint")
			})
		}
	}
}
