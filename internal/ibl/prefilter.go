package ibl

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Prefilter builds the specular cube map of the split-sum approximation
// from an environment: levels mip levels of side size, size/2, …, where
// level k holds the environment convolved with GGX for perceptual
// roughness r = k/(levels−1), α = r², with N = V = R (Karis 2013).
//
// Level 0 is the environment resampled: the mean of 2×2 bilinear reads a
// texel, from a solid-angle-weighted box-filtered mip chain of src at the
// level whose pixel matches a quarter texel, so a large source does not
// alias and a small light keeps its energy. Level k ≥ 1 takes samples
// GGX half vectors per texel from the Hammersley set, reflects them to
// light directions L and averages the radiance weighted by n·l (samples
// with n·l ≤ 0 are dropped). Each sample reads a mip chain of level 0
// (2×2 means weighted by texel solid angle) at
// lod = ½·log2(Ωs/Ωp) + 1, Ωs = 1/(samples·pdf) the sample's solid angle,
// pdf = D(n·h)/4, Ωp = 4π/(6·size²) a texel's (filtered importance
// sampling, GPU Gems 3 ch. 20), so bright small lights blur instead of
// sparkling. A small light's solid-angle-weighted sum stays within 3 % of
// the source's at every level (TestPrefilterSpotEnergy).
//
// size is clamped to [1, 4096]; levels to [1, log2(size)+1]; samples to
// at least 1. src must have W, H ≥ 1 and 3·W·H values.
//
// Cost: eight bilinear reads per level-0 texel, and about 2·samples bilinear
// reads for each texel of levels 1…, spread over GOMAXPROCS goroutines
// (one job a face row); BenchmarkPrefilterDefault times the viewer's
// default (docs/performance.md has the figure).
func Prefilter(src *Equirect, size, levels, samples int) *Cube {
	size = min(max(size, 1), 4096)
	maxLevels := 1
	for s := size; s > 1; s >>= 1 {
		maxLevels++
	}
	levels = min(max(levels, 1), maxLevels)
	samples = max(samples, 1)

	c := &Cube{Size: size, Levels: levels, Faces: make([][6][]float32, levels)}
	for k := range c.Faces {
		n := size >> k
		for f := 0; f < 6; f++ {
			c.Faces[k][f] = make([]float32, 3*n*n)
		}
	}

	// Level 0: resample, reading the source mip whose pixel solid angle
	// (4π/(W·H) on average) matches the cube texel's (4π/(6·size²)).
	ech := newEquirectChain(src)
	lod0 := 0.5 * math.Log2(float64(src.W)*float64(src.H)/(6*float64(size)*float64(size)))
	parallelRows(size, func(f, j int) {
		row := c.Faces[0][f][3*j*size : 3*(j+1)*size]
		for i := 0; i < size; i++ {
			var r, g, b float64
			for _, o := range [4][2]float64{{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}} {
				x, y, z := cubeDir(f, (float64(i)+o[0])/float64(size), (float64(j)+o[1])/float64(size))
				r1, g1, b1 := ech.sample(x, y, z, lod0-1)
				r, g, b = r+r1/4, g+g1/4, b+b1/4
			}
			row[3*i], row[3*i+1], row[3*i+2] = float32(r), float32(g), float32(b)
		}
	})
	if levels == 1 {
		return c
	}

	cch := newCubeChain(size, c.Faces[0])
	omegaP := 4 * math.Pi / (6 * float64(size) * float64(size))
	for k := 1; k < levels; k++ {
		rough := float64(k) / float64(levels-1)
		table := ggxSamples(rough*rough, samples, omegaP, len(cch.size))
		n := size >> k
		out := c.Faces[k]
		parallelRows(n, func(f, j int) {
			row := out[f][3*j*n : 3*(j+1)*n]
			t := (float64(j) + 0.5) / float64(n)
			for i := 0; i < n; i++ {
				nx, ny, nz := cubeDir(f, (float64(i)+0.5)/float64(n), t)
				// Tangent frame about N.
				ux, uy, uz := 0.0, 0.0, 1.0
				if math.Abs(nz) > 0.999 {
					ux, uz = 1, 0
				}
				tx, ty, tz := uy*nz-uz*ny, uz*nx-ux*nz, ux*ny-uy*nx
				tl := math.Sqrt(tx*tx + ty*ty + tz*tz)
				tx, ty, tz = tx/tl, ty/tl, tz/tl
				bx, by, bz := ny*tz-nz*ty, nz*tx-nx*tz, nx*ty-ny*tx
				var sr, sg, sb, sw float64
				for _, s := range table {
					lx := tx*s.x + bx*s.y + nx*s.z
					ly := ty*s.x + by*s.y + ny*s.z
					lz := tz*s.x + bz*s.y + nz*s.z
					face, fs, ft := cubeFace(lx, ly, lz)
					r, g, b := cch.bilinear(s.l0, face, fs, ft)
					if s.f > 0 {
						r1, g1, b1 := cch.bilinear(s.l0+1, face, fs, ft)
						r, g, b = r+s.f*(r1-r), g+s.f*(g1-g), b+s.f*(b1-b)
					}
					sr += r * s.z
					sg += g * s.z
					sb += b * s.z
					sw += s.z
				}
				if sw > 0 {
					sr, sg, sb = sr/sw, sg/sw, sb/sw
				}
				row[3*i], row[3*i+1], row[3*i+2] = float32(sr), float32(sg), float32(sb)
			}
		})
	}
	return c
}

// ggxSample is one light direction in the tangent frame of N = V (z is
// n·l, its weight) and the source mip level it reads: l0, and l0+1 with
// weight f where f > 0.
type ggxSample struct {
	x, y, z, f float64
	l0         int
}

// ggxSamples importance-samples GGX of roughness α with n Hammersley
// points, keeping those with n·l > 0, for a source chain of mips levels. With N = V, n·h = v·h, so the pdf
// of L is D(n·h)/4.
func ggxSamples(alpha float64, n int, omegaP float64, mips int) []ggxSample {
	a2 := alpha * alpha
	out := make([]ggxSample, 0, n)
	for i := 0; i < n; i++ {
		xi1, xi2 := float64(i)/float64(n), radicalInverse(uint32(i))
		phi := 2 * math.Pi * xi1
		cosT := math.Sqrt((1 - xi2) / (1 + (a2-1)*xi2))
		sinT := math.Sqrt(max(0, 1-cosT*cosT))
		hx, hy, hz := sinT*math.Cos(phi), sinT*math.Sin(phi), cosT
		// L = 2(V·H)H − V with V = (0, 0, 1).
		lx, ly, lz := 2*hz*hx, 2*hz*hy, 2*hz*hz-1
		if lz <= 0 {
			continue
		}
		d := (a2-1)*cosT*cosT + 1
		D := a2 / (math.Pi * d * d)
		pdf := D / 4
		omegaS := 1 / (float64(n)*pdf + 1e-30)
		lod := max(0.5*math.Log2(omegaS/omegaP)+1, 0)
		l0, _, f := lodSplit(mips, lod)
		out = append(out, ggxSample{x: lx, y: ly, z: lz, f: f, l0: l0})
	}
	return out
}

// radicalInverse is the van der Corput sequence in base 2.
func radicalInverse(b uint32) float64 {
	b = (b << 16) | (b >> 16)
	b = ((b & 0x55555555) << 1) | ((b & 0xAAAAAAAA) >> 1)
	b = ((b & 0x33333333) << 2) | ((b & 0xCCCCCCCC) >> 2)
	b = ((b & 0x0F0F0F0F) << 4) | ((b & 0xF0F0F0F0) >> 4)
	b = ((b & 0x00FF00FF) << 8) | ((b & 0xFF00FF00) >> 8)
	return float64(b) * (1.0 / 4294967296.0)
}

// parallelRows runs fn for every (face, row) of six faces of n rows on
// GOMAXPROCS goroutines.
func parallelRows(n int, fn func(face, row int)) {
	total := 6 * n
	workers := min(runtime.GOMAXPROCS(0), total)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= total {
					return
				}
				fn(k/n, k%n)
			}
		}()
	}
	wg.Wait()
}
