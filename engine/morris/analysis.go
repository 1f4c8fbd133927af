package morris

import (
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Analyse implements engine.Analyser from the solved game (solve.go), the
// table perfeito plays from. Every legal move gets its exact outlook for
// the mover (perfectScore's sign): a line now wins, a move that makes the
// third occurrence of a position draws, otherwise the table's result of the
// position it leads to. The position's outlook is the best of them; Best
// is perfeito's move, then the other moves with that outlook in Legal
// order. The budget is not used.
//
// The table ignores the repetition rule beyond the next move. That changes
// no result: the winner of a won position wins in strictly fewer plies
// each move, so it never repeats a position of its winning line, except
// where the game already passed twice through a position of that line
// before, which this analysis does not look for.
func (game) Analyse(es engine.State, seat int, _ engine.Budget) (engine.Analysis, error) {
	s, err := engine.AnalysedState[*state](es, seat, "morris")
	if err != nil {
		return engine.Analysis{}, err
	}
	sol := solved()
	a := engine.Analysis{Seat: seat, Method: engine.MethodTable}
	for _, m := range s.pos.moves() {
		o := outlookOf(perfectScore(sol, s, m))
		a.Moves = append(a.Moves, engine.MoveValue{Move: m.String(), Outlook: o})
		if o.Better(a.Outlook) {
			a.Outlook = o
		}
	}
	best := choosePerfect(s, time.Time{}).String()
	a.Best = []string{best}
	for _, mv := range a.Moves {
		if mv.Outlook == a.Outlook && mv.Move != best {
			a.Best = append(a.Best, mv.Move)
		}
	}
	return a, nil
}

// outlookOf is the outlook of a perfectScore.
func outlookOf(score int) engine.Outlook {
	switch {
	case score > 0:
		return engine.OutlookWin
	case score < 0:
		return engine.OutlookLoss
	}
	return engine.OutlookDraw
}
