package anim

import "testing"

func TestProbeB2P(t *testing.T) {
	sk, skin, clips := b2pSkeleton(), b2pSkin(), b2pClips()
	for _, nl := range []bool{false, true} {
		g := newB2PGeneric(sk, skin, clips, nl)
		for range 30 {
			g.eval()
		}
		s, l := b2pChecksum(g.pal.Output)
		t.Logf("nlerp=%v t=%v sum=%.4f last=%v", nl, g.t, s, l)
	}
}

func BenchmarkProbeGeneric(b *testing.B) {
	sk, skin, clips := b2pSkeleton(), b2pSkin(), b2pClips()
	for _, nl := range []bool{false, true} {
		name := "slerp"
		if nl {
			name = "nlerp"
		}
		b.Run(name, func(b *testing.B) {
			g := newB2PGeneric(sk, skin, clips, nl)
			b.ReportAllocs()
			for b.Loop() {
				g.eval()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/b2pJoints, "ns/joint")
		})
	}
}
