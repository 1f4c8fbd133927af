package gogame

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// analysisPlayouts is the default budget of an analysis, by board size:
// forte's search on one thread, sized so that a position costs a few tens
// of milliseconds of CPU on every board (docs/engines/go.md).
var analysisPlayouts = map[int]int{9: 3000, 13: 1500, 19: 800}

// Analyse implements engine.Analyser with forte's Monte Carlo tree search
// (mcts.go) on one thread, within budget.Work playouts (default
// analysisPlayouts for the board), no clock and a random source seeded
// with budget.Seed, so the answer depends on the position, the budget and
// the seed alone. Best is the move the search simulated most, the one
// forte plays; WinRate is the share of the simulations through it that the
// side to move won (under our rules: area score of the finished playout,
// white winning ties); Moves are the root moves the search simulated, with
// their own rates and visits.
//
// After the opponent's pass, passing ends the game on the board as it
// stands, which the analysis knows exactly: when that board wins for the
// side to move, the position is won (Outlook win, WinRate 1, Best pass,
// which is what forte plays there); when it loses, Moves carries pass as a
// loss (WinRate 0) beside the searched moves.
func (game) Analyse(es engine.State, seat int, b engine.Budget) (engine.Analysis, error) {
	s, ok := es.(*state)
	if !ok {
		return engine.Analysis{}, engine.Errorf(engine.CodeUnknownGame, "go analysis: a %T is not a go game", es)
	}
	if err := s.checkSeat(seat); err != nil {
		return engine.Analysis{}, err
	}
	playouts := b.Work
	if playouts <= 0 {
		playouts = analysisPlayouts[s.board.geo.n]
	}
	a := engine.Analysis{Seat: seat, Method: engine.MethodMCTS, Unit: engine.UnitPlayouts}
	leads := s.leads()
	if s.passes == 1 && leads {
		a.Outlook, a.WinRate, a.Best = engine.OutlookWin, engine.Float(1), []string{Pass}
		a.Moves = []engine.MoveValue{{Move: Pass, Outlook: engine.OutlookWin, WinRate: engine.Float(1)}}
		return a, nil
	}
	// After the opponent's pass (and leads is false here) passing ends the
	// game on a board that loses: exact, and not searched.
	var losingPass []engine.MoveValue
	if s.passes == 1 {
		losingPass = []engine.MoveValue{{Move: Pass, Outlook: engine.OutlookLoss, WinRate: engine.Float(0)}}
	}
	root, last, children := s.mctsRoot(leads)
	if len(children) == 0 {
		// Nothing but own-eye fills and that pass: forte passes.
		a.Best, a.WinRate, a.Moves = []string{Pass}, engine.Float(0), losingPass
		if slices.Equal(s.Legal(seat), []string{Pass}) {
			a.Outlook = engine.OutlookLoss
		}
		return a, nil
	}
	rng := rand.New(rand.NewPCG(b.Seed, 0x60a7a1))
	stats := searchRoot(root, last, children, 1, playouts, time.Time{}, rng)
	best := mostSimulated(stats)
	for i, st := range stats {
		a.Work += int(st.visits)
		if st.visits == 0 {
			continue
		}
		rate := engine.Float(min(1, max(0, float64(st.wins)/float64(st.visits))))
		a.Moves = append(a.Moves, engine.MoveValue{Move: root.name(s, children[i].move), WinRate: rate, Visits: int(st.visits)})
		if i == best {
			a.WinRate = rate
		}
	}
	a.Moves = append(a.Moves, losingPass...)
	a.Best = []string{root.name(s, children[best].move)}
	if a.WinRate == nil {
		a.WinRate = engine.Float(0.5) // cannot happen with a budget of one playout or more
	}
	return a, nil
}
