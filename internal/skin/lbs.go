package skin

import (
	"fmt"
	"math"

	"github.com/skinview/skinview/internal/anim"
)

// GatherPalette copies the palette entries a partition is drawn with:
// dst entry i = full entry joints[i], anim.PaletteFloats floats each. It
// allocates nothing, so it can run per partition per frame. dst must hold
// anim.PaletteFloats·len(joints) floats and every joint must index full; the
// loader checks joints against the skin and the plan only holds joints the
// primitive uses, so a violation is a programmer error and panics.
func GatherPalette(dst []float32, full []float32, joints []uint16) {
	if len(dst) < len(joints)*anim.PaletteFloats {
		panic(fmt.Sprintf("skin: GatherPalette: dst holds %d floats for %d joints", len(dst), len(joints)))
	}
	entries := len(full) / anim.PaletteFloats
	for i, j := range joints {
		if int(j) >= entries {
			panic(fmt.Sprintf("skin: GatherPalette: joint %d is outside a palette of %d entries", j, entries))
		}
		src := full[int(j)*anim.PaletteFloats : int(j)*anim.PaletteFloats+anim.PaletteFloats]
		copy(dst[i*anim.PaletteFloats:i*anim.PaletteFloats+anim.PaletteFloats], src)
	}
}

// skinNormal returns normalize(sign(det M₃)·cof(M₃)·n), the vertex shader's
// normal, for the upper-left 3×3 of a blended matrix given by rows (a, b, c):
// cof(M₃) = det(M₃)·M₃⁻ᵀ, the exact normal transform under non-uniform
// scale, without a division; the sign keeps mirrored joints facing out. A
// normal that collapses to zero length (or NaN) is returned as zero. The
// matrix comes by value so that it stays in registers.
func skinNormal(a0, a1, a2, b0, b1, b2, c0, c1, c2, nx, ny, nz float32) (float32, float32, float32) {
	// Columns are (a0 b0 c0), (a1 b1 c1), (a2 b2 c2); the cofactor
	// matrix's columns are col1×col2, col2×col0, col0×col1.
	k0x, k0y, k0z := b1*c2-c1*b2, c1*a2-a1*c2, a1*b2-b1*a2
	k1x, k1y, k1z := b2*c0-c2*b0, c2*a0-a2*c0, a2*b0-b2*a0
	k2x, k2y, k2z := b0*c1-c0*b1, c0*a1-a0*c1, a0*b1-b0*a1
	det := a0*k0x + b0*k0y + c0*k0z
	ox := k0x*nx + k1x*ny + k2x*nz
	oy := k0y*nx + k1y*ny + k2y*nz
	oz := k0z*nx + k1z*ny + k2z*nz
	l2 := ox*ox + oy*oy + oz*oz
	if !(l2 > 0) || l2 > math.MaxFloat32 {
		return 0, 0, 0
	}
	// float32(math.Sqrt(float64(x))) compiles to a single-precision root.
	s := 1 / float32(math.Sqrt(float64(l2)))
	if det < 0 {
		s = -s
	}
	return ox * s, oy * s, oz * s
}

// zeroEntry stands in for the palette entry of a zero-weight influence, so
// that the blend below has no branches and its joint need not exist.
var zeroEntry [anim.PaletteFloats]float32

// skin4 is the kernel of Skin4 and Normals, for n vertices whose slices
// the caller has checked (pos or nrm nil: skip that output). Per vertex it
// blends M = w₀·P₀ + w₁·P₁ + w₂·P₂ + w₃·P₃, the shader's expression, term
// by term in its order, one expression per matrix element. A zero weight
// multiplies a zero entry instead of its joint's (the shader multiplies the
// joint's, which adds the same exact zero for a finite palette), so that a
// zero-weight slot's joint may be anything and the blend has no branches.
// It returns the first vertex using a joint outside the palette, and that
// joint, or -1.
func skin4(dstPos, dstNrm, pos, nrm []float32, joints []uint16, weights []float32, palette []float32, n int) (badV, badJ int) {
	entries := len(palette) / anim.PaletteFloats
	doPos, doNrm := pos != nil, nrm != nil
	for v := 0; v < n; v++ {
		js := (*[Influences]uint16)(joints[v*Influences:])
		ws := (*[Influences]float32)(weights[v*Influences:])
		var e [Influences]*[anim.PaletteFloats]float32
		for k := range e {
			e[k] = &zeroEntry
			if ws[k] != 0 {
				j := int(js[k])
				if j >= entries {
					return v, j
				}
				e[k] = (*[anim.PaletteFloats]float32)(palette[j*anim.PaletteFloats:])
			}
		}
		w0, w1, w2, w3 := ws[0], ws[1], ws[2], ws[3]
		if w0 == 0 && w1 == 0 && w2 == 0 && w3 == 0 {
			// No weight: the vertex stays at its bind position.
			if doPos {
				copy(dstPos[v*3:v*3+3], pos[v*3:v*3+3])
			}
			if doNrm {
				copy(dstNrm[v*3:v*3+3], nrm[v*3:v*3+3])
			}
			continue
		}
		p0, p1, p2, p3 := e[0], e[1], e[2], e[3]
		m0 := w0*p0[0] + w1*p1[0] + w2*p2[0] + w3*p3[0]
		m1 := w0*p0[1] + w1*p1[1] + w2*p2[1] + w3*p3[1]
		m2 := w0*p0[2] + w1*p1[2] + w2*p2[2] + w3*p3[2]
		m4 := w0*p0[4] + w1*p1[4] + w2*p2[4] + w3*p3[4]
		m5 := w0*p0[5] + w1*p1[5] + w2*p2[5] + w3*p3[5]
		m6 := w0*p0[6] + w1*p1[6] + w2*p2[6] + w3*p3[6]
		m8 := w0*p0[8] + w1*p1[8] + w2*p2[8] + w3*p3[8]
		m9 := w0*p0[9] + w1*p1[9] + w2*p2[9] + w3*p3[9]
		m10 := w0*p0[10] + w1*p1[10] + w2*p2[10] + w3*p3[10]
		if doPos {
			m3 := w0*p0[3] + w1*p1[3] + w2*p2[3] + w3*p3[3]
			m7 := w0*p0[7] + w1*p1[7] + w2*p2[7] + w3*p3[7]
			m11 := w0*p0[11] + w1*p1[11] + w2*p2[11] + w3*p3[11]
			p := (*[3]float32)(pos[v*3:])
			x, y, z := p[0], p[1], p[2]
			o := (*[3]float32)(dstPos[v*3:])
			o[0] = m0*x + m1*y + m2*z + m3
			o[1] = m4*x + m5*y + m6*z + m7
			o[2] = m8*x + m9*y + m10*z + m11
		}
		if doNrm {
			q := (*[3]float32)(nrm[v*3:])
			d := (*[3]float32)(dstNrm[v*3:])
			d[0], d[1], d[2] = skinNormal(m0, m1, m2, m4, m5, m6, m8, m9, m10, q[0], q[1], q[2])
		}
	}
	return -1, -1
}

func checkSkin(what string, n, dst int, joints []uint16, weights []float32) error {
	if dst < n*3 || len(joints) < n*Influences || len(weights) < n*Influences {
		return fmt.Errorf("skin: %s of %d vertices needs %d outputs and %d influences; have %d, %d joints, %d weights", what, n, n*3, n*Influences, dst, len(joints), len(weights))
	}
	return nil
}

// Skin4 skins positions and normals in one pass, exactly as skin.vert does:
// the blended matrix M = Σ wᵢ·Pᵢ over Influences influences, p' = M·(p, 1),
// n' = normalize(sign(det M₃)·cof(M₃)·n). The vertex count is len(pos)/3.
// nrm may be nil (then dstNrm is not touched); otherwise it holds as many
// normals as pos holds positions. palette uses anim's row layout. Weights
// are used as given. dstPos may be pos itself and dstNrm nrm itself (skinning
// in place); other overlaps are not supported. Skin4 allocates nothing; it
// is the CPU skinning path.
func Skin4(dstPos, dstNrm, pos, nrm []float32, joints []uint16, weights []float32, palette []float32) error {
	n := len(pos) / 3
	if err := checkSkin("Skin4", n, len(dstPos), joints, weights); err != nil {
		return err
	}
	hasNrm := nrm != nil
	if hasNrm && (len(nrm) < n*3 || len(dstNrm) < n*3) {
		return fmt.Errorf("skin: Skin4 of %d vertices has %d normals and %d normal outputs", n, len(nrm)/3, len(dstNrm)/3)
	}
	if v, j := skin4(dstPos, dstNrm, pos, nrm, joints, weights, palette, n); v >= 0 {
		return fmt.Errorf("skin: vertex %d uses joint %d; the palette has %d", v, j, len(palette)/anim.PaletteFloats)
	}
	return nil
}

// Normals skins normals alone, the way Skin4 and skin.vert do: dst receives
// normalize(sign(det M₃)·cof(M₃)·n) per vertex, M the blended matrix. The
// vertex count is len(normals)/3.
func Normals(dst, normals []float32, joints []uint16, weights []float32, palette []float32) error {
	n := len(normals) / 3
	if err := checkSkin("Normals", n, len(dst), joints, weights); err != nil {
		return err
	}
	if v, j := skin4(nil, dst, nil, normals, joints, weights, palette, n); v >= 0 {
		return fmt.Errorf("skin: vertex %d uses joint %d; the palette has %d", v, j, len(palette)/anim.PaletteFloats)
	}
	return nil
}
