package queens

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// analyse analyses s for its side to move.
func analyse(t testing.TB, s *state, b engine.Budget) engine.Analysis {
	t.Helper()
	return enginetest.Analyse(t, Game(), s, b)
}

func TestAnalyserContract(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		variant         string
		games, playouts int
	}{
		{"tradicional", 4, 300}, {"x-random", 4, 300}, {"impar", 2, 200}, {"grande", 1, 100},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			enginetest.CheckAnalyser(t, Game(), enginetest.AnalyserConfig{
				Variant: tc.variant, Games: tc.games, PlayBest: true, Budget: engine.Budget{Work: tc.playouts, Seed: 5},
				Check: func(t testing.TB, s engine.State, seat int, a engine.Analysis) {
					if a.Method != engine.MethodMCTS || a.WinRate == nil || a.Work > tc.playouts || a.Outlook == engine.OutlookDraw {
						t.Fatalf("analysis %+v: want MCTS within %d playouts, a win rate, no draw", a, tc.playouts)
					}
					switch a.Outlook {
					case engine.OutlookWin:
						if *a.WinRate != 1 {
							t.Fatalf("proved won, win rate %v", *a.WinRate)
						}
					case engine.OutlookLoss:
						if *a.WinRate != 0 {
							t.Fatalf("proved lost, win rate %v", *a.WinRate)
						}
					}
				},
			})
		})
	}
}

// TestAnalyseSolvesEndgames: in x-random endgames with three placements
// left, the analysis at its default budget proves every position (plain
// minimax over the engine's moves says which), and in a won one its best
// move wins.
func TestAnalyseSolvesEndgames(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	outlooks := map[engine.Outlook]int{}
	for i := range 150 {
		s := xRandomEndgame(t, uint64(i), rng)
		if s.outcome.Over {
			continue
		}
		a := analyse(t, s, engine.Budget{Seed: uint64(i)})
		want := engine.OutlookLoss
		if exactWins(s) {
			want = engine.OutlookWin
		}
		if a.Outlook != want {
			t.Fatalf("position %d: outlook %q, minimax says %q (%+v)", i, a.Outlook, want, a)
		}
		outlooks[want]++
		if want != engine.OutlookWin {
			continue
		}
		c := s.clone()
		me := s.toMove
		enginetest.Replay(t, c, a.Best[0])
		if !(c.outcome.Over && c.outcome.Winner == me) && (c.outcome.Over || exactWins(c)) {
			t.Fatalf("position %d: best %s does not win", i, a.Best[0])
		}
	}
	if outlooks[engine.OutlookWin] == 0 || outlooks[engine.OutlookLoss] == 0 {
		t.Errorf("outlooks %v: want wins and losses", outlooks)
	}
}

// TestAnalyseIsForte: the preferred move is forte's with the same budget
// (forte's, the default: cut to 3,000 playouts here to keep the test
// short) and random source, on positions of a tradicional game.
func TestAnalyseIsForte(t *testing.T) {
	defer func(n int) { fortePlayouts = n }(fortePlayouts)
	fortePlayouts = 3000
	s := mustNewSeeded(t, "tradicional", 1)
	for ply := 0; !s.outcome.Over; ply++ {
		a := analyse(t, s, engine.Budget{Seed: uint64(ply)})
		move, err := forte(s.clone(), s.toMove, rand.New(rand.NewPCG(uint64(ply), 0x91ee)), time.Time{})
		if err != nil || move != a.Best[0] {
			t.Fatalf("ply %d: best %v, forte plays %q (%v)", ply, a.Best, move, err)
		}
		if !slices.Contains(s.Legal(s.toMove), move) {
			t.Fatalf("ply %d: %s is not legal", ply, move)
		}
		enginetest.Replay(t, s, move)
	}
}
