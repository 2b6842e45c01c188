package main

import (
	"fmt"
	"math"
	"sort"

	"github.com/go-gl/mathgl/mgl64"
)

type influence struct {
	joint int
	w     float64
}

// boundary is where a chain of bones hands over from one joint to the next,
// at position s along a part, blending over s-radius .. s+radius.
type boundary struct{ s, radius float64 }

// chainWeights skins a part that runs through a chain of joints. Near each
// boundary the vertex blends between the joint before and after it; between
// boundaries it is rigid. The weights telescope (c[k] - c[k+1]), so they sum
// to one by construction. Both parts meeting at a joint use the same
// boundary, so they bend together.
func chainWeights(joints []int, bounds []boundary) func(s float64) []influence {
	if len(joints) != len(bounds)+1 {
		panic("chainWeights: need one more joint than boundaries")
	}
	return func(s float64) []influence {
		// c[k] is how far the vertex has crossed into joint k.
		c := make([]float64, len(joints)+1)
		c[0] = 1
		for k, b := range bounds {
			c[k+1] = smoothstep(b.s-b.radius, b.s+b.radius, s)
		}
		var out []influence
		for k, j := range joints {
			if w := c[k] - c[k+1]; w > 0 {
				out = append(out, influence{j, w})
			}
		}
		return out
	}
}

// along adapts a chain that only depends on s to a part weight function.
func along(f func(s float64) []influence) func(float64, mgl64.Vec3) []influence {
	return func(s float64, _ mgl64.Vec3) []influence { return f(s) }
}

const (
	maxInfluences = 4
	// minWeight drops influences too small to see, so a vertex never carries
	// a joint it does not visibly follow.
	minWeight = 0.002
)

// packInfluences turns raw influences into the JOINTS_0/WEIGHTS_0 layout:
// at most four distinct joints, heaviest first, unused slots (0, 0), and
// float32 weights whose sum is 1 to within float32 rounding.
func packInfluences(in []influence) ([4]uint16, [4]float32, error) {
	var js [4]uint16
	var ws [4]float32

	merged := mergeInfluences(in)
	sort.SliceStable(merged, func(a, b int) bool {
		if merged[a].w != merged[b].w {
			return merged[a].w > merged[b].w
		}
		return merged[a].joint < merged[b].joint
	})
	if len(merged) > maxInfluences {
		merged = merged[:maxInfluences]
	}
	total := 0.0
	for _, inf := range merged {
		total += inf.w
	}
	if len(merged) == 0 || total <= 0 {
		return js, ws, fmt.Errorf("vertex has no joint influence")
	}

	sum := 0.0
	for i, inf := range merged {
		js[i] = uint16(inf.joint)
		ws[i] = float32(inf.w / total)
		sum += float64(ws[i])
	}
	// Rounding to float32 can leave the sum a few ulps off; the heaviest
	// weight absorbs the difference, where it matters least.
	ws[0] = float32(float64(ws[0]) + (1 - sum))
	check := 0.0
	for _, w := range ws {
		check += float64(w)
	}
	if math.Abs(check-1) > 1e-6 {
		return js, ws, fmt.Errorf("weights sum to %v", check)
	}
	return js, ws, nil
}

// mergeInfluences sums duplicate joints and drops negligible weights.
func mergeInfluences(in []influence) []influence {
	var out []influence
	for _, inf := range in {
		found := false
		for i := range out {
			if out[i].joint == inf.joint {
				out[i].w += inf.w
				found = true
				break
			}
		}
		if !found {
			out = append(out, inf)
		}
	}
	kept := out[:0]
	for _, inf := range out {
		if inf.w >= minWeight {
			kept = append(kept, inf)
		}
	}
	return kept
}
