package gltfload

import (
	"slices"
	"strings"
	"testing"
)

// BenchmarkMorph is the CPU morph of -skinning cpu: 50,176 vertices with
// positions and normals, 8 targets, 2 of them weighted.
func BenchmarkMorph(b *testing.B) {
	const n = 224 * 224
	p := Primitive{Positions: make([]float32, 3*n), Normals: make([]float32, 3*n)}
	for range 8 {
		p.Targets = append(p.Targets, MorphTarget{Positions: make([]float32, 3*n), Normals: make([]float32, 3*n)})
	}
	weights := []float32{1, 0.5, 0, 0, 0, 0, 0, 0}
	pos, nrm := make([]float32, 3*n), make([]float32, 3*n)
	for b.Loop() {
		p.Morph(pos, nrm, weights)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/vertex")
}

// TestAnimationMarkers: markers in an animation's extras become the
// clip's; malformed ones and ones outside the clip are reported, not kept.
func TestAnimationMarkers(t *testing.T) {
	d := skinnedDoc(t)
	d.raw(t, "animations/0/extras", `{"markers": [{"time": 0.5, "name": "step_l"}, {"time": 9, "name": "late"}, {"name": "no time"}],
		"events": [{"time": 0, "name": "start"}]}`)
	m, err := Decode(d.bytes(t), nil, "t.gltf")
	if err != nil {
		t.Fatal(err)
	}
	got := m.Clips[0].Markers
	if len(got) != 2 || got[0].Name != "step_l" || got[0].Time != 0.5 || got[1].Name != "start" {
		t.Fatalf("markers %+v, want step_l at 0.5 and start at 0", got)
	}
	lines := strings.Join(m.Report.Lines(Hint, 10), "\n")
	for _, want := range []string{`marker "late" at 9 s is outside the clip`, "extras.markers[2]: not a marker"} {
		if !strings.Contains(lines, want) {
			t.Errorf("report lacks %q:\n%s", want, lines)
		}
	}
}

// TestStepRepeatedKeys: a key repeating the time of the key after it
// moves a millionth of a second earlier (relative beyond 1 s), and keys
// before it as far as they must to stay in order; by hand in float32.
func TestStepRepeatedKeys(t *testing.T) {
	for _, tc := range []struct{ in, want []float32 }{
		{[]float32{0, 1, 1, 2}, []float32{0, 1 - 1e-6, 1, 2}},
		{[]float32{0, 0, 0}, []float32{-2e-6, -1e-6, 0}},
		{[]float32{10, 10}, []float32{10 - 1e-5, 10}},
		{[]float32{0, 0.5, 1}, []float32{0, 0.5, 1}},
	} {
		got := stepRepeatedKeys(tc.in)
		if !slices.Equal(got, tc.want) {
			t.Errorf("stepRepeatedKeys(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
