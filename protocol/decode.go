package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
)

// ErrMalformed is DecodeClientMessage's error for a message that is not one
// JSON object a ClientMessage can hold.
var ErrMalformed = errors.New("malformed JSON message")

// DecodeClientMessage decodes one client message, as encoding/json's
// Decoder does followed by a check that nothing but white space follows.
//
// The messages a client sends most, moves, are small flat objects of
// plain strings: those are read directly (a tenth of the hub's work per
// move went to encoding/json's reflection); anything else, escapes,
// non-ASCII, keys in another case, unknown keys, nulls, nested values, goes
// through encoding/json. Both give the same message or both fail
// (FuzzDecodeClientMessage).
func DecodeClientMessage(data []byte) (ClientMessage, error) {
	if m, ok := decodeFlat(data); ok {
		return m, nil
	}
	var m ClientMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil || dec.More() {
		return ClientMessage{}, ErrMalformed
	}
	return m, nil
}

// decodeFlat reads an object whose keys are among type, room, move, as,
// name, token, game, variant, opponent, level (spelt exactly so) with plain
// printable-ASCII string values, and id with a string or number value;
// ok is false for anything else, which decodeFlat leaves to encoding/json.
func decodeFlat(data []byte) (m ClientMessage, ok bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return m, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return m, skipSpace(data, i+1) == len(data)
	}
	for {
		key, j, ok := plainBytes(data, i)
		if !ok {
			return m, false
		}
		i = skipSpace(data, j)
		if i >= len(data) || data[i] != ':' {
			return m, false
		}
		i = skipSpace(data, i+1)
		if string(key) == "id" {
			end, ok := idValue(data, i)
			if !ok {
				return m, false
			}
			m.ID = json.RawMessage(bytes.Clone(data[i:end]))
			i = end
		} else {
			field := m.stringField(key)
			val, j, ok := plainBytes(data, i)
			if field == nil || !ok {
				return m, false
			}
			*field, i = string(val), j
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return m, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return m, skipSpace(data, i+1) == len(data)
		default:
			return m, false
		}
	}
}

// stringField is the string field a key names exactly, or nil.
func (m *ClientMessage) stringField(key []byte) *string {
	switch string(key) {
	case "type":
		return &m.Type
	case "room":
		return &m.Room
	case "move":
		return &m.Move
	case "as":
		return &m.As
	case "name":
		return &m.Name
	case "token":
		return &m.Token
	case "game":
		return &m.Game
	case "variant":
		return &m.Variant
	case "opponent":
		return &m.Opponent
	case "level":
		return &m.Level
	}
	return nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// plainBytes reads the string starting at data[i] when it holds printable
// ASCII without escapes: s is its contents (in data), end is just past its
// closing quote.
func plainBytes(data []byte, i int) (s []byte, end int, ok bool) {
	if i >= len(data) || data[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return data[i+1 : j], j + 1, true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// idValue reads an id: a plain string or a JSON number (RFC 8259's
// grammar); end is just past it.
func idValue(data []byte, i int) (end int, ok bool) {
	if i < len(data) && data[i] == '"' {
		_, end, ok := plainBytes(data, i)
		return end, ok
	}
	j := i
	if j < len(data) && data[j] == '-' {
		j++
	}
	switch {
	case j < len(data) && data[j] == '0':
		j++
	case j < len(data) && data[j] >= '1' && data[j] <= '9':
		j = digits(data, j)
	default:
		return 0, false
	}
	if j < len(data) && data[j] == '.' {
		k := digits(data, j+1)
		if k == j+1 {
			return 0, false
		}
		j = k
	}
	if j < len(data) && (data[j] == 'e' || data[j] == 'E') {
		j++
		if j < len(data) && (data[j] == '+' || data[j] == '-') {
			j++
		}
		k := digits(data, j)
		if k == j {
			return 0, false
		}
		j = k
	}
	return j, true
}

func digits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}
