package queens

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// exactWins reports whether the side to move in s (not over) can force a
// win, by plain minimax over the engine's moves (the game has no draws).
func exactWins(s *state) bool {
	me := s.toMove
	for _, m := range s.moves(me) {
		c := s.clone()
		c.play(me, m)
		if c.outcome.Over {
			if c.outcome.Winner == me {
				return true
			}
			continue
		}
		if !exactWins(c) {
			return true
		}
	}
	return false
}

// TestForteSolvesEndgames: in x-random endgames with three placements
// left, forte's search proves the result (MCTS-Solver) of every position,
// won or lost, and plays a winning move in every won one, including those
// where no move wins at once.
func TestForteSolvesEndgames(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	won, deep := 0, 0
	for i := range 200 {
		s := xRandomEndgame(t, uint64(i), rng)
		if s.outcome.Over {
			continue
		}
		me := s.toMove
		root := forteSearch(s, s.moves(me), rand.New(rand.NewPCG(uint64(i), 2)), time.Time{}, fortePlayouts)
		wins := exactWins(s)
		// root.proven is for the player who moved into the root.
		if want := map[bool]int8{true: provenLoss, false: provenWin}[wins]; root.proven != want {
			t.Fatalf("position %d: mover wins %v, root proved %d, want %d", i, wins, root.proven, want)
		}
		if !wins {
			continue
		}
		won++
		var winning []string
		immediate := false
		for _, m := range s.moves(me) {
			c := s.clone()
			c.play(me, m)
			if c.outcome.Over && c.outcome.Winner == me {
				immediate = true
			}
			if c.outcome.Over && c.outcome.Winner == me || !c.outcome.Over && !exactWins(c) {
				winning = append(winning, s.moveName(m))
			}
		}
		if !immediate {
			deep++
		}
		got, err := forte(s.clone(), me, rand.New(rand.NewPCG(uint64(i), 1)), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(winning, got) {
			t.Fatalf("position %d: forte played %s; the winning moves are %v", i, got, winning)
		}
	}
	if won == 0 || deep == 0 {
		t.Errorf("%d won positions, %d without an immediate win; want some of each", won, deep)
	}
}

// xRandomEndgame is the x-random game of seed after random placements
// (from rng) until three are left, or until it ended.
func xRandomEndgame(t testing.TB, seed uint64, rng *rand.Rand) *state {
	t.Helper()
	s := mustNewSeeded(t, "x-random", seed)
	for range 2*xRandomHand - 3 {
		if s.outcome.Over {
			break
		}
		ms := s.moves(s.toMove)
		s.play(s.toMove, ms[rng.IntN(len(ms))])
	}
	return s
}

// mustNewSeeded starts a game of variant from its initial position with
// the given seed (x-random draws its hand from it).
func mustNewSeeded(t testing.TB, variant string, seed uint64) *state {
	t.Helper()
	return enginetest.New(t, Game(), variant, "", seed).(*state)
}
