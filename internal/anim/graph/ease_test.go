package graph

import (
	"testing"

	"github.com/skinview/skinview/internal/anim/animtest"
)

func TestEase(t *testing.T) {
	cases := []struct {
		name string
		e    Ease
		u    float32
		want float32
	}{
		{"linear", Ease{}, 0.3, 0.3},
		{"clamped below", EaseInOut, -1, 0},
		{"clamped above", EaseS, 2, 1},
		// 3u² − 2u³ at ¼: 3/16 − 2/64 = 0.15625.
		{"ease-in-out quarter", EaseInOut, 0.25, 0.15625},
		{"ease-in-out half", EaseInOut, 0.5, 0.5},
		// 2u² − u³ at ½: ½ − ⅛.
		{"ease-in half", EaseIn, 0.5, 0.375},
		// u + u² − u³ at ½: ½ + ¼ − ⅛.
		{"ease-out half", EaseOut, 0.5, 0.625},
		// Control values (⅓, ⅔) make the Bézier the identity.
		{"bezier thirds is linear", Ease{Shape: EaseBezier, P1: 1.0 / 3, P2: 2.0 / 3}, 0.7, 0.7},
		// s(¼) = (1/16) / (2(1/16 − ¼) + 1) = (1/16)/(5/8) = 0.1.
		{"s-curve quarter", EaseS, 0.25, 0.1},
		{"s-curve half", EaseS, 0.5, 0.5},
		// Symmetry: s(1−u) = 1 − s(u).
		{"s-curve three quarters", EaseS, 0.75, 0.9},
	}
	for _, tc := range cases {
		if got := tc.e.At(tc.u); !animtest.ApproxEqual(got, tc.want, 1e-6) {
			t.Errorf("%s: At(%v) = %v, want %v", tc.name, tc.u, got, tc.want)
		}
	}
	for _, name := range []string{"linear", "ease-in", "ease-out", "ease-in-out", "s-curve"} {
		e, err := ParseEase(name)
		if err != nil || e.String() != name {
			t.Errorf("ParseEase(%q) = %v, %v; want it back by String", name, e, err)
		}
	}
	if _, err := ParseEase("bouncy"); err == nil {
		t.Error("ParseEase accepted an unknown name")
	}
}
