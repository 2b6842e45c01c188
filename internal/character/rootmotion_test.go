package character

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
)

// rootDump is the part of -dump-pose root motion adds, and the pelvis.
type rootDump struct {
	Root *struct {
		Translation []float64 `json:"translation"`
		Rotation    []float64 `json:"rotation"`
	} `json:"root"`
	Nodes []struct {
		Name  string    `json:"name"`
		World []float64 `json:"world"`
	} `json:"nodes"`
}

func walker(t *testing.T, clip string) *Character {
	t.Helper()
	m, err := gltfload.LoadFS(assets.EdgeFS, "edge/root_walk.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c := playing(t, m, clip)
	if err := c.SetRootMotion("", anim.RootXZ); err != nil {
		t.Fatal(err)
	}
	return c
}

func dumpRoot(t *testing.T, c *Character, tm float32) rootDump {
	t.Helper()
	var out bytes.Buffer
	if err := c.DumpPose(&out, tm, false); err != nil {
		t.Fatal(err)
	}
	var d rootDump
	if err := json.Unmarshal(out.Bytes(), &d); err != nil || d.Root == nil {
		t.Fatalf("dump at %v: %v\n%s", tm, err, out.String())
	}
	return d
}

// TestRootMotionDump: the generated walker's pelvis travels 0.8 m along
// +Z per 1 s loop. With root motion the dump's pelvis keeps x = z = 0 at
// every time, while "root" is 0.8·t along Z however many loops t spans,
// continuous across the wrap, and negative times walk back.
func TestRootMotionDump(t *testing.T) {
	c := walker(t, "Walk")
	for _, tm := range []float32{0.25, 0.999, 1, 1.001, 1.25, 2.25, 3.6, -0.75} {
		d := dumpRoot(t, c, tm)
		if got, want := d.Root.Translation[2], 0.8*float64(tm); math.Abs(got-want) > 1e-4 || math.Abs(d.Root.Translation[0]) > 1e-6 {
			t.Errorf("t=%v: root at %v, want z %v", tm, d.Root.Translation, want)
		}
		for _, n := range d.Nodes {
			if n.Name == "pelvis" && (math.Abs(n.World[12]) > 1e-5 || math.Abs(n.World[14]) > 1e-5) {
				t.Errorf("t=%v: the pelvis kept its travel: %v", tm, n.World[12:15])
			}
		}
	}
}

// TestRootMotionTurnWalk: TurnWalk travels 1 m along +Z while turning 90°
// about Y per 2 s loop: after one loop the root is at (0, 0, 1) facing
// 90° round; after two it has gone 1 m more in that direction, to
// (1, 0, 1), facing 180° round.
func TestRootMotionTurnWalk(t *testing.T) {
	c := walker(t, "TurnWalk")
	for _, tc := range []struct {
		tm      float32
		x, z    float64
		facingX float64 // +Z turned by the heading: its X
		facingZ float64
	}{
		{2, 0, 1, 1, 0},
		{4, 1, 1, 0, -1},
	} {
		d := dumpRoot(t, c, tc.tm)
		p, q := d.Root.Translation, d.Root.Rotation
		if math.Abs(p[0]-tc.x) > 1e-3 || math.Abs(p[2]-tc.z) > 1e-3 {
			t.Errorf("t=%v: root at %v, want (%v, 0, %v)", tc.tm, p, tc.x, tc.z)
		}
		// +Z rotated by q (x, y, z, w) about Y: (sin θ, 0, cos θ).
		s, cth := 2*q[1]*q[3], 1-2*q[1]*q[1]
		if math.Abs(s-tc.facingX) > 1e-3 || math.Abs(cth-tc.facingZ) > 1e-3 {
			t.Errorf("t=%v: facing (%v, %v), want (%v, %v)", tc.tm, s, cth, tc.facingX, tc.facingZ)
		}
	}
}

// TestRootTrailAndShown: played frame by frame, the walker's root leaves
// a trail of its positions, oldest first, one a frame, the last where the
// root is; past the trail's length the oldest drop out, and it holds
// exactly that many. A point of the model is shown where the root has
// carried and turned it: TurnWalk after one loop stands at (0, 0, 1)
// facing 90° round, so the model's (0, 0, 1) is shown at (1, 0, 1).
func TestRootTrailAndShown(t *testing.T) {
	c := walker(t, "Walk") // root motion set on: the root anchored, the trail's first point
	for range 10 {
		c.Advance(0.1)
	}
	var trail []float32
	c.RootTrail(func(p mgl32.Vec3) { trail = append(trail, p[2]) })
	if len(trail) != 11 {
		t.Fatalf("%d trail points after 10 frames; want 11 (the anchor and one a frame)", len(trail))
	}
	for k, z := range trail {
		if math.Abs(float64(z)-0.08*float64(k)) > 1e-4 {
			t.Fatalf("trail point %d at z %v; want %v (0.8 m/s, oldest first): %v", k, z, 0.08*float64(k), trail)
		}
	}
	for range rootTrailLen {
		c.Advance(0.1)
	}
	n := 0
	var last float32
	c.RootTrail(func(p mgl32.Vec3) { n, last = n+1, p[2] })
	if n != rootTrailLen || math.Abs(float64(last-c.Root.Translation[2])) > 1e-6 {
		t.Errorf("a trail of %d points ending at z %v; want %d ending at the root's %v", n, last, rootTrailLen, c.Root.Translation[2])
	}

	turn := walker(t, "TurnWalk")
	for range 20 {
		turn.Advance(0.1)
	}
	if got := turn.Shown(mgl32.Vec3{0, 0, 1}); math.Abs(float64(got[0])-1) > 1e-3 || math.Abs(float64(got[2])-1) > 1e-3 {
		t.Errorf("after one TurnWalk loop the model's (0, 0, 1) is shown at %v; want (1, 0, 1)", got)
	}
}
