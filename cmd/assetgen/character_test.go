package main

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestCharacter(t *testing.T) {
	p := generatedFile(t, "character.glb")
	d := p.doc
	if len(d.Skins) != 1 || len(d.Meshes) != 1 || len(d.Meshes[0].Primitives) != 1 {
		t.Fatalf("want one skin and one primitive")
	}
	skin := d.Skins[0]
	if len(skin.Joints) < 40 {
		t.Errorf("%d joints, want at least 40", len(skin.Joints))
	}
	// The original 19 joints keep their names and order; other code and
	// specs refer to them.
	names := []string{"hips", "spine", "chest", "neck", "head",
		"shoulder.L", "upper_arm.L", "forearm.L", "hand.L",
		"shoulder.R", "upper_arm.R", "forearm.R", "hand.R",
		"thigh.L", "shin.L", "foot.L", "thigh.R", "shin.R", "foot.R"}
	for i, want := range names {
		if got := d.Nodes[skin.Joints[i]].Name; got != want {
			t.Errorf("joint %d is %q, want %q", i, got, want)
		}
	}
	seen := map[string]bool{}
	fingers := 0
	for _, n := range skin.Joints {
		name := d.Nodes[n].Name
		if seen[name] {
			t.Errorf("joint name %q used twice", name)
		}
		seen[name] = true
		for _, f := range []string{"thumb_", "index_", "middle_", "ring_", "pinky_"} {
			if strings.HasPrefix(name, f) {
				fingers++
			}
		}
	}
	if fingers != 30 || !seen["index_1.L"] || !seen["pinky_3.R"] || !seen["toe.L"] {
		t.Errorf("%d finger joints, want 3 per finger on both hands, and toes", fingers)
	}
	if skin.Skeleton == nil || d.Nodes[*skin.Skeleton].Name != "hips" {
		t.Error("skin.skeleton must be the hips node")
	}
	parent := parents(d.Nodes)
	order := map[int]int{}
	for k, n := range skin.Joints {
		order[n] = k
		if pk, ok := order[parent[n]]; k > 0 && (!ok || pk >= k) {
			t.Errorf("joint %s listed before its parent", d.Nodes[n].Name)
		}
	}

	prim := d.Meshes[0].Primitives[0]
	pos := d.Accessors[prim.Attributes["POSITION"]]
	if h := pos.Max[1]; h < 1.75 || h > 1.85 {
		t.Errorf("height %.3f m, want about 1.8", h)
	}
	if math.Abs(pos.Min[1]) > 1e-4 {
		t.Errorf("lowest point at y=%v, want the soles on y=0", pos.Min[1])
	}
	if len(d.Materials) != 1 || d.Materials[0].PBR.BaseColorTexture == nil || len(d.Images) != 1 ||
		d.Images[0].MimeType != "image/png" {
		t.Error("want one material with a PNG base-colour texture")
	}
	if _, ok := prim.Attributes["TEXCOORD_0"]; !ok {
		t.Error("no TEXCOORD_0")
	}

	want := map[string]float64{
		"Idle": 3, "Walk": 1, "Run": 0.7, "StrafeLeft": 1, "StrafeRight": 1, "Jump": 1.2, "Wave": 2,
		"AimCenter": 0, "AimLeft": 0, "AimRight": 0, "AimUp": 0, "AimDown": 0, "Lean": 0,
	}
	clips := clipsOf(t, p)
	for name, dur := range want {
		c, ok := clips[name]
		if !ok {
			t.Errorf("missing clip %s", name)
			continue
		}
		if math.Abs(c.duration-dur) > 1e-6 || c.keys != int(math.Round(dur*30))+1 {
			t.Errorf("%s: %d keys over %v s, want %v s at 30 keys per second", name, c.keys, c.duration, dur)
		}
	}
	if len(clips) != len(want) {
		t.Errorf("%d clips, want %d", len(clips), len(want))
	}
	checkLoopsClose(t, p, "Idle", "Walk", "Run", "StrafeLeft", "StrafeRight")
	for _, an := range d.Animations {
		for _, s := range an.Samplers {
			if s.Interpolation != "LINEAR" {
				t.Errorf("%s: interpolation %s", an.Name, s.Interpolation)
			}
		}
	}

	// In-place motion: the hips move vertically only.
	hips := skin.Joints[0]
	rest := d.Nodes[hips].Translation
	for name := range want {
		out := channelKeys(t, p, name, hips, "translation")
		for k := 0; k < len(out); k += 3 {
			if out[k] != float64(float32(rest[0])) || out[k+2] != float64(float32(rest[2])) {
				t.Fatalf("%s: hips leave their rest x/z", name)
			}
		}
	}
}

// TestCharacterStartsAndEndsStanding: Jump and Wave start and end in Idle's
// first pose, and Lean is that pose plus the slump, so all three blend with
// Idle without a pop.
func TestCharacterStartsAndEndsStanding(t *testing.T) {
	p := generatedFile(t, "character.glb")
	skin := p.doc.Skins[0]
	for _, clip := range []string{"Jump", "Wave"} {
		for _, n := range skin.Joints {
			for _, path := range []string{"rotation", "translation"} {
				idle := keysOrRest(t, p, "Idle", n, path)
				got := keysOrRest(t, p, clip, n, path)
				c := 3
				if path == "rotation" {
					c = 4
				}
				for k := 0; k < c; k++ {
					first, last := got[k], got[len(got)-c+k]
					if math.Abs(first-idle[k]) > 1e-6 || math.Abs(last-idle[k]) > 1e-6 {
						t.Errorf("%s: %s %s starts at %v and ends at %v, Idle starts at %v",
							clip, p.doc.Nodes[n].Name, path, got[:c], got[len(got)-c:], idle[:c])
						break
					}
				}
			}
		}
	}
}

// keysOrRest returns a channel's keys, or the node's rest value when the
// clip does not animate it.
func keysOrRest(t *testing.T, p *parsed, clip string, node int, path string) []float64 {
	if k := channelKeys(t, p, clip, node, path); k != nil {
		return k
	}
	nd := p.doc.Nodes[node]
	switch {
	case path == "rotation" && nd.Rotation != nil:
		return nd.Rotation
	case path == "rotation":
		return []float64{0, 0, 0, 1}
	case nd.Translation != nil:
		return nd.Translation
	}
	return []float64{0, 0, 0}
}

// TestFootContactPhase computes the left sole's lowest point from the keys
// in the file (forward kinematics over the written node transforms) and
// finds where the foot comes down on the floor (y = 0): all the locomotion
// loops must agree, at normalized time 0, so phase-synchronized blends keep
// the feet in step.
func TestFootContactPhase(t *testing.T) {
	p := generatedFile(t, "character.glb")
	// The heel and the ball of the foot, relative to the ankle (the
	// character's proportions, not the generator's constants).
	sole := []mgl64.Vec3{{0, -0.08, -0.075}, {0, -0.08, 0.118}}
	for _, clip := range []string{"Walk", "Run", "StrafeLeft", "StrafeRight"} {
		mats := jointMatrices(t, p, clip, "foot.L")
		n := len(mats) - 1 // the last key repeats the first
		heights := make([]float64, n)
		for k := range heights {
			heights[k] = math.Inf(1)
			for _, s := range sole {
				heights[k] = math.Min(heights[k], mgl64.TransformCoordinate(s, mats[k]).Y())
			}
		}
		const touching = 0.004
		contact := -1
		for k := 0; k < n; k++ {
			if heights[k] < touching && heights[(k-1+n)%n] >= touching {
				contact = k
				break
			}
		}
		if contact < 0 {
			t.Errorf("%s: no contact found in %v", clip, heights)
			continue
		}
		phase := float64(contact) / float64(n)
		if math.Min(phase, 1-phase) > 1.01/float64(n) {
			t.Errorf("%s: left foot lands at normalized time %.3f, want 0", clip, phase)
		}
		if air := heights[n-n/6]; air < 0.02 {
			t.Errorf("%s: left foot not in the air before contact (%.3f m above the floor)", clip, air)
		}
	}
}

// jointMatrices returns a joint's model matrix at every key of a clip.
func jointMatrices(t *testing.T, p *parsed, clip, joint string) []mgl64.Mat4 {
	d := p.doc
	target := nodeIndex(t, p, joint)
	parent := parents(d.Nodes)
	keys := clipsOf(t, p)[clip].keys
	out := make([]mgl64.Mat4, keys)
	for k := 0; k < keys; k++ {
		m := mgl64.Ident4()
		for c, ok := target, true; ok; c, ok = parent[c] {
			tr := keysOrRest(t, p, clip, c, "translation")
			r := keysOrRest(t, p, clip, c, "rotation")
			if len(tr) > 3 {
				tr = tr[3*k:]
			}
			if len(r) > 4 {
				r = r[4*k:]
			}
			m = mgl64.Translate3D(tr[0], tr[1], tr[2]).Mul4(mgl64.Vec4{r[0], r[1], r[2], r[3]}.Quat().Mat4()).Mul4(m)
		}
		out[k] = m
	}
	return out
}

// TestLegsReachTheirTargets: every foot placement the clips ask for is
// within the legs' reach, so planted feet really stay on their marks.
func TestLegsReachTheirTargets(t *testing.T) {
	js := skeleton()
	for _, c := range humanClips(js) {
		n := int(math.Round(c.duration*keyRate)) + 1
		for i := 0; i < n; i++ {
			p := restPose(js)
			c.sample(&p, float64(i)/keyRate)
			if p.missed != 0 {
				t.Errorf("%s at %.3f s: %d leg targets out of reach", c.name, float64(i)/keyRate, p.missed)
			}
		}
	}
}
