package gltfload

import (
	"fmt"
	"slices"

	"github.com/qmuntal/gltf"
)

// checkPrimitiveLayout reports, from the document alone (no byte is
// read), how a primitive's accessors sit in their views against what
// glTF asks: vertex attributes start on 4-byte boundaries, a view that
// several attributes share has a byteStride, indices have none, and a
// view's target agrees with its use. It runs for every primitive, drawn
// or not, so a file whose data is missing is still judged by its layout.
func (l *loader) checkPrimitiveLayout(where string, p *gltf.Primitive) {
	sems := make([]string, 0, len(p.Attributes))
	for sem := range p.Attributes {
		sems = append(sems, sem)
	}
	slices.Sort(sems)
	for _, sem := range sems {
		acc := p.Attributes[sem]
		v, ok := l.viewOf(acc)
		if !ok {
			continue
		}
		l.warnStrideVertex(where+".attributes."+sem, acc)
		l.checkTarget(v, gltf.TargetArrayBuffer, where+".attributes."+sem)
		if l.attrView == nil {
			l.attrView = map[int]int{}
		}
		first, seen := l.attrView[v]
		switch {
		case !seen:
			l.attrView[v] = acc
		case first != acc && l.doc.BufferViews[v].ByteStride == 0:
			l.issue("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", fmt.Sprintf("bufferViews[%d]", v), "holds vertex attributes accessors[%d] and accessors[%d] but has no byteStride; read as written", first, acc)
		}
	}
	if p.Indices != nil {
		if v, ok := l.viewOf(*p.Indices); ok {
			l.warnStride(*p.Indices, "indices")
			l.checkTarget(v, gltf.TargetElementArrayBuffer, where+".indices")
		}
	}
	for ti, target := range p.Targets {
		sems := make([]string, 0, len(target))
		for sem := range target {
			sems = append(sems, sem)
		}
		slices.Sort(sems)
		for _, sem := range sems {
			if v, ok := l.viewOf(target[sem]); ok {
				l.checkTarget(v, gltf.TargetArrayBuffer, fmt.Sprintf("%s.targets[%d].%s", where, ti, sem))
			}
		}
	}
}

// viewOf is the bufferView accessor acc reads, when both exist.
func (l *loader) viewOf(acc int) (int, bool) {
	if acc < 0 || acc >= len(l.doc.Accessors) || l.doc.Accessors[acc] == nil || l.doc.Accessors[acc].BufferView == nil {
		return 0, false
	}
	v := *l.doc.Accessors[acc].BufferView
	return v, v >= 0 && v < len(l.doc.BufferViews) && l.doc.BufferViews[v] != nil
}

// checkTarget reports the use at where of view v as want (vertex data or
// indices) when the view's target, declared or taken from its first use,
// is the other.
func (l *loader) checkTarget(v int, want gltf.Target, where string) {
	use := l.doc.BufferViews[v].Target
	if use == 0 {
		use = l.viewUse[v]
	}
	if use == 0 {
		if l.viewUse == nil {
			l.viewUse = map[int]gltf.Target{}
		}
		l.viewUse[v] = want
		return
	}
	if use != want {
		l.issue("BUFFER_VIEW_TARGET_OVERRIDE", where, "reads bufferViews[%d] as target %d, but the view is for %d; read as written", v, want, use)
	}
}
