package gogame

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Pass is the move that passes the turn.
const Pass = "pass"

// ReasonTwoPasses is the Outcome reason of a game ended by two passes in a
// row; the winner is the player with the higher area score, white on ties.
// It is the only way a game of go ends inside the engine (resignation and
// time-outs are the rooms' business).
const ReasonTwoPasses = "two_passes"

// Score is the area score of both players, as a Playout reports it. The
// state's Score reports the same as {"black":n,"white":n}.
type Score struct {
	Black int `json:"black"`
	White int `json:"white"`
}

// state is a game of go in progress.
type state struct {
	variant string
	board   *board
	toMove  color
	// passes is the number of passes in a row that ended the move list (0,
	// 1, or 2 once the game is over).
	passes int
	// seen holds the Zobrist hash of every position the game has been in,
	// the starting position included, for the superko rule. Two different
	// positions share a 64-bit hash with probability about 2^-64 per pair,
	// so for the at most a few thousand positions of a game a false
	// repetition is astronomically unlikely (below 1e-12).
	seen map[uint64]struct{}
	// seenBits is a one-hash Bloom filter of seen: bit h%len of every hash
	// in it is set, so a hash whose bit is clear was never seen and needs
	// no map lookup (most of Legal's candidates).
	seenBits hashFilter
	// start is the starting position (the setup) and moves the moves played
	// since, which is all a snapshot needs.
	start setupSpec
	moves []string
	// startJSON is start as encoding/json writes it, and movesJSON the
	// moves as the elements of a JSON array (`"D4","pass"`), appended by
	// Apply, so that a snapshot copies them instead of encoding them again.
	// startJSON is never changed after newState, so clones share it.
	startJSON, movesJSON []byte
	// legal is what Legal returned for the side to move, valid while
	// legalFresh; Apply clears legalFresh and the next Legal writes legal
	// again in place. A clone has its own.
	legal      []string
	legalFresh bool
	// view is what Board, Score and Extra return (view.go).
	view view

	// The rule options (options.go): komi2 is twice the komi (an odd
	// number; seedKomi2, one half, is the seed's rule), handicap the
	// number of handicap stones the start position holds, removal the
	// stone-removal phase after two passes.
	komi2, handicap int
	removal         bool
	// The stone-removal phase (scoring.go), while removal and two passes
	// ended the move list: dead holds the stones marked dead and deadList
	// their names in reading order (a new slice at every change, so that
	// one handed out never changes); accepted says which seats accepted
	// the marking. Both seats accepting ends the game.
	dead     pointSet
	deadList []string
	accepted [2]bool
}

// newState starts a game from a checked setup.
func newState(geo *geometry, sp setupSpec) (*state, error) {
	b, toMove, err := sp.position(geo)
	if err != nil {
		return nil, err
	}
	s := &state{
		variant: strconv.Itoa(geo.n),
		board:   b,
		toMove:  toMove,
		seen:    map[uint64]struct{}{b.hash: {}},
		start:   setupOf(b, toMove),
		komi2:   seedKomi2,
	}
	s.seenBits.add(b.hash)
	if s.startJSON, err = json.Marshal(s.start); err != nil {
		return nil, err
	}
	return s, nil
}

// hashFilter is a set of bits indexed by the low bits of a position hash.
type hashFilter [128]uint64

// add sets the bit of h.
func (f *hashFilter) add(h uint64) { f[h>>6%uint64(len(f))] |= 1 << (h % 64) }

// has reports whether the bit of h is set.
func (f *hashFilter) has(h uint64) bool { return f[h>>6%uint64(len(f))]&(1<<(h%64)) != 0 }

// repeats reports whether the position of hash h occurred earlier.
func (s *state) repeats(h uint64) bool {
	if !s.seenBits.has(h) {
		return false
	}
	_, ok := s.seen[h]
	return ok
}

// Variant is the board size as a variant id.
func (s *state) Variant() string { return s.variant }

// Seats is 2: black and white.
func (s *state) Seats() int { return 2 }

// over reports whether the game has ended: two passes in a row, and with
// the stone-removal phase both seats' acceptance of the marking.
func (s *state) over() bool { return s.passes >= 2 && (!s.removal || s.settled()) }

// Turn is the seat to move, until the game is over.
func (s *state) Turn() (int, bool) {
	if s.over() {
		return -1, false
	}
	return s.toMove.seat(), true
}

// Apply plays move ("C4" or "pass") for seat. A refused move leaves the
// state unchanged.
func (s *state) Apply(seat int, move string) error {
	if err := s.checkSeat(seat); err != nil {
		return err
	}
	if move == Pass {
		if s.scoring() {
			return engine.Errorf(engine.CodeIllegalMove, "the game is in its stone-removal phase: mark the dead stones and accept, or play a stone to resume the game")
		}
		s.legalFresh = false
		s.passes++
		s.toMove = s.toMove.opponent()
		s.addMove(Pass)
		return nil
	}
	p, err := s.board.geo.parsePoint(move)
	if err != nil {
		return engine.Errorf(engine.CodeIllegalMove, "%v", err)
	}
	o, err := s.check(p, s.toMove)
	if err != nil {
		return err
	}
	s.board.play(p, s.toMove, o)
	s.legalFresh = false
	s.seen[s.board.hash] = struct{}{}
	s.seenBits.add(s.board.hash)
	if s.passes >= 2 {
		s.resume()
	}
	s.passes = 0
	s.toMove = s.toMove.opponent()
	s.addMove(move)
	return nil
}

// addMove records a move played, in moves and in movesJSON.
func (s *state) addMove(move string) {
	if len(s.moves) > 0 {
		s.movesJSON = append(s.movesJSON, ',')
	}
	s.movesJSON = engine.AppendJSONString(s.movesJSON, move)
	s.moves = append(s.moves, move)
}

// checkSeat refuses a move after the end or out of turn.
func (s *state) checkSeat(seat int) error {
	if s.over() {
		return engine.Errorf(engine.CodeGameOver, "the game is over")
	}
	if seat != s.toMove.seat() {
		return engine.Errorf(engine.CodeNotYourTurn, "it is %s's turn (seat %d), not seat %d's", s.toMove.name(), s.toMove.seat(), seat)
	}
	return nil
}

// check works out a stone of color c on p and refuses it when p is
// occupied, when it is suicide or when it recreates an earlier position.
func (s *state) check(p int, c color) (outcome, error) {
	name := s.board.geo.names[p]
	if s.board.cells[p] != empty {
		return outcome{}, engine.Errorf(engine.CodeIllegalMove, "%s is occupied", name)
	}
	o := s.board.try(p, c)
	if o.suicide {
		return o, engine.Errorf(engine.CodeIllegalMove, "%s is suicide: the %s stones there would have no liberty", name, c.name())
	}
	if s.board.lost[c-1].has(p) && s.repeats(o.hash) {
		return o, engine.Errorf(engine.CodeIllegalMove, "%s repeats an earlier position", name)
	}
	return o, nil
}

// Legal lists the intersections seat may play, in the seed's reading order
// (A1, B1, ... then the next row up), followed by "pass"; nil when it is not
// seat's turn or the game is over. In the stone-removal phase it lists the
// stones that resume the game, without "pass".
//
// The list belongs to the state: the caller reads it and must not modify
// it, and it is valid until the next Apply, which lets the next Legal
// rewrite it in place (the rooms only read it while they build a
// room.state). The board keeps the playable intersections of each color
// up to date at every move (legalset.go), so Legal only looks up superko
// where a stone of the mover was once captured and copies the names.
func (s *state) Legal(seat int) []string {
	if s.checkSeat(seat) != nil {
		return nil
	}
	if !s.legalFresh {
		if s.legal == nil {
			s.legal = make([]string, 0, len(s.board.cells)+1)
		}
		refused := s.superkoRefused(s.toMove)
		s.legal = s.board.appendLegal(s.legal[:0], s.toMove, &refused)
		if !s.scoring() {
			s.legal = append(s.legal, Pass)
		}
		s.legalFresh = true
	}
	return s.legal
}

// Outcome is ongoing until two passes in a row; then the player with the
// higher area score wins, white on ties (a komi of one half; under
// another komi, black wins when its area passes white's and the komi).
// With the stone-removal phase the game goes on after the two passes
// until both seats accept the marking; the area is then counted without
// the stones marked dead, and the reason is engine.ReasonScored.
func (s *state) Outcome() engine.Outcome {
	if !s.over() {
		return engine.Ongoing
	}
	sb, sw := s.finalScore()
	winner := white.seat()
	if s.blackWins(sb, sw) {
		winner = black.seat()
	}
	reason := ReasonTwoPasses
	if s.removal {
		reason = engine.ReasonScored
	}
	return engine.Outcome{Over: true, Winner: winner, Reason: reason}
}

// Score is the area score of the current position as a map[string]int
// {"black":n,"white":n}, which the board keeps move by move. The map
// belongs to the state: it is updated in place, valid until the next
// Apply, and the caller must not modify it.
func (s *state) Score() any { return s.scoreMap() }

// Board is one string per row, top row (row n) first, 'X', 'O' and '.',
// as a []string. The slice belongs to the state: its rows are replaced in
// place by later calls, so it is valid until the next Apply, and the
// caller must not modify it (copy it to keep it, as protocol.Patcher
// does).
func (s *state) Board() any { return s.boardRows() }

// Extra reports the passes in a row so far ("passes", 0 or 1 while the
// game goes on) and the stones on the board ("stones", as
// {"black":n,"white":n}); once the game is over, also "area", the area
// that the final score counts (board.areaRows). The map belongs to the
// state: it is updated in place, valid until the next Apply, and the
// caller must not modify it.
func (s *state) Extra() map[string]any {
	x := s.extraMap()
	if s.removal {
		s.markedExtra(x)
	} else if _, ok := x["area"]; !ok && s.over() {
		x["area"] = s.board.areaRows() // once: a finished game no longer changes
	}
	return x
}

// String prints the board in the seed's goban_para_str layout.
func (s *state) String() string { return s.board.String() }

// Clone returns an independent copy: a move on either leaves the other as
// it was, and either may be used on another goroutine.
func (s *state) Clone() engine.State {
	c := *s
	c.board = s.board.clone()
	c.seen = maps.Clone(s.seen)
	c.start.Black = slices.Clone(s.start.Black)
	c.start.White = slices.Clone(s.start.White)
	// The moves, which Apply only appends to, are shared up to their
	// length, clipped so that an append by the clone copies them first;
	// an append by s writes past what the clone sees.
	c.moves = slices.Clip(s.moves)
	c.startJSON = slices.Clip(s.startJSON)
	c.movesJSON = slices.Clip(s.movesJSON)
	c.legal, c.legalFresh = nil, false
	c.view = view{}
	c.deadList = slices.Clone(s.deadList)
	return &c
}

// snapshot is the JSON form of a state: the starting position and the moves
// since, which rebuild everything else (the superko history included). The
// board and side to move are stored too, as a check on the replay.
//
// A game under rule options other than the seed's has "options" (only the
// options set); one in its stone-removal phase, or ended by it, has
// "dead" (the stones marked dead) and "accepted" (the seats that accepted
// the marking) when they are not empty.
type snapshot struct {
	Variant  string       `json:"variant"`
	Start    setupSpec    `json:"start"`
	Moves    []string     `json:"moves"`
	Board    []string     `json:"board"`
	ToMove   string       `json:"toMove"`
	Options  *optionsSnap `json:"options,omitempty"`
	Dead     []string     `json:"dead,omitempty"`
	Accepted []int        `json:"accepted,omitempty"`
}

// MarshalJSON encodes the complete state deterministically, with the
// bytes encoding/json would write for a snapshot. A room saves after
// every move, so the start and the growing move list are kept encoded
// and copied rather than written again through reflection.
func (s *state) MarshalJSON() ([]byte, error) {
	n := s.board.geo.n
	b := make([]byte, 0, len(`{"variant":"19","start":,"moves":[],"board":[],"toMove":"white"}`)+
		len(s.startJSON)+len(s.movesJSON)+(n+3)*n)
	b = append(b, `{"variant":`...)
	b = engine.AppendJSONString(b, s.variant)
	b = append(b, `,"start":`...)
	b = append(b, s.startJSON...)
	b = append(b, `,"moves":[`...)
	b = append(b, s.movesJSON...)
	b = append(b, `],"board":[`...)
	for r := n - 1; r >= 0; r-- {
		if r < n-1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		for _, c := range s.board.cells[r*n : (r+1)*n] {
			b = append(b, symbols[c])
		}
		b = append(b, '"')
	}
	b = append(b, `],"toMove":`...)
	b = engine.AppendJSONString(b, s.toMove.name())
	if s.komi2 != seedKomi2 || s.handicap != 0 || s.removal {
		b = append(b, `,"options":`...)
		b = s.appendOptionsJSON(b)
	}
	return append(s.appendMarkingJSON(b), '}'), nil
}

// restore rebuilds a state from its snapshot by replaying the moves.
func restore(data []byte) (*state, error) {
	var snap snapshot
	if err := engine.DecodeStrict(data, &snap); err != nil {
		return nil, err
	}
	geo, err := geometryOf(snap.Variant)
	if err != nil {
		return nil, err
	}
	if snap.Start.ToMove == "" {
		return nil, errors.New("start: missing toMove")
	}
	s, err := newState(geo, snap.Start)
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	if o := snap.Options; o != nil {
		opts := engine.Options{Komi: o.Komi, Handicap: o.Handicap, Removal: o.Removal}
		komi2, err := checkOptions(opts)
		if err != nil {
			return nil, fmt.Errorf("options: %w", err)
		}
		s.setOptions(komi2, opts.Handicap, opts.Removal)
	}
	if len(snap.Moves) > maxSnapshotMoves {
		return nil, fmt.Errorf("%d moves, more than a game can hold", len(snap.Moves))
	}
	for i, m := range snap.Moves {
		if err := s.Apply(s.toMove.seat(), m); err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, m, err)
		}
	}
	if !slices.Equal(snap.Board, s.board.rows()) || snap.ToMove != s.toMove.name() {
		return nil, errors.New("the board or side to move does not match the moves")
	}
	if err := s.restoreMarking(snap.Dead, snap.Accepted); err != nil {
		return nil, err
	}
	return s, nil
}

// maxSnapshotMoves bounds the moves a snapshot may hold, far above any real
// game; it only guards Restore against absurd inputs.
const maxSnapshotMoves = 1 << 16
