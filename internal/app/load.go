package app

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/skinview/skinview/assets"
	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/character"
	"github.com/skinview/skinview/internal/gltfload"
	"github.com/skinview/skinview/internal/report"
)

// LoadOptions are the flags that pick a model's character: its clip or
// spec, parameters, root motion, clips from other files, compression.
type LoadOptions struct {
	// Model is the file (or built-in asset) the character is of.
	Model string
	// Clip, Tree, Blend and Additive pick the animation: a clip by name
	// or index, a spec file, a quick blend or additive; Fade is the clip
	// browser's cross-fade.
	Clip, Tree, Blend, Additive string
	Fade                        float64
	// Params set control parameters once the character is built.
	Params []Param
	// RootMotion is -root-motion MODE[:JOINT].
	RootMotion string
	// Clips are files whose clips are added, retargeted through JointMap.
	Clips    []string
	JointMap string
	// Compress is -compress, in centimetres (0: off). CompressLater
	// leaves it to App.StartCompression, in the background, so that the
	// window opens on the clips as loaded.
	Compress      float64
	CompressLater bool
	// Reloading: the spec or model was edited under the running viewer,
	// whose -param values are clamped to the ranges it now declares
	// rather than refused (the first load refuses them).
	Reloading bool
}

// Param is a control parameter's value.
type Param struct {
	Name  string
	Value float32
}

// ImportClips adds the clips of every -clips file to m, retargeted by
// joint name through -joint-map; it returns a line per file on what was
// added and which of m's joints no clip drives.
func ImportClips(m *gltfload.Model, opt *LoadOptions) ([]string, error) {
	if len(opt.Clips) == 0 {
		return nil, nil
	}
	var names map[string]string
	if opt.JointMap != "" {
		data, err := os.ReadFile(opt.JointMap)
		if err != nil {
			return nil, fmt.Errorf("-joint-map: %w", err)
		}
		if err := json.Unmarshal(data, &names); err != nil {
			return nil, fmt.Errorf("-joint-map %s: want a JSON object of joint names, {\"source\": \"target\"}: %v", opt.JointMap, err)
		}
	}
	var notes []string
	for _, path := range opt.Clips {
		src, err := asset.Load(path)
		if err != nil {
			return nil, fmt.Errorf("-clips: %w", err)
		}
		before := len(m.Clips)
		unmatched, err := asset.ImportClips(m, src, names)
		if err != nil {
			if opt.JointMap != "" {
				return nil, fmt.Errorf("-clips %s -joint-map %s: %w", path, opt.JointMap, err)
			}
			return nil, fmt.Errorf("-clips %s: %w", path, err)
		}
		note := fmt.Sprintf("%s: %d clips retargeted onto %s", src.Name, len(m.Clips)-before, m.Name)
		if len(unmatched) > 0 {
			note += fmt.Sprintf("; %d joints no clip of it drives keep their rest rotation under their parent: %s", len(unmatched), strings.Join(unmatched, ", "))
		}
		notes = append(notes, note)
	}
	return notes, nil
}

// CompressModel compresses m's clips when -compress asks for it now (not
// later, in the background): the runtime clips a character of m then
// plays, and a report per clip; nil and nil otherwise.
func CompressModel(m *gltfload.Model, opt *LoadOptions) ([]*anim.RuntimeClip, []anim.CompressReport, error) {
	if opt.Compress == 0 || opt.CompressLater {
		return nil, nil, nil
	}
	return asset.CompressClips(m, opt.Compress/100, os.Stderr)
}

// NewCharacter builds the animation the flags ask for (NewCharacterRuntime)
// on m's clips, compressed first when -compress asks for it now.
func NewCharacter(m *gltfload.Model, opt *LoadOptions) (*character.Character, error) {
	runtime, _, err := CompressModel(m, opt)
	if err != nil {
		return nil, err
	}
	return NewCharacterRuntime(m, runtime, opt)
}

// NewCharacterRuntime builds the animation the flags ask for, playing m's
// clips in runtime form (nil: as loaded): a spec file, a quick blend or
// additive, the built-in character's own spec, or the clip browser; then
// applies -param.
func NewCharacterRuntime(m *gltfload.Model, runtime []*anim.RuntimeClip, opt *LoadOptions) (*character.Character, error) {
	clip := -1
	if opt.Clip != "" {
		i, err := asset.FindClip(m, opt.Clip)
		if err != nil {
			return nil, err
		}
		clip = i
	}
	var spec *graph.Spec
	switch {
	case opt.Tree != "":
		data, err := os.ReadFile(opt.Tree)
		if err != nil {
			return nil, err
		}
		if spec, err = graph.ParseSpec(data); err != nil {
			return nil, fmt.Errorf("%s: %w", opt.Tree, err)
		}
	case opt.Blend != "" || opt.Additive != "":
		var err error
		if spec, err = character.QuickSpec(m, opt.Blend, opt.Additive, clip); err != nil {
			return nil, err
		}
	case (opt.Model == "" || opt.Model == "@character") && clip < 0:
		var err error
		if spec, err = graph.ParseSpec(assets.CharacterSpec); err != nil {
			return nil, fmt.Errorf("built-in character spec: %w", err)
		}
	}
	c, err := character.New(m, runtime, spec, clip, float32(opt.Fade))
	if err != nil {
		if opt.Tree != "" && !strings.Contains(err.Error(), opt.Tree) {
			// What the spec asks of this model names the file too.
			return nil, fmt.Errorf("%s: %w", opt.Tree, err)
		}
		return nil, err
	}
	c.OneClock = opt.Tree == "" && (opt.Blend != "" || opt.Additive != "")
	blend := false
	for _, p := range opt.Params {
		if i := c.Ctl.ParamIndex(p.Name); i >= 0 && !opt.Reloading {
			// The engine clamps a value to its range; one typed outside it
			// is a slip the user should hear of.
			if r := c.Ctl.Params()[i]; p.Value < r.Min || p.Value > r.Max {
				return nil, fmt.Errorf("-param %s=%g: outside its range, %g to %g (-info lists the parameters)", p.Name, p.Value, r.Min, r.Max)
			}
		}
		if err := c.Ctl.SetParam(p.Name, p.Value); err != nil {
			return nil, fmt.Errorf("-param %s: %w", p.Name, err)
		}
		blend = blend || (c.ClipMode && strings.HasPrefix(p.Name, "weight:"))
	}
	if blend {
		// The clip browser's weights make its blend play, as the clip
		// list's bars do in the window.
		if err := c.CutToBlend(); err != nil {
			return nil, err
		}
	}
	if opt.RootMotion != "" {
		mode, joint, _ := strings.Cut(opt.RootMotion, ":")
		if joint != "" && m.Skeleton.JointIndex(joint) < 0 {
			return nil, fmt.Errorf("-root-motion %s: %s has no joint %q (-info lists the skins; nodes: %s)", opt.RootMotion, m.Name, joint, strings.Join(firstNames(m.Skeleton.Names, 12), ", "))
		}
		m, err := anim.ParseRootMode(mode)
		if err != nil {
			return nil, fmt.Errorf("-root-motion: %w", err)
		}
		if err := c.SetRootMotion(joint, m); err != nil {
			return nil, fmt.Errorf("-root-motion: %w", err)
		}
	}
	return c, nil
}

// firstNames is at most n names, and a count of the rest.
func firstNames(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(names[:n:n], fmt.Sprintf("… %d more", len(names)-n))
}

// Loaded is a model prepared as LoadOptions ask: the clips of -clips files
// retargeted onto it, and compressed when -compress asks for it now.
type Loaded struct {
	Model *gltfload.Model
	// Runtime are the clips a character of Model plays (nil: as loaded);
	// Reports say what compression made of each clip (nil without it).
	Runtime []*anim.RuntimeClip
	Reports []anim.CompressReport
	// Notes say what each -clips file added, a line per file.
	Notes []string
}

// Load reads lo.Model (a file or a built-in asset) and prepares it.
func Load(lo *LoadOptions) (*Loaded, error) {
	m, err := asset.Load(lo.Model)
	if err != nil {
		return nil, err
	}
	notes, err := ImportClips(m, lo)
	if err != nil {
		return nil, err
	}
	runtime, reports, err := CompressModel(m, lo)
	if err != nil {
		return nil, err
	}
	return &Loaded{Model: m, Runtime: runtime, Reports: reports, Notes: notes}, nil
}

// Character builds the animation lo asks for on l's model and clips
// (NewCharacterRuntime).
func (l *Loaded) Character(lo *LoadOptions) (*character.Character, error) {
	return NewCharacterRuntime(l.Model, l.Runtime, lo)
}

// WriteInfo writes what -info prints: the model (its draw calls split at
// paletteLimit joints), the compression reports, the parameters -param
// sets as the animation would run, and the notes; with asJSON (-json),
// only the compression reports, a JSON line per clip.
func (l *Loaded) WriteInfo(w io.Writer, lo *LoadOptions, paletteLimit int, asJSON bool) error {
	if asJSON {
		return report.WriteCompressionJSON(w, l.Reports)
	}
	report.WriteInfo(w, l.Model, paletteLimit)
	report.WriteCompression(w, l.Reports, lo.Compress)
	if c, err := l.Character(lo); err != nil {
		fmt.Fprintf(w, "animation: %v\n", report.OneLine(err))
	} else {
		report.WriteParams(w, c.Ctl.Params())
	}
	for _, n := range l.Notes {
		fmt.Fprintln(w, n)
	}
	return nil
}

// StartTime is the moment -time (t seconds) poses c at in -screenshot,
// -dump-pose and the other offscreen modes: the clip browser's clip, or a
// time before the start, is clamped to the clip (ClampTime); under blends
// and trees every clip clamps (or loops) on its own, so the time is kept
// as given; with root motion on, a time past the end (or before the
// start) plays on over the loops, carrying the character.
func StartTime(c *character.Character, t float64) float32 {
	if (c.ClipMode || t < 0) && !c.RootMotionOn() {
		return ClampTime(float32(t), c.Span())
	}
	return float32(t)
}
