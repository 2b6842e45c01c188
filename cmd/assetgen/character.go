package main

import "fmt"

// character builds assets/character.glb: the default humanoid.
func character() ([]byte, error) {
	js := skeleton()
	body, err := buildBody(js)
	if err != nil {
		return nil, fmt.Errorf("building mesh: %w", err)
	}
	a := &skinnedAsset{
		rootName: "Character", meshName: "Body", skinName: "Armature",
		joints: js, mesh: body, texture: buildTexture(), sampler: mipmappedRepeat, clips: humanClips(js),
		material: gltfMaterial{
			Name: "Outfit",
			PBR: gltfPBR{
				// A warm tint rather than white, so a viewer that ignores the
				// factor is noticeably different from one that applies it.
				BaseColorFactor: [4]float64{1, 0.95, 0.9, 1},
				MetallicFactor:  0,
				RoughnessFactor: 0.8,
			},
		},
	}
	return a.encode()
}

// sideJoints returns the left or right variant of a joint.
func sideJoints(side float64, left, right int) int {
	if side > 0 {
		return left
	}
	return right
}
