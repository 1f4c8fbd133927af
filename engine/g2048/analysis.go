package g2048

import (
	"slices"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// analysisNodes is the default budget of an analysis in chance nodes: a
// tenth of forte's, because a game of forte lasts thousands of moves (see
// docs/engines/2048.md for the cost and what it changes).
const analysisNodes = 150_000

// Analyse implements engine.Analyser with forte's expectimax (forte.go) on
// seat's board: iterative deepening within budget.Work chance nodes
// (default analysisNodes; forte's own budget is 1.5 million) and no clock,
// so the answer depends on the board and the budget alone (2048 has chance,
// but the search averages over it; the seed is not used). Best is the
// direction of highest expected value, which forte plays at the same
// budget; Eval is that value (see engine.Analysis); Moves are the values of
// every legal direction, at the deepest iteration completed (Depth). It
// analyses a direction even when it is the only one, which forte plays
// without a search.
func (game) Analyse(es engine.State, seat int, b engine.Budget) (engine.Analysis, error) {
	s, ok := es.(*state)
	if !ok {
		return engine.Analysis{}, engine.Errorf(engine.CodeUnknownGame, "2048 analysis: a %T is not a 2048 game", es)
	}
	if s.Outcome().Over {
		return engine.Analysis{}, engine.Errorf(engine.CodeGameOver, "the game is over")
	}
	if seat < 0 || seat >= len(s.boards) {
		return engine.Analysis{}, engine.Errorf(engine.CodeNotYourTurn, "seat %d is not a seat of 2048 %s", seat, s.variant)
	}
	legal := s.Legal(seat)
	if len(legal) == 0 {
		return engine.Analysis{}, engine.Errorf(engine.CodeGameOver, "the board of seat %d is finished", seat)
	}
	cfg := forteConfig
	cfg.nodeBudget = analysisNodes
	if b.Work > 0 {
		cfg.nodeBudget = b.Work
	}
	bb := bitboardOf(&s.boards[seat].grid)
	next := movesOf(bb)
	a := engine.Analysis{Seat: seat, Method: engine.MethodExpectimax, Unit: engine.UnitChanceNodes, Best: []string{legal[0]}}
	if next == [4]Bitboard{bb, bb, bb, bb} {
		// Only when a tile above MaxBitboardTile made the packed board
		// differ from the real one: the first legal move, as forte plays.
		return a, nil
	}
	best, stats := deepen(bb, next, cfg, time.Time{})
	a.Work, a.Depth = stats.nodes, stats.depth
	for i, d := range directions {
		if next[i] == bb || !slices.Contains(legal, d.String()) {
			continue
		}
		v := engine.Float(stats.values[i])
		a.Moves = append(a.Moves, engine.MoveValue{Move: d.String(), Eval: v})
		if d == best {
			a.Best, a.Eval = []string{d.String()}, v
		}
	}
	return a, nil
}
