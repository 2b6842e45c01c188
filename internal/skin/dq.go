package skin

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
)

// DualQuatFloats is the number of float32 values per joint in the flat dual
// quaternion layout that WriteDualQuats writes and SkinDQ reads: the real
// part x, y, z, w, then the dual part x, y, z, w. Two std140 vec4s, so a DQ
// palette takes two thirds of the matrix palette's uniform space.
const DualQuatFloats = 8

// DualQuat is a unit dual quaternion Real + ε·Dual: the rigid motion that
// rotates by Real and then translates by t, stored as Dual = ½·(0, t)·Real.
type DualQuat struct {
	Real mgl32.Quat // unit rotation, W ≥ 0
	Dual mgl32.Quat
}

// DualQuatFromEntry converts one palette entry (12 floats, anim's row
// layout) to a unit dual quaternion. The translation is the entry's last
// column. The rotation is the orthogonal factor R of the polar
// decomposition M₃ = R·U, the rotation closest to M₃ (Frobenius norm): for
// T·R·S joints it is R exactly, and unlike normalizing columns it stays a
// rotation when parent scales leave M₃ sheared. The stretch U is dropped:
// dual quaternions carry rigid motion only, so SkinDQ ignores scale. A
// mirroring entry (det M₃ < 0), which no rotation represents, is replaced
// by the rotation closest to −M₃; a singular one (a joint scaled to zero)
// by no rotation.
func DualQuatFromEntry(m []float32) DualQuat {
	_ = m[11]
	r := polarRotation(m)
	x, y, z, w := quatFromRotation(&r)
	rot := mgl32.Quat{W: float32(w), V: mgl32.Vec3{float32(x), float32(y), float32(z)}}
	tx, ty, tz := float64(m[3]), float64(m[7]), float64(m[11])
	// Dual = ½·(0, t)·(w, v) = ½·(−t·v, w·t + t×v).
	dual := mgl32.Quat{
		W: float32(-0.5 * (tx*x + ty*y + tz*z)),
		V: mgl32.Vec3{
			float32(0.5 * (w*tx + ty*z - tz*y)),
			float32(0.5 * (w*ty + tz*x - tx*z)),
			float32(0.5 * (w*tz + tx*y - ty*x)),
		},
	}
	return DualQuat{Real: rot, Dual: dual}
}

// Put writes q into dst (len ≥ DualQuatFloats) in the flat layout.
func (q DualQuat) Put(dst []float32) {
	_ = dst[7]
	dst[0], dst[1], dst[2], dst[3] = q.Real.V[0], q.Real.V[1], q.Real.V[2], q.Real.W
	dst[4], dst[5], dst[6], dst[7] = q.Dual.V[0], q.Dual.V[1], q.Dual.V[2], q.Dual.W
}

// Translation returns the translation q applies after its rotation.
func (q DualQuat) Translation() mgl32.Vec3 {
	// t = 2·Dual·conj(Real), vector part.
	return translationOf(q.Real.W, q.Real.V[0], q.Real.V[1], q.Real.V[2], q.Dual.W, q.Dual.V[0], q.Dual.V[1], q.Dual.V[2])
}

func translationOf(a0, r0, r1, r2, ae, d0, d1, d2 float32) mgl32.Vec3 {
	return mgl32.Vec3{
		2 * (a0*d0 - ae*r0 + r1*d2 - r2*d1),
		2 * (a0*d1 - ae*r1 + r2*d0 - r0*d2),
		2 * (a0*d2 - ae*r2 + r0*d1 - r1*d0),
	}
}

// WriteDualQuats converts every palette entry to a dual quaternion and
// writes it to dst in the flat upload layout: joint i at
// dst[i*DualQuatFloats:], real x, y, z, w then dual x, y, z, w.
// len(dst) must be DualQuatFloats·(len(palette)/12); a mismatch is a
// programmer error and panics. It allocates nothing.
func WriteDualQuats(dst []float32, palette []float32) {
	n := len(palette) / anim.PaletteFloats
	if len(dst) < n*DualQuatFloats {
		panic(fmt.Sprintf("skin: WriteDualQuats: dst holds %d floats for %d joints", len(dst), n))
	}
	for i := 0; i < n; i++ {
		DualQuatFromEntry(palette[i*anim.PaletteFloats:]).Put(dst[i*DualQuatFloats:])
	}
}

// SkinDQ is the dual-quaternion skinning reference (Kavan et al. 2008): per
// vertex, the influences' dual quaternions are blended linearly with their
// weights, each negated first when its real part's dot product with the
// first weighted influence's is negative (q and −q are the same motion, and
// mixing the two signs is what folds the blend), then divided by the
// blend's real norm. Positions take the blended rigid motion; normals its
// rotation, normalized. dq holds DualQuatFloats floats per joint, as
// WriteDualQuats writes them: the numbers a DQ vertex shader would read.
// Weights need not sum to one: normalization removes their scale. A vertex
// without weight keeps its bind position and normal, as under Skin4; one
// whose blended real part is zero (weights that cancel) or NaN gets a zero
// position and normal. nrm may be nil. SkinDQ allocates nothing.
func SkinDQ(dstPos, dstNrm, pos, nrm []float32, joints []uint16, weights []float32, dq []float32) error {
	n := len(pos) / 3
	if err := checkSkin("SkinDQ", n, len(dstPos), joints, weights); err != nil {
		return err
	}
	hasNrm := nrm != nil
	if hasNrm && (len(nrm) < n*3 || len(dstNrm) < n*3) {
		return fmt.Errorf("skin: SkinDQ of %d vertices has %d normals and %d normal outputs", n, len(nrm)/3, len(dstNrm)/3)
	}
	entries := len(dq) / DualQuatFloats
	for v := 0; v < n; v++ {
		js := (*[Influences]uint16)(joints[v*Influences:])
		ws := (*[Influences]float32)(weights[v*Influences:])
		var b [DualQuatFloats]float32
		var first *[DualQuatFloats]float32
		for k := 0; k < Influences; k++ {
			w := ws[k]
			if w == 0 {
				continue
			}
			j := int(js[k])
			if j >= entries {
				return fmt.Errorf("skin: vertex %d uses joint %d; the dual quaternion palette has %d", v, j, entries)
			}
			q := (*[DualQuatFloats]float32)(dq[j*DualQuatFloats:])
			if first == nil {
				first = q
			} else if q[0]*first[0]+q[1]*first[1]+q[2]*first[2]+q[3]*first[3] < 0 {
				w = -w
			}
			for i := range b {
				b[i] += w * q[i]
			}
		}
		o := (*[3]float32)(dstPos[v*3:])
		if first == nil {
			// No weight: the vertex stays at its bind position.
			copy(o[:], pos[v*3:v*3+3])
			if hasNrm {
				copy(dstNrm[v*3:v*3+3], nrm[v*3:v*3+3])
			}
			continue
		}
		l2 := b[0]*b[0] + b[1]*b[1] + b[2]*b[2] + b[3]*b[3]
		if l2 == 0 || l2 != l2 {
			o[0], o[1], o[2] = 0, 0, 0
			if hasNrm {
				d := (*[3]float32)(dstNrm[v*3:])
				d[0], d[1], d[2] = 0, 0, 0
			}
			continue
		}
		inv := 1 / float32(math.Sqrt(float64(l2)))
		for i := range b {
			b[i] *= inv
		}
		r0, r1, r2, a0 := b[0], b[1], b[2], b[3]
		p := (*[3]float32)(pos[v*3:])
		x, y, z := rotate(r0, r1, r2, a0, p[0], p[1], p[2])
		t := translationOf(a0, r0, r1, r2, b[7], b[4], b[5], b[6])
		o[0], o[1], o[2] = x+t[0], y+t[1], z+t[2]
		if hasNrm {
			q := (*[3]float32)(nrm[v*3:])
			nx, ny, nz := rotate(r0, r1, r2, a0, q[0], q[1], q[2])
			d := (*[3]float32)(dstNrm[v*3:])
			l := nx*nx + ny*ny + nz*nz
			if l == 0 {
				d[0], d[1], d[2] = 0, 0, 0
				continue
			}
			s := 1 / float32(math.Sqrt(float64(l)))
			d[0], d[1], d[2] = nx*s, ny*s, nz*s
		}
	}
	return nil
}

// rotate applies the unit quaternion (r, a) to p:
// p + 2·r×(r×p + a·p).
func rotate(r0, r1, r2, a, x, y, z float32) (float32, float32, float32) {
	// c = r×p + a·p
	cx := r1*z - r2*y + a*x
	cy := r2*x - r0*z + a*y
	cz := r0*y - r1*x + a*z
	return x + 2*(r1*cz-r2*cy), y + 2*(r2*cx-r0*cz), z + 2*(r0*cy-r1*cx)
}

// polarRotation returns, as rows, the rotation factor of the polar
// decomposition of the entry's 3×3 part, by Higham's scaled Newton
// iteration X ← ½(γX + (γX)⁻ᵀ), γ = |det X|^(-1/3), in float64. The
// scaling makes a uniform scale converge in one step; sheared input
// converges quadratically, in a handful.
func polarRotation(m []float32) [3][3]float64 {
	var x [3][3]float64
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			x[r][c] = float64(m[r*4+c])
		}
	}
	cof, det := cofactor(&x)
	var norm float64
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			norm += x[r][c] * x[r][c]
		}
	}
	// Singular or nearly so, relative to the matrix's size: no rotation.
	// (|det| ≤ 1e-12·‖X‖³, squared.)
	if !(det*det > 1e-24*norm*norm*norm) || math.IsInf(det, 0) {
		return [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	}
	if det < 0 {
		for r := range x {
			for c := range x[r] {
				x[r][c] = -x[r][c]
			}
		}
		cof, det = cofactor(&x)
	}
	for it := 0; it < 30; it++ {
		// Scaling only speeds up the start; near a rotation (det ≈ 1) the
		// plain iteration converges quadratically and the root is wasted.
		g := 1.0
		if math.Abs(det-1) > 1e-3 {
			g = math.Cbrt(1 / det)
		}
		// (γX)⁻ᵀ = cof(X)/(γ·det X).
		h := 1 / (g * det)
		var diff float64
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				nx := 0.5 * (g*x[r][c] + h*cof[r][c])
				diff += (nx - x[r][c]) * (nx - x[r][c])
				x[r][c] = nx
			}
		}
		// A step of δ leaves an error of order δ², far below float32's
		// resolution once δ < 1e-7.
		if diff < 1e-14 {
			break
		}
		cof, det = cofactor(&x)
	}
	return x
}

// cofactor returns the cofactor matrix of x (cof[r][c] = (−1)^(r+c)·minor)
// and its determinant; x⁻ᵀ = cof/det.
func cofactor(x *[3][3]float64) ([3][3]float64, float64) {
	var c [3][3]float64
	c[0][0] = x[1][1]*x[2][2] - x[1][2]*x[2][1]
	c[0][1] = x[1][2]*x[2][0] - x[1][0]*x[2][2]
	c[0][2] = x[1][0]*x[2][1] - x[1][1]*x[2][0]
	c[1][0] = x[0][2]*x[2][1] - x[0][1]*x[2][2]
	c[1][1] = x[0][0]*x[2][2] - x[0][2]*x[2][0]
	c[1][2] = x[0][1]*x[2][0] - x[0][0]*x[2][1]
	c[2][0] = x[0][1]*x[1][2] - x[0][2]*x[1][1]
	c[2][1] = x[0][2]*x[1][0] - x[0][0]*x[1][2]
	c[2][2] = x[0][0]*x[1][1] - x[0][1]*x[1][0]
	det := x[0][0]*c[0][0] + x[0][1]*c[0][1] + x[0][2]*c[0][2]
	return c, det
}

// quatFromRotation converts a rotation matrix (rows) to a unit quaternion
// with w ≥ 0, by Shepperd's method: divide by the largest of the four
// candidate components, so no branch loses precision.
func quatFromRotation(r *[3][3]float64) (x, y, z, w float64) {
	tr := r[0][0] + r[1][1] + r[2][2]
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(tr+1)
		w, x, y, z = 0.25*s, (r[2][1]-r[1][2])/s, (r[0][2]-r[2][0])/s, (r[1][0]-r[0][1])/s
	case r[0][0] > r[1][1] && r[0][0] > r[2][2]:
		s := 2 * math.Sqrt(1+r[0][0]-r[1][1]-r[2][2])
		w, x, y, z = (r[2][1]-r[1][2])/s, 0.25*s, (r[0][1]+r[1][0])/s, (r[0][2]+r[2][0])/s
	case r[1][1] > r[2][2]:
		s := 2 * math.Sqrt(1+r[1][1]-r[0][0]-r[2][2])
		w, x, y, z = (r[0][2]-r[2][0])/s, (r[0][1]+r[1][0])/s, 0.25*s, (r[1][2]+r[2][1])/s
	default:
		s := 2 * math.Sqrt(1+r[2][2]-r[0][0]-r[1][1])
		w, x, y, z = (r[1][0]-r[0][1])/s, (r[0][2]+r[2][0])/s, (r[1][2]+r[2][1])/s, 0.25*s
	}
	l := math.Sqrt(x*x + y*y + z*z + w*w)
	if w < 0 {
		l = -l
	}
	return x / l, y / l, z / l, w / l
}
