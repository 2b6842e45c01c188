package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/skin"
)

// minBlockJoints is the palette size every GL 4.1 driver can hold: the
// specification's minimum GL_MAX_UNIFORM_BLOCK_SIZE, 16 KiB, over 48-byte
// entries. -info has no GL context to ask the real driver.
const minBlockJoints = 16384 / 48

// WriteInfo describes a model: skins, clips, meshes, the bone-partition
// plan at limit joints per draw (0: the smallest limit GL 4.1 allows) and
// every problem the loader recovered from.
func WriteInfo(w io.Writer, m *gltfload.Model, limit int) {
	fmt.Fprintf(w, "model %s: %d nodes, %d skins, %d clips, %d meshes, %d drawn instances\n",
		m.Name, m.Skeleton.NumJoints(), len(m.Skins), len(m.Clips), len(m.Meshes), len(m.Instances))
	for _, c := range m.Compression {
		noun := "bufferViews"
		if c.Objects == 1 {
			noun = "bufferView"
		}
		if strings.HasPrefix(c.Extension, "KHR_draco") {
			noun = strings.Replace(noun, "bufferView", "primitive", 1)
		}
		fmt.Fprintf(w, "compression %s: %d %s, %d bytes decoded to %d\n", c.Extension, c.Objects, noun, c.Compressed, c.Decoded)
	}
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
		for _, tr := range c.Morph {
			interps[tr.Interp.String()] = true
			paths[channelKind(m, tr.Channel)] = true
		}
		name := c.Name
		if name == "" {
			name = fmt.Sprintf("clip %d", i) // the name -clip and the clip browser know it by
		}
		fmt.Fprintf(w, "clip %d %q: %.3f s, %d channels (%s; %s)\n", i, name, c.Duration, len(c.Tracks)+len(c.Morph), setList(paths), setList(interps))
	}
	for i, me := range m.Meshes {
		for pi := range me.Primitives {
			p := &me.Primitives[pi]
			infl := "rigid"
			if p.Sets > 0 {
				infl = fmt.Sprintf("up to %d influences (%d JOINTS/WEIGHTS sets), dropped weight max %.4f mean %.6f",
					maxInfluences(p), p.Sets, p.DroppedMax, p.DroppedMean)
			}
			if p.TangentsGenerated {
				infl += ", tangents generated (MikkTSpace)"
			}
			fmt.Fprintf(w, "mesh %d %q primitive %d: %d vertices, %d triangles, %s\n", i, me.Name, pi, p.NumVertices(), len(p.Indices)/3, infl)
			for t, tg := range p.Targets {
				moved := 0
				for v := 0; v+3 <= len(tg.Positions); v += 3 {
					if tg.Positions[v] != 0 || tg.Positions[v+1] != 0 || tg.Positions[v+2] != 0 {
						moved++
					}
				}
				what := "POSITION"
				if tg.Normals != nil {
					what += ", NORMAL"
				}
				if tg.Positions == nil {
					what = "no POSITION"
				}
				fmt.Fprintf(w, "  target %d %q: %s, moves %d of %d vertices, default weight %s\n", t, me.TargetNames[t], what, moved, p.NumVertices(), defaultWeight(&me, t))
			}
		}
	}
	for _, c := range m.Cameras {
		kind := fmt.Sprintf("perspective, yfov %.4g rad", c.YFov)
		if c.Orthographic {
			kind = fmt.Sprintf("orthographic, xmag %.4g, ymag %.4g", c.XMag, c.YMag)
		}
		fmt.Fprintf(w, "camera %d %q on node %d: %s (-camera %d)\n", c.Index, c.Name, c.Node, kind, c.Index)
	}
	for _, g := range m.Lights {
		kind := [...]string{"directional", "point", "spot"}[g.Kind]
		fmt.Fprintf(w, "light %d %q on node %d: %s, color %v, intensity %g (lit under -lighting three)\n", g.Index, g.Name, g.Node, kind, g.Color, g.Intensity)
	}
	for n, c := range m.NodeMorph {
		if c >= 0 {
			fmt.Fprintf(w, "node %d %q: morph weights %v (channels %d-%d)\n", n, m.NodeNames[n], m.Skeleton.MorphRest[c:c+m.Meshes[m.NodeMesh[n]].Targets], c, c+m.Meshes[m.NodeMesh[n]].Targets-1)
		}
	}
	if limit <= 0 {
		limit = minBlockJoints
	}
	writePartitionPlan(w, m, limit)
	WriteReport(w, &m.Report)
}

// channelKind names what pose channel ch of m holds, for -info's clip
// lines: morph weights, or what a KHR_animation_pointer channel animates.
func channelKind(m *gltfload.Model, ch int) string {
	for _, mc := range m.MaterialChannels {
		if ch >= mc.Channel && ch < mc.Channel+mc.Count {
			return "material (pointer)"
		}
	}
	for _, cc := range m.CameraChannels {
		if ch == cc.Channel {
			return "camera (pointer)"
		}
	}
	for _, lc := range m.LightChannels {
		if ch >= lc.Channel && ch < lc.Channel+lc.Count {
			return "light (pointer)"
		}
	}
	return "weights"
}

// defaultWeight is a target's weight in mesh.weights, "0" without them.
func defaultWeight(me *gltfload.Mesh, t int) string {
	if me.Weights == nil {
		return "0"
	}
	return fmt.Sprint(me.Weights[t])
}

// hudIssues is how many of the report's errors and warnings the HUD
// shows under their count.
const hudIssues = 2

// IssueSummary is the HUD's line on the validation report, "" when it has
// neither errors nor warnings, and its first errors and warnings.
func IssueSummary(r *gltfload.Report) (string, []string) {
	if r.Count(gltfload.Error)+r.Count(gltfload.Warning) == 0 {
		return "", nil
	}
	return r.Summary(), r.Lines(gltfload.Warning, hudIssues)
}

// issuesPerCode is how many issues of one code -info lists.
const issuesPerCode = 3

// WriteReport prints the validation report grouped by severity and code,
// with a count and the first few issues of each code.
func WriteReport(w io.Writer, r *gltfload.Report) {
	if len(r.Issues) == 0 {
		fmt.Fprintln(w, "no specification violations found")
		return
	}
	fmt.Fprintf(w, "validation: %s, %d infos\n", r.Summary(), r.Count(gltfload.Info)+r.Count(gltfload.Hint))
	for s := gltfload.Error; s <= gltfload.Hint; s++ {
		var codes []string
		byCode := map[string][]gltfload.Issue{}
		for _, i := range r.Issues {
			if i.Severity != s {
				continue
			}
			if byCode[i.Code] == nil {
				codes = append(codes, i.Code)
			}
			byCode[i.Code] = append(byCode[i.Code], i)
		}
		for _, c := range codes {
			is := byCode[c]
			fmt.Fprintf(w, "%s %s (%d)\n", s, c, len(is))
			for k, i := range is {
				if k == issuesPerCode {
					fmt.Fprintf(w, "    ... and %d more\n", len(is)-k)
					break
				}
				fmt.Fprintf(w, "    %s\n", i.Message)
			}
		}
		if n := r.Omitted[s]; n > 0 {
			fmt.Fprintf(w, "%s: %d more not listed\n", s, n)
		}
	}
}

// validationReport is glTF-Validator's report shape, as -validate prints
// it.
type validationReport struct {
	URI              string `json:"uri"`
	MimeType         string `json:"mimeType"`
	ValidatorVersion string `json:"validatorVersion"`
	Issues           struct {
		NumErrors   int              `json:"numErrors"`
		NumWarnings int              `json:"numWarnings"`
		NumInfos    int              `json:"numInfos"`
		NumHints    int              `json:"numHints"`
		Messages    []gltfload.Issue `json:"messages"`
		Truncated   bool             `json:"truncated"`
	} `json:"issues"`
}

// WriteValidation prints the report of the model at uri as JSON, m being
// what loading it gave, or loadErr why it was refused, and returns an
// error when it has errors (a refused file is one error, code
// LOAD_REFUSED unless the refusal has a code of its own).
func WriteValidation(w io.Writer, uri string, m *gltfload.Model, loadErr error) error {
	rep := validationReport{URI: uri, MimeType: "model/gltf+json", ValidatorVersion: "skinview"}
	if strings.HasSuffix(strings.ToLower(uri), ".glb") || uri == "" || uri == "@character" || uri == "@stress" || uri == "@twist" {
		rep.MimeType = "model/gltf-binary"
	}
	if loadErr != nil {
		rep.Issues.NumErrors = 1
		rep.Issues.Messages = []gltfload.Issue{{Code: gltfload.RefusalCode(loadErr), Message: loadErr.Error(), Severity: gltfload.Error}}
	} else {
		r := &m.Report
		rep.Issues.NumErrors, rep.Issues.NumWarnings = r.Count(gltfload.Error), r.Count(gltfload.Warning)
		rep.Issues.NumInfos, rep.Issues.NumHints = r.Count(gltfload.Info), r.Count(gltfload.Hint)
		rep.Issues.Messages = r.Issues
		rep.Issues.Truncated = r.Omitted != [4]int{}
	}
	if rep.Issues.Messages == nil {
		rep.Issues.Messages = []gltfload.Issue{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "    ")
	if err := enc.Encode(&rep); err != nil {
		return err
	}
	if loadErr != nil {
		return loadErr
	}
	if n := rep.Issues.NumErrors; n > 0 {
		return fmt.Errorf("%s: %s", uri, plural(n, "error"))
	}
	return nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
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

// writePartitionPlan reports how each skinned primitive would be split into
// draw calls of at most limit joints.
func writePartitionPlan(w io.Writer, m *gltfload.Model, limit int) {
	calls, parts, dup, unplanned := 0, 0, 0, 0
	for _, inst := range m.Instances {
		for pi := range m.Meshes[inst.Mesh].Primitives {
			p := &m.Meshes[inst.Mesh].Primitives[pi]
			if len(p.Indices) == 0 {
				continue
			}
			calls++
			if inst.Skin < 0 || p.Joints == nil {
				continue
			}
			plan, err := skin.PlanPartitions(p.Indices, p.Joints, p.Weights, limit)
			if err != nil {
				fmt.Fprintf(w, "partition plan: meshes[%d].primitives[%d]: %v\n", inst.Mesh, pi, err)
				unplanned++
				continue
			}
			n := len(plan.Partitions)
			calls += n - 1
			parts += n
			dup += plan.Duplicated
			sizes := make([]string, len(plan.Partitions))
			for k, pt := range plan.Partitions {
				sizes[k] = fmt.Sprintf("%d", len(pt.Joints))
			}
			fmt.Fprintf(w, "partition plan (K=%d): node %d meshes[%d].primitives[%d]: %d partitions (joints %s), %d duplicated vertices\n",
				limit, inst.Node, inst.Mesh, pi, len(plan.Partitions), strings.Join(sizes, " "), plan.Duplicated)
		}
	}
	if unplanned > 0 {
		fmt.Fprintf(w, "draw calls at K=%d: none: %d of the primitives have triangles of more joints than that (above); the model cannot be drawn at this -palette-limit\n", limit, unplanned)
		return
	}
	fmt.Fprintf(w, "draw calls at K=%d: %d (%d skinned partitions, %d duplicated vertices)\n", limit, calls, parts, dup)
}

// WriteParams lists the parameters -param sets, with their ranges and
// defaults (-info).
func WriteParams(w io.Writer, ps []graph.Param) {
	for _, p := range ps {
		fmt.Fprintf(w, "param %s: %g to %g, default %g\n", p.Name, p.Min, p.Max, p.Default)
	}
}

// WriteCompression reports each clip's compression (-info -compress).
func WriteCompression(w io.Writer, reports []anim.CompressReport, cm float64) {
	if len(reports) == 0 {
		return
	}
	slowest := 0
	for i, r := range reports {
		if r.Kept {
			fmt.Fprintf(w, "clip %d %q kept uncompressed: no packing stayed within %g cm (%d bytes)\n", i, r.Clip, cm, r.RawBytes)
		} else {
			fmt.Fprintf(w, "compressed clip %d %q at %g cm: %d → %d bytes (%.2f:1), error max %.5f cm, p99 %.5f cm",
				i, r.Clip, cm, r.RawBytes, r.Bytes, r.Ratio(), 100*r.MaxError, 100*r.P99Error)
			if r.MorphRawBytes > 0 {
				fmt.Fprintf(w, "; morph weights %d → %d bytes, error max %.5f cm", r.MorphRawBytes, r.MorphBytes, 100*r.MorphMaxError)
			}
			fmt.Fprintln(w)
		}
		if r.Elapsed > reports[slowest].Elapsed {
			slowest = i
		}
	}
	fmt.Fprintf(w, "slowest to compress: clip %d %q, %.1f ms\n", slowest, reports[slowest].Clip, float64(reports[slowest].Elapsed.Microseconds())/1000)
}

// WriteCompressionJSON prints one JSON line per clip (-info -compress
// -json); a clip with morph weights has their part in "morph".
func WriteCompressionJSON(w io.Writer, reports []anim.CompressReport) error {
	enc := json.NewEncoder(w)
	type morph struct {
		RawBytes   int     `json:"raw_bytes"`
		Bytes      int     `json:"bytes"`
		MaxErrorCM float64 `json:"max_error_cm"`
	}
	for _, r := range reports {
		var m *morph
		if r.MorphRawBytes > 0 {
			m = &morph{r.MorphRawBytes, r.MorphBytes, 100 * r.MorphMaxError}
		}
		line := struct {
			Clip       string  `json:"clip"`
			RawBytes   int     `json:"raw_bytes"`
			Bytes      int     `json:"bytes"`
			Ratio      float64 `json:"ratio"`
			MaxErrorCM float64 `json:"max_error_cm"`
			P99ErrorCM float64 `json:"p99_error_cm"`
			Ms         float64 `json:"ms"`
			Kept       bool    `json:"uncompressed,omitempty"`
			Morph      *morph  `json:"morph,omitempty"`
		}{r.Clip, r.RawBytes, r.Bytes, r.Ratio(), 100 * r.MaxError, 100 * r.P99Error, float64(r.Elapsed.Microseconds()) / 1000, r.Kept, m}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}

// OneLine keeps a refusal on one readable line, whatever the source error
// contains.
func OneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
