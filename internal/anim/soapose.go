package anim

import (
	"encoding/binary"
	"fmt"
	"math"
	"unique"

	"github.com/go-gl/mathgl/mgl32"
)

// soaLanes is the block size SoA stripes are padded to: the 8 float32
// lanes of an AVX2 vector (AVX-512 kernels take a last block of 8 with
// AVX2 instructions). A small skeleton wastes fewer lanes than with 16:
// 19 joints take 24, not 32.
const soaLanes = 8

// soaPadded rounds n up to whole blocks of soaLanes.
func soaPadded(n int) int { return (n + soaLanes - 1) / soaLanes * soaLanes }

// SoAPose is a local pose stored as a structure of arrays: one stripe of
// float32 per transform component, joint i at index i of every stripe. It
// is the buffer type of the fast pipeline (RuntimeClip sampling, BlendSoA,
// ModelPaletteJob), where one loop or one vector instruction handles the
// same component of many joints. Stripes are padded to a multiple of 8
// joints; padding lanes hold the identity transform and are never part of
// the pose. The zero value is an empty pose; use NewSoAPose.
type SoAPose struct {
	n int
	// The stripes, each of padded length, all slices of buf in this
	// order.
	buf            []float32
	tx, ty, tz     []float32
	qx, qy, qz, qw []float32
	sx, sy, sz     []float32
	// W holds the morph target weights, one per morph channel of the
	// skeleton (NewPose); empty for a pose of joints only. wj is the joint
	// of each channel, shared with the skeleton.
	W  []float32
	wj []int
	// Motion is the root motion the pose carries (see rootmotion.go):
	// identity for the rest pose and when root motion is off.
	Motion Transform
	// held names, by path, the values the pose's translation and scale
	// stripes hold when they hold a clip's held stripes (heldTag); zero
	// where the pose claims nothing. Rotation's is always zero.
	held [3]heldTag
}

// heldTag names the content of a path's stripes that a clip holds at one
// value (RuntimeClip.held): equal tags, equal stripes, bit for bit, so
// that a blend of two poses holding the same stripes keeps them without
// arithmetic, and sampling a clip into a pose that already holds its
// stripes copies nothing. Clips whose joints have no translation or scale
// keys hold their skeleton's rest values there, alike in every clip of a
// model. The zero tag claims nothing.
type heldTag = unique.Handle[heldStripes]

// heldStripes is what a heldTag interns: the stripes' bytes, and whether
// every lane holds the identity's component (0 for translation, 1 for
// scale), which an additive layer adds as nothing.
type heldStripes struct {
	bytes    string
	identity bool
}

// tagStripes is the tag of the stripes v of path p.
func tagStripes(p Path, v []float32) heldTag {
	id := float32(0)
	if p == Scale {
		id = 1
	}
	identity := true
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		identity = identity && x == id
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return unique.Make(heldStripes{string(b), identity})
}

// tsPaths are the paths whose held stripes poses keep track of.
var tsPaths = [2]Path{Translation, Scale}

// stripes is path p's stripes, padding included.
func (p *SoAPose) stripes(path Path) []float32 {
	pad := len(p.tx)
	return p.buf[firstStripe[path]*pad : (firstStripe[path]+path.Components())*pad]
}

// HoldsIdentity reports whether p claims, by its tag, that its path
// stripes hold the identity's component in every lane (0 for translation,
// 1 for scale): a claim the jobs take as a shortcut. False where p claims
// nothing.
func (p *SoAPose) HoldsIdentity(path Path) bool {
	t := p.held[path]
	return t != (heldTag{}) && t.Value().identity
}

// HeldAs reports whether p and q both claim, by their tags, that their
// path stripes hold the same held values (RuntimeClip's held stripes, the
// rest pose's).
func (p *SoAPose) HeldAs(q *SoAPose, path Path) bool {
	return p.held[path] != (heldTag{}) && p.held[path] == q.held[path]
}

// CheckHeld returns an error naming the first path whose stripes p claims
// by tag to hold but does not, bit for bit; nil where every claim holds.
// A check for tests and debugging: it allocates.
func (p *SoAPose) CheckHeld() error {
	for _, path := range tsPaths {
		if h := p.held[path]; h != (heldTag{}) && tagStripes(path, p.stripes(path)) != h {
			return fmt.Errorf("anim: pose claims held %v stripes it does not hold", path)
		}
	}
	return nil
}

// keepHeld makes p's path stripes hold src's, copying them only where p
// does not claim them already, and takes src's claim there.
func (p *SoAPose) keepHeld(path Path, src *SoAPose) {
	if t := src.held[path]; t == (heldTag{}) || p.held[path] != t {
		p.copyHeld(path, src)
	}
}

// copyHeld copies src's path stripes and claim into p, out of line so
// that keepHeld's test inlines.
//
//go:noinline
func (p *SoAPose) copyHeld(path Path, src *SoAPose) {
	copy(p.stripes(path), src.stripes(path))
	p.held[path] = src.held[path]
}

// NewSoAPose returns a pose of n joints, every joint (and padding lane) at
// the identity transform.
func NewSoAPose(n int) *SoAPose {
	if n < 0 {
		panic(fmt.Sprintf("anim: NewSoAPose(%d)", n))
	}
	p := soaPadded(n)
	buf := make([]float32, 10*p)
	s := func(i int) []float32 { return buf[i*p : (i+1)*p : (i+1)*p] }
	pose := &SoAPose{n: n, buf: buf,
		tx: s(0), ty: s(1), tz: s(2),
		qx: s(3), qy: s(4), qz: s(5), qw: s(6),
		sx: s(7), sy: s(8), sz: s(9),
	}
	for i := range p {
		pose.qw[i], pose.sx[i], pose.sy[i], pose.sz[i] = 1, 1, 1, 1
	}
	pose.Motion = identityMotion
	return pose
}

// Len is the number of joints.
func (p *SoAPose) Len() int { return p.n }

// At returns joint i's transform.
func (p *SoAPose) At(i int) Transform {
	_ = p.tx[:p.n][i]
	return Transform{
		Translation: mgl32.Vec3{p.tx[i], p.ty[i], p.tz[i]},
		Rotation:    mgl32.Quat{W: p.qw[i], V: mgl32.Vec3{p.qx[i], p.qy[i], p.qz[i]}},
		Scale:       mgl32.Vec3{p.sx[i], p.sy[i], p.sz[i]},
	}
}

// Set stores t as joint i's transform.
func (p *SoAPose) Set(i int, t Transform) {
	_ = p.tx[:p.n][i]
	p.tx[i], p.ty[i], p.tz[i] = t.Translation[0], t.Translation[1], t.Translation[2]
	p.qx[i], p.qy[i], p.qz[i], p.qw[i] = t.Rotation.V[0], t.Rotation.V[1], t.Rotation.V[2], t.Rotation.W
	p.sx[i], p.sy[i], p.sz[i] = t.Scale[0], t.Scale[1], t.Scale[2]
	p.held = [3]heldTag{}
}

// FromTransforms copies an AoS pose in; len(src) == Len().
func (p *SoAPose) FromTransforms(src []Transform) {
	if len(src) != p.n {
		panic(fmt.Sprintf("anim: SoAPose of %d joints given %d transforms", p.n, len(src)))
	}
	for i := range src {
		p.Set(i, src[i])
	}
}

// ToTransforms copies the pose out into an AoS pose; len(dst) == Len().
func (p *SoAPose) ToTransforms(dst []Transform) {
	if len(dst) != p.n {
		panic(fmt.Sprintf("anim: SoAPose of %d joints copied into %d transforms", p.n, len(dst)))
	}
	for i := range dst {
		dst[i] = p.At(i)
	}
}

// CopyFrom makes p a copy of src, which has the same length.
func (p *SoAPose) CopyFrom(src *SoAPose) {
	if src.n != p.n {
		panic(fmt.Sprintf("anim: SoAPose of %d joints copied from %d", p.n, src.n))
	}
	copy(p.buf, src.buf)
	copy(p.W, src.W)
	p.Motion = src.Motion
	p.held = src.held
}
