package jsonbody

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type body struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

func TestDecode(t *testing.T) {
	tests := []struct {
		in           string
		ok, strictOK bool
		name         string
	}{
		{`{"name":"ana","n":1}`, true, true, "ana"},
		{" \t\r\n{\"name\":\"ana\"} \n\t\r", true, true, "ana"},
		{`{"name":"ana","x":1}`, true, false, "ana"},
		{`{"name":"ana"} x`, false, false, ""},
		{`{"name":"ana"}}`, false, false, ""},
		{`{"name":"ana"}]`, false, false, ""},
		{`{"name":"ana"}{}`, false, false, ""},
		{`{"name":"ana"} {"name":"bia"}`, false, false, ""},
		{`{"name":"ana"}` + "\x00", false, false, ""},
		{`{"name":"ana"}` + "\v", false, false, ""},
		{`{"name":"ana"}` + "\u00a0", false, false, ""},
		{``, false, false, ""},
		{`   `, false, false, ""},
		{`{`, false, false, ""},
		{`[]`, false, false, ""},
		{`{"n":"1"}`, false, false, ""},
	}
	for _, tc := range tests {
		for _, strict := range []bool{false, true} {
			var v body
			err := decode([]byte(tc.in), &v, strict)
			want := tc.ok
			if strict {
				want = tc.strictOK
			}
			if (err == nil) != want || err != nil && !errors.Is(err, ErrMalformed) {
				t.Errorf("decode(%q, strict %v) = %v, want ok %v (errors wrapping ErrMalformed)", tc.in, strict, err, want)
			}
			if err == nil && v.Name != tc.name {
				t.Errorf("decode(%q) gave %+v", tc.in, v)
			}
		}
	}
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		body string
		want error
	}{
		{`{"name":"ana"}`, nil},
		{`{"name":"ana"} trailing`, ErrMalformed},
		{`{"name":"` + strings.Repeat("a", 100) + `"}`, ErrTooLarge},
	} {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
		var v body
		err := Read(httptest.NewRecorder(), r, 64, &v)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("Read(%q) = %v, want %v", tc.body, err, tc.want)
		}
	}
}

// FuzzDecode: Decode accepts exactly what json.Valid accepts (one JSON
// value, JSON whitespace around it; into a json.RawMessage, which takes
// any value), and data after an accepted value is refused.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"name":"ana"}`, `{} x`, `{}}`, `1 2`, `"\u00e9"`, ` [1,{"a":null}] `, `{"a":1}` + "\x00", ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v json.RawMessage
		err := Decode(data, &v)
		if (err == nil) != json.Valid(data) {
			t.Fatalf("Decode(%q) = %v, json.Valid %v", data, err, json.Valid(data))
		}
		if err != nil {
			return
		}
		for _, tail := range []string{"x", "}", "]", "{}", " 0", `""`, "\x00", " \u00a0"} {
			if err := Decode(append(append([]byte{}, data...), tail...), &v); err == nil {
				t.Fatalf("Decode(%q + %q) accepted data after the value", data, tail)
			}
		}
	})
}
