package gltfload

// loadMorphs gives every node whose mesh has morph targets its morph
// channels in the pose, one per target, with their defaults: the node's
// weights, else the mesh's, else 0 (glTF §3.7.2.2). A weights array of the
// wrong length was reported by validate and is not used.
func (l *loader) loadMorphs() error {
	m := l.model
	sk := &m.Skeleton
	m.NodeMorph = make([]int, len(l.doc.Nodes))
	m.NodeMesh = make([]int, len(l.doc.Nodes))
	for ni, nd := range l.doc.Nodes {
		m.NodeMorph[ni], m.NodeMesh[ni] = -1, -1
		if nd == nil || nd.Mesh == nil || *nd.Mesh < 0 || *nd.Mesh >= len(m.Meshes) {
			continue
		}
		m.NodeMesh[ni] = *nd.Mesh
		mesh := &m.Meshes[*nd.Mesh]
		if mesh.Targets == 0 {
			continue
		}
		m.NodeMorph[ni] = len(sk.MorphRest)
		defaults := mesh.Weights
		if len(nd.Weights) == mesh.Targets {
			defaults = make([]float32, mesh.Targets)
			for k, w := range nd.Weights {
				defaults[k] = float32(w)
			}
		}
		for k := range mesh.Targets {
			w := float32(0)
			if defaults != nil {
				w = defaults[k]
			}
			sk.MorphRest = append(sk.MorphRest, w)
			sk.MorphJoint = append(sk.MorphJoint, m.JointOfNode[ni])
		}
	}
	return nil
}
