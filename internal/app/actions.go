package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/ui"
)

// The app is what the key map drives: every method of ui.Actions is here,
// those that concern the animation alone forwarded to the character.
var _ ui.Actions = (*App)(nil)

func (a *App) Choices() []string                 { return a.Char.Choices() }
func (a *App) Request(i int, instant bool) error { return a.Char.Request(i, instant) }
func (a *App) RequestIndex(i int) error          { return a.Char.RequestIndex(i) }
func (a *App) Params() []graph.Param             { return a.Char.Params() }
func (a *App) SetParam(i int, v float32)         { a.Char.SetParam(i, v) }
func (a *App) Time() float32                     { return a.Char.Time() }
func (a *App) Duration() float32                 { return a.Char.Duration() }
func (a *App) FrameStep() float32                { return a.Char.FrameStep() }
func (a *App) Keys() []float32                   { return a.Char.Keys() }
func (a *App) BlendWeight(i int) (float32, bool) { return a.Char.BlendWeight(i) }

// The morph panel shows the node a.UI.MorphShown picks; the weights are
// the character's.
func (a *App) morphNode() int                    { return a.Char.MorphNode(a.UI.MorphShown) }
func (a *App) NumMorph() int                     { return a.Char.NumMorph(a.morphNode()) }
func (a *App) MorphWeight(i int) (float32, bool) { return a.Char.MorphWeight(a.morphNode(), i) }
func (a *App) PinMorph(i int, w float32)         { a.Char.PinMorph(a.morphNode(), i, w) }
func (a *App) ReleaseMorph(i int)                { a.Char.ReleaseMorph(a.morphNode(), i) }

// CycleMorph implements ui.Actions: the morph panel shows the next node
// with morph targets, then none, then the first again.
func (a *App) CycleMorph() {
	if n := len(a.Char.MorphNodes()); n > 0 {
		a.UI.MorphShown++
		if a.UI.MorphShown >= n {
			a.UI.MorphShown = -1
		}
	}
}

// ToggleFollow implements ui.Actions: the camera stays put, or follows
// root motion again, catching up with where the character walked to.
func (a *App) ToggleFollow() {
	a.Follow = !a.Follow
	if !a.Char.RootMotionOn() {
		a.UI.Say("no root motion to follow (-root-motion)")
	}
}

// FrameModel implements ui.Actions: the home framing, where root motion
// has carried the character.
func (a *App) FrameModel() {
	a.leaveCamera()
	if a.View.Placed {
		// F after -eye: the framing, from now on.
		a.View.Placed, a.View.Home = false, a.View.Framed
	}
	if a.Char.RootMotionOn() {
		a.View.Home.Target = a.View.Home.Target.Add(a.Char.Root.Translation.Sub(a.followed))
		a.followed = a.Char.Root.Translation
		a.Follow = true
	}
	a.View.Cam = a.View.Home
}

// RequestShot names the next screenshot (model, clip, time) and asks the
// next frame to write it.
func (a *App) RequestShot() (string, error) {
	if err := os.MkdirAll(a.ShotDir, 0o755); err != nil {
		return "", err
	}
	name := strings.TrimSuffix(filepath.Base(a.Char.Model.Name), filepath.Ext(a.Char.Model.Name))
	choice := a.Char.ChoiceName()
	safe := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r == ':' {
			return '_'
		}
		return r
	}, fmt.Sprintf("%s_%s_%.3fs", name, choice, a.Char.Time()))
	path := filepath.Join(a.ShotDir, safe+".png")
	for i := 2; fileExists(path); i++ {
		path = filepath.Join(a.ShotDir, fmt.Sprintf("%s_%d.png", safe, i))
	}
	a.shotPath = path
	return path, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Screenshot implements ui.Actions: RequestShot.
func (a *App) Screenshot() (string, error) { return a.RequestShot() }

// Seek implements ui.Actions for the crowd too.
func (a *App) Seek(t float32) {
	if a.Crowd != nil {
		a.Crowd.PoseAt(t)
		return
	}
	a.Char.Seek(t)
}

// Step implements ui.Actions: a frame step fires the markers it passes,
// then seeks.
func (a *App) Step(t float32, forward bool) {
	if a.Crowd == nil {
		a.printEvents(a.Char.Ctl.StepEvents(a.Char.Time(), t, forward))
	}
	a.Seek(t)
}

// printEvents writes fired markers as JSON lines when -events asks for
// them: the marker's clip time, its clip and its name.
func (a *App) printEvents(evs []graph.Event) {
	if !a.opt.Events {
		return
	}
	for _, e := range evs {
		clip, _ := json.Marshal(asset.ClipName(a.Char.Model, e.Clip))
		name, _ := json.Marshal(e.Name)
		fmt.Fprintf(a.Stdout, "{\"t\":%s,\"clip\":%s,\"event\":%s}\n", strconv.FormatFloat(float64(e.Time), 'g', -1, 32), clip, name)
	}
}

// SetLoopMode implements ui.Actions for the crowd too.
func (a *App) SetLoopMode(m anim.LoopMode) error {
	if a.Crowd != nil && (a.Char.ClipMode || a.Char.OneClock) {
		a.Crowd.SetLoopMode(m)
		return nil
	}
	return a.Char.SetLoopMode(m)
}

// SetBlendWeight implements ui.Actions; a crowd plays its own clips.
func (a *App) SetBlendWeight(i int, w float32) error {
	if a.Crowd != nil {
		return errors.New("each character of a crowd plays its own clips")
	}
	return a.Char.SetBlendWeight(i, w)
}

// ReportState implements ui.Actions: the state line of key S, one JSON
// object on stdout, for bug reports and scripts.
func (a *App) ReportState() {
	in := a.Info()
	fmt.Fprintln(a.Stdout, string(ui.StateLine(&in, &a.UI, a.Scale, a.Snapshot.MorphNode)))
}

// SelectJointAt implements ui.Actions: the joint drawn within 12 pixels
// (at the HUD's scale) of (x, y) becomes the inspector's.
func (a *App) SelectJointAt(x, y float32) bool {
	j := a.View.PickJoint(x, y, 12*a.Scale)
	if j < 0 {
		return false
	}
	a.UI.Joint = j
	// The weights view shows the joint picked.
	a.View.SetWeightJoint(j)
	a.Snapshot.WeightJoint(a.Char, j)
	return true
}

// ToggleBindPose implements ui.Actions.
func (a *App) ToggleBindPose() {
	a.Char.BindPose = !a.Char.BindPose
	if a.Char.BindPose {
		a.UI.Say(bindPoseNote)
	} else if a.UI.Message == bindPoseNote {
		a.UI.Message, a.UI.MessageTTL = "", 0 // it would say what no longer holds
	}
}

// bindPoseNote is what the screen says while B shows the bind pose.
const bindPoseNote = "bind pose (B: back to the animation)"
