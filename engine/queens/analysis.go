package queens

import (
	"math/rand/v2"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Analyse implements engine.Analyser with forte: a move that wins at once
// is an exact win (Outlook win, WinRate 1, Best the first such move, as
// forte plays it, Moves every such move); otherwise forte's MCTS-Solver
// (bots.go) runs within budget.Work playouts (default fortePlayouts,
// 30,000), no clock and a random source seeded with budget.Seed, so the
// answer depends on the position, the budget and the seed alone. Best is
// forte's move; WinRate the share of the playouts through it that the side
// to move won (1 or 0 once the solver proved it); Outlook the exact result
// when the solver proved the position; Moves the root moves it tried, with
// their rates, visits and proved results. The game has no draws.
func (game) Analyse(es engine.State, seat int, b engine.Budget) (engine.Analysis, error) {
	s, err := engine.AnalysedState[*state](es, seat, "queens")
	if err != nil {
		return engine.Analysis{}, err
	}
	ms := s.moves(seat)
	a := engine.Analysis{Seat: seat, Method: engine.MethodMCTS, Unit: engine.UnitPlayouts}
	for _, m := range ms {
		if s.winsAtOnce(seat, m) {
			a.Moves = append(a.Moves, engine.MoveValue{Move: s.moveName(m), Outlook: engine.OutlookWin, WinRate: engine.Float(1)})
		}
	}
	if len(a.Moves) > 0 {
		a.Outlook, a.WinRate, a.Best = engine.OutlookWin, engine.Float(1), []string{a.Moves[0].Move}
		return a, nil
	}
	playouts := b.Work
	if playouts <= 0 {
		playouts = fortePlayouts
	}
	root := forteSearch(s, ms, rand.New(rand.NewPCG(b.Seed, 0x91ee)), time.Time{}, playouts)
	best := root.choice(ms)
	a.Best = []string{s.moveName(best)}
	a.Work = int(root.visits)
	// root.proven is for the player who moved into the root, the
	// opponent of the side to move.
	switch root.proven {
	case provenLoss:
		a.Outlook = engine.OutlookWin
	case provenWin:
		a.Outlook = engine.OutlookLoss
	}
	byMove := make(map[move]*uctNode, len(root.children))
	for _, c := range root.children {
		byMove[c.move] = c
	}
	for _, m := range ms {
		c := byMove[m]
		if c == nil || c.visits == 0 {
			continue
		}
		mv := engine.MoveValue{Move: s.moveName(m), Visits: int(c.visits)}
		rate := c.wins / c.visits
		switch c.proven {
		case provenWin:
			mv.Outlook, rate = engine.OutlookWin, 1
		case provenLoss:
			mv.Outlook, rate = engine.OutlookLoss, 0
		}
		mv.WinRate = engine.Float(rate)
		a.Moves = append(a.Moves, mv)
		if m == best {
			a.WinRate = mv.WinRate
		}
	}
	if a.WinRate == nil {
		a.WinRate = engine.Float(0.5) // cannot happen with a budget of one playout or more
	}
	return a, nil
}
