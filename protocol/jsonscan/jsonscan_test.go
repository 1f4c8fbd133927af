package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// whole reports whether d is one JSON value with nothing but white space
// around it, as Value reads it.
func whole(d []byte) bool {
	end, err := Value(d, 0, 0)
	return err == nil && SkipSpace(d, end) == len(d)
}

var values = []struct {
	in string
	ok bool
}{
	{`0`, true}, {`-0`, true}, {`-12.5e+3`, true}, {`1E9`, true}, {`01`, false}, {`-`, false}, {`1.`, false},
	{`.5`, false}, {`1e`, false}, {`+1`, false}, {`"a"`, true}, {`"\u00e7\n"`, true}, {`"\x"`, false},
	{`"\u12"`, false}, {"\"\x01\"", false}, {`"ção"`, true}, {"\"\xff\"", true}, {`"`, false},
	{`true`, true}, {`tru`, false}, {`nul`, false}, {`null `, true}, {` [1, "a", {"b": [null]}] `, true},
	{`[1,]`, false}, {`[,1]`, false}, {`{"a":1,}`, false}, {`{"a" 1}`, false}, {`{1:2}`, false},
	{`{"a":1}}`, false}, {`{"a":1} x`, false}, {`{}`, true}, {`[]`, true}, {``, false}, {` `, false},
	{`{"k\"ey":{"x":[]}}`, true},
}

func TestValueIsEncodingJSON(t *testing.T) {
	for _, v := range values {
		if got, want := whole([]byte(v.in)), json.Valid([]byte(v.in)); got != v.ok || want != v.ok {
			t.Errorf("%q: Value accepts %v, encoding/json %v, want %v", v.in, got, want, v.ok)
		}
	}
}

func TestNestingLimit(t *testing.T) {
	for _, open := range []string{"[", `{"a":`} {
		for _, n := range []int{MaxDepth, MaxDepth + 1} {
			d := []byte(strings.Repeat(open, n) + "1" + strings.Repeat(string(closing(open)), n))
			if got, want := whole(d), json.Valid(d); got != want {
				t.Errorf("%d times %s: Value accepts %v, encoding/json %v", n, open, got, want)
			}
		}
	}
}

func closing(open string) byte {
	if open == "[" {
		return ']'
	}
	return '}'
}

func TestStringAndUnquote(t *testing.T) {
	for _, tc := range []struct {
		in    string
		plain bool
	}{{`"abc"`, true}, {`""`, true}, {`"a\"b"`, false}, {`"ção"`, false}, {`"\u0041"`, false}, {"\"\x7f\"", true}} {
		end, plain, err := String([]byte(tc.in), 0)
		if err != nil || end != len(tc.in) || plain != tc.plain {
			t.Errorf("String(%q) = %d, %v, %v; want %d, %v", tc.in, end, plain, err, len(tc.in), tc.plain)
		}
		var want string
		_ = json.Unmarshal([]byte(tc.in), &want)
		if got, err := Unquote([]byte(tc.in)); err != nil || got != want {
			t.Errorf("Unquote(%q) = %q, %v; want %q", tc.in, got, err, want)
		}
		if s, _, ok := PlainString([]byte(tc.in), 0); ok != tc.plain || ok && string(s) != want {
			t.Errorf("PlainString(%q) = %q, %v", tc.in, s, ok)
		}
	}
}

func TestInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"-7", -7, true}, {"123456789012345678", 123456789012345678, true},
		{"9223372036854775807", 9223372036854775807, true}, {"-9223372036854775808", -9223372036854775808, true},
		{"9223372036854775808", 0, false}, {"1.0", 0, false}, {"1e3", 0, false},
	} {
		if got, ok := Int([]byte(tc.in)); ok != tc.ok || ok && got != tc.want {
			t.Errorf("Int(%s) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestScalar(t *testing.T) {
	for _, tc := range []struct {
		in  string
		end int
		ok  bool
	}{{`true,`, 4, true}, {`false}`, 5, true}, {`null`, 4, true}, {`-1.5e3,`, 6, true}, {`"a"`, 0, false},
		{`nope`, 0, false}, {`{}`, 0, false}, {``, 0, false}} {
		if end, ok := Scalar([]byte(tc.in), 0); ok != tc.ok || ok && end != tc.end {
			t.Errorf("Scalar(%q) = %d, %v; want %d, %v", tc.in, end, ok, tc.end, tc.ok)
		}
	}
}

// FuzzValue: Value accepts exactly what encoding/json accepts; a string it
// calls plain is its own value, and Unquote decodes any other as
// encoding/json does; a number Int reads is the one encoding/json reads
// into an int64.
func FuzzValue(f *testing.F) {
	for _, v := range values {
		f.Add([]byte(v.in))
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		ok := whole(d)
		if want := json.Valid(d); ok != want {
			t.Fatalf("%q: Value accepts %v, encoding/json %v", d, ok, want)
		}
		if !ok {
			return
		}
		i := SkipSpace(d, 0)
		switch c := d[i]; {
		case c == '"':
			end, plain, _ := String(d, i)
			var want string
			if err := json.Unmarshal(d, &want); err != nil {
				t.Fatalf("%q: %v", d, err)
			}
			got, err := Unquote(d[i:end])
			if plain {
				got = string(d[i+1 : end-1])
			}
			if err != nil || got != want {
				t.Fatalf("%q: read %q (plain %v, %v), encoding/json %q", d, got, plain, err, want)
			}
		case c == '-' || c >= '0' && c <= '9':
			end, _ := Number(d, i)
			var want int64
			werr := json.Unmarshal(d, &want)
			got, ok := Int(d[i:end])
			if ok != (werr == nil) || ok && got != want {
				t.Fatalf("%q: Int = %d, %v; encoding/json %d, %v", d, got, ok, want, werr)
			}
		}
	})
}
