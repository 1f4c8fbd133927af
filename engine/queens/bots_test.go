package queens

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// randomPositions plays random games of every variant and returns the
// positions met along the way that are still going.
func randomPositions(t testing.TB, games int) []*state {
	t.Helper()
	var out []*state
	for i := range games {
		v := variants[i%len(variants)]
		s := mustNew(t, v.id, "")
		rng := rand.New(rand.NewPCG(uint64(i), 99))
		for !s.outcome.Over {
			out = append(out, s.clone())
			ms := s.moves(s.toMove)
			s.play(s.toMove, ms[rng.IntN(len(ms))])
		}
	}
	return out
}

// TestSeedBotsAgainstReference: apressado plays the first of Legal and
// gulosa the naive reference's greedy move, in positions from random games.
func TestSeedBotsAgainstReference(t *testing.T) {
	for i, s := range randomPositions(t, 16) {
		seat := s.toMove
		got, err := apressado(s.Clone(), seat, nil, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if want := s.Legal(seat)[0]; got != want {
			t.Fatalf("position %d: apressado plays %s, want %s", i, got, want)
		}
		got, err = gulosa(s.Clone(), seat, nil, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := refGreedy(refFromState(s), seat)
		if got != want.String() {
			t.Fatalf("position %d: gulosa plays %s, reference %s", i, got, want)
		}
	}
}

// TestGulosaTieBreak: on an empty 8x8 board every queen on the four centre
// squares attacks 27 squares, the most; the first of them in the game's
// order, 3,3, is chosen. With a hand of R then D, the D's attacks win even
// though R comes first in the hand.
func TestGulosaTieBreak(t *testing.T) {
	tests := []struct{ setup, want string }{
		{`{"hands":{"primeiro":["D"],"segundo":["D"]},"toMove":"primeiro"}`, "D@3,3"},
		{`{"hands":{"primeiro":["R","D"],"segundo":["D"]},"toMove":"primeiro"}`, "D@3,3"},
		// A knight attacks at most 8 squares, first from 2,2.
		{`{"hands":{"primeiro":["C","R"],"segundo":["D"]},"toMove":"primeiro"}`, "C@2,2"},
		// A king attacks 8 from 1,1 and a knight 8 from 2,2: R comes first
		// in the hand, so R@1,1 is kept on the tie.
		{`{"hands":{"primeiro":["R","C"],"segundo":["D"]},"toMove":"primeiro"}`, "R@1,1"},
	}
	for _, tt := range tests {
		s := mustNew(t, "tradicional", tt.setup)
		got, err := gulosa(s, First, nil, time.Time{})
		if err != nil || got != tt.want {
			t.Errorf("gulosa(%s) = %q, %v, want %q", tt.setup, got, err, tt.want)
		}
	}
}

// TestRoletaUniform: roleta draws every valid move about equally often and
// the same move for the same random source.
func TestRoletaUniform(t *testing.T) {
	// Five queens and a hand of a king and a knight leave a handful of
	// valid moves.
	s := mustNew(t, "tradicional", `{"placed":{"0,0":"D","1,2":"D","2,4":"D","3,6":"D","4,1":"D"},
		"hands":{"primeiro":["R","C"],"segundo":["D"]},"toMove":"primeiro"}`)
	legal := s.Legal(First)
	if len(legal) < 2 {
		t.Fatalf("test position has %d moves, want several", len(legal))
	}
	counts := map[string]int{}
	rng := rand.New(rand.NewPCG(7, 7))
	const per = 1000
	for range per * len(legal) {
		m, err := roleta(s, First, rng, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		counts[m]++
	}
	for _, m := range legal {
		if c := counts[m]; c < per*8/10 || c > per*12/10 {
			t.Errorf("move %s drawn %d times out of %d, want about %d", m, c, per*len(legal), per)
		}
	}
	if len(counts) != len(legal) {
		t.Errorf("roleta drew %d distinct moves, want the %d legal ones", len(counts), len(legal))
	}
	a, _ := roleta(s, First, rand.New(rand.NewPCG(3, 4)), time.Time{})
	b, _ := roleta(s, First, rand.New(rand.NewPCG(3, 4)), time.Time{})
	if a != b {
		t.Errorf("same random source gave %s and %s", a, b)
	}
}

// TestForteStrength: forte wins most games against every seed bot, from
// both seats. The games are deterministic (no deadline).
func TestForteStrength(t *testing.T) {
	for _, opp := range []string{LevelApressado, LevelRoleta, LevelGulosa} {
		wins, games := 0, 4
		for i := range games {
			levels, me := [2]string{LevelForte, opp}, First
			if i%2 == 1 {
				levels, me = [2]string{opp, LevelForte}, Second
			}
			res, err := PlayMatch("tradicional", levels, uint64(i), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome.Winner == me {
				wins++
			}
		}
		if wins < games-1 {
			t.Errorf("forte won %d of %d against %s, want at least %d", wins, games, opp, games-1)
		}
	}
}

// TestForteWinsAtOnce: with a move that leaves the opponent stuck, forte
// plays it even with its deadline long past.
func TestForteWinsAtOnce(t *testing.T) {
	// Five queens; segundo, to move, has two queens and three safe
	// squares, one of which leaves primeiro no safe square.
	s := mustNew(t, "tradicional", `{"placed":{"0,5":"D","1,0":"D","4,2":"D","5,7":"D","7,1":"D"},
		"hands":{"primeiro":["D"],"segundo":["D","D"]},"toMove":"segundo"}`)
	var winning []string
	for _, m := range s.Legal(Second) {
		c := s.clone()
		replay(t, c, m)
		if c.outcome.Over && c.outcome.Winner == Second {
			winning = append(winning, m)
		}
	}
	if len(winning) != 1 || len(s.Legal(Second)) < 2 {
		t.Fatalf("test position has winning moves %v among %v, want one of several", winning, s.Legal(Second))
	}
	got, err := forte(s, Second, rand.New(rand.NewPCG(1, 1)), time.Unix(0, 0))
	if err != nil || got != winning[0] {
		t.Errorf("forte = %q, %v, want %q", got, err, winning[0])
	}
}

// TestForteDeadline: with a deadline already past, forte stops after its
// first clock check and still plays a legal move.
func TestForteDeadline(t *testing.T) {
	s := mustNew(t, "grande", "")
	start := time.Now()
	got, err := forte(s, First, rand.New(rand.NewPCG(1, 1)), start.Add(-time.Second))
	if err != nil || !slices.Contains(s.Legal(First), got) {
		t.Fatalf("forte = %q, %v, want a legal move", got, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("forte took %v past its deadline", d)
	}
}

// TestBotRefusals: bots refuse a seat not to move, a finished game and a
// state of another game.
func TestBotRefusals(t *testing.T) {
	type otherState struct{ engine.State }
	over := mustNew(t, "tradicional", `{"hands":{"primeiro":[],"segundo":[]},"toMove":"primeiro"}`)
	for _, lv := range Game().Info().Levels {
		bot, _ := Game().Bot(lv.ID)
		rng := rand.New(rand.NewPCG(1, 1))
		if _, err := bot(mustNew(t, "tradicional", ""), Second, rng, time.Time{}); err == nil {
			t.Errorf("%s moved for the seat not to move", lv.ID)
		}
		if _, err := bot(over, First, rng, time.Time{}); err == nil {
			t.Errorf("%s moved in a finished game", lv.ID)
		}
		if _, err := bot(otherState{}, First, rng, time.Time{}); err == nil {
			t.Errorf("%s moved in another game's state", lv.ID)
		}
	}
}

// TestPlayMatch: the same arguments play the same game, which ends, and
// unknown levels are refused.
func TestPlayMatch(t *testing.T) {
	for _, v := range variants {
		a, err := PlayMatch(v.id, [2]string{LevelRoleta, LevelGulosa}, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := PlayMatch(v.id, [2]string{LevelRoleta, LevelGulosa}, 5, func() time.Time { return time.Time{} })
		if !a.Outcome.Over || !slices.Equal(a.Moves, b.Moves) || a.Outcome != b.Outcome {
			t.Errorf("%s: two plays differ or did not end: %v %+v / %v %+v", v.id, a.Moves, a.Outcome, b.Moves, b.Outcome)
		}
	}
	if _, err := PlayMatch("tradicional", [2]string{LevelGulosa, "dificil"}, 0, nil); engine.CodeOf(err) != engine.CodeUnknownGame {
		t.Errorf("unknown level: %v, want unknown_game", err)
	}
	if _, err := PlayMatch("classico", [2]string{LevelGulosa, LevelGulosa}, 0, nil); engine.CodeOf(err) != engine.CodeUnknownGame {
		t.Errorf("unknown variant: %v, want unknown_game", err)
	}
}
