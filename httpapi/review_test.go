package httpapi

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

func TestReview(t *testing.T) {
	t.Parallel()
	f := engine.Float
	table := func(had engine.Outlook, moves ...engine.MoveValue) engine.Analysis {
		return engine.Analysis{Method: engine.MethodTable, Outlook: had, Moves: moves}
	}
	mv := func(m string, o engine.Outlook) engine.MoveValue { return engine.MoveValue{Move: m, Outlook: o} }
	mcts := func(seat int, w float64) engine.Analysis {
		return engine.Analysis{Seat: seat, Method: engine.MethodMCTS, WinRate: f(w)}
	}
	ab := func(seat int, e float64) engine.Analysis {
		return engine.Analysis{Seat: seat, Method: engine.MethodAlphaBeta, Eval: f(e)}
	}
	dir := func(m string, e float64) engine.MoveValue { return engine.MoveValue{Move: m, Eval: f(e)} }
	next := func(seat int, a engine.Analysis) *after { v := afterOf(seat, a); return &v }
	end := func(seat int, out engine.Outcome) *after { v := afterEnd(seat, out); return &v }
	for _, tc := range []struct {
		name     string
		before   engine.Analysis
		played   string
		next     *after
		want     string
		wantDrop float64 // checked when win rates are known
	}{
		{"table keeps the win", table(engine.OutlookWin, mv("a1", engine.OutlookWin), mv("b2", engine.OutlookLoss)), "a1", nil, "", 0},
		{"table win to loss", table(engine.OutlookWin, mv("a1", engine.OutlookWin), mv("b2", engine.OutlookLoss)), "b2", nil, MarkBlunder, 0},
		{"table win to draw", table(engine.OutlookWin, mv("a1", engine.OutlookDraw)), "a1", nil, MarkMistake, 0},
		{"table draw to loss", table(engine.OutlookDraw, mv("a1", engine.OutlookLoss)), "a1", nil, MarkMistake, 0},
		{"table loss stays a loss", table(engine.OutlookLoss, mv("a1", engine.OutlookLoss)), "a1", nil, "", 0},
		{"table, move from the next position", table(engine.OutlookDraw), "c3", next(0, engine.Analysis{Seat: 1, Method: engine.MethodTable, Outlook: engine.OutlookWin}), MarkMistake, 0},
		{"win rate holds", mcts(0, 0.55), "E5", next(0, mcts(1, 0.47)), "", 0.02},
		{"win rate gained", mcts(0, 0.40), "E5", next(0, mcts(1, 0.30)), "", -0.30},
		{"win rate inaccuracy", mcts(0, 0.60), "E5", next(0, mcts(1, 0.52)), MarkInaccuracy, 0.12},
		{"win rate mistake", mcts(0, 0.60), "E5", next(0, mcts(1, 0.65)), MarkMistake, 0.25},
		{"win rate blunder", mcts(1, 0.80), "pass", next(1, mcts(0, 0.60)), MarkBlunder, 0.40},
		{"win rate, game lost on the board", mcts(0, 0.50), "pass", end(0, engine.Outcome{Over: true, Winner: 1}), MarkBlunder, 0.50},
		{"win rate, game won on the board", mcts(0, 0.90), "pass", end(0, engine.Outcome{Over: true, Winner: 0}), "", -0.10},
		{"win rate, last move unknown", mcts(0, 0.90), "pass", nil, "", 0},
		{"proved win thrown", engine.Analysis{Seat: 0, Method: engine.MethodMCTS, Outlook: engine.OutlookWin, WinRate: f(1)}, "A1",
			next(0, engine.Analysis{Seat: 1, Method: engine.MethodMCTS, Outlook: engine.OutlookWin, WinRate: f(1)}), MarkBlunder, 0},
		{"expectimax best", engine.Analysis{Method: engine.MethodExpectimax, Moves: []engine.MoveValue{dir("N", 100), dir("W", 95)}}, "W", nil, "", 0},
		{"expectimax inaccuracy", engine.Analysis{Method: engine.MethodExpectimax, Moves: []engine.MoveValue{dir("N", 100), dir("W", 85)}}, "W", nil, MarkInaccuracy, 0},
		{"expectimax mistake", engine.Analysis{Method: engine.MethodExpectimax, Moves: []engine.MoveValue{dir("N", 100), dir("W", 70)}}, "W", nil, MarkMistake, 0},
		{"expectimax blunder", engine.Analysis{Method: engine.MethodExpectimax, Moves: []engine.MoveValue{dir("N", 100), dir("S", 0)}}, "S", nil, MarkBlunder, 0},
		{"alpha-beta lets a threat in", ab(0, 500), "a1", next(0, ab(1, 1.3e8)), MarkBlunder, 0},
		{"alpha-beta lets its threat slip", ab(0, 1.3e8), "a1", next(0, ab(1, 300)), MarkMistake, 0},
		{"alpha-beta keeps its threat", ab(0, 1.3e8), "a1", next(0, ab(1, -1.3e8)), "", 0},
		{"alpha-beta quiet", ab(0, 500), "a1", next(0, ab(1, 2000)), "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, drop := review(tc.before, tc.played, tc.next)
			if got != tc.want {
				t.Errorf("mark %q, want %q", got, tc.want)
			}
			wantDrop := tc.before.WinRate != nil && tc.next != nil && tc.next.winRate != nil && tc.before.Outlook == ""
			if (drop != nil) != wantDrop {
				t.Fatalf("drop %v, want one: %v", drop, wantDrop)
			}
			if drop != nil && (*drop-tc.wantDrop > 1e-9 || tc.wantDrop-*drop > 1e-9) {
				t.Errorf("drop %v, want %v", *drop, tc.wantDrop)
			}
		})
	}
}

func TestWorstDrop(t *testing.T) {
	t.Parallel()
	d := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name  string
		drops []*float64
		want  int // -1: none
	}{
		{"none known", []*float64{nil, nil}, -1},
		{"only gains", []*float64{d(-0.1), d(0), d(-0.3)}, -1},
		{"the largest", []*float64{d(0.05), d(0.31), nil, d(0.3), d(-0.5)}, 1},
		{"the first of equals", []*float64{d(0.2), d(0.2)}, 0},
		{"ply 0", []*float64{d(0.4), d(0.1)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plies := make([]plyJSON, len(tc.drops))
			for i, x := range tc.drops {
				plies[i].Drop = x
			}
			got := -1
			if w := worstDrop(plies); w != nil {
				got = *w
			}
			if got != tc.want {
				t.Errorf("worst %d, want %d", got, tc.want)
			}
		})
	}
}
