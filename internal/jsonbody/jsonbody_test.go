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
		in   string
		want error // nil: taken
		name string
	}{
		{`{"name":"ana","n":1}`, nil, "ana"},
		{" \t\r\n{\"name\":\"ana\"} \n\t\r", nil, "ana"},
		{`{"name":"ana","x":1}`, nil, "ana"},
		{`{"name":"ana"} x`, ErrTrailing, ""},
		{`{"name":"ana"}}`, ErrTrailing, ""},
		{`{"name":"ana"}]`, ErrTrailing, ""},
		{`{"name":"ana"}{}`, ErrTrailing, ""},
		{`{"name":"ana"} {"name":"bia"}`, ErrTrailing, ""},
		{`{"name":"ana"}` + "\x00", ErrTrailing, ""},
		{`{"name":"ana"}` + "\v", ErrTrailing, ""},
		{`{"name":"ana"}` + "\u00a0", ErrTrailing, ""},
		{``, ErrEmpty, ""},
		{`   `, ErrEmpty, ""},
		{`{`, ErrMalformed, ""},
		{`[]`, ErrMalformed, ""},
		{`{"n":"1"}`, ErrMalformed, ""},
	}
	for _, tc := range tests {
		var v body
		err := Decode([]byte(tc.in), &v)
		switch {
		case tc.want == nil && err != nil, tc.want != nil && (!errors.Is(err, tc.want) || !errors.Is(err, ErrMalformed)):
			t.Errorf("Decode(%q) = %v, want %v (wrapping ErrMalformed)", tc.in, err, tc.want)
		case err == nil && v.Name != tc.name:
			t.Errorf("Decode(%q) gave %+v", tc.in, v)
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
