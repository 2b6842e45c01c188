package asset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/gltfload"
)

// ImportClips adds the clips of src to m, retargeted in world space
// (Retarget) by joint name: a source node drives the target node of
// the same name, or of the name names gives it (source name → target
// name). Each driven joint's world rotation turns away from its rest pose
// as the source's does, the rest poses being what each file shows without
// animation (its nodes' transforms, the nodes above the skeleton
// included), once the source is turned to face as m does (FacingTurn: a
// character exported facing −Z drives one facing +Z); the root (the hips: the top joint of m's first skin that the
// clips translate) moves as the source's, scaled by the ratio of the two
// rest hip heights; other translations stay m's. It returns the joints of
// m's skins that no source node drives, which keep their rest rotation
// under their parent. A name map naming a node either file lacks, or a src
// none of whose nodes matches a joint of m, is an error.
func ImportClips(m, src *gltfload.Model, names map[string]string) (unmatched []string, err error) {
	byName := func(md *gltfload.Model) map[string]int {
		out := map[string]int{}
		for n, name := range md.NodeNames {
			if _, dup := out[name]; name != "" && !dup {
				out[name] = md.JointOfNode[n]
			}
		}
		return out
	}
	srcJ, dstJ := byName(src), byName(m)
	var noSrc, noDst []string
	for from, to := range names {
		if _, ok := srcJ[from]; !ok {
			noSrc = append(noSrc, strconv.Quote(from))
		}
		if _, ok := dstJ[to]; !ok {
			noDst = append(noDst, fmt.Sprintf("%q (mapped from %q)", to, from))
		}
	}
	var missing []string
	if len(noSrc) > 0 {
		slices.Sort(noSrc)
		missing = append(missing, fmt.Sprintf("%s has no node named %s", src.Name, strings.Join(noSrc, ", ")))
	}
	if len(noDst) > 0 {
		slices.Sort(noDst)
		missing = append(missing, fmt.Sprintf("%s has no node named %s", m.Name, strings.Join(noDst, ", ")))
	}
	if missing != nil {
		return nil, fmt.Errorf("asset: joint name map: %s", strings.Join(missing, "; "))
	}
	rm := &RetargetMap{Joint: make([]int, src.Skeleton.NumJoints()), Root: -1, Scale: 1}
	driven := make([]bool, m.Skeleton.NumJoints())
	by := make([]string, m.Skeleton.NumJoints()) // the source joint driving each
	for s := range rm.Joint {
		rm.Joint[s] = -1
		own := src.NodeNames[src.NodeOfJoint[s]]
		name := own
		if to, ok := names[own]; ok {
			name = to
		}
		j, ok := dstJ[name]
		if !ok || name == "" {
			continue
		}
		if driven[j] {
			if _, mapped := names[own]; own != by[j] && (mapped || names[by[j]] != "") {
				// One target joint takes one source joint's keys.
				return nil, fmt.Errorf("asset: joint name map: %s's %q and %q both drive %s's %q", src.Name, by[j], own, m.Name, name)
			}
			continue // a name the source repeats: its first joint drives it
		}
		rm.Joint[s], driven[j], by[j] = j, true, own
	}
	inSkin := make([]bool, m.Skeleton.NumJoints())
	var pairs [][2]int // source joint, target skin joint it drives
	for _, sk := range m.Skins {
		for _, j := range sk.Joints {
			if !inSkin[j] {
				inSkin[j] = true
				if driven[j] {
					pairs = append(pairs, [2]int{slices.Index(rm.Joint, j), j})
				} else {
					unmatched = append(unmatched, m.Skeleton.Names[j])
				}
			}
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("asset: %s: none of its nodes has the name of a joint of %s; its clips cannot drive it (a joint name map, -joint-map, can pair other names)", src.Name, m.Name)
	}
	rm.Turn = FacingTurn(&src.Skeleton, &m.Skeleton, pairs)
	if root := movingRoot(m, src, rm.Joint); root >= 0 && driven[root] {
		rm.Root = root
		for s, j := range rm.Joint {
			if j == root {
				// The hip heights: world heights at rest, so that a
				// root under an armature in centimetres compares.
				ht, hs := m.Skeleton.RestModel(root).Col(3)[1], src.Skeleton.RestModel(s).Col(3)[1]
				if hs > 1e-6 && ht > 1e-6 {
					rm.Scale = ht / hs
				}
			}
		}
	}
	taken := map[string]bool{}
	for i := range m.Clips {
		// The names the clip browser shows: an unnamed clip is "clip i".
		taken[ClipName(m, i)] = true
	}
	for i := range src.Clips {
		c, err := Retarget(&src.Clips[i], &src.Skeleton, &m.Skeleton, rm)
		if err != nil {
			return nil, fmt.Errorf("asset: %s: %w", src.Name, err)
		}
		if c.Name == "" {
			c.Name = fmt.Sprintf("clip %d", i)
		}
		if taken[c.Name] {
			base := c.Name + " (" + src.Name + ")"
			c.Name = base
			for k := 2; taken[c.Name]; k++ {
				c.Name = fmt.Sprintf("%s #%d", base, k)
			}
		}
		taken[c.Name] = true
		m.Clips = append(m.Clips, c)
	}
	return unmatched, nil
}

// movingRoot is the root whose translation a retarget carries over: the
// joint of m's first skin nearest the skeleton's roots among those the
// source's clips translate (a hips joint under a still root joint, as
// many exports have), else the top joint.
func movingRoot(m, src *gltfload.Model, toTarget []int) int {
	moved := make([]bool, m.Skeleton.NumJoints())
	for i := range src.Clips {
		for _, tr := range src.Clips[i].Tracks {
			if tr.Path == anim.Translation && toTarget[tr.Joint] >= 0 && len(tr.Times) > 1 {
				moved[toTarget[tr.Joint]] = true
			}
		}
	}
	if best := shallowest(m, func(j int) bool { return moved[j] }); best >= 0 {
		return best
	}
	return TopJoint(m)
}

// TopJoint is the joint of m's first skin nearest the skeleton's roots,
// −1 without skins.
func TopJoint(m *gltfload.Model) int {
	return shallowest(m, func(int) bool { return true })
}

// shallowest is the joint of m's first skin nearest the skeleton's roots
// among those ok accepts, −1 for none.
func shallowest(m *gltfload.Model, ok func(j int) bool) int {
	if len(m.Skins) == 0 {
		return -1
	}
	best, bestDepth := -1, 1<<30
	for _, j := range m.Skins[0].Joints {
		d := 0
		for p := m.Skeleton.Parents[j]; p >= 0; p = m.Skeleton.Parents[p] {
			d++
		}
		if ok(j) && d < bestDepth {
			best, bestDepth = j, d
		}
	}
	return best
}
