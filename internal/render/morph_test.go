package render

import (
	"math/rand"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltest"
	"github.com/skinview/skinview/internal/skin"
)

// randomTargets gives a mesh of n vertices t morph targets of random
// displacements (every fourth without normal displacements, every fifth
// without position displacements) and weights, most zero, some negative
// or above 1.
func randomTargets(seed int64, n, t int) ([]MorphTarget, []float32) {
	rng := rand.New(rand.NewSource(seed))
	targets := make([]MorphTarget, t)
	weights := make([]float32, t)
	for k := range targets {
		if k%5 != 0 {
			targets[k].Positions = make([]float32, n*3)
			for i := range targets[k].Positions {
				targets[k].Positions[i] = rng.Float32() - 0.5
			}
		}
		if k%4 != 0 {
			targets[k].Normals = make([]float32, n*3)
			for i := range targets[k].Normals {
				targets[k].Normals[i] = 0.3 * (rng.Float32() - 0.5)
			}
		}
		if k%11 == 3 {
			weights[k] = 2*rng.Float32() - 0.5
		}
	}
	return targets, weights
}

// morphCPU is the morph by the glTF formula, written out here: base plus
// the weighted displacements.
func morphCPU(base []float32, targets []MorphTarget, weights []float32, normals bool) []float32 {
	out := append([]float32(nil), base...)
	for k, tg := range targets {
		d := tg.Positions
		if normals {
			d = tg.Normals
		}
		for i := range d {
			out[i] += weights[k] * d[i]
		}
	}
	return out
}

// TestGPUMorphMatchesCPU records skin.vert's and skin_dq.vert's output for
// a mesh with 150 morph targets, 14 of non-zero weight, against morphing
// then skinning on the CPU; the same mesh drawn without weights is the
// plain skin.
func TestGPUMorphMatchesCPU(t *testing.T) {
	d, pal := randomSkin(13, 1500, 30)
	n := len(d.Positions) / 3
	targets, weights := randomTargets(17, n, 150)
	d.Targets = targets
	mp, mn := morphCPU(d.Positions, targets, weights, false), morphCPU(d.Normals, targets, weights, true)
	want := make([]float32, len(mp))
	wantN := make([]float32, len(mn))
	if err := skin.Skin4(want, wantN, mp, mn, d.Joints, d.Weights, pal); err != nil {
		t.Fatal(err)
	}
	dq := make([]float32, len(pal)/anim.PaletteFloats*skin.DualQuatFloats)
	skin.WriteDualQuats(dq, pal)
	wantDQ, wantDQN := make([]float32, len(mp)), make([]float32, len(mn))
	if err := skin.SkinDQ(wantDQ, wantDQN, mp, mn, d.Joints, d.Weights, dq); err != nil {
		t.Fatal(err)
	}
	plain := make([]float32, len(mp))
	if err := skin.Positions(plain, d.Positions, d.Joints, d.Weights, 4, pal); err != nil {
		t.Fatal(err)
	}
	var got, gotN, gotDQ, gotDQN, gotPlain []float32
	withMesh(t, d, func(r *Renderer, id MeshID) (err error) {
		if got, gotN, err = r.captureMorphed(id, pal, weights, LinearBlend); err != nil {
			return err
		}
		if gotDQ, gotDQN, err = r.captureMorphed(id, dq, weights, DualQuat); err != nil {
			return err
		}
		gotPlain, _, err = r.captureSkinned(id, pal, LinearBlend)
		return err
	})
	for _, c := range []struct {
		what       string
		got, want  []float32
		gotN, wntN []float32
	}{
		{"linear blend", got, want, gotN, wantN},
		{"dual quaternions", gotDQ, wantDQ, gotDQN, wantDQN},
		{"no weights", gotPlain, plain, nil, nil},
	} {
		if worst, at, _ := worstRelative(c.got, c.want); worst > 1e-5 {
			t.Errorf("%s: GPU and CPU differ by %.3g of the diagonal at vertex %d", c.what, worst, at/3)
		}
		if c.gotN != nil {
			if deg, v := worstAngle(c.gotN, c.wntN); deg > 0.01 {
				t.Errorf("%s: normals differ by %.3g° at vertex %d", c.what, deg, v)
			}
		}
	}
}

// TestMorphBlockLayout: the driver lays the Morph block out as morph.go
// packs it: a head vec4, then vec4 pairs at a 16-byte stride.
func TestMorphBlockLayout(t *testing.T) {
	gltest.Do(t, func() error {
		r, err := New()
		if err != nil {
			return err
		}
		defer r.Destroy()
		for _, p := range []program{r.lbs.prog, r.dq.prog} {
			if size := blockSize(p, "Morph"); size != morphBlockBytes {
				t.Errorf("Morph block is %d bytes, want %d", size, morphBlockBytes)
			}
		}
		return nil
	})
}

// blockSize is a uniform block's size as the driver laid it out.
func blockSize(p program, name string) int {
	blk := gl.GetUniformBlockIndex(uint32(p), gl.Str(name+"\x00"))
	var size int32
	gl.GetActiveUniformBlockiv(uint32(p), blk, gl.UNIFORM_BLOCK_DATA_SIZE, &size)
	return int(size)
}
