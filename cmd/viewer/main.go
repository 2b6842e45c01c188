// Command viewer shows animated, skinned glTF 2.0 characters.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/debugview"
	"github.com/skinview/skinview/internal/report"
	"github.com/skinview/skinview/internal/scene"
	"github.com/skinview/skinview/internal/ui"
)

func init() {
	// GLFW and OpenGL calls must all come from the main OS thread.
	runtime.LockOSThread()
}

type options struct {
	model      string
	screenshot string
	dumpPose   string
	allNodes   bool
	info       bool
	validate   bool
	corpus     string
	out        string
	time       float64
	clip       string
	width      int
	height     int
	// skinning is "gpu" (default) or "cpu"; paletteLimit caps joints per
	// draw call (0: the driver's limit); stats prints frame statistics.
	skinning     string
	paletteLimit int
	stats        bool
	// view is the debug view, skeleton the bones drawn over the mesh
	// (both from -view, viewName); joint the joint the weights view shows.
	viewName string
	view     debugview.Mode
	skeleton bool
	joint    string
	// Animation: a spec file, quick blends, parameter values, fade time.
	tree     string
	blend    string
	additive string
	params   paramList
	fade     float64
	// crowd is -crowd N; lod and crowdDraw -lod and -crowd-draw;
	// statsFrames is -frames when given (what -stats times, 0: its default).
	crowd          int
	lod, crowdDraw string
	statsFrames    int
	// kernels is -kernels: auto, portable, avx2 or avx512 (anim.SetKernels).
	kernels string
	// compressLater: the window opens before -compress runs, which then
	// runs in the background (app.LoadOptions.CompressLater).
	compressLater bool
	// Scripted and recorded output.
	keys   string
	hud    bool
	record string
	from   float64
	to     float64
	fps    int
	sheet  string
	frames int
	// onion is -onion N: ghost skeletons N and 2N frames away.
	onion int
	// clips are -clips files whose clips are retargeted onto the model,
	// jointMap the -joint-map file pairing their joint names.
	clips    stringList
	jointMap string
	// events prints fired event markers; rate is -rate (0: not given).
	events  bool
	rate    float64
	rateSet bool // -rate was given (0 holds the pose)
	// compress is -compress CM (0: off); json makes -info print JSON.
	compress float64
	json     bool
	// rootMotion is -root-motion MODE[:JOINT].
	rootMotion string
	// The stage flags (-eye, -lighting, -tonemap, ...) and the stage they set.
	stageFlags app.StageFlags
	stage      app.Stage
}

// stringList collects a repeated flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// paramList collects repeated -param NAME=VALUE flags.
type paramList = app.ParamFlags

func main() {
	opt, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "viewer:", err)
		os.Exit(2)
	}
	if err := run(opt); err != nil {
		fmt.Fprintln(os.Stderr, "viewer:", report.OneLine(err))
		os.Exit(1)
	}
}

// defineFlags declares every flag of the viewer on fs, writing into opt,
// and returns the -size value to parse afterwards.
func defineFlags(fs *flag.FlagSet, opt *options) *string {
	fs.StringVar(&opt.screenshot, "screenshot", "", "render one frame offscreen to this PNG `file` and exit")
	fs.StringVar(&opt.dumpPose, "dump-pose", "", "write joint world matrices and skinned positions as JSON to `file` ('-' = stdout) and exit; needs no display")
	fs.BoolVar(&opt.allNodes, "all-nodes", false, "with -dump-pose, list every node's world matrix, not only joints")
	fs.BoolVar(&opt.info, "info", false, "print the model's skins, clips, meshes, its validation report and the parameters -param sets, and exit")
	fs.BoolVar(&opt.validate, "validate", false, "print the model's validation report as JSON (glTF-Validator's shape) and exit; the exit status is 1 when it has errors")
	fs.StringVar(&opt.corpus, "corpus", "", "load, pose and render every .gltf/.glb under `folder` and print a table; files under an 'invalid' folder must be refused, or load with a report naming what is wrong")
	fs.StringVar(&opt.out, "out", "corpus-out", "`folder` for -corpus screenshots and poses")
	fs.Float64Var(&opt.time, "time", 0, "clip-local time in `seconds` (clamped to the clip in -screenshot and -dump-pose)")
	fs.StringVar(&opt.clip, "clip", "", "clip to play, by `name or index` (default: the first)")
	fs.StringVar(&opt.skinning, "skinning", scene.SkinGPU, "skinning method: `gpu` (linear blend in skin.vert), cpu (the same, computed in Go) or dq (dual quaternions in skin_dq.vert, for comparison)")
	fs.IntVar(&opt.paletteLimit, "palette-limit", 0, "joints per draw call, `K` (0: as many as the driver's uniform block holds); larger skins are split into bone partitions")
	fs.BoolVar(&opt.stats, "stats", false, "render 120 frames offscreen from -time on and print frame statistics (draw calls, partitions, palette bytes per frame, CPU ms for animation and rendering), then exit")
	fs.StringVar(&opt.viewName, "view", "shaded", "debug `view`: shaded, partitions (a colour per draw call), weights (of -joint), basecolor (unlit base colour, alpha mode applied), normal, metallic, roughness, occlusion, emissive, alpha (one input of the material), skeleton (bones over the mesh, -joint in the inspector)")
	fs.StringVar(&opt.joint, "joint", "", "joint `name or index` whose weights -view weights shows (default: the one with the most vertices)")
	fs.StringVar(&opt.tree, "tree", "", "blend-tree / state-machine spec `file` (JSON; see docs/spec.md)")
	fs.Var(&opt.params, "param", "set a control parameter, `NAME=VALUE` (repeatable)")
	fs.StringVar(&opt.blend, "blend", "", "blend clips with weights, `CLIP:W[,CLIP:W...]` (normalized), all at the same local time")
	fs.StringVar(&opt.additive, "additive", "", "add `CLIP:W[@REFTIME]` on top: the clip's difference from its own pose at REFTIME (default 0), with weight W")
	fs.Float64Var(&opt.fade, "fade", 0.3, "cross-fade `seconds` when switching clips with Enter")
	fs.StringVar(&opt.keys, "keys", "", "replay a key `script` after loading, one key per frame, e.g. \"space,right*10,tab,up*4,p\" (names: see docs/usage.md)")
	fs.IntVar(&opt.crowd, "crowd", 0, "draw `N` copies of the character on a grid, each with its own time offset and parameters, animated on all cores, one instanced draw per mesh")
	fs.StringVar(&opt.lod, "lod", "on", "crowd level of detail, `on|off`: members small on screen update every 2nd or 4th frame (off: every frame)")
	fs.StringVar(&opt.crowdDraw, "crowd-draw", "instanced", "how a crowd is drawn, `instanced|members`: one draw per mesh for all members, or each member's own draws (the same picture, for comparison)")
	fs.BoolVar(&opt.hud, "hud", false, "include the HUD in -screenshot, -record output")
	fs.StringVar(&opt.record, "record", "", "write the frames of -from..-to at -fps to `out`: an animated GIF (out.gif), a video through ffmpeg (out.mp4), or PNGs into a folder; then exit")
	fs.Float64Var(&opt.from, "from", 0, "first `second` of -record and -sheet")
	fs.Float64Var(&opt.to, "to", -1, "last `second` of -record and -sheet (default: the clip's end)")
	fs.IntVar(&opt.fps, "fps", 0, "`frames` per second of -record (default: the clip's frame rate)")
	fs.StringVar(&opt.sheet, "sheet", "", "write one contact-sheet `PNG` of -frames evenly spaced frames, and exit")
	fs.IntVar(&opt.frames, "frames", 12, "`count` of frames in -sheet, or timed by -stats (default 120 there)")
	fs.Var(&opt.clips, "clips", "add the clips of another glTF `file`, retargeted onto the model by joint name (repeatable)")
	fs.StringVar(&opt.jointMap, "joint-map", "", "JSON `file` pairing -clips joint names with the model's: {\"mixamorig:Hips\": \"hips\", ...}")
	fs.StringVar(&opt.rootMotion, "root-motion", "", "take the root joint's travel out of the pose and move the character with it: `MODE[:JOINT]`, MODE xz (horizontal travel and turn about Y) or all, JOINT by default the top joint of the first skin")
	fs.BoolVar(&opt.events, "events", false, "print each event marker as it fires, one JSON line {\"t\":..,\"clip\":..,\"event\":..} on stdout (window, -keys, -record)")
	fs.Float64Var(&opt.rate, "rate", 0, "playback `speed`: 1 authored, 0.5 half, negative backwards (default 1); with it (or -events) -record plays the clock from -from for -to minus -from seconds instead of posing each frame")
	fs.Float64Var(&opt.compress, "compress", 0, "compress every clip with a worst error of `CM` centimetres (virtual vertices 3 cm from each joint, glTF units taken as metres) and play the compressed clips; with -info, report size and error per clip")
	fs.BoolVar(&opt.json, "json", false, "with -info -compress, print one JSON line per clip instead of the text report")
	fs.IntVar(&opt.onion, "onion", 0, "start with the onion skin on: ghost skeletons `N` and 2N frames before and after the pose shown (Shift+O toggles it; 2 when not given)")
	opt.stageFlags.Register(fs)
	fs.StringVar(&opt.kernels, "kernels", "auto", "animation `kernels`: auto (each timed at start-up, the fastest kept), portable, avx2 or avx512 (every kernel at that level: the same bits on every run)")
	return fs.String("size", "960x720", "`WxH` of the -screenshot image, or of the window")
}

// printFlags lists the flags as flag.PrintDefaults does, except that a
// usage which already says its default is not given a second one.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		line := "  -" + f.Name
		if name != "" {
			line += " " + name
		}
		if def := f.DefValue; !strings.Contains(usage, "(default") && def != "" && def != "0" && def != "false" && def != "[]" {
			usage += " (default " + def + ")"
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, usage)
	})
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	opt := &options{}
	fs := flag.NewFlagSet("viewer", flag.ContinueOnError)
	// The flag package prints a bad flag's error and then the usage; -h
	// alone asks for the usage. A mistake gets its one line (main prints
	// it) and a pointer to -h, not sixty lines of flags.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	usage := func() {
		fmt.Fprintln(stderr, "usage: viewer [flags] [MODEL.gltf|MODEL.glb]")
		fmt.Fprintln(stderr, "With no MODEL the built-in character is shown.")
		printFlags(stderr, fs)
	}
	size := defineFlags(fs, opt)
	// Flags may come before or after the model, as in "viewer a.glb -clip 1".
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return nil, err
			}
			return nil, fmt.Errorf("%w (viewer -h lists the flags)", err)
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	fs.Visit(func(f *flag.Flag) {
		opt.rateSet = opt.rateSet || f.Name == "rate"
		if f.Name == "frames" {
			opt.statsFrames = opt.frames
		}
		opt.stageFlags.FovSet = opt.stageFlags.FovSet || f.Name == "fov"
	})
	switch len(positional) {
	case 0:
	case 1:
		opt.model = positional[0]
	default:
		return nil, fmt.Errorf("one model at a time, got %d: %s", len(positional), strings.Join(positional, " "))
	}
	w, h, ok := strings.Cut(*size, "x")
	var err1, err2 error
	opt.width, err1 = strconv.Atoi(w)
	opt.height, err2 = strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || opt.width < 16 || opt.height < 16 || opt.width > 8192 || opt.height > 8192 {
		return nil, fmt.Errorf("-size %q: want WIDTHxHEIGHT between 16 and 8192, like 960x720", *size)
	}
	var knownView bool
	opt.view, opt.skeleton, knownView = debugview.Parse(opt.viewName)
	modes := len(slices.DeleteFunc(opt.modes(), func(on bool) bool { return !on })) // a fresh slice
	for _, c := range []struct {
		bad bool
		err string
	}{
		{opt.skinning != scene.SkinGPU && opt.skinning != scene.SkinCPU && opt.skinning != scene.SkinDQ, fmt.Sprintf("-skinning %q: want gpu, cpu or dq", opt.skinning)},
		{!knownView, fmt.Sprintf("-view %q: want shaded, partitions, weights, basecolor, normal, metallic, roughness, occlusion, emissive, alpha or skeleton", opt.viewName)},
		{opt.onion < 0, fmt.Sprintf("-onion %d: want frames apart, 1 or more (0: off)", opt.onion)},
		{!(opt.compress >= 0) || math.IsInf(opt.compress, 0), fmt.Sprintf("-compress %v: want a worst error in centimetres, more than 0 (e.g. 0.01)", opt.compress)},
		{opt.json && (!opt.info || opt.compress == 0), "-json: only with -info -compress CM"},
		{opt.jointMap != "" && len(opt.clips) == 0, "-joint-map pairs the joint names of -clips files; give -clips too"},
		{opt.paletteLimit < 0, fmt.Sprintf("-palette-limit %d: want a positive joint count (or 0 for the driver's limit)", opt.paletteLimit)},
		{modes > 1, "-screenshot, -dump-pose, -info, -stats, -record, -sheet and -corpus are separate runs; give one"},
		{opt.corpus != "" && opt.model != "", "-corpus takes a folder, not a model"},
		{opt.tree != "" && (opt.blend != "" || opt.additive != ""), "-tree and -blend/-additive both describe the animation; give one"},
		{opt.blend != "" && opt.clip != "", "-blend names its clips; -clip does not apply"},
		{!(opt.fade >= 0), fmt.Sprintf("-fade %v: want seconds, 0 or more", opt.fade)},
		{opt.crowd < 0 || opt.crowd > 10000, fmt.Sprintf("-crowd %d: want 0 to 10000 characters", opt.crowd)},
		{opt.lod != "on" && opt.lod != "off", fmt.Sprintf("-lod %q: want on or off", opt.lod)},
		{opt.crowdDraw != "instanced" && opt.crowdDraw != "members", fmt.Sprintf("-crowd-draw %q: want instanced or members", opt.crowdDraw)},
		{opt.fps < 0 || opt.fps > 240, fmt.Sprintf("-fps %d: want 1 to 240 (0: the clip's frame rate)", opt.fps)},
		{opt.frames < 1 || opt.frames > 400, fmt.Sprintf("-frames %d: want 1 to 400", opt.frames)},
		{opt.to >= 0 && opt.from > opt.to, fmt.Sprintf("-from %g is after -to %g: want the first second before the last", opt.from, opt.to)},
		{opt.time != opt.time, "-time is not a number"},
		{opt.keys != "" && (opt.record != "" || opt.sheet != "" || opt.dumpPose != ""), "-keys plays in the window and before -screenshot; -record, -sheet and -dump-pose pose the animation at their times (drop -keys, or use -param and -time)"},
		{opt.crowd > 1 && (opt.dumpPose != "" || opt.info), "-dump-pose and -info describe one character; -crowd does not apply"},
		{opt.keys != "" && opt.stats, "-stats times frames of its own; -keys does not apply"},
	} {
		if c.bad {
			return nil, errors.New(c.err)
		}
	}
	if opt.record != "" {
		if _, err := app.RecordOutput(opt.record); err != nil {
			return nil, err
		}
	}
	var err error
	opt.stage, err = app.ParseStage(opt.stageFlags)
	return opt, err
}

func run(opt *options) error {
	if err := anim.SetKernels(opt.kernels); err != nil {
		return fmt.Errorf("-kernels: %w", err)
	}
	opt.compressLater = opt.window()
	if opt.corpus != "" {
		return runCorpus(os.Stdout, opt.corpus, opt.out, opt.width, opt.height)
	}
	if opt.validate {
		return validate(os.Stdout, opt.model)
	}
	lo := opt.load()
	l, err := app.Load(lo)
	if err != nil {
		return err
	}
	for _, n := range l.Notes {
		fmt.Fprintln(os.Stderr, "viewer:", n)
	}
	if opt.info {
		return l.WriteInfo(os.Stdout, lo, opt.paletteLimit, opt.json)
	}
	c, err := l.Character(lo)
	if err != nil {
		return err
	}
	t := app.StartTime(c, opt.time)
	switch {
	case opt.dumpPose != "":
		return app.DumpPose(opt.dumpPose, c, t, opt.allNodes)
	case opt.screenshot != "":
		// One frame at time t (after the -keys script, if any); the HUD
		// only with -hud.
		evs, err := ui.ParseKeys(opt.keys)
		if err != nil {
			return err
		}
		return offscreen(opt, c, opt.width, opt.height, func(a *app.App) error {
			img, err := a.Shoot(t, evs)
			if err != nil {
				return err
			}
			return app.WritePNG(opt.screenshot, img)
		})
	case opt.stats:
		return offscreen(opt, c, opt.width, opt.height, func(a *app.App) error { return a.Stats(os.Stdout, t) })
	case opt.record != "":
		return offscreen(opt, c, opt.width, opt.height, func(a *app.App) error { return a.Record(opt.record) })
	case opt.sheet != "":
		return offscreen(opt, c, opt.width, opt.height, func(a *app.App) error { return a.Sheet(opt.sheet) })
	default:
		return interactive(opt, c)
	}
}

// app is what of the flags the app runs with.
func (o *options) app() *app.Options {
	return &app.Options{Skinning: o.skinning, PaletteLimit: o.paletteLimit, Joint: o.joint, View: o.view, Skeleton: o.skeleton,
		Time: o.time, Onion: o.onion, Rate: o.rate, RateSet: o.rateSet, Fade: o.fade, StatsFrames: o.statsFrames, Crowd: o.crowd, CrowdMembers: o.crowdDraw == "members", NoLOD: o.lod == "off", Events: o.events, HUD: o.hud, Keys: o.keys != "",
		From: o.from, To: o.to, FPS: o.fps, Frames: o.frames, Width: o.width, Height: o.height, Stage: o.stage}
}

// load is what of the flags picks and shapes the character.
func (o *options) load() *app.LoadOptions {
	return &app.LoadOptions{Model: o.model, Clip: o.clip, Tree: o.tree, Blend: o.blend, Additive: o.additive, Fade: o.fade,
		RootMotion: o.rootMotion, Clips: o.clips, JointMap: o.jointMap, Compress: o.compress, CompressLater: o.compressLater, Params: o.params}
}

// validate prints the -validate report of the model at path, as JSON, and
// returns an error when it has errors.
func validate(w io.Writer, path string) error {
	m, err := asset.Load(path)
	return report.WriteValidation(w, path, m, err)
}

// modes are the flags of the runs other than the window's: one at most.
func (o *options) modes() []bool {
	return []bool{o.screenshot != "", o.dumpPose != "", o.info, o.validate, o.corpus != "", o.stats, o.record != "", o.sheet != ""}
}

// window says the viewer opens its window: no other run was asked for.
func (o *options) window() bool {
	for _, on := range o.modes() {
		if on {
			return false
		}
	}
	return true
}
