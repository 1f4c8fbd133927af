package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/codectest"
)

func TestAppendValueIsEncodingJSON(t *testing.T) {
	seven := 7
	tests := []struct {
		name string
		v    any
	}{
		{"nil", nil},
		{"bool", true},
		{"int", -42},
		{"int64", int64(1) << 60},
		{"int32", int32(-5)},
		{"integral float", 12.0},
		{"fraction", 1.5},
		{"tiny", 1e-7},
		{"huge", 1e21},
		{"just below huge", 1e20},
		{"negative zero", math.Copysign(0, -1)},
		{"plain string", "black"},
		{"string with quote", `a"b`},
		{"string with html", "<b>"},
		{"unicode", "ção"},
		{"strings", []string{"A1", "pass"}},
		{"nil strings", []string(nil)},
		{"ints", []int{3, -1}},
		{"nil ints", []int(nil)},
		{"int pointer", &seven},
		{"nil int pointer", (*int)(nil)},
		{"last move", &LastMove{Seat: 1, Move: "D4"}},
		{"last move odd", &LastMove{Seat: 0, Move: "x<y"}},
		{"nil last move", (*LastMove)(nil)},
		{"map of ints", map[string]int{"white": 2, "black": 1}},
		{"nil map", map[string]int(nil)},
		{"nested", map[string]any{"stones": map[string]int{"black": 3, "white": 4}, "passes": 0, "tag": "x", "f": 2.5}},
		{"many keys", map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": 10}},
		{"struct", struct {
			A int `json:"a"`
		}{3}},
		{"odd key", map[string]any{"a\"b": 1}},
	}
	for _, tt := range tests {
		want, wantErr := json.Marshal(tt.v)
		got, err := appendValue([]byte("prefix:"), tt.v)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%s: error %v, encoding/json's %v", tt.name, err, wantErr)
			continue
		}
		if err == nil && string(got) != "prefix:"+string(want) {
			t.Errorf("%s: appendValue = %s, want prefix:%s", tt.name, got, want)
		}
	}
	if _, err := appendValue(nil, math.NaN()); err == nil {
		t.Error("appendValue(NaN): no error, encoding/json refuses it")
	}
}

// FuzzSplitFlat: whatever splitFlat accepts is a JSON object whose members
// are the ones it returns.
func FuzzSplitFlat(f *testing.F) {
	for _, s := range []string{`{}`, `{"black":1,"white":2}`, `{"a":"x","b":true,"c":null,"d":-1.5e3}`,
		`{"a":{"b":1}}`, `{"a":1,"a":2}`, `{"a":1,}`, `{"a" :1}`, `{"a":01}`, `{"a":"\u0041"}`, `{`, `{"a":1}x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, ok := splitFlat(b, nil)
		if !ok {
			return
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("splitFlat accepted %q, which is not a JSON object: %v", b, err)
		}
		if len(m) != len(ms) {
			t.Fatalf("splitFlat(%q) = %d members, encoding/json sees %d", b, len(ms), len(m))
		}
		for _, fm := range ms {
			if v, ok := m[string(fm.key)]; !ok || !bytes.Equal(v, fm.val) {
				t.Fatalf("splitFlat(%q): member %q = %q, encoding/json has %q", b, fm.key, fm.val, v)
			}
		}
	})
}

// FuzzMergeObject: the flat path of mergeObject gives what the decoding
// path gives.
func FuzzMergeObject(f *testing.F) {
	f.Add([]byte(`{"black":1,"white":2}`), []byte(`{"black":1,"white":3}`))
	f.Add([]byte(`{"black":1,"white":2}`), []byte(`{"white":2}`))
	f.Add([]byte(`{"b":1}`), []byte(`{"b":1,"a":"x"}`))
	f.Add([]byte(`{}`), []byte(`{"z":null,"a":true}`))
	f.Fuzz(func(t *testing.T, old, cur []byte) {
		fo, ok1 := splitFlat(old, nil)
		fc, ok2 := splitFlat(cur, nil)
		if !ok1 || !ok2 {
			return
		}
		got, err := mergeFlat(nil, fo, fc)
		want, wantErr := mergeDecoded(old, cur)
		if !errors.Is(err, errNoPatch) != !errors.Is(wantErr, errNoPatch) || (err == nil) != (wantErr == nil) {
			t.Fatalf("merge(%q, %q): error %v, decoding path %v", old, cur, err, wantErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("merge(%q, %q) = %s, decoding path %s", old, cur, got, want)
		}
	})
}

// TestAppendValueWritesEveryField: the structs appendValue writes by hand
// (LastMove), every field set by reflection, come out as encoding/json
// writes them: a field added without its line in appendFast fails here.
func TestAppendValueWritesEveryField(t *testing.T) {
	var lm LastMove
	codectest.Fill(&lm)
	for _, v := range []any{&lm} {
		want, _ := json.Marshal(v)
		if got, err := appendValue(nil, v); err != nil || !bytes.Equal(got, want) {
			t.Errorf("appendValue(%T) = %s, %v; encoding/json %s", v, got, err, want)
		}
		if _, ok := appendFast(nil, v); !ok {
			t.Errorf("appendValue(%T) is not written by hand any more: update this test", v)
		}
	}
}
