package anim

import "testing"

func TestClipClock(t *testing.T) {
	cases := []struct {
		name    string
		mode    LoopMode
		loops   int
		rate    float32
		advance float32
		want    float32
	}{
		{"loop wraps", Loop, 0, 1, 2.5, 0.5},
		{"loop backwards wraps to the end", Loop, 0, -1, 0.5, 1.5},
		{"once holds the end", Once, 0, 1, 7, 2},
		{"once backwards holds the start", Once, 0, -1, 1, 0},
		{"half rate", Loop, 0, 0.5, 3, 1.5},
		{"ping-pong forward leg", PingPong, 0, 1, 1.5, 1.5},
		{"ping-pong backward leg", PingPong, 0, 1, 2.5, 1.5},
		{"ping-pong second cycle", PingPong, 0, 1, 4.25, 0.25},
		{"repeat inside the loops", Repeat, 3, 1, 5, 1},
		{"repeat after N loops holds the end", Repeat, 3, 1, 6.5, 2},
		{"double rate", Once, 0, 2, 0.75, 1.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ClipClock{Duration: 2, Rate: tc.rate, Mode: tc.mode, Loops: tc.loops}
			// Several small steps must agree with the closed form.
			for i := 0; i < 4; i++ {
				c.Advance(tc.advance / 4)
			}
			if got := c.Local(); !approxEqual(got, tc.want, 1e-5) {
				t.Fatalf("Local() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestClipClockFinished(t *testing.T) {
	c := NewClipClock(1, Once)
	c.Advance(0.5)
	if c.Finished() {
		t.Fatal("finished halfway")
	}
	c.Advance(0.6)
	if !c.Finished() {
		t.Fatal("not finished past the end")
	}
	r := ClipClock{Duration: 1, Rate: 1, Mode: Repeat, Loops: 2}
	r.Advance(1.5)
	if r.Finished() {
		t.Fatal("repeat x2 finished after 1.5 loops")
	}
	r.Advance(0.5)
	if !r.Finished() {
		t.Fatal("repeat x2 not finished after 2 loops")
	}
	l := NewClipClock(1, Loop)
	l.Advance(100)
	if l.Finished() {
		t.Fatal("a looping clock never finishes")
	}
}
