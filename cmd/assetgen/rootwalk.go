package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// edgeRootWalk: a walker whose root travels, for root motion. A trunk of
// three joints (root "pelvis" at 0.5 m, then "spine", "head") in a body
// standing on the ground; clip "Walk" (1 s, LINEAR, 21 keys) carries the pelvis 0.8 m
// along +Z per loop with a 3 cm bob twice a loop and a 10° sway of the
// spine, and the loop closes except for the travel: a player without root
// motion snaps back 0.8 m at every wrap. Clip "TurnWalk" (2 s) travels
// 1 m along +Z while turning the pelvis 90° about Y.
func edgeRootWalk() ([]byte, error) {
	e := newEdgeDoc()
	js := chainJoints("j", 3, mgl64.Vec3{0, 0.5, 0}, mgl64.Vec3{0, 1, 0}, 0.4)
	js[0].name, js[1].name, js[2].name = "pelvis", "spine", "head"
	arm := e.node(gltfNode{Name: "Walker"})
	nodes := e.jointNodes(js, arm)
	mat := e.material(0.85, 0.55, 0.3)
	body := makeTube(mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0, 1, 0}, 1.3, 0.15, 20, 12) // feet on the ground
	attr, idx := e.geometry(body)
	e.skinAlong(attr, body, 0.5, 0.4, 0.12, []int{0, 1, 2})
	mesh := e.mesh("Body", mat, gltfPrimitive{Attributes: attr, Indices: intPtr(idx)})
	ibm := e.ibms(restIBMs(js))
	sk := e.skin("WalkerSkin", intPtr(ibm), intPtr(nodes[0]), nodes)
	bodyNode := e.node(gltfNode{Name: "Body", Mesh: intPtr(mesh), Skin: intPtr(sk)})
	e.scene(arm, bodyNode)
	var times, pelvis, sway []float64
	for k := 0; k <= 20; k++ {
		t := float64(k) / 20
		times = append(times, t)
		bob := 0.03 * (1 - math.Cos(4*math.Pi*t)) / 2
		pelvis = append(pelvis, 0, 0.5+bob, 0.8*t)
		sway = append(sway, math.Sin(2*math.Pi*t)*10)
	}
	e.animation("Walk",
		edgeChannel{node: nodes[0], path: "translation", interp: "LINEAR", times: times, values: pelvis},
		edgeChannel{node: nodes[1], path: "rotation", interp: "LINEAR", times: times, values: rotationKeys(mgl64.Vec3{0, 0, 1}, sway...)})
	var ttimes, tpos, tyaw []float64
	for k := 0; k <= 20; k++ {
		t := 2 * float64(k) / 20
		ttimes = append(ttimes, t)
		tpos = append(tpos, 0, 0.5, t/2)
		tyaw = append(tyaw, 45*t)
	}
	e.animation("TurnWalk",
		edgeChannel{node: nodes[0], path: "translation", interp: "LINEAR", times: ttimes, values: tpos},
		edgeChannel{node: nodes[0], path: "rotation", interp: "LINEAR", times: ttimes, values: rotationKeys(mgl64.Vec3{0, 1, 0}, tyaw...)})
	return e.encode()
}
