package debugview

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name     string
		m        Mode
		skeleton bool
		ok       bool
	}{
		{"shaded", Shaded, false, true}, {"partitions", Partitions, false, true}, {"weights", Weights, false, true},
		{"skeleton", Shaded, true, true}, {"xray", Shaded, false, false}, {"", Shaded, false, false},
	} {
		m, sk, ok := Parse(tc.name)
		if m != tc.m || sk != tc.skeleton || ok != tc.ok {
			t.Errorf("Parse(%q) = %v, %v, %v; want %v, %v, %v", tc.name, m, sk, ok, tc.m, tc.skeleton, tc.ok)
		}
	}
}
