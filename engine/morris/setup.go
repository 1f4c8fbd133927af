package morris

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Setup is the JSON shape of a morris setup (docs/engines/morris.md):
//
//	{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}
//
// Board rows are rows 1..3 top to bottom, columns a..c, 1 for X, -1 for O
// and 0 for a free point (the seed's tuplo_para_tabuleiro). ToMove is "X"
// or "O"; when it is left out it is inferred from the piece counts: "O"
// when X has one piece more, "X" otherwise.
type Setup struct {
	// Board is the 3x3 board, rows 1..3, each row columns a..c.
	Board [][]int `json:"board"`
	// ToMove is the player to move, "X" or "O"; empty to infer it.
	ToMove string `json:"toMove,omitempty"`
}

// position is a board and the piece to move: what a setup describes.
type position struct {
	board  board
	toMove piece
}

// initialPosition is the empty board with X to move.
var initialPosition = position{toMove: pieceX}

// setup writes p back in the setup shape.
func (p position) setup() Setup {
	s := Setup{Board: make([][]int, 3), ToMove: p.toMove.String()}
	for r := range 3 {
		s.Board[r] = make([]int, 3)
		for c := range 3 {
			s.Board[r][c] = int(p.board[pointOf(c, r)])
		}
	}
	return s
}

// badSetup is a CodeBadSetup error.
func badSetup(format string, args ...any) error {
	return engine.Errorf(engine.CodeBadSetup, "bad morris setup: "+format, args...)
}

// parseSetup reads and validates a setup. An empty (or JSON null) setup is
// the initial position.
func parseSetup(raw json.RawMessage) (position, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return initialPosition, nil
	}
	var s Setup
	if err := engine.DecodeStrict(trimmed, &s); err != nil {
		return position{}, badSetup("%v", err)
	}
	return s.position()
}

// position validates s and returns the position it describes. The rules:
// a 3x3 board of -1, 0 and 1; at most three pieces each; X moves first, so
// while pieces are being placed X is to move when the counts are equal and
// O when X has one more; once both have placed all three either may be to
// move; at most one player has a line, and not the player to move (a line
// ends the game, so it was made by the last move).
func (s Setup) position() (position, error) {
	var p position
	if s.Board == nil {
		return p, badSetup("board is missing")
	}
	if len(s.Board) != 3 {
		return p, badSetup("board has %d rows, want 3", len(s.Board))
	}
	for r, row := range s.Board {
		if len(row) != 3 {
			return p, badSetup("row %d has %d points, want 3", r+1, len(row))
		}
		for c, v := range row {
			if v < -1 || v > 1 {
				return p, badSetup("%v is %d, want 1 (X), -1 (O) or 0 (free)", pointOf(c, r), v)
			}
			p.board[pointOf(c, r)] = piece(v)
		}
	}
	nx, no := p.board.count(pieceX), p.board.count(pieceO)
	switch s.ToMove {
	case "X":
		p.toMove = pieceX
	case "O":
		p.toMove = pieceO
	case "":
		p.toMove = pieceX
		if nx == no+1 {
			p.toMove = pieceO
		}
	default:
		return p, badSetup("toMove is %q, want \"X\" or \"O\"", s.ToMove)
	}
	if err := p.validate(); err != nil {
		return p, badSetup("%v", err)
	}
	return p, nil
}

// validate reports why p cannot occur in a game, or nil when it can; see
// Setup.position for the rules.
func (p position) validate() error {
	nx, no := p.board.count(pieceX), p.board.count(pieceO)
	if nx > piecesEach || no > piecesEach {
		return fmt.Errorf("X has %d pieces and O %d, at most %d each", nx, no, piecesEach)
	}
	placing := nx < piecesEach || no < piecesEach
	switch {
	case placing && p.toMove == pieceX && nx != no:
		return fmt.Errorf("X to move while placing needs as many X as O pieces, have %d X and %d O", nx, no)
	case placing && p.toMove == pieceO && nx != no+1:
		return fmt.Errorf("O to move while placing needs one X piece more than O, have %d X and %d O", nx, no)
	}
	switch xLine, oLine := p.board.winners(); {
	case xLine && oLine:
		return errors.New("both X and O have a line")
	case xLine && p.toMove == pieceX, oLine && p.toMove == pieceO:
		return fmt.Errorf("%v has a line but is to move: a line ends the game", p.toMove)
	}
	return nil
}

// parseMove reads move notation: a point ("b2") to place, or two points
// ("b1a1") to move a piece from the first to the second, the same point
// twice being a blocked player's pass.
func parseMove(move string) (from, to point, isPlacement bool, err error) {
	switch len(move) {
	case 2:
		if p, ok := parsePoint(move); ok {
			return p, p, true, nil
		}
	case 4:
		f, ok1 := parsePoint(move[:2])
		t, ok2 := parsePoint(move[2:])
		if ok1 && ok2 {
			return f, t, false, nil
		}
	}
	return 0, 0, false, fmt.Errorf("%s is not a move: want a point such as \"b2\" or a movement such as \"b1a1\"", quoteShort(move))
}

// quoteShort quotes s for an error message, cut to its first 16 bytes.
func quoteShort(s string) string {
	const limit = 16
	if len(s) > limit {
		return fmt.Sprintf("%q...", s[:limit])
	}
	return fmt.Sprintf("%q", s)
}
