package main

// twoBoneIK bends a straight two-bone chain (root → mid → end, bone lengths
// l1 and l2) so its end reaches target. restDir is the chain's direction in
// the rest pose and restPole the direction, perpendicular to it, in which
// the middle joint points when the chain bends (forward for a knee); pole
// is where that joint should point now. It returns the model-space
// rotations of the two bones and whether the target was in reach (an
// unreachable target leaves the chain straight, pointing at it).
func twoBoneIK(root, target vec3, l1, l2 float64, restDir, restPole, pole vec3) (upper, lower quat, reached bool) {
	toTarget := target.sub(root)
	d := toTarget.length()
	reached = d <= (l1+l2)*(1-1e-9)
	d = max(min(d, (l1+l2)*(1-1e-9)), abs(l1-l2)+1e-9)
	u := toTarget.normalize()
	w := perpendicular(pole, u, restPole)
	cosA := (l1*l1 + d*d - l2*l2) / (2 * l1 * d)
	sinA := sqrt(max(0, 1-cosA*cosA))
	mid := root.add(u.scale(l1 * cosA)).add(w.scale(l1 * sinA))
	end := root.add(u.scale(d))

	dUp := mid.sub(root).normalize()
	fUp := perpendicular(w, dUp, restPole)
	hinge := dUp.cross(fUp)
	dLo := end.sub(mid).normalize()
	fLo := hinge.cross(dLo)
	upper = basisRotation(restDir, restPole, dUp, fUp)
	lower = basisRotation(restDir, restPole, dLo, fLo)
	return upper, lower, reached
}
