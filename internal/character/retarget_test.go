package character

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/gltfload"
)

// TestImportClipsScaledCopy plays the built-in character's Walk on a copy
// whose every rest translation is 1.3 times longer: joint rotations equal
// the source's, the root's translation is the source's × 1.3, every other
// translation is the copy's rest.
func TestImportClipsScaledCopy(t *testing.T) {
	src, dst := assettest.Character(t), assettest.Character(t)
	for j := range dst.Skeleton.Rest {
		dst.Skeleton.Rest[j].Translation = dst.Skeleton.Rest[j].Translation.Mul(1.3)
	}
	before := len(dst.Clips)
	unmatched, err := asset.ImportClips(dst, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(unmatched) != 0 || len(dst.Clips) != 2*before {
		t.Fatalf("unmatched %v, %d clips; want none unmatched and %d clips", unmatched, len(dst.Clips), 2*before)
	}
	walk, err := asset.FindClip(dst, "Walk (character.glb)")
	if err != nil {
		t.Fatal(err)
	}
	srcWalk, err := asset.FindClip(src, "Walk")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(src, nil, nil, srcWalk, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(dst, nil, nil, walk, 0)
	if err != nil {
		t.Fatal(err)
	}
	root := asset.TopJoint(dst)
	moved := false
	for _, tm := range []float32{0, 0.31, 0.77} {
		a.Evaluate(tm)
		b.Evaluate(tm)
		for j := range dst.Skeleton.NumJoints() {
			_, _, la, _ := a.Joint(j)
			_, _, lb, _ := b.Joint(j)
			if d := la.Rotation.Dot(lb.Rotation); math.Abs(float64(d)) < 1-1e-5 {
				t.Fatalf("t=%v joint %s: rotation %v, source %v", tm, dst.Skeleton.Names[j], lb.Rotation, la.Rotation)
			}
			want := dst.Skeleton.Rest[j].Translation
			if j == root {
				want = la.Translation.Mul(1.3)
				moved = moved || la.Translation != src.Skeleton.Rest[j].Translation
			}
			if !lb.Translation.ApproxEqualThreshold(want, 1e-5) {
				t.Fatalf("t=%v joint %s: translation %v, want %v", tm, dst.Skeleton.Names[j], lb.Translation, want)
			}
		}
	}
	if !moved {
		t.Fatal("the source root never left its rest: the root case was not exercised")
	}
}

// TestContactMarkers: foot contacts found on the built-in Walk (1 s): one
// per foot per cycle, half a cycle apart; the right heel strikes at about
// 0.5 s, where -dump-pose shows foot.R at the front of its swing (z 0.32)
// reaching its low (height within 2 cm of the 0.08 m it keeps planted).
func TestContactMarkers(t *testing.T) {
	m := assettest.Character(t)
	spec, err := graph.ParseSpec([]byte(`{"tree": {"type": "clip", "clip": "Walk"},
	  "contacts": {"joints": ["foot.L", "foot.R"], "height": 0.02, "speed": 0.25}}`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, nil, spec, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	walk, _ := asset.FindClip(m, "Walk")
	ms := c.Ctl.Markers(walk)
	if len(ms) != 2 {
		t.Fatalf("markers %v, want one per foot", ms)
	}
	at := map[string]float32{}
	for _, mk := range ms {
		at[mk.Name] = mk.Time
	}
	l, okL := at["foot.L:down"]
	r, okR := at["foot.R:down"]
	if !okL || !okR || r < 0.4 || r > 0.55 || math.Abs(math.Abs(float64(l-r))-0.5) > 0.05 {
		t.Fatalf("contacts %v: want foot.R:down near 0.5 s and foot.L:down half a cycle away", ms)
	}
	if _, err := graph.ParseSpec([]byte(`{"tree": {"type": "clip", "clip": "Walk"}, "contacts": {"joints": ["hoof"]}}`)); err != nil {
		t.Fatal(err)
	}
	spec, _ = graph.ParseSpec([]byte(`{"tree": {"type": "clip", "clip": "Walk"}, "contacts": {"joints": ["hoof"]}}`))
	if _, err := New(m, nil, spec, -1, 0); err == nil || !strings.Contains(err.Error(), "hoof") {
		t.Fatalf("an unknown contact joint: %v", err)
	}
}

// TestImportClipsCentimetreArmature: the same character re-authored in
// centimetres under a parent scaled 0.01 (the same pose in model space)
// plays the original's Walk with its root where the original's is.
func TestImportClipsCentimetreArmature(t *testing.T) {
	src, dst := assettest.Character(t), assettest.Character(t)
	root := asset.TopJoint(dst)
	p := dst.Skeleton.Parents[root]
	if p < 0 {
		t.Fatal("the root has no parent to scale")
	}
	dst.Skeleton.Rest[p].Scale = dst.Skeleton.Rest[p].Scale.Mul(0.01)
	for j := range dst.Skeleton.NumJoints() {
		for a := j; a >= 0; a = dst.Skeleton.Parents[a] {
			if a == root {
				dst.Skeleton.Rest[j].Translation = dst.Skeleton.Rest[j].Translation.Mul(100)
				break
			}
		}
	}
	if _, err := asset.ImportClips(dst, src, nil); err != nil {
		t.Fatal(err)
	}
	walk, _ := asset.FindClip(dst, "Walk (character.glb)")
	srcWalk, _ := asset.FindClip(src, "Walk")
	a, _ := New(src, nil, nil, srcWalk, 0)
	b, _ := New(dst, nil, nil, walk, 0)
	for _, tm := range []float32{0.1, 0.6} {
		a.Evaluate(tm)
		b.Evaluate(tm)
		pa, pb := a.JointWorld(root).Col(3).Vec3(), b.JointWorld(root).Col(3).Vec3()
		if !pa.ApproxEqualThreshold(pb, 1e-4) {
			t.Fatalf("t=%v: root at %v, the original's at %v", tm, pb, pa)
		}
	}
}

// TestImportUnnamedClipsNamesApart: unnamed clips (the COLLADA2GLTF
// samples') on both sides were both "clip 0" in the clip browser, whose
// weight parameters then clashed and no character could be built.
func TestImportUnnamedClipsNamesApart(t *testing.T) {
	dst, src := assettest.Character(t), assettest.Character(t)
	dst.Clips = dst.Clips[:1]
	dst.Clips[0].Name = ""
	src.Clips[0].Name = ""
	if _, err := asset.ImportClips(dst, src, nil); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range dst.Clips {
		name := asset.ClipName(dst, i)
		if seen[name] {
			t.Errorf("two clips shown as %q", name)
		}
		seen[name] = true
	}
	if _, err := New(dst, nil, nil, 0, 0); err != nil {
		t.Fatal(err)
	}
	// -blend names them as the browser shows them, or by index.
	for _, blend := range []string{"clip 0:0.5,clip 0 (character.glb):0.5", "0:0.5,1:0.5"} {
		spec, err := QuickSpec(dst, blend, "", -1)
		if err != nil {
			t.Fatalf("-blend %s: %v", blend, err)
		}
		if _, err := New(dst, nil, spec, -1, 0); err != nil {
			t.Fatalf("-blend %s: %v", blend, err)
		}
	}
}

// TestQuickSpecRefusesReferenceOutsideClip: -additive's reference time
// outside its clip (frames typed for seconds, say) is an error naming the
// clip's span, not a pose clamped to its end.
func TestQuickSpecRefusesReferenceOutsideClip(t *testing.T) {
	m := assettest.Character(t)
	for _, add := range []string{"Idle:0.5@1", "Idle:0.5@3.0004"} { // the end as -info prints it
		if _, err := QuickSpec(m, "", add, -1); err != nil {
			t.Fatalf("-additive %s: %v", add, err)
		}
	}
	for _, add := range []string{"Idle:0.5@99", "Idle:0.5@-1", "Idle:0.5@3.001"} {
		if _, err := QuickSpec(m, "", add, -1); err == nil || !strings.Contains(err.Error(), `outside clip "Idle" (0 to 3.000 s)`) {
			t.Errorf("-additive %s: %v; want an error naming Idle's span", add, err)
		}
	}
}

// TestLastClipOutOfTheBlendPlaysAlone: taking every clip out of the
// clip browser's blend leaves the last one playing, not the rest pose.
func TestLastClipOutOfTheBlendPlaysAlone(t *testing.T) {
	m := assettest.Character(t)
	c, err := New(m, nil, nil, 0, 0) // Walk
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetBlendWeight(3, 1); err != nil { // Walk and Run
		t.Fatal(err)
	}
	c.Ctl.Update(0.01)
	c.SetBlendWeight(0, 0)
	c.SetBlendWeight(3, 0)
	c.Ctl.Update(1)
	if c.InBlend() || c.Clip != 3 || c.ClipWeights()[3] != 1 {
		t.Fatalf("blend %v, clip %d, weights %v; want Run alone", c.InBlend(), c.Clip, c.ClipWeights())
	}
}

// A spec's root motion joint that the model lacks is named with its path,
// as every other spec error is.
func TestSpecRootMotionJointNamesItsPath(t *testing.T) {
	spec, err := graph.ParseSpec([]byte(`{"tree": "Walk", "rootMotion": {"joint": "nojoint", "mode": "xz"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(assettest.Character(t), nil, spec, -1, 0); err == nil || !strings.Contains(err.Error(), `rootMotion.joint`) || !strings.Contains(err.Error(), `"nojoint"`) {
		t.Errorf("error %v; want it to name rootMotion.joint and the joint", err)
	}
}

// worldRotation is the rotation of a world matrix whose scale is uniform.
func worldRotation(m mgl32.Mat4) mgl32.Quat {
	for c := range 3 {
		col := m.Col(c).Vec3().Normalize()
		m.SetCol(c, col.Vec4(0))
	}
	m.SetCol(3, mgl32.Vec4{0, 0, 0, 1})
	return mgl32.Mat4ToQuat(m).Normalize()
}

// angleDeg is the angle of the rotation taking b to a, in degrees; from
// the half-angle's sine and cosine, as an arc cosine of a dot product
// near 1 loses a twentieth of a degree to float32.
func angleDeg(a, b mgl32.Quat) float64 {
	d := a.Mul(b.Inverse())
	s := math.Hypot(math.Hypot(float64(d.V[0]), float64(d.V[1])), float64(d.V[2]))
	return 2 * math.Atan2(s, math.Abs(float64(d.W))) * 180 / math.Pi
}

// restChange is joint j's world rotation change from its rest pose (the
// file's node transforms) in c's pose now.
func restChange(c *Character, j int) mgl32.Quat {
	rest := worldRotation(c.Model.Skeleton.RestModel(j))
	return worldRotation(c.JointWorld(j)).Mul(rest.Inverse())
}

// playing is a character playing m's clip of that name.
func playing(t *testing.T, m *gltfload.Model, clip string) *Character {
	t.Helper()
	i, err := asset.FindClip(m, clip)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, nil, nil, i, 0)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRetargetRigsByHand plays rig A's walk on rig B, whose joints rest on
// other axes under a Z-up armature, and checks B's world rotations at 1 s
// against changes from rest worked out by hand. With A's rests all the
// identity, a joint's world change is the product of its chain's keys:
// the hips' 90° about Y is (0, √½, 0, √½), and every joint above the
// thigh and the arm shares it; the upper arm adds 90° about Z, so
// Ry(90)·Rz(90) = (½, ½, ½, ½), which the forearm, the twist joint A
// lacks and the hand share; the thigh adds −90° about X: Ry(90)·Rx(−90) =
// (−½, ½, ½, ½). The hips move (0.3, −0.1, 0.5) from rest in A, × 1.2 in
// B: from (0, 1.2, 0) to (0.36, 1.08, 0.6).
func TestRetargetRigsByHand(t *testing.T) {
	a, b := rig(t, false), rig(t, true)
	unmatched, err := asset.ImportClips(b, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(unmatched, []string{"forearm_twist.L"}) {
		t.Errorf("unmatched %v, want the twist joint A lacks", unmatched)
	}
	c := playing(t, b, "walk")
	c.Evaluate(1)
	h := float32(math.Sqrt2 / 2)
	yTurn := mgl32.Quat{W: h, V: mgl32.Vec3{0, h, 0}}
	armUp := mgl32.Quat{W: 0.5, V: mgl32.Vec3{0.5, 0.5, 0.5}}
	legUp := mgl32.Quat{W: 0.5, V: mgl32.Vec3{-0.5, 0.5, 0.5}}
	for name, want := range map[string]mgl32.Quat{
		"hips": yTurn, "spine": yTurn, "chest": yTurn, "head": yTurn,
		"upperarm.L": armUp, "forearm.L": armUp, "forearm_twist.L": armUp, "hand.L": armUp,
		"thigh.L": legUp,
	} {
		j := b.Skeleton.JointIndex(name)
		if got := restChange(c, j); angleDeg(got, want) > 0.01 {
			t.Errorf("%s: world change from rest %v, want %v (%.3f° apart)", name, got, want, angleDeg(got, want))
		}
	}
	twist := b.Skeleton.JointIndex("forearm_twist.L")
	if _, _, local, _ := c.Joint(twist); angleDeg(local.Rotation, b.Skeleton.Rest[twist].Rotation) > 0.01 {
		t.Errorf("the twist joint A lacks turned from its rest local rotation: %v, rest %v", local.Rotation, b.Skeleton.Rest[twist].Rotation)
	}
	if got := c.JointWorld(b.Skeleton.JointIndex("hips")).Col(3).Vec3(); !got.ApproxEqualThreshold(mgl32.Vec3{0.36, 1.08, 0.6}, 1e-4) {
		t.Errorf("hips at %v, want (0.36, 1.08, 0.6)", got)
	}
}

// checkRetargeted measures, at times in and between keys, what the
// acceptance of a retarget measures: for every joint both skins share,
// the angle between the target's and the source's world rotation change
// from rest, and the hips' displacement from rest against the source's
// times k, the source's both turned by turn (the facing turn between the
// two). Both are played through the engine. A joint counts as shared
// when it is in every skin of via too, the files the clip went through.
func checkRetargeted(t *testing.T, src *gltfload.Model, srcClip string, dst *gltfload.Model, dstClip string, k float32, turn mgl32.Quat, via ...*gltfload.Model) {
	t.Helper()
	a, b := playing(t, src, srcClip), playing(t, dst, dstClip)
	inSkin := func(m *gltfload.Model, name string) bool {
		return slices.ContainsFunc(m.Skins[0].Joints, func(j int) bool { return m.Skeleton.Names[j] == name })
	}
	shared := map[int]int{} // dst joint → src joint
	for _, j := range dst.Skins[0].Joints {
		name := dst.Skeleton.Names[j]
		if s := src.Skeleton.JointIndex(name); s >= 0 && inSkin(src, name) &&
			!slices.ContainsFunc(via, func(m *gltfload.Model) bool { return !inSkin(m, name) }) {
			shared[j] = s
		}
	}
	if len(shared) < 5 {
		t.Fatalf("%d shared joints; the rigs should share most", len(shared))
	}
	hs, ht := src.Skeleton.JointIndex("hips"), dst.Skeleton.JointIndex("hips")
	hipHeight := dst.Skeleton.RestModel(ht).Col(3)[1]
	worst := 0.0
	for _, tm := range []float32{0, 0.3, 0.5, 1, 1.25, 1.7, 2} {
		a.Evaluate(tm)
		b.Evaluate(tm)
		for j, s := range shared {
			d := angleDeg(restChange(b, j), turn.Mul(restChange(a, s)).Mul(turn.Inverse()))
			worst = math.Max(worst, d)
			if d > 0.01 {
				t.Errorf("t=%v %s: the world change from rest is %.3f° off the source's", tm, dst.Skeleton.Names[j], d)
			}
		}
		ds := turn.Rotate(a.JointWorld(hs).Col(3).Vec3().Sub(src.Skeleton.RestModel(hs).Col(3).Vec3()))
		dt := b.JointWorld(ht).Col(3).Vec3().Sub(dst.Skeleton.RestModel(ht).Col(3).Vec3())
		if off := dt.Sub(ds.Mul(k)).Len(); off > 1e-4*hipHeight {
			t.Errorf("t=%v: hips moved %v, want the source's %v × %v (%.4f%% of the hip height off)", tm, dt, ds, k, 100*off/hipHeight)
		}
	}
	t.Logf("worst angle %.5f°", worst)
}

// TestRetargetRigsMeasured: rig A's walk on rig B and back onto A meets
// the acceptance measure everywhere, between keys included.
func TestRetargetRigsMeasured(t *testing.T) {
	a, b := rig(t, false), rig(t, true)
	if _, err := asset.ImportClips(b, a, nil); err != nil {
		t.Fatal(err)
	}
	t.Run("A onto B", func(t *testing.T) {
		checkRetargeted(t, a, "walk", b, "walk", rigHipHeightB/rigHipHeightA, mgl32.QuatIdent())
	})
	t.Run("B onto A", func(t *testing.T) {
		back := rig(t, false)
		if _, err := asset.ImportClips(back, b, nil); err != nil {
			t.Fatal(err)
		}
		checkRetargeted(t, b, "walk", back, "walk (b.gltf)", rigHipHeightA/rigHipHeightB, mgl32.QuatIdent())
		// There and back again is A's own walk.
		checkRetargeted(t, a, "walk", back, "walk (b.gltf)", 1, mgl32.QuatIdent(), b)
	})
}

// TestRetargetOppositeFacing: rig B exported facing the other way (its
// armature node turned a further 180° about +Y, as three.js' Soldier
// faces −Z where Mixamo's X Bot faces +Z) takes rig A's walk turned by
// that half turn: each joint's world change from rest is the source's
// seen from behind (conjugated by the half turn), and the hips walk the
// target's way. Back onto A, the walk is A's own again.
func TestRetargetOppositeFacing(t *testing.T) {
	half := mgl32.Quat{W: 0, V: mgl32.Vec3{0, 1, 0}}
	a, b := rig(t, false), facingBack(t)
	if _, err := asset.ImportClips(b, a, nil); err != nil {
		t.Fatal(err)
	}
	checkRetargeted(t, a, "walk", b, "walk", rigHipHeightB/rigHipHeightA, half)
	back := rig(t, false)
	if _, err := asset.ImportClips(back, b, nil); err != nil {
		t.Fatal(err)
	}
	checkRetargeted(t, a, "walk", back, "walk (b.gltf)", 1, mgl32.QuatIdent(), b)
}

// facingBack is rig B with its armature turned 180° about +Y: every
// joint's local transform is B's, the character faces −Z.
func facingBack(t *testing.T) *gltfload.Model {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(rigGLTF(t, true), &doc); err != nil {
		t.Fatal(err)
	}
	arm := doc["nodes"].([]any)[0].(map[string]any)
	if arm["name"] != "Armature" {
		t.Fatalf("node 0 is %v, not rig B's armature", arm["name"])
	}
	q := mgl32.Quat{W: 0, V: mgl32.Vec3{0, 1, 0}}.Mul(mgl32.QuatRotate(-math.Pi/2, mgl32.Vec3{1, 0, 0}))
	arm["rotation"] = []float32{q.V[0], q.V[1], q.V[2], q.W}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gltfload.Decode(data, nil, "b.gltf")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRetargetOntoItself: a file's clips retargeted onto the file itself
// give the same pose, every node's world matrix, at key times and between
// them; for rig A and for rig B, whose armature turns and scales.
func TestRetargetOntoItself(t *testing.T) {
	withWalk := func(b bool) *gltfload.Model {
		m := rig(t, b)
		if b {
			if _, err := asset.ImportClips(m, rig(t, false), nil); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	for _, b := range []bool{false, true} {
		src, dst := withWalk(b), withWalk(b)
		if _, err := asset.ImportClips(dst, src, nil); err != nil {
			t.Fatal(err)
		}
		own, again := playing(t, dst, "walk"), playing(t, dst, "walk ("+src.Name+")")
		for _, tm := range []float32{0, 0.4, 1, 1.6, 2} {
			own.Evaluate(tm)
			again.Evaluate(tm)
			for j := range dst.Skeleton.NumJoints() {
				w, g := own.JointWorld(j), again.JointWorld(j)
				for i := range w {
					if math.Abs(float64(w[i]-g[i])) > 1e-5 {
						t.Errorf("%s t=%v %s: world %v, want %v", src.Name, tm, dst.Skeleton.Names[j], g, w)
						break
					}
				}
			}
		}
	}
}
