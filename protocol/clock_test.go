package protocol

import (
	"encoding/json"
	"testing"
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
