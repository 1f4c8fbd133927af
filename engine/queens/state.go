package queens

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tabuleiro/tabuleiro/engine"
)

// unknownOwner marks a piece placed by a setup that did not say who placed it.
const unknownOwner = -1

// state is one game of queens. It implements engine.State.
type state struct {
	variant string
	geo     *geometry
	// board holds the piece letter on each square (row*size+col), 0 when empty.
	board []byte
	// owner holds the seat that placed each piece, unknownOwner when a
	// setup did not say, and is meaningless on empty squares.
	owner []int8
	// hands are the pieces each seat may still place, in order: the order
	// of first appearance is the order in which moves are listed.
	hands  [2][]byte
	toMove int
	// occupied and attacked are derived from board.
	occupied, attacked squares
	outcome            engine.Outcome
}

var _ engine.State = (*state)(nil)

func newState(v variant) *state {
	n := v.size * v.size
	s := &state{variant: v.id, geo: geometries[v.size], board: make([]byte, n), owner: make([]int8, n), outcome: engine.Ongoing}
	for i := range s.owner {
		s.owner[i] = unknownOwner
	}
	return s
}

// move is one placement: a piece (index into pieceLetters) on a square.
type move struct {
	piece, sq int
}

func (s *state) moveName(m move) string {
	return string(pieceLetters[m.piece]) + "@" + squareName(m.sq, s.geo.size)
}

// place puts a piece of seat on sq and updates the derived sets. It checks
// nothing.
func (s *state) place(seat int, m move) {
	s.board[m.sq] = pieceLetters[m.piece]
	s.owner[m.sq] = int8(seat)
	s.occupied.add(m.sq)
	s.attacked.union(&s.geo.attacks[m.piece][m.sq])
}

// valid reports whether piece may be placed on sq: the square is empty and
// not attacked, and the piece would attack no placed piece.
func (s *state) valid(piece, sq int) bool {
	return !s.occupied.has(sq) && !s.attacked.has(sq) && !s.geo.attacks[piece][sq].meets(&s.occupied)
}

// handPieces returns the distinct pieces of seat's hand in order of first
// appearance.
func (s *state) handPieces(seat int) []int {
	var out []int
	for _, l := range s.hands[seat] {
		p := pieceIndex(l)
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// moves lists seat's valid placements in the game's order: the distinct
// pieces of the hand in order of first appearance, and for each piece the
// squares in ascending (row, col) order, the seed's tuple order. It ignores
// whose turn it is.
func (s *state) moves(seat int) []move {
	var out []move
	n := len(s.board)
	for _, p := range s.handPieces(seat) {
		for sq := range n {
			if s.valid(p, sq) {
				out = append(out, move{p, sq})
			}
		}
	}
	return out
}

// canMove reports whether seat has at least one valid placement.
func (s *state) canMove(seat int) bool {
	n := len(s.board)
	for _, p := range s.handPieces(seat) {
		for sq := range n {
			if s.valid(p, sq) {
				return true
			}
		}
	}
	return false
}

// conflicts lists the pairs of placed squares where one piece attacks the
// other, each pair once with the lower square first.
func (s *state) conflicts() [][2]int {
	var out [][2]int
	for a := range s.board {
		if s.board[a] == 0 {
			continue
		}
		atk := &s.geo.attacks[pieceIndex(s.board[a])][a]
		for b := a + 1; b < len(s.board); b++ {
			if s.board[b] == 0 {
				continue
			}
			if atk.has(b) || s.geo.attacks[pieceIndex(s.board[b])][b].has(a) {
				out = append(out, [2]int{a, b})
			}
		}
	}
	return out
}

// settle computes the outcome of the position, with s.toMove to move: a
// position with attacking pieces is lost by the last to place, both hands
// empty is won by the last to place, and a player to move without a valid
// placement loses.
func (s *state) settle() {
	last := 1 - s.toMove
	switch {
	case s.hasConflict():
		s.outcome = engine.Outcome{Over: true, Winner: s.toMove, Reason: ReasonInvalidPlacement}
	case len(s.hands[0]) == 0 && len(s.hands[1]) == 0:
		s.outcome = engine.Outcome{Over: true, Winner: last, Reason: ReasonAllPlaced}
	case !s.canMove(s.toMove):
		s.outcome = engine.Outcome{Over: true, Winner: last, Reason: ReasonNoValidPlacement}
	default:
		s.outcome = engine.Ongoing
	}
}

func (s *state) hasConflict() bool {
	for sq, l := range s.board {
		if l != 0 && s.geo.attacks[pieceIndex(l)][sq].meets(&s.occupied) {
			return true
		}
	}
	return false
}

// Variant is the variant id.
func (s *state) Variant() string { return s.variant }

// Seats is 2.
func (s *state) Seats() int { return 2 }

// Apply places a piece for seat: move is "D@3,1".
func (s *state) Apply(seat int, mv string) error {
	if s.outcome.Over {
		return engine.Errorf(engine.CodeGameOver, "the game is over")
	}
	if seat != s.toMove {
		return engine.Errorf(engine.CodeNotYourTurn, "it is %s's turn, not seat %d's", seatNames[s.toMove], seat)
	}
	m, err := s.parseMove(mv)
	if err != nil {
		return engine.Errorf(engine.CodeIllegalMove, "%v", err)
	}
	if err := s.check(seat, m); err != nil {
		return engine.Errorf(engine.CodeIllegalMove, "%s: %v", mv, err)
	}
	s.play(seat, m)
	return nil
}

// play makes a move already known to be valid and settles the outcome.
func (s *state) play(seat int, m move) {
	hand := s.hands[seat]
	i := slices.Index(hand, pieceLetters[m.piece])
	s.hands[seat] = slices.Delete(hand, i, i+1)
	s.place(seat, m)
	s.toMove = 1 - seat
	s.settle()
}

// parseMove parses "D@3,1" on the state's board.
func (s *state) parseMove(mv string) (move, error) {
	letter, sq, ok := strings.Cut(mv, "@")
	if !ok || len(letter) != 1 {
		return move{}, fmt.Errorf("move %q is not piece@row,col such as D@3,1", mv)
	}
	p := pieceIndex(letter[0])
	if p < 0 {
		return move{}, fmt.Errorf("move %q: %q is not a piece (R, D, T, B or C)", mv, letter)
	}
	idx, err := parseSquare(sq, s.geo.size)
	if err != nil {
		return move{}, fmt.Errorf("move %q: %v", mv, err)
	}
	return move{p, idx}, nil
}

// check says why seat may not play m, or returns nil.
func (s *state) check(seat int, m move) error {
	size := s.geo.size
	letter := pieceLetters[m.piece]
	if !slices.Contains(s.hands[seat], letter) {
		return fmt.Errorf("%s has no %c in hand", seatNames[seat], letter)
	}
	if l := s.board[m.sq]; l != 0 {
		return fmt.Errorf("%s is occupied by %c", squareName(m.sq, size), l)
	}
	for sq, l := range s.board {
		if l != 0 && s.geo.attacks[pieceIndex(l)][sq].has(m.sq) {
			return fmt.Errorf("%s is attacked by the %c on %s", squareName(m.sq, size), l, squareName(sq, size))
		}
	}
	for sq, l := range s.board {
		if l != 0 && s.geo.attacks[m.piece][m.sq].has(sq) {
			return fmt.Errorf("a %c on %s would attack the %c on %s", letter, squareName(m.sq, size), l, squareName(sq, size))
		}
	}
	return nil
}

// Legal lists seat's valid placements in the game's order (see moves), or
// nil when seat is not to move.
func (s *state) Legal(seat int) []string {
	if s.outcome.Over || seat != s.toMove {
		return nil
	}
	ms := s.moves(seat)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = s.moveName(m)
	}
	return out
}

// Turn is the seat to move.
func (s *state) Turn() (int, bool) {
	if s.outcome.Over {
		return 0, false
	}
	return s.toMove, true
}

// Outcome is the result; see the Reason constants.
func (s *state) Outcome() engine.Outcome { return s.outcome }

// Score is nil: the game keeps no score.
func (s *state) Score() any { return nil }

// Board is one string a row, top row (row n-1) first, the piece letter or '.'.
func (s *state) Board() any {
	return s.rows(func(sq int) byte {
		if s.board[sq] == 0 {
			return '.'
		}
		return s.board[sq]
	})
}

// Extra holds "owners" (rows like Board, '0' or '1' for the seat that
// placed each piece, '?' when a setup did not say, '.' for empty squares)
// and "hands" (the pieces each seat may still place, by seat name).
func (s *state) Extra() map[string]any {
	owners := s.rows(func(sq int) byte {
		switch {
		case s.board[sq] == 0:
			return '.'
		case s.owner[sq] == unknownOwner:
			return '?'
		}
		return byte('0' + s.owner[sq])
	})
	hands := make(map[string][]string, 2)
	for seat, name := range seatNames {
		h := make([]string, len(s.hands[seat]))
		for i, l := range s.hands[seat] {
			h[i] = string(l)
		}
		hands[name] = h
	}
	return map[string]any{"owners": owners, "hands": hands}
}

func (s *state) rows(cell func(sq int) byte) []string {
	n := s.geo.size
	out := make([]string, n)
	row := make([]byte, n)
	for r := range n {
		for c := range n {
			row[c] = cell(r*n + c)
		}
		out[n-1-r] = string(row)
	}
	return out
}

// Clone returns an independent deep copy.
func (s *state) Clone() engine.State { return s.clone() }

func (s *state) clone() *state {
	c := *s
	c.board = slices.Clone(s.board)
	c.owner = slices.Clone(s.owner)
	c.hands = [2][]byte{slices.Clone(s.hands[0]), slices.Clone(s.hands[1])}
	return &c
}

// MarshalJSON encodes the complete state: the variant and the position in
// the setup shape with every known owner. The outcome follows from the
// position and x-random's hand is in the hands, so no random state remains.
func (s *state) MarshalJSON() ([]byte, error) {
	return json.Marshal(snapshot{Version: snapshotVersion, Variant: s.variant, position: s.position()})
}
