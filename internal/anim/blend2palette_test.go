package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The Blend2Palette-100 workload of /work/shared/bench/BLEND2PALETTE-100.md:
// a 100-joint binary tree, two 2 s clips with 61 random keys per track
// (mulberry32, seed 42), blended 0.6/0.4 and turned into a palette.

const (
	b2pJoints = 100
	b2pKeys   = 61
	b2pStep   = 1.0 / 60 // seconds per evaluation
	b2pLength = 2.0      // clip duration, seconds
	b2pWeight = 0.4      // weight of clip B (A has 0.6)
)

// mulberry32 is the workload's PRNG: 32-bit wrapping arithmetic.
type mulberry32 uint32

func (m *mulberry32) next() float64 {
	*m += 0x6D2B79F5
	t := uint32(*m)
	t = (t ^ (t >> 15)) * (t | 1)
	t ^= t + (t^(t>>7))*(t|61)
	return float64(t^(t>>14)) / 4294967296
}

// b2pSkeleton is joint i > 0 under joint (i−1)/2, rest translation (0,1,0).
func b2pSkeleton() *Skeleton {
	sk := &Skeleton{Names: make([]string, b2pJoints), Parents: make([]int, b2pJoints), Rest: make([]Transform, b2pJoints)}
	for j := range b2pJoints {
		sk.Parents[j] = (j - 1) / 2
		if j == 0 {
			sk.Parents[j] = -1
		}
		sk.Names[j] = "j" + itoa(j)
		sk.Rest[j] = IdentityTransform
		sk.Rest[j].Translation = mgl32.Vec3{0, 1, 0}
	}
	return sk
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// b2pSkin maps joints 1:1 with inverse binds computed in float64 from the
// rest pose (independently of LocalToModelJob): the rest world matrix of a
// joint is a translation by (0, depth+1, 0).
func b2pSkin() *Skin {
	sk := &Skin{Name: "b2p", Joints: make([]int, b2pJoints), InverseBind: make([]mgl32.Mat4, b2pJoints)}
	for j := range b2pJoints {
		sk.Joints[j] = j
		y := 0.0
		for k := j; k >= 0; k = (k - 1) / 2 {
			y++
			if k == 0 {
				break
			}
		}
		sk.InverseBind[j] = mgl32.Translate3D(0, float32(-y), 0)
	}
	return sk
}

// b2pClips draws clips A and B in the file's order.
func b2pClips() []Clip {
	rng := mulberry32(42)
	r := func() float64 { return 2*rng.next() - 1 }
	clips := make([]Clip, 2)
	for c := range clips {
		clip := Clip{Name: string(rune('A' + c)), Duration: b2pLength}
		for j := range b2pJoints {
			times := func() []float32 {
				t := make([]float32, b2pKeys)
				for k := range t {
					t[k] = float32(float64(k) / 30)
				}
				return t
			}
			tv := make([]float32, 0, 3*b2pKeys)
			rv := make([]float32, 0, 4*b2pKeys)
			sv := make([]float32, 0, 3*b2pKeys)
			for range b2pKeys {
				tx, ty, tz := r()*0.5, 1+r()*0.5, r()*0.5
				ax, ay, az := r(), r(), r()
				l := math.Sqrt(ax*ax + ay*ay + az*az)
				if l < 1e-6 {
					ax, ay, az = 0, 1, 0
				} else {
					ax, ay, az = ax/l, ay/l, az/l
				}
				angle := r() * 60 * math.Pi / 180
				s, cw := math.Sin(angle/2), math.Cos(angle/2)
				sx, sy, sz := 0.9+0.2*rng.next(), 0.9+0.2*rng.next(), 0.9+0.2*rng.next()
				tv = append(tv, float32(tx), float32(ty), float32(tz))
				rv = append(rv, float32(ax*s), float32(ay*s), float32(az*s), float32(cw))
				sv = append(sv, float32(sx), float32(sy), float32(sz))
			}
			clip.Tracks = append(clip.Tracks,
				Track{Joint: j, Path: Translation, Interp: Linear, Times: times(), Values: tv},
				Track{Joint: j, Path: Rotation, Interp: Linear, Times: times(), Values: rv},
				Track{Joint: j, Path: Scale, Interp: Linear, Times: times(), Values: sv})
		}
		clips[c] = clip
	}
	return clips
}

// b2pChecksum is the workload's checksum of a 3×4 palette: the sum of the
// 4×4 matrices' floats, whose dropped bottom rows (0,0,0,1) add 1 each.
func b2pChecksum(pal []float32) (sum float64, last mgl32.Vec3) {
	for _, v := range pal {
		sum += float64(v)
	}
	sum += float64(len(pal) / PaletteFloats)
	e := pal[len(pal)-PaletteFloats:]
	return sum, mgl32.Vec3{e[3], e[7], e[11]}
}

// b2pGeneric is the workload on the generic jobs: two SampleJobs, a pose
// blend, LocalToModelJob and PaletteJob.
type b2pGeneric struct {
	t      float32
	sa, sb SampleJob
	blend  []Transform
	l2m    LocalToModelJob
	pal    PaletteJob
	nlerp  bool
}

func newB2PGeneric(sk *Skeleton, skin *Skin, clips []Clip, nlerp bool) *b2pGeneric {
	n := sk.NumJoints()
	g := &b2pGeneric{nlerp: nlerp, blend: make([]Transform, n)}
	g.sa = SampleJob{Clip: &clips[0], Rest: sk.Rest, Cursors: make([]int, len(clips[0].Tracks)), Output: make([]Transform, n)}
	g.sb = SampleJob{Clip: &clips[1], Rest: sk.Rest, Cursors: make([]int, len(clips[1].Tracks)), Output: make([]Transform, n)}
	g.l2m = LocalToModelJob{Skeleton: sk, Input: g.blend, Output: make([]mgl32.Mat4, n)}
	g.pal = PaletteJob{Skin: skin, Models: g.l2m.Output, Output: make([]float32, n*PaletteFloats)}
	return g
}

func (g *b2pGeneric) eval() {
	g.t += b2pStep
	if g.t >= b2pLength {
		g.t -= b2pLength
	}
	g.sa.Time, g.sb.Time = g.t, g.t
	g.sa.Run()
	g.sb.Run()
	if g.nlerp {
		NlerpPose(g.blend, g.sa.Output, g.sb.Output, b2pWeight)
	} else {
		LerpPose(g.blend, g.sa.Output, g.sb.Output, b2pWeight)
	}
	g.l2m.Run()
	g.pal.Run()
}
