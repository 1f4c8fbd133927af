package g2048

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// referenceGuloso is the guloso algorithm written out plainly on the
// reference grid: for each direction in the order N, S, E, W that changes
// the board, the average over every empty cell of 0.8 x the best evaluation
// after one more move with a 2 there plus 0.2 x the same with a 4, in exact
// rational arithmetic; the first direction with the highest average wins.
func referenceGuloso(g grid) string {
	best := ""
	bestValue := new(big.Rat)
	for _, d := range directions {
		after := g
		if !after.reduce(d) {
			continue
		}
		empty := after.empties()
		value := new(big.Rat)
		for _, c := range empty {
			for _, spawn := range []struct {
				tile int
				p    *big.Rat
			}{{2, big.NewRat(8, 10)}, {4, big.NewRat(2, 10)}} {
				withTile := after
				withTile.cells[c.row-1][c.col-1] = spawn.tile
				horizon := lostValue
				for _, d2 := range directions {
					next := withTile
					if next.reduce(d2) {
						horizon = max(horizon, bitboardOf(&next).Evaluate())
					}
				}
				term := new(big.Rat).Mul(spawn.p, new(big.Rat).SetInt64(horizon))
				value.Add(value, term.Quo(term, new(big.Rat).SetInt64(int64(len(empty)))))
			}
		}
		if best == "" || value.Cmp(bestValue) > 0 {
			best, bestValue = d.String(), value
		}
	}
	return best
}

// TestGulosoFollowsItsDefinition compares the bot with referenceGuloso on
// the positions of random games.
func TestGulosoFollowsItsDefinition(t *testing.T) {
	bot := enginetest.Bot(t, Game(), LevelGuloso)
	rng := rand.New(rand.NewPCG(11, 12))
	positions := 0
	for seed := range uint64(10) {
		s := newState(t, VariantSolo, "", seed)
		for !s.Outcome().Over {
			got, err := bot(s.Clone(), 0, rng, time.Time{})
			if err != nil {
				t.Fatalf("seed %d: bot: %v", seed, err)
			}
			if want := referenceGuloso(s.boards[0].grid); got != want {
				t.Fatalf("seed %d: bot plays %s, definition says %s on\n%s", seed, got, want, s.boards[0].grid.String())
			}
			positions++
			legal := s.Legal(0)
			if err := s.Apply(0, legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if positions < 500 {
		t.Errorf("only %d positions compared", positions)
	}
}

// TestGulosoDeterministic: the same position gives the same move whatever
// the random source, and the bot does not change the game it is given a
// clone of.
func TestGulosoDeterministic(t *testing.T) {
	bot := enginetest.Bot(t, Game(), LevelGuloso)
	s := newState(t, VariantSolo, "", 3)
	for ply := range 200 {
		if s.Outcome().Over {
			break
		}
		before := snapshot(t, s)
		first, err := bot(s.Clone(), 0, nil, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		for k := range uint64(3) {
			again, err := bot(s.Clone(), 0, rand.New(rand.NewPCG(k, k)), time.Now().Add(time.Second))
			if err != nil || again != first {
				t.Fatalf("ply %d: bot gave %s then %s, %v", ply, first, again, err)
			}
		}
		if string(before) != string(snapshot(t, s)) {
			t.Fatalf("ply %d: the bot changed the original game", ply)
		}
		if err := s.Apply(0, first); err != nil {
			t.Fatalf("ply %d: bot move %s refused: %v", ply, first, err)
		}
	}
}

func TestGulosoPositions(t *testing.T) {
	bot := enginetest.Bot(t, Game(), LevelGuloso)
	stuck := gridOf([Size][Size]int{{2, 4, 2, 4}, {4, 2, 4, 2}, {2, 4, 2, 4}, {4, 2, 4, 2}}, 0)
	onlyNorth := gridOf([Size][Size]int{{}, {}, {}, {2, 4, 8, 16}}, 0)
	tests := []struct {
		name    string
		s       engine.State
		seat    int
		want    string
		wantErr string
	}{
		{"only N changes the board", &state{variant: VariantSolo, boards: []board{{grid: onlyNorth}}}, 0, "N", ""},
		{"race seat 1 plays its own board", raceOf(stuck, onlyNorth), 1, "N", ""},
		{"race seat 0 is finished", raceOf(stuck, onlyNorth), 0, "", "no legal move"},
		{"game over", &state{variant: VariantSolo, boards: []board{{grid: stuck}}}, 0, "", "no legal move"},
		{"seat out of range", &state{variant: VariantSolo, boards: []board{{grid: onlyNorth}}}, 1, "", "no legal move"},
		{"not a 2048 state", nil, 0, "", "not a 2048 game"},
	}
	for _, tt := range tests {
		got, err := bot(tt.s, tt.seat, nil, time.Time{})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: bot = %q, %v; want an error containing %q", tt.name, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: bot = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

// TestGulosoPlaysWell: over the same seeds, guloso scores far more than a
// random player and reaches the 1024 tile at least once.
func TestGulosoPlaysWell(t *testing.T) {
	bot := enginetest.Bot(t, Game(), LevelGuloso)
	const games = 10
	var botTotal, randomTotal, best int
	for seed := range uint64(games) {
		s := newState(t, VariantSolo, "", seed)
		for !s.Outcome().Over {
			m, err := bot(s.Clone(), 0, nil, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Apply(0, m); err != nil {
				t.Fatalf("seed %d: bot move %s refused: %v", seed, m, err)
			}
		}
		botTotal += s.boards[0].grid.score
		best = max(best, s.boards[0].grid.maxTileValue())

		r := newState(t, VariantSolo, "", seed)
		rng := rand.New(rand.NewPCG(seed, 0))
		for !r.Outcome().Over {
			legal := r.Legal(0)
			if err := r.Apply(0, legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		randomTotal += r.boards[0].grid.score
	}
	if botTotal < 5*randomTotal {
		t.Errorf("guloso scored %d over %d games, random %d: want at least 5 times more", botTotal, games, randomTotal)
	}
	if best < 1024 {
		t.Errorf("guloso's best tile over %d games is %d, want at least 1024", games, best)
	}
}
