package main

import (
	"fmt"
	"image/color"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The twist asset is a 1 m arm lying along +X: joints upper (the root, at
// the shoulder end), forearm (at the elbow) and wrist (at the far end). The
// forearm's skin hands over from forearm to wrist gradually, as a real
// forearm's does, so when the wrist turns 180 degrees about the limb's axis
// linear blend skinning collapses the middle of the forearm onto the axis
// (the "candy wrapper"), while dual-quaternion skinning keeps its volume.
const (
	twistLength  = 1.0
	twistElbow   = 0.4
	twistRadius  = 0.05
	twistRings   = 41
	twistPeriod  = 2.0 // the Twist loop: 0 to 180 degrees and back
	twistTexSize = 64
)

const (
	twUpper = iota
	twForearm
	twWrist
	twJoints
)

func twistSkeleton() []joint {
	js := []joint{
		twUpper:   {name: "upper", parent: -1, pos: mgl64.Vec3{0, 0, 0}},
		twForearm: {name: "forearm", parent: twUpper, pos: mgl64.Vec3{twistElbow, 0, 0}},
		twWrist:   {name: "wrist", parent: twForearm, pos: mgl64.Vec3{twistLength, 0, 0}},
	}
	snapJoints(js)
	return js
}

// twistWeights: the upper arm blends into the forearm around the elbow, and
// along the forearm the wrist's share rises linearly from 0 just past the
// elbow to 1 at the wrist, so its 50 % point (where LBS collapses at 180
// degrees) is near the middle of the forearm.
func twistWeights(s float64) []influence {
	const start = twistElbow + 0.05
	elbow := smoothstep(twistElbow-0.05, twistElbow+0.05, s)
	wrist := mgl64.Clamp((s-start)/(twistLength-start), 0, 1)
	return []influence{{twUpper, 1 - elbow}, {twForearm, elbow * (1 - wrist)}, {twWrist, elbow * wrist}}
}

func twistMesh() (*meshData, error) {
	// Flat end caps: a pole ring right next to each end ring keeps their
	// normals almost axial.
	rings := []ring{{s: 0}, {s: 0.0005, r1: twistRadius, r2: twistRadius}}
	for k := 1; k < twistRings-1; k++ {
		s := twistLength * float64(k) / float64(twistRings-1)
		rings = append(rings, ring{s: s, r1: twistRadius, r2: twistRadius})
	}
	rings = append(rings, ring{s: twistLength - 0.0005, r1: twistRadius, r2: twistRadius}, ring{s: twistLength})
	m := &meshData{}
	err := m.addPart(part{
		name: "arm", origin: mgl64.Vec3{0, 0, 0}, axis: mgl64.Vec3{1, 0, 0}, rings: rings,
		segments: 24, exponent: 1,
		uvMap: func(fu, _, s float64) [2]float64 {
			return [2]float64{fu, s / 0.1}
		},
		weights: along(twistWeights),
	})
	return m, err
}

// twistTexel is the texel in column x of row y of the limb's
// twistTexSize-square texture: four lengthwise stripes around the limb (so
// the twist shows as a spiral) and a dark ring every 10 cm (so a collapse
// shows as rings pinching together).
func twistTexel(x, y int) color.NRGBA {
	if y < 5 {
		return color.NRGBA{40, 40, 48, 255}
	}
	stripes := [...]color.NRGBA{{220, 60, 50, 255}, {245, 240, 230, 255}, {50, 90, 200, 255}, {245, 240, 230, 255}}
	return stripes[x*len(stripes)/twistTexSize]
}

// twistAngle is the wrist's twist in degrees at time t of the Twist loop.
func twistAngle(t float64) float64 {
	return 180 * (1 - math.Cos(2*math.Pi*t/twistPeriod)) / 2
}

func twist() ([]byte, error) {
	js := twistSkeleton()
	mesh, err := twistMesh()
	if err != nil {
		return nil, fmt.Errorf("building mesh: %w", err)
	}
	a := &skinnedAsset{
		rootName: "Arm", meshName: "Limb", skinName: "ArmRig",
		joints: js, mesh: mesh, texture: paintTexture(twistTexSize, twistTexel),
		clips: []clip{
			{name: "Twist", duration: twistPeriod, loop: true, sample: func(p *pose, t float64) {
				p.rot[twWrist] = rotX(twistAngle(t))
			}},
			{name: "Twist180", sample: func(p *pose, _ float64) { p.rot[twWrist] = rotX(180) }},
		},
		sampler: gltfSampler{MagFilter: filterNearest, MinFilter: filterLinear, WrapS: wrapRepeat, WrapT: wrapRepeat},
		material: gltfMaterial{
			Name: "Stripes",
			PBR:  gltfPBR{BaseColorFactor: [4]float64{1, 1, 1, 1}, MetallicFactor: 0, RoughnessFactor: 0.7},
		},
	}
	return a.encode()
}
