// Package orbito is the rules engine of Orbito-n (seed 000): a 2n x 2n board
// of n concentric orbits on which two players take turns placing a stone and
// then turning every stone one step counter-clockwise on its orbit, until
// someone has k = 2n stones in a row after a turn or the board is full.
//
// Variants are the orbit counts "2".."5". Moves are squares in the seed's
// notation ("d1": column letter, row 1 at the top). Seat 0 is black ('X') and
// moves first, seat 1 is white ('O'). The bots facil and normal are the
// seed's strategies with its tie-break: the first square in reading order;
// forte searches (search.go) and perfeito plays Orbito-2 from its solution
// (solve.go).
package orbito

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// game is the Orbito entry of the catalog. It has no state of its own.
type game struct{}

// Game returns the Orbito game.
func Game() engine.Game { return game{} }

// Info is the catalog entry: variants "2".."5" and the bot levels.
func (game) Info() engine.Info {
	info := engine.Info{
		ID:   "orbito",
		Name: "Orbito",
		Rules: "Orbito-n is played on a 2n x 2n board made of n square orbits. " +
			"Black (X) starts; on a turn a player places one stone on a free square, " +
			"then every stone on the board moves one step counter-clockwise along its orbit. " +
			"After a turn, a player with 2n stones in a row (a full row, column or main diagonal) wins; " +
			"if both players have one, or the board fills up without one, the game is a draw.",
		Draws: true,
	}
	for n := minOrbits; n <= maxOrbits; n++ {
		info.Variants = append(info.Variants, engine.Variant{
			ID:        strconv.Itoa(n),
			Name:      fmt.Sprintf("%d orbits, %dx%d, %d in a row", n, 2*n, 2*n, 2*n),
			Seats:     2,
			SeatNames: []string{"black X", "white O"},
		})
	}
	for _, l := range levels {
		info.Levels = append(info.Levels, engine.Level{ID: l.id, Description: l.description, Deterministic: l.deterministic})
	}
	return info
}

// geometryOf returns the geometry of a variant id.
func geometryOf(variant string) (*geometry, error) {
	for n := minOrbits; n <= maxOrbits; n++ {
		if variant == strconv.Itoa(n) {
			return geometries[n], nil
		}
	}
	return nil, engine.Errorf(engine.CodeUnknownGame, "orbito has no variant %q (want \"2\" to \"5\" orbits)", variant)
}

// setup is the setup object of PROTOCOL.md: the stones as they stand now
// and the side to move.
type setup struct {
	Black  []string `json:"black"`
	White  []string `json:"white"`
	ToMove *string  `json:"toMove"`
}

// New starts a game of variant from the empty board, or from setup.
func (game) New(variant string, rawSetup json.RawMessage, _ uint64) (engine.State, error) {
	g, err := geometryOf(variant)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(rawSetup)) == 0 || string(bytes.TrimSpace(rawSetup)) == "null" {
		return newState(g, variant, make(board, g.size*g.size), black), nil
	}
	s, err := parseSetup(g, variant, rawSetup)
	if err != nil {
		return nil, engine.Errorf(engine.CodeBadSetup, "orbito setup: %v", err)
	}
	return s, nil
}

// parseSetup reads and checks a setup: every square on the board and listed
// once, stone counts that play can reach (see checkCounts), and a game that
// is not already over.
func parseSetup(g *geometry, variant string, raw []byte) (*state, error) {
	var in setup
	if err := decodeStrict(raw, &in, "black", "white", "toMove"); err != nil {
		return nil, err
	}
	if in.ToMove == nil {
		return nil, fmt.Errorf(`toMove is missing (want "black" or "white")`)
	}
	toMove, err := parseColour(*in.ToMove)
	if err != nil {
		return nil, fmt.Errorf("toMove: %w", err)
	}
	cells := make(board, g.size*g.size)
	for _, side := range []struct {
		name    string
		stone   stone
		squares []string
	}{{"black", black, in.Black}, {"white", white, in.White}} {
		for _, name := range side.squares {
			sq, err := g.parseSquare(name)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", side.name, err)
			}
			if cells[sq] != empty {
				return nil, fmt.Errorf("%s: %s is listed twice", side.name, name)
			}
			cells[sq] = side.stone
		}
	}
	if err := checkCounts(cells, toMove); err != nil {
		return nil, err
	}
	s := newState(g, variant, cells, toMove)
	if s.outcome.Over {
		return nil, fmt.Errorf("the game is already over (%s): nothing left to play", s.outcome.Reason)
	}
	return s, nil
}

// checkCounts accepts the stone counts play can reach. From the empty board
// black moves first, so black to move has as many stones as white and white
// to move has one fewer than black. The seed also asks both colours' bots
// about one position with equal counts, so a side to move may have as many
// stones as its opponent or one fewer, whichever colour started: the mover
// never has more stones than the opponent, and at most one fewer. That set
// is closed under play, so every position reached from an accepted setup is
// accepted by Restore too.
func checkCounts(cells board, toMove stone) error {
	mover, other := cells.count(toMove), cells.count(toMove.opponent())
	if mover != other && mover != other-1 {
		return fmt.Errorf("%d black and %d white stones with %s to move cannot happen: "+
			"the side to move has as many stones as the other or one fewer",
			cells.count(black), cells.count(white), toMove.name())
	}
	return nil
}

func parseColour(s string) (stone, error) {
	switch s {
	case "black":
		return black, nil
	case "white":
		return white, nil
	}
	return empty, fmt.Errorf(`%q is not a colour (want "black" or "white")`, s)
}

// decodeStrict decodes exactly one JSON object into v, refusing unknown
// fields, field names in another case (which encoding/json would otherwise
// match) and trailing data. fields are the allowed field names.
func decodeStrict(raw []byte, v any, fields ...string) error {
	var keys map[string]json.RawMessage
	if err := engine.DecodeStrict(raw, &keys); err != nil {
		return err
	}
	for k := range keys {
		if !slices.Contains(fields, k) {
			return fmt.Errorf("unknown field %q (want %s)", k, strings.Join(fields, ", "))
		}
	}
	return engine.DecodeStrict(raw, v)
}

// Restore rebuilds a state from its MarshalJSON bytes, checking that the
// snapshot is a position play can reach (finished games included).
func (game) Restore(raw []byte) (engine.State, error) {
	var snap snapshot
	if err := decodeStrict(raw, &snap, "variant", "board", "toMove"); err != nil {
		return nil, fmt.Errorf("orbito snapshot: %w", err)
	}
	g, err := geometryOf(snap.Variant)
	if err != nil {
		return nil, fmt.Errorf("orbito snapshot: %w", err)
	}
	toMove, err := parseColour(snap.ToMove)
	if err != nil {
		return nil, fmt.Errorf("orbito snapshot: toMove: %w", err)
	}
	if len(snap.Board) != g.size {
		return nil, fmt.Errorf("orbito snapshot: %d board rows, want %d", len(snap.Board), g.size)
	}
	cells := make(board, 0, g.size*g.size)
	for r, row := range snap.Board {
		if len(row) != g.size {
			return nil, fmt.Errorf("orbito snapshot: row %d is %q, want %d squares", r+1, row, g.size)
		}
		for _, ch := range []byte(row) {
			switch ch {
			case 'X':
				cells = append(cells, black)
			case 'O':
				cells = append(cells, white)
			case '.':
				cells = append(cells, empty)
			default:
				return nil, fmt.Errorf("orbito snapshot: row %d is %q: %q is not X, O or .", r+1, row, ch)
			}
		}
	}
	if err := checkCounts(cells, toMove); err != nil {
		return nil, fmt.Errorf("orbito snapshot: %w", err)
	}
	return newState(g, snap.Variant, cells, toMove), nil
}

// Bot returns the bot of a level: "facil", "normal", "forte" or "perfeito".
func (game) Bot(id string) (engine.Bot, bool) {
	for _, l := range levels {
		if l.id == id {
			return botOf(l), true
		}
	}
	return nil, false
}

// botOf wraps a level's choice in the engine.Bot contract.
func botOf(l level) engine.Bot {
	return func(es engine.State, seat int, rng *rand.Rand, deadline time.Time) (string, error) {
		s, ok := es.(*state)
		if !ok {
			return "", fmt.Errorf("orbito bot %s: not an orbito state (%T)", l.id, es)
		}
		if s.outcome.Over {
			return "", fmt.Errorf("orbito bot %s: the game is over", l.id)
		}
		if seat != s.toMove.seat() {
			return "", fmt.Errorf("orbito bot %s: seat %d is not to move", l.id, seat)
		}
		return s.geo.names[l.choose(s, rng, deadline)], nil
	}
}
