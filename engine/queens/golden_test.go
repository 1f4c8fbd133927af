package queens

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// render prints a position as the seed's mostra_jogo lays it out: rows
// n-1 down to 0, columns 0 up, each placed piece followed by the seat that
// placed it, and the hands with the player to move marked.
func render(s *state) string {
	var b strings.Builder
	n := s.geo.size
	b.WriteString("    ")
	for c := range n {
		fmt.Fprintf(&b, "%3d", c)
	}
	b.WriteByte('\n')
	board := s.Board().([]string)
	owners := s.Extra()["owners"].([]string)
	for i := range n {
		fmt.Fprintf(&b, "%3d ", n-1-i)
		for c := range n {
			if board[i][c] == '.' {
				b.WriteString("  .")
			} else {
				fmt.Fprintf(&b, " %c%c", board[i][c], owners[i][c])
			}
		}
		b.WriteByte('\n')
	}
	for seat, name := range seatNames {
		mark := " "
		if turn, ok := s.Turn(); ok && turn == seat {
			mark = ">"
		}
		fmt.Fprintf(&b, "%s %s: %s\n", mark, name, strings.Join(strings.Split(string(s.hands[seat]), ""), " "))
	}
	return b.String()
}

// TestGoldenMatches replays bot games of every variant and compares the
// printed positions with testdata/<name>.golden (go test -update rewrites
// them). The games pin the seed bots' choices and the x-random draw.
func TestGoldenMatches(t *testing.T) {
	matches := []struct {
		variant string
		levels  [2]string
		seed    uint64
	}{
		{"tradicional", [2]string{LevelApressado, LevelGulosa}, 0},
		{"grande", [2]string{LevelGulosa, LevelApressado}, 0},
		{"impar", [2]string{LevelGulosa, LevelGulosa}, 0},
		{"x-random", [2]string{LevelRoleta, LevelGulosa}, 42},
	}
	for _, m := range matches {
		name := fmt.Sprintf("%s_%s_%s_%d", m.variant, m.levels[0], m.levels[1], m.seed)
		t.Run(name, func(t *testing.T) {
			res, err := PlayMatch(m.variant, m.levels, m.seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := mustNew(t, m.variant, "")
			if m.variant == "x-random" {
				x, _ := Game().New(m.variant, nil, m.seed)
				s = x.(*state)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%s: %s (primeiro) vs %s (segundo), seed %d\n\n%s", m.variant, m.levels[0], m.levels[1], m.seed, render(s))
			for i, mv := range res.Moves {
				replay(t, s, mv)
				fmt.Fprintf(&b, "\n%d. %s %s\n%s", i+1, seatNames[i%2], mv, render(s))
			}
			out := s.Outcome()
			fmt.Fprintf(&b, "\nwinner %s, %s\n", seatNames[out.Winner], out.Reason)
			if out != res.Outcome {
				t.Fatalf("replayed outcome %+v, PlayMatch %+v", out, res.Outcome)
			}
			enginetest.Golden(t, name+".golden", b.String())
		})
	}
}
