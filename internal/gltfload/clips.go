package gltfload

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/skinview/skinview/internal/anim"
)

func (l *loader) loadAnimations() error {
	unplayed := map[string][]string{} // KHR_animation_pointer paths not played → their channels
	defer l.reportUnplayed(unplayed)
	for ai, a := range l.doc.Animations {
		where := fmt.Sprintf("animations[%d]", ai)
		if a == nil {
			return fmt.Errorf("%s: null", where)
		}
		clip := anim.Clip{Name: a.Name}
		type target struct {
			node int
			path gltf.TRSProperty
		}
		seen := map[target]int{}
		used := map[int]bool{} // the accessors of the channels kept
		for ci, ch := range a.Channels {
			cw := fmt.Sprintf("%s.channels[%d]", where, ci)
			if ch == nil {
				return fmt.Errorf("%s: null", cw)
			}
			if ch.Sampler < 0 || ch.Sampler >= len(a.Samplers) || a.Samplers[ch.Sampler] == nil {
				return fmt.Errorf("%s.sampler: samplers[%d] does not exist (%d samplers in this animation)", cw, ch.Sampler, len(a.Samplers))
			}
			pt := l.pointerTarget(ai, ci, unplayed)
			nodes, tpath := pt.nodes, pt.path
			switch {
			case tpath == pathChannels || nodes != nil:
			case tpath == "pointer":
				continue // reported once, with every channel of that pointer
			case ch.Target.Node == nil:
				l.issue("VIEWER_NOT_DRAWN", cw+".target", "no node; ignored")
				continue
			default:
				nodes, tpath = []int{*ch.Target.Node}, ch.Target.Path
			}
			node := -1
			if nodes != nil {
				node = nodes[0]
			}
			if tpath != pathChannels && (node < 0 || node >= len(l.doc.Nodes)) {
				return fmt.Errorf("%s.target.node: nodes[%d] does not exist (%d nodes)", cw, node, len(l.doc.Nodes))
			}
			var path anim.Path
			rule := moveRule
			switch tpath {
			case pathChannels:
				rule = pt.rule
			case gltf.TRSTranslation:
				path = anim.Translation
			case gltf.TRSRotation:
				path, rule = anim.Rotation, rotationRule
			case gltf.TRSScale:
				path = anim.Scale
			case gltf.TRSWeights:
				rule = morphRule
			default:
				l.issue("VIEWER_NOT_DRAWN", cw+".target.path", "%q is not supported; ignored", ch.Target.Path)
				continue
			}
			for _, n := range nodes {
				key := target{n, tpath}
				if first, dup := seen[key]; dup {
					l.issue("ANIMATION_DUPLICATE_TARGETS", cw+".target", "nodes[%d] %s is already animated by channels[%d]; the later channel wins", n, tpath, first)
				}
				seen[key] = ci
			}
			sw := fmt.Sprintf("%s.samplers[%d]", where, ch.Sampler)
			s := a.Samplers[ch.Sampler]
			times, err := l.keyTimes(sw, s.Input)
			if errors.Is(err, errNoBytes) {
				l.issue("VIEWER_NOT_DRAWN", cw, "not played: %v", err)
				continue
			}
			if err != nil {
				return err
			}
			if last := times[len(times)-1]; last > clip.Duration {
				clip.Duration = last
			}
			var interp anim.Interpolation
			switch s.Interpolation {
			case gltf.InterpolationLinear:
				interp = anim.Linear
			case gltf.InterpolationStep:
				interp = anim.Step
			case gltf.InterpolationCubicSpline:
				interp = anim.CubicSpline
			default:
				return fmt.Errorf("%s.interpolation: unknown value %d", sw, s.Interpolation)
			}
			// Values per key time: one per morph target for weights.
			per := 1
			if tpath == gltf.TRSWeights {
				mesh := l.doc.Nodes[node].Mesh
				if mesh == nil || *mesh < 0 || *mesh >= len(l.meshTargets) || l.meshTargets[*mesh] == 0 {
					l.issue("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", cw+".target", "nodes[%d] has no morph targets to weight; ignored", node)
					continue
				}
				per = l.meshTargets[*mesh]
			}
			ow := sw + ".output"
			l.warnStride(s.Output, "animation output")
			if err := l.expect(ow, s.Output, rule); errors.Is(err, errNoBytes) {
				l.issue("VIEWER_NOT_DRAWN", cw, "not played: %v", err)
				continue
			} else if err != nil {
				return err
			}
			use := asIs
			switch {
			case path == anim.Rotation && interp == anim.CubicSpline:
				use = asCubicRotations
			case path == anim.Rotation:
				use = asRotations
			}
			vals, comps, err := l.floats(ow, s.Output, use)
			if errors.Is(err, errNoBytes) {
				l.issue("VIEWER_NOT_DRAWN", cw, "not played: %v", err)
				continue
			}
			if err != nil {
				return err
			}
			want := len(times) * per
			if interp == anim.CubicSpline {
				want *= 3
			}
			if got := len(vals) / comps; got != want {
				return fmt.Errorf("%s: accessors[%d] has %d values for %d key times; want %d", ow, s.Output, got, len(times), want)
			}
			for k, v := range firstCheck(l, "finite", s.Output, int(use), vals) {
				if !finite(float64(v)) {
					return fmt.Errorf("%s: accessors[%d] value %d is %v", ow, s.Output, k/comps, v)
				}
			}
			used[s.Input], used[s.Output] = true, true
			if tpath == gltf.TRSWeights {
				for _, n := range nodes {
					clip.Morph = append(clip.Morph, anim.MorphTrack{Channel: l.model.NodeMorph[n], Count: per, Interp: interp, Times: times, Values: vals})
				}
				continue
			}
			if tpath == pathChannels {
				clip.Morph = append(clip.Morph, anim.MorphTrack{Channel: pt.channel, Count: pt.count, Interp: interp, Times: times, Values: vals})
				continue
			}
			if path == anim.Rotation {
				l.normalizeRotations(ow, firstCheck(l, "rotations", s.Output, int(use), vals), interp == anim.CubicSpline)
			}
			clip.Tracks = append(clip.Tracks, anim.Track{Joint: l.model.JointOfNode[node], Path: path, Interp: interp, Times: times, Values: vals})
		}
		clip.Markers = l.markers(where, a.Extras, clip.Duration)
		for acc := range used {
			a := l.doc.Accessors[acc]
			clip.SourceBytes += 4 * int(a.Count) * int(a.Type.Components())
		}
		// Every rule of anim.Clip.Validate was checked above, once per
		// shared key array; Validate itself would walk a shared output once
		// per channel, which thousands of channels make quadratic. The
		// fuzz test runs Validate on every clip the loader returns.
		l.model.Clips = append(l.model.Clips, clip)
	}
	return nil
}

// keyTimes reads and checks a sampler input once per accessor; tracks
// that share an input share its Times.
func (l *loader) keyTimes(sw string, acc int) ([]float32, error) {
	if times, ok := l.times[acc]; ok {
		return times, nil
	}
	iw := sw + ".input"
	l.warnStride(acc, "animation input")
	if err := l.expect(iw, acc, timesRule); err != nil {
		return nil, err
	}
	times, _, err := l.floats(iw, acc, asIs)
	if err != nil {
		return nil, err
	}
	repeated := -1
	for k, t := range times {
		if !finite(float64(t)) {
			return nil, fmt.Errorf("%s: accessors[%d] key %d time is %v", iw, acc, k, t)
		}
		if k > 0 && t < times[k-1] {
			return nil, fmt.Errorf("%s: accessors[%d] key times must increase: key %d is %v after %v", iw, acc, k, t, times[k-1])
		}
		if k > 0 && t == times[k-1] && repeated < 0 {
			repeated = k
		}
	}
	if times[0] < 0 {
		l.issue("ACCESSOR_ANIMATION_INPUT_NEGATIVE", iw, "accessors[%d] starts at %v s; glTF key times are not negative", acc, times[0])
	}
	if repeated > 0 {
		// Zeros of an accessor without a bufferView are no error of the
		// file's data (glTF-Validator does not read them).
		code := "ACCESSOR_ANIMATION_INPUT_NON_INCREASING"
		if l.doc.Accessors[acc].BufferView == nil {
			code = "VIEWER_NOTE"
		}
		l.issue(code, iw, "accessors[%d] key %d repeats the time %v s; drawn as a step to the later key at that time", acc, repeated, times[repeated])
		times = stepRepeatedKeys(times)
	}
	if l.times == nil {
		l.times = map[int][]float32{}
	}
	l.times[acc] = times
	return times, nil
}

// stepRepeatedKeys returns a copy of non-decreasing key times made
// strictly increasing: each key that repeats the time of the key after it
// moves a millionth of a second (relative beyond 1 s) earlier, so that
// the later key holds from the repeated time on and the earlier one is
// reached just before it, a step. Keys before are moved as far as they
// must to stay in order.
func stepRepeatedKeys(in []float32) []float32 {
	t := slices.Clone(in)
	for k := len(t) - 1; k > 0; k-- {
		if t[k-1] >= t[k] {
			t[k-1] = t[k] - float32(1e-6*math.Max(1, math.Abs(float64(t[k]))))
		}
	}
	return t
}

// normalizeRotations makes every rotation key a unit quaternion (tangents
// of cubic splines are left alone: they are derivatives, not rotations).
// The arithmetic is in double precision so that huge keys do not
// overflow into a zero quaternion.
func (l *loader) normalizeRotations(ow string, vals []float32, cubic bool) {
	stride, off := 4, 0
	if cubic {
		stride, off = 12, 4
	}
	worst := 0.0
	for k := off; k+4 <= len(vals); k += stride {
		q := vals[k : k+4]
		u, n := unitQuat(float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3]))
		worst = math.Max(worst, math.Abs(n-1))
		q[0], q[1], q[2], q[3] = u.V[0], u.V[1], u.V[2], u.W
	}
	if worst > quatTolerance {
		l.issue("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", ow, "rotation keys up to %.3g away from unit length; normalized", worst)
	}
}

// markers reads an animation's event markers from its extras, where
// exporters and hand edits leave them (no glTF extension defines them):
// "markers" or "events", a list of {"time": seconds, "name": "..."}.
// Entries that are not such, or fall outside the clip, are reported and
// dropped.
func (l *loader) markers(where string, extras any, duration float32) []anim.Marker {
	lists := map[string][]any{}
	switch e := extras.(type) {
	case map[string]any:
		for _, k := range []string{"markers", "events"} {
			lists[k], _ = e[k].([]any)
		}
	case json.RawMessage:
		json.Unmarshal(e, &lists) // not an object of lists: no markers
	}
	var out []anim.Marker
	for _, k := range []string{"markers", "events"} {
		for i, item := range lists[k] {
			at := fmt.Sprintf("%s.extras.%s[%d]", where, k, i)
			o, _ := item.(map[string]any)
			name, _ := o["name"].(string)
			t, ok := o["time"].(float64)
			switch {
			case !ok || name == "":
				l.issue("VIEWER_NOTE", at, "not a marker {\"time\": seconds, \"name\": \"...\"}; ignored")
			case !(t >= 0 && float32(t) <= duration):
				l.issue("VIEWER_NOTE", at, "marker %q at %v s is outside the clip (0 to %v s); ignored", name, t, duration)
			default:
				out = append(out, anim.Marker{Time: float32(t), Name: name})
			}
		}
	}
	return out
}
