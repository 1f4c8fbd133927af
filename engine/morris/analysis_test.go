package morris

import (
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// analyse analyses s for its side to move, failing the test on error.
func analyse(t testing.TB, s *state) engine.Analysis {
	t.Helper()
	return enginetest.Analyse(t, Game(), s, engine.Budget{})
}

// outlookOfMove is the outlook the analysis gives move, "" when absent.
func outlookOfMove(a engine.Analysis, move string) engine.Outlook {
	for _, mv := range a.Moves {
		if mv.Move == move {
			return mv.Outlook
		}
	}
	return ""
}

func TestAnalyserContract(t *testing.T) {
	enginetest.CheckAnalyser(t, Game(), enginetest.AnalyserConfig{Variant: variant3, Games: 40, PlayBest: true})
}

// TestAnalyseStart: the game is a draw with perfect play, and perfeito's
// first move keeps it.
func TestAnalyseStart(t *testing.T) {
	a := analyse(t, mustNew(t, ""))
	if a.Outlook != engine.OutlookDraw || a.Method != engine.MethodTable {
		t.Fatalf("start: %+v, want a table's draw", a)
	}
	bot, _ := Game().Bot(LevelPerfeito)
	move, err := bot(mustNew(t, ""), 0, nil, time.Time{})
	if err != nil || a.Best[0] != move {
		t.Errorf("best %v, perfeito plays %q (%v)", a.Best, move, err)
	}
}

// forcedWin reports whether the side to move of s can force a line within
// d plies, by the engine's own rules (Apply, Outcome: repetitions
// included): a plain search, independent of the solved table.
func forcedWin(s engine.State, d int) bool {
	seat, ok := s.Turn()
	if !ok || d < 1 {
		return false
	}
	for _, m := range s.Legal(seat) {
		c := s.Clone()
		if err := c.Apply(seat, m); err != nil {
			panic(err)
		}
		if o := c.Outcome(); o.Over {
			if o.Winner == seat {
				return true
			}
			continue
		}
		if forcedLoss(c, d-1) {
			return true
		}
	}
	return false
}

// forcedLoss reports whether every move of the side to move of s lets the
// opponent force a line within d plies of s.
func forcedLoss(s engine.State, d int) bool {
	seat, ok := s.Turn()
	if !ok || d < 2 {
		return false
	}
	for _, m := range s.Legal(seat) {
		c := s.Clone()
		if err := c.Apply(seat, m); err != nil {
			panic(err)
		}
		if c.Outcome().Over || !forcedWin(c, d-1) {
			return false
		}
	}
	return true
}

// TestAnalyseAgreesWithSearch: on every position of the movement phase,
// a forced line the search finds within three plies is a win in the
// analysis, and a forced loss within four plies a loss; so is every move
// that leads to one. The search uses only the engine's rules.
func TestAnalyseAgreesWithSearch(t *testing.T) {
	var wins, losses, lossMoves int
	for _, p := range validPositions(movable) {
		s := newState(p)
		a := analyse(t, s)
		switch {
		case forcedWin(s, 3):
			wins++
			if a.Outlook != engine.OutlookWin {
				t.Fatalf("%q %v to move: forced win within 3 plies, analysis says %q", p.board.rows(), p.toMove, a.Outlook)
			}
		case forcedLoss(s, 4):
			losses++
			if a.Outlook != engine.OutlookLoss {
				t.Fatalf("%q %v to move: forced loss within 4 plies, analysis says %q", p.board.rows(), p.toMove, a.Outlook)
			}
		}
		seat, _ := s.Turn()
		for _, m := range s.Legal(seat) {
			c := s.Clone()
			_ = c.Apply(seat, m)
			if c.Outcome().Over || !forcedWin(c, 3) {
				continue
			}
			lossMoves++
			if got := outlookOfMove(a, m); got != engine.OutlookLoss {
				t.Fatalf("%q %v to move: %s lets the opponent force a line within 3 plies, analysis says %q",
					p.board.rows(), p.toMove, m, got)
			}
			if a.Outlook != engine.OutlookLoss && slices.Contains(a.Best, m) {
				t.Fatalf("%q %v to move: losing move %s in best %v of a %q position", p.board.rows(), p.toMove, m, a.Best, a.Outlook)
			}
		}
	}
	t.Logf("forced wins %d, forced losses %d, moves into a forced loss %d", wins, losses, lossMoves)
	if wins == 0 || losses == 0 || lossMoves == 0 {
		t.Errorf("the search found %d wins, %d losses, %d losing moves: want some of each", wins, losses, lossMoves)
	}
}

// TestAnalyseMarksTheLosingMove: X to move on
//
//	O O X
//	. O .
//	X . X
//
// holds O's row 1 with c1; moving it (c1c2) lets O play b2c1 and win.
func TestAnalyseMarksTheLosingMove(t *testing.T) {
	s := mustNew(t, `{"board":[[-1,-1,1],[0,-1,0],[1,0,1]],"toMove":"X"}`)
	a := analyse(t, s)
	if got := outlookOfMove(a, "c1c2"); got != engine.OutlookLoss {
		t.Errorf("c1c2: outlook %q, want loss (%+v)", got, a)
	}
	if a.Outlook == engine.OutlookLoss || slices.Contains(a.Best, "c1c2") {
		t.Errorf("outlook %q, best %v: want a position not lost, without c1c2", a.Outlook, a.Best)
	}
	after := s.Clone()
	enginetest.Replay(t, after, "c1c2")
	next := analyse(t, after.(*state))
	if next.Outlook != engine.OutlookWin || next.Best[0] != "b2c1" {
		t.Errorf("after c1c2, O: %+v, want a win by b2c1", next)
	}
}

// TestAnalyseRefusals: the contract's errors.
func TestAnalyseRefusals(t *testing.T) {
	an := Game().(engine.Analyser)
	if _, err := an.Analyse(mustNew(t, ""), 1, engine.Budget{}); engine.CodeOf(err) != engine.CodeNotYourTurn {
		t.Errorf("seat 1 at the start: %v, want %s", err, engine.CodeNotYourTurn)
	}
	over := mustNew(t, `{"board":[[0,1,-1],[0,1,-1],[1,0,-1]]}`)
	if _, err := an.Analyse(over, 0, engine.Budget{}); engine.CodeOf(err) != engine.CodeGameOver {
		t.Errorf("finished game: %v, want %s", err, engine.CodeGameOver)
	}
	if _, err := an.Analyse(nil, 0, engine.Budget{}); engine.CodeOf(err) != engine.CodeUnknownGame {
		t.Errorf("nil state: %v, want %s", err, engine.CodeUnknownGame)
	}
}
