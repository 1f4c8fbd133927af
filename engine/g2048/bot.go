package g2048

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// LevelGuloso is the bot level id of the greedy expectimax bot.
const LevelGuloso = "guloso"

// The chances of the spawned tile, as the seed gives them.
const (
	probTwo  = 0.8
	probFour = 0.2
)

// guloso is the bot of level "guloso". The seed defines no bot; this one
// looks two moves ahead with the random tile in between (expectimax):
// for each move it can play, in the order N, S, E, W, it averages over
// every empty cell and both tiles (2 with 0.8, 4 with 0.2) the best
// Bitboard.Evaluate reachable with one more move, and plays the move with
// the highest average, the first in that order on ties. A position where
// the second move is impossible is worth lostValue. It does not use rng, and its
// work is bounded (at most 4 x 15 x 2 x 4 evaluations) so it answers in
// microseconds, long before any deadline; it reads no clock.
func guloso(s engine.State, seat int, _ *rand.Rand, _ time.Time) (string, error) {
	st, ok := s.(*state)
	if !ok {
		return "", fmt.Errorf("2048 bot: state of type %T is not a 2048 game", s)
	}
	legal := st.Legal(seat)
	if len(legal) == 0 {
		return "", errors.New("2048 bot: seat has no legal move")
	}
	b := bitboardOf(&st.boards[seat].grid)
	best, bestValue := "", math.Inf(-1)
	for _, d := range Directions {
		next, _ := b.Move(d)
		if next == b {
			continue
		}
		if v := expectAfterSpawn(next); v > bestValue {
			best, bestValue = d.String(), v
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

// expectAfterSpawn is the chance node: the value of b averaged over every
// empty cell and both tiles.
func expectAfterSpawn(b Bitboard) float64 {
	var total float64
	cells := 0
	for r := range Size {
		for c := range Size {
			if b.Exponent(r, c) != 0 {
				continue
			}
			cells++
			total += probTwo*bestEvaluation(b.WithExponent(r, c, 1)) +
				probFour*bestEvaluation(b.WithExponent(r, c, 2))
		}
	}
	if cells == 0 {
		return bestEvaluation(b)
	}
	return total / float64(cells)
}

// lostValue is the value of a board no move changes, far below any
// Evaluate.
const lostValue = -1e12

// bestEvaluation is the max node at the horizon: the best Evaluate after
// one move, or lostValue when no move changes b (the game would be over).
func bestEvaluation(b Bitboard) float64 {
	best := lostValue
	for _, d := range Directions {
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
