//go:build goexperiment.simd && amd64

package anim

import (
	"strings"
	"testing"
	"time"
)

// TestChooseLevel: a wider kernel is kept only where it measured at least
// 5 % faster than the narrower one it replaces; a tie or a slower one
// keeps the narrower.
func TestChooseLevel(t *testing.T) {
	cases := []struct {
		times []time.Duration // portable, AVX2, AVX-512
		want  int
	}{
		{[]time.Duration{100}, levelPortable},
		{[]time.Duration{100, 90}, levelAVX2},
		{[]time.Duration{100, 94}, levelAVX2},
		{[]time.Duration{100, 96}, levelPortable},
		{[]time.Duration{100, 100}, levelPortable},
		{[]time.Duration{115, 777}, levelPortable}, // avx2 slerp on an Intel core before the VZEROUPPER fixes
		{[]time.Duration{100, 60, 58}, levelAVX2},  // AVX-512 within the noise of AVX2
		{[]time.Duration{100, 60, 67}, levelAVX2},  // AVX-512 slower (an Intel VM, Blend2Palette-100)
		{[]time.Duration{100, 60, 50}, levelAVX512},
		{[]time.Duration{100, 98, 90}, levelAVX512}, // AVX2 no gain, AVX-512 a clear one
		{[]time.Duration{100, 120, 90}, levelAVX512},
		{[]time.Duration{100, 120, 97}, levelPortable},
	}
	for _, tc := range cases {
		if got := chooseLevel(tc.times); got != tc.want {
			t.Errorf("times %v: level %d, want %d", tc.times, got, tc.want)
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
