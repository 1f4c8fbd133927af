package orbito

import (
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// analysisPositions is the default budget of an analysis on 3 to 5 orbits:
// the positions forte's alpha-beta may visit (forte itself may visit
// forteNodes within its deadline). See docs/engines/orbito.md for what a
// position costs.
const analysisPositions = 100_000

// Analyse implements engine.Analyser. On 2 orbits it reads the solved game
// (perfeito's table, built on first use: see WarmUp): every legal move's
// exact outlook, the best of them, perfeito's move first in Best and the
// other moves that keep the outlook after it. On 3 to 5 orbits it runs
// forte's search (alpha-beta, iterative deepening) within budget.Work
// positions (default analysisPositions) and no deadline, so the answer
// depends on the position and the budget alone: Best is forte's move and
// Eval its score (the line potential, see engine.Analysis), or Outlook when
// the search proved the result (a forced line, or the board searched to
// its end).
func (game) Analyse(es engine.State, seat int, b engine.Budget) (engine.Analysis, error) {
	s, err := engine.AnalysedState[*state](es, seat, "orbito")
	if err != nil {
		return engine.Analysis{}, err
	}
	if s.geo.orbits == 2 {
		return analyseSolved(s), nil
	}
	return analyseSearch(s, b.Work), nil
}

// outlookOfValue is the outlook of a table value.
func outlookOfValue(v uint8) engine.Outlook {
	switch v {
	case valueWin:
		return engine.OutlookWin
	case valueLoss:
		return engine.OutlookLoss
	}
	return engine.OutlookDraw
}

// analyseSolved is the analysis of an Orbito-2 position from the table.
func analyseSolved(s *state) engine.Analysis {
	t := solved2()
	mover, other := masks2(s)
	a := engine.Analysis{Seat: s.toMove.seat(), Method: engine.MethodTable}
	for _, sq := range s.geo.reading {
		if s.cells[sq] != empty {
			continue
		}
		v, nm, no := t.judgeMove(mover, other, sq)
		if v == valueUnknown {
			v = negate(t.get(t.key(nm, no)))
		}
		o := outlookOfValue(v)
		a.Moves = append(a.Moves, engine.MoveValue{Move: s.geo.names[sq], Outlook: o})
		if o.Better(a.Outlook) {
			a.Outlook = o
		}
	}
	best := s.geo.names[choosePerfeito(s, nil, time.Time{})]
	a.Best = []string{best}
	for _, mv := range a.Moves {
		if mv.Outlook == a.Outlook && mv.Move != best {
			a.Best = append(a.Best, mv.Move)
		}
	}
	return a
}

// analyseSearch is the analysis of a position of 3 to 5 orbits by forte's
// search within work positions (0: analysisPositions).
func analyseSearch(s *state, work int) engine.Analysis {
	if work <= 0 {
		work = analysisPositions
	}
	se := newSearcher(s, work, time.Time{})
	se.slot = engine.AcquireSearch()
	sq, score, depth := se.search(s, forteMaxDepth)
	se.slot.Release()
	a := engine.Analysis{
		Seat: s.toMove.seat(), Method: engine.MethodAlphaBeta, Best: []string{s.geo.names[sq]},
		Work: se.nodes, Unit: engine.UnitPositions, Depth: depth,
	}
	switch {
	case score >= scoreForced:
		a.Outlook = engine.OutlookWin
	case score <= -scoreForced:
		a.Outlook = engine.OutlookLoss
	case depth == s.cells.count(empty):
		// Searched to the full board: every leaf was the end of the game,
		// and neither side can force a line.
		a.Outlook = engine.OutlookDraw
	default:
		a.Eval = engine.Float(float64(score))
	}
	return a
}
