package gltfload

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"github.com/skinview/skinview/internal/anim"
)

func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// finite32 reports whether every value stays finite in single precision,
// which is what the viewer computes in: 1e300 is a valid JSON number.
func finite32(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > math.MaxFloat32 {
			return false
		}
	}
	return true
}

// loadNodes builds the skeleton over every node, parents first. The walk
// is iterative: a file controls the depth of its hierarchy.
func (l *loader) loadNodes() error {
	nodes := l.doc.Nodes
	n := len(nodes)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
	}
	for i, nd := range nodes {
		if nd == nil {
			return fmt.Errorf("nodes[%d]: null", i)
		}
		for k, c := range nd.Children {
			if c < 0 || c >= n {
				return fmt.Errorf("nodes[%d].children[%d]: nodes[%d] does not exist (%d nodes)", i, k, c, n)
			}
			if c == i {
				return fmt.Errorf("nodes[%d].children[%d]: a node cannot be its own child", i, k)
			}
			if parent[c] >= 0 {
				return fmt.Errorf("nodes[%d].children[%d]: nodes[%d] already has parent nodes[%d]; a node has one parent", i, k, c, parent[c])
			}
			parent[c] = i
		}
	}
	order := make([]int, 0, n)
	jointOf := make([]int, n)
	for i := range jointOf {
		jointOf[i] = -1
	}
	stack := make([]int, 0, 16)
	for root := 0; root < n; root++ {
		if parent[root] >= 0 {
			continue
		}
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			jointOf[v] = len(order)
			order = append(order, v)
			ch := nodes[v].Children
			for k := len(ch) - 1; k >= 0; k-- {
				stack = append(stack, ch[k])
			}
		}
	}
	if len(order) != n {
		// Every node has at most one parent, so a node no root reaches
		// lies on a cycle or below one.
		for i := range jointOf {
			if jointOf[i] < 0 {
				// n steps up from any unreached node end on the cycle;
				// name its smallest node.
				c := i
				for range n {
					c = parent[c]
				}
				low := c
				for v := parent[c]; v != c; v = parent[v] {
					low = min(low, v)
				}
				return fmt.Errorf("nodes[%d]: the node hierarchy has a cycle through this node", low)
			}
		}
	}
	sk := anim.Skeleton{Names: make([]string, n), Parents: make([]int, n), Rest: make([]anim.Transform, n)}
	for j, ni := range order {
		nd := nodes[ni]
		sk.Names[j] = nd.Name
		if nd.Name == "" {
			sk.Names[j] = fmt.Sprintf("node%d", ni)
		}
		if parent[ni] >= 0 {
			sk.Parents[j] = jointOf[parent[ni]]
		} else {
			sk.Parents[j] = -1
		}
		t, err := l.nodeTransform(ni, nd)
		if err != nil {
			return err
		}
		sk.Rest[j] = t
	}
	l.model.Skeleton = sk
	l.model.NodeOfJoint = order
	l.model.NodeNames = make([]string, n)
	for i, nd := range nodes {
		l.model.NodeNames[i] = nd.Name
	}
	l.model.JointOfNode = jointOf
	return nil
}

func (l *loader) nodeTransform(i int, nd *gltf.Node) (anim.Transform, error) {
	if nd.Matrix != gltf.DefaultMatrix {
		if !finite32(nd.Matrix[:]...) {
			return anim.Transform{}, fmt.Errorf("nodes[%d].matrix: not finite in single precision", i)
		}
		var m mgl32.Mat4
		for k, v := range nd.Matrix {
			m[k] = float32(v)
		}
		if m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1 {
			l.issue("NODE_MATRIX_NON_TRS", fmt.Sprintf("nodes[%d].matrix", i), "not affine (last row %v %v %v %v); the last row is ignored", m[3], m[7], m[11], m[15])
		}
		t := anim.DecomposeMat4(m)
		if !finite(float64(t.Scale[0]), float64(t.Scale[1]), float64(t.Scale[2]),
			float64(t.Rotation.W), float64(t.Rotation.V[0]), float64(t.Rotation.V[1]), float64(t.Rotation.V[2])) {
			return anim.Transform{}, fmt.Errorf("nodes[%d].matrix: does not decompose into translation, rotation and scale in single precision", i)
		}
		// glTF forbids shear and singular rotation parts; what is left
		// after dropping them is still drawable.
		back := t.Mat4()
		for k := range 12 {
			if k%4 != 3 && math.Abs(float64(back[k]-m[k])) > 1e-3*max(1, math.Abs(float64(m[k]))) {
				l.issue("NODE_MATRIX_NON_TRS", fmt.Sprintf("nodes[%d].matrix", i), "not a translation, rotation and scale (shear or a singular rotation); approximated")
				break
			}
		}
		return t, nil
	}
	r, s, t := nd.RotationOrDefault(), nd.ScaleOrDefault(), nd.TranslationOrDefault()
	if !finite32(r[:]...) || !finite32(s[:]...) || !finite32(t[:]...) {
		return anim.Transform{}, fmt.Errorf("nodes[%d]: translation, rotation or scale is not finite in single precision", i)
	}
	q, ql := unitQuat(r[0], r[1], r[2], r[3])
	if math.Abs(ql-1) > 1e-3 {
		l.issue("ROTATION_NON_UNIT", fmt.Sprintf("nodes[%d].rotation", i), "length %.4g, normalized", ql)
	}
	return anim.Transform{
		Translation: mgl32.Vec3{float32(t[0]), float32(t[1]), float32(t[2])},
		Rotation:    q,
		Scale:       mgl32.Vec3{float32(s[0]), float32(s[1]), float32(s[2])},
	}, nil
}

// unitQuat normalizes (x, y, z, w) in double precision, so that values
// near the float32 limit do not overflow; a zero quaternion becomes the
// identity. It also returns the original length.
func unitQuat(x, y, z, w float64) (mgl32.Quat, float64) {
	n := math.Sqrt(x*x + y*y + z*z + w*w)
	if n == 0 || !finite(n) {
		return mgl32.QuatIdent(), n
	}
	return mgl32.Quat{W: float32(w / n), V: mgl32.Vec3{float32(x / n), float32(y / n), float32(z / n)}}, n
}

func (l *loader) loadSkins() error {
	for i, s := range l.doc.Skins {
		where := fmt.Sprintf("skins[%d]", i)
		if s == nil {
			return fmt.Errorf("%s: null", where)
		}
		if len(s.Joints) == 0 {
			return fmt.Errorf("%s.joints: empty", where)
		}
		sk := anim.Skin{Name: s.Name, Joints: make([]int, len(s.Joints)), InverseBind: make([]mgl32.Mat4, len(s.Joints))}
		seen := make(map[int]int, len(s.Joints))
		for k, nd := range s.Joints {
			if nd < 0 || nd >= len(l.doc.Nodes) {
				return fmt.Errorf("%s.joints[%d]: nodes[%d] does not exist (%d nodes)", where, k, nd, len(l.doc.Nodes))
			}
			if first, dup := seen[nd]; dup {
				l.issue("DUPLICATE_ELEMENTS", fmt.Sprintf("%s.joints[%d]", where, k), "nodes[%d] is already joint %d; joints must be unique, the duplicate is kept", nd, first)
			} else {
				seen[nd] = k
			}
			sk.Joints[k] = l.model.JointOfNode[nd]
			sk.InverseBind[k] = mgl32.Ident4()
		}
		if s.InverseBindMatrices != nil {
			acc := *s.InverseBindMatrices
			aw := where + ".inverseBindMatrices"
			if err := l.expect(aw, acc, ibmRule); err != nil {
				return err
			}
			l.warnStride(acc, "inverse bind matrices")
			vals, _, err := l.floats(aw, acc, asIs)
			if err != nil {
				return err
			}
			if len(vals)/16 < len(s.Joints) {
				return fmt.Errorf("%s: accessors[%d] has %d matrices for %d joints; want one per joint", aw, acc, len(vals)/16, len(s.Joints))
			}
			for k := range s.Joints {
				m := vals[k*16 : k*16+16]
				for c := range 16 {
					if !finite(float64(m[c])) {
						return fmt.Errorf("%s: accessors[%d] matrix %d is not finite", aw, acc, k)
					}
					sk.InverseBind[k][c] = m[c]
				}
			}
		}
		root := -1
		if s.Skeleton != nil {
			if *s.Skeleton < 0 || *s.Skeleton >= len(l.doc.Nodes) {
				return fmt.Errorf("%s.skeleton: nodes[%d] does not exist (%d nodes)", where, *s.Skeleton, len(l.doc.Nodes))
			}
			root = l.model.JointOfNode[*s.Skeleton]
		}
		l.model.Skins = append(l.model.Skins, sk)
		l.model.SkinRoots = append(l.model.SkinRoots, root)
	}
	return nil
}

// loadScene picks the shown scene and lists the nodes in it that draw.
func (l *loader) loadScene() error {
	var roots []int
	where := "scenes[0]"
	switch {
	case l.doc.Scene != nil:
		si := *l.doc.Scene
		if si < 0 || si >= len(l.doc.Scenes) || l.doc.Scenes[si] == nil {
			return fmt.Errorf("scene: scenes[%d] does not exist (%d scenes)", si, len(l.doc.Scenes))
		}
		where = fmt.Sprintf("scenes[%d]", si)
		roots = l.doc.Scenes[si].Nodes
	case len(l.doc.Scenes) > 0 && l.doc.Scenes[0] != nil:
		// Without a scene named, the viewer chooses (glTF §3.6): the
		// first scene with nodes, so that an empty scenes[0] does not
		// hide the model a later scene holds.
		roots = l.doc.Scenes[0].Nodes
		for si, sc := range l.doc.Scenes {
			if len(roots) > 0 {
				break
			}
			if sc != nil && len(sc.Nodes) > 0 {
				roots, where = sc.Nodes, fmt.Sprintf("scenes[%d]", si)
				l.issue("VIEWER_NOTE", where, "the file names no scene and scenes[0] has no nodes: this one, the first with nodes, is shown")
			}
		}
	default:
		for i := range l.doc.Nodes {
			if l.model.Skeleton.Parents[l.model.JointOfNode[i]] < 0 {
				roots = append(roots, i)
			}
		}
		if len(l.doc.Nodes) > 0 {
			l.issue("VIEWER_NOTE", "", "the file names no scene; every root node is shown")
		}
	}
	if len(roots) == 0 && l.doc.Scenes != nil {
		l.issue("VIEWER_NOTE", where, "no nodes: nothing to draw")
	}
	shown := make([]bool, len(l.doc.Nodes))
	for k, r := range roots {
		if r < 0 || r >= len(l.doc.Nodes) {
			return fmt.Errorf("%s.nodes[%d]: nodes[%d] does not exist (%d nodes)", where, k, r, len(l.doc.Nodes))
		}
		shown[l.model.JointOfNode[r]] = true
	}
	// Parents come first, so one pass marks whole subtrees.
	sk := &l.model.Skeleton
	for j := range sk.Parents {
		if p := sk.Parents[j]; p >= 0 && shown[p] {
			shown[j] = true
		}
	}
	for j, on := range shown {
		if !on {
			continue
		}
		ni := l.model.NodeOfJoint[j]
		nd := l.doc.Nodes[ni]
		l.addCamera(ni)
		l.addLight(ni)
		if nd.Mesh == nil {
			continue
		}
		mi := *nd.Mesh
		if mi < 0 || mi >= len(l.model.Meshes) {
			return fmt.Errorf("nodes[%d].mesh: meshes[%d] does not exist (%d meshes)", ni, mi, len(l.model.Meshes))
		}
		inst := Instance{Node: ni, Mesh: mi, Skin: -1}
		if nd.Skin != nil {
			si := *nd.Skin
			if si < 0 || si >= len(l.model.Skins) {
				return fmt.Errorf("nodes[%d].skin: skins[%d] does not exist (%d skins)", ni, si, len(l.model.Skins))
			}
			inst.Skin = si
			mj := l.meshJoints[mi]
			// A skin on a mesh without joints is drawn rigidly; validateNodes
			// reports it, for every node.
			if mj.skinned && mj.joint >= len(l.model.Skins[si].Joints) {
				return fmt.Errorf("meshes[%d].primitives[%d]: joint index %d is beyond the %d joints of skins[%d] (used by nodes[%d])", mi, mj.prim, mj.joint, len(l.model.Skins[si].Joints), si, ni)
			}
		}
		l.model.Instances = append(l.model.Instances, inst)
	}
	return nil
}
