package ui

import (
	"fmt"
	"math"

	"github.com/skinview/skinview/internal/anim"
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
	Params() []anim.Param
	SetParam(i int, v float32)
	// Duration is the timeline's length in seconds; FrameStep one frame.
	Duration() float32
	FrameStep() float32
	// Screenshot writes the current view to a file and returns its path.
	Screenshot() (string, error)
	// FrameModel fits the camera to the model.
	FrameModel()
}

// Views cycled by V.
const (
	ViewShaded = iota
	ViewPartitions
	ViewWeights
	numViews
)

// rates are the playback speeds , and . step through.
var rates = []float32{0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4}

// State is everything the keys change. The viewer reads it every frame.
type State struct {
	Clock    anim.ClipClock // the timeline: rate, loop mode, time
	Playing  bool
	Reverse  bool
	RateStep int // index into the rate ladder
	Selected int // choice [ and ] point at
	Param    int // parameter Tab points at
	Help     bool
	HUD      bool
	Skeleton bool
	Wire     bool
	Grid     bool
	View     int
	Quit     bool
	// Scrubbed is set when the time was moved by hand this frame; the
	// viewer then poses every clip at Clock.Local().
	Scrubbed bool
	// Message is shown on screen until MessageTTL seconds run out.
	Message    string
	MessageTTL float32
}

// NewState starts playing at authored speed, looping, HUD on.
func NewState(duration float32) State {
	return State{Clock: anim.NewClipClock(duration, anim.Loop), Playing: true, RateStep: 4, HUD: true}
}

// Rate is the signed playback rate.
func (s *State) Rate() float32 {
	r := rates[s.RateStep]
	if s.Reverse {
		return -r
	}
	return r
}

// Say shows a message on screen for a few seconds.
func (s *State) Say(format string, args ...any) {
	s.Message = fmt.Sprintf(format, args...)
	s.MessageTTL = 4
}

// Tick advances the clock by dt seconds of wall time while playing and
// ages the on-screen message.
func (s *State) Tick(dt float32) {
	s.Clock.Rate = s.Rate()
	if s.Playing {
		s.Clock.Advance(dt)
	}
	if s.MessageTTL > 0 {
		s.MessageTTL -= dt
		if s.MessageTTL <= 0 {
			s.Message = ""
		}
	}
}

// Handle applies one key event.
func (s *State) Handle(ev Event, a Actions) {
	s.Clock.Duration = a.Duration()
	switch ev.Key {
	case KeySpace:
		s.Playing = !s.Playing
	case KeyLeft, KeyRight:
		d := a.FrameStep()
		if ev.Shift {
			d = 1
		}
		if ev.Key == KeyLeft {
			d = -d
		}
		s.scrub(s.Clock.Local() + d)
	case KeyHome:
		s.scrub(0)
	case KeyEnd:
		s.scrub(s.Clock.Duration)
	case KeyComma:
		s.RateStep = max(s.RateStep-1, 0)
	case KeyPeriod:
		s.RateStep = min(s.RateStep+1, len(rates)-1)
	case KeyR:
		s.Reverse = !s.Reverse
	case KeyL:
		switch s.Clock.Mode {
		case anim.Loop:
			s.Clock.Mode = anim.Once
		case anim.Once:
			s.Clock.Mode = anim.PingPong
		default:
			s.Clock.Mode = anim.Loop
		}
		// Keep the picture where it is: only what happens at the ends changes.
		s.Clock.Elapsed = s.Clock.Local()
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
		ps := a.Params()
		if len(ps) == 0 {
			return
		}
		i := s.Param % len(ps)
		d := float32(0.05)
		if ev.Shift {
			d = 0.01
		}
		if ev.Key == KeyDown {
			d = -d
		}
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
	case KeyK:
		s.Skeleton = !s.Skeleton
	case KeyW:
		s.Wire = !s.Wire
	case KeyV:
		s.View = (s.View + 1) % numViews
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
	case KeyEscape:
		s.Quit = true
	}
}

// scrub moves the play head by hand, pausing as animation tools do.
func (s *State) scrub(t float32) {
	s.Playing = false
	d := s.Clock.Duration
	if d > 0 {
		if s.Clock.Mode == anim.Loop {
			t = float32(math.Mod(float64(t), float64(d)))
			if t < 0 {
				t += d
			}
		} else {
			t = min(max(t, 0), d)
		}
	}
	s.Clock.Elapsed = t
	s.Scrubbed = true
}
