package ui

import (
	"fmt"
	"math"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
	"github.com/skinview/skinview/internal/debugview"
)

// Actions is what the key map drives in the viewer. The viewer implements
// it over its animation controller, camera and renderer.
type Actions interface {
	// Choices lists what [ and ] select and Enter requests: the clips in
	// the clip browser, the base layer's states under a blend tree.
	Choices() []string
	// Request cross-fades to choice i, or cuts to it when instant.
	Request(i int, instant bool) error
	// RequestIndex asks the state machine for its state i (number keys).
	RequestIndex(i int) error
	// Params lists the control parameters; SetParam changes one.
	Params() []graph.Param
	SetParam(i int, v float32)
	// Time is the timeline's time and Duration its length, in seconds, as
	// the character's clock reports them; FrameStep is one frame.
	Time() float32
	Duration() float32
	FrameStep() float32
	// Seek puts the character's clock at time t (in [0, Duration]); Step
	// does too, as a frame step, firing the event markers it passes
	// going forward or back.
	Seek(t float32)
	Step(t float32, forward bool)
	// BlendWeight is choice i's weight in the clip browser's blend, and
	// whether there is one (not under a spec); SetBlendWeight sets it
	// (0…1) and makes the blend play.
	BlendWeight(i int) (float32, bool)
	SetBlendWeight(i int, w float32) error
	// NumMorph is the number of morph targets the morph panel shows;
	// MorphWeight is target i's weight now and whether it is pinned;
	// PinMorph holds it at w; ReleaseMorph gives it back to the animation
	// (i < 0: every pinned weight); CycleMorph shows the next mesh.
	NumMorph() int
	MorphWeight(i int) (float32, bool)
	PinMorph(i int, w float32)
	ReleaseMorph(i int)
	CycleMorph()
	// SetLoopMode sets what the clips do at their ends, or says why not.
	SetLoopMode(m anim.LoopMode) error
	// Keys are the key times of the clip the timeline shows, sorted.
	Keys() []float32
	// ReportState prints the viewer's state line (key S).
	ReportState()
	// ToggleBindPose shows the bind pose instead of the animation, or
	// back.
	ToggleBindPose()
	// SelectJointAt selects for the inspector the joint drawn nearest to
	// (x, y), framebuffer pixels, and reports whether one was near enough.
	SelectJointAt(x, y float32) bool
	// Screenshot writes the current view to a file and returns its path.
	Screenshot() (string, error)
	// FrameModel fits the camera to the model; ToggleFollow makes the
	// camera follow a character root motion carries, or stop.
	FrameModel()
	ToggleFollow()
	// CycleCamera looks through the file's next camera, or after the
	// last the viewer's own.
	CycleCamera()
}

// rates are the playback speeds , and . step through.
var rates = []float32{0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4}

// State is everything the keys change. The viewer reads it every frame
// and sends it to the character's clock, which owns the time: State keeps
// none of its own.
type State struct {
	Loop     anim.LoopMode // what L selects
	Playing  bool
	Reverse  bool
	RateStep int // index into the rate ladder
	// CustomRate, when positive, is the speed instead of the ladder's
	// (-rate); , and . go back to the ladder.
	CustomRate float32
	Selected   int // choice [ and ] point at
	Param      int // parameter Tab points at
	// Joint is the skeleton joint the inspector shows (a click picks
	// it), −1 for none.
	Joint int
	// MorphShown indexes the node the morph panel shows among the nodes
	// with morph targets, −1 for none; M steps it (Actions.CycleMorph).
	MorphShown int
	Help       bool
	HUD        bool
	Skeleton   bool
	Wire       bool
	Grid       bool
	Onion      bool // ghost skeletons before and after the pose shown
	View       debugview.Mode
	Quit       bool
	// Timeline is where the HUD last drew the timeline bar, in
	// framebuffer pixels; empty while the HUD is hidden.
	Timeline Rect
	// scrubbing is set while the mouse drags the play head.
	scrubbing bool
	// Clips is where the HUD last drew the clip list's rows (empty when
	// it did not): row k shows choice ClipFirst+k, RowHeight apart, its
	// weight bar spanning WeightBar's x and width.
	Clips     Rect
	ClipFirst int
	RowHeight float32
	WeightBar Rect
	// weighing is the choice whose weight bar the mouse drags, −1 none.
	weighing int
	// Morphs, MorphFirst, MorphBar: where the HUD last drew the morph
	// panel's rows (as Clips); MorphSel is the selected target, pinning
	// the morph target whose bar the mouse drags, −1 none.
	Morphs     Rect
	MorphFirst int
	MorphBar   Rect
	MorphSel   int
	pinning    int
	// hover is the pointer's x over the timeline, −1 elsewhere.
	hover float32
	// LoopIn and LoopOut bound the loop region, seconds on the timeline;
	// LoopOut ≤ LoopIn means none.
	LoopIn, LoopOut float32
	// line is the HUD's text buffer, reused every frame; fit holds a line
	// of it cut to fit (fitText, elideMiddle), built apart from it.
	line, fit line
	// regionPlays: the last InLoop left the play head inside the loop
	// region, playing.
	regionPlays bool
	// bounce: ping-pong in the loop region plays its backward leg (the
	// other way from Reverse); the region's end or L turns it off.
	bounce bool
	// Message is shown on screen until MessageTTL seconds run out.
	Message    string
	MessageTTL float32
	// Banner stays on screen until it is set to "": a watched file that
	// no longer loads, while the last good version of it is shown, is
	// news for as long as it lasts, not for a few seconds.
	Banner string
}

// NewState starts playing at authored speed, looping, HUD on.
func NewState() State {
	return State{Loop: anim.Loop, Playing: true, RateStep: 4, HUD: true, Joint: -1, weighing: -1, hover: -1, pinning: -1}
}

// Rate is the user's signed playback rate (, . R and -rate), whichever way
// a ping-pong is going: Backward tells the way.
func (s *State) Rate() float32 {
	r := rates[s.RateStep]
	if s.CustomRate > 0 {
		r = s.CustomRate
	}
	if s.Reverse {
		return -r
	}
	return r
}

// ClockRate is the signed speed the clock runs at: Rate, turned round on
// the loop region's backward ping-pong leg.
func (s *State) ClockRate() float32 {
	if s.bounce {
		return -s.Rate()
	}
	return s.Rate()
}

// back is whether the keys make the clock run backwards (Reverse, or the
// region's backward ping-pong leg).
func (s *State) back() bool { return s.Reverse != s.bounce }

// Say shows a message on screen for a few seconds.
func (s *State) Say(format string, args ...any) {
	s.Message = fmt.Sprintf(format, args...)
	s.MessageTTL = 4
}

// Tick ages the on-screen message by dt seconds of wall time.
func (s *State) Tick(dt float32) {
	if s.MessageTTL > 0 {
		s.MessageTTL -= dt
		if s.MessageTTL <= 0 {
			s.Message = ""
		}
	}
}

// Handle applies one key event.
func (s *State) Handle(ev Event, a Actions) {
	switch ev.Key {
	case KeySpace:
		// Played once to its end (in the way it plays), the loop region,
		// or else the clip, plays again from its start, as a media
		// player's play does.
		lo, hi := float32(0), a.Duration()
		if s.LoopOut > s.LoopIn {
			lo, hi = s.LoopIn, s.LoopOut
		}
		if t := a.Time(); s.Loop == anim.Once && hi > lo && ((!s.Reverse && t >= hi) || (s.Reverse && t <= lo)) {
			if s.Reverse {
				a.Seek(hi)
			} else {
				a.Seek(lo)
			}
			s.Playing = true
			break
		}
		s.Playing = !s.Playing
	case KeyLeft, KeyRight:
		if ev.Ctrl {
			s.scrub(a, neighbourKey(a.Keys(), a.Time(), ev.Key == KeyRight))
			break
		}
		// From the frame shown to the next or previous one (Shift: a
		// second's worth of frames, at least one), on the frame grid.
		step := a.FrameStep()
		n := float32(1)
		if ev.Shift {
			n = max(float32(math.Round(float64(1/step))), 1)
		}
		if ev.Key == KeyLeft {
			n = -n
		}
		s.step(a, (FrameAt(a.Time(), step)+n)*step, n > 0)
	case KeyHome:
		s.scrub(a, 0)
	case KeyEnd:
		s.scrub(a, a.Duration())
	case KeyComma:
		s.RateStep = max(s.RateStep-1, 0)
		s.CustomRate = 0
	case KeyPeriod:
		s.RateStep = min(s.RateStep+1, len(rates)-1)
		s.CustomRate = 0
	case KeyR:
		s.Reverse = !s.Reverse
	case KeyL:
		s.bounce = false // a new mode starts forward (as R has it)
		switch s.Loop {
		case anim.Loop:
			s.Loop = anim.Once
		case anim.Once:
			s.Loop = anim.PingPong
		default:
			s.Loop = anim.Loop
		}
		if err := a.SetLoopMode(s.Loop); err != nil {
			s.Say("%v", err)
		}
	case KeyLeftBracket, KeyRightBracket:
		if n := len(a.Choices()); n > 0 {
			step := 1
			if ev.Key == KeyLeftBracket {
				step = n - 1
			}
			s.Selected = (s.Selected + step) % n
		}
	case KeyEnter:
		if n := len(a.Choices()); n > 0 {
			if err := a.Request(s.Selected%n, ev.Shift); err != nil {
				s.Say("%v", err)
			}
		}
	case KeyTab:
		if n := len(a.Params()); n > 0 {
			step := 1
			if ev.Shift {
				step = n - 1
			}
			s.Param = (s.Param + step) % n
		}
	case KeyUp, KeyDown:
		d := float32(0.05)
		if ev.Shift {
			d = 0.01
		}
		if ev.Key == KeyDown {
			d = -d
		}
		ps := a.Params()
		if len(ps) == 0 {
			// The clip browser: the selected clip's weight in the blend.
			if n := len(a.Choices()); n > 0 {
				if w, ok := a.BlendWeight(s.Selected % n); ok {
					s.setWeight(a, s.Selected%n, float32(math.Round(float64(w+d)*1000)/1000))
				}
			}
			return
		}
		i := s.Param % len(ps)
		v := float32(math.Round(float64(ps[i].Value+d)*1000) / 1000)
		a.SetParam(i, min(max(v, ps[i].Min), ps[i].Max))
	case Key0:
		if ps := a.Params(); len(ps) > 0 {
			i := s.Param % len(ps)
			a.SetParam(i, ps[i].Default)
		}
	case Key1, Key2, Key3, Key4, Key5, Key6, Key7, Key8, Key9:
		if err := a.RequestIndex(int(ev.Key - Key1)); err != nil {
			s.Say("%v", err)
		}
	case KeyH, KeyF1:
		s.Help = !s.Help
	case KeyF:
		a.FrameModel()
	case KeyC:
		if ev.Shift {
			a.CycleCamera()
		} else {
			a.ToggleFollow()
		}
	case KeyK:
		s.Skeleton = !s.Skeleton
	case KeyW:
		s.Wire = !s.Wire
	case KeyV:
		s.View = (s.View + 1) % debugview.Count
	case KeyG:
		s.Grid = !s.Grid
	case KeyP, KeyF12:
		if path, err := a.Screenshot(); err != nil {
			s.Say("screenshot failed: %v", err)
		} else {
			s.Say("screenshot: %s", path)
		}
	case KeyU:
		s.HUD = !s.HUD
		s.hover = -1
	case KeyS:
		a.ReportState()
	case KeyB:
		a.ToggleBindPose()
	case KeyI:
		if ev.Alt {
			s.LoopIn, s.LoopOut = 0, 0
			break
		}
		s.LoopIn = a.Time()
		if s.LoopOut <= s.LoopIn {
			s.LoopOut = a.Duration()
		}
	case KeyA:
		if n := len(a.Choices()); n > 0 {
			if w, ok := a.BlendWeight(s.Selected % n); !ok {
				s.Say("clip weights are the spec's under a blend tree")
			} else if w > 0 {
				s.setWeight(a, s.Selected%n, 0)
			} else {
				s.setWeight(a, s.Selected%n, 1)
			}
		}
	case KeyM:
		a.CycleMorph()
		s.MorphSel = 0
	case KeyN:
		if n := a.NumMorph(); n > 0 {
			step := 1
			if ev.Shift {
				step = n - 1
			}
			s.MorphSel = (s.MorphSel + step) % n
		}
	case KeyEqual, KeyMinus:
		if n := a.NumMorph(); n > 0 {
			i := s.MorphSel % n
			w, _ := a.MorphWeight(i)
			d := float32(0.05)
			if ev.Key == KeyMinus {
				d = -d
			}
			a.PinMorph(i, float32(math.Round(float64(w+d)*1000)/1000))
		}
	case KeyBackspace:
		a.ReleaseMorph(-1)
	case KeyO:
		if ev.Shift {
			s.Onion = !s.Onion
			break
		}
		s.LoopOut = a.Time()
		if s.LoopOut <= s.LoopIn {
			s.LoopIn = 0
		}
	case KeyEscape:
		s.Quit = true
	}
}

// scrub moves the play head by hand, pausing as animation tools do. In a
// loop, a time past either end wraps; the end itself stays the end (the
// last frame), which in a looping clip is the first frame's pose again.
func (s *State) scrub(a Actions, t float32) {
	a.Seek(s.clampScrub(a, t))
}

// step is scrub as a frame step: the markers it passes fire.
func (s *State) step(a Actions, t float32, forward bool) {
	if d, from := a.Duration(), a.Time(); d > 0 && s.Loop == anim.Loop {
		// A step of a cycle or more (Shift: a second) passes every marker
		// on its way: it goes in parts shorter than the clip, whose wraps
		// the markers' crossing sees.
		for forward && t-from >= d/2 {
			from += d / 2
			a.Step(s.clampScrub(a, from), true)
		}
		for !forward && from-t >= d/2 {
			from -= d / 2
			a.Step(s.clampScrub(a, from), false)
		}
	}
	a.Step(s.clampScrub(a, t), forward)
}

// clampScrub pauses and wraps or clamps a time the keys ask for.
func (s *State) clampScrub(a Actions, t float32) float32 {
	s.Playing = false
	d := a.Duration()
	if d > 0 {
		if s.Loop == anim.Loop && (t < 0 || t > d) {
			t = float32(math.Mod(float64(t), float64(d)))
			if t < 0 {
				t += d
			}
		} else {
			t = min(max(t, 0), d)
		}
	}
	return t
}

// InLoop keeps the play head inside the loop region, if there is one,
// in the loop mode L sets: playing forwards past its out point (or
// backwards past its in point) it goes on from the other end (loop), turns
// round (ping-pong) or stops there (once), carrying the time it went past
// so that the cycle keeps the region's length. The viewer calls it after
// each update.
func (s *State) InLoop(a Actions) {
	in, out := s.LoopIn, s.LoopOut
	if out <= in {
		s.regionPlays, s.bounce = false, false
		return
	}
	if !s.Playing {
		s.regionPlays = false
		return
	}
	back := s.back()
	t := a.Time()
	if d := a.Duration(); s.Loop == anim.Loop && d > 0 && s.regionPlays {
		// Played on from inside the region, the clip's own loop may have
		// wrapped the time past a region that ends at (or near) the
		// clip's end: take it as past the out point (or, backwards, the
		// in point).
		if !back && t < in && t+d >= out {
			t += d
		} else if back && t > out && t-d <= in {
			t -= d
		}
	}
	s.regionPlays = true
	if t < in-(out-in) || t > out+(out-in) {
		// Far outside (a seek, a clip switch): start at the region's end
		// it plays from.
		if back {
			a.Seek(out)
		} else {
			a.Seek(in)
		}
		return
	}
	over := float32(0) // how far past the end it plays towards
	switch {
	case !back && t >= out:
		over = t - out
	case back && t <= in:
		over = in - t
	case !back && t < in:
		a.Seek(in)
		return
	case back && t > out:
		a.Seek(out)
		return
	default:
		return
	}
	over = min(over, out-in)
	switch s.Loop {
	case anim.PingPong:
		s.bounce = !s.bounce
		if !back { // turned round: now backwards
			a.Seek(out - over)
		} else {
			a.Seek(in + over)
		}
	case anim.Once:
		if back {
			a.Seek(in)
		} else {
			a.Seek(out)
		}
		s.Playing = false
	default:
		if back {
			a.Seek(out - over)
		} else {
			a.Seek(in + over)
		}
	}
}

// neighbourKey is the first key time after t (next) or before t, by more
// than 1e-5 s (a float's rounding); t itself when there is none.
func neighbourKey(keys []float32, t float32, next bool) float32 {
	const eps = 1e-5
	if next {
		for _, k := range keys {
			if k > t+eps {
				return k
			}
		}
		return t
	}
	for i := len(keys) - 1; i >= 0; i-- {
		if keys[i] < t-eps {
			return keys[i]
		}
	}
	return t
}

// Rect is a rectangle in pixels, origin top-left.
type Rect struct{ X, Y, W, H float32 }

// Contains reports whether (x, y) lies in r, widened by slack on every
// side.
func (r Rect) Contains(x, y, slack float32) bool {
	return r.W > 0 && x >= r.X-slack && x <= r.X+r.W+slack && y >= r.Y-slack && y <= r.Y+r.H+slack
}

// setWeight sets choice i's blend weight, saying why when it cannot.
func (s *State) setWeight(a Actions, i int, w float32) {
	if err := a.SetBlendWeight(i, w); err != nil {
		s.Say("%v", err)
	}
}

// clipAt is the clip list's row under (x, y): its choice, and whether the
// point is on the row's weight bar.
func (s *State) clipAt(x, y float32) (i int, onBar, ok bool) {
	if !s.HUD || !s.Clips.Contains(x, y, 0) || s.RowHeight <= 0 {
		return 0, false, false
	}
	i = s.ClipFirst + int((y-s.Clips.Y)/s.RowHeight)
	onBar = x >= s.WeightBar.X-4 && x <= s.WeightBar.X+s.WeightBar.W+4
	return i, onBar, true
}

// Press handles the left mouse button going down at (x, y), framebuffer
// pixels, with Shift held or not: with the skeleton overlay on, a press on
// a joint selects it for the inspector; on the timeline it scrubs there
// and keeps scrubbing while the button is held (Drag); on a row of the
// clip list it plays that clip (Shift: adds it to the blend or takes it
// out), and on the row's weight bar it sets the weight and keeps setting
// it while dragged. Each reports true. Elsewhere it reports false and the
// press is the camera's; a list whose rows have no height has no rows.
func (s *State) Press(x, y float32, shift bool, a Actions) bool {
	if s.HUD && s.Morphs.Contains(x, y, 0) && s.RowHeight > 0 {
		i := s.MorphFirst + int((y-s.Morphs.Y)/s.RowHeight)
		if i < a.NumMorph() {
			s.MorphSel = i
			if x >= s.MorphBar.X-4 && x <= s.MorphBar.X+s.MorphBar.W+4 {
				s.pinning = i
				s.Drag(x, a)
			} else {
				a.ReleaseMorph(i)
			}
		}
		return true
	}
	if i, onBar, ok := s.clipAt(x, y); ok {
		if n := len(a.Choices()); i < n {
			s.Selected = i
			w, _ := a.BlendWeight(i)
			switch {
			case onBar:
				s.weighing = i
				s.Drag(x, a)
			case shift && w > 0:
				s.setWeight(a, i, 0)
			case shift:
				s.setWeight(a, i, 1)
			default:
				if err := a.Request(i, false); err != nil {
					s.Say("%v", err)
				}
			}
		}
		return true
	}
	if s.Skeleton && !s.Timeline.Contains(x, y, 4) && a.SelectJointAt(x, y) {
		return true // the joint inspector takes a press on a joint
	}
	if !s.HUD || !s.Timeline.Contains(x, y, 4) {
		return false
	}
	s.scrubbing = true
	s.Drag(x, a)
	return true
}

// Drag follows the pointer at x while the button is held: scrubbing, a
// click at a fraction f of the timeline's width seeks to f × duration;
// on a weight bar, f of its width is weight f (to a hundredth). A bar of
// no width, or no timeline (the HUD hidden), sets nothing.
func (s *State) Drag(x float32, a Actions) {
	if s.pinning >= 0 && s.MorphBar.W > 0 {
		f := min(max((x-s.MorphBar.X)/s.MorphBar.W, 0), 1)
		a.PinMorph(s.pinning, float32(math.Round(float64(f)*100)/100))
		return
	}
	if s.weighing >= 0 && s.WeightBar.W > 0 {
		f := min(max((x-s.WeightBar.X)/s.WeightBar.W, 0), 1)
		s.setWeight(a, s.weighing, float32(math.Round(float64(f)*100)/100))
		return
	}
	if !s.scrubbing || s.Timeline.W <= 0 {
		return
	}
	f := min(max((x-s.Timeline.X)/s.Timeline.W, 0), 1)
	s.Playing = false
	a.Seek(f * a.Duration())
}

// Release ends a scrub or a weight drag; it reports whether one was under
// way.
func (s *State) Release() bool {
	was := s.scrubbing || s.weighing >= 0 || s.pinning >= 0
	s.scrubbing, s.weighing, s.pinning = false, -1, -1
	return was
}

// Hover follows the pointer at (x, y): over the timeline, the HUD shows
// the time and frame under it.
func (s *State) Hover(x, y float32) {
	s.hover = -1
	if s.HUD && s.Timeline.Contains(x, y, 4) {
		s.hover = x
	}
}

// FrameAt is the frame shown at time t for frames step seconds apart: t /
// step rounded down, with a tolerance for times that float arithmetic put
// a hair before their frame.
func FrameAt(t, step float32) float32 {
	return float32(math.Floor(float64(t/step) + 1e-3))
}
