package graph

import (
	"errors"
	"os"
	"testing"

	"github.com/skinview/skinview/internal/anim"
	"github.com/skinview/skinview/internal/anim/animtest"
)

// FuzzParseSpec feeds arbitrary bytes to the spec reader and, when they
// parse, builds and runs a controller from them: input must never panic,
// and every rejection must be a *SpecError naming where it is.
func FuzzParseSpec(f *testing.F) {
	if data, err := os.ReadFile("testdata/character.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(machineSpec))
	f.Add([]byte(everyNodeSpec))
	f.Add([]byte(`{"tree": {"type": "blend2d", "params": [0.3, 0.3], "points": [[0, 0], [1, 0], [0, 1]], "children": ["Idle", "Walk", "Wave"]}}`))
	sk := animtest.Humanoid()
	clips := animtest.HumanoidClips(sk)
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := ParseSpec(data)
		if err != nil {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("parse error %T is not a *SpecError: %v", err, err)
			}
			return
		}
		c, err := NewController(spec, sk, clips)
		if err != nil {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("build error %T is not a *SpecError: %v", err, err)
			}
			return
		}
		pose := anim.NewSoAPose(sk.NumJoints())
		for i, name := range c.States() {
			_ = c.Request(name)
			for _, p := range c.Params() {
				_ = c.SetParam(p.Name, p.Min+(p.Max-p.Min)*float32(i%3)/2)
			}
			c.Update(0.1)
			c.Evaluate(pose)
			_ = c.Status()
		}
		c.SetTime(0.7)
		c.Evaluate(pose)
	})
}
