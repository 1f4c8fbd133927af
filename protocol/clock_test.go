package protocol

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

func TestParseClock(t *testing.T) {
	tests := []struct {
		raw  string
		want *TimeControl // nil with ok: no clock
		ok   bool
	}{
		{``, nil, true},
		{`null`, nil, true},
		{` null `, nil, true},
		{`{"base":300,"increment":3}`, &TimeControl{300, 3}, true},
		{`{"base":1}`, &TimeControl{1, 0}, true},
		{`{"base":10800,"increment":180}`, &TimeControl{10800, 180}, true},
		{`{"base":60.0,"increment":0}`, &TimeControl{60, 0}, true},
		{`{"base":0}`, nil, false},
		{`{"base":-5}`, nil, false},
		{`{"base":10801}`, nil, false},
		{`{"base":1.5}`, nil, false},
		{`{"base":60,"increment":181}`, nil, false},
		{`{"base":60,"increment":-1}`, nil, false},
		{`{"base":60,"increment":0.5}`, nil, false},
		{`{"increment":3}`, nil, false},
		{`{"base":"300"}`, nil, false},
		{`{"base":60,"inc":2}`, nil, false},
		{`{"base":1e400}`, nil, false},
		{`300`, nil, false},
		{`"5+3"`, nil, false},
		{`[]`, nil, false},
		{`{"base":60}{}`, nil, false},
		{`{"base":60}}`, nil, false},
		{`{"base":60}]`, nil, false},
		{` {"base":60} `, &TimeControl{60, 0}, true},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, perr := ParseClock(json.RawMessage(tt.raw))
			if !tt.ok {
				if perr == nil || perr.Code != CodeBadRequest || perr.Msg == "" {
					t.Fatalf("ParseClock(%s) = %+v, %v; want a bad_request", tt.raw, got, perr)
				}
				return
			}
			if perr != nil {
				t.Fatalf("ParseClock(%s): %v", tt.raw, perr)
			}
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Fatalf("ParseClock(%s) = %+v, want %+v", tt.raw, got, tt.want)
			}
		})
	}
}

func FuzzParseClock(f *testing.F) {
	for _, s := range []string{`{"base":300,"increment":3}`, `null`, `{"base":1}`, `{"base":1e3,"increment":1.0}`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		tc, perr := ParseClock(raw)
		switch {
		case perr != nil:
			if tc != nil || perr.Code != CodeBadRequest {
				t.Fatalf("error %v with clock %+v", perr, tc)
			}
		case tc != nil:
			if tc.Base < 1 || tc.Base > MaxClockBase || tc.Increment < 0 || tc.Increment > MaxClockIncrement {
				t.Fatalf("accepted out-of-range clock %+v from %q", tc, raw)
			}
		}
	})
}

func TestParseOptions(t *testing.T) {
	for _, tt := range []struct {
		komi, handicap string
		removal        bool
		want           engine.Options
		bad            string // a fragment of the refusal
	}{
		{"", "", false, engine.Options{}, ""},
		{"null", "null", true, engine.Options{Removal: true}, ""},
		{"0.5", "", false, engine.Options{}, ""}, // the seed's rule
		{"6.5", "4", true, engine.Options{Komi: 6.5, Handicap: 4, Removal: true}, ""},
		{"-0.5", "0", false, engine.Options{Komi: -0.5}, ""},
		{"7", "2.0", false, engine.Options{Komi: 7, Handicap: 2}, ""}, // the engine refuses komi 7
		{"0", "", false, engine.Options{}, "draws"},
		{`"6.5"`, "", false, engine.Options{}, `"komi" must be a number`},
		{"", "2.5", false, engine.Options{}, "whole number"},
		{"", `"4"`, false, engine.Options{}, `"handicap" must be a number`},
		{"", "1e300", false, engine.Options{}, "whole number"},
		{"{}", "", false, engine.Options{}, `"komi" must be a number`},
	} {
		t.Run(tt.komi+" "+tt.handicap, func(t *testing.T) {
			got, perr := ParseOptions(json.RawMessage(tt.komi), json.RawMessage(tt.handicap), tt.removal)
			if tt.bad != "" {
				if perr == nil || perr.Code != CodeBadRequest || !strings.Contains(perr.Msg, tt.bad) {
					t.Fatalf("ParseOptions = %+v, %v; want a bad_request with %q", got, perr, tt.bad)
				}
				return
			}
			if perr != nil || got != tt.want {
				t.Fatalf("ParseOptions = %+v, %v; want %+v", got, perr, tt.want)
			}
		})
	}
}

// FuzzParseOptions: any komi and handicap bytes give options or a
// bad_request, never a panic; a komi of 0 (draws) is never accepted.
func FuzzParseOptions(f *testing.F) {
	for _, s := range [][2]string{{"6.5", "4"}, {"", ""}, {"null", "9"}, {"0", "2"}, {`"x"`, "1.5"}, {"-99.5", "-3"}} {
		f.Add([]byte(s[0]), []byte(s[1]), true)
	}
	f.Fuzz(func(t *testing.T, komi, handicap []byte, removal bool) {
		opts, perr := ParseOptions(komi, handicap, removal)
		if perr != nil {
			if perr.Code != CodeBadRequest || perr.Msg == "" {
				t.Fatalf("error %v", perr)
			}
			return
		}
		if opts.Removal != removal || opts.Komi == 0.5 {
			t.Fatalf("options %+v from %q %q %v", opts, komi, handicap, removal)
		}
	})
}
