// Package g2048 is the 2048 engine (game id "2048"), after the seed
// 003_d9f5db681e82f794: tiles slide and merge on a 4x4 grid in one of four
// directions, each merge adds its value to the score, and a new tile (2 with
// probability 0.8, 4 with 0.2) appears on a random empty cell after every
// move that changed the board. The game ends when the board is full and no
// move changes it.
//
// Two variants: "solo" (one seat) and "race" (two seats, each with its own
// board fed by the same seed, moving freely; the higher score wins once both
// boards are finished).
//
// The package also exports Bitboard, a packed board with precomputed row
// tables for bots that search many positions.
package g2048

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"

	"github.com/tabuleiro/tabuleiro/engine"
)

// ID is the game id on the wire.
const ID = "2048"

// The variant ids.
const (
	VariantSolo = "solo"
	VariantRace = "race"
)

// The outcome reasons.
const (
	// ReasonNoMoves ends a solo game: the board is full and no move changes
	// it. The winner is seat 0 if the board holds a tile of 2048 or more,
	// otherwise there is none (-1).
	ReasonNoMoves = "no_moves"
	// ReasonHigherScore ends a race once both boards are finished: the seat
	// with the higher score wins.
	ReasonHigherScore = "higher_score"
	// ReasonEqualScore ends a race once both boards are finished with equal
	// scores: a draw.
	ReasonEqualScore = "equal_score"
)

// WinningTile is the tile the seed names as the goal of the game.
const WinningTile = 2048

// pcgStream is the second PCG seed word: a board's generator is
// rand.NewPCG(seed, pcgStream).
const pcgStream = 0x2048

// Game returns the 2048 game.
func Game() engine.Game { return game{} }

type game struct{}

var info = engine.Info{
	ID:   ID,
	Name: "2048",
	Rules: "Slide all tiles of the 4x4 grid north, south, east or west; two tiles of the same " +
		"value that collide merge into one (a tile merges at most once per move) and the merged " +
		"value is added to the score. After every move that changes the board a new tile " +
		"appears on a random empty cell: 2 with probability 0.8, 4 with 0.2. The game ends when " +
		"the board is full and no move changes it; reaching the 2048 tile wins. In a race both " +
		"players get the same tile sequence and the higher final score wins.",
	Variants: []engine.Variant{
		{ID: VariantSolo, Name: "solo", Seats: 1, SeatNames: []string{"player"}},
		{ID: VariantRace, Name: "race: two boards, same tiles, higher score wins", Seats: 2, SeatNames: []string{"player 1", "player 2"}},
	},
	Levels: []engine.Level{
		{ID: LevelGuloso, Description: "expectimax over two moves and the tile between them, scoring empty cells, monotone rows and merges", Deterministic: true},
		{ID: LevelForte, Description: "expectimax several moves deep on precomputed row tables, weighing every tile 2 (0.8) and 4 (0.2), about 10 ms a move", Deterministic: true},
	},
}

// Info returns the catalog entry of 2048.
func (game) Info() engine.Info {
	out := info
	out.Variants = append([]engine.Variant(nil), info.Variants...)
	for i := range out.Variants {
		out.Variants[i].SeatNames = append([]string(nil), info.Variants[i].SeatNames...)
	}
	out.Levels = append([]engine.Level(nil), info.Levels...)
	return out
}

func seatsOf(variant string) (int, bool) {
	switch variant {
	case VariantSolo:
		return 1, true
	case VariantRace:
		return 2, true
	}
	return 0, false
}

// setupJSON is the setup object of PROTOCOL.md:
// {"board":[[0,2,0,0],...],"score":0,"seed":42}. board is required; score
// defaults to 0 and seed to New's seed argument.
type setupJSON struct {
	Board *[][]int64 `json:"board"`
	Score *int64     `json:"score"`
	Seed  *uint64    `json:"seed"`
}

// New starts a game. Without a setup each board starts with two tiles drawn
// from a generator seeded by seed; with one, every board starts from the
// setup's board and score and the generator is seeded by the setup's seed
// (or by seed when the setup has none).
func (game) New(variant string, setup json.RawMessage, seed uint64) (engine.State, error) {
	seats, ok := seatsOf(variant)
	if !ok {
		return nil, engine.Errorf(engine.CodeUnknownGame, "2048 has no variant %q", variant)
	}
	start, rngSeed, fromSetup, err := parseSetup(setup, seed)
	if err != nil {
		return nil, engine.Errorf(engine.CodeBadSetup, "2048 setup: %v", err)
	}
	s := &state{variant: variant, boards: make([]board, seats)}
	for i := range s.boards {
		b := &s.boards[i]
		b.rng = *rand.NewPCG(rngSeed, pcgStream)
		b.grid = start
		if !fromSetup {
			b.spawn()
			b.spawn()
		}
	}
	return s, nil
}

// parseSetup reads a setup strictly. An empty or null setup gives
// fromSetup=false and the seed argument.
func parseSetup(raw json.RawMessage, seed uint64) (g grid, rngSeed uint64, fromSetup bool, err error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return grid{}, seed, false, nil
	}
	var in setupJSON
	if err := engine.DecodeStrict(trimmed, &in); err != nil {
		return grid{}, 0, false, err
	}
	if in.Board == nil {
		return grid{}, 0, false, errors.New(`"board" is required`)
	}
	var score int64
	if in.Score != nil {
		score = *in.Score
	}
	if g, err = gridFromRows(*in.Board, score); err != nil {
		return grid{}, 0, false, err
	}
	rngSeed = seed
	if in.Seed != nil {
		rngSeed = *in.Seed
	}
	return g, rngSeed, true, nil
}

// board is one player's board: the grid and the generator of its tiles.
type board struct {
	grid grid
	rng  rand.PCG
}

// spawn puts a new tile on an empty cell: 2 with probability 0.8, 4 with
// 0.2, on a cell chosen uniformly among the empty ones in reading order.
// Every spawn draws exactly two 64-bit values (first the tile, then the
// cell), so two boards whose generators started from the same seed draw
// their k-th tile identically, and place it identically when their empty
// cells are the same.
func (b *board) spawn() {
	empty := 0
	for r := range Size {
		for c := range Size {
			if b.grid.cells[r][c] == 0 {
				empty++
			}
		}
	}
	if empty == 0 {
		return
	}
	value := 2
	if tenth, _ := bits.Mul64(b.rng.Uint64(), 10); tenth >= 8 {
		value = 4
	}
	idx, _ := bits.Mul64(b.rng.Uint64(), uint64(empty))
	for r := range Size {
		for c := range Size {
			if b.grid.cells[r][c] != 0 {
				continue
			}
			if idx == 0 {
				b.grid.cells[r][c] = value
				return
			}
			idx--
		}
	}
}

// state is a game of 2048 in progress: one board per seat.
type state struct {
	variant string
	boards  []board
}

// Variant is "solo" or "race".
func (s *state) Variant() string { return s.variant }

// Seats is 1 in solo, 2 in a race.
func (s *state) Seats() int { return len(s.boards) }

// Apply plays move (N, S, E or W) on seat's board, then spawns a tile on
// it. A refused move is an *engine.Error and changes nothing.
func (s *state) Apply(seat int, move string) error {
	if seat < 0 || seat >= len(s.boards) {
		return engine.Errorf(engine.CodeNotYourTurn, "seat %d is not a seat of 2048 %s", seat, s.variant)
	}
	b := &s.boards[seat]
	if b.grid.finished() {
		if s.Outcome().Over {
			return engine.Errorf(engine.CodeGameOver, "the game is over")
		}
		return engine.Errorf(engine.CodeGameOver, "the board of seat %d is finished", seat)
	}
	d, err := parseDirection(move)
	if err != nil {
		return engine.Errorf(engine.CodeIllegalMove, "%v", err)
	}
	if !b.grid.canMove(d) {
		return engine.Errorf(engine.CodeIllegalMove, "%s: nothing moves", d)
	}
	b.grid.reduce(d)
	b.spawn()
	return nil
}

// Legal lists the directions that change seat's board, in the order N, S,
// E, W; nil when the seat is out of range, its board is finished or the
// game is over.
func (s *state) Legal(seat int) []string {
	if seat < 0 || seat >= len(s.boards) || s.Outcome().Over {
		return nil
	}
	var out []string
	g := &s.boards[seat].grid
	for _, d := range directions {
		if g.canMove(d) {
			out = append(out, d.String())
		}
	}
	return out
}

// Turn is seat 0 in a solo game that goes on; in a race both players move
// freely, so no single seat is to move.
func (s *state) Turn() (int, bool) {
	if s.variant == VariantSolo && !s.Outcome().Over {
		return 0, true
	}
	return -1, false
}

// Outcome is over once every board is finished; see the Reason constants.
func (s *state) Outcome() engine.Outcome {
	for i := range s.boards {
		if !s.boards[i].grid.finished() {
			return engine.Ongoing
		}
	}
	if len(s.boards) == 1 {
		winner := -1
		if s.boards[0].grid.maxTileValue() >= WinningTile {
			winner = 0
		}
		return engine.Outcome{Over: true, Winner: winner, Reason: ReasonNoMoves}
	}
	a, b := s.boards[0].grid.score, s.boards[1].grid.score
	switch {
	case a > b:
		return engine.Outcome{Over: true, Winner: 0, Reason: ReasonHigherScore}
	case b > a:
		return engine.Outcome{Over: true, Winner: 1, Reason: ReasonHigherScore}
	}
	return engine.Outcome{Over: true, Winner: -1, Reason: ReasonEqualScore}
}

// Score is {"0":n} in solo and {"0":n,"1":n} in a race.
func (s *state) Score() any {
	out := make(map[string]int, len(s.boards))
	for i := range s.boards {
		out[fmt.Sprint(i)] = s.boards[i].grid.score
	}
	return out
}

// Board is the rows of numbers, top row first; in a race, one such board
// per seat.
func (s *state) Board() any {
	if s.variant == VariantSolo {
		return s.boards[0].grid.rows()
	}
	out := make([][][]int, len(s.boards))
	for i := range s.boards {
		out[i] = s.boards[i].grid.rows()
	}
	return out
}

// Extra is nil in solo; in a race, "finished" tells which boards have
// stopped.
func (s *state) Extra() map[string]any {
	if s.variant == VariantSolo {
		return nil
	}
	done := make([]bool, len(s.boards))
	for i := range s.boards {
		done[i] = s.boards[i].grid.finished()
	}
	return map[string]any{"finished": done}
}

// Clone returns an independent copy, generators included.
func (s *state) Clone() engine.State {
	c := &state{variant: s.variant, boards: make([]board, len(s.boards))}
	copy(c.boards, s.boards) // grids and generators are plain values
	return c
}

// snapshotJSON is the complete state: the variant and, for each board, its
// tiles, score and generator state (rand.PCG.MarshalBinary, base64).
type snapshotJSON struct {
	Variant string          `json:"variant"`
	Boards  []boardSnapshot `json:"boards"`
}

type boardSnapshot struct {
	Board [][]int64 `json:"board"`
	Score int64     `json:"score"`
	RNG   []byte    `json:"rng"`
}

// MarshalJSON encodes the complete state as snapshotJSON. It writes the
// bytes by hand (rooms save a snapshot after every move); they are the
// bytes json.Marshal gives for the same snapshotJSON, which a test checks.
func (s *state) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 160*len(s.boards))
	out = append(out, `{"variant":`...)
	out = strconv.AppendQuote(out, s.variant)
	out = append(out, `,"boards":[`...)
	for i := range s.boards {
		b := &s.boards[i]
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, `{"board":[`...)
		for r := range Size {
			if r > 0 {
				out = append(out, ',')
			}
			out = append(out, '[')
			for c := range Size {
				if c > 0 {
					out = append(out, ',')
				}
				out = strconv.AppendInt(out, int64(b.grid.cells[r][c]), 10)
			}
			out = append(out, ']')
		}
		out = append(out, `],"score":`...)
		out = strconv.AppendInt(out, int64(b.grid.score), 10)
		rngState, err := b.rng.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("2048 snapshot: board %d generator: %w", i, err)
		}
		out = append(out, `,"rng":"`...)
		out = base64.StdEncoding.AppendEncode(out, rngState)
		out = append(out, `"}`...)
	}
	out = append(out, "]}"...)
	return out, nil
}

// Restore rebuilds a game from State.MarshalJSON, validating everything: a
// corrupt snapshot is an error.
func (game) Restore(snapshot []byte) (engine.State, error) {
	var snap snapshotJSON
	if err := engine.DecodeStrict(snapshot, &snap); err != nil {
		return nil, fmt.Errorf("2048 restore: %w", err)
	}
	seats, ok := seatsOf(snap.Variant)
	if !ok {
		return nil, fmt.Errorf("2048 restore: unknown variant %q", snap.Variant)
	}
	if len(snap.Boards) != seats {
		return nil, fmt.Errorf("2048 restore: %d boards for variant %s, want %d", len(snap.Boards), snap.Variant, seats)
	}
	s := &state{variant: snap.Variant, boards: make([]board, seats)}
	for i, bs := range snap.Boards {
		g, err := gridFromRows(bs.Board, bs.Score)
		if err != nil {
			return nil, fmt.Errorf("2048 restore: board %d: %w", i, err)
		}
		s.boards[i].grid = g
		if err := s.boards[i].rng.UnmarshalBinary(bs.RNG); err != nil {
			return nil, fmt.Errorf("2048 restore: board %d generator: %w", i, err)
		}
	}
	return s, nil
}

// Bot returns the bot of the given level: LevelGuloso or LevelForte.
func (game) Bot(level string) (engine.Bot, bool) {
	switch level {
	case LevelGuloso:
		return guloso, true
	case LevelForte:
		return forte, true
	}
	return nil, false
}
