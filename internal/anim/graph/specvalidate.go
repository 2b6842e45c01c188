package graph

import (
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/skinview/skinview/internal/anim"
)

// Validate checks what can be checked without a skeleton or clips: shapes,
// counts, ranges, and names that refer within the spec (parameters, states).
// NewController calls it; errors are *SpecError.
func (s *Spec) Validate() error {
	params := make(map[string]bool, len(s.Params))
	for i, p := range s.Params {
		at := indexPath("params", i)
		switch {
		case p.Name == "":
			return specErrorf(joinPath(at, "name"), "parameter without a name")
		case params[p.Name]:
			return specErrorf(joinPath(at, "name"), "parameter %q declared twice", p.Name)
		case !finite(p.Min) || !finite(p.Max) || !finite(p.Default):
			return specErrorf(at, "parameter %q has a non-finite bound or default", p.Name)
		case p.Min > p.Max:
			return specErrorf(at, "parameter %q has min %g above max %g", p.Name, p.Min, p.Max)
		}
		params[p.Name] = true
	}
	v := validator{spec: s, params: params}
	if len(s.Layers) == 0 {
		return specErrorf("", "no layers, states or tree")
	}
	layerNames := map[string]bool{}
	for li := range s.Layers {
		if err := v.layer(li, layerNames); err != nil {
			return err
		}
	}
	for i := range s.Post {
		if err := v.post(&s.Post[i], indexPath("post", i)); err != nil {
			return err
		}
	}
	return nil
}

type validator struct {
	spec   *Spec
	params map[string]bool
}

func (v *validator) input(in Input, at string) error {
	if in.Param != "" && !v.params[in.Param] {
		return specErrorf(at, "unknown parameter %q (parameters: %s)", in.Param, anim.ListNames(paramNames(v.spec.Params), 24))
	}
	if in.Param == "" && !finite(in.Value) {
		return specErrorf(at, "value %v is not finite", in.Value)
	}
	return nil
}

func (v *validator) optInput(in *Input, at string) error {
	if in == nil {
		return nil
	}
	return v.input(*in, at)
}

func paramNames(ps []ParamSpec) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return names
}

func (v *validator) layer(li int, names map[string]bool) error {
	s := v.spec
	l := &s.Layers[li]
	at := s.layerPath(li)
	name := s.layerName(li)
	if names[name] {
		return specErrorf(joinPath(at, "name"), "layer %q declared twice", name)
	}
	if strings.Contains(name, "/") {
		return specErrorf(joinPath(at, "name"), "layer name %q contains '/'", name)
	}
	names[name] = true
	if err := v.optInput(l.Weight, joinPath(at, "weight")); err != nil {
		return err
	}
	if err := v.mask(l.Mask, joinPath(at, "mask")); err != nil {
		return err
	}
	if len(l.States) == 0 {
		return specErrorf(joinPath(at, "states"), "layer %q has no states", name)
	}
	states := map[string]bool{}
	for si := range l.States {
		st := &l.States[si]
		sat := s.statePath(li, si)
		switch {
		case st.Name == "":
			return specErrorf(joinPath(sat, "name"), "state without a name")
		case strings.ContainsAny(st.Name, "/*?[\\"):
			return specErrorf(joinPath(sat, "name"), "state name %q contains one of / * ? [ \\", st.Name)
		case states[st.Name]:
			return specErrorf(joinPath(sat, "name"), "state %q declared twice in layer %q", st.Name, name)
		}
		states[st.Name] = true
		if st.Tree != nil {
			if err := v.node(st.Tree, s.treePath(li, si)); err != nil {
				return err
			}
		}
	}
	if l.Initial != "" && !states[l.Initial] {
		return specErrorf(joinPath(at, "initial"), "unknown state %q", l.Initial)
	}
	for ti := range l.Transitions {
		tr := &l.Transitions[ti]
		tat := indexPath(joinPath(at, "transitions"), ti)
		if tr.From == "" {
			return specErrorf(joinPath(tat, "from"), "transition without a source")
		}
		matched := false
		for _, st := range l.States {
			ok, err := path.Match(tr.From, st.Name)
			if err != nil {
				return specErrorf(joinPath(tat, "from"), "bad pattern %q: %v", tr.From, err)
			}
			matched = matched || ok
		}
		if !matched {
			return specErrorf(joinPath(tat, "from"), "%q matches no state of layer %q", tr.From, name)
		}
		if !states[tr.To] {
			return specErrorf(joinPath(tat, "to"), "unknown state %q in layer %q", tr.To, name)
		}
		if !(tr.Duration >= 0) || math.IsInf(float64(tr.Duration), 0) {
			return specErrorf(joinPath(tat, "duration"), "duration %v; want a finite value ≥ 0", tr.Duration)
		}
		if tr.Type > TransitionImmediate {
			return specErrorf(joinPath(tat, "type"), "unknown transition type %d", tr.Type)
		}
		if w := tr.Window; w != nil && !(0 <= w.Begin && w.Begin <= w.End && w.End <= 1) {
			return specErrorf(joinPath(tat, "window"), "window [%g, %g]; want 0 ≤ begin ≤ end ≤ 1", w.Begin, w.End)
		}
		if err := validEase(tr.Ease, joinPath(tat, "ease")); err != nil {
			return err
		}
	}
	return nil
}

func validEase(e Ease, at string) error {
	if e.Shape > EaseSCurve {
		return specErrorf(at, "unknown ease shape %d", e.Shape)
	}
	if !finite(e.P1) || !finite(e.P2) {
		return specErrorf(at, "ease control values must be finite")
	}
	return nil
}

func (v *validator) mask(m *MaskSpec, at string) error {
	if m == nil {
		return nil
	}
	if len(m.Joints) == 0 {
		return specErrorf(joinPath(at, "joints"), "mask without joints")
	}
	if m.Falloff < 0 {
		return specErrorf(joinPath(at, "falloff"), "falloff %d is negative", m.Falloff)
	}
	return nil
}

// node checks one node and, recursively, its children.
func (v *validator) node(n *NodeSpec, at string) error {
	children := func(lo, hi int) error {
		if c := len(n.Children); c < lo || (hi > 0 && c > hi) {
			want := fmt.Sprintf("%d", lo)
			switch {
			case hi == 0:
				want = fmt.Sprintf("at least %d", lo)
			case hi != lo:
				want = fmt.Sprintf("%d to %d", lo, hi)
			}
			return specErrorf(joinPath(at, "children"), "%s has %d children; want %s", n.Type, c, want)
		}
		for i := range n.Children {
			if err := v.node(&n.Children[i], indexPath(joinPath(at, "children"), i)); err != nil {
				return err
			}
		}
		return nil
	}
	sub := func(c *NodeSpec, field string) error {
		if c == nil {
			return specErrorf(joinPath(at, field), "%s needs a %s node", n.Type, field)
		}
		return v.node(c, joinPath(at, field))
	}
	switch n.Type {
	case NodeClip:
		if n.Loop > anim.Repeat {
			return specErrorf(joinPath(at, "loop"), "unknown loop mode %d", n.Loop)
		}
		if n.Loops < 0 {
			return specErrorf(joinPath(at, "loops"), "loops %d is negative", n.Loops)
		}
		if !finite(n.Offset) {
			return specErrorf(joinPath(at, "offset"), "offset is not finite")
		}
		return v.optInput(n.Rate, joinPath(at, "rate"))
	case NodeLerp:
		if n.Weight == nil {
			return specErrorf(joinPath(at, "weight"), "lerp needs a weight")
		}
		if err := v.input(*n.Weight, joinPath(at, "weight")); err != nil {
			return err
		}
		return children(2, 2)
	case NodeBlend1D:
		if err := v.input(n.Param, joinPath(at, "param")); err != nil {
			return err
		}
		if n.Positions != nil {
			if len(n.Positions) != len(n.Children) {
				return specErrorf(joinPath(at, "positions"), "%d positions for %d children", len(n.Positions), len(n.Children))
			}
			for i, p := range n.Positions {
				if !finite(p) || (i > 0 && p <= n.Positions[i-1]) {
					return specErrorf(indexPath(joinPath(at, "positions"), i), "position %v; want finite and above the one before", p)
				}
			}
		}
		return children(1, 0)
	case NodeBlend2D:
		for i, in := range n.Params {
			if err := v.input(in, indexPath(joinPath(at, "params"), i)); err != nil {
				return err
			}
		}
		if len(n.Points) != len(n.Children) {
			return specErrorf(joinPath(at, "points"), "%d points for %d children", len(n.Points), len(n.Children))
		}
		for i, p := range n.Points {
			if !finite(p[0]) || !finite(p[1]) {
				return specErrorf(indexPath(joinPath(at, "points"), i), "point is not finite")
			}
		}
		if n.Mode > Blend2DTriangulate {
			return specErrorf(joinPath(at, "mode"), "unknown mode %d", n.Mode)
		}
		return children(3, 0)
	case NodeAverage:
		if len(n.Weights) != len(n.Children) {
			return specErrorf(joinPath(at, "weights"), "%d weights for %d children", len(n.Weights), len(n.Children))
		}
		for i, w := range n.Weights {
			wat := indexPath(joinPath(at, "weights"), i)
			if err := v.input(w, wat); err != nil {
				return err
			}
			if w.Param == "" && w.Value < 0 {
				return specErrorf(wat, "weight %g is negative", w.Value)
			}
		}
		return children(1, 0)
	case NodeCrossFade:
		if err := v.input(n.Param, joinPath(at, "param")); err != nil {
			return err
		}
		if !(n.Duration >= 0) || math.IsInf(float64(n.Duration), 0) {
			return specErrorf(joinPath(at, "duration"), "duration %v; want a finite value ≥ 0", n.Duration)
		}
		if err := validEase(n.Ease, joinPath(at, "ease")); err != nil {
			return err
		}
		return children(2, 2)
	case NodeAdditive:
		if err := v.optInput(n.Weight, joinPath(at, "weight")); err != nil {
			return err
		}
		if err := v.mask(n.Mask, joinPath(at, "mask")); err != nil {
			return err
		}
		if err := sub(n.Base, "base"); err != nil {
			return err
		}
		return sub(n.Source, "source")
	case NodeMask:
		if err := v.optInput(n.Weight, joinPath(at, "weight")); err != nil {
			return err
		}
		if n.Mask == nil {
			return specErrorf(joinPath(at, "mask"), "mask node needs a mask")
		}
		if err := v.mask(n.Mask, joinPath(at, "mask")); err != nil {
			return err
		}
		if err := sub(n.Base, "base"); err != nil {
			return err
		}
		return sub(n.Overlay, "overlay")
	case NodeLayer:
		if err := sub(n.Base, "base"); err != nil {
			return err
		}
		if len(n.Layers) == 0 {
			return specErrorf(joinPath(at, "layers"), "layer node without layers")
		}
		for i := range n.Layers {
			l := &n.Layers[i]
			lat := indexPath(joinPath(at, "layers"), i)
			if err := v.optInput(l.Weight, joinPath(lat, "weight")); err != nil {
				return err
			}
			if err := v.mask(l.Mask, joinPath(lat, "mask")); err != nil {
				return err
			}
			if err := v.node(&l.Node, joinPath(lat, "node")); err != nil {
				return err
			}
		}
		return nil
	}
	return specErrorf(joinPath(at, "type"), "unknown node type %d", n.Type)
}

func (v *validator) post(p *PostSpec, at string) error {
	switch p.Type {
	case PostTwoBoneIK:
		if len(p.Joints) != 3 {
			return specErrorf(joinPath(at, "joints"), "two-bone IK needs 3 joints (start, middle, end), got %d", len(p.Joints))
		}
		for i, in := range p.Pole {
			if err := v.input(in, indexPath(joinPath(at, "pole"), i)); err != nil {
				return err
			}
		}
	case PostLookAt:
		if len(p.Joints) == 0 {
			return specErrorf(joinPath(at, "joints"), "look-at needs at least one joint")
		}
		if p.Shares != nil && len(p.Shares) != len(p.Joints) {
			return specErrorf(joinPath(at, "shares"), "%d shares for %d joints", len(p.Shares), len(p.Joints))
		}
		for i, s := range p.Shares {
			if !(s >= 0) || math.IsInf(float64(s), 0) {
				return specErrorf(indexPath(joinPath(at, "shares"), i), "share %v; want finite ≥ 0", s)
			}
		}
		if !(p.Limit >= 0 && p.Limit <= 180) {
			return specErrorf(joinPath(at, "limit"), "limit %v°; want 0 (none) to 180", p.Limit)
		}
	default:
		return specErrorf(joinPath(at, "type"), "unknown post-processing type %d", p.Type)
	}
	for i, in := range p.Target {
		if err := v.input(in, indexPath(joinPath(at, "target"), i)); err != nil {
			return err
		}
	}
	return v.optInput(p.Weight, joinPath(at, "weight"))
}
