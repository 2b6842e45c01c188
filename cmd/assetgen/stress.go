package main

import (
	"fmt"
	"image/color"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The stress asset is a millipede: a chain of body segments, each with a
// pair of three-jointed legs, plus a head with two antennae. It has far more
// joints than one draw call's palette holds, while each triangle only
// references the two or three joints next to it, which is what a bone
// partitioner needs to split it well.
const (
	mpSegments  = 48
	mpSegLen    = 0.08
	mpBodyY     = 0.16 // height of the body axis
	mpBodyR     = 0.055
	mpLegJoints = 3
	mpAntJoints = 4
	mpPeriod    = 2.0 // seconds per loop of the crawl
	mpStep      = 0.5 // seconds per leg cycle; the loop holds four
)

// Millipede joint layout: the segments first (seg_00 is the root, at the
// head end, and each later segment is the child of the one in front), then
// the head and the antennae, then the legs segment by segment.
const (
	mpHead      = mpSegments
	mpAntennaL  = mpHead + 1
	mpAntennaR  = mpAntennaL + mpAntJoints
	mpFirstLeg  = mpAntennaR + mpAntJoints
	mpJointsAll = mpFirstLeg + mpSegments*2*mpLegJoints
)

var mpLegBones = [mpLegJoints]float64{0.05, 0.09, 0.11}

// mpLegJoint is joint k of the leg on one side of segment i.
func mpLegJoint(i int, side float64, k int) int {
	s := 0
	if side < 0 {
		s = 1
	}
	return mpFirstLeg + (i*2+s)*mpLegJoints + k
}

// mpLegDir is a leg's rest direction: out and down to the ground.
func mpLegDir(side float64) mgl64.Vec3 {
	l := mpLegBones[0] + mpLegBones[1] + mpLegBones[2]
	drop := mpBodyY - 0.005
	return mgl64.Vec3{side * math.Sqrt(l*l-drop*drop), -drop, 0}.Normalize()
}

func mpAntDir(side float64) mgl64.Vec3 { return mgl64.Vec3{side * 0.45, 0.55, 1}.Normalize() }

func millipedeSkeleton() []joint {
	js := make([]joint, mpJointsAll)
	front := float64(mpSegments) * mpSegLen / 2
	for i := 0; i < mpSegments; i++ {
		js[i] = joint{name: fmt.Sprintf("seg_%02d", i), parent: i - 1, pos: mgl64.Vec3{0, mpBodyY, front - float64(i)*mpSegLen}}
	}
	js[mpHead] = joint{name: "head", parent: 0, pos: js[0].pos.Add(mgl64.Vec3{0, 0.01, 0.05})}
	for _, side := range []float64{1, -1} {
		first, suffix := mpAntennaL, ".L"
		if side < 0 {
			first, suffix = mpAntennaR, ".R"
		}
		p := js[mpHead].pos.Add(mgl64.Vec3{side * 0.025, 0.03, 0.04})
		for k := 0; k < mpAntJoints; k++ {
			parent := first + k - 1
			if k == 0 {
				parent = mpHead
			}
			js[first+k] = joint{name: fmt.Sprintf("antenna_%d%s", k+1, suffix), parent: parent, pos: p}
			p = p.Add(mpAntDir(side).Mul(0.05))
		}
	}
	for i := 0; i < mpSegments; i++ {
		for _, side := range []float64{1, -1} {
			suffix := ".L"
			if side < 0 {
				suffix = ".R"
			}
			p := js[i].pos.Add(mgl64.Vec3{side * mpBodyR * 0.8, -0.01, -mpSegLen * 0.3})
			for k := 0; k < mpLegJoints; k++ {
				parent := mpLegJoint(i, side, k-1)
				if k == 0 {
					parent = i
				}
				js[mpLegJoint(i, side, k)] = joint{name: fmt.Sprintf("leg_%02d_%d%s", i, k+1, suffix), parent: parent, pos: p}
				p = p.Add(mpLegDir(side).Mul(mpLegBones[k]))
			}
		}
	}
	snapJoints(js)
	return js
}

// Millipede texture: a 64x64 atlas whose left 48 columns wrap around the
// body (the seam along the belly) and repeat along it once per segment, and
// whose right columns are the leg colour.
const mpAtlas = 64

func mpBodyUV(fu, _, s float64) [2]float64 {
	return [2]float64{(1 + fu*46) / mpAtlas, s / mpSegLen}
}

func mpLegUV(_, fv, _ float64) [2]float64 {
	return [2]float64{56.0 / mpAtlas, (4 + fv*56) / mpAtlas}
}

// millipedeTexel is the texel in column x of row y of the millipede's
// mpAtlas × mpAtlas texture: the legs' strip right of column 48, the body
// left of it.
func millipedeTexel(x, y int) color.NRGBA {
	if x >= 48 {
		if y > 48 {
			return color.NRGBA{70, 40, 30, 255} // the leg's tip
		}
		return color.NRGBA{230, 150, 70, 255} // the leg
	}
	shell := color.NRGBA{122, 52, 34, 255}
	band := color.NRGBA{58, 28, 22, 255}
	belly := color.NRGBA{214, 170, 110, 255}
	spot := color.NRGBA{240, 196, 64, 255}
	v := (float64(y) + 0.5) / mpAtlas                     // along the segment
	fu := math.Max(0, math.Min(1, (float64(x)+0.5-1)/46)) // 0 and 1 at the belly
	top := math.Abs(fu - 0.5)                             // 0 on the back
	switch {
	case top > 0.3:
		return belly
	case v < 0.14 || v > 0.93:
		return band // the joint between segments
	case math.Abs(top-0.13) < 0.04 && v > 0.35 && v < 0.65:
		return spot // a pair of spots on each segment
	}
	return shell
}

func millipedeMesh(js []joint) (*meshData, error) {
	m := &meshData{}
	// The body: one tube from the head to the tail, four rings per
	// segment, narrowing at each joint so the segments read.
	var rings []ring
	rings = append(rings, ring{s: -0.04})
	const perSeg = 4
	n := mpSegments * perSeg
	for k := 0; k <= n; k++ {
		s := float64(k) * mpSegLen / perSeg
		taper := 1 - 0.55*smoothstep(float64(mpSegments-6)*mpSegLen, float64(mpSegments)*mpSegLen, s)
		pinch := 1 - 0.12*math.Pow(math.Cos(math.Pi*s/mpSegLen), 8)
		r := mpBodyR * taper * pinch
		rings = append(rings, ring{s: s, r1: r * 0.85, r2: r})
	}
	rings = append(rings, ring{s: float64(mpSegments)*mpSegLen + 0.02})
	segs := make([]int, mpSegments)
	bounds := make([]boundary, mpSegments-1)
	for i := range segs {
		segs[i] = i
		if i > 0 {
			bounds[i-1] = boundary{float64(i) * mpSegLen, 0.025}
		}
	}
	body := chainWeights(segs, bounds)
	parts := []part{{
		name: "body", origin: js[0].pos, axis: mgl64.Vec3{0, 0, -1}, rings: rings,
		segments: 14, exponent: 1, uvMap: mpBodyUV, weights: along(body),
	}}
	parts = append(parts, part{
		name: "head", origin: js[mpHead].pos, axis: mgl64.Vec3{0, 0, 1},
		rings: ellipsoidRings(8, 0, 0.06, 0.04, 0.055), segments: 14, exponent: 1, uvMap: mpBodyUV,
		weights: along(chainWeights([]int{0, mpHead}, []boundary{{-0.04, 0.02}})),
	})
	for _, side := range []float64{1, -1} {
		first := mpAntennaL
		if side < 0 {
			first = mpAntennaR
		}
		ant := []int{mpHead}
		var ab []boundary
		for k := 0; k < mpAntJoints; k++ {
			ant = append(ant, first+k)
			ab = append(ab, boundary{float64(k) * 0.05, 0.01})
		}
		parts = append(parts, part{
			name: "antenna", origin: js[first].pos, axis: mpAntDir(side),
			rings: []ring{{s: -0.01}, {s: 0, r1: 0.008, r2: 0.008}, {s: 0.1, r1: 0.006, r2: 0.006},
				{s: 0.19, r1: 0.004, r2: 0.004}, {s: 0.2}},
			segments: 6, exponent: 1, uvMap: mpLegUV, weights: along(chainWeights(ant, ab)),
		})
		for i := 0; i < mpSegments; i++ {
			l1, l2, l3 := mpLegBones[0], mpLegBones[1], mpLegBones[2]
			parts = append(parts, part{
				name: "leg", origin: js[mpLegJoint(i, side, 0)].pos, axis: mpLegDir(side),
				rings: []ring{
					{s: -0.012}, {s: -0.006, r1: 0.011, r2: 0.011}, {s: 0.02, r1: 0.01, r2: 0.01},
					{s: l1, r1: 0.009, r2: 0.009}, {s: l1 + l2*0.5, r1: 0.008, r2: 0.008},
					{s: l1 + l2, r1: 0.007, r2: 0.007}, {s: l1 + l2 + l3*0.6, r1: 0.005, r2: 0.005},
					{s: l1 + l2 + l3},
				},
				segments: 6, exponent: 1, uvMap: mpLegUV,
				weights: along(chainWeights(
					[]int{i, mpLegJoint(i, side, 0), mpLegJoint(i, side, 1), mpLegJoint(i, side, 2)},
					[]boundary{{0, 0.008}, {l1, 0.01}, {l1 + l2, 0.012}})),
			})
		}
	}
	for _, p := range parts {
		if err := m.addPart(p); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// crawl is the millipede's 2 s loop: a travelling wave of sideways bends
// runs down the body, and the legs step in a metachronal wave (each pair a
// little behind the pair in front, left and right in antiphase). Every joint
// moves.
func crawl(p *pose, t float64) {
	w := 2 * math.Pi * t / mpPeriod
	for i := 0; i < mpSegments; i++ {
		ph := w - 2*math.Pi*float64(i)/16
		p.rot[i] = chain(rotY(3.5*math.Sin(ph)), rotX(1.2*math.Sin(2*ph)))
		for _, side := range []float64{1, -1} {
			lp := 2*math.Pi*t/mpStep - 2*math.Pi*float64(i)*0.09
			if side < 0 {
				lp += math.Pi
			}
			swing := math.Sin(lp)             // +1 forward
			lift := math.Max(0, math.Cos(lp)) // raised while moving forward
			p.rot[mpLegJoint(i, side, 0)] = chain(rotY(-side*22*swing), rotZ(side*(4+12*lift)))
			p.rot[mpLegJoint(i, side, 1)] = rotZ(side * (10*lift - 4))
			p.rot[mpLegJoint(i, side, 2)] = axisAngle(mgl64.Vec3{0, 0, 1}, -side*(8+14*lift))
		}
	}
	p.rot[mpHead] = chain(rotX(-6+4*math.Sin(w*2)), rotY(8*math.Sin(w+1)))
	for _, side := range []float64{1, -1} {
		first := mpAntennaL
		if side < 0 {
			first = mpAntennaR
		}
		for k := 0; k < mpAntJoints; k++ {
			ph := 2*w + float64(k)*0.8 + side
			p.rot[first+k] = chain(rotX(10*math.Sin(ph)), rotY(side*8*math.Cos(ph)))
		}
	}
	p.root = p.root.Add(mgl64.Vec3{0, 0.006 * math.Sin(4*w), 0})
}

func stress() ([]byte, error) {
	js := millipedeSkeleton()
	mesh, err := millipedeMesh(js)
	if err != nil {
		return nil, fmt.Errorf("building mesh: %w", err)
	}
	a := &skinnedAsset{
		rootName: "Millipede", meshName: "MillipedeBody", skinName: "MillipedeRig",
		joints: js, mesh: mesh, texture: paintTexture(mpAtlas, millipedeTexel),
		clips:   []clip{{name: "Crawl", duration: mpPeriod, loop: true, sample: crawl}},
		sampler: gltfSampler{MagFilter: filterLinear, MinFilter: filterLinear, WrapS: wrapClampToEdge, WrapT: wrapRepeat},
		material: gltfMaterial{
			Name: "Shell",
			PBR:  gltfPBR{BaseColorFactor: [4]float64{1, 1, 1, 1}, MetallicFactor: 0, RoughnessFactor: 0.6},
		},
		morph: millipedeMorph(mesh),
	}
	return a.encode()
}
