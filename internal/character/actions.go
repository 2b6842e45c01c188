package character

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/graph"
)

// What a user asks of a character from the keys and mouse (the methods of
// ui.Actions that concern the animation): choices to request, parameters,
// and the transport of its one clock.

// Choices are what [ ] select and Enter requests: the clips in the clip
// browser, the base layer's states under a spec. The slice is the
// character's.
func (c *Character) Choices() []string { return c.choices }

// Request cross-fades to choice i, or cuts to it when instant.
func (c *Character) Request(i int, instant bool) error {
	name := c.choices[i]
	switch {
	case c.ClipMode && instant:
		name = "cut:" + name
	case instant:
		return c.Ctl.Cut(name)
	}
	if err := c.Ctl.Request(name); err != nil {
		return err
	}
	if c.ClipMode {
		c.Clip = i
	}
	return nil
}

// RequestIndex asks the state machine for its state i.
func (c *Character) RequestIndex(i int) error {
	if c.ClipMode && i >= len(c.choices) {
		return fmt.Errorf("no clip %d: the model has %d", i+1, len(c.choices))
	}
	if err := c.Ctl.RequestIndex(i); err != nil {
		return err
	}
	if c.ClipMode {
		c.Clip = i
	}
	return nil
}

// Params are the control parameters of a spec; SetParam changes parameter
// i. The clip browser has none: its blend weights are the clip panel's
// (BlendWeight).
func (c *Character) Params() []graph.Param {
	if c.ClipMode {
		return nil
	}
	return c.Ctl.Params()
}
func (c *Character) SetParam(i int, v float32) { c.Ctl.SetParamIndex(i, v) }

// InBlend reports whether the clip browser plays its blend of clips (or
// fades to it).
func (c *Character) InBlend() bool {
	return c.blendState != "" && c.Ctl.Status().State == c.blendState
}

// BlendWeight is clip i's weight in the clip browser's blend, and whether
// there is such a blend (not under a spec).
func (c *Character) BlendWeight(i int) (float32, bool) {
	if c.blendState == "" || i < 0 || i >= len(c.blendParams) {
		return 0, false
	}
	return c.Ctl.Params()[c.blendParams[i]].Value, true
}

// CutToBlend plays the clip browser's blend at once, with the weights its
// parameters hold (-param weight:NAME=W at start-up).
func (c *Character) CutToBlend() error {
	if c.blendState == "" {
		return errors.New("no blend of clips: the model has no clips, or a spec animates it")
	}
	return c.Ctl.Cut(c.blendState)
}

// SetBlendWeight sets clip i's weight in the clip browser's blend
// (clamped to 0…1) and makes the blend play: entered from a clip, the
// blend starts as that clip at weight 1 beside clip i at w, cross-fading
// at the clip's phase. The weights are normalized when blended; all zero
// is the rest pose.
func (c *Character) SetBlendWeight(i int, w float32) error {
	if _, ok := c.BlendWeight(i); !ok {
		return errors.New("clip weights are the spec's under a blend tree")
	}
	w = min(max(w, 0), 1)
	if !c.InBlend() {
		for _, p := range c.blendParams {
			c.Ctl.SetParamIndex(p, 0)
		}
		if c.Clip >= 0 && c.Clip != i {
			c.Ctl.SetParamIndex(c.blendParams[c.Clip], 1)
		}
		c.Ctl.SetParamIndex(c.blendParams[i], w)
		return c.Ctl.Request(c.blendState)
	}
	c.Ctl.SetParamIndex(c.blendParams[i], w)
	var sum float32
	for _, p := range c.blendParams {
		sum += c.Ctl.Params()[p].Value
	}
	if sum == 0 {
		// The last clip left the blend: it plays on alone rather than
		// leaving the rest pose.
		return c.Request(i, false)
	}
	return nil
}

// ClipWeights is how much each clip weighs in the clip browser's pose now
// (the cross-fade's two ends, the blend's normalized weights), summing to
// 1 or, with nothing playing, 0. Nil under a spec; the slice is the
// character's.
func (c *Character) ClipWeights() []float32 {
	if !c.ClipMode {
		return nil
	}
	clear(c.live)
	st := c.Ctl.Status()
	c.addWeight(st.State, st.Weight)
	if st.From != "" {
		c.addWeight(st.From, 1-st.Weight)
	}
	return c.live
}

// addWeight adds w of state to the live weights.
func (c *Character) addWeight(state string, w float32) {
	if state == c.blendState {
		var sum float32
		for _, p := range c.blendParams {
			sum += c.Ctl.Params()[p].Value
		}
		if sum > 0 {
			for i, p := range c.blendParams {
				c.live[i] += w * c.Ctl.Params()[p].Value / sum
			}
		}
		return
	}
	for i, name := range c.choices {
		if name == state {
			c.live[i] += w
			return
		}
	}
}

// Time and Duration are the timeline's: the clip that plays, as the
// controller, which owns the clock, reports it.
func (c *Character) Time() float32     { return c.Ctl.Timeline().Time }
func (c *Character) Duration() float32 { return c.Ctl.Timeline().Duration }

// Seek puts every clip at local time t; with root motion on, the
// character is put where the clip stands then.
func (c *Character) Seek(t float32) {
	c.Ctl.SetTime(t)
	c.root.reanchor = c.root.on
}

// SetLoopMode sets what the clip browser's clips, or a quick blend's, do
// at their ends; under a spec its own loop modes hold.
func (c *Character) SetLoopMode(m anim.LoopMode) error {
	if !c.ClipMode && !c.OneClock {
		return errors.New("loop modes come from the spec under a blend tree")
	}
	c.Ctl.SetLoopMode(m)
	return nil
}

// FrameStep is one frame of the clip the timeline shows.
func (c *Character) FrameStep() float32 { return 1 / c.FPS() }

// FPS is the frame rate of the clip the timeline shows (ClipFrameRate).
func (c *Character) FPS() float32 {
	if i := c.Ctl.Timeline().Clip; i >= 0 && i < len(c.rates) {
		return c.rates[i]
	}
	return DefaultFPS
}

// KeyTimes are clip i's distinct key times, sorted. The slice is the
// character's.
func (c *Character) KeyTimes(i int) []float32 { return c.keys[i] }

// Keys are the key times of the clip the timeline shows.
func (c *Character) Keys() []float32 {
	if i := c.Ctl.Timeline().Clip; i >= 0 && i < len(c.keys) {
		return c.keys[i]
	}
	return nil
}

// ChoiceName is what plays: the clip in the clip browser, the base
// layer's state under a spec.
func (c *Character) ChoiceName() string {
	if c.ClipMode {
		return c.ClipName()
	}
	return c.Ctl.Status().State
}

// DefaultFPS is the frame rate of a clip whose keys have no common
// spacing.
const DefaultFPS = 30

// ClipFrameRate is a clip's frame rate from its channels' key times (each
// sorted): the key rate of the most common spacing between distinct
// consecutive keys over all channels, so that holds (one long gap) do not
// count, when that spacing occurs at least twice; otherwise DefaultFPS.
// A channel of two keys has no spacing: its keys are the ends of one
// interpolation, not frames. Spacings within 0.1 % count as one (float32
// key times).
func ClipFrameRate(tracks [][]float32) float32 {
	var gaps []float64
	for _, times := range tracks {
		for k := 1; k < len(times) && len(times) > 2; k++ {
			if d := float64(times[k]) - float64(times[k-1]); d > 1e-6 {
				gaps = append(gaps, d)
			}
		}
	}
	sort.Float64s(gaps)
	best, bestSum := 0, 0.0
	for i := 0; i < len(gaps); {
		j, sum := i, 0.0
		for j < len(gaps) && gaps[j]-gaps[i] <= 1e-3*gaps[i] {
			sum += gaps[j]
			j++
		}
		if j-i > best {
			best, bestSum = j-i, sum
		}
		i = j
	}
	if best < 2 {
		return DefaultFPS
	}
	rate := float64(best) / bestSum // 1 / the mean spacing
	if rate > 1000 {
		return DefaultFPS
	}
	if r := math.Round(rate*2) / 2; math.Abs(rate-r) < 1e-3*rate {
		rate = r // 30 and 37.5, not 29.999998 and 37.50004
	}
	return float32(rate)
}

// timeline lays out what Choices, KeyTimes and FPS read: the choices, and
// each clip's distinct key times and frame rate.
func (c *Character) timeline() {
	c.choices = nil
	for _, s := range c.Ctl.States() {
		if c.ClipMode && len(c.Model.Clips) == 0 {
			break // the rest state of a model without clips is no choice
		}
		if s != c.blendState && (c.ClipMode || !strings.Contains(s, "/")) {
			c.choices = append(c.choices, s)
		}
	}
	c.keys = make([][]float32, len(c.Model.Clips))
	c.rates = make([]float32, len(c.Model.Clips))
	for i := range c.Model.Clips {
		seen := map[float32]bool{}
		var tracks [][]float32
		for _, tr := range c.Model.Clips[i].Tracks {
			for _, t := range tr.Times {
				seen[t] = true
			}
			tracks = append(tracks, tr.Times)
		}
		for t := range seen {
			c.keys[i] = append(c.keys[i], t)
		}
		sort.Slice(c.keys[i], func(x, y int) bool { return c.keys[i][x] < c.keys[i][y] })
		c.rates[i] = ClipFrameRate(tracks)
	}
}

// The morph panel's operations: the morph targets of one node's mesh at a
// time (the panel's choice of node is the UI's), their live weights, and
// weights pinned by hand (Character.MorphOverride).

// MorphNodes are the glTF nodes whose meshes have morph targets, in node
// order. The slice is the character's.
func (c *Character) MorphNodes() []int {
	if c.morphList == nil {
		c.morphList = []int{}
		for n, k := range c.Model.NodeMorph {
			if k >= 0 {
				c.morphList = append(c.morphList, n)
			}
		}
	}
	return c.morphList
}

// MorphNode is MorphNodes()[k], −1 when k is out of range (none shown).
func (c *Character) MorphNode(k int) int {
	ns := c.MorphNodes()
	if k < 0 || k >= len(ns) {
		return -1
	}
	return ns[k]
}

// NumMorph is the number of morph targets of glTF node n's mesh, 0 for
// none (n < 0 included).
func (c *Character) NumMorph(n int) int {
	if n < 0 || c.Model.NodeMorph[n] < 0 {
		return 0
	}
	return c.Model.Meshes[c.Model.NodeMesh[n]].Targets
}

// MorphWeight is target i of node n's weight in the pose shown, and
// whether it is pinned.
func (c *Character) MorphWeight(n, i int) (w float32, pinned bool) {
	if i < 0 || i >= c.NumMorph(n) {
		return 0, false
	}
	k := c.Model.NodeMorph[n] + i
	return c.pose.W[k], c.MorphOverride[k] == c.MorphOverride[k]
}

// PinMorph holds target i of node n at weight w, whatever the animation
// says, until ReleaseMorph.
func (c *Character) PinMorph(n, i int, w float32) {
	if i >= 0 && i < c.NumMorph(n) && w == w {
		c.MorphOverride[c.Model.NodeMorph[n]+i] = w
		c.pose.W[c.Model.NodeMorph[n]+i] = w
	}
}

// ReleaseMorph gives target i of node n back to the animation; i < 0
// releases every pinned weight of every node.
func (c *Character) ReleaseMorph(n, i int) {
	if i < 0 {
		for k := range c.MorphOverride {
			c.MorphOverride[k] = float32(math.NaN())
		}
		return
	}
	if i < c.NumMorph(n) {
		c.MorphOverride[c.Model.NodeMorph[n]+i] = float32(math.NaN())
	}
}
