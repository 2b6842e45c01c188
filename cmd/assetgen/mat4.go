package main

// mat4 is a 4x4 matrix in glTF's column-major order: element (row r,
// column c) is m[c*4+r].
type mat4 [16]float64

func identity4() mat4 { return mat4{0: 1, 5: 1, 10: 1, 15: 1} }

func translation(t vec3) mat4 {
	m := identity4()
	m[12], m[13], m[14] = t.X, t.Y, t.Z
	return m
}

// trs is translation × rotation × scale, a node's local matrix.
func trs(t vec3, r quat, s vec3) mat4 {
	x, y, z := r.rotate(v3(1, 0, 0)).scale(s.X), r.rotate(v3(0, 1, 0)).scale(s.Y), r.rotate(v3(0, 0, 1)).scale(s.Z)
	return mat4{x.X, x.Y, x.Z, 0, y.X, y.Y, y.Z, 0, z.X, z.Y, z.Z, 0, t.X, t.Y, t.Z, 1}
}

func (a mat4) mul(b mat4) mat4 {
	var m mat4
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			var s float64
			for k := 0; k < 4; k++ {
				s += a[k*4+r] * b[c*4+k]
			}
			m[c*4+r] = s
		}
	}
	return m
}

func (a mat4) point(p vec3) vec3 {
	return v3(a[0]*p.X+a[4]*p.Y+a[8]*p.Z+a[12], a[1]*p.X+a[5]*p.Y+a[9]*p.Z+a[13], a[2]*p.X+a[6]*p.Y+a[10]*p.Z+a[14])
}

// rigidInverse inverts a rotation-plus-translation matrix: the transposed
// rotation and the translation carried back through it. The last row stays
// exactly 0 0 0 1.
func rigidInverse(a mat4) mat4 {
	var m mat4
	for c := 0; c < 3; c++ {
		for r := 0; r < 3; r++ {
			m[c*4+r] = a[r*4+c]
		}
	}
	t := v3(a[12], a[13], a[14])
	for r := 0; r < 3; r++ {
		m[12+r] = -(m[r]*t.X + m[4+r]*t.Y + m[8+r]*t.Z)
	}
	m[15] = 1
	return m
}
