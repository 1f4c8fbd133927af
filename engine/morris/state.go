package morris

import (
	"fmt"
	"maps"
	"strconv"

	"github.com/tabuleiro/tabuleiro/engine"
)

// piecesEach is the number of pieces each player places.
const piecesEach = 3

// repetitionLimit is how many times a position (board and side to move)
// may occur before the game is drawn: the third occurrence draws.
const repetitionLimit = 3

// state is a morris game in progress; it implements engine.State.
type state struct {
	// start is the position the game started from (the setup).
	start position
	// pos is the current position.
	pos position
	// moves are the moves applied since start, in order.
	moves []string
	// seen counts the occurrences of each position (board key * 2 + side
	// to move) since start, start included, for the repetition draw.
	seen map[uint32]int
	// outcome is the result once the game is over.
	outcome engine.Outcome
}

// newState starts a game from p, which parseSetup has validated.
func newState(p position) *state {
	s := &state{start: p, pos: p, seen: map[uint32]int{}, outcome: engine.Ongoing}
	s.seen[positionKey(p)]++
	if w := p.board.winner(); w != free {
		s.outcome = engine.Outcome{Over: true, Winner: w.seat(), Reason: ReasonLine}
	}
	return s
}

// positionKey identifies a position for the repetition rule.
func positionKey(p position) uint32 {
	k := uint32(p.board.key()) * 2
	if p.toMove == pieceO {
		k++
	}
	return k
}

// Variant returns "3", the only variant.
func (s *state) Variant() string { return variant3 }

// Seats returns 2.
func (s *state) Seats() int { return 2 }

// placing reports whether pc still has pieces to place.
func (p *position) placing(pc piece) bool { return p.board.count(pc) < piecesEach }

// Apply plays move for seat; see engine.State. The checks, in order: the
// game is not over, seat is the seat to move, the notation is well formed,
// and the move is legal in the phase of the player to move.
func (s *state) Apply(seat int, move string) error {
	if s.outcome.Over {
		return engine.Errorf(engine.CodeGameOver, "the game is over")
	}
	if seat < 0 || seat > 1 {
		return engine.Errorf(engine.CodeNotYourTurn, "seat %d does not exist: morris has seats 0 (X) and 1 (O)", seat)
	}
	if pieceOfSeat(seat) != s.pos.toMove {
		return engine.Errorf(engine.CodeNotYourTurn, "it is %v's turn, not %v's", s.pos.toMove, pieceOfSeat(seat))
	}
	from, to, isPlacement, err := parseMove(move)
	if err != nil {
		return engine.Errorf(engine.CodeIllegalMove, "%v", err)
	}
	if err := s.pos.check(from, to, isPlacement); err != nil {
		return engine.Errorf(engine.CodeIllegalMove, "%v", err)
	}
	s.play(move, from, to)
	return nil
}

// check reports why moving from to to (or placing on to) is not legal for
// the player to move, or nil when it is.
func (p *position) check(from, to point, isPlacement bool) error {
	me := p.toMove
	if p.placing(me) {
		if !isPlacement {
			return fmt.Errorf("%v still has pieces to place: play a point such as %q", me, "b2")
		}
		if p.board[to] != free {
			return fmt.Errorf("%v is occupied", to)
		}
		return nil
	}
	if isPlacement {
		return fmt.Errorf("%v has placed all its pieces: move one from a point to an adjacent one, such as %q", me, "b1a1")
	}
	switch {
	case p.board[from] == free:
		return fmt.Errorf("%v is empty", from)
	case p.board[from] != me:
		return fmt.Errorf("%v holds a piece of %v, not of %v", from, p.board[from], me)
	case from == to:
		if !p.board.blocked(me) {
			return fmt.Errorf("%v may pass (%v%v) only when none of its pieces can move", me, from, to)
		}
		return nil
	case !isAdjacent(from, to):
		return fmt.Errorf("%v and %v are not adjacent", from, to)
	case p.board[to] != free:
		return fmt.Errorf("%v is occupied", to)
	}
	return nil
}

// play applies a move that check accepted and updates the outcome.
func (s *state) play(move string, from, to point) {
	me := s.pos.toMove
	s.pos.board[from] = free
	s.pos.board[to] = me
	s.pos.toMove = me.other()
	s.moves = append(s.moves, move)
	s.seen[positionKey(s.pos)]++
	switch {
	case s.pos.board.winner() == me:
		s.outcome = engine.Outcome{Over: true, Winner: me.seat(), Reason: ReasonLine}
	case s.seen[positionKey(s.pos)] >= repetitionLimit:
		s.outcome = engine.Outcome{Over: true, Winner: -1, Reason: ReasonRepetition}
	}
}

// Legal lists the moves of seat in the seed's reading order: the free
// points while placing; otherwise, for each own piece in reading order, its
// free adjacent points in reading order ("b1a1"); and when no piece can
// move, a pass for each own piece in reading order ("a1a1").
func (s *state) Legal(seat int) []string {
	if s.outcome.Over || seat < 0 || seat > 1 || pieceOfSeat(seat) != s.pos.toMove {
		return nil
	}
	var out []string
	for _, m := range s.pos.moves() {
		out = append(out, m.String())
	}
	return out
}

// movement is a move as points: a placement on to when isPlacement, else a
// movement from from to to (a pass when they are equal).
type movement struct {
	from, to    point
	isPlacement bool
}

// String writes m in move notation.
func (m movement) String() string {
	if m.isPlacement {
		return m.to.String()
	}
	return m.from.String() + m.to.String()
}

// moves lists the legal moves of the player to move, in reading order (see
// state.Legal).
func (p *position) moves() []movement {
	me := p.toMove
	var out []movement
	if p.placing(me) {
		for _, q := range p.board.points(free) {
			out = append(out, movement{from: q, to: q, isPlacement: true})
		}
		return out
	}
	mine := p.board.points(me)
	for _, from := range mine {
		for _, to := range adjacent[from] {
			if p.board[to] == free {
				out = append(out, movement{from: from, to: to})
			}
		}
	}
	if len(out) == 0 {
		for _, q := range mine {
			out = append(out, movement{from: q, to: q})
		}
	}
	return out
}

// Turn returns the seat to move, and false once the game is over.
func (s *state) Turn() (int, bool) {
	if s.outcome.Over {
		return -1, false
	}
	return s.pos.toMove.seat(), true
}

// Outcome returns the result: see ReasonLine and ReasonRepetition.
func (s *state) Outcome() engine.Outcome { return s.outcome }

// Score returns nil: morris keeps no score.
func (s *state) Score() any { return nil }

// Board returns the protocol's board view: rows 1..3 top to bottom, each a
// string of 'X', 'O' or '.' for columns a..c.
func (s *state) Board() any { return s.pos.board.rows() }

// Extra returns the phase of the player to move: "placement" or
// "movement" (or "over"); once a line ended the game, also "lines", the
// winning line as []engine.Line (see board.lines).
func (s *state) Extra() map[string]any {
	phase := PhaseMovement
	switch {
	case s.outcome.Over:
		phase = PhaseOver
	case s.pos.placing(s.pos.toMove):
		phase = PhasePlacement
	}
	if s.outcome.Reason == ReasonLine {
		return map[string]any{"phase": phase, "lines": s.pos.board.lines()}
	}
	return map[string]any{"phase": phase}
}

// The phases reported by Extra as "phase".
const (
	// PhasePlacement: the player to move still has pieces to place.
	PhasePlacement = "placement"
	// PhaseMovement: the player to move has placed all three pieces.
	PhaseMovement = "movement"
	// PhaseOver: the game has ended.
	PhaseOver = "over"
)

// Clone returns an independent deep copy.
func (s *state) Clone() engine.State {
	c := *s
	c.moves = append([]string(nil), s.moves...)
	c.seen = maps.Clone(s.seen)
	return &c
}

// String draws the current board as the seed's tabuleiro_para_str does.
func (s *state) String() string { return s.pos.board.String() }

// snapshot is the JSON form of a state. Moves and start are the truth;
// Board and ToMove repeat the position they lead to, so that a snapshot is
// readable and a corrupt one is caught.
type snapshot struct {
	Game    string   `json:"game"`
	Variant string   `json:"variant"`
	Start   Setup    `json:"start"`
	Moves   []string `json:"moves"`
	Board   []string `json:"board"`
	ToMove  string   `json:"toMove"`
}

// MarshalJSON encodes the complete state: the start position, every move
// since, and the position they lead to. The repetition counts and the
// outcome follow from replaying the moves. The bytes are those
// json.Marshal gives for a snapshot, written by hand because the rooms
// snapshot after every move (every string in it is plain ASCII notation
// that needs no escaping).
func (s *state) MarshalJSON() ([]byte, error) {
	buf := make([]byte, 0, 128+8*len(s.moves))
	buf = append(buf, `{"game":"`+gameID+`","variant":"`+variant3+`","start":{"board":[`...)
	for r := range 3 {
		if r > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '[')
		for c := range 3 {
			if c > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(s.start.board[pointOf(c, r)]), 10)
		}
		buf = append(buf, ']')
	}
	buf = append(buf, `],"toMove":"`+s.start.toMove.String()+`"},"moves":[`...)
	for i, m := range s.moves {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '"')
		buf = append(buf, m...)
		buf = append(buf, '"')
	}
	buf = append(buf, `],"board":[`...)
	for r, row := range s.pos.board.rows() {
		if r > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '"')
		buf = append(buf, row...)
		buf = append(buf, '"')
	}
	buf = append(buf, `],"toMove":"`+s.pos.toMove.String()+`"}`...)
	return buf, nil
}

// restore rebuilds a state from MarshalJSON's bytes by replaying its moves
// from its start, and checks that they lead to the recorded position.
func restore(data []byte) (*state, error) {
	var snap snapshot
	if err := engine.DecodeStrict(data, &snap); err != nil {
		return nil, fmt.Errorf("morris snapshot: %w", err)
	}
	if snap.Game != gameID {
		return nil, fmt.Errorf("morris snapshot: game is %q, want %q", snap.Game, gameID)
	}
	if snap.Variant != variant3 {
		return nil, fmt.Errorf("morris snapshot: variant is %q, want %q", snap.Variant, variant3)
	}
	if snap.Start.ToMove == "" {
		return nil, fmt.Errorf("morris snapshot: start has no toMove")
	}
	start, err := snap.Start.position()
	if err != nil {
		return nil, fmt.Errorf("morris snapshot: start: %w", err)
	}
	s := newState(start)
	for i, m := range snap.Moves {
		seat, _ := s.Turn()
		if err := s.Apply(seat, m); err != nil {
			return nil, fmt.Errorf("morris snapshot: move %d %q: %w", i+1, m, err)
		}
	}
	b, err := boardFromRows(snap.Board)
	if err != nil {
		return nil, fmt.Errorf("morris snapshot: %w", err)
	}
	if b != s.pos.board || snap.ToMove != s.pos.toMove.String() {
		return nil, fmt.Errorf("morris snapshot: board %q with %s to move does not match its moves, which lead to %q with %v to move",
			snap.Board, snap.ToMove, s.pos.board.rows(), s.pos.toMove)
	}
	return s, nil
}
