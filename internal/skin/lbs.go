package skin

import (
	"fmt"
	"math"
)

// GatherPalette copies the palette entries a partition is drawn with:
// dst entry i = full entry joints[i], paletteFloats floats each. It
// allocates nothing, so it can run per partition per frame. dst must hold
// paletteFloats·len(joints) floats and every joint must index full; the
// loader checks joints against the skin and the plan only holds joints the
// primitive uses, so a violation is a programmer error and panics.
func GatherPalette(dst []float32, full []float32, joints []uint16) {
	if len(dst) < len(joints)*paletteFloats {
		panic(fmt.Sprintf("skin: GatherPalette: dst holds %d floats for %d joints", len(dst), len(joints)))
	}
	entries := len(full) / paletteFloats
	for i, j := range joints {
		if int(j) >= entries {
			panic(fmt.Sprintf("skin: GatherPalette: joint %d is outside a palette of %d entries", j, entries))
		}
		src := full[int(j)*paletteFloats : int(j)*paletteFloats+paletteFloats]
		copy(dst[i*paletteFloats:i*paletteFloats+paletteFloats], src)
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
	s := float32(1 / math.Sqrt(float64(l2)))
	if det < 0 {
		s = -s
	}
	return ox * s, oy * s, oz * s
}

// skin4 is the kernel of Skin4 and Normals, for n vertices whose slices
// the caller has checked. Per vertex it blends M = Σ wᵢ·Pᵢ in the shader's
// order, skipping zero weights (the shader multiplies them in, which adds
// exact zeros for a finite palette), then writes what was asked. The twelve
// sums are locals so that they stay in registers. It returns the first
// vertex using a joint outside the palette, and that joint, or -1.
func skin4(dstPos, dstNrm, pos, nrm []float32, joints []uint16, weights []float32, palette []float32, n int) (badV, badJ int) {
	entries := len(palette) / paletteFloats
	doPos, doNrm := pos != nil, nrm != nil
	for v := 0; v < n; v++ {
		js := (*[Influences]uint16)(joints[v*Influences:])
		ws := (*[Influences]float32)(weights[v*Influences:])
		if doPos {
			p := (*[3]float32)(pos[v*3:])
			x, y, z := p[0], p[1], p[2]
			var ox, oy, oz float32
			for k := 0; k < Influences; k++ {
				w := ws[k]
				if w == 0 {
					continue
				}
				j := int(js[k])
				if j >= entries {
					return v, j
				}
				m := (*[paletteFloats]float32)(palette[j*paletteFloats:])
				ox += w * (m[0]*x + m[1]*y + m[2]*z + m[3])
				oy += w * (m[4]*x + m[5]*y + m[6]*z + m[7])
				oz += w * (m[8]*x + m[9]*y + m[10]*z + m[11])
			}
			o := (*[3]float32)(dstPos[v*3:])
			o[0], o[1], o[2] = ox, oy, oz
		}
		if doNrm {
			var m0, m1, m2, m4, m5, m6, m8, m9, m10 float32
			for k := 0; k < Influences; k++ {
				w := ws[k]
				if w == 0 {
					continue
				}
				j := int(js[k])
				if j >= entries {
					return v, j
				}
				p := (*[paletteFloats]float32)(palette[j*paletteFloats:])
				m0 += w * p[0]
				m1 += w * p[1]
				m2 += w * p[2]
				m4 += w * p[4]
				m5 += w * p[5]
				m6 += w * p[6]
				m8 += w * p[8]
				m9 += w * p[9]
				m10 += w * p[10]
			}
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
// are used as given. dst slices may alias their inputs. Skin4 allocates
// nothing; it is the CPU skinning path.
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
		return fmt.Errorf("skin: vertex %d uses joint %d; the palette has %d", v, j, len(palette)/paletteFloats)
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
		return fmt.Errorf("skin: vertex %d uses joint %d; the palette has %d", v, j, len(palette)/paletteFloats)
	}
	return nil
}
