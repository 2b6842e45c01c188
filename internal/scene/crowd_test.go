package scene

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/render"
)

// twoJoint decodes the two-joint file under name, each edit's first
// text replaced by its second (the test fails where the file no longer
// has one), and makes a character of it playing clip (−1: none).
func twoJoint(t *testing.T, name string, clip int, edits ...[2]string) (*gltfload.Model, *character.Character) {
	t.Helper()
	doc := string(assettest.TwoJointGLTF(t))
	for _, r := range edits {
		if !strings.Contains(doc, r[0]) {
			t.Fatalf("the two-joint file no longer has %s", r[0])
		}
		doc = strings.Replace(doc, r[0], r[1], 1)
	}
	m, err := gltfload.Decode([]byte(doc), nil, name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := character.New(m, nil, nil, clip, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, c
}

// withView runs f on the GL thread with a 64×64 GPU-skinned view of c,
// destroyed after.
func withView(t *testing.T, c *character.Character, f func(v *View) error) {
	t.Helper()
	onGL(t, func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU}, 64, 64)
		if err != nil {
			return err
		}
		defer v.Destroy()
		return f(v)
	})
}

// rigidTwoJoint is the two-joint file with its mesh hanging from the
// tip without a skin, and further replacements made, and a character of
// it.
func rigidTwoJoint(t *testing.T, more ...[2]string) (*gltfload.Model, *character.Character) {
	t.Helper()
	return twoJoint(t, "rigid.gltf", -1, append([][2]string{
		{`"scene": 0, "scenes": [{"nodes": [0, 2]}]`, `"scene": 0, "scenes": [{"nodes": [0]}]`},
		{`{"name": "tip", "translation": [0, 1, 0]}`, `{"name": "tip", "translation": [0, 1, 0], "children": [2]}`},
		{`{"name": "body", "mesh": 0, "skin": 0, "translation": [5, 0, 0]}`, `{"name": "body", "mesh": 0}`},
		{`"skins": [{"joints": [0, 1], "inverseBindMatrices": 3}],`, ``},
	}, more...)...)
}

// withRigidCrowd runs f on the GL thread with a crowd of n members of
// rigidTwoJoint, their clocks together, and the character it was made of.
func withRigidCrowd(t *testing.T, n int, opt CrowdOptions, f func(cr *Crowd, c *character.Character, v *View)) {
	m, c := rigidTwoJoint(t)
	withView(t, c, func(v *View) error {
		cr, err := NewCrowd(v.R, m, 0.3, c, v.Scene, n, opt)
		if err != nil {
			return err
		}
		defer cr.Close()
		for i := range cr.offsets {
			cr.offsets[i] = 0
		}
		f(cr, c, v)
		return nil
	})
}

// TestCrowdPlacesRigidMeshes: a crowd of a model whose mesh hangs from
// the animated joint without a skin. Each member draws it at that joint's
// model matrix (the crowd keeps model matrices for it), moved to its
// place: at 0.5 s the tip has turned 45° about +Z at (0, 2, 0).
func TestCrowdPlacesRigidMeshes(t *testing.T) {
	for _, opt := range []CrowdOptions{{}, {Members: true}} {
		withRigidCrowd(t, 3, opt, func(cr *Crowd, _ *character.Character, _ *View) {
			cr.PoseAt(0.5)
			want := mgl32.Translate3D(0, 2, 0).Mul4(mgl32.HomogRotate3DZ(mgl32.DegToRad(45)))
			for i, mb := range cr.members {
				// What is drawn: the member's own item, its offset in the
				// palette, or its record in the one instanced item.
				var got mgl32.Mat4
				if opt.Members {
					got = anim.ModelMat4(cr.Items[i].Palette, 0)
				} else if it := cr.Items[0]; it.Instances != 3 || it.Members[i] != int32(i) {
					t.Fatalf("instanced item draws members %v; want 0, 1, 2", it.Members)
				} else {
					pal, o := it.Batch.Record(i)
					got = mgl32.Translate3D(o[0], o[1], o[2]).Mul4(anim.ModelMat4(pal, 0))
				}
				w := mgl32.Translate3D(mb.offset[0], mb.offset[1], mb.offset[2]).Mul4(want)
				if !got.ApproxEqualThreshold(w, 1e-5) {
					t.Errorf("members %v: member %d draws the mesh at %v, want %v", opt.Members, i, got, w)
				}
			}
		})
	}
}

// TestCrowdBoundsFollowRigidMeshes: the crowd's box holds every member's
// rigid mesh where its pose puts it, not where the single character's is.
func TestCrowdBoundsFollowRigidMeshes(t *testing.T) {
	withRigidCrowd(t, 2, CrowdOptions{}, func(cr *Crowd, c *character.Character, _ *View) {
		c.Evaluate(0) // the single character stays upright
		cr.PoseAt(0.5)
		lo, hi, ok := cr.Bounds()
		// At 0.5 s the mesh's vertices (0, 1..3, 0) below the tip turn 45°
		// about +Z at (0, 2, 0): x down to −3·sin 45° from each member.
		tip := mgl32.Translate3D(0, 2, 0).Mul4(mgl32.HomogRotate3DZ(mgl32.DegToRad(45)))
		for _, mb := range cr.members {
			for _, y := range []float32{1, 2, 3} {
				p := tip.Mul4x1(mgl32.Vec4{0, y, 0, 1}).Vec3().Add(mb.offset)
				for k := range 3 {
					if !ok || p[k] < lo[k]-1e-4 || p[k] > hi[k]+1e-4 {
						t.Errorf("vertex at %v outside the crowd's box %v..%v", p, lo, hi)
					}
				}
			}
		}
	})
}

// TestCrowdCullsMembersOutOfView: with the camera close on member 0 and
// looking along the row, members off to the side are out of view: they
// are not drawn and their poses hold while their clocks run. Looking
// away, nothing is drawn.
func TestCrowdCullsMembersOutOfView(t *testing.T) {
	withRigidCrowd(t, 9, CrowdOptions{}, func(cr *Crowd, c *character.Character, _ *View) {
		at := cr.members[0].offset.Add(mgl32.Vec3{0, 1.5, 0})
		cam, ok := render.LookAt(at.Add(mgl32.Vec3{0, 0, 4}), at, mgl32.DegToRad(30))
		if !ok {
			t.Fatal("no camera")
		}
		cr.SetCamera(cam, 1)
		cr.Update(0.05, 1, false)
		if cr.Stats.Culled == 0 || cr.Stats.Culled == 9 {
			t.Fatalf("%d of 9 members out of view; want some, not all", cr.Stats.Culled)
		}
		if got := cr.Items[0].Instances; got != 9-cr.Stats.Culled || len(cr.Items[0].Members) != got {
			t.Errorf("the instanced draw has %d members (%v); want the %d in view", got, cr.Items[0].Members, 9-cr.Stats.Culled)
		}
		culled := -1
		for i := range cr.members {
			if !slices.Contains(cr.visible, int32(i)) {
				culled = i
				break
			}
		}
		before := slices.Clone(cr.anim.Models(culled))
		t0 := cr.anim.Controller(culled).Timeline().Time
		cr.Update(0.2, 1, false)
		if !slices.Equal(cr.anim.Models(culled), before) {
			t.Errorf("member %d, out of view, was evaluated", culled)
		}
		if t1 := cr.anim.Controller(culled).Timeline().Time; t1 == t0 {
			t.Errorf("member %d's clock stopped out of view at %v s", culled, t1)
		}
		away, _ := render.LookAt(at.Add(mgl32.Vec3{0, 0, 8}), at.Add(mgl32.Vec3{0, 0, 12}), mgl32.DegToRad(30))
		cr.SetCamera(away, 1)
		cr.Update(0.05, 1, false)
		if len(cr.Items) != 0 || cr.Stats.Culled != 9 {
			t.Errorf("looking away: %d items, %d members out of view; want none drawn, 9 out", len(cr.Items), cr.Stats.Culled)
		}
		// Member 0's controller is the timeline's and the keys': out of
		// view it still advances every frame, not only when next evaluated.
		t0 = c.Ctl.Timeline().Time
		cr.Update(0.05, 1, false)
		if t1 := c.Ctl.Timeline().Time; t1-t0 < 0.05-1e-5 || t1-t0 > 0.05+1e-5 {
			t.Errorf("member 0 out of view: its controller moved from %v s to %v s in a 0.05 s frame", t0, t1)
		}
		// Back in view from far away, where each member's turn comes every
		// 4th frame: all are evaluated in the first frame they are seen,
		// not shown as they were when they left the view.
		far, _ := render.LookAt(mgl32.Vec3{0, 50, 400}, mgl32.Vec3{0, 1, -1}, mgl32.DegToRad(40))
		cr.SetCamera(far, 1)
		left := make([][]float32, len(cr.members))
		for i := range cr.members {
			left[i] = slices.Clone(cr.anim.Models(i))
		}
		cr.Update(0.05, 1, false)
		if cr.Stats.Culled != 0 || cr.Stats.Rate != [3]int{0, 0, 9} {
			t.Fatalf("from far away: %d out of view, rates %v; want all 9 in view, every 4th frame", cr.Stats.Culled, cr.Stats.Rate)
		}
		for i := range cr.members {
			if slices.Equal(cr.anim.Models(i), left[i]) {
				t.Errorf("member %d, back in view, was not evaluated in its first frame", i)
			}
		}
	})
}

// TestCrowdLevelOfDetail: seen from far away every member is small, so
// each is evaluated every 4th frame (members taking turns: a quarter of
// them a frame); with NoLOD every frame.
func TestCrowdLevelOfDetail(t *testing.T) {
	for _, opt := range []CrowdOptions{{}, {NoLOD: true}} {
		withRigidCrowd(t, 8, opt, func(cr *Crowd, _ *character.Character, _ *View) {
			cam, _ := render.LookAt(mgl32.Vec3{0, 50, 400}, mgl32.Vec3{0, 1, -1}, mgl32.DegToRad(40))
			cr.SetCamera(cam, 1)
			// Posed once in view (a member coming into view is evaluated
			// at once, whatever its turn).
			cr.PoseAt(0)
			changes := make([]int, len(cr.members))
			for range 8 {
				before := make([][]float32, len(cr.members))
				for i := range cr.members {
					before[i] = slices.Clone(cr.anim.Models(i))
				}
				// 0.05 s a frame: the tip turns all clip long.
				cr.Update(0.05, 1, false)
				for i := range cr.members {
					if !slices.Equal(cr.anim.Models(i), before[i]) {
						changes[i]++
					}
				}
			}
			want := 2
			if opt.NoLOD {
				want = 8
			}
			for i, n := range changes {
				if n != want {
					t.Errorf("NoLOD %v: member %d evaluated in %d of 8 frames; want %d", opt.NoLOD, i, n, want)
				}
			}
			if !opt.NoLOD && cr.Stats.Rate != [3]int{0, 0, 8} {
				t.Errorf("rates %v; want all 8 members every 4th frame", cr.Stats.Rate)
			}
		})
	}
}

// TestCrowdPaletteIsTheCharacters: a member's palette in the instanced
// draw is the one the single character draws at the same time, bit for
// bit (the member's place travels beside it as its offset).
func TestCrowdPaletteIsTheCharacters(t *testing.T) {
	withRigidCrowd(t, 3, CrowdOptions{}, func(cr *Crowd, _ *character.Character, v *View) {
		if err := v.PoseAt(0.35); err != nil {
			t.Error(err)
			return
		}
		single := slices.Clone(v.Scene.items[0].Palette)
		cr.PoseAt(0.35)
		if got, _ := cr.Items[0].Batch.Record(1); !slices.Equal(got, single) {
			t.Errorf("member 1 at 0.35 s draws palette %v; the character %v", got, single)
		}
	})
}

// BenchmarkCrowdFrame is the CPU side of a crowd's frame as the viewer
// runs it: the members' animation (Update, level of detail on or off) and
// the upload of their instance records (render.Prepare), at the default
// camera framing the whole crowd, for the built-in character.
func BenchmarkCrowdFrame(b *testing.B) {
	m, err := asset.Load("@character")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 3000, 10000} {
		for _, lod := range []bool{true, false} {
			name := fmt.Sprintf("members=%d/lod=%v", n, lod)
			b.Run(name, func(b *testing.B) {
				c, err := character.New(m, nil, nil, 0, 0)
				if err != nil {
					b.Fatal(err)
				}
				onGL(b, func() error {
					v, err := NewView(c, ViewOptions{Skinning: SkinGPU}, 64, 64)
					if err != nil {
						return err
					}
					defer v.Destroy()
					cr, err := NewCrowd(v.R, m, 0.3, c, v.Scene, n, CrowdOptions{BoxLo: v.BoxLo, BoxHi: v.BoxHi, NoLOD: !lod})
					if err != nil {
						return err
					}
					defer cr.Close()
					cr.Start()
					lo, hi, _ := cr.Bounds()
					cr.SetCamera(render.FrameBounds(lo, hi, 4.0/3), 4.0/3)
					f := &render.Frame{Skinning: render.LinearBlend}
					b.ResetTimer()
					for range b.N {
						cr.Update(1.0/60, 1, false)
						f.Items = cr.Items
						if err := v.R.Prepare(f); err != nil {
							return err
						}
					}
					b.StopTimer()
					b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
					b.ReportMetric(float64(v.R.InstanceBytes()), "upload-bytes")
					return nil
				})
			})
		}
	}
}

// TestSphereInsideFrustum: a camera at the origin looking down −Z with a
// 90° field of view (aspect 1, near 1, far 10) has its right plane at
// x = −z, so the point (6, 0, −5) lies 1/√2 outside it: a sphere of
// radius 0.5 about it is outside, one of radius 0.75 reaches in.
func TestSphereInsideFrustum(t *testing.T) {
	planes := frustumPlanes(mgl32.Perspective(mgl32.DegToRad(90), 1, 1, 10))
	for _, c := range []struct {
		at   mgl32.Vec3
		r    float32
		want bool
	}{
		{mgl32.Vec3{0, 0, -5}, 0.1, true},
		{mgl32.Vec3{6, 0, -5}, 0.5, false},
		{mgl32.Vec3{6, 0, -5}, 0.75, true},
		{mgl32.Vec3{0, -6, -5}, 0.5, false},   // below the bottom plane, as far
		{mgl32.Vec3{0, 0, -10.6}, 0.5, false}, // past the far plane by 0.6
		{mgl32.Vec3{0, 0, -10.4}, 0.5, true},  // within 0.5 of it
		{mgl32.Vec3{0, 0, -0.4}, 0.5, false},  // before the near plane by 0.6
	} {
		if got := sphereInside(planes, c.at, c.r); got != c.want {
			t.Errorf("sphere at %v radius %v: inside %v, want %v", c.at, c.r, got, c.want)
		}
	}
	// An orthographic box x ∈ [−1, 1] has its left plane (1, 0, 0, 1)
	// exactly: a unit sphere about x = −2 touches it, which counts as
	// reaching in; a hair further out it does not.
	ortho := frustumPlanes(mgl32.Ortho(-1, 1, -1, 1, 1, 10))
	if !sphereInside(ortho, mgl32.Vec3{-2, 0, -5}, 1) {
		t.Error("a sphere touching the left plane from outside is not in view")
	}
	if sphereInside(ortho, mgl32.Vec3{-2, 0, -5}, math.Nextafter32(1, 0)) {
		t.Error("a sphere short of the left plane is in view")
	}
}

// TestLodBand: a member an eighth of the frame tall or more updates every
// frame, a twentieth or more every 2nd, smaller every 4th.
func TestLodBand(t *testing.T) {
	below := func(x float32) float32 { return math.Nextafter32(x, 0) }
	for _, tc := range []struct {
		share float32
		want  int
	}{
		{1, 0}, {1.0 / 8, 0}, {below(1.0 / 8), 1}, {1.0 / 20, 1}, {below(1.0 / 20), 2}, {0, 2},
	} {
		if got := lodBand(tc.share); got != tc.want {
			t.Errorf("lodBand(%g) = %d, want %d", tc.share, got, tc.want)
		}
	}
}

// crowdBoxIs reports where cr's layout box differs from centre, radius
// and height (to 1e-5).
func crowdBoxIs(t *testing.T, what string, cr *Crowd, centre mgl32.Vec3, radius, height float32) {
	t.Helper()
	if !cr.centre.ApproxEqualThreshold(centre, 1e-5) || math.Abs(float64(cr.radius-radius)) > 1e-5 || math.Abs(float64(cr.height-height)) > 1e-5 {
		t.Errorf("%s: centre %v radius %g height %g; want %v, %g, %g", what, cr.centre, cr.radius, cr.height, centre, radius, height)
	}
}

// TestCrowdBox: a crowd given a member's box lays out around it, not
// around the character's bounds: its centre, half its diagonal as the
// radius, and its height, or half the radius for a flat box.
func TestCrowdBox(t *testing.T) {
	for _, tc := range []struct {
		lo, hi         mgl32.Vec3
		centre         mgl32.Vec3
		radius, height float32
	}{
		// Diagonal (2, 4, 2): √24 / 2 = 2.449490.
		{mgl32.Vec3{-1, 1, -1}, mgl32.Vec3{1, 5, 1}, mgl32.Vec3{0, 3, 0}, 2.449490, 4},
		// Diagonal (8, 0.5, 8): √128.25 / 2 = 5.662376, height 2.831188.
		{mgl32.Vec3{-4, 1, -4}, mgl32.Vec3{4, 1.5, 4}, mgl32.Vec3{0, 1.25, 0}, 5.662376, 2.831188},
	} {
		withRigidCrowd(t, 2, CrowdOptions{BoxLo: tc.lo, BoxHi: tc.hi}, func(cr *Crowd, _ *character.Character, _ *View) {
			crowdBoxIs(t, fmt.Sprintf("box %v..%v", tc.lo, tc.hi), cr, tc.centre, tc.radius, tc.height)
		})
	}
}

// TestCrowdOfNothingDrawn: a model that draws no vertex (its mesh node
// lost its mesh) lays out around a unit box standing on the ground:
// centre (0, 0.5, 0), radius √3 / 2, height 1.
func TestCrowdOfNothingDrawn(t *testing.T) {
	m, c := twoJoint(t, "bare.gltf", -1, [2]string{`"mesh": 0, "skin": 0, `, ""})
	withView(t, c, func(v *View) error {
		cr, err := NewCrowd(v.R, m, 0.3, c, v.Scene, 2, CrowdOptions{})
		if err != nil {
			return err
		}
		defer cr.Close()
		crowdBoxIs(t, "nothing drawn", cr, mgl32.Vec3{0, 0.5, 0}, 0.866025, 1)
		return nil
	})
}

// TestCrowdLayout: members stand on a grid of ⌈√n⌉ columns centred on
// x = 0, rows going back along −z, 1.3 times the character's widest
// extent apart (its width, its depth or 0.4 of its height), each starting
// its clip i·0.377 s in, wrapped to the clip's length. The two-joint bar
// stands upright, or lies along x or z (its root turned a quarter about
// z or x), so that each extent is the widest once.
func TestCrowdLayout(t *testing.T) {
	const root = `{"name": "root", "translation": [0, 1, 0], `
	for _, turn := range []string{"", `"rotation": [0, 0, 0.7071068, 0.7071068], `, `"rotation": [-0.7071068, 0, 0, 0.7071068], `} {
		m, c := twoJoint(t, "layout.gltf", 0, [2]string{root, root + turn})
		withView(t, c, func(v *View) error {
			lo, hi, ok := v.Scene.Bounds(c)
			if !ok {
				t.Error("the two-joint model has no bounds")
				return nil
			}
			cr, err := NewCrowd(v.R, m, 0.3, c, v.Scene, 5, CrowdOptions{})
			if err != nil {
				return err
			}
			defer cr.Close()
			s := 1.3 * max(hi[0]-lo[0], hi[2]-lo[2], 0.4*(hi[1]-lo[1]))
			if s < 1 {
				t.Errorf("root %s: the bar's box %v..%v is not 2 long one way", turn, lo, hi)
			}
			// Five members: three columns, two rows.
			want := []mgl32.Vec3{{-s, 0, 0}, {0, 0, 0}, {s, 0, 0}, {-s, 0, -s}, {0, 0, -s}}
			if len(cr.members) != len(want) {
				t.Errorf("%d members; want %d", len(cr.members), len(want))
				return nil
			}
			d := float64(m.Clips[0].Duration)
			for i, mb := range cr.members {
				if !mb.offset.ApproxEqualThreshold(want[i], 1e-5) {
					t.Errorf("root %s: member %d stands at %v; want %v", turn, i, mb.offset, want[i])
				}
				if w := math.Mod(float64(i)*0.377, d); math.Abs(float64(cr.offsets[i])-w) > 1e-6 {
					t.Errorf("member %d starts %g s in; want %g", i, cr.offsets[i], w)
				}
			}
			return nil
		})
	}
}

// TestCrowdSpeedReachesEveryMember: the speed and pause a frame is
// updated with reach every member's controller, each time they change
// (they are set only then), the first frame's at speed 0 too.
func TestCrowdSpeedReachesEveryMember(t *testing.T) {
	withRigidCrowd(t, 3, CrowdOptions{}, func(cr *Crowd, _ *character.Character, _ *View) {
		for _, f := range []struct {
			speed  float32
			paused bool
		}{{0, false}, {2, false}, {0.5, false}, {0.5, true}, {0.5, false}} {
			cr.Update(0.1, f.speed, f.paused)
			for i := range cr.members {
				if ctl := cr.anim.Controller(i); ctl.Speed() != f.speed || ctl.Paused() != f.paused {
					t.Errorf("after a frame at speed %g, paused %v: member %d has speed %g, paused %v", f.speed, f.paused, i, ctl.Speed(), ctl.Paused())
				}
			}
		}
	})
}

// TestCrowdLevelOfDetailBands: a member alone, its box of height h seen
// with a 40° field of view from distance D, fills h / (2·tan 20°·D) of the
// frame: at D = 5h that is 0.27 (every frame), at 15h 0.092 (every 2nd),
// at 60h 0.023 (every 4th).
func TestCrowdLevelOfDetailBands(t *testing.T) {
	withRigidCrowd(t, 1, CrowdOptions{}, func(cr *Crowd, _ *character.Character, _ *View) {
		at := cr.centre.Add(cr.members[0].offset)
		for band, d := range []float32{5, 15, 60} {
			cam, ok := render.LookAt(at.Add(mgl32.Vec3{0, 0, d * cr.height}), at, mgl32.DegToRad(40))
			if !ok {
				t.Fatal("no camera")
			}
			cr.SetCamera(cam, 1)
			cr.Update(0.05, 1, false)
			var want [3]int
			want[band] = 1
			if cr.Stats.Rate != want {
				t.Errorf("at %g heights: rates %v; want %v", d, cr.Stats.Rate, want)
			}
		}
	})
}

// TestCrowdTurnsAreBalanced: 64 members far away, all updated every 4th
// frame, take turns 16 neighbours at a time: each frame evaluates 16.
func TestCrowdTurnsAreBalanced(t *testing.T) {
	withRigidCrowd(t, 64, CrowdOptions{}, func(cr *Crowd, _ *character.Character, _ *View) {
		cam, _ := render.LookAt(mgl32.Vec3{0, 50, 2000}, mgl32.Vec3{0, 1, -5}, mgl32.DegToRad(40))
		cr.SetCamera(cam, 1)
		cr.PoseAt(0) // every member in view evaluated once
		for f := range 8 {
			cr.Update(0.05, 1, false)
			if cr.Stats.Rate != [3]int{0, 0, 64} || len(cr.fresh) != 16 {
				t.Errorf("frame %d: rates %v, %d members evaluated; want all 64 every 4th frame, 16 a frame", f, cr.Stats.Rate, len(cr.fresh))
			}
		}
	})
}

// TestCrowdPoseAtKeepsOffsets: PoseAt(t) shows member i at t plus its own
// start offset (i·0.377 s), wrapped into the looping clip.
func TestCrowdPoseAtKeepsOffsets(t *testing.T) {
	m, c := twoJoint(t, "offsets.gltf", 0)
	withView(t, c, func(v *View) error {
		cr, err := NewCrowd(v.R, m, 0.3, c, v.Scene, 3, CrowdOptions{})
		if err != nil {
			return err
		}
		defer cr.Close()
		cr.PoseAt(0.2)
		d := float64(m.Clips[0].Duration)
		for i := range 3 {
			want := math.Mod(0.2+float64(i)*0.377, d)
			if got := cr.anim.Controller(i).Timeline().Time; math.Abs(float64(got)-want) > 1e-5 {
				t.Errorf("PoseAt(0.2): member %d at %g s; want %g", i, got, want)
			}
		}
		return nil
	})
}

// TestCrowdSkinnedPaletteIsTheCharacters: a skinned member's palette, the
// memory its instanced record goes up from, is the single character's
// whole-skin palette at the same time, bit for bit.
func TestCrowdSkinnedPaletteIsTheCharacters(t *testing.T) {
	m, c := twoJoint(t, "skinned.gltf", 0)
	withView(t, c, func(v *View) error {
		cr, err := NewCrowd(v.R, m, 0.3, c, v.Scene, 3, CrowdOptions{})
		if err != nil {
			return err
		}
		defer cr.Close()
		for i := range cr.offsets {
			cr.offsets[i] = 0
		}
		if err := v.PoseAt(0.35); err != nil {
			return err
		}
		single := slices.Clone(v.Scene.items[0].Palette)
		cr.PoseAt(0.35)
		if len(cr.Items) != 1 {
			t.Errorf("%d crowd draws; want one instanced", len(cr.Items))
			return nil
		}
		for i := range 3 {
			if got := cr.anim.Palette(i, 0); !slices.Equal(got, single) {
				t.Errorf("member %d at 0.35 s draws palette %v; the character %v", i, got, single)
			}
		}
		return nil
	})
}
