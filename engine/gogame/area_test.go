package gogame

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// refAreaRows is the area view of a finished reference game, from the
// reference board's own flood fill (oracle_test.go), nil while it goes on:
// TestDifferential compares it with the engine's "area" at every position.
// refExtra is what Extra must give for the reference state r: the frozen
// reference's fields, and once the game is over the area of its flood
// fill (refAreaRows), which the reference predates.
func refExtra(r *refState) map[string]any {
	x := r.Extra()
	if area := refAreaRows(r); area != nil {
		x["area"] = area
	}
	return x
}

func refAreaRows(r *refState) any {
	if !r.over() {
		return nil
	}
	b := r.board
	owner := slices.Clone(b.cells)
	for p, c := range b.cells {
		if c != empty || owner[p] != empty {
			continue
		}
		var region []int
		borders := color(0)
		b.flood(p, func(q int) { region = append(region, q) }, func(q int) { borders |= b.cells[q] })
		if borders != black && borders != white {
			borders = 3 // neither (symbols[3] is .), and not flooded again
		}
		for _, q := range region {
			owner[q] = borders
		}
	}
	n := b.geo.n
	out := make([]string, n)
	for r := range n {
		var sb strings.Builder
		for _, c := range owner[r*n : (r+1)*n] {
			sb.WriteByte(symbols[c])
		}
		out[n-1-r] = sb.String()
	}
	return out
}

// countArea counts the 'X' and 'O' of an area view.
func countArea(rows []string) Score {
	all := strings.Join(rows, "")
	return Score{Black: strings.Count(all, "X"), White: strings.Count(all, "O")}
}

// finish passes twice, ending the game.
func finish(t testing.TB, s *state) {
	t.Helper()
	enginetest.Replay(t, s, Pass, Pass)
}

// TestAreaOfSeedExamples: the area of the seed's printed positions,
// written out by hand, counts to the scores the seed prints.
func TestAreaOfSeedExamples(t *testing.T) {
	tests := []struct {
		name  string
		s     func(t *testing.T) *state
		want  []string // nil: only the count is checked
		score Score
	}{
		{
			name: "calcula_pontos", score: Score{Black: 6, White: 12},
			s: func(t *testing.T) *state {
				s := mustNew(t, "9", setupJSON(t, seedBlack, seedWhite, "black"))
				finish(t, s)
				return s
			},
			want: []string{".........", ".........", "......X..", "......X..", "....XX...", "...OXX...", "OOOO.....", "OOOO.....", "OOO......"},
		},
		{
			name: "example1", score: Score{Black: 6, White: 1},
			s: func(t *testing.T) *state {
				s := mustNew(t, "9", "")
				for _, st := range seedTranscripts[0].steps {
					if st.refused == "" {
						enginetest.Replay(t, s, st.move)
					}
				}
				return s
			},
			want: []string{".........", ".........", ".........", ".........", "....O....", ".........", "X........", "XX.......", "XXX......"},
		},
		{
			name: "example2", score: Score{Black: 28, White: 51},
			s: func(t *testing.T) *state {
				s := mustNew(t, "9", seedTranscripts[1].setup)
				for _, st := range seedTranscripts[1].steps {
					enginetest.Replay(t, s, st.move)
				}
				return s
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.s(t)
			area, ok := s.Extra()["area"].([]string)
			if !ok {
				t.Fatalf("no area in %v", s.Extra())
			}
			if tc.want != nil && !slices.Equal(area, tc.want) {
				t.Errorf("area\n%s\nwant\n%s", strings.Join(area, "\n"), strings.Join(tc.want, "\n"))
			}
			if got, score := countArea(area), scoreOf(t, s); got != tc.score || score != tc.score {
				t.Errorf("area counts %+v, score %+v, the seed prints %+v", got, score, tc.score)
			}
		})
	}
}

// TestAreaCountsToTheScore: on finished games of every size, the area
// view has the board's shape, every stone in its colour's area, and counts
// to the score, whose larger side is the winner (white on ties: the komi
// of our rules); no "area" while the game goes on.
func TestAreaCountsToTheScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	wins := [2]int{}
	for _, n := range []string{"9", "13", "19"} {
		games := map[string]int{"9": 60, "13": 20, "19": 8}[n]
		for range games {
			s := mustNew(t, n, "")
			for !s.over() {
				if _, ok := s.Extra()["area"]; ok {
					t.Fatalf("area while playing: %v", s.Extra())
				}
				seat, _ := s.Turn()
				legal := s.Legal(seat)
				// Mostly stones, so that the games have territories, and a
				// pass now and then, and always once the board fills up.
				move := legal[rng.IntN(len(legal))]
				if len(legal) < len(s.board.cells)/4 || rng.IntN(40) == 0 {
					move = Pass
				}
				enginetest.Replay(t, s, move)
			}
			area := s.Extra()["area"].([]string)
			board := s.Board().([]string)
			if len(area) != len(board) {
				t.Fatalf("area %q, board %q", area, board)
			}
			for r := range board {
				for c := range board[r] {
					if board[r][c] != '.' && area[r][c] != board[r][c] {
						t.Fatalf("area %q: stone %c at row %d col %d counted as %c", area, board[r][c], r, c, area[r][c])
					}
				}
			}
			got, score := countArea(area), scoreOf(t, s)
			if got != score {
				t.Fatalf("area %q counts %+v, score %+v", area, got, score)
			}
			winner := s.Outcome().Winner
			if want := white.seat(); got.Black > got.White {
				if winner != black.seat() {
					t.Fatalf("area %+v: winner %d, want black", got, winner)
				}
			} else if winner != want {
				t.Fatalf("area %+v: winner %d, want white", got, winner)
			}
			wins[winner]++
		}
	}
	if wins[0] == 0 || wins[1] == 0 {
		t.Errorf("wins by seat %v: want both", wins)
	}
}
