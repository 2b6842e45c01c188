package gltfload

import (
	"fmt"
	"math"

	"github.com/qmuntal/gltf"

	"github.com/skinview/skinview/internal/anim"
)

func (l *loader) loadAnimations() error {
	for ai, a := range l.doc.Animations {
		where := fmt.Sprintf("animations[%d]", ai)
		if a == nil {
			return fmt.Errorf("%s: null", where)
		}
		clip := anim.Clip{Name: a.Name}
		morph := 0
		for ci, ch := range a.Channels {
			cw := fmt.Sprintf("%s.channels[%d]", where, ci)
			if ch == nil {
				return fmt.Errorf("%s: null", cw)
			}
			if ch.Sampler < 0 || ch.Sampler >= len(a.Samplers) || a.Samplers[ch.Sampler] == nil {
				return fmt.Errorf("%s.sampler: samplers[%d] does not exist (%d samplers)", cw, ch.Sampler, len(a.Samplers))
			}
			if ch.Target.Node == nil {
				l.warnf("%s.target: no node; ignored", cw)
				continue
			}
			node := *ch.Target.Node
			if node < 0 || node >= len(l.doc.Nodes) {
				return fmt.Errorf("%s.target.node: node %d does not exist (%d nodes)", cw, node, len(l.doc.Nodes))
			}
			var path anim.Path
			switch ch.Target.Path {
			case gltf.TRSTranslation:
				path = anim.Translation
			case gltf.TRSRotation:
				path = anim.Rotation
			case gltf.TRSScale:
				path = anim.Scale
			case gltf.TRSWeights:
				morph++
			default:
				l.warnf("%s.target.path: %q is not supported; ignored", cw, ch.Target.Path)
				continue
			}
			sw := fmt.Sprintf("%s.samplers[%d]", where, ch.Sampler)
			s := a.Samplers[ch.Sampler]
			times, err := l.keyTimes(sw, s.Input)
			if err != nil {
				return err
			}
			if last := times[len(times)-1]; last > clip.Duration {
				clip.Duration = last
			}
			if ch.Target.Path == gltf.TRSWeights {
				continue // morph weights are read for their timing only: morph targets are not applied
			}
			tr := anim.Track{Joint: l.model.JointOfNode[node], Path: path, Times: times}
			switch s.Interpolation {
			case gltf.InterpolationLinear:
				tr.Interp = anim.Linear
			case gltf.InterpolationStep:
				tr.Interp = anim.Step
			case gltf.InterpolationCubicSpline:
				tr.Interp = anim.CubicSpline
			default:
				return fmt.Errorf("%s.interpolation: unknown value %d", sw, s.Interpolation)
			}
			typ := gltf.AccessorVec3
			if path == anim.Rotation {
				typ = gltf.AccessorVec4
			}
			l.warnStride(s.Output, "animation output")
			vals, comps, err := l.floats(s.Output, typ)
			if err != nil {
				return fmt.Errorf("%s.output: %w", sw, err)
			}
			want := len(times)
			if tr.Interp == anim.CubicSpline {
				want *= 3
			}
			if got := len(vals) / comps; got != want {
				return fmt.Errorf("%s.output: accessors[%d] has %d values for %d key times; want %d", sw, s.Output, got, len(times), want)
			}
			for k, v := range vals {
				if !finite(float64(v)) {
					return fmt.Errorf("%s.output: accessors[%d] value %d is %v", sw, s.Output, k/comps, v)
				}
			}
			if path == anim.Rotation {
				l.normalizeRotations(sw, vals, tr.Interp == anim.CubicSpline)
			}
			tr.Values = vals
			clip.Tracks = append(clip.Tracks, tr)
		}
		if morph > 0 {
			l.warnf("%s: %d morph-weight channels read but not applied", where, morph)
		}
		if err := clip.Validate(l.model.Skeleton.NumJoints()); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		l.model.Clips = append(l.model.Clips, clip)
	}
	return nil
}

func (l *loader) keyTimes(sw string, acc int) ([]float32, error) {
	if acc >= 0 && acc < len(l.doc.Accessors) && l.doc.Accessors[acc] != nil && l.doc.Accessors[acc].ComponentType != gltf.ComponentFloat {
		return nil, fmt.Errorf("%s.input: accessors[%d] componentType %s, want FLOAT", sw, acc, l.doc.Accessors[acc].ComponentType)
	}
	l.warnStride(acc, "animation input")
	times, _, err := l.floats(acc, gltf.AccessorScalar)
	if err != nil {
		return nil, fmt.Errorf("%s.input: %w", sw, err)
	}
	for k, t := range times {
		if !finite(float64(t)) {
			return nil, fmt.Errorf("%s.input: accessors[%d] key %d time is %v", sw, acc, k, t)
		}
		if k > 0 && t <= times[k-1] {
			return nil, fmt.Errorf("%s.input: accessors[%d] key times must increase: key %d is %v after %v", sw, acc, k, t, times[k-1])
		}
	}
	return times, nil
}

// normalizeRotations makes every rotation key a unit quaternion (tangents
// of cubic splines are left alone: they are derivatives, not rotations).
func (l *loader) normalizeRotations(sw string, vals []float32, cubic bool) {
	stride, off := 4, 0
	if cubic {
		stride, off = 12, 4
	}
	worst := 0.0
	for k := off; k+4 <= len(vals); k += stride {
		q := vals[k : k+4]
		n := math.Sqrt(float64(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]))
		if d := math.Abs(n - 1); d > worst {
			worst = d
		}
		if n == 0 {
			q[0], q[1], q[2], q[3] = 0, 0, 0, 1
			continue
		}
		for c := range 4 {
			q[c] = float32(float64(q[c]) / n)
		}
	}
	if worst > 1e-3 {
		l.warnf("%s.output: rotation keys up to %.3g away from unit length; normalized", sw, worst)
	}
}
