package graph

import (
	"fmt"
)

// EaseShape selects the formula an Ease evaluates.
type EaseShape uint8

const (
	// EaseLinear is β(u) = u.
	EaseLinear EaseShape = iota
	// EaseBezier is the one-dimensional cubic Bézier of GEA §12.6.2.2 with
	// end values 0 and 1 and the control values P1 and P2:
	// β(u) = 3u(1−u)²·P1 + 3u²(1−u)·P2 + u³.
	EaseBezier
	// EaseSCurve is the uniform S-curve s(u) = u² / (2(u² − u) + 1): flat
	// at both ends, symmetric about (½, ½), and cheaper than a Bézier.
	EaseSCurve
)

// Ease maps the normalized progress u ∈ [0, 1] of a blend (a cross-fade's
// elapsed time over its duration) to a blend factor β ∈ [0, 1]. The zero
// value is linear.
type Ease struct {
	// Shape is the formula.
	Shape EaseShape
	// P1 and P2 are the Bézier control values (EaseBezier only). (⅓, ⅔) is
	// linear; a 0 for P1 starts with zero slope, a 1 for P2 ends with it.
	P1, P2 float32
}

// The common Bézier eases of GEA §12.6.2.2.
var (
	// EaseIn starts slowly and ends at full speed: β = 2u² − u³.
	EaseIn = Ease{Shape: EaseBezier, P1: 0, P2: 2.0 / 3}
	// EaseOut starts at full speed and ends slowly: β = u + u² − u³.
	EaseOut = Ease{Shape: EaseBezier, P1: 1.0 / 3, P2: 1}
	// EaseInOut is slow at both ends (smoothstep): β = 3u² − 2u³.
	EaseInOut = Ease{Shape: EaseBezier, P1: 0, P2: 1}
	// EaseS is the uniform S-curve.
	EaseS = Ease{Shape: EaseSCurve}
)

// At returns β(u) for u clamped to [0, 1]; β(0) = 0 and β(1) = 1 exactly.
func (e Ease) At(u float32) float32 {
	if u <= 0 {
		return 0
	}
	if u >= 1 {
		return 1
	}
	switch e.Shape {
	case EaseBezier:
		v := 1 - u
		return 3*u*v*v*e.P1 + 3*u*u*v*e.P2 + u*u*u
	case EaseSCurve:
		a2 := u * u
		return a2 / (2*(a2-u) + 1)
	}
	return u
}

// String is the spec name of the ease: "linear", "ease-in", "ease-out",
// "ease-in-out", "s-curve", or "bezier(P1,P2)".
func (e Ease) String() string {
	switch {
	case e.Shape == EaseLinear:
		return "linear"
	case e.Shape == EaseSCurve:
		return "s-curve"
	case e == EaseIn:
		return "ease-in"
	case e == EaseOut:
		return "ease-out"
	case e == EaseInOut:
		return "ease-in-out"
	}
	return fmt.Sprintf("bezier(%g,%g)", e.P1, e.P2)
}

// ParseEase returns the ease named by one of the String names other than
// the Bézier form (which the JSON spec writes as an array [P1, P2]).
func ParseEase(name string) (Ease, error) {
	switch name {
	case "linear", "":
		return Ease{}, nil
	case "ease-in":
		return EaseIn, nil
	case "ease-out":
		return EaseOut, nil
	case "ease-in-out":
		return EaseInOut, nil
	case "s-curve":
		return EaseS, nil
	}
	return Ease{}, fmt.Errorf("anim: unknown ease %q (want linear, ease-in, ease-out, ease-in-out, s-curve or [p1, p2])", name)
}
