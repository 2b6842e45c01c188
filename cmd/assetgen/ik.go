package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// twoBoneIK bends a straight two-bone chain (root → mid → end, bone lengths
// l1 and l2) so its end reaches target. restDir is the chain's direction in
// the rest pose and restPole the direction, perpendicular to it, in which
// the middle joint points when the chain bends (forward for a knee); pole
// is where that joint should point now. It returns the model-space
// rotations of the two bones and whether the target was in reach (an
// unreachable target leaves the chain straight, pointing at it).
func twoBoneIK(root, target mgl64.Vec3, l1, l2 float64, restDir, restPole, pole mgl64.Vec3) (upper, lower mgl64.Quat, reached bool) {
	toTarget := target.Sub(root)
	d := toTarget.Len()
	reached = d <= (l1+l2)*(1-1e-9)
	d = max(min(d, (l1+l2)*(1-1e-9)), math.Abs(l1-l2)+1e-9)
	u := toTarget.Normalize()
	w := perpendicular(pole, u, restPole)
	cosA := (l1*l1 + d*d - l2*l2) / (2 * l1 * d)
	sinA := math.Sqrt(max(0, 1-cosA*cosA))
	mid := root.Add(u.Mul(l1 * cosA)).Add(w.Mul(l1 * sinA))
	end := root.Add(u.Mul(d))

	dUp := mid.Sub(root).Normalize()
	fUp := perpendicular(w, dUp, restPole)
	hinge := dUp.Cross(fUp)
	dLo := end.Sub(mid).Normalize()
	fLo := hinge.Cross(dLo)
	upper = basisRotation(restDir, restPole, dUp, fUp)
	lower = basisRotation(restDir, restPole, dLo, fLo)
	return upper, lower, reached
}
