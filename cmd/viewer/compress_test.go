package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/skinview/skinview/internal/app"
	"github.com/skinview/skinview/internal/asset"
	"github.com/skinview/skinview/internal/report"
)

func TestCompressFlags(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"-compress -1 a.glb", "-compress -1"},
		{"-compress NaN a.glb", "-compress NaN"},
		{"-json -info a.glb", "-json"},
		{"-json -compress 0.01 a.glb", "-json"},
	} {
		if _, err := parseFlags(strings.Fields(tc.args), io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want one naming %s", tc.args, err, tc.want)
		}
	}
	opt, err := parseFlags(strings.Fields("-info -compress 0.01 -json a.glb"), io.Discard)
	if err != nil || opt.compress != 0.01 || !opt.json {
		t.Errorf("-info -compress 0.01 -json: %+v, %v", opt, err)
	}
}

// dumper poses clip of the built-in character, compressed at cm (0: not).
func dumper(t *testing.T, clip int, cm float64) func(tm float64) [][16]float64 {
	t.Helper()
	m, err := asset.Load("@character")
	if err != nil {
		t.Fatal(err)
	}
	c, err := app.NewCharacter(m, &app.LoadOptions{Clip: fmt.Sprint(clip), Compress: cm, Fade: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	// Every joint's world matrix from -dump-pose's JSON at time tm.
	return func(tm float64) [][16]float64 {
		var out bytes.Buffer
		if err := c.DumpPose(&out, app.ClampTime(float32(tm), c.Span()), false); err != nil {
			t.Fatal(err)
		}
		var dump struct {
			Nodes []struct {
				World [16]float64 `json:"world"`
			} `json:"nodes"`
		}
		if err := json.Unmarshal(out.Bytes(), &dump); err != nil {
			t.Fatal(err)
		}
		var ws [][16]float64
		for _, n := range dump.Nodes {
			ws = append(ws, n.World)
		}
		return ws
	}
}

// The poses -compress 0.01 gives stay within 0.01 cm of the uncompressed
// ones, judged from the dumped world matrices: the joint origins and the
// points 3 cm along each axis (scaled by the matrix, and at 3 cm whatever
// the scale), glTF units being metres.
func TestCompressedDumpPoseWithinTolerance(t *testing.T) {
	const cm = 0.01
	vertices := func(w [16]float64) [][3]float64 {
		o := [3]float64{w[12], w[13], w[14]}
		pts := [][3]float64{o}
		for a := range 3 {
			v := [3]float64{w[4*a], w[4*a+1], w[4*a+2]}
			l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
			pts = append(pts, [3]float64{o[0] + 0.03*v[0], o[1] + 0.03*v[1], o[2] + 0.03*v[2]},
				[3]float64{o[0] + 0.03*v[0]/l, o[1] + 0.03*v[1]/l, o[2] + 0.03*v[2]/l})
		}
		return pts
	}
	for _, clip := range []int{0, 2, 6} { // Walk, Idle, Jump
		worst := 0.0
		raw, packed := dumper(t, clip, 0), dumper(t, clip, cm)
		for k := range 60 {
			tm := 0.037 + float64(k)*0.0731
			a, b := raw(tm), packed(tm)
			if len(a) != len(b) || len(a) == 0 {
				t.Fatalf("clip %d: %d and %d joints", clip, len(a), len(b))
			}
			for j := range a {
				pa, pb := vertices(a[j]), vertices(b[j])
				for i := range pa {
					d := math.Sqrt((pa[i][0]-pb[i][0])*(pa[i][0]-pb[i][0]) + (pa[i][1]-pb[i][1])*(pa[i][1]-pb[i][1]) + (pa[i][2]-pb[i][2])*(pa[i][2]-pb[i][2]))
					worst = max(worst, 100*d)
				}
			}
		}
		if worst > cm {
			t.Errorf("clip %d: worst error %.5f cm; want ≤ %g", clip, worst, cm)
		}
		if worst == 0 {
			t.Errorf("clip %d: no error at all; is -compress applied?", clip)
		}
	}
}

// -info -compress -json prints one line per clip with the report's fields.
func TestCompressInfoJSON(t *testing.T) {
	m, err := asset.Load("@character")
	if err != nil {
		t.Fatal(err)
	}
	_, reports, err := app.CompressModel(m, &app.LoadOptions{Compress: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := report.WriteCompressionJSON(&out, reports); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(m.Clips) {
		t.Fatalf("%d lines for %d clips", len(lines), len(m.Clips))
	}
	for i, l := range lines {
		var r struct {
			Clip       string   `json:"clip"`
			RawBytes   *int     `json:"raw_bytes"`
			Bytes      *int     `json:"bytes"`
			Ratio      *float64 `json:"ratio"`
			MaxErrorCM *float64 `json:"max_error_cm"`
			P99ErrorCM *float64 `json:"p99_error_cm"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.RawBytes == nil || r.Bytes == nil || r.Ratio == nil || r.MaxErrorCM == nil || r.P99ErrorCM == nil {
			t.Fatalf("line %d %s: %v", i, l, err)
		}
		if r.Clip != m.Clips[i].Name || *r.MaxErrorCM > 0.01 || *r.P99ErrorCM > *r.MaxErrorCM || math.Abs(*r.Ratio-float64(*r.RawBytes)/float64(*r.Bytes)) > 1e-9 {
			t.Errorf("line %d: %s", i, l)
		}
	}
	var text bytes.Buffer
	report.WriteCompression(&text, reports, 0.01)
	if !strings.Contains(text.String(), "slowest to compress") || strings.Count(text.String(), "compressed clip") != len(m.Clips) {
		t.Errorf("text report:\n%s", text.String())
	}
}

// -info lists the parameters -param sets: the built-in character's look-at
// target, with the range and default of its spec.
func TestInfoListsParams(t *testing.T) {
	m, err := asset.Load("@character")
	if err != nil {
		t.Fatal(err)
	}
	c, err := app.NewCharacter(m, &app.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	report.WriteParams(&out, c.Ctl.Params())
	if s := out.String(); !strings.Contains(s, "param look_z: -2 to 2, default 1.5\n") || !strings.Contains(s, "param speed: 0 to 2, default 0\n") {
		t.Errorf("params:\n%s", s)
	}
	// A value outside the range is refused, not clamped in silence.
	if _, err := app.NewCharacter(m, &app.LoadOptions{Params: []app.Param{{Name: "speed", Value: 5}}}); err == nil || !strings.Contains(err.Error(), "-param speed=5: outside its range, 0 to 2") {
		t.Errorf("-param speed=5: %v", err)
	}
}

// TestWindowCompressesInTheBackground: with -compress in the window, the
// first frames play the clips as loaded while compression runs beside
// them; once it is done the compressed clips take over, on the clip and
// at the time that played.
func TestWindowCompressesInTheBackground(t *testing.T) {
	withApp(t, options{clip: "Walk", compress: 0.5, compressLater: true}, func(a *app.App) error {
		if a.Char.Runtime != nil {
			return fmt.Errorf("the clips were compressed before the window's first frame")
		}
		if err := a.Update(app.FrameStep); err != nil {
			return err
		}
		a.StartCompression()
		deadline := time.Now().Add(2 * time.Minute)
		for a.Char.Runtime == nil {
			if time.Now().After(deadline) {
				return fmt.Errorf("the compressed clips did not arrive in 2 minutes")
			}
			if err := a.Update(app.FrameStep); err != nil {
				return err
			}
			time.Sleep(10 * time.Millisecond)
		}
		if got := a.Char.ClipName(); got != "Walk" {
			return fmt.Errorf("after the swap the clip is %q, want Walk", got)
		}
		if tm := a.Time(); !(tm > 0) {
			return fmt.Errorf("after the swap the time is %g: the clock started again", tm)
		}
		if len(a.Char.Runtime) != len(a.Char.Model.Clips) || !a.Char.Runtime[0].Compressed() {
			return fmt.Errorf("runtime clips %d of %d, first compressed: %v", len(a.Char.Runtime), len(a.Char.Model.Clips), len(a.Char.Runtime) > 0 && a.Char.Runtime[0].Compressed())
		}
		return nil
	})
}
