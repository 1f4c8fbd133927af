package protocol

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol/jsonscan"
)

// appendValue appends v as encoding/json encodes it. The shapes engines
// put in a room.state's score and extra fields (numbers, plain strings,
// booleans, maps of them, lists of them) are written directly: a room
// diffs its state after every move, and reflection, map sorting and the
// allocations of encoding/json were a tenth of a move's cost. Anything
// else goes through encoding/json.
func appendValue(dst []byte, v any) ([]byte, error) {
	if out, ok := appendFast(dst, v); ok {
		return out, nil
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, enc...), nil
}

// appendFast is appendValue's direct path; ok is false (and dst unusable)
// for a value it does not write.
func appendFast(dst []byte, v any) (_ []byte, ok bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case bool:
		return strconv.AppendBool(dst, x), true
	case int:
		return strconv.AppendInt(dst, int64(x), 10), true
	case int64:
		return strconv.AppendInt(dst, x, 10), true
	case int32:
		return strconv.AppendInt(dst, int64(x), 10), true
	case float64:
		// encoding/json writes integral values in this range as integers.
		if x != math.Trunc(x) || math.Abs(x) >= 1e21 || x == 0 && math.Signbit(x) {
			return dst, false
		}
		return strconv.AppendFloat(dst, x, 'f', -1, 64), true
	case string:
		return engine.AppendPlainJSONString(dst, x)
	case []string:
		return appendPlainStrings(dst, x)
	case []int:
		if x == nil {
			return append(dst, "null"...), true
		}
		dst = append(dst, '[')
		for i, n := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(n), 10)
		}
		return append(dst, ']'), true
	case *int:
		if x == nil {
			return append(dst, "null"...), true
		}
		return strconv.AppendInt(dst, int64(*x), 10), true
	case *LastMove:
		if x == nil {
			return append(dst, "null"...), true
		}
		dst = append(dst, `{"seat":`...)
		dst = strconv.AppendInt(dst, int64(x.Seat), 10)
		dst = append(dst, `,"move":`...)
		if dst, ok = engine.AppendPlainJSONString(dst, x.Move); !ok {
			return dst, false
		}
		return append(dst, '}'), true
	case map[string]int:
		if x == nil {
			return append(dst, "null"...), true
		}
		return appendMap(dst, x, func(dst []byte, n int) ([]byte, bool) {
			return strconv.AppendInt(dst, int64(n), 10), true
		})
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), true
		}
		return appendMap(dst, x, appendFast)
	}
	return dst, false
}

func appendMap[V any](dst []byte, m map[string]V, val func([]byte, V) ([]byte, bool)) (_ []byte, ok bool) {
	var buf [8]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, ok = engine.AppendPlainJSONString(dst, k); !ok {
			return dst, false
		}
		dst = append(dst, ':')
		if dst, ok = val(dst, m[k]); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// appendPlainStrings appends ss as encoding/json encodes it when no string
// needs an escape (moves do not); ok is false otherwise.
func appendPlainStrings(dst []byte, ss []string) (_ []byte, ok bool) {
	if ss == nil {
		return append(dst, "null"...), true
	}
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, ok = engine.AppendPlainJSONString(dst, s); !ok {
			return dst, false
		}
	}
	return append(dst, ']'), true
}

// flatMember is one key and its encoded value in a flat JSON object.
type flatMember struct {
	key []byte // within the object's encoding, without quotes (a plain string)
	val []byte
}

// splitFlat splits the compact encoding of an object whose keys are plain
// strings and whose values are numbers, literals or plain strings (what
// score and stone counts are) into its members, in order. ok is false for
// anything else, and for anything that is not valid JSON; the caller then
// takes the slow path.
func splitFlat(b []byte, into []flatMember) (_ []flatMember, ok bool) {
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return nil, false
	}
	i := 1
	if b[i] == '}' {
		return into, i == len(b)-1
	}
	for {
		k, j, ok := jsonscan.PlainString(b, i)
		if !ok || j >= len(b) || b[j] != ':' {
			return nil, false
		}
		key := k
		i = j + 1
		// value: a plain string, or a number or literal
		start := i
		if _, j, ok := jsonscan.PlainString(b, i); ok {
			i = j
		} else if i, ok = jsonscan.Scalar(b, i); !ok {
			return nil, false
		}
		if i >= len(b) {
			return nil, false
		}
		for _, m := range into {
			if bytes.Equal(m.key, key) {
				return nil, false // a repeated key: encoding/json keeps the last
			}
		}
		into = append(into, flatMember{key, b[start:i]})
		switch {
		case b[i] == ',':
			i++
		case b[i] == '}' && i == len(b)-1:
			return into, true
		default:
			return nil, false
		}
	}
}
