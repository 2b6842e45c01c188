package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/skinview/skinview/internal/gltfload"
)

// printInfo describes a model: skins, clips, meshes and every problem the
// loader recovered from.
func printInfo(w io.Writer, m *gltfload.Model) {
	fmt.Fprintf(w, "model %s: %d nodes, %d skins, %d clips, %d meshes, %d drawn instances\n",
		m.Name, m.Skeleton.NumJoints(), len(m.Skins), len(m.Clips), len(m.Meshes), len(m.Instances))
	for i, s := range m.Skins {
		root := "none (joints resolve to the scene root)"
		if r := m.SkinRoots[i]; r >= 0 {
			root = fmt.Sprintf("node %d %q", m.NodeOfJoint[r], m.Skeleton.Names[r])
		}
		fmt.Fprintf(w, "skin %d %q: %d joints, skeleton root %s\n", i, s.Name, len(s.Joints), root)
	}
	for i := range m.Clips {
		c := &m.Clips[i]
		interps := map[string]bool{}
		paths := map[string]bool{}
		for _, tr := range c.Tracks {
			interps[tr.Interp.String()] = true
			paths[tr.Path.String()] = true
		}
		fmt.Fprintf(w, "clip %d %q: %.3f s, %d channels (%s; %s)\n", i, c.Name, c.Duration, len(c.Tracks), setList(paths), setList(interps))
	}
	for i, me := range m.Meshes {
		for pi := range me.Primitives {
			p := &me.Primitives[pi]
			infl := "rigid"
			if p.Sets > 0 {
				infl = fmt.Sprintf("up to %d influences (%d JOINTS/WEIGHTS sets), dropped weight max %.4f mean %.6f",
					maxInfluences(p), p.Sets, p.DroppedMax, p.DroppedMean)
			}
			fmt.Fprintf(w, "mesh %d %q primitive %d: %d vertices, %d triangles, %s\n", i, me.Name, pi, p.NumVertices(), len(p.Indices)/3, infl)
		}
	}
	if len(m.Warnings) == 0 {
		fmt.Fprintln(w, "no specification violations found")
	}
	for _, wr := range m.Warnings {
		fmt.Fprintf(w, "warning: %s\n", wr)
	}
}

func setList(set map[string]bool) string {
	if len(set) == 0 {
		return "none"
	}
	var s []string
	for k := range set {
		s = append(s, k)
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// maxInfluences is the largest number of non-zero weights on one vertex.
func maxInfluences(p *gltfload.Primitive) int {
	per := 4 * p.Sets
	best := 0
	for v := 0; v < p.NumVertices(); v++ {
		n := 0
		for _, w := range p.AllWeights[v*per : (v+1)*per] {
			if w != 0 {
				n++
			}
		}
		best = max(best, n)
	}
	return best
}
