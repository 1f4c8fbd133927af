package orbito

import (
	"strconv"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// probes are moves tried at every ply: malformed ones, squares off the
// smallest and largest boards, and squares that are sometimes free.
var probes = []string{"", "zz", "a0", "a", "b2 ", " b2", "B2", "b02", "k1", "a11", "e5", "j10", "b2", "d1", "pass"}

// TestConformance runs the shared engine checks on every variant, with the
// game's own invariants after every move.
func TestConformance(t *testing.T) {
	t.Parallel()
	games := map[int]int{2: 250, 3: 80, 4: 30, 5: 15}
	if testing.Short() {
		games = map[int]int{2: 50, 3: 20, 4: 8, 5: 4}
	}
	for n := minOrbits; n <= maxOrbits; n++ {
		variant := strconv.Itoa(n)
		t.Run(variant, func(t *testing.T) {
			enginetest.Check(t, Game(), enginetest.Config{
				Variant:   variant,
				Games:     games[n],
				MaxPlies:  4 * n * n,
				Probes:    probes,
				Invariant: checkTurnInvariants,
			})
		})
	}
}

// TestConformanceFromSeedSetups runs the shared checks from the seed's
// printed bot positions, white to move included (a side to move with as
// many stones as the other): every position reached from them must play,
// snapshot and restore like any other.
func TestConformanceFromSeedSetups(t *testing.T) {
	for _, toMove := range []string{"black", "white"} {
		t.Run(toMove, func(t *testing.T) {
			enginetest.Check(t, Game(), enginetest.Config{
				Variant:   "2",
				Setup:     setupJSON(t, seedBlack, seedWhite, toMove),
				Games:     100,
				MaxPlies:  16,
				Probes:    probes,
				Invariant: checkTurnInvariants,
			})
		})
	}
}

// checkTurnInvariants holds after every turn: the mover has one more stone,
// the opponent's count is unchanged, every stone moved one step along its
// orbit (so the board is the old board plus the stone, rotated), and the
// outcome is the judgement of the new board.
func checkTurnInvariants(t testing.TB, before, after engine.State, seat int, move string) {
	t.Helper()
	b, a := before.(*state), after.(*state)
	g := b.geo
	sq, err := g.parseSquare(move)
	if err != nil {
		t.Fatalf("applied move %q does not parse: %v", move, err)
	}
	want := append(board(nil), b.cells...)
	want[sq] = stoneOfSeat(seat)
	want = want.rotate(g)
	for i := range want {
		if want[i] != a.cells[i] {
			t.Fatalf("after %s by seat %d: board %q, want %q", move, seat, a.cells.rows(g), want.rows(g))
		}
	}
	me := stoneOfSeat(seat)
	if got, was := a.cells.count(me), b.cells.count(me); got != was+1 {
		t.Fatalf("after %s: %d stones of the mover, want %d", move, got, was+1)
	}
	if got, was := a.cells.count(me.opponent()), b.cells.count(me.opponent()); got != was {
		t.Fatalf("after %s: %d stones of the opponent, want %d", move, got, was)
	}
	if err := checkCounts(a.cells, a.toMove); err != nil {
		t.Fatalf("after %s: %v", move, err)
	}
	for o := 1; o <= g.orbits; o++ {
		var nb, na int
		for x := range a.cells {
			if g.orbit[x] == o && b.cells[x] != empty {
				nb++
			}
			if g.orbit[x] == o && a.cells[x] != empty {
				na++
			}
		}
		if g.orbit[sq] == o {
			nb++
		}
		if na != nb {
			t.Fatalf("after %s: orbit %d holds %d stones, want %d", move, o, na, nb)
		}
	}
	if got, want := a.Outcome(), judge(g, a.cells); got != want {
		t.Fatalf("after %s: outcome %+v, want %+v", move, got, want)
	}
	if turn, ok := a.Turn(); ok && turn == seat {
		t.Fatalf("after %s: seat %d moves again", move, seat)
	}
}
