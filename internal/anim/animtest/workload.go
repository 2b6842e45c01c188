package animtest

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// The Blend2Palette-100 workload of ../shared/bench/BLEND2PALETTE-100.md:
// a 100-joint binary tree, two 2 s clips with 61 random keys per track
// (Mulberry32, seed 42), blended 0.6/0.4 and turned into a palette.

const (
	B2PJoints = 100
	B2PKeys   = 61
	B2PStep   = 1.0 / 60 // seconds per evaluation
	B2PLength = 2.0      // clip duration, seconds
	B2PWeight = 0.4      // weight of clip B (A has 0.6)
)

// Mulberry32 is the workload's PRNG: 32-bit wrapping arithmetic.
type Mulberry32 uint32

// Next is the next number in [0, 1).
func (m *Mulberry32) Next() float64 {
	*m += 0x6D2B79F5
	t := uint32(*m)
	t = (t ^ (t >> 15)) * (t | 1)
	t ^= t + (t^(t>>7))*(t|61)
	return float64(t^(t>>14)) / 4294967296
}

// B2PSkeleton is joint i > 0 under joint (i−1)/2, rest translation (0,1,0).
func B2PSkeleton() *anim.Skeleton {
	sk := &anim.Skeleton{Names: make([]string, B2PJoints), Parents: make([]int, B2PJoints), Rest: make([]anim.Transform, B2PJoints)}
	for j := range B2PJoints {
		sk.Parents[j] = (j - 1) / 2
		if j == 0 {
			sk.Parents[j] = -1
		}
		sk.Names[j] = "j" + itoa(j)
		sk.Rest[j] = anim.IdentityTransform
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

// B2PSkin maps joints 1:1 with inverse binds computed in float64 from the
// rest pose (independently of anim's local-to-model): the rest world matrix of a
// joint is a translation by (0, depth+1, 0).
func B2PSkin() *anim.Skin {
	sk := &anim.Skin{Name: "b2p", Joints: make([]int, B2PJoints), InverseBind: make([]mgl32.Mat4, B2PJoints)}
	for j := range B2PJoints {
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

// B2PClips draws clips A and B in the file's order.
func B2PClips() []anim.Clip {
	rng := Mulberry32(42)
	r := func() float64 { return 2*rng.Next() - 1 }
	clips := make([]anim.Clip, 2)
	for c := range clips {
		clip := anim.Clip{Name: string(rune('A' + c)), Duration: B2PLength}
		for j := range B2PJoints {
			times := func() []float32 {
				t := make([]float32, B2PKeys)
				for k := range t {
					t[k] = float32(float64(k) / 30)
				}
				return t
			}
			tv := make([]float32, 0, 3*B2PKeys)
			rv := make([]float32, 0, 4*B2PKeys)
			sv := make([]float32, 0, 3*B2PKeys)
			for range B2PKeys {
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
				sx, sy, sz := 0.9+0.2*rng.Next(), 0.9+0.2*rng.Next(), 0.9+0.2*rng.Next()
				tv = append(tv, float32(tx), float32(ty), float32(tz))
				rv = append(rv, float32(ax*s), float32(ay*s), float32(az*s), float32(cw))
				sv = append(sv, float32(sx), float32(sy), float32(sz))
			}
			clip.Tracks = append(clip.Tracks,
				anim.Track{Joint: j, Path: anim.Translation, Interp: anim.Linear, Times: times(), Values: tv},
				anim.Track{Joint: j, Path: anim.Rotation, Interp: anim.Linear, Times: times(), Values: rv},
				anim.Track{Joint: j, Path: anim.Scale, Interp: anim.Linear, Times: times(), Values: sv})
		}
		clips[c] = clip
	}
	return clips
}

// B2PChecksum is the workload's checksum of a 3×4 palette: the sum of the
// 4×4 matrices' floats, whose dropped bottom rows (0 0 0 1) add 1 each
// (TestBlend2Palette100Checksum checks that against the full matrices),
// and the translation column of the last entry.
func B2PChecksum(pal []float32) (sum float64, last mgl32.Vec3) {
	for _, v := range pal {
		sum += float64(v)
	}
	sum += float64(len(pal) / anim.PaletteFloats)
	e := pal[len(pal)-anim.PaletteFloats:]
	return sum, mgl32.Vec3{e[3], e[7], e[11]}
}

// B2PTime advances a character's clock by one evaluation, looping.
func B2PTime(t float32) float32 {
	t += B2PStep
	if t >= B2PLength {
		t -= B2PLength
	}
	return t
}

// B2PFast is the workload on the fast pipeline: two SampleSoAJobs,
// BlendSoA and ModelPaletteJob, nlerp or slerp for keys and blend alike.
type B2PFast struct {
	T      float32 // the clock, seconds
	SA, SB anim.SampleSoAJob
	Blend  *anim.SoAPose
	MP     anim.ModelPaletteJob // its Output is the palette
	Nlerp  bool
}

// NewB2PFast builds the fast pipeline over clips, or fails tb.
func NewB2PFast(tb testing.TB, sk *anim.Skeleton, skin *anim.Skin, clips []anim.Clip, nlerp bool) *B2PFast {
	var rcs []*anim.RuntimeClip
	for i := range clips {
		rc, err := anim.NewRuntimeClip(&clips[i], sk)
		if err != nil {
			tb.Fatal(err)
		}
		rcs = append(rcs, rc)
	}
	return NewB2PFastRuntime(tb, sk, skin, rcs, nlerp)
}

// NewB2PFastRuntime is NewB2PFast over runtime clips, compressed or not.
func NewB2PFastRuntime(tb testing.TB, sk *anim.Skeleton, skin *anim.Skin, rcs []*anim.RuntimeClip, nlerp bool) *B2PFast {
	n := sk.NumJoints()
	f := &B2PFast{Nlerp: nlerp, Blend: anim.NewSoAPose(n)}
	for i, job := range []*anim.SampleSoAJob{&f.SA, &f.SB} {
		rc := rcs[i]
		*job = anim.SampleSoAJob{Clip: rc, Nlerp: nlerp, Cursors: make([]int32, rc.NumCursors()), Cache: make([]float32, rc.CacheLen()), Output: anim.NewSoAPose(n)}
	}
	f.MP = anim.ModelPaletteJob{Skeleton: sk, Skin: skin, Input: f.Blend, Models: make([]float32, anim.PaletteFloats*n), Output: make([]float32, anim.PaletteFloats*n)}
	for _, v := range []interface{ Validate() error }{&f.SA, &f.SB, &f.MP} {
		if err := v.Validate(); err != nil {
			tb.Fatal(err)
		}
	}
	return f
}

// Eval runs one evaluation: the clock a step on, both clips sampled,
// blended and turned into the palette.
func (f *B2PFast) Eval() {
	f.Sample()
	anim.BlendSoA(f.Blend, f.SA.Output, f.SB.Output, B2PWeight, f.Nlerp)
	f.MP.Run()
}

// Sample is Eval's first stage, which BenchmarkBlend2Palette100Stages
// times alone: it advances the clock and samples both clips.
func (f *B2PFast) Sample() {
	f.T = B2PTime(f.T)
	f.SA.Time, f.SB.Time = f.T, f.T
	f.SA.Run()
	f.SB.Run()
}

// B2PWant is the checksum table of the workload file.
var B2PWant = []struct {
	Name  string
	Nlerp bool
	Sum   float64
	Last  mgl32.Vec3 // palette[99]'s translation
}{
	{"slerp", false, 428.2946, mgl32.Vec3{-2.3314, 5.4522, -2.0550}},
	{"nlerp", true, 428.3750, mgl32.Vec3{-2.3118, 5.4626, -2.0738}},
}

// ReportNsPerJoint reports b's time per iteration per joint of the
// workload, the metric the project compares.
func ReportNsPerJoint(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/B2PJoints, "ns/joint")
}

// B2PRuntimeClips builds the workload's clips once for many controllers.
func B2PRuntimeClips(tb testing.TB, sk *anim.Skeleton) []*anim.RuntimeClip {
	var rcs []*anim.RuntimeClip
	for _, c := range B2PClips() {
		rc, err := anim.NewRuntimeClip(&c, sk)
		if err != nil {
			tb.Fatal(err)
		}
		rcs = append(rcs, rc)
	}
	return rcs
}
