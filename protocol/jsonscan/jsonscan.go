// Package jsonscan is the JSON scanner shared by the hand-written decoders
// (protocol's client messages and flat objects, the load generator's
// frames): it checks and skips JSON text in place, by byte index, without
// reflection and without allocating, and leaves decoding values to its
// callers. What it accepts is what encoding/json accepts (RFC 8259, with
// encoding/json's nesting limit): FuzzValue compares the two.
//
// Every function takes the input d and an index i into it, and returns the
// index just past what it read.
package jsonscan

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// MaxDepth is encoding/json's limit on nesting: a value nested deeper is
// refused as json.Unmarshal refuses it.
const MaxDepth = 10000

// ErrSyntax is the error for input that is not JSON where JSON was
// expected; a few cases have errors of their own that say more.
var ErrSyntax = errors.New("malformed JSON")

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space (len(d) when there is none).
func SkipSpace(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Literal checks that lit (true, false or null) is at d[i].
func Literal(d []byte, i int, lit string) (int, error) {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return 0, ErrSyntax
	}
	return i + len(lit), nil
}

// Byte classes inside a JSON string.
const (
	strPlain    = iota // its own value
	strQuote           // the end
	strEscape          // a backslash
	strControl         // not allowed unescaped
	strNonASCII        // allowed; the string needs Unquote (invalid UTF-8 becomes U+FFFD)
)

var strClass = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = strControl
	}
	t['"'], t['\\'] = strQuote, strEscape
	for c := 0x80; c < 0x100; c++ {
		t[c] = strNonASCII
	}
	return t
}()

// String checks the string that starts at d[i], which must be a quote, and
// returns the index after its closing quote. plain says that the bytes
// between the quotes are its value (no escape, ASCII only); otherwise
// Unquote decodes it.
func String(d []byte, i int) (end int, plain bool, err error) {
	plain = true
	i++
	for {
		for i < len(d) && strClass[d[i]] == strPlain {
			i++
		}
		if i >= len(d) {
			return 0, false, errors.New("unterminated string")
		}
		switch strClass[d[i]] {
		case strQuote:
			return i + 1, plain, nil
		case strNonASCII:
			plain = false
			i++
		case strControl:
			return 0, false, errors.New("control character in a string")
		case strEscape:
			plain = false
			if i+1 >= len(d) {
				return 0, false, ErrSyntax
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+5 >= len(d) || !isHex(d[i+2]) || !isHex(d[i+3]) || !isHex(d[i+4]) || !isHex(d[i+5]) {
					return 0, false, errors.New("bad \\u escape")
				}
				i += 6
			default:
				return 0, false, errors.New("bad escape")
			}
		}
	}
}

// PlainString reads the string at d[i] when it is plain (see String): s
// is its value, a slice of d. ok is false when d[i] is not a string, or
// not a plain one.
func PlainString(d []byte, i int) (s []byte, end int, ok bool) {
	if i >= len(d) || d[i] != '"' {
		return nil, 0, false
	}
	j := i + 1
	for j < len(d) && strClass[d[j]] == strPlain {
		j++
	}
	if j >= len(d) || d[j] != '"' {
		return nil, 0, false
	}
	return d[i+1 : j], j + 1, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Unquote decodes a string String has checked, quotes included, exactly as
// encoding/json does.
func Unquote(tok []byte) (string, error) {
	var s string
	if err := json.Unmarshal(tok, &s); err != nil {
		return "", fmt.Errorf("string %.40q: %w", tok, err)
	}
	return s, nil
}

// Number checks the number at d[i] (RFC 8259's grammar: an optional minus,
// an integer part without leading zeros, an optional fraction and
// exponent).
func Number(d []byte, i int) (int, error) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d):
		return 0, ErrSyntax
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		i = digits(d, i+1)
	default:
		return 0, ErrSyntax
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			return 0, ErrSyntax
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return 0, ErrSyntax
		}
		i = j
	}
	return i, nil
}

func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// Int parses a number Number has checked as encoding/json does for an
// integer field: a fraction, an exponent or a value out of range is
// refused.
func Int(tok []byte) (int64, bool) {
	neg := tok[0] == '-'
	ds := tok
	if neg {
		ds = tok[1:]
	}
	if len(ds) > 0 && len(ds) <= 18 {
		var n int64
		for _, c := range ds {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		return n, true
	}
	n, err := strconv.ParseInt(string(tok), 10, 64)
	return n, err == nil
}

// Object walks the object at d[i] (white space before it allowed), nested
// depth deep (1 for a top-level object), calling f with each key, decoded,
// and the index of its value, white space skipped; f checks or reads the
// value and returns the index after it. Object returns the index after the
// closing brace. A key is a slice of d unless it had escapes or non-ASCII
// bytes; it is valid only during the call.
func Object(d []byte, i, depth int, f func(key []byte, i int) (int, error)) (int, error) {
	if depth > MaxDepth {
		return 0, errors.New("nested too deep")
	}
	i = SkipSpace(d, i)
	if i >= len(d) || d[i] != '{' {
		return 0, errors.New("not an object")
	}
	i = SkipSpace(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, nil
	}
	for {
		key, end, plain := PlainString(d, i)
		if !plain {
			if i >= len(d) || d[i] != '"' {
				return 0, ErrSyntax
			}
			var err error
			if end, _, err = String(d, i); err != nil {
				return 0, err
			}
			s, err := Unquote(d[i:end])
			if err != nil {
				return 0, err
			}
			key = []byte(s)
		}
		i = SkipSpace(d, end)
		if i >= len(d) || d[i] != ':' {
			return 0, ErrSyntax
		}
		i = SkipSpace(d, i+1)
		if i >= len(d) {
			return 0, ErrSyntax
		}
		var err error
		if i, err = f(key, i); err != nil {
			return 0, err
		}
		more := false
		if i, more, err = afterItem(d, i, '}'); !more {
			return i, err
		}
	}
}

// afterItem reads what follows a member of an object or an element of an
// array: a comma, and more comes at next, or the closing brace or bracket,
// and next is after it.
func afterItem(d []byte, i int, closing byte) (next int, more bool, err error) {
	i = SkipSpace(d, i)
	switch {
	case i >= len(d):
		return 0, false, ErrSyntax
	case d[i] == ',':
		return SkipSpace(d, i+1), true, nil
	case d[i] == closing:
		return i + 1, false, nil
	}
	return 0, false, ErrSyntax
}

// Value checks the value at d[i] (white space before it allowed), nested
// depth deep (0 for a top-level value), and returns the index after it.
func Value(d []byte, i, depth int) (int, error) {
	i = SkipSpace(d, i)
	if i >= len(d) {
		return 0, ErrSyntax
	}
	switch c := d[i]; {
	case c == '"':
		end, _, err := String(d, i)
		return end, err
	case c == '{':
		return Object(d, i, depth+1, func(_ []byte, i int) (int, error) { return Value(d, i, depth+1) })
	case c == '[':
		if depth+1 > MaxDepth {
			return 0, errors.New("nested too deep")
		}
		i = SkipSpace(d, i+1)
		if i < len(d) && d[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = Value(d, i, depth+1); err != nil {
				return 0, err
			}
			more := false
			if i, more, err = afterItem(d, i, ']'); !more {
				return i, err
			}
		}
	}
	if end, ok := Scalar(d, i); ok {
		return end, nil
	}
	return 0, ErrSyntax
}

// Scalar checks the number or literal at d[i]; ok is false for anything
// else.
func Scalar(d []byte, i int) (end int, ok bool) {
	var err error
	switch {
	case i >= len(d):
		return 0, false
	case d[i] == 't':
		end, err = Literal(d, i, "true")
	case d[i] == 'f':
		end, err = Literal(d, i, "false")
	case d[i] == 'n':
		end, err = Literal(d, i, "null")
	default:
		end, err = Number(d, i)
	}
	return end, err == nil
}
