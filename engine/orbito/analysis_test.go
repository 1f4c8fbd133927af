package orbito

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// analyse analyses s for its side to move within work positions.
func analyse(t testing.TB, s *state, work int) engine.Analysis {
	t.Helper()
	return enginetest.Analyse(t, Game(), s, engine.Budget{Work: work})
}

// outlookValue maps an outlook to +1, 0, -1 (and 2 when unknown).
func outlookValue(o engine.Outlook) int {
	switch o {
	case engine.OutlookWin:
		return 1
	case engine.OutlookDraw:
		return 0
	case engine.OutlookLoss:
		return -1
	}
	return 2
}

func TestAnalyserContract(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		variant string
		games   int
		work    int
	}{
		{"2", 30, 0}, // the table: the budget is not used
		{"3", 3, 2_000},
		{"4", 2, 2_000},
		{"5", 1, 1_000},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			enginetest.CheckAnalyser(t, Game(), enginetest.AnalyserConfig{
				Variant: tc.variant, Games: tc.games, Budget: engine.Budget{Work: tc.work}, PlayBest: true,
				Check: func(t testing.TB, s engine.State, seat int, a engine.Analysis) {
					// The leaves' parents count all their children before
					// they look at the budget: it may be passed by a board's
					// squares.
					cells := len(s.(*state).cells)
					if tc.variant != "2" && (a.Method != engine.MethodAlphaBeta || (a.Eval == nil) == (a.Outlook == "") || a.Work > tc.work+cells) {
						t.Fatalf("search analysis %+v: want alpha-beta within %d positions, an eval or an outlook", a, tc.work)
					}
				},
			})
		})
	}
}

// TestAnalyseMatchesSolver: on random positions of Orbito-2 (every stage
// of the game, either colour to move), the analysis's outlook is the
// solved table's value of the position, every move's outlook is the
// table's value after it, and on endgames both agree with plain minimax
// over the engine's rules.
func TestAnalyseMatchesSolver(t *testing.T) {
	tb := solved2()
	rng := rand.New(rand.NewPCG(16, 2))
	seen := map[int]int{}
	for i := range 3000 {
		s := randomPosition(2, rng, rng.IntN(16))
		if s.outcome.Over {
			continue
		}
		a := analyse(t, s, 0)
		want := tableValue(perfectValue(tb, s))
		if got := outlookValue(a.Outlook); got != want {
			t.Fatalf("position %d %q %s to move: analysis %q, table %d", i, s.cells.rows(s.geo), s.toMove.name(), a.Outlook, want)
		}
		seen[want]++
		for _, mv := range a.Moves {
			c := s.Clone().(*state)
			enginetest.Replay(t, c, mv.Move)
			var after int
			switch out := c.outcome; {
			case !out.Over:
				after = -tableValue(perfectValue(tb, c))
			case out.Winner == -1:
				after = 0
			case out.Winner == s.toMove.seat():
				after = 1
			default:
				after = -1
			}
			if got := outlookValue(mv.Outlook); got != after {
				t.Fatalf("position %d %q: move %s %q, the table gives %d after it", i, s.cells.rows(s.geo), mv.Move, mv.Outlook, after)
			}
		}
		if s.cells.count(empty) <= 6 {
			if m := minimaxValue(s); m != want {
				t.Fatalf("position %d %q: table %d, minimax %d", i, s.cells.rows(s.geo), want, m)
			}
		}
	}
	if seen[1] == 0 || seen[0] == 0 || seen[-1] == 0 {
		t.Errorf("values seen %v, want wins, draws and losses", seen)
	}
	// The empty board: black wins, only by an inner opening.
	a := analyse(t, newState(geometries[2], "2", make(board, 16), black), 0)
	if a.Outlook != engine.OutlookWin || !slices.Equal(a.Best, []string{"b2", "c2", "b3", "c3"}) {
		t.Errorf("empty board: %+v, want a win by b2, c2, b3, c3", a)
	}
}

// TestAnalyseSearchProves: on endgames of 3 to 5 orbits, an outlook the
// search gives is the exact value (plain minimax over the engine's rules),
// and with a budget that covers the whole tree it always gives one. A
// middle-game position gets an evaluation instead.
func TestAnalyseSearchProves(t *testing.T) {
	proved := map[int]int{}
	for n := 3; n <= maxOrbits; n++ {
		for i, s := range endgames(n, 6, 12, uint64(n)) {
			want := minimaxValue(s)
			for _, work := range []int{50, 1 << 30} {
				a := analyse(t, s, work)
				if a.Outlook == "" {
					if work > 50 {
						t.Fatalf("%d orbits, endgame %d with the whole tree: no outlook (%+v)", n, i, a)
					}
					continue
				}
				if got := outlookValue(a.Outlook); got != want {
					t.Fatalf("%d orbits, endgame %d %q: analysis %q at %d positions, minimax %d", n, i, s.cells.rows(s.geo), a.Outlook, work, want)
				}
				proved[want]++
			}
		}
	}
	if proved[1] == 0 || proved[0] == 0 || proved[-1] == 0 {
		t.Errorf("proved %v: want wins, draws and losses", proved)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	s := randomPosition(4, rng, 10)
	a := analyse(t, s, 20_000)
	if a.Outlook != "" || a.Eval == nil || a.Depth < 2 || a.Work > 20_000+64 {
		t.Errorf("4 orbits after 10 plies at 20,000 positions: %+v, want an evaluation at depth 2 or more", a)
	}
}
