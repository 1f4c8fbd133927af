package gogame

import (
	"encoding/json"
	"fmt"
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

// optionsGame is the go game under fixed rule options, so that the shared
// engine checks run on games with a komi, a handicap and the stone-removal
// phase too.
type optionsGame struct {
	game
	opts engine.Options
}

func (g optionsGame) New(variant string, setup json.RawMessage, seed uint64) (engine.State, error) {
	return g.game.NewWithOptions(variant, setup, seed, g.opts)
}

// TestConformanceWithOptions runs the shared engine checks on games with a
// komi, a handicap and the stone-removal phase. Random play seldom passes
// twice on an open board, so the stone-removal games start from a setup
// where each side has little left to play but its own eyes (or from a
// handicap, and then mostly reach the phase late): in the phase the random
// player toggles, accepts or resumes, and the check requires the phase to
// have been reached.
func TestConformanceWithOptions(t *testing.T) {
	// Black holds columns A-D and white F-I, each with eyes; column E is
	// empty.
	var blackStones, whiteStones []string
	eyes := map[string]bool{"B2": true, "B5": true, "B8": true, "C3": true, "H2": true, "H5": true, "H8": true, "G3": true}
	for row := 1; row <= 9; row++ {
		for _, col := range "ABCD" {
			if p := fmt.Sprintf("%c%d", col, row); !eyes[p] {
				blackStones = append(blackStones, p)
			}
		}
		for _, col := range "FGHI" {
			if p := fmt.Sprintf("%c%d", col, row); !eyes[p] {
				whiteStones = append(whiteStones, p)
			}
		}
	}
	crowded := json.RawMessage(setupJSON(t, blackStones, whiteStones, "black"))
	for _, tc := range []struct {
		opts  engine.Options
		setup json.RawMessage
		plies int
	}{
		{engine.Options{Komi: 6.5, Removal: true}, crowded, 200},
		{engine.Options{Komi: -0.5, Removal: true}, crowded, 200},
		{engine.Options{Komi: 0.5, Handicap: 4, Removal: true}, nil, 300},
		{engine.Options{Komi: -7.5, Handicap: 9}, nil, 300},
	} {
		t.Run(fmt.Sprintf("%+v setup=%v", tc.opts, tc.setup != nil), func(t *testing.T) {
			scored, games := 0, 8
			if testing.Short() {
				games = 3
			}
			enginetest.Check(t, optionsGame{opts: tc.opts}, enginetest.Config{
				Variant:         "9",
				Setup:           tc.setup,
				Games:           games,
				MaxPlies:        tc.plies,
				AllowUnfinished: true,
				Probes:          probes,
				SnapshotEvery:   3,
				Invariant:       checkMoveInvariants,
				Scored:          &scored,
			})
			if tc.setup != nil && scored == 0 {
				t.Fatal("no game reached the stone-removal phase")
			}
			t.Logf("%d steps in stone-removal phases", scored)
		})
	}
}
