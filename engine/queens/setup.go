package queens

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/tabuleiro/tabuleiro/engine"
)

// position is the setup shape of PROTOCOL.md, also the body of a snapshot:
//
//	{"placed":{"3,0":"D","6,6":"R"},"owners":{"3,0":0},
//	 "hands":{"primeiro":["D","R","R","T"],"segundo":["D","D","R","T"]},
//	 "toMove":"primeiro"}
//
// "placed" maps "row,col" to a piece letter; "owners", optional and possibly
// partial, maps some of those squares to the seat (0 or 1) that placed the
// piece; "hands" and "toMove" are required.
type position struct {
	Placed map[string]string `json:"placed"`
	Owners map[string]int    `json:"owners,omitempty"`
	Hands  *handsJSON        `json:"hands"`
	ToMove string            `json:"toMove"`
}

// handsJSON are the two hands by seat name; both are required.
type handsJSON struct {
	Primeiro *[]string `json:"primeiro"`
	Segundo  *[]string `json:"segundo"`
}

// snapshotVersion is the version of the snapshot format.
const snapshotVersion = 1

// snapshot is what MarshalJSON writes and Restore reads.
type snapshot struct {
	Version int    `json:"version"`
	Variant string `json:"variant"`
	position
}

// state builds and validates the position on variant v's board.
func (p *position) state(v variant) (*state, error) {
	s := newState(v)
	size := v.size
	switch p.ToMove {
	case seatNames[First]:
		s.toMove = First
	case seatNames[Second]:
		s.toMove = Second
	case "":
		return nil, errors.New(`"toMove" is required: "primeiro" or "segundo"`)
	default:
		return nil, fmt.Errorf(`"toMove" is %q, want "primeiro" or "segundo"`, p.ToMove)
	}
	if p.Hands == nil {
		return nil, errors.New(`"hands" is required: {"primeiro":[...],"segundo":[...]}`)
	}
	for seat, h := range []*[]string{p.Hands.Primeiro, p.Hands.Segundo} {
		if h == nil {
			return nil, fmt.Errorf(`"hands" has no %q`, seatNames[seat])
		}
		if len(*h) > size*size {
			return nil, fmt.Errorf("hand of %s has %d pieces, more than the %d squares", seatNames[seat], len(*h), size*size)
		}
		hand := make([]byte, 0, len(*h))
		for i, l := range *h {
			if len(l) != 1 || pieceIndex(l[0]) < 0 {
				return nil, fmt.Errorf("hand of %s, piece %d: %q is not a piece (R, D, T, B or C)", seatNames[seat], i, l)
			}
			hand = append(hand, l[0])
		}
		s.hands[seat] = hand
	}
	// Sorted keys, so that the first error reported is always the same.
	for _, name := range slices.Sorted(maps.Keys(p.Placed)) {
		l := p.Placed[name]
		sq, err := parseSquare(name, size)
		if err != nil {
			return nil, fmt.Errorf("placed: %v", err)
		}
		if len(l) != 1 || pieceIndex(l[0]) < 0 {
			return nil, fmt.Errorf("placed %s: %q is not a piece (R, D, T, B or C)", name, l)
		}
		s.place(0, move{pieceIndex(l[0]), sq})
		s.owner[sq] = unknownOwner
	}
	for _, name := range slices.Sorted(maps.Keys(p.Owners)) {
		seat := p.Owners[name]
		sq, err := parseSquare(name, size)
		if err != nil {
			return nil, fmt.Errorf("owners: %v", err)
		}
		if s.board[sq] == 0 {
			return nil, fmt.Errorf("owners: no piece is placed on %s", name)
		}
		if seat != First && seat != Second {
			return nil, fmt.Errorf("owners %s: seat %d, want 0 or 1", name, seat)
		}
		s.owner[sq] = int8(seat)
	}
	if err := s.checkConflicts(); err != nil {
		return nil, err
	}
	s.settle()
	return s, nil
}

// checkConflicts accepts a position whose attacking pairs, if any, all
// involve one piece that the last to place (the seat not to move) may have
// placed: the seed's jogo_acabou example where the last, invalid, placement
// is on the board. Other positions with attacking pieces cannot arise.
func (s *state) checkConflicts() error {
	pairs := s.conflicts()
	if len(pairs) == 0 {
		return nil
	}
	last := 1 - s.toMove
	for _, cand := range pairs[0] {
		inAll := true
		for _, pr := range pairs {
			inAll = inAll && (pr[0] == cand || pr[1] == cand)
		}
		if inAll && (s.owner[cand] == unknownOwner || int(s.owner[cand]) == last) {
			return nil
		}
	}
	size := s.geo.size
	var desc []string
	for _, pr := range pairs {
		desc = append(desc, fmt.Sprintf("%c on %s and %c on %s",
			s.board[pr[0]], squareName(pr[0], size), s.board[pr[1]], squareName(pr[1], size)))
	}
	return fmt.Errorf("pieces attack each other (%s); only the last placement, by %s, may be invalid",
		strings.Join(desc, "; "), seatNames[last])
}

// position returns the state in the setup shape, every known owner included.
func (s *state) position() position {
	p := position{
		Placed: make(map[string]string),
		Hands:  &handsJSON{},
		ToMove: seatNames[s.toMove],
	}
	for sq, l := range s.board {
		if l == 0 {
			continue
		}
		name := squareName(sq, s.geo.size)
		p.Placed[name] = string(l)
		if s.owner[sq] != unknownOwner {
			if p.Owners == nil {
				p.Owners = make(map[string]int)
			}
			p.Owners[name] = int(s.owner[sq])
		}
	}
	hands := [2][]string{{}, {}}
	for seat := range hands {
		for _, l := range s.hands[seat] {
			hands[seat] = append(hands[seat], string(l))
		}
	}
	p.Hands.Primeiro, p.Hands.Segundo = &hands[0], &hands[1]
	return p
}

// decodeStrict decodes one JSON object into v, refusing unknown fields,
// duplicate keys, wrong types and trailing data.
func decodeStrict(data []byte, v any) error {
	if err := checkDuplicateKeys(data); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("unexpected end of JSON input")
		}
		return err
	}
	return engine.DecodeStrict(data, v)
}

// checkDuplicateKeys walks one JSON value and refuses an object that has the
// same key twice (encoding/json would silently keep the last).
func checkDuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(depth int) error
	walk = func(depth int) error {
		if depth > 16 {
			return errors.New("JSON nested too deeply")
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := make(map[string]bool)
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				if seen[key] {
					return fmt.Errorf("key %q appears twice", key)
				}
				seen[key] = true
				if err := walk(depth + 1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(depth + 1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	return walk(0)
}
