package gtp

import (
	"bufio"
	"strings"
	"testing"
)

func TestToFromGTP(t *testing.T) {
	for _, tc := range []struct {
		ours, gtp string
		n         int
	}{
		{"A1", "A1", 9},
		{"H8", "H8", 9},
		{"I9", "J9", 9}, // our I is GTP's J
		{"I1", "J1", 13},
		{"J5", "K5", 13},
		{"M13", "N13", 13},
		{"S19", "T19", 19},
		{"pass", "pass", 19},
	} {
		got, err := ToGTP(tc.ours, tc.n)
		if err != nil || got != tc.gtp {
			t.Errorf("ToGTP(%q, %d) = %q, %v; want %q", tc.ours, tc.n, got, err, tc.gtp)
		}
		back, err := FromGTP(strings.ToLower(tc.gtp), tc.n)
		if err != nil || back != tc.ours {
			t.Errorf("FromGTP(%q, %d) = %q, %v; want %q", tc.gtp, tc.n, back, err, tc.ours)
		}
	}
}

func TestBadVertices(t *testing.T) {
	for _, tc := range []struct {
		v  string
		n  int
		to bool // ToGTP, else FromGTP
	}{
		{"I5", 9, false}, // GTP has no I
		{"J1", 9, true},  // our 9x9 columns end at I
		{"A0", 9, true},
		{"A10", 9, false},
		{"A01", 9, true},
		{"", 9, false},
		{"A1", 25, true},
		{"resign", 9, false},
		{"T19", 19, true}, // our 19x19 columns end at S
	} {
		var err error
		if tc.to {
			_, err = ToGTP(tc.v, tc.n)
		} else {
			_, err = FromGTP(tc.v, tc.n)
		}
		if err == nil {
			t.Errorf("%q on %dx%d (to=%v) accepted", tc.v, tc.n, tc.n, tc.to)
		}
	}
}

func TestReadResponse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Response
	}{
		{"= C4\n\n", Response{ID: -1, OK: true, Text: "C4"}},
		{"=12 pass\n\n", Response{ID: 12, OK: true, Text: "pass"}},
		{"\n\n=3\n\n", Response{ID: 3, OK: true, Text: ""}},
		{"?7 illegal move\n\n", Response{ID: 7, OK: false, Text: "illegal move"}},
		{"=1 line one\nline two\n\n", Response{ID: 1, OK: true, Text: "line one\nline two"}},
		{"=2 B+3.5\r\n\r\n", Response{ID: 2, OK: true, Text: "B+3.5"}},
		{"=4 last", Response{ID: 4, OK: true, Text: "last"}},
	} {
		got, err := ReadResponse(bufio.NewReader(strings.NewReader(tc.in)))
		if err != nil || got != tc.want {
			t.Errorf("ReadResponse(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "\n\n", "hello\n\n", "C4\n\n"} {
		if got, err := ReadResponse(bufio.NewReader(strings.NewReader(in))); err == nil {
			t.Errorf("ReadResponse(%q) = %+v, want an error", in, got)
		}
	}
}

func FuzzReadResponse(f *testing.F) {
	for _, s := range []string{"= C4\n\n", "?7 bad\n\n", "\n=1\nx\n\n", "=99999999999999999999 x\n\n", "?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r, err := ReadResponse(bufio.NewReader(strings.NewReader(in)))
		if err != nil {
			return
		}
		if r.Text != strings.TrimSpace(r.Text) {
			t.Fatalf("text %q not trimmed", r.Text)
		}
	})
}

func FuzzFromGTP(f *testing.F) {
	for _, s := range []string{"A1", "j9", "T19", "pass", "I5", "A01", "Z0"} {
		f.Add(s, 19)
	}
	f.Fuzz(func(t *testing.T, v string, n int) {
		ours, err := FromGTP(v, n)
		if err != nil {
			return
		}
		back, err := ToGTP(ours, n)
		if err != nil {
			t.Fatalf("FromGTP(%q, %d) = %q, which ToGTP refuses: %v", v, n, ours, err)
		}
		if !strings.EqualFold(back, strings.TrimSpace(v)) {
			t.Fatalf("round trip %q -> %q -> %q", v, ours, back)
		}
	})
}
