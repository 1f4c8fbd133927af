package g2048

import (
	"math/rand/v2"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// probes are moves enginetest tries at every ply: malformed ones, and the
// four directions (refused when they change nothing).
var probes = []string{"", "n", "NN", "N ", "N", "S", "E", "W"}

// tileSum is the sum of the tiles of g.
func tileSum(g *grid) int {
	sum := 0
	for r := range Size {
		for c := range Size {
			sum += g.cells[r][c]
		}
	}
	return sum
}

// checkMoveInvariant checks one applied move on one board: the board after
// is the reduction of the board before plus exactly one new tile (2 or 4)
// on a cell the reduction left empty; the score grew by the merged values;
// the tile sum grew by the new tile alone (merges keep it).
func checkMoveInvariant(t testing.TB, before, after grid, d Direction) {
	t.Helper()
	reduced := before
	if !reduced.reduce(d) {
		t.Fatalf("move %v was applied but changes nothing:\n%s", d, before.String())
	}
	if after.score != reduced.score || after.score%4 != 0 {
		t.Fatalf("move %v: score %d, want %d (a multiple of 4)", d, after.score, reduced.score)
	}
	newTiles := 0
	for r := range Size {
		for c := range Size {
			a, want := after.cells[r][c], reduced.cells[r][c]
			if a == want {
				continue
			}
			if want != 0 || (a != 2 && a != 4) {
				t.Fatalf("move %v: cell (%d, %d) = %d, want %d or a new 2 or 4", d, r+1, c+1, a, want)
			}
			newTiles++
		}
	}
	if newTiles != 1 {
		t.Fatalf("move %v: %d new tiles, want 1", d, newTiles)
	}
	if grew := tileSum(&after) - tileSum(&before); grew != 2 && grew != 4 {
		t.Fatalf("move %v: tile sum grew by %d, want 2 or 4", d, grew)
	}
	// The bitboard plays the same move to the same board and score.
	if before.maxTileValue() < MaxBitboardTile {
		bb := bitboardOf(&before)
		next, score := bb.Move(d)
		if next.Rows() != reduced.cells || score != reduced.score-before.score {
			t.Fatalf("move %v: bitboard gives %v (+%d), grid %v (+%d)", d, next.Rows(), score, reduced.cells, reduced.score-before.score)
		}
	}
}

func invariant(t testing.TB, before, after engine.State, seat int, move string) {
	b, a := before.(*state), after.(*state)
	d, err := parseDirection(move)
	if err != nil {
		t.Fatalf("applied move %q: %v", move, err)
	}
	checkMoveInvariant(t, b.boards[seat].grid, a.boards[seat].grid, d)
	for other := range a.boards {
		if other != seat && !a.boards[other].grid.equal(&b.boards[other].grid) {
			t.Fatalf("a move of seat %d changed the board of seat %d", seat, other)
		}
	}
}

// TestConformance runs the shared engine checker on both variants, from the
// initial position and from a setup.
func TestConformance(t *testing.T) {
	t.Parallel()
	games := 60
	if testing.Short() {
		games = 15
	}
	tests := []enginetest.Config{
		{Variant: VariantSolo},
		{Variant: VariantRace, Games: games / 2},
		{Variant: VariantSolo, Setup: []byte(`{"board":[[0,2,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]],"score":0,"seed":42}`)},
		{Variant: VariantRace, Games: games / 2, Setup: []byte(`{"board":[[2,4,8,16],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"score":16}`)},
	}
	for _, cfg := range tests {
		if cfg.Games == 0 {
			cfg.Games = games
		}
		cfg.Probes = probes
		cfg.Invariant = invariant
		t.Run(cfg.Variant, func(t *testing.T) {
			enginetest.Check(t, Game(), cfg)
		})
	}
}

// TestRandomGamesProperties plays thousands of random solo games straight on
// the state and checks every move (checkMoveInvariant), that Legal lists
// exactly the moves that change the board in the order N, S, E, W, and that
// every game ends with a full board.
func TestRandomGamesProperties(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 300
	}
	for i := range games {
		rng := rand.New(rand.NewPCG(uint64(i), 2048))
		s := newState(t, VariantSolo, "", uint64(i))
		for ply := 0; ; ply++ {
			g := s.boards[0].grid
			var want []string
			for _, d := range directions {
				h := g
				if h.reduce(d) {
					want = append(want, d.String())
				}
			}
			legal := s.Legal(0)
			if len(legal) != len(want) {
				t.Fatalf("game %d ply %d: Legal = %v, want %v", i, ply, legal, want)
			}
			for k := range want {
				if legal[k] != want[k] {
					t.Fatalf("game %d ply %d: Legal = %v, want %v", i, ply, legal, want)
				}
			}
			if len(legal) == 0 {
				out := s.Outcome()
				if !out.Over || len(g.empties()) != 0 || out.Reason != ReasonNoMoves {
					t.Fatalf("game %d: no legal move but outcome %+v, %d empty cells", i, out, len(g.empties()))
				}
				if (out.Winner == 0) != (g.maxTileValue() >= WinningTile) {
					t.Fatalf("game %d: winner %d with largest tile %d", i, out.Winner, g.maxTileValue())
				}
				break
			}
			move := legal[rng.IntN(len(legal))]
			if err := s.Apply(0, move); err != nil {
				t.Fatalf("game %d ply %d: Apply(%s): %v", i, ply, move, err)
			}
			d, _ := parseDirection(move)
			checkMoveInvariant(t, g, s.boards[0].grid, d)
		}
	}
}
