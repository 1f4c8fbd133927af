package morris

import (
	"testing"
	"time"
)

// TestSolutionConsistent is the solver's exhaustive check: every valid
// position (placement and movement phases, blocked passes included) holds
// the result and ply count its children give it. A position whose previous
// mover has a line is lost in 0 plies; otherwise it is won in 1 + the
// fewest plies of its children lost for the opponent when there is one,
// lost in 1 + the most plies of its children when all are won for the
// opponent, and drawn otherwise. The repetition rule is left to the bot
// (choosePerfect), so it is not part of the values.
func TestSolutionConsistent(t *testing.T) {
	sol := solved()
	counts := map[int8]int{}
	for _, p := range validPositions(func(position) bool { return true }) {
		k := positionKey(p)
		res, plies := sol.result[k], sol.plies[k]
		counts[res]++
		if p.board.winner() != free {
			if res != resultLoss || plies != 0 {
				t.Fatalf("%q: finished, stored %d in %d plies", p.board.rows(), res, plies)
			}
			continue
		}
		wantRes, wantPlies := resultLoss, uint16(0)
		bestWin, anyDraw := uint16(0), false
		for _, m := range p.moves() {
			c := positionKey(p.after(m))
			switch sol.result[c] {
			case resultLoss:
				if wantRes != resultWin || sol.plies[c]+1 < bestWin {
					bestWin = sol.plies[c] + 1
				}
				wantRes = resultWin
			case resultDraw:
				anyDraw = true
			case resultWin:
				wantPlies = max(wantPlies, sol.plies[c]+1)
			}
		}
		switch {
		case wantRes == resultWin:
			wantPlies = bestWin
		case anyDraw:
			wantRes, wantPlies = resultDraw, 0
		}
		if res != wantRes || res != resultDraw && plies != wantPlies {
			t.Fatalf("%q %v to move: stored %d in %d plies, children give %d in %d",
				p.board.rows(), p.toMove, res, plies, wantRes, wantPlies)
		}
	}
	t.Logf("valid positions by result for the side to move: %v", counts)
	if counts[resultWin] == 0 || counts[resultDraw] == 0 || counts[resultLoss] == 0 {
		t.Errorf("results %v: want wins, draws and losses", counts)
	}
}

// TestPerfeitoNeverLosesADrawnPosition: from every drawn position perfeito
// moves to a position that is not won for the opponent (a draw, or the
// third occurrence, which is also one).
func TestPerfeitoNeverLosesADrawnPosition(t *testing.T) {
	sol := solved()
	positions := validPositions(func(p position) bool {
		return sol.result[positionKey(p)] == resultDraw
	})
	if len(positions) < 1000 {
		t.Fatalf("only %d drawn positions", len(positions))
	}
	for _, p := range positions {
		m := choosePerfect(newState(p), time.Time{})
		child := p.after(m)
		if r := sol.result[positionKey(child)]; child.board.winner() != p.toMove && r == resultWin {
			t.Fatalf("%q %v to move, drawn: perfeito plays %v to a position won for the opponent", p.board.rows(), p.toMove, m)
		}
	}
}
