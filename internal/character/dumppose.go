package character

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/skin"
)

// DumpPose poses the character with every clip at time t and writes the
// pose contract as JSON: the world matrix of every node that is a joint of
// any skin or whose mesh has morph targets (of every node with allNodes),
// with the morph weights of the latter, and the world-space positions of
// every primitive drawn: morphed (v + Σ wₜ·dₜ), then skinned by the glTF
// formula Σ wᵢ·(jointWorldᵢ·inverseBindᵢ)·v over all JOINTS_n/WEIGHTS_n,
// or, rigid, moved by its node's world matrix.
func (c *Character) DumpPose(w io.Writer, t float32, allNodes bool) error {
	c.Evaluate(t)
	m := c.Model
	var nodes []int
	if allNodes {
		for n := range m.JointOfNode {
			nodes = append(nodes, n)
		}
	} else {
		seen := map[int]bool{}
		for _, s := range m.Skins {
			for _, j := range s.Joints {
				n := m.NodeOfJoint[j]
				if !seen[n] {
					seen[n] = true
					nodes = append(nodes, n)
				}
			}
		}
		for n, k := range m.NodeMorph {
			if k >= 0 && !seen[n] {
				seen[n] = true
				nodes = append(nodes, n)
			}
		}
		sort.Ints(nodes)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(`{"clip": `)
	if c.ClipMode && c.Clip >= 0 && !c.InBlend() { // the browser's blend (weight:NAME) is no one clip
		writeJSONString(bw, c.ClipName())
	} else {
		bw.WriteString("null")
	}
	bw.WriteString(`, "time": `)
	writeFloat(bw, t)
	if c.RootMotionOn() {
		// The model transform root motion carried the character to; the
		// nodes and positions below are in the character's model space.
		bw.WriteString(",\n \"root\": {\"translation\": [")
		writeFloats(bw, c.Root.Translation[:], ", ")
		bw.WriteString(`], "rotation": [`)
		q := c.Root.Rotation
		writeFloats(bw, []float32{q.V[0], q.V[1], q.V[2], q.W}, ", ")
		bw.WriteString("]}")
	}
	bw.WriteString(",\n \"nodes\": [")
	for i, n := range nodes {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  {\"index\": ")
		bw.WriteString(strconv.Itoa(n))
		bw.WriteString(`, "name": `)
		writeJSONString(bw, nodeName(c, n))
		bw.WriteString(`, "world": [`)
		wm := c.NodeWorld(n)
		writeFloats(bw, wm[:], ", ")
		bw.WriteString("]")
		if ws := c.MorphWeights(n); ws != nil {
			bw.WriteString(`, "weights": [`)
			writeFloats(bw, ws, ", ")
			bw.WriteString("]")
		}
		bw.WriteString("}")
	}
	bw.WriteString("\n ],\n \"primitives\": [")
	first := true
	var out, morphed []float32
	for _, inst := range m.Instances {
		weights := c.MorphWeights(inst.Node)
		world := c.NodeWorld(inst.Node)
		for pi := range m.Meshes[inst.Mesh].Primitives {
			p := &m.Meshes[inst.Mesh].Primitives[pi]
			if cap(out) < len(p.Positions) {
				out, morphed = make([]float32, len(p.Positions)), make([]float32, len(p.Positions))
			}
			out, morphed = out[:len(p.Positions)], morphed[:len(p.Positions)]
			p.Morph(morphed, nil, weights)
			if inst.Skin >= 0 && p.AllJoints != nil {
				if err := skin.Positions(out, morphed, p.AllJoints, p.AllWeights, 4*p.Sets, c.Palettes[inst.Skin]); err != nil {
					return err
				}
			} else {
				for v := 0; v+3 <= len(morphed); v += 3 {
					q := world.Mul4x1(mgl32.Vec4{morphed[v], morphed[v+1], morphed[v+2], 1})
					out[v], out[v+1], out[v+2] = q[0], q[1], q[2]
				}
			}
			if !first {
				bw.WriteString(",")
			}
			first = false
			bw.WriteString("\n  {\"mesh\": ")
			bw.WriteString(strconv.Itoa(inst.Mesh))
			bw.WriteString(`, "primitive": `)
			bw.WriteString(strconv.Itoa(pi))
			bw.WriteString(`, "node": `)
			bw.WriteString(strconv.Itoa(inst.Node))
			bw.WriteString(`, "positions": [`)
			writeFloats(bw, out, ",")
			bw.WriteString("]}")
		}
	}
	bw.WriteString("\n ]\n}\n")
	return bw.Flush()
}

// nodeName is the node's name from the file (empty when it has none).
func nodeName(c *Character, n int) string {
	return c.Model.NodeNames[n]
}

func writeJSONString(w *bufio.Writer, s string) {
	b, _ := json.Marshal(s)
	w.Write(b)
}

// writeFloat prints the shortest decimal that reads back as the same
// float32, so the dump loses nothing; non-finite values (which the loader
// refuses) would not be JSON, so they are written as null.
// writeFloats writes vals as JSON numbers separated by sep.
func writeFloats(bw *bufio.Writer, vals []float32, sep string) {
	for k, v := range vals {
		if k > 0 {
			bw.WriteString(sep)
		}
		writeFloat(bw, v)
	}
}

func writeFloat(w *bufio.Writer, v float32) {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		w.WriteString("null")
		return
	}
	var buf [32]byte
	w.Write(strconv.AppendFloat(buf[:0], float64(v), 'g', -1, 32))
}
