package gltfload

import (
	"fmt"

	"github.com/qmuntal/gltf"
)

// extInstancing places one mesh at many transforms below its node.
const extInstancing = "EXT_mesh_gpu_instancing"

// maxInstanceNodes bounds the nodes EXT_mesh_gpu_instancing adds to a
// file, all instanced nodes together: each is a joint of the skeleton
// and a draw of its own.
const maxInstanceNodes = 10000

// expandInstancing draws each mesh EXT_mesh_gpu_instancing repeats at
// every instance. Instance k of node n becomes a new child of n named
// "<n's name>#k" that holds n's mesh and the instance's translation,
// rotation and scale, which the extension applies in n's space before
// n's global transform, exactly as a child's TRS; n keeps no mesh. The
// new nodes follow the file's own, so every node of the file keeps its
// index, and an info line names them. An instance scaled to zero draws
// nothing and gets no node. A skinned mesh, one with morph targets,
// attributes that cannot be read, or more than maxInstanceNodes
// instances in all leave the mesh drawn once, at its node (what the
// extension asks of a reader without it), and a VIEWER_NOT_DRAWN line
// says why.
func (l *loader) expandInstancing() error {
	added := 0
	files := len(l.doc.Nodes)
	for i := 0; i < files; i++ {
		nd := l.doc.Nodes[i]
		if nd == nil || nd.Mesh == nil || *nd.Mesh < 0 || *nd.Mesh >= len(l.doc.Meshes) {
			continue // a mesh that does not exist is refused as the node loads
		}
		var ext struct {
			Attributes map[string]int `json:"attributes"`
		}
		ok, err := extension(nd.Extensions, extInstancing, &ext)
		if !ok {
			continue
		}
		where := fmt.Sprintf("nodes[%d].extensions.%s", i, extInstancing)
		once := func(format string, args ...any) {
			l.issue("VIEWER_NOT_DRAWN", where, format+"; the mesh is drawn once, at the node", args...)
		}
		if err != nil {
			once("%v", err)
			continue
		}
		inst, err := l.instances(where, ext.Attributes)
		switch {
		case err != nil:
			once("%v", err)
			continue
		case nd.Skin != nil:
			once("%d instances of a skinned mesh are not drawn", len(inst))
			continue
		case l.hasTargets(*nd.Mesh):
			once("%d instances of a mesh with morph targets are not drawn", len(inst))
			continue
		case added+len(inst) > maxInstanceNodes:
			once("%d instances are more than the %d drawn in all", added+len(inst), maxInstanceNodes)
			continue
		}
		first := len(l.doc.Nodes)
		for k, t := range inst {
			if t.Scale == [3]float64{} {
				continue
			}
			l.doc.Nodes = append(l.doc.Nodes, &gltf.Node{
				Name: fmt.Sprintf("%s#%d", nd.Name, k), Mesh: gltf.Index(*nd.Mesh), Matrix: gltf.DefaultMatrix,
				Translation: t.Translation, Rotation: t.Rotation, Scale: t.Scale,
			})
			nd.Children = append(nd.Children, len(l.doc.Nodes)-1)
		}
		nd.Mesh = nil
		added += len(l.doc.Nodes) - first
		l.issue("VIEWER_NOTE", where, "%d instances drawn as nodes[%d] to nodes[%d], children of the node", len(inst), first, len(l.doc.Nodes)-1)
	}
	return nil
}

// instanceTRS is one instance's transform as glTF node properties.
type instanceTRS struct {
	Translation [3]float64
	Rotation    [4]float64
	Scale       [3]float64
}

// instances reads the TRANSLATION, ROTATION and SCALE accessors of an
// EXT_mesh_gpu_instancing object (each optional, at least one, all of one
// count); a missing one is the identity.
func (l *loader) instances(where string, attrs map[string]int) ([]instanceTRS, error) {
	sems := []struct {
		name  string
		typ   gltf.AccessorType
		comps int
	}{{"TRANSLATION", gltf.AccessorVec3, 3}, {"ROTATION", gltf.AccessorVec4, 4}, {"SCALE", gltf.AccessorVec3, 3}}
	var out []instanceTRS
	for _, s := range sems {
		a, ok := attrs[s.name]
		if !ok {
			continue
		}
		at := where + ".attributes." + s.name
		if a < 0 || a >= len(l.doc.Accessors) || l.doc.Accessors[a] == nil {
			return nil, fmt.Errorf("%s: accessors[%d] does not exist (%d accessors)", at, a, len(l.doc.Accessors))
		}
		if l.doc.Accessors[a].Type != s.typ {
			return nil, fmt.Errorf("%s: accessors[%d] is %s, want %s", at, a, l.doc.Accessors[a].Type, s.typ)
		}
		use := asIs
		if s.name == "ROTATION" {
			use = asRotations
		}
		v, _, err := l.floats(at, a, use)
		if err != nil {
			return nil, err
		}
		n := len(v) / s.comps
		if out == nil {
			out = make([]instanceTRS, n)
			for k := range out {
				out[k] = instanceTRS{Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}
			}
		} else if n != len(out) {
			return nil, fmt.Errorf("%s: accessors[%d] has %d elements, the other attributes %d", at, a, n, len(out))
		}
		for k := range out {
			e := v[k*s.comps : k*s.comps+s.comps]
			switch s.name {
			case "TRANSLATION":
				out[k].Translation = [3]float64{float64(e[0]), float64(e[1]), float64(e[2])}
			case "ROTATION":
				out[k].Rotation = [4]float64{float64(e[0]), float64(e[1]), float64(e[2]), float64(e[3])}
			case "SCALE":
				out[k].Scale = [3]float64{float64(e[0]), float64(e[1]), float64(e[2])}
			}
		}
	}
	if out == nil {
		return nil, fmt.Errorf("%s.attributes: none of TRANSLATION, ROTATION and SCALE", where)
	}
	return out, nil
}

// hasTargets says whether mesh m exists and a primitive of it has morph
// targets.
func (l *loader) hasTargets(m int) bool {
	if m < 0 || m >= len(l.doc.Meshes) || l.doc.Meshes[m] == nil {
		return false
	}
	for _, p := range l.doc.Meshes[m].Primitives {
		if p != nil && len(p.Targets) > 0 {
			return true
		}
	}
	return false
}
