package protocol

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/tabuleiro/tabuleiro/protocol/jsonscan"
)

// ErrMalformed is DecodeClientMessage's error for a message that is not one
// JSON object a ClientMessage can hold.
var ErrMalformed = errors.New("malformed JSON message")

// DecodeClientMessage decodes one client message as json.Unmarshal does:
// one JSON object, and nothing but white space after it.
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
	// Not a Decoder followed by More: More is false before a '}' or a
	// ']', so `{"type":"lobby.watch"}}` went through.
	var m ClientMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return ClientMessage{}, ErrMalformed
	}
	return m, nil
}

// decodeFlat reads an object whose keys are among type, room, move, info,
// as, name, token, game, variant, opponent, level, point (spelt exactly so) with plain
// string values (ASCII without escapes: jsonscan.PlainString), and id with
// a plain string or number value; ok is false for anything else, which
// decodeFlat leaves to encoding/json.
func decodeFlat(data []byte) (m ClientMessage, ok bool) {
	i := jsonscan.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return m, false
	}
	i = jsonscan.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return m, jsonscan.SkipSpace(data, i+1) == len(data)
	}
	for {
		key, j, ok := jsonscan.PlainString(data, i)
		if !ok {
			return m, false
		}
		i = jsonscan.SkipSpace(data, j)
		if i >= len(data) || data[i] != ':' {
			return m, false
		}
		i = jsonscan.SkipSpace(data, i+1)
		if string(key) == "id" {
			end, ok := idValue(data, i)
			if !ok {
				return m, false
			}
			m.ID = json.RawMessage(bytes.Clone(data[i:end]))
			i = end
		} else {
			field := m.stringField(key)
			val, j, ok := jsonscan.PlainString(data, i)
			if field == nil || !ok {
				return m, false
			}
			*field, i = string(val), j
		}
		i = jsonscan.SkipSpace(data, i)
		if i >= len(data) {
			return m, false
		}
		switch data[i] {
		case ',':
			i = jsonscan.SkipSpace(data, i+1)
		case '}':
			return m, jsonscan.SkipSpace(data, i+1) == len(data)
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
	case "info":
		return &m.Info
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
	case "point":
		return &m.Point
	}
	return nil
}

// idValue reads an id: a plain string or a JSON number; end is just past
// it.
func idValue(data []byte, i int) (end int, ok bool) {
	if _, end, ok := jsonscan.PlainString(data, i); ok {
		return end, true
	}
	end, err := jsonscan.Number(data, i)
	return end, err == nil
}
