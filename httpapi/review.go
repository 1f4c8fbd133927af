package httpapi

import (
	"slices"

	"github.com/tabuleiro/tabuleiro/engine"
)

// The marks of a game review, as lichess prints them beside a move
// (docs/protocol.md, "Analysis").
const (
	MarkInaccuracy = "?!"
	MarkMistake    = "?"
	MarkBlunder    = "??"
)

// Thresholds of the marks. Win rates are the mover's, 0 to 1, from Monte
// Carlo searches whose noise is a few hundredths at the default budget, so
// the least mark asks for a drop of a tenth (lichess marks a drop of its
// winning chances by 0.1, 0.2 and 0.3 on a -1..1 scale; an MCTS win rate
// is noisier than a Stockfish evaluation, so these are twice as wide).
const (
	winRateInaccuracy = 0.10
	winRateMistake    = 0.20
	winRateBlunder    = 0.30
	// evalShare: with per-move evaluations (2048's expectimax), the share
	// of the best move's value that the move played gave up.
	evalInaccuracy = 0.10
	evalMistake    = 0.25
	evalBlunder    = 0.50
	// threat is the size of orbito's evaluation when the search sees a
	// threat that cannot be stopped (engine.Analysis.Eval: about ±1.3e8).
	threat = 1e8
)

// after is what the position after a move is worth to the side that
// played it: the analysis of the next position seen from the mover, or the
// result when the game ended on the board. Fields not known are nil/empty.
type after struct {
	winRate *float64
	eval    *float64
	outlook engine.Outlook
}

// afterOf turns next, the analysis of the position after seat's move, into
// seat's view of it. Orbito's evaluation is symmetric (the line potential
// of one side is minus the other's), so it changes sign with the side.
func afterOf(seat int, next engine.Analysis) after {
	a := after{winRate: next.WinRate, eval: next.Eval, outlook: next.Outlook}
	if next.Seat == seat {
		return a
	}
	a.outlook = next.Outlook.Opposite()
	if next.WinRate != nil {
		a.winRate = engine.Float(1 - *next.WinRate)
	}
	if next.Eval != nil && next.Method == engine.MethodAlphaBeta {
		a.eval = engine.Float(-*next.Eval)
	} else {
		a.eval = nil
	}
	return a
}

// afterEnd is the value of a game over on the board for seat.
func afterEnd(seat int, out engine.Outcome) after {
	switch {
	case out.Winner == seat:
		return after{winRate: engine.Float(1), outlook: engine.OutlookWin}
	case out.Winner < 0:
		return after{winRate: engine.Float(0.5), outlook: engine.OutlookDraw}
	}
	return after{winRate: engine.Float(0), outlook: engine.OutlookLoss}
}

// review marks the move played from the position that before analyses:
// MarkBlunder, MarkMistake, MarkInaccuracy or "" (a good move, or nothing
// known). drop is the mover's loss of win rate when both win rates are
// known (Monte Carlo methods), nil otherwise.
//
//   - a solved table (before.Method table): the outlook of the move played
//     against the position's; a win thrown to a loss is a blunder, a win to
//     a draw or a draw to a loss a mistake;
//   - a proved outlook on both sides (a search that proved it) the same;
//   - win rates: a drop of 0.3 is a blunder, 0.2 a mistake, 0.1 an
//     inaccuracy;
//   - per-move evaluations (expectimax): the share of the best move's value
//     the move played gave up, 0.5, 0.25, 0.1;
//   - orbito's alpha-beta: letting in a threat that cannot be stopped is a
//     blunder, letting one of one's own slip a mistake.
func review(before engine.Analysis, played string, next *after) (mark string, drop *float64) {
	if before.Method == engine.MethodTable {
		i := slices.IndexFunc(before.Moves, func(m engine.MoveValue) bool { return m.Move == played })
		got := engine.Outlook("")
		if i >= 0 {
			got = before.Moves[i].Outlook
		} else if next != nil {
			got = next.outlook
		}
		return outlookMark(before.Outlook, got), nil
	}
	if next != nil && before.Outlook != "" && next.outlook != "" {
		if m := outlookMark(before.Outlook, next.outlook); m != "" {
			return m, nil
		}
	}
	if before.WinRate != nil && next != nil && next.winRate != nil {
		d := *before.WinRate - *next.winRate
		switch {
		case d >= winRateBlunder:
			mark = MarkBlunder
		case d >= winRateMistake:
			mark = MarkMistake
		case d >= winRateInaccuracy:
			mark = MarkInaccuracy
		}
		return mark, &d
	}
	if before.Method == engine.MethodExpectimax {
		return evalMark(before, played), nil
	}
	if before.Method == engine.MethodAlphaBeta && before.Eval != nil && next != nil && next.eval != nil {
		b, a := *before.Eval, *next.eval
		switch {
		case b > -threat && a <= -threat:
			return MarkBlunder, nil
		case b >= threat && a < threat:
			return MarkMistake, nil
		}
	}
	return "", nil
}

// outlookMark compares the outlook a position had for the mover with the
// one its move left.
func outlookMark(had, left engine.Outlook) string {
	if had == "" || left == "" || !had.Better(left) {
		return ""
	}
	if had == engine.OutlookWin && left == engine.OutlookLoss {
		return MarkBlunder
	}
	return MarkMistake
}

// evalMark marks a move by the share of the best move's value it gave up,
// from the per-move evaluations of the analysis.
func evalMark(before engine.Analysis, played string) string {
	best, got, found := 0.0, 0.0, false
	for _, m := range before.Moves {
		if m.Eval == nil {
			continue
		}
		best = max(best, *m.Eval)
		if m.Move == played {
			got, found = *m.Eval, true
		}
	}
	if !found || best <= 0 {
		return ""
	}
	switch share := (best - got) / best; {
	case share >= evalBlunder:
		return MarkBlunder
	case share >= evalMistake:
		return MarkMistake
	case share >= evalInaccuracy:
		return MarkInaccuracy
	}
	return ""
}

// worstDrop returns the index of the ply whose move lost its player the
// most win rate, when some move lost any (nil otherwise).
func worstDrop(plies []plyJSON) *int {
	worst := -1
	for i, p := range plies {
		if p.Drop != nil && *p.Drop > 0 && (worst < 0 || *p.Drop > *plies[worst].Drop) {
			worst = i
		}
	}
	if worst < 0 {
		return nil
	}
	return &worst
}
