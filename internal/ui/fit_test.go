package ui

import "testing"

// TestCutText: fitText cuts to at most w px (7 px a byte here), ending in
// "…" (21 px); elideMiddle keeps of the end at most half the room left
// after "…", the start filling the rest. Neither cuts inside a rune ("é"
// is 2 bytes); a room exactly as wide as the text or the cut keeps it all.
// Bytes that are not UTF-8, and a negative room, cut without a panic.
func TestCutText(t *testing.T) {
	type cutCase struct {
		s    string
		w    float32
		want string
	}
	for _, fn := range []struct {
		name  string
		f     func(Painter, *line, string, float32) string
		cases []cutCase
	}{
		{"fitText", fitText, []cutCase{
			{"abc", 21, "abc"},           // exactly fits
			{"abcdef", 41, "ab…"},        // 20 px for the text: 2 bytes
			{"abcdefgh", 49, "abcd…"},    // 28 px: 4 bytes, exactly
			{"abcdef", 10, "…"},          // no room even for "…"
			{"abédefg", 42, "ab…"},       // 21 px: the cut would fall inside é
			{"abédefg", 49, "abé…"},      // 28 px: é kept whole
			{"", 0, ""},                  // nothing to cut
			{"éé", 27, "…"},              // 6 px for the text: not even one rune
			{"aébcd", 34, "a…"},          // 13 px: a, not half of é
			{"abcdefgh", 56, "abcdefgh"}, // as wide as the room
			// Not UTF-8, starting inside a rune: 4 px for the text, not
			// even one byte.
			{"\x80abcdef", 25, "…"},
			{"", -1, "…"}, // less than no room (a narrow help column)
		}},
		{"elideMiddle", elideMiddle, []cutCase{
			{"abcdefgh", 56, "abcdefgh"}, // as wide as the room
			// 28 px after "…", 14 for the end: "gh" exactly; "ab" + "gh" is
			// exactly 28.
			{"abcdefgh", 49, "ab…gh"},
			{"aébcdef", 49, "a…ef"},  // "aé" + "ef" is 35 px: é goes whole
			{"abcdeéf", 49, "abc…f"}, // "éf" is 21 px, over 14: only "f"
			{"abcdéf", 42, "ab…f"},   // 21 px, 10.5 for the end
			// 14 px after "…": the last rune (4 bytes, 28 px) is over half of
			// it, so nothing of the end is kept, and the start stops at it.
			{"ab😀", 35, "ab…"},
			{"abcdef", 20, "…"}, // no room even for "…"
			{"", -1, "…"},       // less than no room
			{"\x80", 5, "…"},    // a lone byte, not UTF-8, wider than the room
		}},
	} {
		for _, tc := range fn.cases {
			var l line
			if got := cut(t, fn.f, &l, tc.s, tc.w); got != tc.want {
				t.Errorf("%s(%q, %v) = %q, want %q", fn.name, tc.s, tc.w, got, tc.want)
			}
		}
	}
}

// cut runs a cutting function, a panic in it reported as a failure.
func cut(t *testing.T, f func(Painter, *line, string, float32) string, l *line, s string, w float32) (got string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("cutting %q to %v px: panic %v", s, w, r)
		}
	}()
	return f(&tape{}, l, s, w)
}
