package anim

import (
	"math"
	"slices"
)

func (e *encoder) measureReach() {
	sk := e.sk
	n := sk.NumJoints()
	e.reach, e.scale, e.minScale = make([]float64, n), make([]float64, n), make([]float64, n)
	for j := range n {
		e.minScale[j] = math.Inf(1)
	}
	pose := NewPose(sk)
	models := make([]float32, PaletteFloats*n)
	exact := make([]float64, PaletteFloats*n)
	job := e.ref.NewSampleJob(false, pose)
	mp := ModelPaletteJob{Skeleton: sk, Input: pose, Models: models}
	step := max(1, len(e.times)/256)
	for i := 0; i < len(e.times); i += step {
		job.Time = e.times[i]
		job.Run()
		mp.Run()
		models64(sk.Parents, pose, exact)
		for d := range n {
			e.rounding = max(e.rounding, vertexError(f64s(models[d*PaletteFloats:d*PaletteFloats+12]), exact[d*PaletteFloats:d*PaletteFloats+12]))
			od := origin(models, d)
			own := VirtualVertex * axisScale(models, d, true)
			for a := d; a >= 0; a = sk.Parents[a] {
				e.reach[a] = max(e.reach[a], dist(origin(models, a), od)+own)
			}
			ps := 1.0
			if p := sk.Parents[d]; p >= 0 {
				ps = axisScale(models, p, true)
			}
			e.scale[d] = max(e.scale[d], ps)
			s := math.Min(math.Abs(float64(pose.sx[d])), math.Min(math.Abs(float64(pose.sy[d])), math.Abs(float64(pose.sz[d]))))
			e.minScale[d] = math.Min(e.minScale[d], s)
		}
	}
	for j := range n {
		e.minScale[j] = math.Max(e.minScale[j], 1e-4)
	}
}

func origin(models []float32, j int) [3]float64 {
	r := models[j*PaletteFloats:]
	return [3]float64{float64(r[3]), float64(r[7]), float64(r[11])}
}

// axisScale is the largest (or smallest) length of joint j's model axes.
func axisScale(models []float32, j int, largest bool) float64 {
	r := models[j*PaletteFloats:]
	s := 0.0
	for c := range 3 {
		l := math.Sqrt(float64(r[c])*float64(r[c]) + float64(r[4+c])*float64(r[4+c]) + float64(r[8+c])*float64(r[8+c]))
		if c == 0 || (largest && l > s) || (!largest && l < s) {
			s = l
		}
	}
	return s
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// measure samples rc and the source at times (the check times, or the
// denser times) and every time of rc's table that is not among them, with slerp and with nlerp, and returns each joint's worst
// virtual-vertex error and every (time, joint) error: the largest distance
// between the two clips' joint origin and the points VirtualVertex along
// each model axis, both scaled by the joint's model matrix and at that
// distance whatever the scale.
func (e *encoder) measure(rc *RuntimeClip, times []float32) (worst []float64, all []float32) {
	return e.measureAs(rc, times, false)
}

// measureAs is measure with the model matrices computed in float64 from
// the sampled poses (models64), which the fit judges packings by, or
// where played is set, as the engine computes them (ModelPaletteJob, in
// float32): the error a player sees, with the rounding of both clips'
// products.
func (e *encoder) measureAs(rc *RuntimeClip, times []float32, played bool) (worst []float64, all []float32) {
	sk := e.sk
	n := sk.NumJoints()
	worst = make([]float64, n)
	all = make([]float32, 0, n*len(times))
	type side struct {
		job      SampleSoAJob
		mp       ModelPaletteJob
		models   []float64
		models32 []float32
	}
	mk := func(c *RuntimeClip, nlerp bool) *side {
		s := &side{models: make([]float64, PaletteFloats*n), models32: make([]float32, PaletteFloats*n)}
		s.job = c.NewSampleJob(nlerp, NewPose(sk))
		s.mp = ModelPaletteJob{Skeleton: sk, Input: s.job.Output, Models: s.models32}
		return s
	}
	sides := [4]*side{mk(e.ref, false), mk(rc, false), mk(e.ref, true), mk(rc, true)}
	if moved := movedTimes(rc.pk.times, times); len(moved) > 0 {
		times = append(slices.Clone(times), moved...)
	}
	if e.refModels == nil {
		e.refModels = map[float32][]float64{}
	}
	for i, t := range times {
		if e.stage != nil && i%256 == 0 {
			e.stage(0.5 + 0.5*float64(i)/float64(len(times)))
		}
		if played {
			for _, s := range sides {
				s.job.Time = t
				s.job.Run()
				s.mp.Run()
			}
			all = jointErrors(sides[0].models32, sides[1].models32, sides[2].models32, sides[3].models32, worst, all)
			continue
		}
		// The source's model matrices at t, slerped then nlerped, are the
		// same for every packing tried: kept while they take little room.
		ref := e.refModels[t]
		for k, s := range sides {
			if k%2 == 0 && ref != nil {
				continue
			}
			s.job.Time = t
			s.job.Run()
			models64(sk.Parents, s.job.Output, s.models)
		}
		if ref == nil {
			ref = append(slices.Clone(sides[0].models), sides[2].models...)
			if len(e.refModels)*len(ref) < maxRefModels {
				e.refModels[t] = ref
			}
		}
		all = jointErrors(ref[:n*PaletteFloats], sides[1].models, ref[n*PaletteFloats:], sides[3].models, worst, all)
	}
	return worst, all
}

// jointErrors appends each joint's error at one time to all and raises
// worst: the larger of the slerped pair's (source a, packed b) and the
// nlerped pair's (c, d) vertexError.
func jointErrors[F float32 | float64](a, b, c, d []F, worst []float64, all []float32) []float32 {
	for j := range worst {
		o := j * PaletteFloats
		err := max(vertexError(a[o:], b[o:]), vertexError(c[o:], d[o:]))
		worst[j] = max(worst[j], err)
		all = append(all, float32(err))
	}
	return all
}

// models64 is ModelPaletteJob's model matrices of pose, in its row layout,
// computed in float64 from the pose's float32 values: the pose's own
// matrices without the rounding of the float32 products, which on a large
// model is as large as a tight tolerance (modelRounding).
func models64(parents []int, in *SoAPose, models []float64) {
	for i, p := range parents {
		m := (*[12]float64)(models[i*12 : i*12+12])
		if p < 0 {
			localRows(m, in, i)
			continue
		}
		var l [12]float64
		localRows(&l, in, i)
		mulRows(m, (*[12]float64)(models[p*12:p*12+12]), &l)
	}
}

// maxRefModels bounds the floats encoder.refModels holds (32 MB).
const maxRefModels = 4 << 20

// movedTimes are the times of a table on a grid (gridTimes) that
// are not check times: keys a few units of rounding from the source's.
// The pose there, just past the source's key, is off by its change of
// speed at the key times the move, which on a fast joint adds up to the
// tolerance.
func movedTimes(table, checked []float32) []float32 {
	var moved []float32
	for _, t := range table {
		if _, ok := slices.BinarySearch(checked, t); !ok {
			moved = append(moved, t)
		}
	}
	return moved
}

// vertexError is the largest distance between the virtual vertices of
// two model matrices in the palette's row layout.
func vertexError[F float32 | float64](m, k []F) float64 {
	var d [3]float64
	for r := range 3 {
		d[r] = float64(m[r*4+3]) - float64(k[r*4+3])
	}
	worst := d[0]*d[0] + d[1]*d[1] + d[2]*d[2] // squared, as the rest
	for c := range 3 {
		var am, ak float64 // axis lengths
		for r := range 3 {
			am += float64(m[r*4+c]) * float64(m[r*4+c])
			ak += float64(k[r*4+c]) * float64(k[r*4+c])
		}
		am, ak = math.Sqrt(am), math.Sqrt(ak)
		var s1, s2 float64
		for r := range 3 {
			x, y := float64(m[r*4+c]), float64(k[r*4+c])
			v := d[r] + VirtualVertex*(x-y) // scaled by the matrix
			s1 += v * v
			if am > 0 && ak > 0 {
				v = d[r] + VirtualVertex*(x/am-y/ak) // at 3 cm whatever the scale
			}
			s2 += v * v
		}
		worst = max(worst, s1, s2)
	}
	return math.Sqrt(worst)
}
