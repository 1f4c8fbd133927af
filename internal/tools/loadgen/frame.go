package loadgen

import (
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/protocol/jsonscan"
)

// Frame is what the load generator reads from a server message: the fields
// some mode needs, from room.state, room.patch and the setup answers alike.
// Everything else in the message is checked to be well-formed JSON and
// skipped. Has* report that a field was present and not null, so that a
// patch's "absent" differs from a value.
type Frame struct {
	Type    string
	Room    string
	Code    string
	Message string
	Seq     int64
	// Base is the seq a patch applies to (HasBase).
	Base    int64
	HasBase bool
	Status  string
	// Turn is the seat to move, -1 for null or a value that is not a whole
	// number (HasTurn: "turn" was in the message).
	Turn    int
	HasTurn bool
	// LastMove (HasLastMove).
	LastMove    protocol.LastMove
	HasLastMove bool
	Next        string
	// Seat (HasSeat): match.found's and room.joined's seat.
	Seat    int
	HasSeat bool
	// Token and PlayerID: welcome's token and player.id.
	Token    string
	PlayerID string
	// At is when the frame was read from the socket (the inbox's copies;
	// a Handler gets it as an argument).
	At time.Time
	// legal is the raw "legal" array, nil when absent or null. In a frame
	// given to a Handler it points into the read buffer.
	legal Moves
	size  int
}

// Legal is the frame's "legal" list as the server sent it; nil when the
// frame has none (absent or null).
func (f *Frame) Legal() Moves { return f.legal }

// clone is a copy of f that shares nothing with the read buffer.
func (f *Frame) clone() *Frame {
	g := *f
	if f.legal != nil {
		g.legal = append(Moves{}, f.legal...)
	}
	return &g
}

// ParseFrame decodes one server message into a new Frame that keeps no
// reference to data.
func ParseFrame(data []byte) (*Frame, error) {
	var p parser
	f := new(Frame)
	if err := p.parse(f, data); err != nil {
		return nil, err
	}
	return f.clone(), nil
}

// parser decodes server messages without reflection and, in the steady
// state, without allocating: strings that repeat from one frame to the
// next (type, room, status...) are kept from the previous frame, and go
// move names come from a table. One parser belongs to one reader goroutine.
type parser struct {
	typ, room, code, message, status, next, move string
}

// parse fills f from data. Strings in f never point into data; f.legal
// does.
func (p *parser) parse(f *Frame, data []byte) error {
	*f = Frame{size: len(data)}
	if err := p.object(f, data); err != nil {
		return fmt.Errorf("server message %.60q: %w", data, err)
	}
	if f.Type == "" {
		return fmt.Errorf("server message %.60q has no type", data)
	}
	return nil
}

func (p *parser) object(f *Frame, d []byte) error {
	i := jsonscan.SkipSpace(d, 0)
	if i < len(d) && d[i] == 'n' {
		// null decodes to nothing: a message with no type.
		end, err := jsonscan.Literal(d, i, "null")
		if err != nil {
			return err
		}
		if jsonscan.SkipSpace(d, end) != len(d) {
			return jsonscan.ErrSyntax
		}
		return nil
	}
	i, err := jsonscan.Object(d, i, 1, func(key []byte, i int) (int, error) {
		return p.field(f, key, d, i)
	})
	if err != nil {
		return err
	}
	if jsonscan.SkipSpace(d, i) != len(d) {
		return errors.New("data after the message")
	}
	return nil
}

// field decodes the value at d[i] of the top-level key and returns the
// index after it.
func (p *parser) field(f *Frame, key []byte, d []byte, i int) (int, error) {
	var err error
	switch string(key) {
	case "type":
		f.Type, i, err = stringValue(d, i, &p.typ)
	case "room":
		f.Room, i, err = stringValue(d, i, &p.room)
	case "code":
		f.Code, i, err = stringValue(d, i, &p.code)
	case "message":
		f.Message, i, err = stringValue(d, i, &p.message)
	case "status":
		f.Status, i, err = stringValue(d, i, &p.status)
	case "next":
		f.Next, i, err = stringValue(d, i, &p.next)
	case "token":
		f.Token, i, err = stringValue(d, i, nil)
	case "seq":
		f.Seq, _, i, err = intValue(d, i)
	case "base":
		f.Base, f.HasBase, i, err = intValue(d, i)
	case "seat":
		var n int64
		n, f.HasSeat, i, err = intValue(d, i)
		f.Seat = int(n)
	case "turn":
		f.HasTurn = true
		f.Turn, i, err = turnValue(d, i)
	case "legal":
		f.legal, i, err = movesValue(d, i)
	case "lastMove":
		f.LastMove, f.HasLastMove = protocol.LastMove{}, false
		if d[i] == 'n' {
			return jsonscan.Literal(d, i, "null")
		}
		f.HasLastMove = true
		return jsonscan.Object(d, i, 2, func(key []byte, i int) (int, error) {
			var err error
			switch string(key) {
			case "seat":
				var n int64
				n, _, i, err = intValue(d, i)
				f.LastMove.Seat = int(n)
			case "move":
				f.LastMove.Move, i, err = moveValue(d, i, &p.move)
			default:
				i, err = jsonscan.Value(d, i, 2)
			}
			return i, err
		})
	case "player":
		f.PlayerID = ""
		if d[i] == 'n' {
			return jsonscan.Literal(d, i, "null")
		}
		return jsonscan.Object(d, i, 2, func(key []byte, i int) (int, error) {
			if string(key) == "id" {
				var err error
				f.PlayerID, i, err = stringValue(d, i, nil)
				return i, err
			}
			return jsonscan.Value(d, i, 2)
		})
	default:
		i, err = jsonscan.Value(d, i, 1)
	}
	return i, err
}

// stringValue decodes the string or null at d[i] (null is ""). When cache
// holds the same string it is returned without allocating; otherwise the
// new string is kept in cache.
func stringValue(d []byte, i int, cache *string) (string, int, error) {
	switch d[i] {
	case 'n':
		end, err := jsonscan.Literal(d, i, "null")
		return "", end, err
	case '"':
	default:
		return "", 0, errors.New("not a string")
	}
	end, plain, err := jsonscan.String(d, i)
	if err != nil {
		return "", 0, err
	}
	if !plain {
		s, err := jsonscan.Unquote(d[i:end])
		return s, end, err
	}
	b := d[i+1 : end-1]
	if cache == nil {
		return string(b), end, nil
	}
	if *cache != string(b) {
		*cache = string(b)
	}
	return *cache, end, nil
}

// moveValue is stringValue for a move: go points and passes come from a
// table.
func moveValue(d []byte, i int, cache *string) (string, int, error) {
	if b, end, ok := jsonscan.PlainString(d, i); ok {
		if s, ok := goMoveName(b); ok {
			return s, end, nil
		}
	}
	return stringValue(d, i, cache)
}

// intValue decodes the integer or null at d[i] (null: 0, not present).
func intValue(d []byte, i int) (n int64, present bool, end int, err error) {
	if d[i] == 'n' {
		end, err := jsonscan.Literal(d, i, "null")
		return 0, false, end, err
	}
	if d[i] != '-' && (d[i] < '0' || d[i] > '9') {
		return 0, false, 0, errors.New("not a number")
	}
	end, err = jsonscan.Number(d, i)
	if err != nil {
		return 0, false, 0, err
	}
	n, ok := jsonscan.Int(d[i:end])
	if !ok {
		return 0, false, 0, errors.New("not a whole number")
	}
	return n, true, end, nil
}

// turnValue decodes "turn": any value, a whole number or -1 for anything
// else (null included).
func turnValue(d []byte, i int) (int, int, error) {
	if d[i] == '-' || d[i] >= '0' && d[i] <= '9' {
		end, err := jsonscan.Number(d, i)
		if err != nil {
			return 0, 0, err
		}
		if n, ok := jsonscan.Int(d[i:end]); ok {
			return int(n), end, nil
		}
		return -1, end, nil
	}
	end, err := jsonscan.Value(d, i, 1)
	return -1, end, err
}

// movesValue checks the array of strings (or nulls) or null at d[i] and
// returns it raw; null gives nil.
func movesValue(d []byte, i int) (Moves, int, error) {
	if d[i] == 'n' {
		end, err := jsonscan.Literal(d, i, "null")
		return nil, end, err
	}
	if d[i] != '[' {
		return nil, 0, errors.New("legal is not an array")
	}
	start := i
	i = jsonscan.SkipSpace(d, i+1)
	if i < len(d) && d[i] == ']' {
		return Moves(d[start : i+1]), i + 1, nil
	}
	for {
		if i >= len(d) {
			return nil, 0, jsonscan.ErrSyntax
		}
		var err error
		switch d[i] {
		case '"':
			i, _, err = jsonscan.String(d, i)
		case 'n':
			i, err = jsonscan.Literal(d, i, "null")
		default:
			return nil, 0, errors.New("a legal move is not a string")
		}
		if err != nil {
			return nil, 0, err
		}
		i = jsonscan.SkipSpace(d, i)
		if i >= len(d) {
			return nil, 0, jsonscan.ErrSyntax
		}
		switch d[i] {
		case ',':
			i = jsonscan.SkipSpace(d, i+1)
		case ']':
			return Moves(d[start : i+1]), i + 1, nil
		default:
			return nil, 0, jsonscan.ErrSyntax
		}
	}
}

// Moves is a JSON array of moves (a room's "legal" list) as the server
// sent it, checked but not decoded: a client reads it at most once, when it
// chooses its move.
type Moves []byte

// All yields the moves in order (a null element as "").
func (m Moves) All() iter.Seq[string] {
	return func(yield func(string) bool) {
		for b := range m.each() {
			if !yield(string(b)) {
				return
			}
		}
	}
}

// Len is the number of moves.
func (m Moves) Len() int {
	n := 0
	for range m.each() {
		n++
	}
	return n
}

// Strings is the list decoded; nil for no list.
func (m Moves) Strings() []string {
	if m == nil {
		return nil
	}
	out := []string{}
	for s := range m.All() {
		out = append(out, s)
	}
	return out
}

// each yields each move's bytes, valid until the next one; it stops at
// anything malformed (m was checked when it was read).
func (m Moves) each() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		i := jsonscan.SkipSpace(m, 0)
		if i >= len(m) || m[i] != '[' {
			return
		}
		i = jsonscan.SkipSpace(m, i+1)
		for i < len(m) && m[i] != ']' {
			var v []byte
			switch m[i] {
			case 'n':
				end, err := jsonscan.Literal(m, i, "null")
				if err != nil {
					return
				}
				i = end
			case '"':
				end, plain, err := jsonscan.String(m, i)
				if err != nil {
					return
				}
				v = m[i+1 : end-1]
				if !plain {
					s, err := jsonscan.Unquote(m[i:end])
					if err != nil {
						return
					}
					v = []byte(s)
				}
				i = end
			default:
				return
			}
			if !yield(v) {
				return
			}
			i = jsonscan.SkipSpace(m, i)
			if i < len(m) && m[i] == ',' {
				i = jsonscan.SkipSpace(m, i+1)
			}
		}
	}
}
