package gogame

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// analyse analyses s for its side to move with a budget and a seed.
func analyse(t testing.TB, s *state, playouts int, seed uint64) engine.Analysis {
	t.Helper()
	return enginetest.Analyse(t, Game(), s, engine.Budget{Work: playouts, Seed: seed})
}

func TestAnalyserContract(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		variant      string
		games, plies int
		playouts     int
	}{
		{"9", 1, 0, 60}, {"13", 1, 20, 40}, {"19", 1, 10, 20},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			enginetest.CheckAnalyser(t, Game(), enginetest.AnalyserConfig{
				Variant: tc.variant, Games: tc.games, MaxPlies: tc.plies, PlayBest: true,
				Budget: engine.Budget{Work: tc.playouts, Seed: 7},
				Check: func(t testing.TB, s engine.State, seat int, a engine.Analysis) {
					if a.Method != engine.MethodMCTS || a.WinRate == nil {
						t.Fatalf("analysis %+v: want MCTS with a win rate", a)
					}
					if a.Outlook == "" && a.Work != tc.playouts {
						t.Fatalf("analysis %+v: %d playouts, want %d", a, a.Work, tc.playouts)
					}
				},
			})
		})
	}
}

// wonForBlack: black's living group holds the left six columns, white's
// the right three; black has more than twice white's area whoever moves.
var wonForBlack = []string{
	". . . X X X O . .",
	". . . X . X O O O",
	". . . X X X O . O",
	". . . . . X O O O",
	". . . . . X O . .",
	". . . . X X O O O",
	". . . X X . X O .",
	". . . X . X X O O",
	". . . X X X O O .",
}

// TestAnalyseWinRate: on a position won for black, black's win rate is
// at least 0.9 and white's at most 0.15, whichever is to move (random
// playouts still let white live in black's empty columns now and then);
// the same seed gives the same analysis, and another seed stays near.
func TestAnalyseWinRate(t *testing.T) {
	for _, tc := range []struct {
		toMove   string
		min, max float64
	}{{"black", 0.9, 1}, {"white", 0, 0.15}} {
		s := fromRows(t, tc.toMove, wonForBlack...)
		a := analyse(t, s, 2000, 1)
		if *a.WinRate < tc.min || *a.WinRate > tc.max {
			t.Errorf("%s to move: win rate %.3f, want in [%.1f, %.1f] (%+v)", tc.toMove, *a.WinRate, tc.min, tc.max, a)
		}
		if again := analyse(t, s, 2000, 1); !reflect.DeepEqual(a, again) {
			t.Errorf("%s to move: the same seed gave %+v then %+v", tc.toMove, a, again)
		}
		other := analyse(t, s, 2000, 2)
		if *other.WinRate < tc.min || *other.WinRate > tc.max {
			t.Errorf("%s to move, seed 2: win rate %.3f", tc.toMove, *other.WinRate)
		}
		t.Logf("%s to move: win rate %.3f (seed 1), %.3f (seed 2), best %s", tc.toMove, *a.WinRate, *other.WinRate, a.Best[0])
	}
}

// TestAnalyseEvenStart: the empty 9x9 board with our komi of 0.5 is
// black's to win; the win rate is a rate, neither 0 nor 1, and the
// analysis prefers the move forte plays with the same seed and budget.
func TestAnalyseEvenStart(t *testing.T) {
	s := mustNew(t, "9", "")
	a := analyse(t, s, 1000, 3)
	if *a.WinRate <= 0.3 || *a.WinRate >= 1 {
		t.Errorf("empty board: black's win rate %.3f", *a.WinRate)
	}
	bot := mctsBot(mctsLevel{playouts: 1000, threads: 1})
	move, err := bot(s.Clone(), 0, rand.New(rand.NewPCG(3, 0x60a7a1)), time.Time{})
	if err != nil || move != a.Best[0] {
		t.Errorf("best %v, forte's search with the same seed plays %q (%v)", a.Best, move, err)
	}
}

// TestAnalysePassWins: after the opponent's pass, passing wins a won
// board: exact.
func TestAnalysePassWins(t *testing.T) {
	s := fromRows(t, "white", twoEyes...)
	enginetest.Replay(t, s, Pass)
	a := analyse(t, s, 100, 1)
	if a.Outlook != engine.OutlookWin || *a.WinRate != 1 || a.Best[0] != Pass {
		t.Errorf("black after white's pass on a won board: %+v, want an exact win by passing", a)
	}
}

// TestAnalysePassLoses: after the opponent's pass on a board that loses
// as it stands, passing is marked an exact loss: on the finished twoEyes
// board it is all white has (besides filling its own eyes), and with room
// left to play the search prefers another move.
func TestAnalysePassLoses(t *testing.T) {
	s := fromRows(t, "black", twoEyes...)
	enginetest.Replay(t, s, Pass)
	a := analyse(t, s, 100, 1)
	want := []engine.MoveValue{{Move: Pass, Outlook: engine.OutlookLoss, WinRate: engine.Float(0)}}
	if a.Best[0] != Pass || *a.WinRate != 0 || !reflect.DeepEqual(a.Moves, want) {
		t.Errorf("white after black's pass on the finished board: %+v", a)
	}
	s = fromRows(t, "black", wonForBlack...)
	enginetest.Replay(t, s, Pass)
	a = analyse(t, s, 200, 1)
	last := a.Moves[len(a.Moves)-1]
	if last.Move != Pass || last.Outlook != engine.OutlookLoss || *last.WinRate != 0 || a.Best[0] == Pass || len(a.Moves) < 2 {
		t.Errorf("white after black's pass on a lost board: %+v, want pass marked lost and another move preferred", a)
	}
}
