package render

import "math"

// dfgSize is the side of the DFG table: roughness along x, the cosine
// between normal and view along y, each at texel centres (i + ½)/dfgSize.
const dfgSize = 16

// dfgTable integrates the split-sum terms of the GGX specular lobe
// (Karis, "Real Shading in Unreal Engine 4", 2013) for each texel: the
// directional albedo of the lobe is F0·A + F90·B, with A = ∫(1 − Fc)·w
// and B = ∫Fc·w over the half vectors importance-sampled from GGX (α =
// roughness²), w the microfacet BRDF times cos θl over the sample's
// density (height-correlated Smith visibility), Fc Schlick's (1 − v·h)⁵.
// It returns RG pairs, row by row (y the cosine), samples per texel each.
func dfgTable(samples int) []float32 {
	out := make([]float32, 0, dfgSize*dfgSize*2)
	for j := range dfgSize {
		nv := (float64(j) + 0.5) / dfgSize
		for i := range dfgSize {
			r := (float64(i) + 0.5) / dfgSize
			a, b := dfgAt(r, nv, samples)
			out = append(out, float32(a), float32(b))
		}
	}
	return out
}

// dfgAt is (A, B) at perceptual roughness r and n·v = nv.
func dfgAt(r, nv float64, samples int) (a, b float64) {
	alpha := r * r
	a2 := alpha * alpha
	vx, vz := math.Sqrt(1-nv*nv), nv // the view in the x–z plane, n = +z
	for k := range samples {
		// Hammersley point k: (k/N, radical inverse of k in base 2).
		u := float64(k) / float64(samples)
		v := float64(reverseBits(uint32(k))) / (1 << 32)
		// GGX half vector: cos²θh = (1 − v)/(1 + (α² − 1)·v).
		phi := 2 * math.Pi * u
		cosT := math.Sqrt((1 - v) / (1 + (a2-1)*v))
		sinT := math.Sqrt(1 - cosT*cosT)
		hx, hy, hz := sinT*math.Cos(phi), sinT*math.Sin(phi), cosT
		vh := vx*hx + vz*hz
		// l = 2(v·h)h − v
		lz := 2*vh*hz - vz
		_ = hy
		if lz <= 0 || vh <= 0 {
			continue
		}
		nl, nh := lz, hz
		gv := nl * math.Sqrt(a2+(1-a2)*nv*nv)
		gl := nv * math.Sqrt(a2+(1-a2)*nl*nl)
		vis := 0.5 / (gv + gl)
		w := vis * 4 * nl * vh / nh
		fc := math.Pow(1-vh, 5)
		a += (1 - fc) * w
		b += fc * w
	}
	return a / float64(samples), b / float64(samples)
}

// reverseBits mirrors the 32 bits of x (the base-2 radical inverse).
func reverseBits(x uint32) uint32 {
	x = x<<16 | x>>16
	x = (x&0x00ff00ff)<<8 | (x&0xff00ff00)>>8
	x = (x&0x0f0f0f0f)<<4 | (x&0xf0f0f0f0)>>4
	x = (x&0x33333333)<<2 | (x&0xcccccccc)>>2
	x = (x&0x55555555)<<1 | (x&0xaaaaaaaa)>>1
	return x
}
