package gogame

import (
	"math/rand/v2"
	"testing"
)

// TestRandomGameProperties plays many random 9x9 games on the rules board
// and checks, at the end of each, what must hold whatever the moves: every
// stone move made a new position (the superko set grows by exactly one per
// stone move), the incremental hash equals the recomputed one, no chain is
// left without liberties, and the score covers the stones and never more
// than the board.
func TestRandomGameProperties(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 300
	}
	for i := range games {
		rng := rand.New(rand.NewPCG(uint64(i), 0x90))
		s := mustNew(t, "9", "")
		stoneMoves := 0
		for ply := 0; !s.over() && ply < 300; ply++ {
			seat, _ := s.Turn()
			legal := s.Legal(seat)
			move := legal[rng.IntN(len(legal))]
			if err := s.Apply(seat, move); err != nil {
				t.Fatalf("game %d: legal move %q refused: %v", i, move, err)
			}
			if move != Pass {
				stoneMoves++
			}
		}
		b := s.board
		if got, want := len(s.seen), stoneMoves+1; got != want {
			t.Fatalf("game %d: %d positions seen after %d stone moves, want %d", i, got, stoneMoves, want)
		}
		if b.hash != hashOf(b) {
			t.Fatalf("game %d: hash %x, recomputed %x", i, b.hash, hashOf(b))
		}
		for p, c := range b.cells {
			if c != empty && !b.hasLibertyBesides(p, -1) {
				t.Fatalf("game %d: chain at %s without liberty\n%s", i, b.geo.names[p], s)
			}
		}
		nb, nw := b.count()
		sc := scoreOf(t, s)
		if sc.Black < nb || sc.White < nw || sc.Black+sc.White > 81 {
			t.Fatalf("game %d: score %+v with %d black and %d white stones", i, sc, nb, nw)
		}
	}
}
