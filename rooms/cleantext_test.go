package rooms

import "testing"

func TestCleanText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "ana", "ana"},
		{"surrounding space", "  ana \t", "ana"},
		{"control characters", "a\x00n\x1ba\x7f", "ana"},
		{"newlines and separators", "a\nn\u2028a\u2029", "ana"},
		{"invalid UTF-8", "an\xffa", "ana"},
		{"right-to-left override", "ana\u202Egnp.exe", "anagnp.exe"},
		{"left-to-right and right-to-left marks", "\u200Eana\u200F", "ana"},
		{"bidi embeddings and pop", "\u202Aa\u202Bn\u202Ca\u202D", "ana"},
		{"bidi isolates", "\u2066a\u2067n\u2068a\u2069", "ana"},
		{"zero-width space and joiners", "a\u200Bn\u200Ca\u200D", "ana"},
		{"byte order mark", "\uFEFFana", "ana"},
		{"word joiner and invisible operators", "a\u2060n\u2062a\u2064", "ana"},
		{"soft hyphen", "a\u00ADna", "ana"},
		{"Arabic letter mark", "a\u061Cna", "ana"},
		{"tag characters", "ana\U000E0041\U000E007F", "ana"},
		{"only format characters", "\u202E\u200B\uFEFF", ""},
		{"space left after stripping is trimmed", "\u200B ana \u200B", "ana"},
		{"accents and other scripts stay", "João Ñandú 李 مرحبا", "João Ñandú 李 مرحبا"},
		{"emoji stay", "♟️ 🎲", "♟️ 🎲"},
		{"HTML is not escaped", "<b>ana</b>", "<b>ana</b>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CleanText(tt.in); got != tt.want {
				t.Errorf("CleanText(%+q) = %+q, want %+q", tt.in, got, tt.want)
			}
		})
	}
}
