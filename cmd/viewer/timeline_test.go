package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/debugview"
)

// TestTimelineShowsWhatPlays checks the timeline's reading against the
// built-in character's clips (-info: Walk 1 s, Idle 3 s, Run 0.7 s, Jump
// 1.2 s, all keyed at 30 fps).
func TestTimelineShowsWhatPlays(t *testing.T) {
	t.Run("-clip leaves nothing pending", func(t *testing.T) {
		withApp(t, options{clip: "Idle"}, func(a *app.App) error {
			if in := a.Info(); in.Selected != in.Choice || in.Choice != "Idle" {
				t.Errorf("-clip Idle: choice %q, selected %q; want Idle and nothing pending", in.Choice, in.Selected)
			}
			return nil
		})
	})
	t.Run("a once-state's length, label and key marks under the spec", func(t *testing.T) {
		withApp(t, options{}, func(a *app.App) error {
			if err := a.Char.Ctl.Request("jump"); err != nil {
				return err
			}
			keys(t, a, "wait")
			in := a.Info()
			if in.Duration != 1.2 || in.Loop != anim.Once {
				t.Errorf("jump: %v s, %v; want Jump's 1.2 s, once (not the longest clip, not loop)", in.Duration, in.Loop)
			}
			if len(in.Keys) == 0 || in.Keys[len(in.Keys)-1] > 1.2+1e-6 {
				t.Errorf("jump: %d key marks ending at %v; want Jump's", len(in.Keys), in.Keys)
			}
			if in.FPS != 30 || in.Frames != 36 {
				t.Errorf("jump: %d frames @ %v fps, want 36 @ 30", in.Frames, in.FPS)
			}
			return nil
		})
	})
	t.Run("shift+enter cuts under the spec", func(t *testing.T) {
		withApp(t, options{}, func(a *app.App) error {
			keys(t, a, "]")
			want := a.Info().Selected
			keys(t, a, "shift+enter")
			if s := a.Char.Ctl.Status(); s.State != want || s.From != "" {
				t.Errorf("after shift+enter on %q: %+v; want settled there at once", want, s)
			}
			return nil
		})
	})
	t.Run("end, steps and frame numbers agree in a loop", func(t *testing.T) {
		withApp(t, options{clip: "Run"}, func(a *app.App) error {
			keys(t, a, "end")
			if in := a.Info(); in.Time != 0.7 || in.Frame != 21 || in.Frames != 21 {
				t.Errorf("end: %v s, frame %d/%d; want 0.7 s, frame 21/21", in.Time, in.Frame, in.Frames)
			}
			keys(t, a, "left")
			if in := a.Info(); math.Abs(float64(in.Time)-20.0/30) > 1e-5 || in.Frame != 20 {
				t.Errorf("end, left: %v s, frame %d; want frame 20", in.Time, in.Frame)
			}
			keys(t, a, "right,right")
			if in := a.Info(); math.Abs(float64(in.Time)-1.0/30) > 1e-5 || in.Frame != 1 {
				t.Errorf("frame 20, right twice: %v s, frame %d; want frame 21 then 1", in.Time, in.Frame)
			}
			return nil
		})
	})
}

// TestStateLineAndTimelineClick: key S prints the viewer's state as one
// JSON line; a click at a fraction f of the timeline rectangle it reports
// seeks to f × duration.
func TestStateLineAndTimelineClick(t *testing.T) {
	withApp(t, options{clip: "Wave"}, func(a *app.App) error {
		var out bytes.Buffer
		a.Stdout = &out
		if err := a.Draw(); err != nil { // lays the timeline out
			return err
		}
		keys(t, a, "right*3,s")
		var st struct {
			Model, Mode, Playing, Loop string
			Time, Duration, FPS        float32
			Frame, Frames              int
			Paused                     bool
			Weights                    map[string]float32
			Timeline                   struct{ X, Y, W, H float32 }
		}
		if err := json.Unmarshal(out.Bytes(), &st); err != nil {
			return fmt.Errorf("state line %q: %v", out.String(), err)
		}
		if strings.Count(out.String(), "\n") != 1 {
			t.Errorf("state line %q is not one line", out.String())
		}
		if st.Playing != "Wave" || st.Frame != 3 || st.Frames != 60 || st.FPS != 30 || !st.Paused ||
			math.Abs(float64(st.Time)-0.1) > 1e-6 || st.Duration != 2 || st.Loop != "loop" || st.Weights["Wave"] != 1 {
			t.Errorf("state %+v; want Wave paused at frame 3/60 (0.1 s of 2 s) @ 30 fps, looping, weight 1", st)
		}
		r := st.Timeline
		if r.W <= 0 || r.H <= 0 {
			return fmt.Errorf("timeline rectangle %+v", r)
		}
		for _, f := range []float32{0.1, 0.5, 0.9} {
			a.UI.Press((r.X+f*r.W)*a.Scale, (r.Y+r.H/2)*a.Scale, false, a)
			a.UI.Release()
			if got := a.Time(); math.Abs(float64(got-f*st.Duration)) > 1.0/30 {
				t.Errorf("click at %v of the timeline: %v s, want %v", f, got, f*st.Duration)
			}
		}
		return nil
	})
}

// TestBindPoseAndLoopRegion: B shows the bind pose, where every skinning
// matrix is the identity (the generated character's inverse binds are its
// rest pose's); I and O make a region that playback does not leave.
func TestBindPoseAndLoopRegion(t *testing.T) {
	withApp(t, options{clip: "Walk"}, func(a *app.App) error {
		keys(t, a, "b,wait")
		for i, v := range a.Char.Palettes[0] {
			want := float32(0)
			if c := i % 12; c == 0 || c == 5 || c == 10 {
				want = 1
			}
			if math.Abs(float64(v-want)) > 1e-4 {
				return fmt.Errorf("bind pose: palette float %d = %v, want %v (identity)", i, v, want)
			}
		}
		keys(t, a, "b,space,right*6,i,right*9,o,space")
		// b and wait play frames 1 and 2, b frame 3, then space pauses at
		// 0.1 s: in at frame 9, out at frame 18.
		if math.Abs(float64(a.UI.LoopIn)-0.3) > 1e-6 || math.Abs(float64(a.UI.LoopOut)-0.6) > 1e-6 {
			return fmt.Errorf("loop region [%v, %v], want [0.3, 0.6]", a.UI.LoopIn, a.UI.LoopOut)
		}
		for range 40 { // 1.3 s of playback
			keys(t, a, "wait")
			if tm := a.Time(); tm < 0.3-1e-6 || tm > 0.6+1e-6 {
				return fmt.Errorf("playing in the region [0.3, 0.6]: time %v", tm)
			}
		}
		return nil
	})
}

// TestJointInspector: with the skeleton overlay on, a press where the head
// is drawn selects it; the HUD's inspector and S then name it and its
// parent (the built-in character's head hangs from its neck).
func TestJointInspector(t *testing.T) {
	withApp(t, options{clip: "Walk", width: 400, height: 400}, func(a *app.App) error {
		a.UI.Skeleton = true
		keys(t, a, "space")
		head := a.Char.Model.Skeleton.JointIndex("head")
		x, y, ok := a.View.Cam.Project(a.Char.JointWorld(head).Col(3).Vec3(), a.View.W, a.View.H)
		if !ok || head < 0 {
			return fmt.Errorf("the head (joint %d) is not in view", head)
		}
		if !a.UI.Press(x+3, y-2, false, a) {
			return errors.New("a press on the head did not select it")
		}
		in := a.Info()
		if in.Joint == nil || in.Joint.Name != "head" || in.Joint.Parent != "neck" {
			return fmt.Errorf("inspector %+v, want the head under the neck", in.Joint)
		}
		var out bytes.Buffer
		a.Stdout = &out
		a.ReportState()
		if !strings.Contains(out.String(), `"selected_joint":"head"`) {
			return fmt.Errorf("state line %s does not name the head", out.String())
		}
		return nil
	})
}

// TestHUDFrameNumber: the HUD's frame is the key the time has reached, by
// the key times in the file (the built-in Walk's keys are uniform): at a
// key and half a step past it, frame k; the last frame the clip's length in
// steps.
func TestHUDFrameNumber(t *testing.T) {
	withApp(t, options{clip: "Walk"}, func(a *app.App) error {
		keys(t, a, "space")
		var times []float32
		for _, c := range a.Char.Model.Clips {
			if c.Name == "Walk" {
				times = c.Tracks[0].Times
			}
		}
		if len(times) < 8 {
			return fmt.Errorf("Walk has %d keys in its first track", len(times))
		}
		step := times[1] - times[0]
		last := len(times) - 1
		for _, k := range []int{0, 1, 7, last - 1} {
			for _, at := range []float32{times[k], times[k] + step/2} {
				a.Seek(at)
				if in := a.Info(); in.Frame != k || in.Frames != last {
					return fmt.Errorf("at %.4f s (key %d) the HUD shows frame %d/%d, want %d/%d", at, k, in.Frame, in.Frames, k, last)
				}
			}
		}
		return nil
	})
}

// stateLine is what key S prints, as far as the tests read it.
type stateLine struct {
	Playing string
	Weights map[string]float32
	Onion   bool
	Morph   *struct {
		Node     string
		Selected string
		Weights  map[string]float32
		Pinned   []string
	}
	ClipList *struct {
		X, Y, W, H float32
		RowHeight  float32 `json:"row_height"`
		WeightX    float32 `json:"weight_x"`
		WeightW    float32 `json:"weight_w"`
		First      int
	} `json:"clip_list"`
}

// readState presses S and parses the line it prints.
func readState(t *testing.T, a *app.App) stateLine {
	t.Helper()
	var out bytes.Buffer
	a.Stdout = &out
	a.ReportState()
	var st stateLine
	if err := json.Unmarshal(out.Bytes(), &st); err != nil {
		t.Errorf("state line %q: %v", out.String(), err)
	}
	return st
}

// TestQuickBlendLoops plays -blend and -additive past their clips' ends
// where the clock plays (a key script here, as in the window): the
// timeline loops them, as it loops -clip (they played once and held their
// last frame), alone and in a crowd, and L cycles the mode. Posing modes
// hold each clip at its end, as before. The built-in character's Walk is
// 1 s long.
func TestQuickBlendLoops(t *testing.T) {
	for _, opt := range []options{{blend: "Walk:0.7,Run:0.3"}, {additive: "Idle:0.5", clip: "Walk"}, {blend: "Walk:0.7,Run:0.3", crowd: 4}} {
		opt.keys = "wait"
		withApp(t, opt, func(a *app.App) error {
			keys(t, a, "wait*36") // 1.2 s, a key script stepping 1/30 s
			in := a.Info()
			if in.Loop != anim.Loop || !(in.Time > 0.15 && in.Time < 0.25) {
				t.Errorf("-blend %q -additive %q -crowd %d after 1.2 s: %s at %.3f s; want loop at 0.2 s", opt.blend, opt.additive, opt.crowd, in.Loop, in.Time)
			}
			keys(t, a, "l")
			if in := a.Info(); in.Loop != anim.Once {
				t.Errorf("-blend %q -additive %q -crowd %d: L gives %s; want once", opt.blend, opt.additive, opt.crowd, in.Loop)
			}
			return nil
		})
	}
	withApp(t, options{blend: "Walk:0.7,Run:0.3"}, func(a *app.App) error {
		if in := a.Info(); in.Loop != anim.Once {
			t.Errorf("-blend posing frames: %s; want once, each clip held at its end", in.Loop)
		}
		return nil
	})
}

// TestClipBrowserStartsBlendedByParams: -param weight:NAME=W plays the
// clip browser's blend from the start (it set the weights of a blend that
// did not play), and the crowd's clip browser, which has no blend, draws
// its HUD (it indexed the blend's parameters in a controller without them).
func TestClipBrowserStartsBlendedByParams(t *testing.T) {
	opt := options{clip: "Walk", params: paramList{{Name: "weight:Walk", Value: 0.5}, {Name: "weight:Run", Value: 0.5}}}
	withApp(t, opt, func(a *app.App) error {
		keys(t, a, "wait")
		var dump bytes.Buffer
		if err := a.Char.DumpPose(&dump, a.Time(), false); err != nil {
			return err
		}
		if !strings.HasPrefix(dump.String(), `{"clip": null`) {
			t.Errorf("the blend's pose dump begins %.30q; want clip null, as for -blend", dump.String())
		}
		w := a.Char.ClipWeights()
		walk, run := -1, -1
		for i, cl := range a.Char.Model.Clips {
			switch cl.Name {
			case "Walk":
				walk = i
			case "Run":
				run = i
			}
		}
		if !a.Char.InBlend() || w[walk] != 0.5 || w[run] != 0.5 {
			t.Errorf("-param weight:Walk=0.5 weight:Run=0.5: in blend %v, weights %v; want Walk and Run at 0.5", a.Char.InBlend(), w)
		}
		return nil
	})
	withApp(t, options{clip: "Walk", crowd: 4, hud: true}, func(a *app.App) error {
		keys(t, a, "wait")
		if in := a.Info(); in.Mode != "clip" {
			t.Errorf("crowd's clip browser: mode %q", in.Mode)
		}
		return a.Draw()
	})
}

// TestShotOfCompactHUDIsTheWholePicture: P saves the picture without the
// HUD, so it must not keep the room the one-line HUD's bar takes; it
// saved an empty band with the model shrunk below it.
func TestShotOfCompactHUDIsTheWholePicture(t *testing.T) {
	var shots [2][]byte
	for i, hud := range []bool{false, true} {
		withApp(t, options{clip: "Walk", width: 320, height: 240}, func(a *app.App) error {
			a.ShotDir = t.TempDir()
			a.UI.HUD = hud
			path, err := a.RequestShot()
			if err != nil {
				return err
			}
			if err := a.Draw(); err != nil {
				return err
			}
			shots[i], err = os.ReadFile(path)
			return err
		})
	}
	if !bytes.Equal(shots[0], shots[1]) {
		t.Error("the P screenshot with the one-line HUD on differs from the one with it off")
	}
}

// TestFramingKeepsTheClock: framing samples the clip over its span; the
// window reframes once it opens, which left the clock at the clip's end
// (a new user's report: the window started at 3.4167 s of Fox's Survey
// whatever -time said).
func TestFramingKeepsTheClock(t *testing.T) {
	for _, at := range []float64{0, 0.4} {
		withApp(t, options{clip: "Walk", time: at}, func(a *app.App) error {
			if err := a.Reframe(); err != nil {
				return err
			}
			if in := a.Info(); math.Abs(float64(in.Time)-at) > 1e-6 {
				t.Errorf("-time %v: after framing the clock reads %v", at, in.Time)
			}
			return nil
		})
	}
	// A spec that opens on a once state with an automatic way out: framing
	// played it out, so the window opened on the next state.
	spec := tempFile(t, "intro.json", []byte(`{"initial": "jump",
	  "states": [{"name": "jump", "tree": {"type": "clip", "clip": "Jump", "loop": "once"}}, {"name": "loco", "tree": "Walk"}],
	  "transitions": [{"from": "jump", "to": "loco", "auto": true, "window": [0.85, 1], "duration": 0.2}]}`))
	withApp(t, options{tree: spec}, func(a *app.App) error {
		if err := a.Reframe(); err != nil {
			return err
		}
		if st := a.Char.Ctl.Status(); st.State != "jump" || st.From != "" || a.Time() != 0 {
			t.Errorf("after framing: state %q (from %q) at %v; want jump at 0", st.State, st.From, a.Time())
		}
		return nil
	})
}

// TestOnceClipEnds: a clip played once to its end keeps no time past it,
// so R turns it round at once (it stood still for as long as it had sat at
// the end), and Space plays it again from its start (it paused). Walk is
// 1 s long; a key script steps 1/30 s.
func TestOnceClipEnds(t *testing.T) {
	withApp(t, options{clip: "Walk"}, func(a *app.App) error {
		keys(t, a, "l,wait*90,r,wait*15") // once, 3 s on, then 0.5 s back
		if in := a.Info(); in.Loop != anim.Once || math.Abs(float64(in.Time)-0.5) > 0.05 {
			t.Errorf("reversed after sitting at the end: %s at %.3f s; want once at 0.5 s", in.Loop, in.Time)
		}
		keys(t, a, "r,wait*30,space,wait*6") // to the end again, then Space
		if in := a.Info(); !a.UI.Playing || !(in.Time > 0.1 && in.Time < 0.3) {
			t.Errorf("Space at the end: playing %v at %.3f s; want playing from the start", a.UI.Playing, in.Time)
		}
		return nil
	})
}

// TestClipListBlend drives the clip browser's list with the mouse and keys
// as docs/usage.md says, reading the weights back from the state line. The
// built-in character's clips are Walk, Wave, Idle, Run, … in that order.
func TestClipListBlend(t *testing.T) {
	withApp(t, options{clip: "Walk", width: 800, height: 600}, func(a *app.App) error {
		if err := a.Draw(); err != nil {
			return err
		}
		cl := readState(t, a).ClipList
		if cl == nil || cl.First != 0 || cl.RowHeight <= 0 {
			return fmt.Errorf("clip list %+v", cl)
		}
		row := func(i int) float32 { return cl.Y + (float32(i)+0.5)*cl.RowHeight }
		click := func(x, y float32, shift bool) {
			if !a.UI.Press(x, y, shift, a) {
				t.Errorf("the press at (%v, %v) was not the clip list's", x, y)
			}
			a.UI.Release()
			keys(t, a, "wait*12") // 0.4 s: the 0.3 s fade is over
		}
		near := func(got map[string]float32, want map[string]float32) bool {
			if len(got) != len(want) {
				return false
			}
			for k, w := range want {
				if math.Abs(float64(got[k]-w)) > 1e-5 {
					return false
				}
			}
			return true
		}
		steps := []struct {
			what string
			do   func()
			want map[string]float32
		}{
			{"click on Run plays it", func() { click(cl.X+12, row(3), false) }, map[string]float32{"Run": 1}},
			{"Shift+click on Walk blends it with Run", func() { click(cl.X+12, row(0), true) }, map[string]float32{"Walk": 0.5, "Run": 0.5}},
			{"Walk's bar dragged from 0.25 to 0.6", func() {
				a.UI.Press(cl.WeightX+0.25*cl.WeightW, row(0), false, a)
				a.UI.Drag(cl.WeightX+0.6*cl.WeightW, a)
				a.UI.Release()
				keys(t, a, "wait")
			}, map[string]float32{"Walk": 0.6 / 1.6, "Run": 1 / 1.6}},
			{"A takes Walk out", func() { keys(t, a, "a") }, map[string]float32{"Run": 1}},
			{"], Up×2 give Wave 0.1", func() { keys(t, a, "],up*2") }, map[string]float32{"Run": 1 / 1.1, "Wave": 0.1 / 1.1}},
			{"click on Idle plays it alone", func() { click(cl.X+12, row(2), false) }, map[string]float32{"Idle": 1}},
		}
		for _, s := range steps {
			s.do()
			if st := readState(t, a); !near(st.Weights, s.want) {
				t.Errorf("%s: weights %v, want %v", s.what, st.Weights, s.want)
			}
		}
		return nil
	})
}

// TestDebugViewsAreLabelled: V cycles the debug views and the HUD names
// the one shown: the partitions with their draw count, the weights with
// their joint (-joint).
func TestDebugViewsAreLabelled(t *testing.T) {
	withApp(t, options{clip: "Walk", joint: "hand.L", paletteLimit: 12}, func(a *app.App) error {
		want := []string{"", "view: partitions, a colour per draw call (", "view: weights of hand.L ("}
		for i, w := range want {
			if i > 0 {
				keys(t, a, "v")
			}
			got := a.Info().View
			if (w == "") != (got == "") || !strings.HasPrefix(got, w) {
				t.Errorf("after %d × V the view is labelled %q, want %q…", i, got, w)
			}
		}
		if got := a.Info().View; !strings.Contains(a.Snapshot.ViewLabels[debugview.Partitions], fmt.Sprintf("(%d)", a.View.Scene.Parts)) || a.View.Scene.Parts < 2 {
			t.Errorf("partitions label %q for %d partitions (%s)", a.Snapshot.ViewLabels[debugview.Partitions], a.View.Scene.Parts, got)
		}
		return nil
	})
}

// TestMorphPanelPinsWeights drives the morph panel of the generated morph
// creature with keys and the mouse, reading the weights back from the
// state line: at 0.5 s of Breathe the clip gives bulge 1, squash 0 and
// lean 0.5.
func TestMorphPanelPinsWeights(t *testing.T) {
	withApp(t, options{model: "@edge/morph_creature.gltf", clip: "Breathe", width: 800, height: 600}, func(a *app.App) error {
		keys(t, a, "space")
		a.Seek(0.5)
		if err := a.Update(0); err != nil {
			return err
		}
		if err := a.Draw(); err != nil {
			return err
		}
		check := func(what string, want map[string]float32, pinned ...string) {
			t.Helper()
			st := readState(t, a)
			if st.Morph == nil {
				t.Errorf("%s: no morph panel in the state line", what)
				return
			}
			for k, w := range want {
				if math.Abs(float64(st.Morph.Weights[k]-w)) > 1e-5 {
					t.Errorf("%s: weights %v, want %v", what, st.Morph.Weights, want)
					break
				}
			}
			if fmt.Sprint(st.Morph.Pinned) != fmt.Sprint(append([]string{}, pinned...)) {
				t.Errorf("%s: pinned %v, want %v", what, st.Morph.Pinned, pinned)
			}
		}
		check("the clip", map[string]float32{"bulge": 1, "squash": 0, "lean": 0.5})
		keys(t, a, "n,=,=")
		check("squash pinned 0.1 higher", map[string]float32{"bulge": 1, "squash": 0.1, "lean": 0.5}, "squash")
		if w := a.Char.MorphWeights(a.Char.MorphNode(a.UI.MorphShown))[1]; w != 0.1 {
			t.Errorf("the drawn pose has squash %v, want the pinned 0.1", w)
		}
		r, bar := a.UI.Morphs, a.UI.MorphBar
		a.UI.Press(bar.X+0.75*bar.W, r.Y+0.5*a.UI.RowHeight, false, a)
		a.UI.Release()
		keys(t, a, "wait")
		check("bulge's bar pressed at 0.75", map[string]float32{"bulge": 0.75, "squash": 0.1, "lean": 0.5}, "bulge", "squash")
		keys(t, a, "backspace")
		check("every pin released", map[string]float32{"bulge": 1, "squash": 0, "lean": 0.5})
		return nil
	})
}

// eventSpec puts markers on Walk (1 s, looping, played at rate 1.7).
const eventSpec = `{"tree": {"type": "clip", "clip": "Walk", "rate": 1.7},
 "events": [{"clip": "Walk", "time": 0.1, "name": "step_l"}, {"clip": "Walk", "time": 0.6, "name": "step_r"}]}`

// TestRootMotionFollowKey: with root motion on, C stops the camera
// following the walker and a second C resumes it from where it stands.
func TestRootMotionFollowKey(t *testing.T) {
	withApp(t, options{model: "@edge/root_walk.gltf", clip: "Walk", rootMotion: "xz", width: 320, height: 240}, func(a *app.App) error {
		keys(t, a, "wait*15")
		target := a.View.Cam.Target
		if !a.Follow || target == a.View.Home.Target && a.Char.Root.Translation.Len() == 0 {
			t.Errorf("not following: follow %v, root %v", a.Follow, a.Char.Root.Translation)
		}
		keys(t, a, "c,wait*15")
		if a.Follow || a.View.Cam.Target != target {
			t.Errorf("after C the camera moved: %v → %v", target, a.View.Cam.Target)
		}
		before := a.View.Cam.Target
		keys(t, a, "c,wait*15")
		if d := a.View.Cam.Target.Sub(before); !a.Follow || d.Len() < 0.2 {
			t.Errorf("after C again the camera moved by %v; want it following the walk (0.8 m/s)", d)
		}
		return nil
	})
}

// TestEndShowsTheLastFrame: a clip whose length is no whole number of its
// frames (BoxAnimated: keys 1.25 s apart, 0.8 fps, ending at 3.708 s)
// showed "frame 2/3" at its end, after End ("last frame"): the count was
// the length in frames rounded, the frame shown it rounded down. The
// last frame is the one shown at the clip's end.
func TestEndShowsTheLastFrame(t *testing.T) {
	d := &gltfData{t: t}
	pos := d.add([]float32{0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", `"min": [0, 0, 0], "max": [1, 1, 0]`)
	times := d.add([]float32{0, 1.25, 2.5, 3.708}, "SCALAR", `"min": [0], "max": [3.708]`)
	moves := d.add([]float32{0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0}, "VEC3", "")
	path := tempFile(t, "box.gltf", fmt.Appendf(nil, `{"asset": {"version": "2.0"}, %s,
	  "meshes": [{"primitives": [{"attributes": {"POSITION": %d}}]}],
	  "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0,
	  "animations": [{"samplers": [{"input": %d, "output": %d}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]}`,
		d.members(), pos, times, moves))
	withArgs(t, []string{"-size", "64x64", path}, func(a *app.App) error {
		keys(t, a, "end")
		if in := a.Info(); in.FPS != 0.8 || in.Frame != in.Frames {
			t.Errorf("end: %v s, frame %d/%d @ %v fps; want the last frame shown", in.Time, in.Frame, in.Frames, in.FPS)
		}
		return nil
	})
}

// TestWindowFramesTheCrowd: -crowd N opens offscreen on the whole crowd,
// but the window, reframing as it opens, framed the one character at the
// middle: most of the crowd was cut off or out of sight. The window opens
// on the crowd's framing.
func TestWindowFramesTheCrowd(t *testing.T) {
	withApp(t, options{crowd: 20, width: 96, height: 72}, func(a *app.App) error {
		want := a.View.Cam
		if err := a.StartWindow(96, 72, 1); err != nil {
			return err
		}
		if got := a.View.Cam; got.Distance < want.Distance*0.99 || got.Target.Sub(want.Target).Len() > want.Distance*0.01 {
			t.Errorf("window camera %v at distance %v; the crowd's framing is %v at %v", got.Target, got.Distance, want.Target, want.Distance)
		}
		return nil
	})
}
