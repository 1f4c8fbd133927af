package orbito

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Outcome reasons.
const (
	// ReasonLine: the winner has k stones in a row after a turn and the
	// loser has not.
	ReasonLine = "line"
	// ReasonBothLines: both players have k stones in a row after the same
	// turn; the game is a draw.
	ReasonBothLines = "both_lines"
	// ReasonBoardFull: the board is full and nobody has k in a row; a draw.
	ReasonBoardFull = "board_full"
)

// state is one game of Orbito-n. It implements engine.State.
type state struct {
	geo     *geometry
	variant string
	cells   board
	toMove  stone
	outcome engine.Outcome
}

var _ engine.State = (*state)(nil)

// newState builds a state from a position and computes its outcome.
func newState(g *geometry, variant string, cells board, toMove stone) *state {
	s := &state{geo: g, variant: variant, cells: cells, toMove: toMove}
	s.outcome = judge(g, cells)
	return s
}

// judge is the outcome of a position seen at the end of a turn: a line of k
// wins, lines for both (or none on a full board) draw.
func judge(g *geometry, cells board) engine.Outcome {
	bl, wl := cells.hasLine(g, black), cells.hasLine(g, white)
	switch {
	case bl && wl:
		return engine.Outcome{Over: true, Winner: -1, Reason: ReasonBothLines}
	case bl:
		return engine.Outcome{Over: true, Winner: black.seat(), Reason: ReasonLine}
	case wl:
		return engine.Outcome{Over: true, Winner: white.seat(), Reason: ReasonLine}
	case cells.count(empty) == 0:
		return engine.Outcome{Over: true, Winner: -1, Reason: ReasonBoardFull}
	}
	return engine.Ongoing
}

// Variant is the number of orbits as a string, "2".."5".
func (s *state) Variant() string { return s.variant }

// Seats is 2: black (X) and white (O).
func (s *state) Seats() int { return 2 }

// Apply places a stone of seat on move and rotates the board.
func (s *state) Apply(seat int, move string) error {
	if s.outcome.Over {
		return engine.Errorf(engine.CodeGameOver, "the game is over")
	}
	if seat != s.toMove.seat() {
		return engine.Errorf(engine.CodeNotYourTurn, "it is %s's turn, not seat %d's", s.toMove.name(), seat)
	}
	sq, err := s.geo.parseSquare(move)
	if err != nil {
		return engine.Errorf(engine.CodeIllegalMove, "%v", err)
	}
	if s.cells[sq] != empty {
		return engine.Errorf(engine.CodeIllegalMove, "%s is occupied", move)
	}
	s.play(sq)
	return nil
}

// play is one turn on a free square sq: place, rotate, judge.
func (s *state) play(sq int) {
	s.cells[sq] = s.toMove
	s.cells = s.cells.rotate(s.geo)
	s.toMove = s.toMove.opponent()
	s.outcome = judge(s.geo, s.cells)
}

// Legal lists the free squares in reading order when seat is to move.
func (s *state) Legal(seat int) []string {
	if s.outcome.Over || seat != s.toMove.seat() {
		return nil
	}
	out := make([]string, 0, s.cells.count(empty))
	for _, sq := range s.geo.reading {
		if s.cells[sq] == empty {
			out = append(out, s.geo.names[sq])
		}
	}
	return out
}

// Turn is the seat to move; ok is false once the game is over.
func (s *state) Turn() (int, bool) {
	if s.outcome.Over {
		return 0, false
	}
	return s.toMove.seat(), true
}

// Outcome reports the end of the game; see the Reason constants.
func (s *state) Outcome() engine.Outcome { return s.outcome }

// Score is nil: Orbito keeps no score.
func (s *state) Score() any { return nil }

// Board is one string a row, top row first, 'X', 'O' and '.'.
func (s *state) Board() any { return s.cells.rows(s.geo) }

// Extra is nil while the game goes on; once a line ended it (reasons line
// and both_lines), "lines": every winning line on the final board, as
// []engine.Line (see board.lines).
func (s *state) Extra() map[string]any {
	if r := s.outcome.Reason; r != ReasonLine && r != ReasonBothLines {
		return nil
	}
	return map[string]any{"lines": s.cells.lines(s.geo)}
}

// Clone returns an independent copy.
func (s *state) Clone() engine.State {
	c := *s
	c.cells = append(board(nil), s.cells...)
	return &c
}

// snapshot is the JSON form of a state. The outcome is not stored: it is a
// function of the board.
type snapshot struct {
	Variant string   `json:"variant"`
	Board   []string `json:"board"`
	ToMove  string   `json:"toMove"`
}

// MarshalJSON encodes the complete state: variant, board and side to move.
func (s *state) MarshalJSON() ([]byte, error) {
	return json.Marshal(snapshot{Variant: s.variant, Board: s.cells.rows(s.geo), ToMove: s.toMove.name()})
}

// String draws the board as the seed's tabuleiro_para_str does, with 'O'
// for white and a space for a free square.
func (s *state) String() string {
	g := s.geo
	var lines []string
	header := "   "
	for c := range g.size {
		header += " " + string(rune('a'+c)) + "  "
	}
	lines = append(lines, header)
	for r := range g.size {
		if r > 0 {
			lines = append(lines, "   "+strings.Repeat(" |  ", g.size))
		}
		cells := make([]string, g.size)
		for c := range g.size {
			ch := s.cells[r*g.size+c].char()
			if ch == '.' {
				ch = ' '
			}
			cells[c] = "[" + string(ch) + "]"
		}
		lines = append(lines, fmt.Sprintf("%02d %s", r+1, strings.Join(cells, "-")))
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}
