package scene

import (
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/asset/assettest"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
)

// rigidTwoJoint is the two-joint file with its mesh hanging from the
// tip without a skin, and a character of it.
func rigidTwoJoint(t *testing.T) (*gltfload.Model, *character.Character) {
	t.Helper()
	doc := string(assettest.TwoJointGLTF(t))
	for _, r := range [][2]string{
		{`"scene": 0, "scenes": [{"nodes": [0, 2]}]`, `"scene": 0, "scenes": [{"nodes": [0]}]`},
		{`{"name": "tip", "translation": [0, 1, 0]}`, `{"name": "tip", "translation": [0, 1, 0], "children": [2]}`},
		{`{"name": "body", "mesh": 0, "skin": 0, "translation": [5, 0, 0]}`, `{"name": "body", "mesh": 0}`},
		{`"skins": [{"joints": [0, 1], "inverseBindMatrices": 3}],`, ``},
	} {
		if !strings.Contains(doc, r[0]) {
			t.Fatalf("the two-joint file no longer has %s", r[0])
		}
		doc = strings.Replace(doc, r[0], r[1], 1)
	}
	m, err := gltfload.Decode([]byte(doc), nil, "rigid.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := character.New(m, nil, nil, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, c
}

// withRigidCrowd runs f on the GL thread with a crowd of n members of
// rigidTwoJoint, their clocks together, and the character it was made of.
func withRigidCrowd(t *testing.T, n int, opt CrowdOptions, f func(cr *Crowd, c *character.Character)) {
	m, c := rigidTwoJoint(t)
	onGL(t, func() error {
		v, err := NewView(c, ViewOptions{Skinning: SkinGPU}, 64, 64)
		if err != nil {
			return err
		}
		defer v.Destroy()
		cr, err := NewCrowd(m, 0.3, c, v.Scene, n, opt)
		if err != nil {
			return err
		}
		defer cr.Close()
		for i := range cr.offsets {
			cr.offsets[i] = 0
		}
		f(cr, c)
		return nil
	})
}

// TestCrowdPlacesRigidMeshes: a crowd of a model whose mesh hangs from
// the animated joint without a skin. Each member draws it at that joint's
// model matrix (the crowd keeps model matrices for it), moved to its
// place: at 0.5 s the tip has turned 45° about +Z at (0, 2, 0).
func TestCrowdPlacesRigidMeshes(t *testing.T) {
	for _, opt := range []CrowdOptions{{}, {Members: true}} {
		withRigidCrowd(t, 3, opt, func(cr *Crowd, _ *character.Character) {
			cr.PoseAt(0.5)
			want := mgl32.Translate3D(0, 2, 0).Mul4(mgl32.HomogRotate3DZ(mgl32.DegToRad(45)))
			for i, mb := range cr.members {
				// What is drawn: the member's own item, its offset in the
				// palette, or its record in the one instanced item.
				var got mgl32.Mat4
				if opt.Members {
					got = anim.ModelMat4(cr.Items[i].Palette, 0)
				} else if it := cr.Items[0]; it.Instances != 3 {
					t.Fatalf("instanced item draws %d members; want 3", it.Instances)
				} else {
					got = mgl32.Translate3D(it.Offsets[3*i], it.Offsets[3*i+1], it.Offsets[3*i+2]).Mul4(anim.ModelMat4(it.Palette[12*i:12*i+12], 0))
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
	withRigidCrowd(t, 2, CrowdOptions{}, func(cr *Crowd, c *character.Character) {
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
