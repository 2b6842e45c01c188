package main

import (
	"math"
	"sort"
	"strings"
	"testing"
)

func TestSingleFrameClips(t *testing.T) {
	p := generatedFile(t, "character.glb")
	clips := clipsOf(t, p)
	for _, name := range []string{"AimCenter", "AimLeft", "AimRight", "AimUp", "AimDown", "Lean"} {
		if c := clips[name]; c.keys != 1 || c.channels < 10 {
			t.Errorf("%s: %d keys, %d channels; want one key posing the body", name, c.keys, c.channels)
		}
	}
	// The aims differ where they should: the chest turns left for AimLeft
	// (positive yaw) and pitches back for AimUp.
	chest := nodeIndex(t, p, "chest")
	yaw := func(clip string) float64 {
		q := channelKeys(t, p, clip, chest, "rotation")
		return 2 * math.Atan2(q[1], q[3])
	}
	if yaw("AimLeft") <= 0.1 || yaw("AimRight") >= -0.1 {
		t.Errorf("chest yaw left %.3f right %.3f rad, want clearly positive and negative", yaw("AimLeft"), yaw("AimRight"))
	}
	up := channelKeys(t, p, "AimUp", chest, "rotation")
	down := channelKeys(t, p, "AimDown", chest, "rotation")
	if up[0] >= 0 || down[0] <= 0 {
		t.Errorf("chest pitch up %v down %v: want back (negative x) for AimUp", up, down)
	}
}

func TestStress(t *testing.T) {
	p := generatedFile(t, "stress.glb")
	d := p.doc
	skin := d.Skins[0]
	if len(skin.Joints) <= 300 {
		t.Errorf("%d joints, want more than 300", len(skin.Joints))
	}
	prim := d.Meshes[0].Primitives[0]
	nv := d.Accessors[prim.Attributes["POSITION"]].Count
	if nv >= 40000 {
		t.Errorf("%d vertices, want fewer than 40000", nv)
	}
	clips := clipsOf(t, p)
	if c, ok := clips["Crawl"]; !ok || c.duration != 2 || c.channels < len(skin.Joints) {
		t.Errorf("Crawl: %+v; want a 2 s loop with a channel per joint", c)
	}
	checkLoopsClose(t, p, "Crawl")
	animated := map[int]bool{}
	for _, an := range d.Animations {
		for _, ch := range an.Channels {
			if ch.Target.Path == "rotation" {
				animated[ch.Target.Node] = true
			}
		}
	}
	for _, n := range skin.Joints {
		if !animated[n] {
			t.Errorf("joint %s is not animated", d.Nodes[n].Name)
		}
	}
	// Few joints per triangle, so bone partitions stay small.
	infl := p.influencesOf(t, prim, nv)
	idx := p.values(t, *prim.Indices)
	worst := 0
	for k := 0; k+2 < len(idx); k += 3 {
		js := map[float64]bool{}
		for _, v := range idx[k : k+3] {
			for _, jw := range infl[int(v)] {
				if jw[1] > 0 {
					js[jw[0]] = true
				}
			}
		}
		worst = max(worst, len(js))
	}
	if worst > 4 {
		t.Errorf("a triangle references %d joints, want at most 4", worst)
	}
}

func TestTwist(t *testing.T) {
	p := generatedFile(t, "twist.glb")
	d := p.doc
	skin := d.Skins[0]
	var names []string
	for _, n := range skin.Joints {
		names = append(names, d.Nodes[n].Name)
	}
	if strings.Join(names, " ") != "upper forearm wrist" {
		t.Fatalf("joints %v, want upper forearm wrist", names)
	}
	clips := clipsOf(t, p)
	if c := clips["Twist"]; c.duration != 2 || c.keys != 61 {
		t.Errorf("Twist: %+v, want a 2 s loop", c)
	}
	checkLoopsClose(t, p, "Twist")
	if c := clips["Twist180"]; c.keys != 1 {
		t.Errorf("Twist180: %+v, want one key", c)
	}
	wrist := skin.Joints[2]
	q := channelKeys(t, p, "Twist180", wrist, "rotation")
	if math.Abs(math.Abs(q[0])-1) > 1e-6 {
		t.Errorf("Twist180 wrist rotation %v, want 180 degrees about +X", q)
	}
	mid := channelKeys(t, p, "Twist", wrist, "rotation")[4*30:]
	if math.Abs(math.Abs(mid[0])-1) > 1e-6 {
		t.Errorf("Twist at 1 s: wrist rotation %v, want the full 180 degrees", mid[:4])
	}

	// Linear blend skinning at 180 degrees: a vertex split evenly between
	// forearm and wrist lands on the axis (rotating (0, y, z) by 180
	// degrees about X gives (0, -y, -z), and the average is 0). Find such
	// vertices and check the limb really has them.
	prim := d.Meshes[0].Primitives[0]
	pos := p.values(t, prim.Attributes["POSITION"])
	nv := len(pos) / 3
	collapsed := 0
	for v, in := range p.influencesOf(t, prim, nv) {
		var wWrist, wFore float64
		for _, jw := range in {
			switch int(jw[0]) {
			case 1:
				wFore += jw[1]
			case 2:
				wWrist += jw[1]
			}
		}
		r := math.Hypot(pos[3*v+1], pos[3*v+2])
		if r > 0.04 && wFore+wWrist > 0.999 && math.Abs(wWrist-wFore)*r < 0.005 {
			collapsed++
		}
	}
	if collapsed < 24 {
		t.Errorf("%d vertices collapse to within 5 mm of the axis under LBS at 180 degrees, want a full ring", collapsed)
	}
}

func TestEdgeFiles(t *testing.T) {
	t.Run("two_skins", func(t *testing.T) {
		p := generatedFile(t, "edge/two_skins.gltf")
		if len(p.doc.Skins) != 2 {
			t.Fatalf("%d skins", len(p.doc.Skins))
		}
		a, b := p.doc.Skins[0].Joints, p.doc.Skins[1].Joints
		shared, reordered := 0, false
		for i, n := range a {
			for k, m := range b {
				if n == m {
					shared++
					reordered = reordered || i != k
				}
			}
		}
		if shared < 2 || !reordered {
			t.Errorf("skins share %d joints (reordered %v), want at least 2 at different indices", shared, reordered)
		}
		skinned := 0
		for _, n := range p.doc.Nodes {
			if n.Skin != nil {
				skinned++
			}
		}
		if skinned != 2 {
			t.Errorf("%d skinned nodes, want 2", skinned)
		}
	})
	t.Run("joints_outside", func(t *testing.T) {
		p := generatedFile(t, "edge/joints_outside.gltf")
		parent := parents(p.doc.Nodes)
		skin := p.doc.Skins[0]
		root := skin.Joints[0]
		for c, ok := parent[root]; ok; c, ok = parent[c] {
			root = c
		}
		isJoint := map[int]bool{}
		for _, j := range skin.Joints {
			isJoint[j] = true
		}
		rn := p.doc.Nodes[root]
		if isJoint[root] || rn.Translation == nil || rn.Rotation == nil {
			t.Errorf("the joints' root %q should be a transformed non-joint node", rn.Name)
		}
		for i, n := range p.doc.Nodes {
			if n.Skin != nil && (root == i || n.Translation != nil || n.Rotation != nil) {
				t.Errorf("the skinned node must be a separate, untransformed root")
			}
		}
	})
	t.Run("no_ibm", func(t *testing.T) {
		p := generatedFile(t, "edge/no_ibm.gltf")
		if p.doc.Skins[0].InverseBindMatrices != nil {
			t.Error("the skin has inverseBindMatrices")
		}
	})
	t.Run("eight_influences", func(t *testing.T) {
		p := generatedFile(t, "edge/eight_influences.gltf")
		prim := p.doc.Meshes[0].Primitives[0]
		if _, ok := prim.Attributes["WEIGHTS_1"]; !ok {
			t.Fatal("no WEIGHTS_1")
		}
		nv := p.doc.Accessors[prim.Attributes["POSITION"]].Count
		most := 0
		for _, in := range p.influencesOf(t, prim, nv) {
			n := 0
			for _, jw := range in {
				if jw[1] > 0 {
					n++
				}
			}
			most = max(most, n)
		}
		if most < 5 {
			t.Errorf("at most %d influences per vertex, want some with 5 or more", most)
		}
	})
	t.Run("normalized_weights", func(t *testing.T) {
		p := generatedFile(t, "edge/normalized_weights.gltf")
		var types []int
		for _, prim := range p.doc.Meshes[0].Primitives {
			a := p.doc.Accessors[prim.Attributes["WEIGHTS_0"]]
			if !a.Normalized {
				t.Error("WEIGHTS_0 not normalized")
			}
			types = append(types, a.ComponentType)
		}
		sort.Ints(types)
		if len(types) != 2 || types[0] != compUnsignedByte || types[1] != compUnsignedShort {
			t.Errorf("weight component types %v, want UNSIGNED_BYTE and UNSIGNED_SHORT", types)
		}
	})
	t.Run("cubic_step", func(t *testing.T) {
		p := generatedFile(t, "edge/cubic_step.gltf")
		found := map[string]bool{}
		for _, an := range p.doc.Animations {
			for _, ch := range an.Channels {
				s := an.Samplers[ch.Sampler]
				found[s.Interpolation+" "+ch.Target.Path] = true
				if s.Interpolation == "CUBICSPLINE" {
					out := p.values(t, s.Output)
					n := typeComps[p.doc.Accessors[s.Output].Type]
					nonzero := false
					for k := 0; k < len(out); k += 3 * n {
						for c := 0; c < n; c++ {
							nonzero = nonzero || out[k+c] != 0 || out[k+2*n+c] != 0
						}
					}
					if !nonzero {
						t.Errorf("%s %s: all tangents are zero", an.Name, ch.Target.Path)
					}
				}
			}
		}
		for _, interp := range []string{"CUBICSPLINE", "STEP"} {
			for _, path := range []string{"translation", "rotation", "scale"} {
				if !found[interp+" "+path] {
					t.Errorf("no %s channel on %s", interp, path)
				}
			}
		}
	})
}
