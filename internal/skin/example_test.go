package skin_test

import (
	"fmt"

	"github.com/skinview/skinview/internal/skin"
)

// A ribbon of three quads over four joints, one joint per ring of two
// vertices, drawn with a palette of three joints: the first partition takes
// joints 0–2 (quads 0 and 1), the second joints 2–3 (quad 2), and the ring
// on their border is copied.
func ExamplePlanPartitions() {
	var joints []uint16
	var weights []float32
	for ring := 0; ring < 4; ring++ {
		for side := 0; side < 2; side++ {
			joints = append(joints, uint16(ring), 0, 0, 0)
			weights = append(weights, 1, 0, 0, 0)
		}
	}
	var indices []uint32
	for q := uint32(0); q < 3; q++ {
		a := 2 * q
		indices = append(indices, a, a+2, a+1, a+1, a+2, a+3)
	}

	plan, err := skin.PlanPartitions(indices, joints, weights, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, p := range plan.Partitions {
		fmt.Printf("partition %d: joints %v, %d triangles, vertices %d–%d\n",
			i, p.Joints, len(p.Indices)/3, p.FirstVertex, p.FirstVertex+p.NumVertices-1)
	}
	fmt.Println("sources:", plan.Source)
	fmt.Println("duplicated:", plan.Duplicated)

	// Each frame: the partition's palette from the skin's.
	full := make([]float32, 4*12)
	local := make([]float32, 3*12)
	skin.GatherPalette(local, full, plan.Partitions[1].Joints)

	_, err = skin.PlanPartitions(indices, joints, weights, 1)
	fmt.Println(err)
	// Output:
	// partition 0: joints [0 1 2], 4 triangles, vertices 0–5
	// partition 1: joints [2 3], 2 triangles, vertices 6–9
	// sources: [0 2 1 3 4 5 4 6 5 7]
	// duplicated: 2
	// skin: triangle 0 (vertices 0, 2, 1) references 2 joints; a partition holds at most 1
}

// Framing a skinned mesh without skinning it: per-joint boxes once at load
// time, then each frame the union of the boxes moved by their joints.
func ExamplePosedBounds() {
	positions := []float32{
		0, 0, 0, // on joint 0
		0, 1, 0, // half on each
		0, 2, 0, // on joint 1
	}
	joints := []uint16{0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0}
	weights := []float32{1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0}
	boxes, err := skin.JointBounds(positions, joints, weights, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Joint 0 stays; joint 1 moves 3 along x (rows of a 3×4 matrix).
	palette := []float32{
		1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
		1, 0, 0, 3, 0, 1, 0, 0, 0, 0, 1, 0,
	}
	lo, hi, ok := skin.PosedBounds(boxes, palette)
	fmt.Println(lo, hi, ok)
	// Output:
	// [0 0 0] [3 2 0] true
}
