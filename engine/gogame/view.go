package gogame

import (
	"math/bits"
	"strings"
)

// view holds what a room reads from the state after every move, made once
// and updated in place so that reading it allocates nothing: the board
// rows, the score and the extra fields. Its values belong to the state;
// they are valid until the next Apply, and the caller must not modify
// them (a room encodes them into its frame at once). A clone starts with
// an empty view of its own.
type view struct {
	// rows are the board's rows, top row first; board is rows as an any,
	// boxed once. A row that changed is written again into arena and
	// rows[i] becomes a slice of it: strings.Builder only appends, so the
	// rows handed out earlier stay as they were.
	rows  []string
	board any
	arena strings.Builder
	// score is {"black":n,"white":n}; stones and extra the same for the
	// stones and the extra fields (extra["stones"] is stones).
	score, stones map[string]int
	extra         map[string]any
}

// arenaBoards is the size of a view's arena in whole boards: when it is
// full, a new one is started and every row is written into it, so that
// the old one is freed once nobody holds its rows (one allocation every
// few dozen moves, and never more than two boards' rows alive).
const arenaBoards = 8

// allRows marks every row of a board as changed.
const allRows = ^uint32(0)

// boardRows returns the rows of the board as an any holding a []string,
// writing again the rows that changed since the last call.
func (s *state) boardRows() any {
	v, b := &s.view, s.board
	n := b.geo.n
	if v.rows == nil {
		v.rows = make([]string, n)
		v.board = v.rows
		b.dirtyRows = allRows
	}
	dirty := b.dirtyRows & (1<<n - 1)
	b.dirtyRows = 0
	if dirty == 0 {
		return v.board
	}
	if v.arena.Cap()-v.arena.Len() < bits.OnesCount32(dirty)*n {
		v.arena.Reset()
		v.arena.Grow(arenaBoards * n * n)
		dirty = 1<<n - 1
	}
	var line [len(columns)]byte
	for ; dirty != 0; dirty &= dirty - 1 {
		r := bits.TrailingZeros32(dirty) // row r+1, printed at n-1-r
		for i, c := range b.cells[r*n : (r+1)*n] {
			line[i] = symbols[c]
		}
		start := v.arena.Len()
		v.arena.Write(line[:n])
		v.rows[n-1-r] = v.arena.String()[start:]
	}
	return v.board
}

// scoreMap returns the area score as {"black":n,"white":n}.
func (s *state) scoreMap() map[string]int {
	if s.view.score == nil {
		s.view.score = make(map[string]int, 2)
	}
	s.view.score["black"], s.view.score["white"] = s.finalScore()
	return s.view.score
}

// extraMap returns the extra fields: the passes in a row, the stones of
// each color and the rule options that are not the seed's ("komi",
// "handicap", "removal").
func (s *state) extraMap() map[string]any {
	v := &s.view
	if v.extra == nil {
		v.stones = make(map[string]int, 2)
		v.extra = map[string]any{"stones": v.stones}
		// The rule options, when they are not the seed's: they never
		// change in a game.
		if s.komi2 != seedKomi2 {
			v.extra["komi"] = float64(s.komi2) / 2
		}
		if s.handicap != 0 {
			v.extra["handicap"] = s.handicap
		}
		if s.removal {
			v.extra["removal"] = true
		}
	}
	v.stones["black"], v.stones["white"] = s.board.count()
	v.extra["passes"] = s.passes // 0, 1 or 2: boxed without allocating
	return v.extra
}
