package gogame

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// probes are moves tried at every ply: malformed ones, intersections off the
// smaller boards, lower case, GTP spellings and often occupied ones.
var probes = []string{"", "zz", "A0", "a1", "A01", "A10", "J1", "T19", "PASS", "P", "pass ", " A1", "A1", "E5", "I9", "M13", "S19"}

// TestConformance runs the shared engine checks on every variant, with the
// game's own invariants after every move.
func TestConformance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		variant  string
		games    int
		maxPlies int
		every    int
	}{
		{"9", 40, 250, 3},
		{"13", 5, 200, 10},
		{"19", 2, 150, 25},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			games := tc.games
			if testing.Short() {
				games = max(2, games/5)
			}
			enginetest.Check(t, Game(), enginetest.Config{
				Variant:         tc.variant,
				Games:           games,
				MaxPlies:        tc.maxPlies,
				AllowUnfinished: true,
				Probes:          probes,
				SnapshotEvery:   tc.every,
				Invariant:       checkMoveInvariants,
			})
		})
	}
}

// checkMoveInvariants holds after every move: a pass changes no stone; a
// stone adds exactly one stone of the mover, removes only opponent stones
// (the captured ones), leaves no chain without liberties, and makes a
// position the game had not seen. The score is stones plus territory, so it
// never exceeds the board and covers at least the stones.
func checkMoveInvariants(t testing.TB, before, after engine.State, seat int, move string) {
	t.Helper()
	b, a := before.(*state), after.(*state)
	me := colorOfSeat(seat)
	bb, ba := b.board, a.board
	nbBefore, nwBefore := bb.count()
	nbAfter, nwAfter := ba.count()
	if move == Pass {
		if ba.hash != bb.hash || a.passes != b.passes+1 {
			t.Fatalf("pass changed the board or did not count: passes %d -> %d", b.passes, a.passes)
		}
		return
	}
	mine := map[color][2]int{black: {nbBefore, nbAfter}, white: {nwBefore, nwAfter}}
	if m := mine[me]; m[1] != m[0]+1 {
		t.Fatalf("after %s by %s: %d stones of the mover, want %d", move, me.name(), m[1], m[0]+1)
	}
	if o := mine[me.opponent()]; o[1] > o[0] {
		t.Fatalf("after %s: the opponent gained stones %d -> %d", move, o[0], o[1])
	}
	for p, c := range ba.cells {
		if c != empty && !ba.hasLibertyBesides(p, -1) {
			t.Fatalf("after %s: chain at %s has no liberty", move, ba.geo.names[p])
		}
		if c != bb.cells[p] && bb.cells[p] != empty && bb.cells[p] != me.opponent() {
			t.Fatalf("after %s: %s changed from %c to %c", move, ba.geo.names[p], bb.cells[p].symbol(), c.symbol())
		}
	}
	if _, seen := b.seen[ba.hash]; seen {
		t.Fatalf("after %s: the position repeats an earlier one", move)
	}
	if ba.hash != hashOf(ba) {
		t.Fatalf("after %s: incremental hash %x, recomputed %x", move, ba.hash, hashOf(ba))
	}
	sc := scoreOf(t, a)
	if sc.Black < nbAfter || sc.White < nwAfter || sc.Black+sc.White > len(ba.cells) {
		t.Fatalf("after %s: score %+v with %d black and %d white stones on %d intersections", move, sc, nbAfter, nwAfter, len(ba.cells))
	}
}

// hashOf recomputes the Zobrist hash of a board from scratch.
func hashOf(b *board) uint64 {
	var h uint64
	for p, c := range b.cells {
		if c != empty {
			h ^= b.geo.key(p, c)
		}
	}
	return h
}
