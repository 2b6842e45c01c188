package ui

import (
	"fmt"
	"strconv"
	"strings"
)

// Key is a key the viewer reacts to, independent of the window library.
type Key int

// The keys of the viewer's map (see KeyMap).
const (
	KeyNone Key = iota
	KeySpace
	KeyLeft
	KeyRight
	KeyUp
	KeyDown
	KeyHome
	KeyEnd
	KeyComma
	KeyPeriod
	KeyR
	KeyL
	KeyLeftBracket
	KeyRightBracket
	KeyEnter
	KeyTab
	Key0
	Key1
	Key2
	Key3
	Key4
	Key5
	Key6
	Key7
	Key8
	Key9
	KeyH
	KeyF1
	KeyF
	KeyK
	KeyW
	KeyV
	KeyG
	KeyP
	KeyF12
	KeyU
	KeyEscape
	KeyS
	KeyB
	KeyI
	KeyO
	KeyA
	KeyM
	KeyN
	KeyEqual
	KeyMinus
	KeyBackspace
	KeyC
	// NumKeys counts the keys above, KeyNone included.
	NumKeys
)

// Event is one key press (or auto-repeat).
type Event struct {
	Key   Key
	Shift bool
	Ctrl  bool
	Alt   bool
}

// keyNames are the names -keys scripts use.
var keyNames = map[string]Key{
	"space": KeySpace, "left": KeyLeft, "right": KeyRight, "up": KeyUp, "down": KeyDown,
	"home": KeyHome, "end": KeyEnd, "comma": KeyComma, ",": KeyComma, "period": KeyPeriod, ".": KeyPeriod,
	"r": KeyR, "l": KeyL, "[": KeyLeftBracket, "lbracket": KeyLeftBracket, "]": KeyRightBracket, "rbracket": KeyRightBracket,
	"enter": KeyEnter, "return": KeyEnter, "tab": KeyTab,
	"0": Key0, "1": Key1, "2": Key2, "3": Key3, "4": Key4, "5": Key5, "6": Key6, "7": Key7, "8": Key8, "9": Key9,
	"h": KeyH, "f1": KeyF1, "f": KeyF, "k": KeyK, "w": KeyW, "v": KeyV, "g": KeyG, "p": KeyP, "f12": KeyF12,
	"u": KeyU, "esc": KeyEscape, "escape": KeyEscape, "s": KeyS, "b": KeyB, "i": KeyI, "o": KeyO, "a": KeyA,
	"m": KeyM, "n": KeyN, "=": KeyEqual, "equal": KeyEqual, "-": KeyMinus, "minus": KeyMinus, "backspace": KeyBackspace, "c": KeyC,
	"wait": KeyNone,
}

// ParseKeys reads a key script: comma-separated key names, each optionally
// prefixed "shift+" and suffixed "*N" to repeat it N times, e.g.
// "space,right*10,tab,shift+up*4,p". A literal comma key is "comma";
// "wait" presses nothing, so "wait*30" lets a second pass.
func ParseKeys(script string) ([]Event, error) {
	var out []Event
	if strings.TrimSpace(script) == "" {
		return nil, nil
	}
	for i, item := range strings.Split(script, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		n := 1
		if name, rep, ok := strings.Cut(item, "*"); ok && name != "" {
			r, err := strconv.Atoi(rep)
			if err != nil || r < 1 || r > 10000 {
				return nil, fmt.Errorf("ui: key %d %q: repeat count must be 1 to 10000", i+1, item)
			}
			item, n = name, r
		}
		shift, ctrl, alt := false, false, false
		for {
			if rest, ok := strings.CutPrefix(item, "shift+"); ok {
				shift, item = true, rest
			} else if rest, ok := strings.CutPrefix(item, "ctrl+"); ok {
				ctrl, item = true, rest
			} else if rest, ok := strings.CutPrefix(item, "alt+"); ok {
				alt, item = true, rest
			} else {
				break
			}
		}
		k, ok := keyNames[item]
		if !ok {
			return nil, fmt.Errorf("ui: key %d %q is not a key name (names: space left right up down home end comma period r l [ ] enter tab 0-9 h f1 f k w v g p f12 u s b i o a m n = - backspace c esc wait; prefixes shift+ ctrl+ alt+)", i+1, item)
		}
		for ; n > 0; n-- {
			out = append(out, Event{Key: k, Shift: shift, Ctrl: ctrl, Alt: alt})
		}
	}
	return out, nil
}

// KeyMap is the help overlay's list of keys; docs/usage.md lists every
// entry word for word, and the README those it shows.
var KeyMap = [][2]string{
	{"Space", "play / pause"},
	{"Left / Right", "step one frame (Shift: 1 s; Ctrl: to the next key)"},
	{"Home / End", "first / last frame"},
	{"I / O", "loop region in / out at the play head (Alt+I: clear)"},
	{", / .", "slower / faster (0.1x to 4x)"},
	{"R", "reverse playback"},
	{"L", "cycle loop mode (loop, once, ping-pong)"},
	{"[ / ]", "select previous / next clip or state"},
	{"Enter", "cross-fade to the selected (Shift: cut)"},
	{"Tab / Shift+Tab", "select next / previous parameter (0: reset it)"},
	{"Up / Down", "change it by 0.05 (Shift: 0.01); clip browser: the selected clip's weight"},
	{"A", "add the selected clip to the blend, or take it out (clip browser)"},
	{"1 - 9", "request state-machine state by number"},
	{"mouse drag", "orbit; right drag: pan; wheel: zoom"},
	{"timeline click / drag", "scrub to that time (pauses); hovering shows the time and frame"},
	{"clip list click / drag", "play; Shift+click: add to or take out of the blend; a bar: its weight"},
	{"click a joint (with K)", "inspect it: parent, local and world T R S, axes, motion trail"},
	{"F / C / Shift+C", "frame the model / follow root motion (on, off) / next file camera"},
	{"K", "skeleton overlay"},
	{"B", "bind pose (the clock goes on)"},
	{"M / N", "morph panel: next mesh (or none) / next target (Shift+N: previous)"},
	{"= / - / Backspace", "pin the target's weight 0.05 higher / lower / release every pin"},
	{"morph bar click / drag", "pin that target's weight; click its name: release it"},
	{"Shift+O", "onion skin: ghost skeletons 2 and 4 frames before (blue) and after (green)"},
	{"W / G", "wireframe / ground grid"},
	{"V", "cycle the debug views of -view (K: skeleton)"},
	{"P / F12", "screenshot into ./screenshots/"},
	{"U", "show / hide the HUD"},
	{"S", "print the viewer's state as JSON on stdout"},
	{"H / F1", "this help"},
	{"Esc", "quit"},
}
