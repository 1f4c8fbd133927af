package loadgen

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"

	"github.com/tabuleiro/tabuleiro/protocol"
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

// maxDepth is encoding/json's limit on nesting: a message nested deeper is
// refused as it would be by json.Unmarshal.
const maxDepth = 10000

var errSyntax = errors.New("malformed JSON")

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
	i := skipWS(d, 0)
	if i < len(d) && d[i] == 'n' {
		// null decodes to nothing: a message with no type.
		end, err := literal(d, i, "null")
		if err != nil {
			return err
		}
		if skipWS(d, end) != len(d) {
			return errSyntax
		}
		return nil
	}
	i, err := eachKey(d, i, 1, func(key []byte, i int) (int, error) {
		return p.field(f, key, d, i)
	})
	if err != nil {
		return err
	}
	if skipWS(d, i) != len(d) {
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
			return literal(d, i, "null")
		}
		f.HasLastMove = true
		return eachKey(d, i, 2, func(key []byte, i int) (int, error) {
			var err error
			switch string(key) {
			case "seat":
				var n int64
				n, _, i, err = intValue(d, i)
				f.LastMove.Seat = int(n)
			case "move":
				f.LastMove.Move, i, err = moveValue(d, i, &p.move)
			default:
				i, err = skipValue(d, i, 2)
			}
			return i, err
		})
	case "player":
		f.PlayerID = ""
		if d[i] == 'n' {
			return literal(d, i, "null")
		}
		return eachKey(d, i, 2, func(key []byte, i int) (int, error) {
			if string(key) == "id" {
				var err error
				f.PlayerID, i, err = stringValue(d, i, nil)
				return i, err
			}
			return skipValue(d, i, 2)
		})
	default:
		i, err = skipValue(d, i, 1)
	}
	return i, err
}

// eachKey walks the object at d[i] (whitespace before it allowed), nested
// depth deep, calling f with each key (unescaped) and the index of its
// value (whitespace skipped); f returns the index after the value. It
// returns the index after the closing brace.
func eachKey(d []byte, i, depth int, f func(key []byte, i int) (int, error)) (int, error) {
	if depth > maxDepth {
		return 0, errors.New("nested too deep")
	}
	i = skipWS(d, i)
	if i >= len(d) || d[i] != '{' {
		return 0, errors.New("not an object")
	}
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return 0, errSyntax
		}
		end, plain, err := stringEnd(d, i)
		if err != nil {
			return 0, err
		}
		key := d[i+1 : end-1]
		if !plain {
			s, err := unquote(d[i:end])
			if err != nil {
				return 0, err
			}
			key = []byte(s)
		}
		i = skipWS(d, end)
		if i >= len(d) || d[i] != ':' {
			return 0, errSyntax
		}
		i = skipWS(d, i+1)
		if i >= len(d) {
			return 0, errSyntax
		}
		if i, err = f(key, i); err != nil {
			return 0, err
		}
		i = skipWS(d, i)
		if i >= len(d) {
			return 0, errSyntax
		}
		switch d[i] {
		case ',':
			i = skipWS(d, i+1)
		case '}':
			return i + 1, nil
		default:
			return 0, errSyntax
		}
	}
}

// stringValue decodes the string or null at d[i] (null is ""). When cache
// holds the same string it is returned without allocating; otherwise the
// new string is kept in cache.
func stringValue(d []byte, i int, cache *string) (string, int, error) {
	switch d[i] {
	case 'n':
		end, err := literal(d, i, "null")
		return "", end, err
	case '"':
	default:
		return "", 0, errors.New("not a string")
	}
	end, plain, err := stringEnd(d, i)
	if err != nil {
		return "", 0, err
	}
	if !plain {
		s, err := unquote(d[i:end])
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
	if d[i] == '"' {
		if end, plain, err := stringEnd(d, i); err == nil && plain {
			if s, ok := goMoveName(d[i+1 : end-1]); ok {
				return s, end, nil
			}
		}
	}
	return stringValue(d, i, cache)
}

// intValue decodes the integer or null at d[i] (null: 0, not present).
func intValue(d []byte, i int) (n int64, present bool, end int, err error) {
	if d[i] == 'n' {
		end, err := literal(d, i, "null")
		return 0, false, end, err
	}
	if d[i] != '-' && (d[i] < '0' || d[i] > '9') {
		return 0, false, 0, errors.New("not a number")
	}
	end, err = numberEnd(d, i)
	if err != nil {
		return 0, false, 0, err
	}
	n, ok := parseInt(d[i:end])
	if !ok {
		return 0, false, 0, errors.New("not a whole number")
	}
	return n, true, end, nil
}

// turnValue decodes "turn": any value, a whole number or -1 for anything
// else (null included).
func turnValue(d []byte, i int) (int, int, error) {
	if d[i] == '-' || d[i] >= '0' && d[i] <= '9' {
		end, err := numberEnd(d, i)
		if err != nil {
			return 0, 0, err
		}
		if n, ok := parseInt(d[i:end]); ok {
			return int(n), end, nil
		}
		return -1, end, nil
	}
	end, err := skipValue(d, i, 1)
	return -1, end, err
}

// movesValue checks the array of strings (or nulls) or null at d[i] and
// returns it raw; null gives nil.
func movesValue(d []byte, i int) (Moves, int, error) {
	if d[i] == 'n' {
		end, err := literal(d, i, "null")
		return nil, end, err
	}
	if d[i] != '[' {
		return nil, 0, errors.New("legal is not an array")
	}
	start := i
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == ']' {
		return Moves(d[start : i+1]), i + 1, nil
	}
	for {
		if i >= len(d) {
			return nil, 0, errSyntax
		}
		var err error
		switch d[i] {
		case '"':
			i, _, err = stringEnd(d, i)
		case 'n':
			i, err = literal(d, i, "null")
		default:
			return nil, 0, errors.New("a legal move is not a string")
		}
		if err != nil {
			return nil, 0, err
		}
		i = skipWS(d, i)
		if i >= len(d) {
			return nil, 0, errSyntax
		}
		switch d[i] {
		case ',':
			i = skipWS(d, i+1)
		case ']':
			return Moves(d[start : i+1]), i + 1, nil
		default:
			return nil, 0, errSyntax
		}
	}
}

// skipValue checks the JSON value at d[i] (whitespace before it allowed),
// nested depth deep, and returns the index after it.
func skipValue(d []byte, i, depth int) (int, error) {
	i = skipWS(d, i)
	if i >= len(d) {
		return 0, errSyntax
	}
	switch c := d[i]; {
	case c == '"':
		end, _, err := stringEnd(d, i)
		return end, err
	case c == '{':
		return eachKey(d, i, depth+1, func(_ []byte, i int) (int, error) { return skipValue(d, i, depth+1) })
	case c == '[':
		if depth+1 > maxDepth {
			return 0, errors.New("nested too deep")
		}
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = skipValue(d, i, depth+1); err != nil {
				return 0, err
			}
			i = skipWS(d, i)
			if i >= len(d) {
				return 0, errSyntax
			}
			switch d[i] {
			case ',':
				i++
			case ']':
				return i + 1, nil
			default:
				return 0, errSyntax
			}
		}
	case c == 't':
		return literal(d, i, "true")
	case c == 'f':
		return literal(d, i, "false")
	case c == 'n':
		return literal(d, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return numberEnd(d, i)
	}
	return 0, errSyntax
}

func skipWS(d []byte, i int) int {
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

func literal(d []byte, i int, lit string) (int, error) {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return 0, errSyntax
	}
	return i + len(lit), nil
}

// Byte classes inside a JSON string.
const (
	strPlain    = iota // copied as is
	strQuote           // the end
	strEscape          // a backslash
	strControl         // not allowed unescaped
	strNonASCII        // allowed; the string goes through encoding/json (invalid UTF-8 becomes U+FFFD)
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

// stringEnd checks the string starting at d[i] (a quote) and returns the
// index after its closing quote; plain says that its bytes between the
// quotes are its value (no escape, ASCII only).
func stringEnd(d []byte, i int) (end int, plain bool, err error) {
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
				return 0, false, errSyntax
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

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// unquote decodes a checked JSON string with escapes or non-ASCII bytes,
// exactly as encoding/json does.
func unquote(tok []byte) (string, error) {
	var s string
	if err := json.Unmarshal(tok, &s); err != nil {
		return "", fmt.Errorf("string %.40q: %w", tok, err)
	}
	return s, nil
}

// numberEnd checks the JSON number at d[i] and returns the index after it.
func numberEnd(d []byte, i int) (int, error) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d):
		return 0, errSyntax
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		i = digits(d, i+1)
	default:
		return 0, errSyntax
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			return 0, errSyntax
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
			return 0, errSyntax
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

// parseInt parses a checked JSON number as encoding/json does for an
// integer field: a fraction or an exponent, or a value out of range, is
// refused.
func parseInt(tok []byte) (int64, bool) {
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
		i := skipWS(m, 0)
		if i >= len(m) || m[i] != '[' {
			return
		}
		i = skipWS(m, i+1)
		for i < len(m) && m[i] != ']' {
			var v []byte
			switch m[i] {
			case 'n':
				end, err := literal(m, i, "null")
				if err != nil {
					return
				}
				i = end
			case '"':
				end, plain, err := stringEnd(m, i)
				if err != nil {
					return
				}
				v = m[i+1 : end-1]
				if !plain {
					s, err := unquote(m[i:end])
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
			i = skipWS(m, i)
			if i < len(m) && m[i] == ',' {
				i = skipWS(m, i+1)
			}
		}
	}
}
