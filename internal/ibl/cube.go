package ibl

import "math"

// Cube is a cube map mip chain of linear RGB: Faces[k][f] is level k of
// face f, side Size>>k, three float32 a texel, row-major, row 0 at t = 0
// and column 0 at s = 0 (what glTexImage2D takes for a cube face). Faces
// are in OpenGL order: +X, −X, +Y, −Y, +Z, −Z (FacePosX … FaceNegZ).
type Cube struct {
	Size, Levels int
	Faces        [][6][]float32
}

// Cube faces, in the order of GL_TEXTURE_CUBE_MAP_POSITIVE_X + i.
const (
	FacePosX = iota
	FaceNegX
	FacePosY
	FaceNegY
	FacePosZ
	FaceNegZ
)

// CubeFace is the OpenGL specification's cube-map face selection for a
// non-zero direction d: the face of the major axis ma (ties go to X, then
// Y, as the table is read in order) and, with
//
//	+X: sc=−z tc=−y   −X: sc=+z tc=−y
//	+Y: sc=+x tc=+z   −Y: sc=+x tc=−z
//	+Z: sc=+x tc=−y   −Z: sc=−x tc=−y
//
// s = (sc/|ma| + 1)/2, t = (tc/|ma| + 1)/2, both in [0, 1].
func CubeFace(d [3]float32) (face int, s, t float32) {
	f, s64, t64 := cubeFace(float64(d[0]), float64(d[1]), float64(d[2]))
	return f, float32(s64), float32(t64)
}

func cubeFace(x, y, z float64) (face int, s, t float64) {
	ax, ay, az := math.Abs(x), math.Abs(y), math.Abs(z)
	var sc, tc, ma float64
	switch {
	case ax >= ay && ax >= az:
		ma = ax
		if x >= 0 {
			face, sc, tc = FacePosX, -z, -y
		} else {
			face, sc, tc = FaceNegX, z, -y
		}
	case ay >= az:
		ma = ay
		if y >= 0 {
			face, sc, tc = FacePosY, x, z
		} else {
			face, sc, tc = FaceNegY, x, -z
		}
	default:
		ma = az
		if z >= 0 {
			face, sc, tc = FacePosZ, x, -y
		} else {
			face, sc, tc = FaceNegZ, -x, -y
		}
	}
	if ma == 0 {
		return FacePosX, 0.5, 0.5
	}
	return face, (sc/ma + 1) / 2, (tc/ma + 1) / 2
}

// CubeDir inverts CubeFace: the unit direction of point (s, t) of a face.
func CubeDir(face int, s, t float32) [3]float32 {
	x, y, z := cubeDir(face, float64(s), float64(t))
	return [3]float32{float32(x), float32(y), float32(z)}
}

func cubeDir(face int, s, t float64) (x, y, z float64) {
	sc, tc := 2*s-1, 2*t-1
	switch face {
	case FacePosX:
		x, y, z = 1, -tc, -sc
	case FaceNegX:
		x, y, z = -1, -tc, sc
	case FacePosY:
		x, y, z = sc, 1, tc
	case FaceNegY:
		x, y, z = sc, -1, -tc
	case FacePosZ:
		x, y, z = sc, -tc, 1
	default:
		x, y, z = -sc, -tc, -1
	}
	l := math.Sqrt(x*x + y*y + z*z)
	return x / l, y / l, z / l
}

// TexelSolidAngle is the exact solid angle of texel (i, j) of a cube face
// of side n; the six faces' texels sum to 4π.
func TexelSolidAngle(n, i, j int) float64 {
	x0, x1 := 2*float64(i)/float64(n)-1, 2*float64(i+1)/float64(n)-1
	y0, y1 := 2*float64(j)/float64(n)-1, 2*float64(j+1)/float64(n)-1
	return areaElement(x0, y0) - areaElement(x0, y1) - areaElement(x1, y0) + areaElement(x1, y1)
}

// areaElement is the solid angle of the face region [0,x]×[0,y] seen from
// the cube's centre, for the face plane at distance 1.
func areaElement(x, y float64) float64 {
	return math.Atan2(x*y, math.Sqrt(x*x+y*y+1))
}

// EquirectUV maps a non-zero direction to the equirectangular (u, v) of
// the package comment.
func EquirectUV(d [3]float32) (u, v float32) {
	u64, v64 := equirectUV(float64(d[0]), float64(d[1]), float64(d[2]))
	return float32(u64), float32(v64)
}

func equirectUV(x, y, z float64) (u, v float64) {
	l := math.Sqrt(x*x + y*y + z*z)
	c := y / l
	if c > 1 {
		c = 1
	} else if c < -1 {
		c = -1
	}
	return 0.5 + math.Atan2(z, x)/(2*math.Pi), math.Acos(c) / math.Pi
}

// EquirectDir inverts EquirectUV: the unit direction of (u, v).
func EquirectDir(u, v float32) [3]float32 {
	x, y, z := equirectDir(float64(u), float64(v))
	return [3]float32{float32(x), float32(y), float32(z)}
}

func equirectDir(u, v float64) (x, y, z float64) {
	phi, theta := (u-0.5)*2*math.Pi, v*math.Pi
	st := math.Sin(theta)
	return st * math.Cos(phi), math.Cos(theta), st * math.Sin(phi)
}

// equirectChain is a box-filtered mip chain of an equirect: each level
// halves both sides (down to 1), averaging 2×2 pixels with the rows
// weighted by their solid angle (sin θ) so a level keeps the energy of
// the one above.
type equirectChain []*Equirect

func newEquirectChain(e *Equirect) equirectChain {
	ch := equirectChain{e}
	for cur := e; cur.W > 1 || cur.H > 1; {
		nw, nh := max(cur.W/2, 1), max(cur.H/2, 1)
		next := &Equirect{W: nw, H: nh, Pix: make([]float32, 3*nw*nh)}
		for j := 0; j < nh; j++ {
			j0, j1 := min(2*j, cur.H-1), min(2*j+1, cur.H-1)
			w0 := math.Sin(math.Pi * (float64(j0) + 0.5) / float64(cur.H))
			w1 := math.Sin(math.Pi * (float64(j1) + 0.5) / float64(cur.H))
			if j0 == j1 {
				w1 = 0
			}
			for i := 0; i < nw; i++ {
				i0, i1 := min(2*i, cur.W-1), min(2*i+1, cur.W-1)
				for c := 0; c < 3; c++ {
					a := float64(cur.Pix[3*(j0*cur.W+i0)+c]) + float64(cur.Pix[3*(j0*cur.W+i1)+c])
					b := float64(cur.Pix[3*(j1*cur.W+i0)+c]) + float64(cur.Pix[3*(j1*cur.W+i1)+c])
					next.Pix[3*(j*nw+i)+c] = float32((w0*a + w1*b) / (2 * (w0 + w1)))
				}
			}
		}
		ch = append(ch, next)
		cur = next
	}
	return ch
}

// bilinear samples e at (u, v), wrapping in u and clamping in v.
func (e *Equirect) bilinear(u, v float64) (r, g, b float64) {
	fx, fy := u*float64(e.W)-0.5, v*float64(e.H)-0.5
	x0f, y0f := math.Floor(fx), math.Floor(fy)
	ax, ay := fx-x0f, fy-y0f
	x0 := int(x0f) % e.W
	if x0 < 0 {
		x0 += e.W
	}
	x1 := (x0 + 1) % e.W
	y0, y1 := int(y0f), int(y0f)+1
	y0 = min(max(y0, 0), e.H-1)
	y1 = min(max(y1, 0), e.H-1)
	p := e.Pix
	i00, i10, i01, i11 := 3*(y0*e.W+x0), 3*(y0*e.W+x1), 3*(y1*e.W+x0), 3*(y1*e.W+x1)
	w00, w10, w01, w11 := (1-ax)*(1-ay), ax*(1-ay), (1-ax)*ay, ax*ay
	r = w00*float64(p[i00]) + w10*float64(p[i10]) + w01*float64(p[i01]) + w11*float64(p[i11])
	g = w00*float64(p[i00+1]) + w10*float64(p[i10+1]) + w01*float64(p[i01+1]) + w11*float64(p[i11+1])
	b = w00*float64(p[i00+2]) + w10*float64(p[i10+2]) + w01*float64(p[i01+2]) + w11*float64(p[i11+2])
	return r, g, b
}

// sample reads direction (x, y, z) at mip level lod, linear between levels.
func (ch equirectChain) sample(x, y, z, lod float64) (r, g, b float64) {
	u, v := equirectUV(x, y, z)
	l0, l1, f := lodSplit(len(ch), lod)
	r, g, b = ch[l0].bilinear(u, v)
	if f > 0 {
		r1, g1, b1 := ch[l1].bilinear(u, v)
		r, g, b = r+f*(r1-r), g+f*(g1-g), b+f*(b1-b)
	}
	return r, g, b
}

// lodSplit splits a mip level into the two levels around it and the
// weight of the second, clamped to the n levels of a chain.
func lodSplit(n int, lod float64) (l0, l1 int, f float64) {
	if lod <= 0 {
		return 0, 0, 0
	}
	if lod >= float64(n-1) {
		return n - 1, n - 1, 0
	}
	l0 = int(lod)
	return l0, l0 + 1, lod - float64(l0)
}

// cubeChain is a box-filtered mip chain of one cube (faces of side n, n/2,
// …, 1), the source the GGX levels are importance-sampled from. A texel of
// level m+1 is the mean radiance of its 2×2 texels of level m weighted by
// their solid angles: a face's corner texels subtend about a third of its
// centre's, and an unweighted mean would lose up to half the energy of a
// light at a face centre in the coarse levels.
type cubeChain struct {
	size  []int
	faces [][6][]float32
}

func newCubeChain(size int, level0 [6][]float32) *cubeChain {
	ch := &cubeChain{size: []int{size}, faces: [][6][]float32{level0}}
	for n := size; n > 1; {
		m := n / 2
		omega := make([]float64, n*n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				omega[j*n+i] = TexelSolidAngle(n, i, j)
			}
		}
		var next [6][]float32
		prev := ch.faces[len(ch.faces)-1]
		for f := 0; f < 6; f++ {
			next[f] = make([]float32, 3*m*m)
			src := prev[f]
			for j := 0; j < m; j++ {
				for i := 0; i < m; i++ {
					var acc [3]float64
					wsum := 0.0
					for _, k := range [4]int{2*j*n + 2*i, 2*j*n + 2*i + 1, (2*j+1)*n + 2*i, (2*j+1)*n + 2*i + 1} {
						w := omega[k]
						wsum += w
						acc[0] += w * float64(src[3*k])
						acc[1] += w * float64(src[3*k+1])
						acc[2] += w * float64(src[3*k+2])
					}
					for c := 0; c < 3; c++ {
						next[f][3*(j*m+i)+c] = float32(acc[c] / wsum)
					}
				}
			}
		}
		ch.size = append(ch.size, m)
		ch.faces = append(ch.faces, next)
		n = m
	}
	return ch
}

// bilinear samples level l of face f at (s, t), clamped to the face.
func (ch *cubeChain) bilinear(l, f int, s, t float64) (r, g, b float64) {
	n := ch.size[l]
	p := ch.faces[l][f]
	nf := float32(n)
	fx, fy := float32(s)*nf-0.5, float32(t)*nf-0.5
	// Clamp to the face's texel centres (comparisons, not min/max: no NaN
	// handling needed for s, t in [0, 1]).
	if fx < 0 {
		fx = 0
	} else if fx > nf-1 {
		fx = nf - 1
	}
	if fy < 0 {
		fy = 0
	} else if fy > nf-1 {
		fy = nf - 1
	}
	x0, y0 := int(fx), int(fy)
	ax, ay := fx-float32(x0), fy-float32(y0)
	dx, dy := 3, 3*n
	if x0 == n-1 {
		dx = 0
	}
	if y0 == n-1 {
		dy = 0
	}
	i := 3 * (y0*n + x0)
	q00 := p[i : i+3 : i+3]
	q10 := p[i+dx : i+dx+3 : i+dx+3]
	q01 := p[i+dy : i+dy+3 : i+dy+3]
	q11 := p[i+dx+dy : i+dx+dy+3 : i+dx+dy+3]
	w00, w10, w01, w11 := (1-ax)*(1-ay), ax*(1-ay), (1-ax)*ay, ax*ay
	r = float64(w00*q00[0] + w10*q10[0] + w01*q01[0] + w11*q11[0])
	g = float64(w00*q00[1] + w10*q10[1] + w01*q01[1] + w11*q11[1])
	b = float64(w00*q00[2] + w10*q10[2] + w01*q01[2] + w11*q11[2])
	return r, g, b
}
