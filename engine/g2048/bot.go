package g2048

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// LevelGuloso is the bot level id of the greedy expectimax bot.
const LevelGuloso = "guloso"

// The chances of the spawned tile, as the seed gives them (0.8 and 0.2), as
// integer weights out of spawnWeights so that the search is exact.
const (
	weightTwo    = 4
	weightFour   = 1
	spawnWeights = weightTwo + weightFour
)

// lostValue is the value of a board that no move changes, far below any
// Evaluate.
const lostValue int64 = -1e12

// botLegal is what a bot plays from: es as a 2048 state and seat's legal
// moves, refused when es is another game's or seat has no move.
func botLegal(es engine.State, seat int) (*state, []string, error) {
	s, ok := es.(*state)
	if !ok {
		return nil, nil, fmt.Errorf("2048 bot: state of type %T is not a 2048 game", es)
	}
	legal := s.Legal(seat)
	if len(legal) == 0 {
		return nil, nil, errors.New("2048 bot: seat has no legal move")
	}
	return s, legal, nil
}

// guloso is the bot of level "guloso". The seed defines no bot; this one
// looks two moves ahead with the random tile in between (expectimax). For
// each direction that changes the board, in the order N, S, E, W, it takes
// the expected value of the tile that follows: over every empty cell
// (equally likely) and both tiles (2 with 0.8, 4 with 0.2), the best
// Bitboard.Evaluate reachable with one more move (lostValue when none). It
// plays the direction with the highest expected value, the first in that
// order on exact ties (the arithmetic is in integers, so symmetric
// positions tie exactly). It does not use rng. Its work is bounded (at most
// 4 x 15 x 2 x 4 evaluations, microseconds), so it answers long before any
// deadline without reading the clock.
func guloso(s engine.State, seat int, _ *rand.Rand, _ time.Time) (string, error) {
	st, legal, err := botLegal(s, seat)
	if err != nil {
		return "", err
	}
	b := bitboardOf(&st.boards[seat].grid)
	best := ""
	var bestTotal, bestCells int64
	for _, d := range directions {
		next, _ := b.Move(d)
		if next == b {
			continue
		}
		total, cells := expectAfterSpawn(next)
		// total/cells > bestTotal/bestCells, with cells > 0.
		if best == "" || total*bestCells > bestTotal*cells {
			best, bestTotal, bestCells = d.String(), total, cells
		}
	}
	for _, m := range legal {
		if m == best {
			return best, nil
		}
	}
	// Only when a tile above MaxBitboardTile made the packed board differ
	// from the real one.
	return legal[0], nil
}

// expectAfterSpawn is the chance node after a move: it returns the sum over
// every empty cell of weightTwo x the value with a 2 there plus weightFour
// x the value with a 4, and the number of empty cells; the expected value is
// total / (cells x spawnWeights).
func expectAfterSpawn(b Bitboard) (total, cells int64) {
	for r := range Size {
		for c := range Size {
			if b.Exponent(r, c) != 0 {
				continue
			}
			cells++
			total += weightTwo*bestEvaluation(b.WithExponent(r, c, 1)) +
				weightFour*bestEvaluation(b.WithExponent(r, c, 2))
		}
	}
	if cells == 0 {
		// A move always frees a cell; kept for a board given from outside.
		return spawnWeights * bestEvaluation(b), 1
	}
	return total, cells
}

// bestEvaluation is the max node at the horizon: the best Evaluate after
// one move, or lostValue when no move changes b (the game would be over).
func bestEvaluation(b Bitboard) int64 {
	best := lostValue
	for _, d := range directions {
		if next, _ := b.Move(d); next != b {
			best = max(best, next.Evaluate())
		}
	}
	return best
}

// bitboardOf packs g, clamping tiles above MaxBitboardTile to it.
func bitboardOf(g *grid) Bitboard {
	var b Bitboard
	for r := range Size {
		for c := range Size {
			v := g.cells[r][c]
			e := uint8(0)
			for v > 1 && e < 15 {
				v >>= 1
				e++
			}
			b = b.WithExponent(r, c, e)
		}
	}
	return b
}
