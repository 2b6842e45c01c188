//go:build goexperiment.simd && amd64

package anim

import (
	"strings"
	"testing"
	"time"
)

// TestChooseLevel: a SIMD kernel is kept only when it measured at least
// 5 % faster than its portable twin; a tie or a slower one is portable.
func TestChooseLevel(t *testing.T) {
	if cpuLevel == levelPortable {
		t.Log("this CPU has no SIMD level: every kernel is portable")
	}
	cases := []struct {
		simd, portable time.Duration
		want           int
	}{
		{90, 100, cpuLevel},
		{94, 100, cpuLevel},
		{96, 100, levelPortable},
		{100, 100, levelPortable},
		{777, 115, levelPortable}, // avx2 slerp on an Intel core before the VZEROUPPER fixes
	}
	for _, tc := range cases {
		if got := chooseLevel(tc.simd, tc.portable); got != tc.want {
			t.Errorf("SIMD %v vs portable %v: level %d, want %d", tc.simd, tc.portable, got, tc.want)
		}
	}
}

// TestKernelPathNamesEveryKernel: KernelPath says what each kernel runs.
func TestKernelPathNamesEveryKernel(t *testing.T) {
	p := KernelPath()
	if cpuLevel == levelPortable {
		if p != "portable" {
			t.Fatalf("KernelPath() = %q on a CPU without SIMD", p)
		}
		return
	}
	for _, k := range []string{"sample", "blend slerp", "blend nlerp", "model-palette"} {
		if !strings.Contains(p, k) {
			t.Errorf("KernelPath() = %q does not name %s", p, k)
		}
	}
	t.Log(p)
}
