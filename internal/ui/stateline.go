package ui

import "encoding/json"

// StateLine is the state line of key S, one JSON object for bug reports
// and scripts: in is this frame's Info, st the key state, scale the HUD's
// pixels per window pixel (HiDPI), morphNode the morph panel's node.
func StateLine(in *Info, st *State, scale float32, morphNode string) []byte {
	type rect struct {
		X float32 `json:"x"`
		Y float32 `json:"y"`
		W float32 `json:"w"`
		H float32 `json:"h"`
	}
	// The clip list's rows: row k (from 0) is clip first+k, its weight bar
	// from weight_x, weight_w wide.
	type clipList struct {
		rect
		Row     float32 `json:"row_height"`
		First   int     `json:"first"`
		WeightX float32 `json:"weight_x"`
		WeightW float32 `json:"weight_w"`
	}
	// The morph panel's node, its targets' weights by name, the pinned.
	type morphLine struct {
		Node     string             `json:"node"`
		Selected string             `json:"selected"`
		Weights  map[string]float32 `json:"weights"`
		Pinned   []string           `json:"pinned"`
	}
	line := struct {
		Model     string             `json:"model"`
		Mode      string             `json:"mode"`
		Playing   string             `json:"playing"`
		State     string             `json:"state,omitempty"`
		Time      float32            `json:"time"`
		Frame     int                `json:"frame"`
		Frames    int                `json:"frames"`
		FPS       float32            `json:"fps"`
		Duration  float32            `json:"duration"`
		Rate      float32            `json:"rate"`
		Direction string             `json:"direction"`
		Loop      string             `json:"loop"`
		Paused    bool               `json:"paused"`
		Selected  string             `json:"selected"`
		Joint     *string            `json:"selected_joint"`
		Weights   map[string]float32 `json:"weights"`
		Params    map[string]float32 `json:"params"`
		Timeline  rect               `json:"timeline"`
		ClipList  *clipList          `json:"clip_list,omitempty"`
		LoopIn    *float32           `json:"loop_in"`
		LoopOut   *float32           `json:"loop_out"`
		BindPose  bool               `json:"bind_pose"`
		Onion     bool               `json:"onion"`
		Morph     *morphLine         `json:"morph,omitempty"`
		HUDHidden bool               `json:"hud_hidden,omitempty"`
	}{Model: in.Model, Mode: in.Mode, Playing: in.Choice, Time: in.Time, Frame: in.Frame, Frames: in.Frames,
		FPS: in.FPS, Duration: in.Duration, Rate: st.Rate(), Direction: direction(in, "forward", "backward"), Loop: in.Loop.String(), Paused: !st.Playing,
		Selected: in.Selected, Weights: map[string]float32{}, Params: map[string]float32{}, HUDHidden: !st.HUD}
	if in.Mode != "clip" {
		line.State = in.Status.State
	}
	// The blend the base layer shows: each clip's share of the pose in the
	// clip browser; under a spec, a fade's two ends, or what plays.
	if in.Clips != nil {
		for _, c := range in.Clips {
			if c.Live > 0 {
				line.Weights[c.Name] = c.Live
			}
		}
	} else if st := in.Status; st.From != "" {
		line.Weights[st.From], line.Weights[st.State] = 1-st.Weight, st.Weight
	} else if in.Choice != "" {
		line.Weights[in.Choice] = 1
	}
	for _, p := range in.Params {
		line.Params[p.Name] = p.Value
	}
	if st.LoopOut > st.LoopIn {
		line.LoopIn, line.LoopOut = &st.LoopIn, &st.LoopOut
	}
	line.BindPose, line.Onion = in.BindPose, st.Onion
	if mp := in.Morph; mp != nil && len(mp.Rows) > 0 {
		ml := &morphLine{Node: morphNode, Weights: map[string]float32{}, Pinned: []string{}}
		ml.Selected = mp.Rows[st.MorphSel%len(mp.Rows)].Name
		for _, r := range mp.Rows {
			ml.Weights[r.Name] = r.Weight
			if r.Pinned {
				ml.Pinned = append(ml.Pinned, r.Name)
			}
		}
		line.Morph = ml
	}
	if in.Joint != nil {
		line.Joint = &in.Joint.Name
	}
	// Framebuffer pixels to window pixels (HiDPI).
	r := st.Timeline
	line.Timeline = rect{r.X / scale, r.Y / scale, r.W / scale, r.H / scale}
	if c := st.Clips; c.W > 0 {
		line.ClipList = &clipList{rect: rect{c.X / scale, c.Y / scale, c.W / scale, c.H / scale},
			Row: st.RowHeight / scale, First: st.ClipFirst, WeightX: st.WeightBar.X / scale, WeightW: st.WeightBar.W / scale}
	}
	out, _ := json.Marshal(line)
	return out
}
